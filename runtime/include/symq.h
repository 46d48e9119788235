/*
 * symq.h — the driver API: what a test driver calls to make inputs symbolic and to state
 * what it assumes and asserts. symq implements these functions inside the executor; a
 * driver is compiled against this header (symq adds its directory to the include path).
 */
#ifndef SYMQ_H
#define SYMQ_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the whole object at `addr` (exactly `size` bytes, as allocated) symbolic. */
void symq_make_symbolic(void *addr, size_t size, const char *name);
/* A buffer whose size and contents are both symbolic, the size at most `capacity` bytes:
 * returns the buffer and stores its size in *size. Two ktest objects: NAME.size, then NAME
 * (as many bytes as the size). */
void *symq_symbolic_buffer(size_t capacity, size_t *size, const char *name);
/* Adds `condition` to the path; a condition that cannot hold is an error (user). */
void symq_assume(long condition);
/* A symbolic int in [lo, hi). */
int symq_range(int lo, int hi, const char *name);
/* A symbolic int. */
int symq_int(const char *name);
/* Ends the path with an error of the given kind (written as testN.KIND.err). */
void symq_report_error(const char *file, int line, const char *message, const char *kind)
    __attribute__((noreturn));
/* 1 when the driver runs natively under `symq replay`, 0 under symbolic execution. */
int symq_is_replay(void);
/* Delimit a manual merge region (states are merged when they all reach symq_merge_end). */
void symq_merge_begin(void);
void symq_merge_end(void);

void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) __attribute__((noreturn));
#define symq_assert(expr) \
  ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))

#ifdef __cplusplus
}
#endif
#endif
