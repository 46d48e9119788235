/* A 2-level pointer chase through symbolic indices, each level landing in separate memory
 * objects (separate globals):
 *     rows[i]   read at a symbolic offset of one object: a symbolic pointer to row0 or row1
 *     r[j]      dereferences that pointer: it may point into 2 objects, so the path forks
 *               once per object (as KLEE does); the value read is a symbolic pointer to
 *               one of that row's 2 leaves
 *     *leaf     may point to 2 objects: forks again
 * i, j < 2, every resolution is in bounds: 2 x 2 = 4 completed paths, no error. */
// EXPECT: completed=4 errors=0 tests=4
// EXPECT-OBJECTS: i:4 j:4
// SEARCH-INVARIANT
#include <klee/klee.h>

static int leaf00 = 100, leaf01 = 101, leaf10 = 110, leaf11 = 111;
static int *row0[2] = {&leaf00, &leaf01};
static int *row1[2] = {&leaf10, &leaf11};
static int **rows[2] = {row0, row1};

int main(void) {
  unsigned i, j;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_assume(i < 2);
  klee_assume(j < 2);
  int **r = rows[i];
  int *leaf = r[j];
  int v = *leaf;
  klee_assert(v == 100 + 10 * (int)i + (int)j);
  return v;
}
