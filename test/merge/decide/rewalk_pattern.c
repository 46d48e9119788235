/*
 * rewalk_call.c's shape with a loop PAT can merge by pattern: the scheme's end is the first
 * ':' (or the string's end), one path continuing per byte, so the states at the loop's exit
 * each arrive by a path of their own length and partition by pattern (ends at ':', ends at
 * the terminator). main calls the function again on the same string: the second walk asks
 * the same branches on the same bytes, so a merged state — by pattern, its ∀ over s — would
 * be split by them into the members' paths again, each carrying the ∀. The exit is declined
 * on its first sample of states ("declined early: a later call walks the merged paths' bytes
 * again", docs/merging.md "Merge decisions"), before any pattern is synthesized, and its
 * states continue forked without waiting for the rest of the loop; before, the sample's
 * partitions kept the exit waiting until the release declined them after synthesizing
 * their ∀. No error: both calls agree.
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 6
#endif

/* The length of the scheme before ':', or -1. */
static int scheme_end(const char *s) {
  const char *p = s;
  while (*p && *p != ':') ++p;
  return *p == ':' ? (int)(p - s) : -1;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char s[CAPACITY + 1];
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  int first = scheme_end(s);
  int again = scheme_end(s);
  klee_assert(first == again);
  if (first >= 0) klee_assert(s[first] == ':');
  return 0;
}
