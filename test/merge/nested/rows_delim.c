/* Nested loops whose inner loop leaves two ways: for each of n rows (n ≤ ROWS, a size), scan
 * up to a ';' or the row's symbolic length len[r] ≤ W, whichever comes first, and count the
 * rows that had a ';'. Forking makes 400 paths. The inner loop's region opens at the bound
 * test (its false side leaves the loop, `&&` compiled as two branches) and its exits merge
 * by pattern into two states per row — one for each way out, ∀ over the bytes before — so 7
 * inner regions (1 + 2 + 4 rows reached) make 14 merges of 49 states. The outer loop's 14
 * exit states hold inner ∀'s and continue forked, the decision recorded. */
// EXPECT-PAT: merges=14 merged_states=49
// EXPECT-NESTED: regions=7
// EXPECT-INC: merges=0 merged_states=0 nested=0
// EXPECT-DECISION: merged by pattern=14
// EXPECT-DECISION: fallback fork (nested ∀: an iteration holds an inner loop's ∀ merge)=1
#include <symq.h>
#define ROWS 3
#define W 3

int main(void) {
  char s[ROWS][W];
  size_t len[ROWS], n, fields = 0;
  symq_make_symbolic(s, sizeof s, "s");
  symq_make_symbolic(len, sizeof len, "len");
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  for (int r = 0; r < ROWS; r++) symq_assume(len[r] <= W);
  for (size_t r = 0; r < n; r++) {
    size_t j = 0;
    while (j < len[r] && s[r][j] != ';') j++;
    fields += j < len[r];
  }
  symq_assert(fields <= n);
  symq_assert(fields != 2 || n != 2); /* @planted: a ';' in both rows */
  return (int)fields;
}
