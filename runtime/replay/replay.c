/*
 * replay.c — the driver API (klee/klee.h, symq.h, SV-COMP's __VERIFIER_*) implemented
 * natively, to run a driver on the inputs of one test: what KLEE's libkleeRuntest is to
 * KLEE. `symq replay` and `symq cov` compile this file together with the driver, with the
 * same compiler and flags (sanitizers, --coverage), and run the program once per test with
 * KTEST_FILE=testNNNNNN.ktest (or many tests in one run: KTEST_LIST, below). By hand:
 *
 *     cc -g -I runtime/include driver.c runtime/replay/replay.c -o driver
 *     KTEST_FILE=out/test000001.ktest ./driver
 *
 * Inputs. The ktest holds one object per klee_make_symbolic call (klee_int, klee_range and
 * each __VERIFIER_nondet_* call are one too; symq_symbolic_buffer is two), in call order.
 * Every such call takes the next object: klee_* and symq_* calls check its name and size,
 * __VERIFIER_nondet_X calls only its size (sizeof X). A mismatch, or a driver asking for more
 * objects than the ktest holds, ends the program with SYMQ_REPLAY_EXIT_KTEST; replay.h lists every
 * status the library may end with and the one line it then prints.
 *
 * The SV-COMP functions mirror runtime/lib/svcomp.c, which makes their objects under
 * symq: one per __VERIFIER_nondet_X call (sizeof X bytes; nondet_bool is 0 or 1), one per
 * __VERIFIER_nondet_memory(p, n) with n > 0 (n bytes). They are weak: a program that
 * defines reach_error() or a __VERIFIER_* function itself keeps its own.
 *
 * The file is self-contained (its own ktest reader) so that it compiles with nothing but
 * a C compiler and runtime/include.
 */
#define _GNU_SOURCE /* realpath, mkdtemp, strnlen */

#include "replay.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "klee/klee.h"
#include "symq.h"

typedef struct ktest_object {
  char *name;
  unsigned char *bytes;
  uint32_t size;
} ktest_object;

static struct {
  int loaded;
  const char *path;
  uint32_t count;
  ktest_object *objects;
  uint32_t next; /* index of the next object to hand out */
} ktest;

static int dying; /* no unused-objects warning after the library's own final line */

static void die(int status, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));

/* One line on stderr, then exit (not _exit: gcov writes its counters at exit). */
static void die(int status, const char *fmt, ...) {
  va_list ap;
  dying = 1;
  fflush(stdout);
  fputs(SYMQ_REPLAY_TAG, stderr);
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  fflush(stderr);
  exit(status);
}

/* ---- the ktest file ------------------------------------------------------------------- */

static unsigned char *data;
static size_t data_len, data_pos;

static int read_u32(uint32_t *v) {
  if (data_len - data_pos < 4) return 0;
  const unsigned char *p = data + data_pos;
  *v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
  data_pos += 4;
  return 1;
}

/* A length-prefixed byte string; *out points into `data` (not NUL-terminated). */
static int read_blob(const unsigned char **out, uint32_t *len) {
  if (!read_u32(len) || data_len - data_pos < *len) return 0;
  *out = data + data_pos;
  data_pos += *len;
  return 1;
}

static void bad_ktest(const char *what) {
  die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: %s: %s (at byte %zu)", ktest.path, what, data_pos);
}

static void unused_objects_warning(void) {
  if (!dying && ktest.next < ktest.count)
    fprintf(stderr, SYMQ_REPLAY_TAG "warning: the program used %u of the %u objects in %s\n",
            ktest.next, ktest.count, ktest.path);
}

static void load_ktest(void) {
  if (ktest.loaded) return;
  ktest.loaded = 1;
  ktest.path = getenv("KTEST_FILE");
  if (!ktest.path || !*ktest.path) {
    ktest.path = "(none)";
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest error: KTEST_FILE is not set (it names the .ktest file to replay)");
  }
  FILE *f = fopen(ktest.path, "rb");
  if (!f) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot open %s", ktest.path);
  size_t cap = 4096;
  data = malloc(cap);
  for (;;) {
    if (!data) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: %s: out of memory", ktest.path);
    data_len += fread(data + data_len, 1, cap - data_len, f);
    if (data_len < cap) break;
    cap *= 2;
    data = realloc(data, cap);
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot read %s", ktest.path);

  /* "KTEST" or the legacy "BOUT\n", version, args, [symArgvs, symArgvLen], objects */
  if (data_len < 5 || (memcmp(data, "KTEST", 5) != 0 && memcmp(data, "BOUT\n", 5) != 0))
    bad_ktest("not a ktest file (bad magic)");
  data_pos = 5;
  uint32_t version, nargs, skip;
  if (!read_u32(&version)) bad_ktest("truncated");
  if (version < 1 || version > 3) bad_ktest("unsupported version");
  if (!read_u32(&nargs)) bad_ktest("truncated");
  for (uint32_t k = 0; k < nargs; k++) {
    const unsigned char *text;
    uint32_t len;
    if (!read_blob(&text, &len)) bad_ktest("truncated argument");
  }
  if (version >= 2 && (!read_u32(&skip) || !read_u32(&skip))) bad_ktest("truncated");
  if (!read_u32(&ktest.count)) bad_ktest("truncated");
  if (ktest.count > data_len / 8) bad_ktest("impossible object count");
  ktest.objects = calloc(ktest.count ? ktest.count : 1, sizeof *ktest.objects);
  if (!ktest.objects) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: %s: out of memory", ktest.path);
  for (uint32_t k = 0; k < ktest.count; k++) {
    const unsigned char *name, *bytes;
    uint32_t name_len;
    ktest_object *o = &ktest.objects[k];
    if (!read_blob(&name, &name_len) || !read_blob(&bytes, &o->size)) bad_ktest("truncated object");
    o->name = malloc((size_t)name_len + 1);
    if (!o->name) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: %s: out of memory", ktest.path);
    memcpy(o->name, name, name_len);
    o->name[name_len] = 0;
    o->bytes = (unsigned char *)bytes;
  }
  if (data_pos != data_len) bad_ktest("bytes after the last object");
  atexit(unused_objects_warning);
}

/* The next object for a call of `api`. A NULL name is "unnamed" (KLEE's rule);
 * check_name = 0 for the SV-COMP calls, whose object names are symq's business. */
static const ktest_object *next_object(const char *api, const char *name, size_t size,
                                       int check_name) {
  load_ktest();
  if (!name) name = "unnamed";
  if (ktest.next >= ktest.count)
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest mismatch: %s(\"%s\", %zu bytes) is input %u, but %s has only %u objects", api, name,
        size, ktest.next + 1, ktest.path, ktest.count);
  const ktest_object *o = &ktest.objects[ktest.next];
  if (check_name && strcmp(o->name, name) != 0)
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest mismatch: %s(\"%s\", %zu bytes) is input %u, but object %u of %s is named "
        "\"%s\"",
        api, name, size, ktest.next + 1, ktest.next + 1, ktest.path, o->name);
  if (o->size != size)
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest mismatch: %s(\"%s\", %zu bytes) is input %u, but object %u (\"%s\") of %s has "
        "%u bytes",
        api, name, size, ktest.next + 1, ktest.next + 1, o->name, ktest.path, o->size);
  ktest.next++;
  return o;
}

static int next_int(const char *api, const char *name) {
  int v;
  memcpy(&v, next_object(api, name, sizeof v, 1)->bytes, sizeof v);
  return v;
}

static int range(const char *api, int lo, int hi, const char *name) {
  int v = next_int(api, name); /* symq makes the object before it checks the range */
  if (lo >= hi)
    die(SYMQ_REPLAY_EXIT_REPORT, "error (user): %s(%d, %d): invalid %s call (empty range)", api, lo,
        hi, api);
  if (v < lo || v >= hi)
    die(SYMQ_REPLAY_EXIT_KTEST, "ktest mismatch: %s(%d, %d, \"%s\") got %d from %s", api, lo, hi,
        name ? name : "unnamed", v, ktest.path);
  return v;
}

static void assume(const char *api, int holds) {
  if (!holds)
    die(SYMQ_REPLAY_EXIT_ASSUME, "assumption violated: %s called with a false condition", api);
}

static void report(const char *file, int line, const char *message, const char *kind)
    __attribute__((noreturn));
static void report(const char *file, int line, const char *message, const char *kind) {
  char k[64];
  snprintf(k, sizeof k, "%s", kind && *kind ? kind : "user");
  size_t n = strlen(k);
  if (n > 4 && strcmp(k + n - 4, ".err") == 0) k[n - 4] = 0; /* KLEE's suffix "user.err" */
  die(SYMQ_REPLAY_EXIT_REPORT, "error (%s): %s:%d: %s", k, file ? file : "?", line,
      message ? message : "error");
}

/* ---- KLEE's API ------------------------------------------------------------------------ */

void klee_make_symbolic(void *addr, size_t nbytes, const char *name) {
  memcpy(addr, next_object("klee_make_symbolic", name, nbytes, 1)->bytes, nbytes);
}

void klee_assume(uintptr_t condition) { assume("klee_assume", condition != 0); }
int klee_range(int begin, int end, const char *name) {
  return range("klee_range", begin, end, name);
}
int klee_int(const char *name) { return next_int("klee_int", name); }
void klee_abort(void) { abort(); }
void klee_silent_exit(int status) { exit(status); }
void klee_report_error(const char *file, int line, const char *message, const char *suffix) {
  report(file, line, message, suffix);
}
void klee_prefer_cex(void *object, uintptr_t condition) {
  (void)object;
  (void)condition;
}
unsigned klee_is_symbolic(uintptr_t n) {
  (void)n;
  return 0;
}
unsigned klee_is_replay(void) { return 1; }
void klee_print_expr(const char *message, ...) { (void)message; }
void klee_open_merge(void) {}
void klee_close_merge(void) {}

char klee_get_value_i8(char expr) { return expr; }
int klee_get_value_i32(int expr) { return expr; }
int64_t klee_get_value_i64(int64_t expr) { return expr; }
float klee_get_valuef(float expr) { return expr; }
double klee_get_valued(double expr) { return expr; }
long klee_get_valuel(long expr) { return expr; }
long long klee_get_valuell(long long expr) { return expr; }
uint32_t klee_get_value_u32(uint32_t expr) { return expr; }

/* ---- symq's API ------------------------------------------------------------------------ */

void symq_make_symbolic(void *addr, size_t size, const char *name) {
  memcpy(addr, next_object("symq_make_symbolic", name, size, 1)->bytes, size);
}
/* As runtime/lib/symq_api.c makes it under symq: an object NAME.size (a size_t at most
 * `capacity`), then the buffer NAME of that many bytes, in a fresh malloc'd block of exactly
 * that size (so a sanitizer sees a read past it). */
void *symq_symbolic_buffer(size_t capacity, size_t *size, const char *name) {
  char size_name[128];
  snprintf(size_name, sizeof size_name, "%.*s.size", (int)(sizeof size_name - 6), name ? name : "");
  size_t n;
  memcpy(&n, next_object("symq_symbolic_buffer", size_name, sizeof n, 1)->bytes, sizeof n);
  if (n > capacity)
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest mismatch: symq_symbolic_buffer(%zu, \"%s\") got size %zu from %s", capacity,
        name ? name : "unnamed", n, ktest.path);
  void *buffer = malloc(n);
  if (!buffer && n) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: out of memory for %zu bytes", n);
  const ktest_object *o = next_object("symq_symbolic_buffer", name, n, 1);
  if (n) memcpy(buffer, o->bytes, n);
  if (size) *size = n;
  return buffer;
}
void symq_assume(long condition) { assume("symq_assume", condition != 0); }
int symq_range(int lo, int hi, const char *name) { return range("symq_range", lo, hi, name); }
int symq_int(const char *name) { return next_int("symq_int", name); }
void symq_report_error(const char *file, int line, const char *message, const char *kind) {
  report(file, line, message, kind);
}
int symq_is_replay(void) { return 1; }
void symq_merge_begin(void) {}
void symq_merge_end(void) {}

/* ---- SV-COMP ---------------------------------------------------------------------------- */

#define WEAK __attribute__((weak))

void reach_error(void);
void __VERIFIER_error(void);
void __VERIFIER_assume(int condition);

WEAK void reach_error(void) { die(SYMQ_REPLAY_EXIT_REACH, "reach_error: reach_error() called"); }
WEAK void __VERIFIER_error(void) {
  die(SYMQ_REPLAY_EXIT_REACH, "reach_error: __VERIFIER_error() called");
}
WEAK void __VERIFIER_assume(int condition) { assume("__VERIFIER_assume", condition != 0); }

/* The SV-COMP nondet functions: X(name suffix, C type). Each call is one object of
 * sizeof(type) bytes; its name is not checked (symq's runtime/lib/svcomp.c chooses it). */
#define NONDET_TYPES(X)            \
  X(char, char)                    \
  X(uchar, unsigned char)          \
  X(short, short)                  \
  X(ushort, unsigned short)        \
  X(int, int)                      \
  X(uint, unsigned int)            \
  X(unsigned, unsigned int)        \
  X(long, long)                    \
  X(ulong, unsigned long)          \
  X(longlong, long long)           \
  X(ulonglong, unsigned long long) \
  X(int128, __int128)              \
  X(uint128, unsigned __int128)    \
  X(float, float)                  \
  X(double, double)                \
  X(size_t, size_t)                \
  X(loff_t, long long)             \
  X(sector_t, unsigned long)       \
  X(pthread_t, unsigned long)      \
  X(u8, unsigned char)             \
  X(u16, unsigned short)           \
  X(u32, unsigned int)             \
  X(u64, unsigned long long)       \
  X(pointer, void *)               \
  X(pchar, char *)

#define NONDET(suffix, type)                                                                     \
  type __VERIFIER_nondet_##suffix(void);                                                         \
  WEAK type __VERIFIER_nondet_##suffix(void) {                                                   \
    type v;                                                                                      \
    memcpy(&v, next_object("__VERIFIER_nondet_" #suffix, "nondet_" #suffix, sizeof v, 0)->bytes, \
           sizeof v);                                                                            \
    return v;                                                                                    \
  }
NONDET_TYPES(NONDET)
#undef NONDET

/* symq's nondet_bool is a byte constrained to 0 or 1 (runtime/lib/svcomp.c) */
_Bool __VERIFIER_nondet_bool(void);
WEAK _Bool __VERIFIER_nondet_bool(void) {
  unsigned char byte = next_object("__VERIFIER_nondet_bool", "nondet_bool", 1, 0)->bytes[0];
  if (byte > 1)
    die(SYMQ_REPLAY_EXIT_KTEST,
        "ktest mismatch: __VERIFIER_nondet_bool got %u (not 0 or 1) from %s", byte, ktest.path);
  return byte != 0;
}

/* Fills the block with the next object (of `size` bytes); size 0 takes none. */
void __VERIFIER_nondet_memory(void *mem, size_t size);
WEAK void __VERIFIER_nondet_memory(void *mem, size_t size) {
  if (size == 0) return;
  memcpy(mem, next_object("__VERIFIER_nondet_memory", "nondet_memory", size, 0)->bytes, size);
}

void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
WEAK void __VERIFIER_atomic_begin(void) {}
WEAK void __VERIFIER_atomic_end(void) {}

/* ---- the symbolic environment (runtime/lib/symenv.c under symq) ------------------------
 * A test of a run with --sym-arg(s), --sym-files or --sym-stdin starts with the objects
 * symq's runtime made before main, the last one "model_version": "n_args", "argNN",
 * "A-data-stat", "A-data", …, "stdin-stat", "stdin". They are fed natively, as KLEE's
 * klee-replay does: before main (a constructor), the program runs again in a child process
 * with its arguments rebuilt from the ktest's (each --sym-* option replaced by the objects
 * it made), stdin read from a file holding the "stdin" object's bytes, and the current
 * directory a fresh one holding the files A, B, …; the first process waits for it, removes
 * the directory and ends as the child did (its exit status, or the same signal). The child
 * knows it is one by SYMQ_REPLAY_ENV (set) and skips the objects; it dies with the parent
 * (a timeout that kills the parent kills it). */

static int env_object_name(const char *n) {
  if (!strcmp(n, "n_args") || !strcmp(n, "stdin") || !strcmp(n, "stdin-stat")) return 1;
  if (!strncmp(n, "arg", 3) && n[3] >= '0' && n[3] <= '9' && n[4] >= '0' && n[4] <= '9' && !n[5])
    return 1;
  return n[0] >= 'A' && n[0] <= 'Z' && (!strcmp(n + 1, "-data") || !strcmp(n + 1, "-data-stat"));
}

/* The number of objects the environment made (through "model_version"), or 0. */
static uint32_t env_objects(void) {
  for (uint32_t k = 0; k < ktest.count; k++) {
    if (!strcmp(ktest.objects[k].name, "model_version")) return k + 1;
    if (!env_object_name(ktest.objects[k].name)) return 0;
  }
  return 0;
}

static const ktest_object *env_find(const char *name, uint32_t end) {
  for (uint32_t k = 0; k < end; k++)
    if (!strcmp(ktest.objects[k].name, name)) return &ktest.objects[k];
  return NULL;
}

static char *env_copy(const unsigned char *bytes, size_t n) {
  char *s = malloc(n + 1);
  if (!s) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: out of memory");
  memcpy(s, bytes, n);
  s[n] = 0;
  return s;
}

static int env_is(const char *arg, const char *name) {
  if (arg[0] != '-') return 0;
  const char *p = arg + 1 + (arg[1] == '-');
  return !strcmp(p, name);
}

/* The ktest's arguments (its header: the program's arguments under symq). */
static char **env_header_args(uint32_t *n) {
  size_t saved = data_pos;
  data_pos = 9;
  uint32_t count;
  if (!read_u32(&count)) bad_ktest("truncated");
  char **args = calloc((size_t)count + 1, sizeof *args);
  if (!args) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: out of memory");
  for (uint32_t k = 0; k < count; k++) {
    const unsigned char *text;
    uint32_t len;
    if (!read_blob(&text, &len)) bad_ktest("truncated argument");
    args[k] = env_copy(text, len);
  }
  data_pos = saved;
  *n = count;
  return args;
}

/* The symbolic argument object `next` (an "argNN"): its string, up to its first NUL. */
static char *env_sym_arg(uint32_t *next, uint32_t end) {
  for (; *next < end; ++*next) {
    const ktest_object *o = &ktest.objects[*next];
    if (!strncmp(o->name, "arg", 3)) {
      ++*next;
      return env_copy(o->bytes, strnlen((const char *)o->bytes, o->size ? o->size - 1 : 0));
    }
  }
  die(SYMQ_REPLAY_EXIT_KTEST,
      "ktest mismatch: %s has fewer symbolic arguments than its options ask", ktest.path);
}

static int env_n_args(uint32_t *next, uint32_t end) {
  for (; *next < end; ++*next) {
    const ktest_object *o = &ktest.objects[*next];
    if (!strcmp(o->name, "n_args") && o->size == 4) {
      ++*next;
      int v;
      memcpy(&v, o->bytes, sizeof v);
      return v;
    }
  }
  die(SYMQ_REPLAY_EXIT_KTEST, "ktest mismatch: %s has no n_args for a --sym-args", ktest.path);
}

/* The program's argv: the ktest's arguments with each --sym-* option replaced, then the
 * symbolic arguments of symq run's own --sym-* options (made after those, in order). */
static char **env_argv(char *argv0, uint32_t end) {
  uint32_t n, next = 0;
  char **header = env_header_args(&n);
  size_t room = (size_t)n + end + 2, out = 0;
  char **args = calloc(room, sizeof *args);
  if (!args) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: out of memory");
  args[out++] = argv0;
  for (uint32_t k = 1; k < n; k++) {
    if (env_is(header[k], "sym-arg") && k + 1 < n) {
      args[out++] = env_sym_arg(&next, end);
      k += 1;
    } else if (env_is(header[k], "sym-args") && k + 3 < n) {
      for (int j = env_n_args(&next, end); j > 0; j--) args[out++] = env_sym_arg(&next, end);
      k += 3;
    } else if (env_is(header[k], "sym-files") && k + 2 < n) {
      k += 2;
    } else if (env_is(header[k], "sym-stdin") && k + 1 < n) {
      k += 1;
    } else {
      args[out++] = header[k];
    }
  }
  /* symq run's options: --sym-arg ones, then --sym-args (an n_args, then its arguments) */
  for (; next < end && out + 1 < room; next++) {
    const ktest_object *o = &ktest.objects[next];
    if (!strcmp(o->name, "n_args")) {
      for (int j = env_n_args(&next, end); j > 0 && out + 1 < room; j--)
        args[out++] = env_sym_arg(&next, end);
      next--;
    } else if (!strncmp(o->name, "arg", 3)) {
      args[out++] = env_sym_arg(&next, end);
      next--;
    }
  }
  args[out] = NULL;
  return args;
}

static void env_write(const char *path, const ktest_object *o) {
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(o->bytes, 1, o->size, f) != o->size || fclose(f) != 0)
    die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot write %s for %s", path, ktest.path);
}

static void env_cleanup(const char *dir) {
  if (!dir[0]) return;
  for (char c = 'A'; c <= 'Z'; c++) {
    char path[4200];
    snprintf(path, sizeof path, "%s/%c", dir, c);
    unlink(path);
  }
  rmdir(dir);
}

/* The child's end, as the parent's: its exit status, or the signal that killed it. */
static void env_end_as(int status) {
  if (WIFSIGNALED(status)) {
    signal(WTERMSIG(status), SIG_DFL);
    struct rlimit none = {0, 0}; /* the child dumped its core already, if any */
    setrlimit(RLIMIT_CORE, &none);
    raise(WTERMSIG(status));
  }
  _exit(WIFEXITED(status) ? WEXITSTATUS(status) : SYMQ_REPLAY_EXIT_KTEST);
}

__attribute__((constructor)) static void replay_environment(int argc, char **argv) {
  (void)argc;
  const char *path = getenv("KTEST_FILE");
  if (!path || !*path) return;
  load_ktest();
  uint32_t end = env_objects();
  if (!end) return;
  if (getenv("SYMQ_REPLAY_ENV")) { /* the child: the environment is in place */
    unsetenv("SYMQ_REPLAY_ENV");
    ktest.next = end;
    return;
  }
  char *absolute = realpath(path, NULL);
  if (!absolute) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot resolve %s", path);
  setenv("KTEST_FILE", absolute, 1);
  const char *tmp = getenv("TMPDIR");
  if (!tmp || !*tmp) tmp = "/tmp";
  const ktest_object *in = env_find("stdin", end);
  if (in) {
    char name[4200];
    snprintf(name, sizeof name, "%s/symq-stdin-XXXXXX", tmp);
    int fd = mkstemp(name);
    if (fd < 0 || write(fd, in->bytes, in->size) != (ssize_t)in->size)
      die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot write stdin for %s", ktest.path);
    unlink(name);
    if (lseek(fd, 0, SEEK_SET) != 0 || dup2(fd, 0) < 0)
      die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot feed stdin for %s", ktest.path);
    close(fd);
  }
  char dir[4200] = "";
  if (env_find("A-data", end)) {
    snprintf(dir, sizeof dir, "%s/symq-files-XXXXXX", tmp);
    if (!mkdtemp(dir)) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot make a directory");
    for (char c = 'A'; c <= 'Z'; c++) {
      char name[8], file[4300];
      snprintf(name, sizeof name, "%c-data", c);
      const ktest_object *o = env_find(name, end);
      if (!o) break;
      snprintf(file, sizeof file, "%s/%c", dir, c);
      env_write(file, o);
    }
  }
  setenv("SYMQ_REPLAY_ENV", "1", 1);
  char **args = env_argv(argv[0], end);
  fflush(NULL);
  pid_t child = fork();
  if (child < 0) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: cannot fork for %s", ktest.path);
  if (child == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (dir[0] && chdir(dir) != 0) _exit(SYMQ_REPLAY_EXIT_KTEST);
    execv("/proc/self/exe", args);
    _exit(SYMQ_REPLAY_EXIT_KTEST);
  }
  int status;
  while (waitpid(child, &status, 0) < 0)
    if (errno != EINTR) die(SYMQ_REPLAY_EXIT_KTEST, "ktest error: lost the replayed program");
  env_cleanup(dir);
  env_end_as(status);
}

/* ---- many tests in one run ------------------------------------------------------------- */

/* KTEST_LIST=FILE (one .ktest path a line) replays each test in a child forked here, before
 * any other constructor and main run, one after the other: the child goes on with
 * KTEST_FILE set as if started with it, this process waits for each and ends with status 0
 * without running main. A campaign replays tens of thousands of tests for their coverage
 * (eval/real/run): a process started for each cost ~2.5 ms a test, nearly all of it exec and
 * the dynamic loader; a fork of this small process costs a fraction. KTEST_TIMEOUT=S (default
 * 10) kills a test that runs longer (SIGALRM, kept across the environment's exec). */
__attribute__((constructor(101))) static void replay_list(void) {
  const char *list = getenv("KTEST_LIST");
  if (!list || !*list) return;
  FILE *f = fopen(list, "r");
  if (!f) {
    fprintf(stderr, SYMQ_REPLAY_TAG "ktest error: cannot open the list %s\n", list);
    _exit(SYMQ_REPLAY_EXIT_KTEST);
  }
  const char *limit = getenv("KTEST_TIMEOUT");
  unsigned seconds = limit && *limit ? (unsigned)strtoul(limit, NULL, 10) : 10;
  char line[4200];
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    if (!line[0]) continue;
    fflush(NULL);
    pid_t child = fork();
    if (child < 0) {
      fprintf(stderr, SYMQ_REPLAY_TAG "ktest error: cannot fork for %s\n", line);
      _exit(SYMQ_REPLAY_EXIT_KTEST);
    }
    if (child == 0) { /* the test's own run: the rest of the start-up, then main */
      fclose(f);
      unsetenv("KTEST_LIST");
      setenv("KTEST_FILE", line, 1);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (seconds) alarm(seconds);
      return;
    }
    int status;
    while (waitpid(child, &status, 0) < 0)
      if (errno != EINTR) {
        fprintf(stderr, SYMQ_REPLAY_TAG "ktest error: lost the replay of %s\n", line);
        _exit(SYMQ_REPLAY_EXIT_KTEST);
      }
  }
  fclose(f);
  _exit(0); /* no main, and nothing of this process's own to write (no gcov counts) */
}

/* ---- coverage of tests that crash ------------------------------------------------------ */

#ifdef SYMQ_REPLAY_GCOV
/* gcov writes its counters at exit; a test that dies of a signal would add nothing. */
extern void __gcov_dump(void);

static void dump_and_die(int sig) {
  __gcov_dump();
  raise(sig); /* SA_RESETHAND: the default action now */
}

__attribute__((constructor)) static void install_gcov_handlers(void) {
  static const int signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = dump_and_die;
  sa.sa_flags = (int)(SA_RESETHAND | SA_NODEFER);
  sigemptyset(&sa.sa_mask);
  for (size_t k = 0; k < sizeof signals / sizeof *signals; k++) sigaction(signals[k], &sa, NULL);
}
#endif
