/* A builtin is bound to its name once, but its number of arguments is checked at every
 * call: klee_range called with two arguments instead of three is not the builtin but an
 * external call symq does not have, so the path that calls it ends early ("unsupported:
 * external call klee_range"), as in early_external_call.c. x = 7 calls it: 1 completed +
 * 1 early = 2 tests. (Declared here without <klee/klee.h>, whose klee_range takes three.) */
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: unsupported: external call klee_range
// EXPECT-OBJECTS: x:4
int klee_int(const char *name);
int klee_range(int lo, int hi);

int main(void) {
  int x = klee_int("x");
  if (x == 7) return klee_range(0, x);
  return 0;
}
