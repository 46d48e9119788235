/* Input and stream state: stdin is at end of file (no input under symq, an empty pipe
 * natively), so getchar, getc, fgetc, fgets, fread, getline, getdelim, scanf and fscanf
 * (and vscanf, vfscanf, and the plain GNU-scanf symbols) all report end of file and set
 * the EOF flag; ungetc pushes one byte back; reading
 * stdout fails (EBADF, error flag). feof, ferror, clearerr, fileno, fflush, setvbuf,
 * setbuf, setlinebuf, fseek/ftell/rewind (not seekable: ESPIPE), flockfile. Opening
 * fails cleanly (ENOENT): fopen, freopen, fdopen, remove, rename; fclose last. */
// EXPECT: completed=5 tests=5
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "harness.h"

/* the names a driver built with the GNU scanf (the plain symbols) would call */
int plain_scanf(const char *fmt, ...) __asm__("scanf");
int plain_fscanf(FILE *f, const char *fmt, ...) __asm__("fscanf");
int plain_vscanf(const char *fmt, va_list ap) __asm__("vscanf");
int plain_vfscanf(FILE *f, const char *fmt, va_list ap) __asm__("vfscanf");

static int via_vscanf(int plain, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = plain ? plain_vscanf(fmt, ap) : vscanf(fmt, ap);
  va_end(ap);
  return r;
}

static int via_vfscanf(int plain, FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = plain ? plain_vfscanf(f, fmt, ap) : vfscanf(f, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  char buf[8] = "#######";
  int c = sym_int_in("c", -1, 255);
  switch (sym_int_in("which", 0, 3)) {
  case 0: {
    check_int("getchar", getchar());
    check_int("feof", feof(stdin) != 0);
    check_int("getc", getc(stdin));
    check_int("fgetc", fgetc(stdin));
    check_int("getchar_unlocked", getchar_unlocked());
    check_int("getc_unlocked", getc_unlocked(stdin));
    check_int("fgetc_unlocked", fgetc_unlocked(stdin));
    check_ptr("fgets", fgets(buf, sizeof buf, stdin), buf);
    check_uint("fread", fread(buf, 1, 4, stdin));
    check_uint("fread_unlocked", fread_unlocked(buf, 2, 2, stdin));
    char *line = NULL;
    size_t cap = 0;
    check_int("getline", (int)getline(&line, &cap, stdin));
    check_int("getdelim", (int)getdelim(&line, &cap, ',', stdin));
    free(line);
    int x = 7;
    check_int("scanf", scanf("%d", &x));
    check_int("fscanf", fscanf(stdin, " %d", &x));
    check_int("vscanf", via_vscanf(0, "%d", &x));
    check_int("vfscanf", via_vfscanf(0, stdin, "%d", &x));
    check_int("plain scanf", plain_scanf("%d", &x));
    check_int("plain fscanf", plain_fscanf(stdin, "%d", &x));
    check_int("plain vscanf", via_vscanf(1, "%d", &x));
    check_int("plain vfscanf", via_vfscanf(1, stdin, "%d", &x));
    check_int("scanf no conversion", scanf(""));
    check_int("x", x);
    check_int("feof", feof(stdin) != 0);
    clearerr(stdin);
    check_int("feof after clearerr", feof(stdin) != 0);
    check_int("feof_unlocked", feof_unlocked(stdin));
    check_mem("buf", buf, sizeof buf);
    break;
  }
  case 1: /* a byte pushed back comes out once */
    check_int("ungetc", ungetc(c, stdin));
    check_int("getchar", getchar());
    check_int("getchar", getchar());
    check_int("ungetc", ungetc('7', stdin));
    int x = -1;
    check_int("scanf", scanf("%d", &x));
    check_int("x", x);
    check_int("ungetc", ungetc('z', stdin));
    check_ptr("fgets", fgets(buf, sizeof buf, stdin), buf);
    check_mem("buf", buf, sizeof buf);
    check_int("ungetc", ungetc('\n', stdin));
    check_ptr("fgets_unlocked", fgets_unlocked(buf, sizeof buf, stdin), buf);
    check_mem("buf", buf, sizeof buf);
    check_int("ungetc", ungetc('5', stdin));
    check_int("vfscanf", via_vfscanf(0, stdin, "%d", &x));
    check_int("x", x);
    check_int("ungetc", ungetc('6', stdin));
    check_int("plain scanf", plain_scanf("%d", &x));
    check_int("x", x);
    break;
  case 2:
    errno = 0;
    check_int("fgetc stdout", fgetc(stdout));
    check_errno("errno");
    check_int("ferror stdout", ferror(stdout) != 0);
    check_int("ferror_unlocked", ferror_unlocked(stdout) != 0);
    clearerr_unlocked(stdout);
    check_int("ferror stdout", ferror(stdout));
    check_int("fileno", fileno(stdin));
    check_int("fileno", fileno(stdout));
    check_int("fileno_unlocked", fileno_unlocked(stderr));
    check_int("fflush", fflush(stdout));
    check_int("fflush NULL", fflush(NULL));
    check_int("fflush_unlocked", fflush_unlocked(stderr));
    check_int("setvbuf", setvbuf(stdout, NULL, _IOLBF, 0));
    setbuf(stderr, NULL);
    setbuffer(stderr, NULL, 0);
    setlinebuf(stdout);
    flockfile(stdout);
    check_int("ftrylockfile", ftrylockfile(stdout));
    funlockfile(stdout);
    funlockfile(stdout);
    errno = 0;
    check_int("fseek", fseek(stdin, 0, SEEK_SET));
    check_errno("errno");
    errno = 0;
    check_int("fseeko", fseeko(stdout, 0, SEEK_END));
    check_errno("errno");
    errno = 0;
    check_int("ftell", (int)ftell(stdin));
    check_errno("errno");
    errno = 0;
    check_int("ftello", (int)ftello(stderr));
    check_errno("errno");
    rewind(stdin);
    break;
  case 3:
    errno = 0;
    check_ptr("fopen", fopen("/nonexistent/symq-libc-test", "r"), NULL);
    check_errno("errno");
    errno = 0;
    check_ptr("fopen64", fopen64("/nonexistent/symq-libc-test", "w"), NULL);
    check_errno("errno");
    errno = 0;
    check_ptr("fdopen", fdopen(99, "r"), NULL);
    check_errno("errno");
    errno = 0;
    check_int("remove", remove("/nonexistent/symq-libc-test"));
    check_errno("errno");
    errno = 0;
    check_int("rename", rename("/nonexistent/a", "/nonexistent/b"));
    check_errno("errno");
    errno = 0;
    check_ptr("freopen", freopen("/nonexistent/symq-libc-test", "r", stdin), NULL);
    check_errno("errno");
    check_int("fclose", fclose(stderr));
    break;
  }
  return 0;
}
