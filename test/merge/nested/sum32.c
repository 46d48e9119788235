/* Nested loops over 32-bit counters (the e2e paths_nested_loops driver, checked here under
 * --merge=pat): for i < n ≤ 3, for j < m ≤ 2, sum += i + 1. Forking makes 10 paths. The inner
 * loop's test −1 + extract32(i) < m is monotone in i (the counter truncated to 32 bits), so
 * each inner merge is K = m with no ∀ left, and its K is a cell of the outer region's array:
 * the outer loop then merges by pattern too — 3 + 1 merges of 13 states, ONE state after
 * the nest, on which sum = m·n(n+1)/2 is proven; the planted failure is found. */
// EXPECT-PAT: merges=4 merged_states=13
// EXPECT-NESTED: regions=3
// EXPECT-INC: merges=3 merged_states=10 nested=0
// EXPECT-DECISION: merged by pattern=4
#include <symq.h>

int main(void) {
  unsigned n, m;
  symq_make_symbolic(&n, sizeof n, "n");
  symq_make_symbolic(&m, sizeof m, "m");
  symq_assume(n <= 3);
  symq_assume(m <= 2);
  unsigned sum = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < m; j++) sum += i + 1;
  symq_assert(sum == m * (n * (n + 1) / 2));
  symq_assert(sum != 12); /* @planted: n = 3, m = 2 */
  return (int)sum;
}
