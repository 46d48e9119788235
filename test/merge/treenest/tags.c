/*
 * wget html_tags' wrong merged value in small (issue 26 item 7, found by
 * `--validate-merges` on the real drivers): a tag-name scan — a loop nested in the scan for
 * '<' — merges by pattern, and its merged state rejoins the outer region's tree as a nested
 * node whose condition is its whole tail, beside the branch edges of the states that left
 * the inner loop unmerged (grafted with their paths: `32 < s[i]`, ...). The outer region's
 * CFG merge along the tree builds each value as ite(child1.cond, v1, ite(child2.cond, ...)),
 * which assumes the children's conditions exclude each other; the nested node's tail does
 * not exclude its earlier siblings' edges (for K = 0 it implies `32 < s[i]`), so under its
 * own path the merged `mark` takes a sibling's value: `merge validation failed for state N
 * (...): value: merged value 0 of 4 differs from constituent J's under its path` (refuted,
 * not a timeout). merge/strategy_cfg.c's tree_merge_init must not walk the tree when a
 * nested node has a sibling holding members (the flat ite over the tails is exact).
 * RUN: --merge=pat --incremental-merge=off --merge-decide=always --max-region-states=4096 -DCAP=5
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAP
#define CAP 4
#endif
#define NAME_CHAR(x) \
  ((x) > 32 && (x) < 127 && (x) != '=' && (x) != '<' && (x) != '>' && (x) != '/')

int main(void) {
  char s[CAP];
  size_t n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  const char *p = s, *end = s + n, *mark = s;
  int tags = 0;
  while (p < end) {
    if (*p != '<') {
      p++;
      continue;
    }
    p++;
    if (p >= end) break;
    if (*p == '/') {
      p++;
      continue;
    }
    const char *q = p;
    while (q < end && NAME_CHAR(*q)) q++;
    if (q == p) continue;
    mark = p;
    if (q < end && *q == '>') tags++;
    p = q;
  }
  return (int)(mark - s) + tags;
}
