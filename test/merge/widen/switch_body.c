/* A switch in the loop body (issue 26, item 3c): each byte is counted as 'a', a digit of
 * "01" or other. Forking makes 364 paths at capacity 5; with --incremental-merge the
 * switch's targets are joined where they meet after it (equal sides, then ite on the
 * counters), each iteration adds one symbol to the word, and the exit states merge by pattern
 * — and a + d + o = n is proven on the merged state. */
// ARGS-PAT: --incremental-merge --merge-decide=always
// EXPECT-PAT: merges=1 merged_states=6
#include <symq.h>
#define CAP 5

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAP, &n, "s");
  unsigned a = 0, d = 0, o = 0;
  for (size_t i = 0; i < n; i++) {
    switch (s[i]) {
    case 'a': a++; break;
    case '0':
    case '1': d++; break;
    default: o++;
    }
  }
  symq_assert(a + d + o == n);
  return (int)(a + d);
}
