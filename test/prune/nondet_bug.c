/* N rounds of a nondet choice that the final check reads (through the noise): states with
 * different noise must not be subsumed by one another, renaming or not; reach_error when
 * every choice took c > 100. */
int __VERIFIER_nondet_int(void);
void reach_error(void);
#ifndef N
#define N 4
#endif
int main(void) {
  int noise = 0;
  for (int i = 0; i < N; i++) {
    int c = __VERIFIER_nondet_int();
    if (c > 100) noise += 3;
    else
      noise -= 1;
  }
  if (noise == 3 * N) reach_error();
  return 0;
}
