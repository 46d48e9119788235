/* The _FORTIFY_SOURCE entry points (__memcpy_chk, __strcpy_chk, __sprintf_chk, ...), as
 * bitcode built with fortification calls them: with a symbolic length against a 4-byte
 * destination, each forks into the safe case (the plain function's result, compared with
 * glibc's) and the overflowing one, which symq reports as a ptr error "buffer overflow
 * detected" where glibc aborts (the native harness's klee_report_error aborts likewise,
 * with glibc's message). A length check forks once (n > 4); a string's length forks per
 * length (strcpy of 4 or 5 characters): 25 overflowing paths, reported once per check
 * (14 .err files: __fgets_chk reads nothing from the empty stdin, so it never overflows,
 * and the printf-style ones share the checks of __vsprintf_chk and __vsnprintf_chk). */
// ARGS: --merge=none
// EXPECT: errors=25
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__memset_chk(void *dst, int c, size_t n, size_t destlen);
char *__strcpy_chk(char *dst, const char *src, size_t destlen);
char *__stpcpy_chk(char *dst, const char *src, size_t destlen);
char *__strncpy_chk(char *dst, const char *src, size_t n, size_t destlen);
char *__strcat_chk(char *dst, const char *src, size_t destlen);
char *__strncat_chk(char *dst, const char *src, size_t n, size_t destlen);
int __sprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, ...);
int __snprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt, ...);
int __vsnprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt,
                    va_list ap);
int __printf_chk(int flag, const char *fmt, ...);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
char *__fgets_chk(char *buf, size_t destlen, int n, FILE *f);
char *__stpncpy_chk(char *dst, const char *src, size_t n, size_t destlen);
void __explicit_bzero_chk(void *dst, size_t n, size_t destlen);
int __vsprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, va_list ap);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __dprintf_chk(int fd, int flag, const char *fmt, ...);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __asprintf_chk(char **out, int flag, const char *fmt, ...);
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap);
size_t __fread_chk(void *p, size_t destlen, size_t size, size_t n, FILE *f);

/* the v* entry points through one variadic wrapper: which says which */
static int via_v(int which, char *buf, size_t destlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = -1;
  char *out = NULL;
  switch (which) {
  case 0: r = __vsprintf_chk(buf, 1, destlen, fmt, ap); break;
  case 1: r = __vprintf_chk(1, fmt, ap); break;
  case 2: r = __vfprintf_chk(stderr, 1, fmt, ap); break;
  case 3: r = __vdprintf_chk(1, 1, fmt, ap); break;
  case 4:
    r = __vasprintf_chk(&out, 1, fmt, ap);
    check_str("vasprintf", out);
    free(out);
    break;
  }
  va_end(ap);
  return r;
}

static int via_vsnprintf_chk(char *buf, size_t n, size_t destlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vsnprintf_chk(buf, n, 1, destlen, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  char dst[4] = {'.', '.', '.', '.'};
  char src[6];
  sym_string(src, sizeof src, "src"); /* 0..5 characters */
  size_t n = (size_t)sym_int_in("n", 0, 6);
  void *r = NULL;
  char *out = NULL;
  switch (sym_int_in("which", 0, 21)) {
  case 0: r = __memcpy_chk(dst, "abcdef", n, sizeof dst); break;
  case 1: r = __memmove_chk(dst, "abcdef", n, sizeof dst); break;
  case 2: r = __mempcpy_chk(dst, "abcdef", n, sizeof dst); break;
  case 3: r = __memset_chk(dst, 'z', n, sizeof dst); break;
  case 4: r = __strcpy_chk(dst, src, sizeof dst); break;
  case 5: r = __stpcpy_chk(dst, src, sizeof dst); break;
  case 6: r = __strncpy_chk(dst, "xy", n, sizeof dst); break;
  case 7: dst[0] = 'a', dst[1] = 0; r = __strcat_chk(dst, src, sizeof dst); break;
  case 8: dst[0] = 0; r = __strncat_chk(dst, src, n, sizeof dst); break;
  case 9: check_int("__sprintf_chk", __sprintf_chk(dst, 1, sizeof dst, "%s", src)); break;
  case 10:
    check_int("__snprintf_chk", __snprintf_chk(dst, n, 1, sizeof dst, "%d", 12345));
    break;
  case 11:
    check_int("__vsnprintf_chk", via_vsnprintf_chk(dst, n, sizeof dst, "%s", "hello"));
    break;
  case 12:
    check_int("__printf_chk", __printf_chk(1, "%s|\n", src));
    check_int("__fprintf_chk", __fprintf_chk(stderr, 1, "%zu\n", n));
    break;
  case 13: check_ptr("__fgets_chk", __fgets_chk(dst, sizeof dst, (int)n, stdin), dst); break;
  case 14: /* the size unknown (SIZE_MAX): no check */
    r = __memcpy_chk(dst, "abcdef", n < sizeof dst ? n : sizeof dst, (size_t)-1);
    break;
  case 15: r = __stpncpy_chk(dst, "xy", n, sizeof dst); break;
  case 16: __explicit_bzero_chk(dst, n, sizeof dst); break;
  case 17: check_int("__vsprintf_chk", via_v(0, dst, sizeof dst, "%s", src)); break;
  case 18:
    check_int("__vprintf_chk", via_v(1, NULL, 0, "%s|\n", src));
    check_int("__vfprintf_chk", via_v(2, NULL, 0, "%d|\n", (int)n));
    fflush(stdout);
    check_int("__dprintf_chk", __dprintf_chk(1, 1, "%d\n", (int)n));
    check_int("__vdprintf_chk", via_v(3, NULL, 0, "<%s>\n", src));
    break;
  case 19:
    check_int("__asprintf_chk", __asprintf_chk(&out, 1, "%s-%d", src, (int)n));
    check_str("asprintf", out);
    free(out);
    check_int("__vasprintf_chk", via_v(4, NULL, 0, "%c", 'q'));
    break;
  case 20: check_uint("__fread_chk", __fread_chk(dst, sizeof dst, 2, n, stdin)); break;
  case 21: check_uint("__fread_chk", __fread_chk(dst, sizeof dst, 0, n, stdin)); break;
  }
  check_ptr("result", r, dst);
  check_mem("dst", dst, sizeof dst);
  return 0;
}
