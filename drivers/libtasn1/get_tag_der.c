/* libtasn1 asn1_get_tag_der: the identifier octets (class, constructed bit, tag number in
 * the short or long form) of a DER encoding of symbolic length n <= CAP. Checks that
 * success consumes at least one and at most n bytes and gives a class of the two top bits. */
#include "common.h"

int main(void) {
  unsigned char der[CAP];
  int n = symbolic_der(der, "der");
  unsigned char cls;
  int len = 0;
  unsigned long tag;
  if (asn1_get_tag_der(der, n, &cls, &len, &tag) == ASN1_SUCCESS) {
    klee_assert(len >= 1 && len <= n);
    klee_assert((cls & 0x1f) == 0 && (cls & 0xc0) == (der[0] & 0xc0));
    if (len == 1) klee_assert(tag == (der[0] & 0x1fu));
  }
  return 0;
}
