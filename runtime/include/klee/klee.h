/*
 * klee/klee.h — KLEE's driver API, so that existing KLEE drivers compile and run unchanged
 * under symq. The functions are implemented inside symq's executor.
 */
#ifndef SYMQ_KLEE_H
#define SYMQ_KLEE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

void klee_make_symbolic(void *addr, size_t nbytes, const char *name);
void klee_assume(uintptr_t condition);
int klee_range(int begin, int end, const char *name);
int klee_int(const char *name);
void klee_abort(void) __attribute__((noreturn));
void klee_silent_exit(int status) __attribute__((noreturn));
void klee_report_error(const char *file, int line, const char *message, const char *suffix)
    __attribute__((noreturn));
void klee_prefer_cex(void *object, uintptr_t condition);
unsigned klee_is_symbolic(uintptr_t n);
unsigned klee_is_replay(void);
void klee_print_expr(const char *message, ...);
void klee_open_merge(void);
void klee_close_merge(void);

char klee_get_value_i8(char expr);
int klee_get_value_i32(int expr);
int64_t klee_get_value_i64(int64_t expr);
float klee_get_valuef(float expr);
double klee_get_valued(double expr);
long klee_get_valuel(long expr);
long long klee_get_valuell(long long expr);
uint32_t klee_get_value_u32(uint32_t expr);

void __assert_fail(const char *assertion, const char *file, unsigned int line,
                   const char *function) __attribute__((noreturn));
#define klee_assert(expr) \
  ((expr) ? (void)0 : __assert_fail(#expr, __FILE__, __LINE__, __func__))

#ifdef __cplusplus
}
#endif
#endif
