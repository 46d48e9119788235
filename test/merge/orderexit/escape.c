/*
 * busybox bb_process_escape_sequence in small (printf's `\NNN`, `\xHH` and one-letter
 * escapes), as busybox printf_escape calls it: its digit loop is entered for the octal
 * escapes, then again for the hex ones after the `x`. Every join in the loop would be declined
 * (past the loop the same byte `*q` is looked up letter by letter), so its regions open plain,
 * and their states go on at the exits without waiting ("not paused"), as forking runs them.
 * EXPECT: unpaused=21
 */
#ifndef CAP
#define CAP 6
#endif

#include <stddef.h>

#include <klee/klee.h>

static char escape(const char **ptr) {
  const char *q = *ptr;
  unsigned num_digits = 0, n = 0, base = 8;
  if (*q == 'x') {
    ++q;
    base = 16;
    ++num_digits;
  }
  do {
    unsigned d = (unsigned char)*q - '0';
    if (d >= 10) {
      d = (unsigned char)(*q | 0x20) - 'a';
      if ((int)d >= 0) d += 10;
    }
    if (d >= base) {
      if (base == 16 && --num_digits == 0) return '\\';
      break;
    }
    unsigned r = n * base + d;
    if (r > 255) break;
    n = r;
    ++q;
  } while (++num_digits < 3);
  if (num_digits == 0) {
    static const char map[] = {'a', 'b', 'n', 't', '\\', 0, '\a', '\b', '\n', '\t', '\\', '\\'};
    const char *p = map;
    do {
      if (*p == *q) {
        q++;
        break;
      }
    } while (*++p != 0);
    n = (unsigned char)p[sizeof map / 2];
  }
  *ptr = q;
  return (char)n;
}

int main(void) {
  char s[CAP + 1];
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  const char *p = s;
  char c = escape(&p);
  size_t used = (size_t)(p - s);
  klee_assert(used <= 3 && used <= n);
  if (used == 0) klee_assert(c == '\\');
  if (n >= 1 && s[0] >= '0' && s[0] <= '7' && !(s[1] >= '0' && s[1] <= '7'))
    klee_assert(used == 1 && c == s[0] - '0');
  return 0;
}
