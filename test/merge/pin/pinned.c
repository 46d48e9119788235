/*
 * busybox's sleep_duration in small: memcpy(copy, s, n + 1) of a string of symbolic length
 * n ≤ CAP terminated by the store s[n] = 0. Its loop's exits merge by pattern into K = n + 1,
 * but each forked state's path condition pins n to its own constant (i < n + 1 at every step,
 * then not), while the merged state leaves n a symbol: every later read of s (a scan that
 * never reads n) goes through the store at the symbolic index n. The old estimate saw no
 * merged value (n is the same symbol in every member) and merged; n pinned per member makes
 * s (written at n) and copy merged memory that the scan's branches read — declined.
 * EXPECT: decision="declined: merged values read by later queries"
 */
#include <klee/klee.h>
#include <string.h>

#ifndef CAP
#define CAP 3
#endif

int main(void) {
  char s[CAP + 1], copy[CAP + 1];
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  memcpy(copy, s, n + 1);
  int k = 0;
  for (int i = 0; s[i]; i++)
    if (s[i] == 'a') k++;
  klee_assert(!(k == 3 && copy[0] == 'b'));
  return k;
}
