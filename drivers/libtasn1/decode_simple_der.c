/* libtasn1 asn1_decode_simple_der: a complete TLV of one of the simple types (OCTET STRING,
 * the string types) from DER of symbolic length n <= CAP, the type chosen symbolically (one
 * path per type). Checks that the decoded contents lie inside the input. */
#include "common.h"

int main(void) {
  unsigned char der[CAP];
  int n = symbolic_der(der, "der");
  static const unsigned types[] = {ASN1_ETYPE_OCTET_STRING, ASN1_ETYPE_UTF8_STRING,
                                   ASN1_ETYPE_IA5_STRING, ASN1_ETYPE_BMP_STRING};
  int which = klee_range(0, 4, "etype");
  unsigned etype = types[0];
  for (int i = 1; i < 4; i++)
    if (which == i) etype = types[i];
  const unsigned char *str = NULL;
  unsigned str_len = 0;
  if (asn1_decode_simple_der(etype, der, (unsigned)n, &str, &str_len) == ASN1_SUCCESS) {
    klee_assert(str >= der && str + str_len <= der + n);
  }
  return 0;
}
