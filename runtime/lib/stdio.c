/*
 * stdio.c — <stdio.h> for symbolic execution: output that really comes out, files that
 * fail cleanly.
 *
 * There is one stream per file descriptor of symenv.c: stdin, stdout and stderr, and one
 * per symbolic file opened (glibc's FILE type, so drivers compiled against glibc's headers
 * can pass them around; only their addresses matter, streams[fd] is fd's stream).
 * Output is unbuffered: each call formats its text and hands it to write(2) on fd 1 or 2,
 * which symq prints on its own stdout or stderr, so nothing needs flushing when a path
 * ends. Input comes from symenv.c: stdin is the symbolic stdin of --sym-stdin, or else at
 * end of file (getchar returns EOF, scanf returns EOF, fgets NULL), except for a byte put
 * back with ungetc. fopen opens the symbolic files of --sym-files (A, B, …) for reading;
 * any other path fails (NULL with ENOENT: the model has no file system). Using a stream the
 * wrong way (writing stdin or a file, reading stdout, a FILE * that is not an open stream)
 * sets the stream's error flag and errno EBADF, as glibc does for a stream opened in the
 * other mode. The symbolic stdin and files can be sought (fseek, ftell, rewind); the
 * standard streams otherwise cannot (ESPIPE).
 *
 * The formatting is format.c's, the scanning scan.c's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model.h"

/* ---- the streams ----------------------------------------------------------------------- */

static FILE streams[SYMQ_MAX_FDS];
WEAK FILE *stdin = &streams[0];
WEAK FILE *stdout = &streams[1];
WEAK FILE *stderr = &streams[2];

static struct {
  int eof, error;
  int pushed; /* a byte put back by ungetc, or EOF */
} status[SYMQ_MAX_FDS] = {[0 ... SYMQ_MAX_FDS - 1] = {0, 0, EOF}};

/* The file descriptor of an open stream, -1 (errno EBADF) for anything else. */
static int stream_index(FILE *f) {
  for (int k = 0; k < SYMQ_MAX_FDS; k++)
    if (f == &streams[k] && (k < 3 || __symq_fd_is_open(k))) return k;
  errno = EBADF;
  return -1;
}

/* The fd to write f's output to, or -1 (error flag and EBADF) when f cannot be written. */
static int output_fd(FILE *f) {
  int k = stream_index(f);
  if (k < 0) return -1;
  if (k == 0 || k >= 3) {
    status[k].error = 1;
    errno = EBADF;
    return -1;
  }
  return k;
}

static int write_all(int fd, const char *bytes, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(fd, bytes + done, n - done);
    if (w <= 0) {
      status[fd].error = 1;
      return -1;
    }
    done += (size_t)w;
  }
  return 0;
}

/* ---- character and string output -------------------------------------------------------
 * Each public function is a thin wrapper over a static helper: the model never calls its
 * own public names (a driver may define its own fputc; glibc's fputs would not call it). */

static int put_byte(int c, FILE *f) {
  int fd = output_fd(f);
  unsigned char byte = (unsigned char)c;
  if (fd < 0 || write_all(fd, (const char *)&byte, 1) < 0) return EOF;
  return byte;
}

WEAK int fputc(int c, FILE *f) { return put_byte(c, f); }
WEAK int putc(int c, FILE *f) { return put_byte(c, f); }
WEAK int fputc_unlocked(int c, FILE *f) { return put_byte(c, f); }
WEAK int putc_unlocked(int c, FILE *f) { return put_byte(c, f); }
WEAK int putchar(int c) { return put_byte(c, stdout); }
WEAK int putchar_unlocked(int c) { return put_byte(c, stdout); }

static int put_string(const char *s, FILE *f) {
  int fd = output_fd(f);
  if (fd < 0 || write_all(fd, s, __symq_strlen(s)) < 0) return EOF;
  return 1; /* glibc's nonnegative value */
}

WEAK int fputs(const char *restrict s, FILE *restrict f) { return put_string(s, f); }
WEAK int fputs_unlocked(const char *restrict s, FILE *restrict f) { return put_string(s, f); }

WEAK int puts(const char *s) {
  size_t n = __symq_strlen(s);
  if (write_all(1, s, n) < 0 || write_all(1, "\n", 1) < 0) return EOF;
  return n + 1 > INT_MAX ? INT_MAX : (int)(n + 1);
}

static size_t write_items(const void *p, size_t size, size_t n, FILE *f) {
  size_t total = size * n;
  if (total == 0) return 0;
  int fd = output_fd(f);
  if (fd < 0 || write_all(fd, p, total) < 0) return 0;
  return n;
}

WEAK size_t fwrite(const void *restrict p, size_t size, size_t n, FILE *restrict f) {
  return write_items(p, size, n, f);
}

WEAK size_t fwrite_unlocked(const void *restrict p, size_t size, size_t n, FILE *restrict f) {
  return write_items(p, size, n, f);
}

/* ---- formatted output ---------------------------------------------------------------------- */

static int print(FILE *f, const char *fmt, va_list ap) {
  int fd = output_fd(f);
  if (fd < 0) return -1;
  int r = __symq_vdprintf(fd, fmt, ap);
  if (r < 0) status[fd].error = 1;
  return r;
}

WEAK int vfprintf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  return print(f, fmt, ap);
}

WEAK int fprintf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = print(f, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int vprintf(const char *restrict fmt, va_list ap) { return print(stdout, fmt, ap); }

WEAK int printf(const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = print(stdout, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int vdprintf(int fd, const char *restrict fmt, va_list ap) {
  return __symq_vdprintf(fd, fmt, ap);
}

WEAK int dprintf(int fd, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __symq_vdprintf(fd, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int vsnprintf(char *restrict buf, size_t n, const char *restrict fmt, va_list ap) {
  return __symq_vsnprintf(buf, n, fmt, ap);
}

WEAK int snprintf(char *restrict buf, size_t n, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __symq_vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int vsprintf(char *restrict buf, const char *restrict fmt, va_list ap) {
  return __symq_vsnprintf(buf, SIZE_MAX, fmt, ap);
}

WEAK int sprintf(char *restrict buf, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __symq_vsnprintf(buf, SIZE_MAX, fmt, ap);
  va_end(ap);
  return r;
}

static int allocate_and_print(char **out, const char *fmt, va_list ap) {
  va_list again;
  va_copy(again, ap);
  char probe[1];
  int n = __symq_vsnprintf(probe, sizeof probe, fmt, ap);
  if (n < 0) {
    va_end(again);
    return -1;
  }
  char *buf = malloc((size_t)n + 1);
  if (!buf) {
    va_end(again);
    return -1;
  }
  __symq_vsnprintf(buf, (size_t)n + 1, fmt, again);
  va_end(again);
  *out = buf;
  return n;
}

WEAK int vasprintf(char **restrict out, const char *restrict fmt, va_list ap) {
  return allocate_and_print(out, fmt, ap);
}

WEAK int asprintf(char **restrict out, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = allocate_and_print(out, fmt, ap);
  va_end(ap);
  return r;
}

WEAK void perror(const char *s) {
  char text[32];
  const char *m = __symq_strerror(errno, text, sizeof text);
  if (s != NULL && *s != '\0') {
    write_all(2, s, __symq_strlen(s));
    write_all(2, ": ", 2);
  }
  write_all(2, m, __symq_strlen(m));
  write_all(2, "\n", 1);
}

/* ---- input: symenv.c's stdin and files ------------------------------------------------- */

static int get_byte(FILE *f) {
  int k = stream_index(f);
  if (k < 0) return EOF;
  if (k == 1 || k == 2) {
    status[k].error = 1;
    errno = EBADF;
    return EOF;
  }
  if (status[k].pushed != EOF) {
    int c = status[k].pushed;
    status[k].pushed = EOF;
    return c;
  }
  int c = __symq_fd_getc(k);
  if (c == -2) status[k].error = 1;
  if (c < 0) {
    status[k].eof = c == -1;
    return EOF;
  }
  return c;
}

WEAK int fgetc(FILE *f) { return get_byte(f); }
WEAK int getc(FILE *f) { return get_byte(f); }
WEAK int fgetc_unlocked(FILE *f) { return get_byte(f); }
WEAK int getc_unlocked(FILE *f) { return get_byte(f); }
WEAK int getchar(void) { return get_byte(stdin); }
WEAK int getchar_unlocked(void) { return get_byte(stdin); }

static int push_back(int c, FILE *f) {
  int k = stream_index(f);
  if (k < 0 || k == 1 || k == 2 || c == EOF || status[k].pushed != EOF) return EOF;
  status[k].pushed = (unsigned char)c;
  status[k].eof = 0;
  return (unsigned char)c;
}

WEAK int ungetc(int c, FILE *f) { return push_back(c, f); }

static char *get_line(char *buf, int n, FILE *f) {
  if (n <= 0) return NULL;
  int i = 0;
  while (i < n - 1) {
    int c = get_byte(f);
    if (c == EOF) break;
    buf[i++] = (char)c;
    if (c == '\n') break;
  }
  if (i == 0) return NULL;
  buf[i] = '\0';
  return buf;
}

WEAK char *fgets(char *restrict buf, int n, FILE *restrict f) { return get_line(buf, n, f); }
WEAK char *fgets_unlocked(char *restrict buf, int n, FILE *restrict f) {
  return get_line(buf, n, f);
}

static size_t read_items(void *p, size_t size, size_t n, FILE *f) {
  size_t total = size * n, got = 0;
  unsigned char *dst = p;
  while (got < total) {
    int c = get_byte(f);
    if (c == EOF) break;
    dst[got++] = (unsigned char)c;
  }
  return size == 0 ? 0 : got / size;
}

WEAK size_t fread(void *restrict p, size_t size, size_t n, FILE *restrict f) {
  return read_items(p, size, n, f);
}

WEAK size_t fread_unlocked(void *restrict p, size_t size, size_t n, FILE *restrict f) {
  return read_items(p, size, n, f);
}

static ssize_t get_delimited(char **line, size_t *cap, int delim, FILE *f) {
  if (line == NULL || cap == NULL) {
    errno = EINVAL;
    return -1;
  }
  size_t len = 0;
  for (;;) {
    int c = get_byte(f);
    if (c == EOF) break;
    if (*line == NULL || len + 2 > *cap) {
      size_t grown = *cap < 120 ? 120 : 2 * *cap;
      char *bigger = realloc(*line, grown);
      if (!bigger) return -1;
      *line = bigger;
      *cap = grown;
    }
    (*line)[len++] = (char)c;
    if (c == delim) break;
  }
  if (len == 0) return -1;
  (*line)[len] = '\0';
  return (ssize_t)len;
}

WEAK ssize_t getdelim(char **restrict line, size_t *restrict cap, int delim,
                      FILE *restrict f) {
  return get_delimited(line, cap, delim, f);
}

WEAK ssize_t getline(char **restrict line, size_t *restrict cap, FILE *restrict f) {
  return get_delimited(line, cap, '\n', f);
}

/* scanf on a stream: bytes come from fgetc, a byte goes back through the push-back slot. */
typedef struct stream_source {
  symq_scan_source base;
  FILE *f;
} stream_source;

static int stream_get(symq_scan_source *src) { return get_byte(((stream_source *)src)->f); }
static void stream_unget(symq_scan_source *src, int c) {
  push_back(c, ((stream_source *)src)->f);
}

static int vscan_stream(FILE *f, const char *fmt, va_list ap) {
  stream_source ss = {{stream_get, stream_unget}, f};
  return __symq_vscan(&ss.base, fmt, ap);
}

/* <stdio.h> names these __isoc99_*; the plain names are defined too (see scan.c). */
int __isoc99_scanf(const char *restrict fmt, ...);
int __isoc99_fscanf(FILE *restrict f, const char *restrict fmt, ...);
int __isoc99_vscanf(const char *restrict fmt, va_list ap);
int __isoc99_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap);
int symq_plain_scanf(const char *restrict fmt, ...) __asm__("scanf");
int symq_plain_fscanf(FILE *restrict f, const char *restrict fmt, ...) __asm__("fscanf");
int symq_plain_vscanf(const char *restrict fmt, va_list ap) __asm__("vscanf");
int symq_plain_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap)
    __asm__("vfscanf");

WEAK int __isoc99_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  return vscan_stream(f, fmt, ap);
}
WEAK int symq_plain_vfscanf(FILE *restrict f, const char *restrict fmt, va_list ap) {
  return vscan_stream(f, fmt, ap);
}
WEAK int __isoc99_vscanf(const char *restrict fmt, va_list ap) {
  return vscan_stream(stdin, fmt, ap);
}
WEAK int symq_plain_vscanf(const char *restrict fmt, va_list ap) {
  return vscan_stream(stdin, fmt, ap);
}

WEAK int __isoc99_fscanf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vscan_stream(f, fmt, ap);
  va_end(ap);
  return r;
}
WEAK int symq_plain_fscanf(FILE *restrict f, const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vscan_stream(f, fmt, ap);
  va_end(ap);
  return r;
}
WEAK int __isoc99_scanf(const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vscan_stream(stdin, fmt, ap);
  va_end(ap);
  return r;
}
WEAK int symq_plain_scanf(const char *restrict fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vscan_stream(stdin, fmt, ap);
  va_end(ap);
  return r;
}

/* ---- stream state ------------------------------------------------------------------------ */

static int eof_flag(FILE *f) {
  int k = stream_index(f);
  return k < 0 ? 0 : status[k].eof;
}

static int error_flag(FILE *f) {
  int k = stream_index(f);
  return k < 0 ? 0 : status[k].error;
}

static void clear_flags(FILE *f) {
  int k = stream_index(f);
  if (k >= 0) status[k].eof = status[k].error = 0;
}

WEAK int feof(FILE *f) { return eof_flag(f); }
WEAK int ferror(FILE *f) { return error_flag(f); }
WEAK void clearerr(FILE *f) { clear_flags(f); }
WEAK int feof_unlocked(FILE *f) { return eof_flag(f); }
WEAK int ferror_unlocked(FILE *f) { return error_flag(f); }
WEAK void clearerr_unlocked(FILE *f) { clear_flags(f); }

WEAK int fileno(FILE *f) { return stream_index(f); }
WEAK int fileno_unlocked(FILE *f) { return stream_index(f); }

/* Nothing is buffered. */
static int flush(FILE *f) { return f != NULL && stream_index(f) < 0 ? EOF : 0; }

WEAK int fflush(FILE *f) { return flush(f); }
WEAK int fflush_unlocked(FILE *f) { return flush(f); }

WEAK int setvbuf(FILE *restrict f, char *restrict buf, int mode, size_t size) {
  (void)buf;
  (void)size;
  if (stream_index(f) < 0) return EOF;
  if (mode != _IOFBF && mode != _IOLBF && mode != _IONBF) {
    errno = EINVAL;
    return EOF;
  }
  return 0;
}
WEAK void setbuf(FILE *restrict f, char *restrict buf) { (void)f, (void)buf; }
WEAK void setbuffer(FILE *restrict f, char *restrict buf, size_t n) { (void)f, (void)buf, (void)n; }
WEAK void setlinebuf(FILE *f) { (void)f; }

WEAK void flockfile(FILE *f) { (void)f; }
WEAK void funlockfile(FILE *f) { (void)f; }
WEAK int ftrylockfile(FILE *f) {
  (void)f;
  return 0;
}

/* The standard streams are terminals or pipes, not seekable, but for a symbolic stdin; the
 * symbolic files are (symenv.c's __symq_fd_seek). A byte put back by ungetc counts as
 * glibc counts it: one before the file's position. */
static int seek_stream(FILE *f, off_t offset, int whence) {
  int k = stream_index(f);
  if (k < 0) return -1;
  if (whence == SEEK_CUR && status[k].pushed != EOF) offset -= 1;
  if (__symq_fd_seek(k, offset, whence) < 0) return -1;
  status[k].pushed = EOF;
  status[k].eof = 0;
  return 0;
}

static off_t tell_stream(FILE *f) {
  int k = stream_index(f);
  if (k < 0) return -1;
  off_t at = __symq_fd_seek(k, 0, SEEK_CUR);
  if (at < 0) return -1;
  return status[k].pushed != EOF ? at - 1 : at;
}

WEAK int fseek(FILE *f, long offset, int whence) { return seek_stream(f, offset, whence); }
WEAK int fseeko(FILE *f, off_t offset, int whence) { return seek_stream(f, offset, whence); }
WEAK long ftell(FILE *f) { return tell_stream(f); }
WEAK off_t ftello(FILE *f) { return tell_stream(f); }
WEAK void rewind(FILE *f) {
  int k = stream_index(f);
  if (k < 0) return;
  int saved = errno; /* rewind reports nothing */
  seek_stream(f, 0, SEEK_SET);
  errno = saved;
  status[k].error = 0;
}

WEAK int fclose(FILE *f) {
  int k = stream_index(f);
  if (k < 0) return EOF;
  return k >= 3 && __symq_fd_close(k) < 0 ? EOF : 0;
}

/* ---- opening: the symbolic files only ---------------------------------------------------- */

static FILE *open_stream(const char *path, const char *mode) {
  int flags = O_RDONLY;
  for (const char *m = mode; *m; m++)
    if (*m == 'w' || *m == 'a' || *m == '+') flags = O_RDWR | O_CREAT;
  int fd = __symq_fd_open(path, flags);
  if (fd < 0) return NULL;
  status[fd].eof = status[fd].error = 0;
  status[fd].pushed = EOF;
  return &streams[fd];
}

WEAK FILE *fopen(const char *restrict path, const char *restrict mode) {
  return open_stream(path, mode);
}
WEAK FILE *fopen64(const char *restrict path, const char *restrict mode) {
  return open_stream(path, mode);
}
WEAK FILE *freopen(const char *restrict path, const char *restrict mode, FILE *restrict f) {
  (void)path, (void)mode, (void)f;
  errno = ENOENT;
  return NULL;
}
WEAK FILE *fdopen(int fd, const char *mode) {
  (void)fd, (void)mode;
  errno = EBADF;
  return NULL;
}
WEAK FILE *tmpfile(void) {
  errno = EROFS;
  return NULL;
}
WEAK int remove(const char *path) {
  (void)path;
  errno = ENOENT;
  return -1;
}
WEAK int rename(const char *from, const char *to) {
  (void)from, (void)to;
  errno = ENOENT;
  return -1;
}
