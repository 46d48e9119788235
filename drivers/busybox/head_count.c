/* busybox xatoull_sfx with kmg_i_suffixes (head -c, tail -c, split -b, dd's bs=): a count
 * of symbolic length n <= CAP with an optional suffix, k/K/m/M/g/G (powers of 1024) or
 * KB/MB/GB (of 1000); an invalid or out-of-range count exits 1. Checks that a returned
 * count without a suffix is the decimal value of its digits, and that "k" multiplies by
 * 1024 and "KB" by 1000. */
#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = busybox_symbolic_string(s, "count");
  unsigned long long c = xatoull_sfx(s, kmg_i_suffixes);
  size_t digits = strspn(s, "0123456789");
  klee_assert(digits > 0);
  if (digits <= 6) {
    unsigned long long v = 0;
    for (size_t i = 0; i < digits; i++) v = v * 10 + (unsigned)(s[i] - '0');
    if (digits == n) klee_assert(c == v);
    if (digits + 1 == n && s[digits] == 'k') klee_assert(c == v * 1024);
    if (digits + 2 == n && s[digits] == 'K' && s[digits + 1] == 'B') klee_assert(c == v * 1000);
  }
  return 0;
}
