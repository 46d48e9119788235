/* libtasn1 asn1_get_octet_der: an OCTET STRING's contents (length field, then bytes) from
 * DER of symbolic length n <= CAP into a CAP-byte buffer. Checks that success consumed the
 * field plus the contents within n, and copied exactly the contents. */
#include <string.h>

#include "common.h"

int main(void) {
  unsigned char der[CAP], out[CAP];
  int n = symbolic_der(der, "der");
  int ret_len = 0, str_len = 0;
  if (asn1_get_octet_der(der, n, &ret_len, out, sizeof out, &str_len) == ASN1_SUCCESS) {
    klee_assert(ret_len <= n && str_len >= 0 && str_len <= ret_len);
    klee_assert(memcmp(out, der + (ret_len - str_len), (size_t)str_len) == 0);
  }
  return 0;
}
