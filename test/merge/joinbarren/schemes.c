/*
 * wget url_parse's url_has_scheme in small, reached by eight paths (three flags tested
 * before it): a run of scheme characters (c_isalnum a switch, or '-', or '+') up to a ':'. Under
 * --incremental-merge each region at its loop joins the sides of the test (three ways to go
 * on, one state after each byte), and its exits, holding joined members, continue forked
 * (merge/strategy_pat.c); such a region merged, and its loop opens a region at each of the
 * eight entries (merge/region.c, joined_innermost). Counted as one that merged nothing, the
 * loop opened no region after its second, and the six later entries ran forked, each way of
 * each byte a path of its own.
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

static int alpha(int c) {
  switch (c) {
  case 'A' ... 'Z':
  case 'a' ... 'z':
    return 1;
  default:
    return 0;
  }
}

#define SCHEME_CHAR(c) (alpha(c) || (c) == '-' || (c) == '+')

static int has_scheme(const char *p) {
  if (!*p || !SCHEME_CHAR(*p)) return 0;
  ++p;
  while (*p && SCHEME_CHAR(*p)) ++p;
  return *p == ':';
}

int main(void) {
  size_t n;
  char s[CAPACITY + 1];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(s, sizeof s, "s");
  klee_assume(n <= CAPACITY);
  s[n] = 0;
  char flags[3];
  klee_make_symbolic(flags, sizeof flags, "flags");
  int set = 0;
  for (int k = 0; k < 3; k++)
    if (flags[k]) set++;
  int found = has_scheme(s);
  klee_assert(!(found && set == 3));
  return 0;
}
