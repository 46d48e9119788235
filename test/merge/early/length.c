/*
 * The shape of libtasn1's asn1_get_length_der and its callers (issue 26, item 1: early
 * decisions): a DER length in long form, its k bytes decoded by a loop bounded by the
 * symbolic input length n, with the library's overflow checks on the accumulated value (-2),
 * then the content the decoded length spans, walked by a loop the length bounds. The region
 * around the decoding loop holds its states at the loop's exits until every iteration has
 * been explored; those that leave with a length — each with its own count of length bytes,
 * that the content's branches read — would be declined at the release. So the decision is
 * taken on the first MERGE_EARLY_SAMPLE of them: they go on forked at once, and pat completes
 * as many paths as none within the same instruction budget (without the early decision: none
 * until the loop is explored). The exit returning -2 still waits, and is declined at the
 * release (its states have only the caller's test left to ask).
 * EXPECT: early=1 max-instructions=10000 full-cap=10
 */
#include <klee/klee.h>
#include <limits.h>

#ifndef CAP
#define CAP 24
#endif


static long get_length(const unsigned char *der, int der_len, int *len) {
  *len = 0;
  if (der_len <= 0) return 0;
  if (!(der[0] & 128)) {
    *len = 1;
    return der[0];
  }
  int k = der[0] & 0x7F, punt = 1;
  if (!k) return -1;
  unsigned ans = 0, checksum = 0;
  while (punt <= k && punt < der_len) {
    if (ans > UINT_MAX / 256) return -2;
    ans *= 256;
    if (ans > UINT_MAX - der[punt]) return -2;
    ans += der[punt];
    punt++;
    /* what an iteration costs — in libtasn1, the solver's time on ever deeper overflow
     * checks (47–77 ms a query against ~3 ms on the paths after the loop); here
     * instructions, that the budget counts; no fork */
    for (int j = 0; j < 64; j++) checksum = checksum * 31 + (unsigned)j;
  }
  *len = punt;
  if (ans >= INT_MAX || checksum == 1) return -2;
  return (long)ans;
}

int main(void) {
  unsigned char der[CAP];
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume((n >= 0) & (n <= CAP));
  klee_make_symbolic(der, CAP, "der");
  int len_len = 0;
  long len = get_length(der, n, &len_len);
  if (len < 0) return 1;
  if (len > n - len_len) return 2;
  long words = 0;
  for (long i = 0; i < len; i += 2) words++;
  klee_assert(2 * words >= len && len_len <= n);
  return 0;
}
