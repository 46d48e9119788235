/* merge_late_input.c's driver under --merge=cfg: its paths merge at the loop's exits when
 * the region is released (merge/region.c), not along its tree, and their tests too get the
 * input made after the loop. */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=2 errors=0 tests=17
// EXPECT-OBJECTS: s:8 n:4 late:4
#include "merge_late_input.c"
