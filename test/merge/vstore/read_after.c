/*
 * busybox's parse_duration_str in small: len = strspn(s, "0123456789") — a loop whose body
 * tests each byte against a set, so its exits are many states (one per path through the set's
 * comparisons) with few distinct lengths, and no pattern fits them: a CFG fallback. Then
 * s[len] = 0, a store at the merged length, and the digits are read again (strtod's loop).
 * Merged, len is an ite over the members' conditions and every later read of s goes through
 * the store at that index; forked, each state reads its own cells, its digits pinned. The
 * old estimate counted only the sites reading len (the store, the restore) and merged.
 * EXPECT: decision="declined: merged values read by later queries (too many candidate patterns)"
 */
#include "span.h"

int main(void) {
  char s[CAP + 1];
  symbolic_terminated(s);
  unsigned len = span(s, "0123456789");
  char saved = s[len];
  s[len] = 0;
  unsigned v = 0;
  for (unsigned i = 0; s[i]; i++) v = v * 10 + (unsigned)(s[i] - '0');
  s[len] = saved;
  klee_assert(v != 123);
  return saved == 'x';
}
