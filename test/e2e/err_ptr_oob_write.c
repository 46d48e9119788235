/* Out-of-bounds write: k <= 8 indexes an 8-byte heap block, so k = 8 writes one byte past its
 * end. The store forks: in bounds the path frees the block and completes; k = 8 is a ptr
 * error at the store. 1 completed path + 1 error = 2 tests. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: ptr line=@oob_write
// EXPECT-OBJECTS: k:4
#include <stdlib.h>
#include <klee/klee.h>

int main(void) {
  unsigned k;
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume(k <= 8);
  char *buf = malloc(8);
  buf[k] = 'x'; /* @oob_write */
  free(buf);
  return 0;
}
