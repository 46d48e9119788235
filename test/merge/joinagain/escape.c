/*
 * busybox bb_process_escape_sequence in small (printf's `\NNN`, `\xHH` and one-letter
 * escapes): the digit loop classes `*q - '0'` as a digit or, through `(*q | 0x20) - 'a'`, a
 * letter or neither, and the classes meet where `d >= base` ends the digits. Past the loop,
 * when no digit was read, the same byte `*q` is looked up in the table of one-letter escapes,
 * letter by letter: joined, the break state would be split there by letter again, each part
 * carrying the join's ite. So the classes are not joined (merge/incremental.c,
 * parted_on_a_later_question; test/merge/joinagain.py); -DNO_LETTERS (no lookup past the
 * loop) joins them as before.
 */
#ifndef CAP
#define CAP 3
#endif

#include <stddef.h>

#include <klee/klee.h>

#ifdef WITH_CALL
/* a defined callee in the loop: the region keeps its incremental part (the static "every join
 * declined" rule reads no callee), so the byte rule itself declines the joins */
__attribute__((noinline)) static unsigned digit_sum(unsigned n, unsigned base, unsigned d) {
  return n * base + d;
}
#else
#define digit_sum(n, base, d) ((n) * (base) + (d))
#endif

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
    if (d >= base) break;
    n = digit_sum(n, base, d);
    ++q;
  } while (++num_digits < 3);
#ifndef NO_LETTERS
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
#endif
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
  klee_assert((size_t)(p - s) <= n);
#ifndef NO_LETTERS
  if (p == s) klee_assert(c == '\\');
#else
  (void)c;
#endif
  return 0;
}
