/* memcpy, memset and memmove — the intrinsics clang emits for array initialisers and struct
 * assignment, and the libc model's functions that the calls reach (symq compiles drivers with
 * -fno-builtin) — on symbolic and concrete bytes,
 * including overlapping moves in both directions. All lengths are concrete. Everything is
 * checked by asserts that must hold on every path; the only fork is the final branch on a
 * moved symbolic byte: 2 completed paths. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: src:8
#include <string.h>
#include <klee/klee.h>

struct pair {
  int a;
  char b[5];
};

int main(void) {
  unsigned char src[8];
  klee_make_symbolic(src, sizeof src, "src");

  unsigned char dst[8];
  memcpy(dst, src, sizeof dst);
  for (int k = 0; k < 8; k++) klee_assert(dst[k] == src[k]);

  memset(dst, 0xAA, 3);
  for (int k = 0; k < 3; k++) klee_assert(dst[k] == 0xAA);
  for (int k = 3; k < 8; k++) klee_assert(dst[k] == src[k]);

  /* Forward overlap: dst[2..6] = old dst[0..4] = AA AA AA s3 s4. */
  memmove(dst + 2, dst, 5);
  klee_assert((dst[0] == 0xAA) & (dst[1] == 0xAA) & (dst[2] == 0xAA) & (dst[3] == 0xAA));
  klee_assert((dst[4] == 0xAA) & (dst[5] == src[3]) & (dst[6] == src[4]) & (dst[7] == src[7]));

  /* Backward overlap: dst[0..4] = old dst[3..7] = AA AA s3 s4 s7. */
  memmove(dst, dst + 3, 5);
  klee_assert((dst[0] == 0xAA) & (dst[1] == 0xAA) & (dst[2] == src[3]) & (dst[3] == src[4]));
  klee_assert((dst[4] == src[7]) & (dst[5] == src[3]) & (dst[6] == src[4]) & (dst[7] == src[7]));

  /* memset with a symbolic byte value. */
  unsigned char fill[4];
  memset(fill, src[0], sizeof fill);
  for (int k = 0; k < 4; k++) klee_assert(fill[k] == src[0]);

  /* Concrete data: an initialised array (copied from a constant global) and memcpy. */
  char text[16] = "hello, world";
  char copy[16];
  memcpy(copy, text, sizeof text);
  klee_assert((copy[0] == 'h') & (copy[7] == 'w') & (copy[12] == 0) & (copy[15] == 0));

  /* Struct assignment with a symbolic member. */
  struct pair p1 = {0, "abcd"}, p2;
  p1.a = src[1] * 3;
  p2 = p1;
  klee_assert((p2.a == src[1] * 3) & (p2.b[3] == 'd') & (p2.b[4] == 0));

  /* dst[2] now holds src[3]. */
  if (dst[2] == 'Q') return 1;
  return 0;
}
