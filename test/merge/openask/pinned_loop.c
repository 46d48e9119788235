/* A loop over a symbolic size n that every path reaches with n already fixed: the branches
 * before it pin n to one value per path, so each trip's `i < n` has one feasible side and no
 * region opens. merge_at_branch used to ask the solver whether both sides of each trip's
 * branch were feasible before the interpreter asked the same two questions to branch, and
 * the caches did not catch the repeats: --merge=pat asked more queries than --merge=none for
 * the same paths. The region is now opened when the branch forks, so pat asks what none asks.
 * EXPECT: paths=7 regions=0
 */
#include <stdlib.h>

#include <klee/klee.h>

#include "sized.h"

int main(void) {
  unsigned n;
  char *buf = sized_buffer(&n);
  if (!buf) return 1;
  unsigned width; /* written out, not a loop: no region opens at these branches */
  if (n == 0) width = 1;
  else if (n == 1) width = 2;
  else if (n == 2) width = 3;
  else if (n == 3) width = 4;
  else if (n == 4) width = 5;
  else if (n == 5) width = 6;
  else width = 7;
  for (unsigned i = 0; i < n; i++) buf[i] = (char)('a' + i % width);
  buf[n] = 0;
  unsigned len = 0;
  while (buf[len]) len++;
  klee_assert(len == n);
  free(buf);
  return 0;
}
