/* The inner loop in a function the outer loop calls: span(row, len) counts a row's leading
 * 'a' bytes, for each of n rows (n ≤ ROWS, len[r] ≤ W: sizes). Forking makes 400 paths. The
 * callee's loop opens its region nested in the outer loop's (a frame deeper), its two ways out
 * merge by pattern per call (14 merges of 49 states over 7 calls reached), and the outer loop's
 * exits, holding the inner ∀'s, continue forked. Under --incremental-merge the callee's loop
 * nests in the incremental outer region until that region's first merge: one nested region. */
// EXPECT-PAT: merges=14 merged_states=49
// EXPECT-NESTED: regions=7
// EXPECT-INC: merges=3 merged_states=10 nested=1
// EXPECT-DECISION: merged by pattern=14
// EXPECT-DECISION: fallback fork (nested ∀: an iteration holds an inner loop's ∀ merge)=1
#include <symq.h>
#define ROWS 3
#define W 3

static size_t span(const char *row, size_t len) {
  size_t i = 0;
  while (i < len && row[i] == 'a') i++;
  return i;
}

int main(void) {
  char s[ROWS][W];
  size_t len[ROWS], n, total = 0;
  symq_make_symbolic(s, sizeof s, "s");
  symq_make_symbolic(len, sizeof len, "len");
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  for (int r = 0; r < ROWS; r++) symq_assume(len[r] <= W);
  for (size_t r = 0; r < n; r++) total += span(s[r], len[r]);
  symq_assert(total <= n * W);
  symq_assert(total != 2 * W || n < 2); /* @planted */
  return (int)total;
}
