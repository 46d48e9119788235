/* An out-of-bounds read inside the loop (issue 26, item 3a): memspn's loop with an off-by-one
 * bound reads s[n] when the first n bytes are 'a'. Every iteration's bounds check forks an
 * error side, which ends at once (one out-of-bound error, as with --merge=none); the in-bounds
 * sides keep memspn's word and leave by the byte test: one merge by pattern of the CAP exits
 * (counts 0 … CAP−1), no fallback, no invalid hash. The merged state proves k < n and
 * finds the planted failure, as forking does. */
// EXPECT-PAT: merges=1 merged_states=8
#include <symq.h>
#define CAP 8

static size_t span(const char *s, size_t n) {
  size_t i = 0;
  while (i <= n && s[i] == 'a') i++; /* @oob: s[n] is one past the end */
  return i;
}

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAP, &n, "s");
  size_t k = span(s, n);
  symq_assert(k < n);            /* holds on every path that gets here */
  symq_assert(k != 2 || n < 6); /* @planted: false for "aa" then not 'a', n ≥ 6 */
  return (int)k;
}
