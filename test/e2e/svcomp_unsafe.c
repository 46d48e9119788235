/* An unsafe SV-COMP task: reach_error declared (symq's built-in) and reachable only after
 * the loop has run five times. __VERIFIER_assume bounds n to [0, 5] without forking; the
 * loop then forks once per n: n = 0..4 complete, n = 5 reaches the error, exactly once and
 * at its call. */
// ARGS: --merge=none
// EXPECT: completed=5 errors=1 tests=6
// EXPECT-ERROR: reach_error line=@reach
// EXPECT-OBJECTS: nondet_uint:4
// SEARCH-INVARIANT
extern void __VERIFIER_assume(int);
extern unsigned int __VERIFIER_nondet_uint(void);
void reach_error(void);

int main(void) {
  unsigned n = __VERIFIER_nondet_uint();
  __VERIFIER_assume(n <= 5);
  unsigned sum = 0;
  for (unsigned i = 0; i < n; i++) sum += 2;
  if (sum == 10) {
    reach_error(); /* @reach */
  }
  return 0;
}
