/* An out-of-bounds read in the inner loop: each of n rows (n ≤ ROWS) is a buffer of symbolic
 * size len[r] ≤ W, and the scan's bound is off by one, so it reads row[r][len[r]] when the
 * row is all 'a'. The error side of each bounds check ends at once (the same error as
 * forking); the in-bounds sides leave by the byte test and merge by pattern per row (3
 * merges of 3 states: counts 0 … W − 1), and the outer exits continue forked. */
// EXPECT-PAT: merges=3 merged_states=9
// EXPECT-NESTED: regions=3
// EXPECT-INC: merges=4 merged_states=11 nested=6
// EXPECT-DECISION: merged by pattern=3
// EXPECT-DECISION: fallback fork (nested ∀: an iteration holds an inner loop's ∀ merge)=1
#include <symq.h>
#define ROWS 3
#define W 3

int main(void) {
  char *row[ROWS];
  size_t len[ROWS], n, total = 0;
  for (int r = 0; r < ROWS; r++) row[r] = symq_symbolic_buffer(W, &len[r], "row");
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  for (size_t r = 0; r < n; r++) {
    size_t j = 0;
    while (j <= len[r] && row[r][j] == 'a') j++; /* @oob: row[r][len[r]] */
    total += j;
  }
  symq_assert(total <= n * W);
  return (int)total;
}
