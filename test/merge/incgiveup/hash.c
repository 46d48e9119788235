/*
 * escape.c's shape with a hard question at every byte: the byte is escaped when a 16-bit
 * hash of the bytes before it, times the byte, is 3 modulo 7 (test/merge/effort/hash.c's
 * question). The sides differ in the output pointer, so --incremental-merge joins none, and
 * each fork costs Z3 ~50,000 effort: the region's queue, at that much a state, would cost
 * more than its budget long before as many states wait as --max-region-states allows, and
 * it gives up on the effort (test/merge/incgiveup.py: without the give-up no path completes
 * within the budget; with it about as many as none).
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
  unsigned char *s = malloc(n + 1), out[2 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  uint16_t h = 0x9e37u;
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if ((uint16_t)(h * c) % 7u == 3u) *p++ = '\\';
    *p++ = c;
    h = (uint16_t)(h * 31u + c);
  }
  return (int)(p - out) & 1;
}
