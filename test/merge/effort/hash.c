/*
 * A loop over a string of symbolic length n <= 10 whose body forks a diamond on every byte, on
 * a question about a 16-bit hash of the bytes before it (a product, modulo 7; an 8-bit hash
 * stopped being hard once Z3's lanes kept the path's prefix asserted, d5a523d: its forks then
 * cost less than the give-up's budget, and pat completed no path in the budget):
 * 2^n paths, 2,047 in all — fewer than --max-region-states, so the tree's estimate keeps the
 * region open, yet each fork's queries are hard bit-vector questions that cost Z3
 * far more effort than a byte comparison. The region would hold every state until the budget
 * ran out (no path completes); it gives up on the solver effort its states would cost
 * (merge/region.c) and they go on forked: pat completes paths as none does within the same
 * instruction budget.
 * EXPECT: giveup=1 max-instructions=2000
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#define CAP 10

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  unsigned char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  uint16_t h = 0x9e37u;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if ((uint16_t)(h * c) % 7u == 3u)
      h = (uint16_t)(h * 31u + c);
    else
      h ^= (uint16_t)(c * 0x9393u);
  }
  return (int)(h & 1u);
}
