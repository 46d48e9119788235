/*
 * fortify.c — the __*_chk functions that glibc's headers call under _FORTIFY_SOURCE (with
 * optimization), so that bitcode built that way runs on the model too. symq compiles
 * drivers at -O0, where glibc never fortifies; these matter for .bc/.ll inputs built
 * elsewhere.
 *
 * Each one makes glibc's check — the destination object is `destlen` bytes (SIZE_MAX: not
 * known) — and reports a failed check as a ptr error, "buffer overflow detected", where
 * glibc would abort; then it does the plain function's work by calling it. The check is a
 * branch like any other: a symbolic length forks into the overflowing and the safe case.
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <klee/klee.h>

#include "model.h"

/* glibc's declarations of these live in the bits/ headers included only when fortifying */
void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen);
void *__memset_chk(void *dst, int c, size_t n, size_t destlen);
void __explicit_bzero_chk(void *dst, size_t n, size_t destlen);
char *__strcpy_chk(char *dst, const char *src, size_t destlen);
char *__stpcpy_chk(char *dst, const char *src, size_t destlen);
char *__strncpy_chk(char *dst, const char *src, size_t n, size_t destlen);
char *__stpncpy_chk(char *dst, const char *src, size_t n, size_t destlen);
char *__strcat_chk(char *dst, const char *src, size_t destlen);
char *__strncat_chk(char *dst, const char *src, size_t n, size_t destlen);
int __sprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, ...);
int __vsprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, va_list ap);
int __snprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt, ...);
int __vsnprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt,
                    va_list ap);
int __printf_chk(int flag, const char *fmt, ...);
int __vprintf_chk(int flag, const char *fmt, va_list ap);
int __fprintf_chk(FILE *f, int flag, const char *fmt, ...);
int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap);
int __dprintf_chk(int fd, int flag, const char *fmt, ...);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
int __asprintf_chk(char **out, int flag, const char *fmt, ...);
int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap);
char *__fgets_chk(char *buf, size_t destlen, int n, FILE *f);
size_t __fread_chk(void *p, size_t destlen, size_t size, size_t n, FILE *f);

static void check(int ok, const char *name) {
  if (!ok) klee_report_error(__FILE__, __LINE__, name, "ptr");
}

#define OVERFLOW(fn) "buffer overflow detected (" fn ")"

WEAK void *__memcpy_chk(void *dst, const void *src, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__memcpy_chk"));
  return memcpy(dst, src, n);
}

WEAK void *__memmove_chk(void *dst, const void *src, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__memmove_chk"));
  return memmove(dst, src, n);
}

WEAK void *__mempcpy_chk(void *dst, const void *src, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__mempcpy_chk"));
  return mempcpy(dst, src, n);
}

WEAK void *__memset_chk(void *dst, int c, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__memset_chk"));
  return memset(dst, c, n);
}

WEAK void __explicit_bzero_chk(void *dst, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__explicit_bzero_chk"));
  explicit_bzero(dst, n);
}

WEAK char *__strcpy_chk(char *dst, const char *src, size_t destlen) {
  check(__symq_strlen(src) < destlen, OVERFLOW("__strcpy_chk"));
  return strcpy(dst, src);
}

WEAK char *__stpcpy_chk(char *dst, const char *src, size_t destlen) {
  check(__symq_strlen(src) < destlen, OVERFLOW("__stpcpy_chk"));
  return stpcpy(dst, src);
}

WEAK char *__strncpy_chk(char *dst, const char *src, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__strncpy_chk"));
  return strncpy(dst, src, n);
}

WEAK char *__stpncpy_chk(char *dst, const char *src, size_t n, size_t destlen) {
  check(n <= destlen, OVERFLOW("__stpncpy_chk"));
  return stpncpy(dst, src, n);
}

WEAK char *__strcat_chk(char *dst, const char *src, size_t destlen) {
  size_t total = __symq_strlen(dst) + __symq_strlen(src);
  check(total < destlen, OVERFLOW("__strcat_chk"));
  return strcat(dst, src);
}

WEAK char *__strncat_chk(char *dst, const char *src, size_t n, size_t destlen) {
  size_t add = strnlen(src, n);
  check(__symq_strlen(dst) + add < destlen, OVERFLOW("__strncat_chk"));
  return strncat(dst, src, n);
}

WEAK int __vsprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, va_list ap) {
  (void)flag;
  check(destlen != 0, OVERFLOW("__vsprintf_chk"));
  int r = __symq_vsnprintf(buf, destlen, fmt, ap);
  check(r < 0 || (size_t)r < destlen, OVERFLOW("__vsprintf_chk"));
  return r;
}

WEAK int __sprintf_chk(char *buf, int flag, size_t destlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vsprintf_chk(buf, flag, destlen, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __vsnprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt,
                         va_list ap) {
  (void)flag;
  check(n <= destlen, OVERFLOW("__vsnprintf_chk"));
  return __symq_vsnprintf(buf, n, fmt, ap);
}

WEAK int __snprintf_chk(char *buf, size_t n, int flag, size_t destlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vsnprintf_chk(buf, n, flag, destlen, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __vprintf_chk(int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(stdout, fmt, ap);
}

WEAK int __printf_chk(int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vprintf_chk(flag, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vfprintf(f, fmt, ap);
}

WEAK int __fprintf_chk(FILE *f, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vfprintf_chk(f, flag, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return __symq_vdprintf(fd, fmt, ap);
}

WEAK int __dprintf_chk(int fd, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vdprintf_chk(fd, flag, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __vasprintf_chk(char **out, int flag, const char *fmt, va_list ap) {
  (void)flag;
  return vasprintf(out, fmt, ap);
}

WEAK int __asprintf_chk(char **out, int flag, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __vasprintf_chk(out, flag, fmt, ap);
  va_end(ap);
  return r;
}

/* glibc reads at most min(n - 1, destlen) bytes and fails only if it read destlen. */
WEAK char *__fgets_chk(char *buf, size_t destlen, int n, FILE *f) {
  if (n <= 0) return NULL;
  size_t limit = (size_t)n - 1 < destlen ? (size_t)n - 1 : destlen, count = 0;
  while (count < limit) {
    int c = fgetc(f);
    if (c == EOF) break;
    buf[count++] = (char)c;
    if (c == '\n') break;
  }
  if (count == 0) return NULL;
  check(count < destlen, OVERFLOW("__fgets_chk"));
  buf[count] = '\0';
  return buf;
}

WEAK size_t __fread_chk(void *p, size_t destlen, size_t size, size_t n, FILE *f) {
  check(size == 0 || n <= destlen / size, OVERFLOW("__fread_chk"));
  return fread(p, size, n, f);
}
