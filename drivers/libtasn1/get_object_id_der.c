/* libtasn1 asn1_get_object_id_der: an OBJECT IDENTIFIER's contents decoded to dotted text
 * ("1.2.840...") from DER of symbolic length n <= CAP. Checks that success gives a
 * NUL-terminated text of digits and dots that starts with 0, 1 or 2. */
#include <string.h>

#include "common.h"

int main(void) {
  unsigned char der[CAP];
  char text[128];
  int n = symbolic_der(der, "der");
  int ret_len = 0;
  if (asn1_get_object_id_der(der, n, &ret_len, text, sizeof text) == ASN1_SUCCESS) {
    klee_assert(ret_len <= n);
    size_t len = strlen(text);
    klee_assert(len > 0 && text[0] >= '0' && text[0] <= '2');
    for (size_t i = 0; i < len; i++)
      klee_assert((text[i] >= '0' && text[i] <= '9') || text[i] == '.');
  }
  return 0;
}
