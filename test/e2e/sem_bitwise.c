/* and, or, xor (and `~`, which is xor with -1). Identities first (no fork), then probes on
 * separate variables, shape `if (P) { assert(what P forces); return k; }`: 4 probes => 5
 * completed paths. */
// EXPECT: completed=5 errors=0 tests=5
// EXPECT-OBJECTS: x:4 y:4 a:4 b:4 c:1 d:4
#include <klee/klee.h>

int main(void) {
  unsigned x, y, a, b;
  unsigned char c;
  int d;
  klee_make_symbolic(&x, sizeof x, "x");
  klee_make_symbolic(&y, sizeof y, "y");
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");
  klee_make_symbolic(&d, sizeof d, "d");

  /* Identities over all inputs. */
  klee_assert((x & y) + (x | y) == x + y);
  klee_assert((x ^ y) == ((x | y) & ~(x & y)));
  klee_assert((x ^ x) == 0u);
  klee_assert((~x & x) == 0u);

  /* P1: and/or pin a: the low byte is 0x3C and nothing above it is set. */
  if (((a & 0xFFu) == 0x3Cu) & ((a | 0xFFu) == 0xFFu)) {
    klee_assert(a == 0x3Cu);
    return 1;
  }
  /* P2: xor is invertible: b = 0xDEADBEEF ^ 0x12345678. */
  if ((b ^ 0xDEADBEEFu) == 0x12345678u) {
    klee_assert(b == 0xCC99E897u);
    return 2;
  }
  /* P3: or with 0x0F hides the low nibble: the high nibble must be 3. */
  if ((c | 0x0F) == 0x3F) {
    klee_assert((c >> 4) == 3);
    return 3;
  }
  /* P4: ~d = -d - 1, so ~d = 41 only for d = -42. */
  if (~d == 41) {
    klee_assert(d == -42);
    return 4;
  }
  return 0;
}
