/*
 * apr_collapse_spaces in small: a loop that copies the bytes that are not blanks, then ends
 * the copy at the pointer the loop left (`*d = 0`), and the driver's checks over the copy.
 * The loop's exit merges the CFG way along its tree (each iteration's blank test makes the
 * partitions irregular; --merge-decide=always, the estimate declines it at this size).
 * Merged, `d` is an ite over the members' constant offsets: the store `*d = 0` is a guarded
 * store at each of those cells, not a write at a symbolic offset (none's one, `s[n] = 0`, is
 * the only one counted), the blank test's two sides leave no disjunction in the merged pc,
 * and `len <= n` compares n with each member's length. Merged pc nodes 283 on b7d4760, 227
 * now; Z3 effort (--solver-timeout=300): none 90,713; pat 184,524 on b7d4760, 159,629 now.
 * EXPECT: merged-pc-nodes<=227
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 5
#endif

static int blank(unsigned char c) { return (c == ' ') | ((unsigned)(c - '\t') < 5); }

static char *collapse(char *d, const char *s) {
  while (*s) {
    if (!blank((unsigned char)*s)) *d++ = *s;
    ++s;
  }
  *d = 0;
  return d;
}

int main(void) {
  char s[CAPACITY + 1], out[CAPACITY + 1];
  size_t n;
  klee_make_symbolic(s, sizeof s, "s");
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  s[n] = 0;
  size_t len = (size_t)(collapse(out, s) - out);
  klee_assert(len <= n && out[len] == 0);
  for (size_t i = 0; i < len; i++) klee_assert(!blank((unsigned char)out[i]));
  return 0;
}
