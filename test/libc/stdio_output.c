/* Output through the streams, compared byte for byte with glibc's on stdout and stderr:
 * printf, vprintf, fprintf, vfprintf, dprintf, vdprintf, puts, fputs, putchar, putc, fputc,
 * fwrite and the _unlocked variants, with their return values; a symbolic string through
 * puts (forks on its length). Writing to stdin fails: EOF or -1, its error flag set,
 * EBADF. Under symq the text appears on symq's own stdout. */
// EXPECT-STDOUT: symq printf 42 ok\n
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"

static int via_vprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vprintf(fmt, ap);
  va_end(ap);
  return r;
}

static int via_vfprintf(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vfprintf(f, fmt, ap);
  va_end(ap);
  return r;
}

static int via_vdprintf(int fd, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vdprintf(fd, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  char s[4];
  sym_string(s, sizeof s, "s");
  switch (sym_int_in("which", 0, 2)) {
  case 0:
    check_int("printf", printf("symq printf %d %s\n", 42, "ok"));
    check_int("vprintf", via_vprintf("%5.1f|%x\n", 2.25, 255u));
    check_int("fprintf", fprintf(stdout, "to %s\n", "stdout"));
    check_int("fprintf", fprintf(stderr, "to %s\n", "stderr"));
    check_int("vfprintf", via_vfprintf(stderr, "%c%c\n", 'e', 'f'));
    fflush(stdout); /* dprintf bypasses glibc's buffer: keep the order */
    check_int("dprintf", dprintf(1, "dprintf %d\n", 1));
    check_int("vdprintf", via_vdprintf(2, "vdprintf %d\n", 2));
    check_int("puts", puts("puts"));
    check_int("fputs", fputs("fputs\n", stdout));
    check_int("putchar", putchar('P'));
    check_int("putc", putc('Q', stdout));
    check_int("fputc", fputc(0x1ff, stdout)); /* written as the byte 0xff, returned as 255 */
    check_int("putchar_unlocked", putchar_unlocked('\n'));
    check_int("fputc_unlocked", fputc_unlocked('u', stderr));
    check_int("putc_unlocked", putc_unlocked('\n', stderr));
    check_int("fputs_unlocked", fputs_unlocked("unlocked\n", stdout));
    check_uint("fwrite", fwrite("abcdef", 2, 3, stdout));
    check_uint("fwrite 0", fwrite("abcdef", 0, 3, stdout));
    check_uint("fwrite_unlocked", fwrite_unlocked("xy\n", 1, 3, stderr));
    check_int("printf empty", printf("%s", ""));
    fflush(stdout);
    break;
  case 1:
    check_int("puts", puts(s));
    check_int("printf", printf("[%s]\n", s));
    fflush(stdout);
    break;
  case 2:
    errno = 0;
    check_int("fputc stdin", fputc('x', stdin));
    check_errno("errno");
    check_int("ferror stdin", ferror(stdin));
    clearerr(stdin);
    check_int("fputs stdin", fputs("x", stdin));
    check_int("fprintf stdin", fprintf(stdin, "%d", 1));
    check_uint("fwrite stdin", fwrite("x", 1, 1, stdin));
    check_int("ferror stdin", ferror(stdin));
    check_int("ferror stdout", ferror(stdout));
    break;
  }
  return 0;
}
