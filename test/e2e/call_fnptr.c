/* An indirect call through a function pointer loaded from a table at a symbolic index
 * i < 3: the callee is symbolic, and symq forks once per feasible target, as KLEE does:
 * 3 completed paths, one per function. A call through a concrete pointer does not fork. */
// EXPECT: completed=3 errors=0 tests=3
// EXPECT-OBJECTS: i:4
// SEARCH-INVARIANT
#include <klee/klee.h>

static int f0(int v) { return v + 1; }
static int f1(int v) { return v * 2; }
static int f2(int v) { return -v; }

static int (*const table[3])(int) = {f0, f1, f2};

int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 3);

  int (*fixed)(int) = f1;
  klee_assert(fixed(3) == 6);

  int r = table[i](10);
  klee_assert(((i == 0) & (r == 11)) | ((i == 1) & (r == 20)) | ((i == 2) & (r == -10)));
  return r;
}
