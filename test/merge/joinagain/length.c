/*
 * libtasn1's asn1_get_length_der in small: a long-form length of k bytes (k from the first
 * byte) is read while punt <= k and bytes remain. The sides of the loop's `&&` (punt > k, or
 * punt == len) both leave the loop, and nothing after it asks either comparison again: under
 * --merge=pat --incremental-merge they are joined, as before (test/merge/joinagain.py).
 */
#ifndef CAP
#define CAP 6
#endif

#include "der.h"

static long length(const unsigned char *der, int len, int *used) {
  if (!(der[0] & 128)) {
    *used = 1;
    return der[0];
  }
  int k = der[0] & 0x7F, punt = 1;
  unsigned long ans = 0;
  while (punt <= k && punt < len) {
    ans = ans * 256 + der[punt];
    punt++;
  }
  *used = punt;
  return (long)ans;
}

int main(void) {
  unsigned char der[CAP];
  int len = symbolic_der(der), used = 0;
  long n = length(der, len, &used);
  klee_assert(used >= 1 && used <= len);
  if (n > 0 && n <= CAP) klee_assert(n + used >= 2);
  return 0;
}
