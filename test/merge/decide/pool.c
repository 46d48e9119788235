/*
 * wget url_parse's scheme test in small: c_strncasecmp of the input against "http" (its
 * c_tolower a switch), then a few tests of the bytes after it that read neither what the
 * comparison returned nor where it stopped. The loop's exits partition by pattern into pieces
 * of 2-4 states whose values differ member by member, each declined on its values; pooled
 * with the exit's other leftovers their CFG merge pays ("fallback cfg (values declined in its
 * partition)"; docs/merging.md "Merge decisions"): at capacity 6, 240 paths and 750,379 Z3
 * effort against 376 and 791,147 with each partition declined (none: 512, 945,898).
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 6
#endif

static int lower(int c) {
  switch (c) {
  case 'A': case 'B': case 'C': case 'D': case 'E': case 'F': case 'G': case 'H': case 'I':
  case 'J': case 'K': case 'L': case 'M': case 'N': case 'O': case 'P': case 'Q': case 'R':
  case 'S': case 'T': case 'U': case 'V': case 'W': case 'X': case 'Y': case 'Z':
    return c - 'A' + 'a';
  default:
    return c;
  }
}

static int ncasecmp(const char *s1, const char *s2, size_t n) {
  const unsigned char *p1 = (const unsigned char *)s1, *p2 = (const unsigned char *)s2;
  unsigned char c1, c2;
  if (p1 == p2 || n == 0) return 0;
  do {
    c1 = (unsigned char)lower(*p1);
    c2 = (unsigned char)lower(*p2);
    if (--n == 0 || c1 == '\0') break;
    ++p1;
    ++p2;
  } while (c1 == c2);
  return c1 - c2;
}

int main(void) {
  size_t n;
  char s[CAPACITY + 1];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(s, sizeof s, "s");
  klee_assume(n <= CAPACITY);
  s[n] = 0;
  int http = ncasecmp(s, "http", 4) == 0;
  /* later work reading the input's bytes, not what ncasecmp returned */
  int marks = 0;
  if (s[1] == ':') marks++;
  if (s[2] == '/') marks++;
  if (s[3] == '/') marks++;
  if (s[4] == '@') marks++;
  if (s[5] == '#') marks++;
  klee_assert(!(http && marks > 4));
  return 0;
}
