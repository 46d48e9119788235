/*
 * apr_escape_shell in small: a string of symbolic length is measured (its special bytes count
 * twice), then written with each special byte escaped. The measuring loop's branch on
 * `special[*s]` joins its two sides at the loop's header under --merge=pat
 * --incremental-merge (they differ in size and found only); the writing loop then branches
 * on the same byte test, splitting each joined state into the two sides again, which still
 * carry the join's ite in every later query. Once a join has been split so outside its loop,
 * the join site joins no more (merge/incremental.c, "joins undone after their loop";
 * test/merge/undone.py): the strlen before the measure forks per length, so the later
 * lengths' measuring loops are regions of their own, and theirs are declined. With
 * -DMEASURE_ONLY nothing after the loop branches on a byte again and every join is made.
 */
#ifndef CAP
#define CAP 4
#endif

#include "shell.h"

static size_t measure(const unsigned char *s, int *found) {
  size_t size = 1;
  int any = 0;
  for (; *s; ++s) {
    if (special[*s]) {
      size++;
      any = 1;
    }
    size++;
  }
  *found = any;
  return size;
}

int main(void) {
  unsigned char s[CAP + 1], out[2 * CAP + 1];
  size_t len = symbolic_string(s);
  int found;
  size_t need = measure(s, &found);
  klee_assert(need >= len + 1 && need <= 2 * len + 1);
#ifndef MEASURE_ONLY
  size_t wrote = escape(out, s);
  klee_assert(wrote == need);
  klee_assert(found == (wrote > len + 1));
#else
  (void)out;
#endif
  return 0;
}
