/* libtasn1 asn1_get_length_der: the length field of a DER encoding of symbolic length
 * n <= CAP (short form, long form, indefinite). Checks that a decoded length fits in the
 * input that follows the field, that the field's own length is within the input (an empty
 * input decodes as length 0 in 0 bytes), and that failures are the documented codes. */
#include "common.h"

int main(void) {
  unsigned char der[CAP];
  int n = symbolic_der(der, "der");
  int len_len = 0;
  long len = asn1_get_length_der(der, n, &len_len);
  if (len >= 0) {
    klee_assert(len_len <= n && (len_len >= 1 || n == 0));
    klee_assert(len <= n - len_len);
  } else {
    klee_assert(len == -1 || len == -2 || len == -4);
  }
  return 0;
}
