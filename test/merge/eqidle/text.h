/* The input of test/merge/eqidle's programs: s, a string of symbolic length n <= CAP. */
#include <klee/klee.h>
#include <stddef.h>

static void symbolic_text(char s[CAP + 1]) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, "s");
  s[n] = 0;
}
