/*
 * A line parser's first steps (wget's res_parse): memchr finds the line's end, then a scan
 * from the line's start skips blanks up to that end, and a second one counts colons. memchr's
 * loop is merged by pattern into K with ∀i ≤ K. s[i] ≠ '\n', but both scans are bounded by
 * the end (s + K + 1) and read s[0..K] again from the pointer the caller holds: each bound
 * check splits the merged state off one value of K, so the merge would buy nothing and leave
 * the ∀ on every later query. The scans' pointer is a phi (a pointer stepped by the loop,
 * and the line's end in the outer loop's next pass, as res_parse's p): the estimate follows it
 * to the buffer it points into now, where the old estimate lost it and merged. Declined as "declined: a later loop walks the quantified range again by
 * K"; --merge-decide=always merges (and pays).
 * The error: a line " ::" — one blank, then two colons.
 * EXPECT: declined="declined: a later loop walks the quantified range again by K" forall="(not:1 (eq:1 10:8 (read:8 s@u1"
 */
#include <klee/klee.h>
#include <string.h>

#ifndef CAP
#define CAP 4
#endif

#include "../later_work.h" /* MODE_OF: later work in the same frame */

static int parse(const char *s, int length, int m) {
  const char *p = s, *end = s + length;
  int lines = 0, r = 0;
  while (p < end && lines < 1) { /* the first line only, as a loop over the lines */
    const char *lineend = memchr(p, '\n', end - p);
    lineend = lineend ? lineend + 1 : end;
    while (p < lineend && *p == ' ') ++p;
    int colons = 0;
    for (const char *q = p; q < lineend; q++)
      if (*q == ':') colons++;
    klee_assert(!(colons == 2 && p == s + 1));
    lines++;
    p = lineend;
  }
  MODE_OF(m, r)
  return lines + r;
}

int main(void) {
  char s[CAP + 1];
  size_t n; /* a text of symbolic length n ≤ CAP whose last byte ends a line */
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n >= 1);
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  klee_assume(s[n - 1] == '\n');
  s[n] = 0;
  int m;
  klee_make_symbolic(&m, sizeof m, "m");
  return parse(s, (int)n, m);
}
