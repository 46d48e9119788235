/*
 * A path's first segment looked up in a copy (json-c's json_pointer_get): the path is
 * strdup'ed, strchr finds the segment's end in the copy, `*endp = '\0'` cuts the segment
 * there, and strlen and a hash walk the segment again. strchr's loop is merged by pattern
 * into K with ∀i ≤ K. s[i] ≠ '/' ∧ s[i] ≠ 0 — over the input's array, though the loop read the
 * copy, whose bytes are reads of it — and the store at the address strchr returns writes the
 * cell K selects: each later walk of the segment tests that cell, so every bound check splits
 * the merged state off one value of K, each part carrying the ∀. The estimate counts the
 * copy's loads as the ∀'s (the copy's bytes read its array) and the loads of an object stored
 * into at an address computed from K as reads of K (the store's object found through the
 * pointer strchr returns), where the old one saw neither and merged. Declined as "declined: a
 * later loop walks the quantified range again by K"; --merge-decide=always merges.
 * The error: the segment "ab" (a path "/ab" or "/ab/…").
 * EXPECT: declined="declined: quantified array read by later queries" forall="(not:1 (eq:1 47:8 (read:8 "
 */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>

#ifndef CAP
#define CAP 5
#endif

#include "../later_work.h" /* MODE_OF: later work in the same frame */

static unsigned hash(const char *p) {
  unsigned h = 5381;
  while (*p) h = h * 33 + (unsigned char)*p++;
  return h;
}

static int lookup(const char *path, int m) {
  if (path[0] != '/') return -1;
  char *copy = strdup(path);
  if (!copy) return -1;
  char *seg = copy + 1;
  char *endp = strchr(seg, '/');
  if (endp) *endp = '\0';
  size_t len = strlen(seg);
  unsigned h = hash(seg);
  klee_assert(!(len == 2 && h == (5381u * 33 + 'a') * 33 + 'b'));
  free(copy);
  int r = 0;
  MODE_OF(m, r)
  return (int)len + r;
}

int main(void) {
  char s[CAP + 1];
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  int m;
  klee_make_symbolic(&m, sizeof m, "m");
  return lookup(s, m);
}
