/*
 * A DER-like input (issue 26, item 3d): a symbolic size n ≤ CAPACITY, a length byte the code
 * decodes from the input, checked against n (`1 + len > n` is an error), then a loop over
 * that many content bytes. The loop's exit reads the decoded length, not n: it opens a merge
 * region (under --merge-loops=decoded) only because the check bounded the length by a size
 * (merge/size.h, 4). The loop
 * counts leading 0x01 bytes, a pattern PAT merges: its count is K and nothing after it reads
 * the content bytes, so the merge pays (the same loop with der read afterwards is declined,
 * see forall_read.c). The error: a length of 5 whose contents are all 0x01.
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 6
#endif

static int decode(const unsigned char *der, int n) {
  if (n < 1) return -1;
  int len = der[0];
  if (1 + len > n) return -1;
  int k = 0;
  while (k < len && der[1 + k] == 1) k++;
  return k;
}

int main(void) {
  int n;
  unsigned char der[CAPACITY];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume((n >= 0) & (n <= CAPACITY));
  klee_make_symbolic(der, sizeof der, "der");
  int k = decode(der, n);
  klee_assert(k < 5);
  return 0;
}
