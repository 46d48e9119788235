/*
 * harness.h — what a libc test driver (test/libc/<group>.c) uses besides the KLEE API.
 *
 * A driver is an ordinary symq driver: it makes small inputs symbolic and calls libc
 * functions on them. run_libc_tests.py runs it under symq (where the calls go to symq's
 * libc model), then compiles it natively twice — once against the model (its functions
 * renamed model_NAME in the object files) and once against glibc — and runs both on every
 * .ktest symq wrote. The check_* calls record what the two must agree on; under symq they
 * do nothing (so they never fork).
 *
 * Pointers into an input are recorded as offsets from a base (they differ between runs);
 * comparison results (memcmp and friends) by their sign, all the C standard promises.
 */
#ifndef LIBC_TEST_HARNESS_H
#define LIBC_TEST_HARNESS_H

#include <errno.h>
#include <stddef.h>

#include <klee/klee.h>

#ifdef LIBC_NATIVE
void check_int(const char *what, long long v);
void check_uint(const char *what, unsigned long long v);
void check_sign(const char *what, long long v);
void check_bool(const char *what, long long v);           /* zero or not */
void check_mem(const char *what, const void *p, size_t n);
void check_str(const char *what, const char *s);          /* NULL is recorded as such */
void check_ptr(const char *what, const void *p, const void *base); /* NULL or p - base */
#else
static inline void check_int(const char *what, long long v) { (void)what, (void)v; }
static inline void check_uint(const char *what, unsigned long long v) { (void)what, (void)v; }
static inline void check_sign(const char *what, long long v) { (void)what, (void)v; }
static inline void check_bool(const char *what, long long v) { (void)what, (void)v; }
static inline void check_mem(const char *what, const void *p, size_t n) {
  (void)what, (void)p, (void)n;
}
static inline void check_str(const char *what, const char *s) { (void)what, (void)s; }
static inline void check_ptr(const char *what, const void *p, const void *base) {
  (void)what, (void)p, (void)base;
}
#endif

/* errno as the driver sees it (the model's errno in the model's build). */
#define check_errno(what) check_int(what, errno)

/* A symbolic int in [lo, hi]. */
static inline int sym_int_in(const char *name, int lo, int hi) {
  int v;
  klee_make_symbolic(&v, sizeof v, name);
  klee_assume((v >= lo) & (v <= hi));
  return v;
}

/* A symbolic C string in buf[0..n-1]: every byte symbolic, buf[n-1] == 0 (so its length
 * is anything from 0 to n-1). */
static inline void sym_string(char *buf, size_t n, const char *name) {
  klee_make_symbolic(buf, n, name);
  klee_assume(buf[n - 1] == 0);
}

/* Forks on the length of the string in buf (the driver's own loop, not the model's): each
 * length becomes a path of its own even where the function under test does not branch on
 * it, so one test per path still covers every length — a model that forgot to stop at a
 * NUL would otherwise be checked only on inputs that happen to hide it. */
static inline size_t split_on_length(const char *buf) {
  size_t n = 0;
  while (buf[n] != 0) n++;
  return n;
}

#endif
