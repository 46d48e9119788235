/* Verification tasks often declare the allocators with 32-bit sizes. The sizes must be
 * widened to 64 bits at the built-in: a 32-bit size compared with 64-bit bounds is a query
 * Z3 rejects, and that path used to end quietly. n ≤ 10 from a nondet: n == 3 reaches the
 * error, n != 3 completes, n > 10 returns at once. */
// EXPECT: completed=2 errors=1 tests=3
// EXPECT-ERROR: reach_error line=@reach
// EXPECT-OBJECTS: nondet_uint:4
extern void *calloc(unsigned, unsigned);
extern void *malloc(unsigned);
extern unsigned __VERIFIER_nondet_uint(void);
extern void reach_error(void);

int main() {
  unsigned n = __VERIFIER_nondet_uint();
  if (n > 10) return 0;
  int *p = calloc(n + 1, sizeof(int));
  char *q = malloc(n + 1);
  p[n] = 1;
  q[n] = 2;
  if (n == 3) reach_error(); /* @reach */
  return 0;
}
