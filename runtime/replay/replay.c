/*
 * replay.c — the driver API (klee/klee.h, symq.h, SV-COMP's __VERIFIER_*) implemented
 * natively, to run a driver on the inputs of one test: what KLEE's libkleeRuntest is to
 * KLEE. `symq replay` and `symq cov` compile this file together with the driver, with the
 * same compiler and flags (sanitizers, --coverage), and run the program once per test with
 * KTEST_FILE=testNNNNNN.ktest. By hand:
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
#define _POSIX_C_SOURCE 200809L

#include "replay.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
