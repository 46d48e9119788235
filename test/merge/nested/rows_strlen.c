/* Nested loops (issue 26, item 3c): for each of n rows of a 2D buffer (n ≤ ROWS, a size),
 * the length of the row up to its terminator — every row ends at a symbolic length
 * len[r] ≤ W (s[r][len[r]] = 0), and the scan stops at the first zero byte. Forking makes
 * 1 + 4 + 16 + 64 = 85 paths. Under --merge=pat the inner loop's region opens inside the
 * outer loop's region and is merged first: each row's W + 1 exits become one state with
 * ∀i ∈ [1, K]. s[r][i−1] ≠ 0, s[r][K] = 0 (3 merges of 4 states, one per row reached).
 * Back in the outer region each merged state is one symbol of the outer iteration's word;
 * the outer loop's 4 exit states would need a ∀ nested in a ∀ whose bound is a value of the
 * outer iteration, which the expression language does not have: they continue forked, the
 * decision recorded. The assertions are proven on the merged states, and the planted
 * failure is found as forking finds it. */
// EXPECT-PAT: merges=3 merged_states=12
// EXPECT-NESTED: regions=3
// EXPECT-INC: merges=0 merged_states=0 nested=0
// EXPECT-DECISION: merged by pattern=3
// EXPECT-DECISION: fallback fork (nested ∀: an iteration holds an inner loop's ∀ merge)=1
#include <symq.h>
#define ROWS 3
#define W 3

int main(void) {
  char s[ROWS][W + 1];
  size_t len[ROWS], n;
  symq_make_symbolic(s, sizeof s, "s");
  symq_make_symbolic(len, sizeof len, "len");
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  for (int r = 0; r < ROWS; r++) {
    symq_assume(len[r] <= W);
    s[r][len[r]] = 0;
  }
  size_t total = 0;
  for (size_t r = 0; r < n; r++) {
    size_t j = 0;
    while (s[r][j]) j++;
    total += j;
  }
  symq_assert(total <= n * W);
  symq_assert(total != 2 * W || n < 2); /* @planted: two full rows */
  return (int)total;
}
