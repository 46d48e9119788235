/* __VERIFIER_assume prunes paths without forking: after assuming 0 <= x < 4 (written with
 * '&', so that the condition is one value, not a branch), the branches x < 0 and x > 3 are
 * infeasible and never taken; x == 2 and x != 2 remain. An assumption that already holds
 * changes nothing. Then y is tied to x, so y != x + 1 is infeasible too. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: nondet_int:4 nondet_int:4
// SEARCH-INVARIANT
extern void __VERIFIER_assume(int);
extern int __VERIFIER_nondet_int(void);
void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume((x >= 0) & (x < 4));
  __VERIFIER_assume(x < 100);
  if (x < 0) reach_error();
  if (x > 3) reach_error();
  int y = __VERIFIER_nondet_int();
  __VERIFIER_assume(y == x + 1);
  if (y != x + 1) reach_error();
  if (x == 2) return 1;
  return 0;
}
