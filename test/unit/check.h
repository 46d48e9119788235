/*
 * check.h — assertion macros for symq's unit tests. A failed check prints the file, line,
 * the expression and both operands, counts the failure and continues; `check_exit()` ends
 * main with a CTest-visible status and a "N passed, N failed" line.
 */
#ifndef SYMQ_TEST_CHECK_H
#define SYMQ_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long check_passed, check_failed;

static inline void check_report(int ok, const char *file, int line, const char *what) {
  if (ok) {
    check_passed++;
  } else {
    check_failed++;
    fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
  }
}

#define CHECK(cond) check_report(!!(cond), __FILE__, __LINE__, #cond)

#define CHECK_EQ_U64(a, b)                                                                   \
  do {                                                                                       \
    uint64_t check_a_ = (uint64_t)(a), check_b_ = (uint64_t)(b);                             \
    check_report(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);                    \
    if (check_a_ != check_b_)                                                                \
      fprintf(stderr,                                                                        \
              "    left  = %" PRIu64 " (0x%" PRIx64 ")\n    right = %" PRIu64 " (0x%" PRIx64 \
              ")\n",                                                                         \
              check_a_, check_a_, check_b_, check_b_);                                       \
  } while (0)

#define CHECK_EQ_PTR(a, b)                                                     \
  do {                                                                         \
    const void *check_a_ = (a), *check_b_ = (b);                               \
    check_report(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);      \
    if (check_a_ != check_b_)                                                  \
      fprintf(stderr, "    left  = %p\n    right = %p\n", check_a_, check_b_); \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                                        \
  do {                                                                                            \
    const char *check_a_ = (a), *check_b_ = (b);                                                  \
    int check_ok_ = check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0;                      \
    check_report(check_ok_, __FILE__, __LINE__, #a " == " #b);                                    \
    if (!check_ok_)                                                                               \
      fprintf(stderr, "    left  = \"%s\"\n    right = \"%s\"\n", check_a_ ? check_a_ : "(null)", \
              check_b_ ? check_b_ : "(null)");                                                    \
  } while (0)

static inline int check_exit(void) {
  printf("%lu passed, %lu failed\n", check_passed, check_failed);
  return check_failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

#endif
