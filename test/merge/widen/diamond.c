/* An if/else in the loop body (issue 26, item 3b): `if (s[i] > 'm') hi++; else lo++;` over a
 * buffer of symbolic size n stopped by a 0 byte. Forking makes 2^i paths per length; with
 * --incremental-merge the two sides of the diamond are joined with ite on hi and lo where
 * they meet, and each iteration adds one symbol to the word: the states leaving by the 0 byte
 * (counts 0 … CAP−1) merge by pattern, those leaving by i = n as equal states. The planted
 * assertion fails on one path in every mode. */
// ARGS-PAT: --incremental-merge --merge-decide=always
// EXPECT-PAT: merges=1 merged_states=5
#include <symq.h>
#define CAP 5

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAP, &n, "s");
  unsigned hi = 0, lo = 0;
  for (size_t i = 0; i < n && s[i] != 0; i++) {
    if (s[i] > 'm') hi++;
    else
      lo++;
  }
  symq_assert(hi + lo <= n);
  symq_assert(hi != 2 || lo != 3); /* @planted */
  return (int)(hi - lo);
}
