/* strerror, strerror_r (GNU) and __xpg_strerror_r (XSI: what <string.h> calls strerror_r
 * without _GNU_SOURCE), strerror_l, strsignal and perror (on stderr), word for word as
 * glibc: every errno value -2..140 and signal -2..70 in turn, then a symbolic errno value
 * around the ends of the table, whose message is read byte by byte. ffs, ffsl and ffsll
 * fork once per lowest set bit. */
#define _GNU_SOURCE
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "harness.h"

int __xpg_strerror_r(int errnum, char *buf, size_t n);

int main(void) {
  locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  char buf[24];
  switch (sym_int_in("which", 0, 6)) {
  case 0:
    for (int e = -2; e <= 140; e++) {
      check_str("strerror", strerror(e));
      check_str("strerror_l", strerror_l(e, c_locale));
      memset(buf, '#', sizeof buf);
      char *m = strerror_r(e, buf, 12);
      check_str("strerror_r", m);
      check_mem("buf", buf, sizeof buf);
      for (size_t n = 0; n < 24; n += 7) {
        memset(buf, '#', sizeof buf);
        check_int("__xpg_strerror_r", __xpg_strerror_r(e, buf, n));
        check_mem("buf", buf, sizeof buf);
      }
    }
    break;
  case 1:
    for (int s = -2; s <= 70; s++) check_str("strsignal", strsignal(s));
    break;
  case 2: {
    int e = sym_int_in("errnum", -1, 3);
    const char *m = strerror(e);
    check_uint("length", strlen(m)); /* forks on the message: one path per value */
    check_str("strerror", m);
    break;
  }
  case 3:
    errno = sym_int_in("errno", 0, 3);
    perror("prefix");
    errno = ERANGE;
    perror("");
    errno = 9999;
    perror(NULL);
    break;
  case 4: check_int("ffs", ffs(klee_int("i"))); break;
  case 5: {
    long l;
    klee_make_symbolic(&l, sizeof l, "l");
    check_int("ffsl", ffsl(l));
    break;
  }
  case 6: {
    long long ll;
    klee_make_symbolic(&ll, sizeof ll, "ll");
    check_int("ffsll", ffsll(ll));
    break;
  }
  }
  return 0;
}
