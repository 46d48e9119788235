/*
 * model.h — what the files of symq's libc model (the .c files of runtime/lib) share. Not
 * a public header: drivers include the system's (glibc's) headers, and the model is
 * written against those same headers, so that its types (FILE, div_t, locale_t, ...) and
 * symbol names (__isoc99_sscanf, __ctype_b_loc, ...) are the ones drivers use.
 *
 * How the model is written, and why:
 *   - Plain loops over bytes, one comparison (one branch) per byte examined, nothing
 *     word-at-a-time and no lookup tables on the data path: symbolic execution then forks
 *     exactly where a naive implementation would, as with KLEE's klee-libc.
 *   - Where a naive implementation would hand the solver something needlessly hard, the
 *     forks stay the same but their conditions get simpler: the ctype predicates are
 *     branch-free (the caller's `if` forks once, as glibc's table lookup does under
 *     KLEE); so are a byte's membership in a known set (strspn, strcspn, strpbrk: one
 *     branch per byte of the string, not per byte of the set) and a symbolic character's
 *     search among known bytes (strchr(" \t", c): one fork, found or not); strtol's
 *     digits take one branch each; printf counts digits by comparing with powers of ten
 *     instead of dividing; strerror switches on errnum instead of indexing a table of
 *     pointers.
 *   - Semantics are glibc 2.36's in the "C" locale, quirks included where C leaves room
 *     (test/libc compares the two on every path the tests explore).
 *   - Every public definition is WEAK: a driver that defines its own strlen (common in
 *     verification benchmarks) keeps it, instead of failing to link against the runtime.
 *     For the same reason the model never calls its own public names internally (strdup
 *     does not call the driver's strlen, fgets not its fgetc): shared code goes through
 *     static helpers or the __symq_ functions below. The exception is fortify.c, whose
 *     __memcpy_chk & co. call memcpy & co. exactly as the unfortified source would have.
 *   - No malloc/calloc/realloc/free definitions: those are symq built-ins. Output goes
 *     through write(2) (a built-in for fds 1 and 2), exit through _exit (a built-in).
 *   - What the model cannot do ends the path as unsupported: it calls a function defined
 *     nowhere (__symq_unsupported_...), which symq reports as "unsupported: external
 *     call NAME", the same as any other missing function.
 */
#ifndef SYMQ_RUNTIME_MODEL_H
#define SYMQ_RUNTIME_MODEL_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/types.h>

#define WEAK __attribute__((weak))

/* ---- string.c ---- */
size_t __symq_strlen(const char *s);
int __symq_tolower(int c); /* branch-free, ASCII "C" locale */

/* ---- stdlib.c ---- */
/* The strto* family in one: parses like glibc's strtoull (is_signed 0) or strtoll (1),
 * setting *endptr (when non-NULL) and errno (ERANGE, EINVAL) as they do. */
unsigned long long __symq_strtoint(const char *s, char **endptr, int base, int is_signed);

/* ---- string.c: messages shared with stdio.c (perror, %m) ---- */
/* glibc's message for errnum, or "Unknown error N" written into buf (n bytes) and buf
 * returned. */
const char *__symq_strerror(int errnum, char *buf, size_t n);

/* ---- format.c: the printf engine, shared by stdio.c and fortify.c ---- */
/* Where formatted output goes. put() receives the bytes in order; a sink that writes to a
 * file descriptor returns -1 from put() on a write error. */
typedef struct symq_sink {
  int (*put)(struct symq_sink *sink, const char *bytes, size_t n);
  char *buf;      /* snprintf: the caller's buffer, cap bytes (NUL included) */
  size_t cap;
  size_t len;     /* bytes stored in buf so far */
  int fd;         /* fd sinks: the file descriptor */
  int failed;     /* a write failed */
} symq_sink;

/* Formats like vfprintf into `sink`; returns the number of bytes produced (what snprintf
 * would return) or -1 (errno set: EOVERFLOW when over INT_MAX, EILSEQ for an unencodable
 * wide character, EINVAL for a malformed directive). */
int __symq_vformat(symq_sink *sink, const char *fmt, va_list ap);
/* vsnprintf, for the callers in several files. */
int __symq_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
/* vdprintf: unbuffered, straight to write(fd). */
int __symq_vdprintf(int fd, const char *fmt, va_list ap);

/* ---- scan.c: the scanf engine, shared with stdio.c ---- */
typedef struct symq_scan_source {
  int (*get)(struct symq_scan_source *src);            /* next byte, or EOF */
  void (*unget)(struct symq_scan_source *src, int c);  /* puts back the last byte got */
} symq_scan_source;
int __symq_vscan(symq_scan_source *src, const char *fmt, va_list ap);
int __symq_vsscanf(const char *s, const char *fmt, va_list ap);

/* ---- symenv.c: the symbolic environment's file descriptors, shared with stdio.c ---- */
/* fds 0, 1, 2 are the standard streams (0 reads the symbolic stdin, if any); 3 and up are
 * the symbolic files opened. */
#define SYMQ_MAX_FDS 32
int __symq_fd_is_open(int fd);
/* The next byte of fd: 0..255, -1 at end of file, -2 (errno EBADF) when fd cannot be read. */
int __symq_fd_getc(int fd);
/* open(path, flags) and close(fd) as the model's open and close. */
int __symq_fd_open(const char *path, int flags);
int __symq_fd_close(int fd);
/* lseek(fd, offset, whence): the new position, or -1 (errno EBADF, EINVAL, or ESPIPE for a
 * standard stream with nothing symbolic behind it). */
off_t __symq_fd_seek(int fd, off_t offset, int whence);

#endif
