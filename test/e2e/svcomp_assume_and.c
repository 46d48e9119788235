/* The SV-COMP idiom __VERIFIER_assume(x > 0 && x < 3): clang turns && into a branch, so on
 * the false side the call gets a constant 0. The rules say assume(false) never returns: that
 * path ends quietly (counted in quiet_paths: no test, no error, and not an early end — the
 * exploration stays complete). The true side keeps x in {1, 2}, and the branch on x == 1
 * gives 2 completed paths; the assert can't fail. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: nondet_int:4
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int);
extern void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > 0 && x < 3);
  if (x == 1)
    return 0;
  if (x != 2)
    reach_error();
  return 1;
}
