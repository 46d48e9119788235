/*
 * libtasn1's asn1_get_tag_der in small: a long-form tag is read while bytes remain and each
 * has its high bit set. The loop's `&&` is a join of its body: the side that ran out of bytes
 * (punt >= len) and the side whose byte ends the tag meet there, and under --merge=pat
 * --incremental-merge they would be joined with ite — but right after the loop
 * `if (punt >= len)` asks the comparison they parted at again, and splits the joined state
 * into the two sides again. So they are not joined (merge/incremental.c,
 * parted_on_a_later_question; test/merge/joinagain.py).
 */
#ifndef CAP
#define CAP 6
#endif

#include "der.h"

static long tag(const unsigned char *der, int len) {
  if ((der[0] & 0x1F) != 0x1F) return der[0] & 0x1F;
  int punt = 1;
  unsigned long ris = 0;
  while (punt < len && der[punt] & 128) {
    ris = ris * 128 + (der[punt] & 0x7F);
    punt++;
  }
  if (punt >= len) return -1;
  ris = ris * 128 + (der[punt] & 0x7F);
  return (long)ris;
}

int main(void) {
  unsigned char der[CAP];
  int len = symbolic_der(der);
  long t = tag(der, len);
  klee_assert(t >= -1);
  if (t >= 128) klee_assert(len >= 3); /* two bytes of the tag after the first */
  return 0;
}
