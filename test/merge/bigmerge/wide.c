/*
 * One CFG merge of 511 states (issue 26 item 7): a flag per byte of s[0..n), n ≤ 8, so every
 * n gives 2^n paths and all of them meet at the loop's exit, merged along the tree into one
 * state whose pc is the tree's disjunction and whose v is an ite over 511 leaves. Before
 * merge/validate decided its checks by the merge's structure, --validate-merges asked the
 * solver 2,556 queries for this one merge, each holding the whole disjunction or ite chain
 * (on the real drivers such merges timed out as "not proved"); now it asks one small query
 * at most per constituent.
 * RUN: --merge=cfg -DCAP=8
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAP
#define CAP 8
#endif

int main(void) {
  signed char s[CAP];
  size_t n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  unsigned v = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] < 0) v |= 1u << i;
  return v == 0x5a ? 1 : 0;
}
