/*
 * big_group.c with path conditions that grow apart (issue 26, "merge only where it pays"):
 * the copy loop keeps a byte unless a running hash of the kept bytes says otherwise, so the
 * test at each tree node reads a hash that differs from subtree to subtree. Its 63 fallback
 * states reach the exit with no pattern PAT can merge; merged the CFG way, their disjunction
 * (323 expression nodes) is six times what one forked state carries (42 on average). A cost
 * proxy weighing a merged query by its path condition's size declines this merge, wrongly:
 * merged, the run asks 520 queries (270 reach Z3) against forking's 7,398 (3,749). The
 * estimate must keep taking it (decide.py checks the merge is taken and pays).
 * The error: a byte dropped and at least three 'x'.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#ifndef CAPACITY
#define CAPACITY 5
#endif

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char s[CAPACITY + 1], out[CAPACITY + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  char *d = out;
  unsigned h = 0;
  for (const char *p = s; *p; p++) {
    unsigned next = h * 31u + (unsigned char)*p;
    if ((next & 7u) != 3u) {
      *d++ = *p;
      h = next;
    }
  }
  *d = 0;
  size_t len = (size_t)(d - out);
  klee_assert(len <= n);
  int xs = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == 'x') xs++;
  klee_assert(len == n || xs < 3);
  return 0;
}
