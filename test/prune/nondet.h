/* nondet.h — the SV-COMP-style drivers' declarations, N (defaults to 4; the tests pass
 * -DN=…), and their N nondet choices: each reads its own __VERIFIER_nondet_int and adds 3
 * to noise when it is > 100, takes 1 away otherwise. A macro, so that the loop stays in
 * main and noise is one of main's registers. */
int __VERIFIER_nondet_int(void);
void reach_error(void);
#ifndef N
#define N 4
#endif
#define NONDET_CHOICES(noise)                                                               \
  for (int i_ = 0; i_ < N; i_++) {                                                          \
    int c_ = __VERIFIER_nondet_int();                                                       \
    if (c_ > 100) (noise) += 3;                                                             \
    else                                                                                    \
      (noise) -= 1;                                                                         \
  }
