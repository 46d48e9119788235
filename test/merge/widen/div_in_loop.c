/* A division by zero inside the loop (item 3a, the other checks that fork an error side):
 * the divisor s[i] − 'a' is zero at an 'a'. Every iteration forks a divide-by-zero side
 * that ends at once; the others leave by i < n (counts 1 … CAP) or by the 'z' break (counts
 * 0 … CAP−1; no 'z' at all when n = 0): two merges by pattern, q an ite on K. */
// EXPECT-PAT: merges=2 merged_states=17
#include <symq.h>
#define CAP 8

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAP, &n, "s");
  unsigned q = 0;
  size_t i = 0;
  for (; i < n; i++) {
    if (s[i] == 'z') break;
    q += 100u / (unsigned char)(s[i] - 'a'); /* @div */
  }
  return (int)(q + i);
}
