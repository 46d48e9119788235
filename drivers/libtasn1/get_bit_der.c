/* libtasn1 asn1_get_bit_der: a BIT STRING's contents (length, unused-bits octet, bytes)
 * from DER of symbolic length n <= CAP into a CAP-byte buffer. Checks that success reports
 * a bit length that fits in the bytes consumed. */
#include "common.h"

int main(void) {
  unsigned char der[CAP], out[CAP];
  int n = symbolic_der(der, "der");
  int ret_len = 0, bit_len = 0;
  if (asn1_get_bit_der(der, n, &ret_len, out, sizeof out, &bit_len) == ASN1_SUCCESS) {
    klee_assert(ret_len <= n && bit_len >= 0);
    klee_assert(bit_len <= 8 * (ret_len - 1));
  }
  return 0;
}
