/*
 * apr_fnmatch's run of wildcards in small: `for (; *p == '*' || *p == '?'; ++p)`, whose `||`
 * joins the side that read '*' with the side that read another byte, and whose body asks
 * `*p == '*'` again at once — the byte loaded anew through p, which stays in memory because
 * its address is passed on (fnmatch_ch(&pattern, …)). Under --merge=pat --incremental-merge
 * the joined state would be split there into the two sides again, so they are not joined
 * (merge/incremental.c, parted_on_a_later_question; test/merge/joinagain.py).
 */
#ifndef CAP
#define CAP 5
#endif

#include <klee/klee.h>

static void skip(const unsigned char **p) { ++*p; }

static int wildcards(const unsigned char *pattern) {
  const unsigned char *p = pattern;
  int wild = 0, any = 0;
  for (; *p == '*' || *p == '?'; skip(&p)) {
    if (*p == '*')
      wild = 1;
    else
      any++;
  }
  return wild ? 100 + any : any;
}

int main(void) {
  unsigned char pattern[CAP + 1];
  unsigned n; /* a string of symbolic length n <= CAP */
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(pattern, sizeof pattern, "pattern");
  pattern[n] = 0;
  int w = wildcards(pattern);
  klee_assert(w >= 0 && w <= 100 + CAP);
  return 0;
}
