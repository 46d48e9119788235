/* The same loop over a size that nothing before it fixes: the loop's first trip forks, the
 * region opens there (on the state that forks, when it forks) and its exits merge by pattern
 * into one state — as when the region was opened before the branch was asked.
 * EXPECT: paths=1 regions=1
 */
#include <stdlib.h>

#include <klee/klee.h>

#include "sized.h"

int main(void) {
  unsigned n;
  char *buf = sized_buffer(&n);
  if (!buf) return 1;
  unsigned i = 0;
  for (; i < n; i++) buf[i] = 'a';
  klee_assert(i == n);
  free(buf);
  return 0;
}
