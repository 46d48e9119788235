/* For each of n rows (n ≤ ROWS, a size), skip the row's leading blanks up to its symbolic
 * length len[r] ≤ W and count the rows that were blank to the end; then count the digits of
 * the first row. Under --incremental-merge the outer loop's region holds the inner loop (no
 * region nests under it), so paths whose snapshots meet equal are joined inside it, and the
 * states reaching the outer loop's exit — each a join of paths — fall back from PAT (too
 * many candidate patterns). Merged the CFG way, they make one state whose path condition
 * holds the disjunction of those joins' disjunctions, and every query of the digit scan
 * after the exit carries it: 1.01 M of Z3 effort against 0.45 M with the members forked
 * (none: 1.03 M). So under incremental merging such a fallback forks (merge/strategy_pat.c,
 * fallback_forks); plain --merge=pat still merges them the CFG way.
 * EXPECT: fallback-forks-joined
 * The error: three rows, two of them blank.
 */
#include <symq.h>
#define ROWS 3
#define W 3

int main(void) {
  size_t n, len[ROWS], blank = 0, digits = 0;
  char s[ROWS][W];
  symq_make_symbolic(&n, sizeof n, "n");
  symq_assume(n <= ROWS);
  symq_make_symbolic(len, sizeof len, "len");
  for (int r = 0; r < ROWS; r++) symq_assume(len[r] <= W);
  symq_make_symbolic(s, sizeof s, "s");
  for (size_t r = 0; r < n; r++) { /* the blanks leading row r */
    size_t j = 0;
    while (j < len[r] && s[r][j] == ' ') j++;
    blank += j == len[r];
  }
  for (int j = 0; j < W; j++) digits += s[0][j] >= '0' && s[0][j] <= '9';
  symq_assert(blank <= n && digits <= W);
  symq_assert(blank != 2 || n != 3);
  return 0;
}
