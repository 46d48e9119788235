/*
 * A join site whose equal merges are split again: the first loop only records whether a
 * special byte occurs (`found`), so at the header its two sides — a special byte or not —
 * join with ite while `found` still differs (the first byte), and are equal once both have
 * seen one (the later bytes): an equal merge, whose state carries the sides' disjunction all
 * the same. The writing loop then branches on the same byte test and splits either kind of
 * merge into its two sides again. Once a merge made at the site has been split so outside
 * its loop, the site merges no more, equal or not (merge/incremental.c, "joins undone after
 * their loop"; test/merge/undone.py): before, its later equal merges were still made.
 */
#ifndef CAP
#define CAP 4
#endif

#include "shell.h"

static int any_special(const unsigned char *s) {
  int found = 0;
  for (; *s; ++s)
    if (special[*s]) found = 1;
  return found;
}

int main(void) {
  unsigned char s[CAP + 1], out[2 * CAP + 1];
  size_t len = symbolic_string(s);
  int found = any_special(s);
  size_t wrote = escape(out, s);
  klee_assert(found == (wrote > len + 1));
  return 0;
}
