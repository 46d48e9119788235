/*
 * strlen, then a copy of the string it measured (json-c's json_object_new_string: strlen,
 * malloc(len + 1), memcpy): the length loop is merged by pattern into K with
 * ∀i < K. s[i] ≠ 0, but the copy loop is bounded by K and reads s[0..K) again, so each of
 * its bound checks splits the merged state off one value of K at a time — the merge would
 * buy nothing and leave the ∀ on every later query. Declined as "declined: a later loop
 * walks the quantified range again by K"; --merge-decide=always merges (and pays).
 * The error: a copy of length 3 starting "ab".
 * EXPECT: declined="declined: a later loop walks the quantified range again by K"
 */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAP
#define CAP 6
#endif

#include "../later_work.h" /* MODE_OF: later work in the same frame */

int main(void) {
  char s[CAP + 1];
  size_t n; /* the KLEE idiom of the library drivers: a string of symbolic length n ≤ CAP */
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  int m;
  klee_make_symbolic(&m, sizeof m, "m");
  size_t len = strlen(s);
  char *d = malloc(len + 1);
  memcpy(d, s, len);
  d[len] = 0;
  int xs = 0;
  for (size_t i = 0; i < 3 && i <= len; i++)
    if (d[i] == 'x') xs++;
  klee_assert(!(len == 3 && d[0] == 'a' && d[1] == 'b'));
  int r = 0;
  MODE_OF(m, r)
  return xs + r;
}
