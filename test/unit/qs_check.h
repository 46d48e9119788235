/*
 * qs_check.h — checks of a solver's answers that more than one unit test makes.
 */
#ifndef SYMQ_TEST_QS_CHECK_H
#define SYMQ_TEST_QS_CHECK_H

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

/* f[0..n) has a model over arrays[0..narrays), and it satisfies every formula. */
static inline void check_model(qsolver *s, expr *const *f, size_t n, expr_array *const *arrays,
                               size_t narrays) {
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, n, arrays, narrays, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, n, m));
  expr_assignment_free(m);
}

#endif
