/* symq's own manual-region calls, with plain forking: --merge=none ignores the region, so
 * the 4 paths of two branches stay separate. */
// ARGS: --merge=none
// EXPECT: completed=4 errors=0 tests=4
// EXPECT-OBJECTS: a:1 b:1
#include <symq.h>

int main(void) {
  unsigned char a, b;
  symq_make_symbolic(&a, sizeof a, "a");
  symq_make_symbolic(&b, sizeof b, "b");
  int k = 0;
  symq_merge_begin();
  if (a > 10) k += 1;
  if (b > 10) k += 2;
  symq_merge_end();
  return k;
}
