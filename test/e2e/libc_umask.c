/* umask: the mask starts at 022, each call returns the previous one and keeps only the
 * permission bits (busybox's bb_parse_mode reads it with umask(0) and restores it). A
 * symbolic mask goes through unchanged: one path, whose checks hold for every mask. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: mask:4
#include <sys/stat.h>
#include <klee/klee.h>

int main(void) {
  mode_t mask;
  klee_make_symbolic(&mask, sizeof mask, "mask");
  klee_assert(umask(0) == 022);
  klee_assert(umask(mask) == 0);
  klee_assert(umask(022) == (mask & 0777));
  klee_assert(umask(022) == 022);
  return 0;
}
