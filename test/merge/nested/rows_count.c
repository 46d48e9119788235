/* Nested loops whose inner loop adds no ∀ (issue 26, item 3c): for each of n rows (n ≤ ROWS,
 * a size), a loop over the row's symbolic length len[r] ≤ W counts its bytes. Forking makes
 * 1 + 4 + 16 + 64 = 85 paths. Under --merge=pat the inner loop's region opens inside the
 * outer loop's and is merged first: each row's W + 1 exits become one state whose K is cell r
 * of the outer region's array pat_KA (K = len[r], total = total + K), with no ∀ left (the
 * loop's conditions are monotone in i). The outer iterations are then alike up to constants,
 * and the outer loop's 4 exit states merge by pattern too — over K_out, with the inner K's as
 * cells read at 8·(i − 1): 3 + 1 merges of 4 states, ONE state after the nest. The
 * assertions are proven on it, and the planted failure is found as forking finds it. */
// EXPECT-PAT: merges=4 merged_states=16
// EXPECT-NESTED: regions=3
// EXPECT-INC: merges=8 merged_states=26 nested=5
// EXPECT-DECISION: merged by pattern=4
#include <symq.h>
#define ROWS 3
#define W 3

int main(void) {
  size_t len[ROWS], n;
  symq_make_symbolic(len, sizeof len, "len");
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  for (int r = 0; r < ROWS; r++) symq_assume(len[r] <= W);
  size_t total = 0;
  for (size_t r = 0; r < n; r++)
    for (size_t j = 0; j < len[r]; j++) total++;
  symq_assert(total <= n * W);
  symq_assert(total != 2 * W || n < 2); /* @planted: two full rows */
  return (int)total;
}
