/* An OID-style decoder in the manner of libtasn1's asn1_get_object_id_der over 8 symbolic
 * bytes: base-128 digits accumulated into a 64-bit value (val = val·128 + (b & 0x7f)),
 * X.690's checks (no leading 0x80, no overflow), and each component printed in decimal
 * (repeated division by 10). Paths multiply with the bytes, and every branch on val is a
 * query over 64-bit multiply-accumulate arithmetic. */
#include <klee/klee.h>
#include <stdint.h>

#define LEN 8

static int put_decimal(char *out, int pos, uint64_t v) {
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    out[pos++] = tmp[--n];
  return pos;
}

static int decode_oid(const unsigned char *der, int len, char *out) {
  if (len < 1)
    return -1;
  int pos = put_decimal(out, 0, der[0] / 40);
  out[pos++] = '.';
  pos = put_decimal(out, pos, der[0] % 40);
  uint64_t val = 0;
  int leading = 1;
  for (int k = 1; k < len; k++) {
    if (leading && der[k] == 0x80)
      return -1;
    leading = 0;
    if (val > (UINT64_MAX >> 7))
      return -1;
    val = val * 128 + (der[k] & 0x7f);
    if (!(der[k] & 0x80)) {
      out[pos++] = '.';
      pos = put_decimal(out, pos, val);
      val = 0;
      leading = 1;
    }
  }
  out[pos] = 0;
  return pos;
}

int main(void) {
  unsigned char der[LEN];
  char out[LEN * 24];
  klee_make_symbolic(der, sizeof der, "der");
  int r = decode_oid(der, LEN, out);
  klee_assert(r < (int)sizeof out);
  return 0;
}
