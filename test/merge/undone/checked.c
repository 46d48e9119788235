/*
 * A join site whose equal merges are split again, and which no ite join undoes: the first
 * loop only asserts something of each special byte and keeps nothing of it, so the two sides
 * of its byte test are equal at every join (equal merges, each carrying the sides'
 * disjunction). The writing loop then branches on the same byte test and splits them into
 * their two sides again. An equal merge does not undo its join site itself (merge/
 * incremental.c, "joins undone after their loop"; test/merge/undone.py): the strlen before
 * the loop forks per length, and each length's loop, a region of its own, still merges its
 * equal sides. Before a906a14 the first lengths' split merges undid the site and the later
 * lengths' were declined — as in wget html_tags' outer loop, where that declined 532 merges
 * (Z3 effort 3.80 M -> 11.26 M).
 */
#ifndef CAP
#define CAP 4
#endif

#include "shell.h"

static size_t check(const unsigned char *s) {
  const unsigned char *p = s;
  for (; *p; ++p)
    if (special[*p]) klee_assert(*p != 0);
  return (size_t)(p - s);
}

int main(void) {
  unsigned char s[CAP + 1], out[2 * CAP + 1];
  size_t len = symbolic_string(s);
  size_t checked = check(s);
  size_t wrote = escape(out, s);
  klee_assert(checked == len && wrote > len);
  return 0;
}
