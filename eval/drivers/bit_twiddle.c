/* Shifts and masks over one symbolic 32-bit word (issue 25, item 2): a bit reversal, a SWAR
 * population count and an xorshift mix, built only from shifts, masks, adds, xors and ors,
 * then three paths decided by them (904 palindromes of sixteen ones have a mix starting
 * with 0xA; the second branch asks for sixteen bits of mix ^ reverse). Every condition ties
 * all 32 bits of x through the stages of each computation, so the run's cost is the
 * solver's on the bit-vector encoding and the rewriter's, not the memory model's. */
#include <klee/klee.h>
static unsigned reverse(unsigned v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0F0F0F0Fu) | ((v & 0x0F0F0F0Fu) << 4);
  v = ((v >> 8) & 0x00FF00FFu) | ((v & 0x00FF00FFu) << 8);
  return (v >> 16) | (v << 16);
}
static unsigned popcount(unsigned v) {
  v = (v & 0x55555555u) + ((v >> 1) & 0x55555555u);
  v = (v & 0x33333333u) + ((v >> 2) & 0x33333333u);
  v = (v & 0x0F0F0F0Fu) + ((v >> 4) & 0x0F0F0F0Fu);
  v = (v & 0x00FF00FFu) + ((v >> 8) & 0x00FF00FFu);
  return (v & 0x0000FFFFu) + (v >> 16);
}
static unsigned mix(unsigned h) {
  h ^= h << 13;
  h ^= h >> 17;
  h ^= h << 5;
  return h;
}
int main(void) {
  unsigned x;
  klee_make_symbolic(&x, sizeof x, "x");
  unsigned r = reverse(x), p = popcount(x), h = mix(x);
  if ((r == x) & (p == 16) & ((h >> 28) == 0xAu))
    return 1;
  if ((((h ^ r) & 0xFFFF0000u) == 0x5A5A0000u) & (p < 14))
    return 2;
  return 0;
}
