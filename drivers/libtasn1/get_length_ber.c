/* libtasn1 asn1_get_length_ber: like asn1_get_length_der but BER's indefinite length (0x80)
 * is measured by walking the contents to its end-of-contents marker. Input of symbolic
 * length n <= CAP. Checks that a decoded length and its field fit in the input. */
#include "common.h"

int main(void) {
  unsigned char ber[CAP];
  int n = symbolic_der(ber, "ber");
  int len_len = 0;
  long len = asn1_get_length_ber(ber, n, &len_len);
  if (len >= 0) klee_assert(len_len >= 1 && len_len <= n && len <= n);
  return 0;
}
