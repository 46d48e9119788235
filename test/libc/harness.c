/*
 * harness.c — the native side of the libc tests: replays .ktest files into a driver and
 * records what the driver checks. Linked (never renamed) into both native builds of a
 * driver, the one calling glibc and the one calling the model (see run_libc_tests.py).
 *
 *   <driver-exe> TEST.ktest...
 *
 * Each test runs in a child process (static state such as strtok's or atexit's starts
 * fresh, and exit() or a crash ends only that test) with an empty environment (symq's
 * envp is empty), stdin an empty pipe, stdout and stderr captured through pipes. For each
 * test the harness prints one block: "== NAME", the check lines in order, then
 * "stdout: ...", "stderr: ..." (bytes escaped) and "status: exit N" or "status: signal N".
 * Two builds agree when their outputs are identical.
 *
 * The KLEE API natively: klee_make_symbolic copies the next ktest object (in call order,
 * as KLEE's replay library does; a shorter object fills the front, for symbolic sizes),
 * klee_range/klee_int read the next object as an int, a false klee_assume means the ktest
 * does not satisfy the path it came from (a symq bug): the test ends with status 97.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"
#include "symq.h"

int libc_test_main(void); /* the driver's main, renamed by -Dmain=libc_test_main */

enum { EXIT_ASSUME = 97, EXIT_KTEST = 95, EXIT_REPORT = 98, EXIT_UNSUPPORTED = 96 };

static int results_fd = -1;

/* A driver may define string functions of its own (override.c does): the harness, linked
 * into the same program, uses none of them but these private loops. */
static size_t length(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  return n;
}

static void copy(void *dst, const void *src, size_t n) {
  for (size_t k = 0; k < n; k++) ((unsigned char *)dst)[k] = ((const unsigned char *)src)[k];
}

static int same(const void *a, const void *b, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (((const unsigned char *)a)[k] != ((const unsigned char *)b)[k]) return 0;
  return 1;
}

/* ---- recording ------------------------------------------------------------------------- */

static void record(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void record(const char *fmt, ...) {
  char line[8192];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0) return;
  if ((size_t)n >= sizeof line) n = sizeof line - 1;
  line[n++] = '\n';
  if (write(results_fd, line, (size_t)n) < 0) _exit(EXIT_KTEST);
}

static void escape(char *out, size_t cap, const unsigned char *p, size_t n) {
  size_t at = 0;
  for (size_t i = 0; i < n && at + 5 < cap; i++) {
    if (p[i] >= 32 && p[i] < 127 && p[i] != '\\') out[at++] = (char)p[i];
    else at += (size_t)snprintf(out + at, cap - at, "\\x%02x", p[i]);
  }
  out[at] = '\0';
}

void check_int(const char *what, long long v) { record("%s = %lld", what, v); }
void check_uint(const char *what, unsigned long long v) { record("%s = %llu", what, v); }
void check_sign(const char *what, long long v) {
  record("%s: sign %d", what, v < 0 ? -1 : v > 0 ? 1 : 0);
}
void check_bool(const char *what, long long v) { record("%s: %s", what, v ? "true" : "false"); }

void check_mem(const char *what, const void *p, size_t n) {
  char text[4096];
  escape(text, sizeof text, p, n);
  record("%s = [%zu] %s", what, n, text);
}

void check_str(const char *what, const char *s) {
  if (!s) {
    record("%s = NULL", what);
    return;
  }
  char text[4096];
  escape(text, sizeof text, (const unsigned char *)s, length(s));
  record("%s = \"%s\"", what, text);
}

void check_ptr(const char *what, const void *p, const void *base) {
  if (!p) record("%s = NULL", what);
  else record("%s = base%+td", what, (const char *)p - (const char *)base);
}

/* ---- the KLEE API, replayed ------------------------------------------------------------ */

typedef struct ktest_object {
  char *name;
  uint32_t size;
  unsigned char *bytes;
} ktest_object;

static ktest_object objects[256];
static unsigned nobjects, next_object;

static uint32_t be32(const unsigned char *p) {
  return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Reads a ktest (version 1-3) into objects[]; false if malformed. */
static int load_ktest(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return 0;
  static unsigned char data[1 << 20];
  size_t n = fread(data, 1, sizeof data, f);
  fclose(f);
  size_t at = 0;
#define NEED(k) \
  if (at + (k) > n) return 0
  NEED(5);
  if (!same(data, "KTEST", 5) && !same(data, "BOUT\n", 5)) return 0;
  at = 5;
  NEED(4);
  uint32_t version = be32(data + at);
  at += 4;
  NEED(4);
  uint32_t nargs = be32(data + at);
  at += 4;
  for (uint32_t i = 0; i < nargs; i++) {
    NEED(4);
    uint32_t len = be32(data + at);
    at += 4;
    NEED(len);
    at += len;
  }
  if (version >= 2) {
    NEED(8);
    at += 8;
  }
  NEED(4);
  nobjects = be32(data + at);
  at += 4;
  if (nobjects > 256) return 0;
  for (unsigned i = 0; i < nobjects; i++) {
    NEED(4);
    uint32_t len = be32(data + at);
    at += 4;
    NEED(len);
    static char names[256][64];
    size_t keep = len < sizeof names[i] - 1 ? len : sizeof names[i] - 1;
    copy(names[i], data + at, keep);
    names[i][keep] = '\0';
    objects[i].name = names[i];
    at += len;
    NEED(4);
    objects[i].size = be32(data + at);
    at += 4;
    NEED(objects[i].size);
    objects[i].bytes = data + at;
    at += objects[i].size;
  }
#undef NEED
  return 1;
}

static ktest_object *take_object(const char *name) {
  if (next_object >= nobjects) {
    record("ktest: no object left for %s", name ? name : "(unnamed)");
    _exit(EXIT_KTEST);
  }
  return &objects[next_object++];
}

void klee_make_symbolic(void *addr, size_t n, const char *name) {
  ktest_object *o = take_object(name);
  if (o->size > n) {
    record("ktest: object %s has %u bytes, the driver's has %zu", o->name, o->size, n);
    _exit(EXIT_KTEST);
  }
  copy(addr, o->bytes, o->size);
}

int klee_int(const char *name) {
  int v = 0;
  klee_make_symbolic(&v, sizeof v, name);
  return v;
}

int klee_range(int lo, int hi, const char *name) {
  int v = klee_int(name);
  if (v < lo || v >= hi) {
    record("ktest: klee_range value %d outside [%d, %d)", v, lo, hi);
    _exit(EXIT_ASSUME);
  }
  return v;
}

void klee_assume(uintptr_t condition) {
  if (!condition) {
    record("klee_assume violated: the ktest does not satisfy its path");
    _exit(EXIT_ASSUME);
  }
}

void klee_silent_exit(int status) { _exit(status); }
void klee_abort(void) { abort(); }
void klee_prefer_cex(void *object, uintptr_t condition) { (void)object, (void)condition; }
void klee_open_merge(void) {}
void klee_close_merge(void) {}

/* symq's own names for the same (symq.h), for runtime files that use them */
void symq_make_symbolic(void *addr, size_t n, const char *name) {
  klee_make_symbolic(addr, n, name);
}
void symq_assume(long condition) { klee_assume((uintptr_t)(condition != 0)); }
int symq_int(const char *name) { return klee_int(name); }
int symq_range(int lo, int hi, const char *name) { return klee_range(lo, hi, name); }
int symq_is_replay(void) { return 1; }
void symq_merge_begin(void) {}
void symq_merge_end(void) {}
unsigned klee_is_replay(void) { return 1; }
unsigned klee_is_symbolic(uintptr_t n) { return (void)n, 0; }
int klee_get_value_i32(int v) { return v; }

/* The model's __*_chk functions report a failed check with message "buffer overflow
 * detected (...)" where glibc calls __chk_fail: natively, do what glibc does (its message
 * on stderr, then abort), so that both builds agree. */
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  (void)file, (void)line;
  if (same(message, "buffer overflow detected", 24)) {
    static const char text[] = "*** buffer overflow detected ***: terminated\n";
    if (write(2, text, sizeof text - 1) < 0) _exit(EXIT_REPORT);
    abort();
  }
  record("klee_report_error: %s (%s)", message, suffix);
  _exit(EXIT_REPORT);
}

/* The model's way of ending a path as unsupported (see format.c, scan.c, symenv.c). */
void __symq_unsupported_printf_positional_arguments(void);
void __symq_unsupported_printf_positional_arguments(void) {
  record("unsupported: printf positional arguments");
  _exit(EXIT_UNSUPPORTED);
}
void __symq_unsupported_scanf_conversion(void);
void __symq_unsupported_scanf_conversion(void) {
  record("unsupported: scanf conversion");
  _exit(EXIT_UNSUPPORTED);
}
void __symq_unsupported_nl_langinfo_item(void);
void __symq_unsupported_nl_langinfo_item(void) {
  record("unsupported: nl_langinfo item");
  _exit(EXIT_UNSUPPORTED);
}
/* symenv.c's: KLEE options it does not model, and fstat of stdout or stderr */
#define UNSUPPORTED(name, what)   \
  void name(void);                \
  void name(void) {               \
    record("unsupported: " what); \
    _exit(EXIT_UNSUPPORTED);      \
  }
UNSUPPORTED(__symq_unsupported_sym_stdout, "--sym-stdout")
UNSUPPORTED(__symq_unsupported_fd_fail, "--fd-fail")
UNSUPPORTED(__symq_unsupported_save_all_writes, "--save-all-writes")
UNSUPPORTED(__symq_unsupported_fstat_of_a_standard_stream, "fstat of a standard stream")
#undef UNSUPPORTED

/* ---- running the tests -------------------------------------------------------------------- */

static int scratch(void) {
  FILE *f = tmpfile();
  if (!f) {
    perror("tmpfile");
    exit(2);
  }
  return dup(fileno(f));
}

typedef struct capture {
  int fd; /* read end, -1 once at end of file */
  unsigned char bytes[1 << 16];
  size_t len;
} capture;

/* Reads what is there; keeps the first bytes, drops the rest (the child never blocks). */
static void take(capture *c) {
  unsigned char chunk[4096];
  ssize_t n = read(c->fd, chunk, sizeof chunk);
  if (n < 0 && errno == EINTR) return;
  if (n <= 0) {
    close(c->fd);
    c->fd = -1;
    return;
  }
  for (ssize_t k = 0; k < n && c->len < sizeof c->bytes; k++) c->bytes[c->len++] = chunk[k];
}

static void print_escaped(const char *label, const unsigned char *p, size_t n) {
  static char text[4 * (1 << 16) + 8];
  escape(text, sizeof text, p, n);
  printf("%s: %s\n", label, text);
}

/* The child's stdin is an empty pipe (at end of file, not seekable), its stdout and stderr
 * are pipes: a program in a shell pipeline, which is what the model's streams are like. */
int main(int argc, char **argv) {
  int results = scratch();
  static capture out, err;
  for (int i = 1; i < argc; i++) {
    if (ftruncate(results, 0)) return 2;
    lseek(results, 0, SEEK_SET); /* the child's writes share this offset */
    const char *name = argv[i];
    for (const char *p = argv[i]; *p; p++)
      if (*p == '/') name = p + 1;
    printf("== %s\n", name);
    fflush(stdout);
    int in_pipe[2], out_pipe[2], err_pipe[2];
    if (pipe(in_pipe) || pipe(out_pipe) || pipe(err_pipe)) {
      perror("pipe");
      return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
      perror("fork");
      return 2;
    }
    if (pid == 0) {
      results_fd = results;
      dup2(in_pipe[0], 0);
      dup2(out_pipe[1], 1);
      dup2(err_pipe[1], 2);
      close(in_pipe[0]), close(in_pipe[1]), close(out_pipe[0]), close(out_pipe[1]);
      close(err_pipe[0]), close(err_pipe[1]);
      clearenv(); /* symq runs main with an empty environment */
      alarm(20);
      if (!load_ktest(argv[i])) {
        record("ktest: cannot read %s", argv[i]);
        _exit(EXIT_KTEST);
      }
      int rc = libc_test_main();
      fflush(stdout); /* glibc's streams, in the glibc build */
      fflush(stderr);
      _exit(rc);
    }
    close(in_pipe[0]), close(in_pipe[1]), close(out_pipe[1]), close(err_pipe[1]);
    out.fd = out_pipe[0], out.len = 0;
    err.fd = err_pipe[0], err.len = 0;
    while (out.fd >= 0 || err.fd >= 0) {
      struct pollfd fds[2] = {{out.fd, POLLIN, 0}, {err.fd, POLLIN, 0}};
      if (poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return 2;
      }
      if (fds[0].revents) take(&out);
      if (fds[1].revents) take(&err);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) return 2;
    static char lines[1 << 23];
    off_t n = lseek(results, 0, SEEK_END);
    if (n > (off_t)sizeof lines - 1) n = sizeof lines - 1;
    if (n < 0 || pread(results, lines, (size_t)n, 0) != n) n = 0;
    lines[n] = '\0';
    fputs(lines, stdout);
    print_escaped("stdout", out.bytes, out.len);
    print_escaped("stderr", err.bytes, err.len);
    if (WIFEXITED(status)) printf("status: exit %d\n", WEXITSTATUS(status));
    else printf("status: signal %d\n", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    fflush(stdout);
  }
  return 0;
}
