/*
 * wget's url_has_scheme in small, called twice on the same string (wget uri_merge; APR
 * unescape_url's two apr_unescape_url calls have the same shape): the loop's body branches
 * three ways per byte, so PAT finds too many candidate patterns and its exit falls back. A
 * CFG merge of the first call's states would hold the disjunction of their paths over the
 * bytes of s; the second call walks the same bytes with the same branches, so every one of
 * its questions is asked over that disjunction and the merged state is split by them into
 * the members' paths again, each carrying it. The fallback is declined ("declined: a later
 * call walks the merged paths' bytes again", docs/merging.md "Merge decisions") and its
 * states continue forked: pat explores --merge=none's paths and asks Z3 less than with the
 * merge (Z3 effort 0.16 M against 0.40 M merged; none 0.11 M: the forked states resumed
 * after the region find their models gone from the counterexample cache, as uri_merge's do).
 * No error: both calls agree.
 *
 * -DTO_COLON: the scheme ends at the first ':' (or the string's end), one path continuing per
 * byte, so the states at the loop's exit each arrive by a path of their own length and
 * partition by pattern (ends at ':', ends at the terminator). A merge by pattern, its ∀ over
 * s, would be split by the second walk into the members' paths again as well, each carrying
 * the ∀: the exit is declined on its first sample of states, before any pattern is
 * synthesized (before, the sample's partitions kept it waiting until the release declined
 * them after synthesizing their ∀).
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

#ifndef TO_COLON
static int scheme_char(char c) { return c == 'a' || c == '+' || c == '-'; }
#endif

/* The length of the scheme before ':', or -1. */
static int scheme_length(const char *p) {
  const char *start = p;
#ifdef TO_COLON
  while (*p && *p != ':') ++p;
#else
  if (!*p || !scheme_char(*p)) return -1;
  ++p;
  while (*p && scheme_char(*p)) ++p;
#endif
  return *p == ':' ? (int)(p - start) : -1;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char s[CAPACITY + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  int first = scheme_length(s);
  int again = scheme_length(s);
  klee_assert(first == again);
  if (first > 0) klee_assert(s[first] == ':');
  return 0;
}
