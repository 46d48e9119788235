/* Three loops deep: for a < n, b < m, c < k (each ≤ 2), total++. Forking makes 15 paths.
 * The innermost loop's regions open nested in the middle loop's region, itself nested in the
 * outer loop's: 4 innermost merges (no ∀ left: K = k, a cell of the middle region's array),
 * then the middle loop's exits merge by pattern in each outer iteration reached (2 merges,
 * whose ∀ reads the innermost K cells), and the outer loop's 3 exit states, which would need
 * a ∀ in a ∀, continue forked — 6 merges of 18 states, 3 states after the nest instead of 15
 * paths. total = n·m·k is proven on them and the planted failure is found. */
// EXPECT-PAT: merges=6 merged_states=18
// EXPECT-NESTED: regions=6
// EXPECT-INC: merges=2 merged_states=5 nested=0
// EXPECT-DECISION: merged by pattern=6
// EXPECT-DECISION: fallback fork (nested ∀: an iteration holds an inner loop's ∀ merge)=1
#include <symq.h>

int main(void) {
  size_t n, m, k, total = 0;
  symq_make_symbolic(&n, sizeof n, "n");
  symq_make_symbolic(&m, sizeof m, "m");
  symq_make_symbolic(&k, sizeof k, "k");
  symq_assume(n <= 2);
  symq_assume(m <= 2);
  symq_assume(k <= 2);
  for (size_t a = 0; a < n; a++)
    for (size_t b = 0; b < m; b++)
      for (size_t c = 0; c < k; c++) total++;
  symq_assert(total == n * m * k);
  symq_assert(total != 8); /* @planted: n = m = k = 2 */
  return (int)total;
}
