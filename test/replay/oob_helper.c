/* An out-of-bounds heap read inside a helper, which no UBSan bounds check can see (the
 * pointer has no array type): only ASan catches it natively, and must name the helper's
 * line, the .err's Line. i <= 8 indexes an 8-int block: i = 8 reads 4 bytes past its end.
 * 1 completed path + 1 ptr error = 2 tests. */
#include <stdlib.h>
#include <klee/klee.h>

static int at(const int *p, unsigned i) {
  return p[i]; /* @oob */
}

int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i <= 8);
  int *p = calloc(8, sizeof *p);
  int v = at(p, i);
  free(p);
  return v;
}
