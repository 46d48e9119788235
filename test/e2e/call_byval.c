/* A struct larger than 16 bytes passed by value: clang passes a pointer to a byval copy that
 * belongs to the callee. The callee's write must not reach the caller's struct, and the
 * symbolic field must arrive intact. One path; neither assert can fail. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: k:4
#include <klee/klee.h>

struct big {
  int a[8];
};

static int touch(struct big b) {
  b.a[0] = 99;
  return b.a[1];
}

int main(void) {
  struct big b = {{1, 2, 3, 4, 5, 6, 7, 8}};
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  b.a[1] = k;
  int r = touch(b);
  klee_assert(b.a[0] == 1);
  klee_assert(r == k);
  return 0;
}
