/* A symbolic pointer is resolved like KLEE: one fork per object it may point into, then the
 * out-of-bounds case — not only the object under the solver's first example address, which
 * may lie in no object at all. g[i] with 2 < i < 8: i == 3 is in bounds and reaches the
 * error; 4 ≤ i ≤ 7 point into g's red zone, out of bounds. */
// EXPECT: completed=0 errors=2 tests=2
// EXPECT-ERROR: reach_error line=@reach
// EXPECT-ERROR: ptr line=@read
// EXPECT-OBJECTS: nondet_uint:4
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);
int g[4];

int main(void) {
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i > 2);
  __VERIFIER_assume(i < 8);
  g[3] = 7;
  int v = g[i]; /* @read */
  if (v == 7) reach_error(); /* @reach */
  return 0;
}
