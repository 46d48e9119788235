/* One path of N __VERIFIER_nondet_int() calls (N from -DN=..., default 10000), as in the
 * SV-COMP tasks whose loop reads one input per iteration: every call makes a new symbolic
 * array named "int" (int, int_1, int_2, …). Measures the per-input cost of a deep path
 * (bench_nondet.py); no branch depends on the inputs, so there is one path. */
#ifndef N
#define N 10000
#endif
extern int __VERIFIER_nondet_int(void);
volatile int sink;
int main(void) {
  for (int i = 0; i < N; i++) sink = __VERIFIER_nondet_int();
  return 0;
}
