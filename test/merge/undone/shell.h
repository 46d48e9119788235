/* What test/merge/undone's programs share (apr_escape_shell in small): the special bytes, the
 * writing loop that escapes them, and the input. */
#include <stddef.h>

#include <klee/klee.h>

static const unsigned char special[256] = {['$'] = 1, [';'] = 1, ['&'] = 1, ['|'] = 1};

static size_t escape(unsigned char *d, const unsigned char *s) {
  unsigned char *start = d;
  for (; *s; ++s) {
    if (special[*s]) *d++ = '\\';
    *d++ = *s;
  }
  *d = 0;
  return (size_t)(d - start) + 1;
}

/* s: CAP symbolic bytes and a NUL at a symbolic n <= CAP; returns its length (strlen, which
 * forks per length: the bytes may hold an earlier NUL). */
static size_t symbolic_string(unsigned char s[CAP + 1]) {
  size_t n, len = 0;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, "s");
  s[n] = 0;
  while (s[len]) len++;
  return len;
}
