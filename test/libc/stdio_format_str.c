/* The printf engine on strings, characters and pointers: a symbolic string (forks on its
 * length) under width and precision (the precision bounds what is read: the string need
 * not be terminated), a symbolic %c, symbolic widths and precisions, NULL for %s and %p,
 * %ls/%lc (ASCII only in the "C" locale: anything else fails with EILSEQ), %m. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "harness.h"

#define SHOW(...)                                             \
  do {                                                        \
    char buf_[64];                                            \
    memset(buf_, '#', sizeof buf_);                           \
    check_int(#__VA_ARGS__, snprintf(buf_, sizeof buf_, __VA_ARGS__)); \
    check_mem("buf", buf_, sizeof buf_);                      \
  } while (0)

int main(void) {
  char s[4], raw[3];
  sym_string(s, sizeof s, "s");
  klee_make_symbolic(raw, sizeof raw, "raw");
  int w = sym_int_in("w", -6, 6), p = sym_int_in("p", 0, 3);
  switch (sym_int_in("which", 0, 6)) {
  case 0: SHOW("[%s|%5s|%-5s|%.2s]", s, s, s, s); break;
  case 1: SHOW("[%*s]", w, s); break;
  case 2: SHOW("[%.*s]", p, raw); break; /* reads at most p <= 3 bytes of raw */
  case 3: SHOW("[%c|%3c|%-3c]", raw[0], raw[1], raw[2]); break;
  case 4: {
    wint_t wc = (wint_t)sym_int_in("wc", 0, 300);
    errno = 0;
    SHOW("[%lc]", wc);
    check_errno("errno");
    break;
  }
  default: {
    int x = 5;
    static const wchar_t wide[] = {L'w', L'i', L'd', L'e', 0};
    static const wchar_t bad[] = {L'a', 0x263a, 0};
    SHOW("[%s|%.3s|%.6s|%8s|%-8.2s]", (char *)0, (char *)0, (char *)0, (char *)0, (char *)0);
    SHOW("[%p|%10p|%-10p|%.3p]", (void *)0, (void *)0, (void *)0, (void *)0);
    SHOW("[%p]", (void *)&x == (void *)0 ? (void *)1 : (void *)0x1234);
    SHOW("[%ls|%.2ls|%6ls|%-6ls|%C|%S]", wide, wide, wide, wide, (wint_t)'c', wide);
    SHOW("[%ls]", (wchar_t *)0);
    errno = 0;
    SHOW("[%ls]", bad);
    check_errno("errno");
    errno = ENOENT;
    SHOW("[%m|%12m|%.5m]");
    errno = 12345;
    SHOW("[%m]");
    SHOW("[%c%c%c]", 'a', 0, 'b');
    SHOW("[%05s|%05c]", "ab", 'x');
    break;
  }
  }
  return 0;
}
