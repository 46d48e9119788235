/*
 * test_z3_alone.c — a query the incremental lane's core gives up on, and the bit-blaster
 * in the stage's context within its bound of effort, is bit-blasted in a context of its own
 * (qsolver/z3_backend.c, solve_alone), so Z3's effort on it there is the
 * query's alone, whatever the solver was asked before: two modes that ask the same hard
 * question after different histories (forking and merging) pay the same for it. The hard
 * question: p·q = N ∧ 1 < p ∧ 1 < q, N the product of the two largest primes under 2^16,
 * which the lane's core does not decide in its budget. It is asked on a fresh solver and on
 * one that first made the question's terms in another order (the history that, in the
 * solver's own context, made it time out): both must find the factors, spending the same
 * effort in the question's own context. A fault building the model there (z3_guard.h's
 * seam, on a smaller question) leaves the context kept and the question solved again in the
 * stage's context, which finds the factors. No solver has a time limit: the test compares
 * effort, so a busy machine only makes it slower.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qsolver/z3_guard.h"

#define PRIME_P UINT64_C(65521)
#define PRIME_Q UINT64_C(65519)
/* The fault's question: the two largest primes under 2^13. */
#define FAULT_P UINT64_C(8191)
#define FAULT_Q UINT64_C(8179)

enum { HISTORY = 10 };

static qsolver *solver(void) {
  qs_options o = qs_default_options();
  o.cex_cache = o.validity_cache = false; /* every question reaches Z3 */
  o.independence = false;                 /* the question stays whole: one model binds p and q */
  o.incremental = true;
  o.timeout_ms = 0; /* no limit: effort, not time, is what the test compares */
  return qs_new(&o);
}

/* An input of 4 bytes, read little-endian and zero-extended to 64 bits. */
static expr *input(expr_array **arr, const char *name) {
  expr *size = expr_const(64, 4), *at0 = expr_const(64, 0);
  *arr = expr_array_new(name, size, 4, true, NULL);
  expr *rd = expr_read_le(*arr, NULL, at0, 4);
  expr *wide = expr_zext(rd, 64);
  expr_unref(rd);
  expr_unref(at0);
  expr_unref(size);
  return wide;
}

static uint64_t value_of(const expr_assignment *m, const expr_array *a) {
  const expr_binding *b = expr_assignment_find(m, a);
  uint64_t v = 0;
  for (unsigned i = 0; b && i < 4 && i < b->len; i++) v |= (uint64_t)b->bytes[i] << (8 * i);
  return v;
}

/* Asks for the factors on s; returns the effort Z3 spent on the question in a context of
 * its own (the lane's core spent some before, in the solver's context). */
static uint64_t factor(qsolver *s, expr *const *question, expr_array *ap, expr_array *aq) {
  const qs_stage_stats *z = qs_stats(s, "z3");
  uint64_t before = z ? z->alone_effort : 0;
  expr_array *arrays[2] = {ap, aq};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, question, 3, arrays, 2, &m), QS_SAT);
  CHECK(m != NULL);
  if (m) {
    uint64_t p = value_of(m, ap), q = value_of(m, aq);
    CHECK(p * q == PRIME_P * PRIME_Q && p > 1 && q > 1);
    expr_assignment_free(m);
  }
  z = qs_stats(s, "z3");
  return (z ? z->alone_effort : 0) - before;
}

int main(void) {
  size_t nodes = expr_live_count();
  expr_array *ap, *aq;
  expr *p = input(&ap, "p"), *q = input(&aq, "q");
  expr *n = expr_const(64, PRIME_P * PRIME_Q), *one = expr_const(64, 1);
  expr *prod = expr_mul(p, q);
  expr *question[3] = {expr_eq(prod, n), expr_ult(one, p), expr_ult(one, q)};

  qsolver *fresh = solver(), *used = solver();
  uint64_t alone = factor(fresh, question, ap, aq);

  /* a history that makes the question's own terms first, in another order: q's bound, then
   * p's, and questions over q·p + k, each with one more step (k = 0..HISTORY) */
  expr *qp = expr_mul(q, p);
  for (uint64_t k = 0; k < HISTORY; k++) {
    expr *c = expr_const(64, k + 2), *sum = expr_add(qp, c);
    expr *f[3] = {expr_ult(c, q), expr_ult(c, p), expr_ne(sum, n)};
    CHECK_EQ_U64(qs_check_sat(used, f, 3), QS_SAT);
    for (int i = 0; i < 3; i++) expr_unref(f[i]);
    expr_unref(sum);
    expr_unref(c);
  }
  uint64_t after_history = factor(used, question, ap, aq);
  CHECK(alone > 0);
  CHECK_EQ_U64(after_history, alone);
  const qs_stage_stats *zf = qs_stats(fresh, "z3"), *zu = qs_stats(used, "z3");
  CHECK(zf && zu);
  if (zf && zu) {
    CHECK_EQ_U64(zf->alone, 1);
    CHECK(zu->alone > 1); /* the history's questions went there too */
  }

  /* Z3 faults building the model alone (the seam: z3_guard.h): that context is kept, never
   * deleted, and the question is solved again by the stage's own bit-blaster, which finds
   * the factors; the fault is counted. A smaller question than the one above: it still
   * takes the stage's bit-blaster past its bound, but not the ~25 s (optimized build) the
   * larger one does there. No time limit: the test compares effort, never time. */
  qsolver *faulty = solver();
  expr *fn = expr_const(64, FAULT_P * FAULT_Q);
  expr *small[3] = {expr_eq(prod, fn), question[1], question[2]};
  z3_guard_faults = 1;
  expr_array *arrays[2] = {ap, aq};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(faulty, small, 3, arrays, 2, &m), QS_SAT);
  CHECK_EQ_U64(z3_guard_faults, 0);
  CHECK(m != NULL);
  if (m) {
    uint64_t fp = value_of(m, ap), fq = value_of(m, aq);
    CHECK(fp * fq == FAULT_P * FAULT_Q && fp > 1 && fq > 1);
    expr_assignment_free(m);
  }
  expr_unref(small[0]);
  expr_unref(fn);
  const qs_stage_stats *zx = qs_stats(faulty, "z3");
  CHECK(zx != NULL);
  if (zx) {
    CHECK_EQ_U64(zx->alone, 1);
    CHECK_EQ_U64(zx->model_faults, 1);
  }

  qs_free(fresh);
  qs_free(used);
  qs_free(faulty);
  for (int i = 0; i < 3; i++) expr_unref(question[i]);
  expr_unref(qp);
  expr_unref(prod);
  expr_unref(one);
  expr_unref(n);
  expr_unref(p);
  expr_unref(q);
  expr_array_unref(ap);
  expr_array_unref(aq);
  CHECK_EQ_U64(expr_live_count(), nodes);
  return check_exit();
}
