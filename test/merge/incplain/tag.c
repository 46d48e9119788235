/*
 * libtasn1's asn1_get_tag_der in small, with its gnulib overflow checks: a long-form tag is
 * read while bytes remain and each has its high bit set. The only branch whose two sides
 * stay in the loop is `punt < len`; they can meet only at the `&&` (the side that ran out of
 * bytes takes the `&&`'s false and leaves), and `if (punt >= len)` after the loop asks that
 * comparison again, so every join would be declined. INT_ADD_OVERFLOW's `b < 0` on an
 * unsigned value never forks. With -DLOOK_AGAIN_NOT the check after the loop reads the byte
 * instead, and the `&&`'s sides may be joined: the region keeps its incremental part.
 */
#ifndef CAP
#define CAP 6
#endif

#include "../joinagain/der.h"

#define ADD_OVERFLOWS(a, b) ((b) < 0u ? (a) < 0u - (b) : 0xFFFFFFu - (b) < (a))

static long tag(const unsigned char *der, int len) {
  if ((der[0] & 0x1F) != 0x1F) return der[0] & 0x1F;
  int punt = 1;
  unsigned ris = 0;
  while (punt < len && der[punt] & 128) {
    if (ADD_OVERFLOWS(ris * 128, (unsigned)(der[punt] & 0x7F))) return -2;
    ris = ris * 128 + (der[punt] & 0x7F);
    punt++;
  }
#ifdef LOOK_AGAIN_NOT
  if (ris > 300) return -1;
#else
  if (punt >= len) return -1;
#endif
  ris = ris * 128 + (der[punt] & 0x7F);
  return (long)ris;
}

int main(void) {
  unsigned char der[CAP];
  int len = symbolic_der(der);
  long t = tag(der, len);
  klee_assert(t >= -2);
  return 0;
}
