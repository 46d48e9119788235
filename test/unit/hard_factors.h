/*
 * hard_factors.h — a query out of reach of Z3 in a millisecond, for the tests of
 * --validate-qsolver's re-checks (test_recheck, test_qcount): p·q = N for two 64-bit inputs
 * p and q (each the first 8 bytes of an array of its own), N the product of two large primes,
 * so that p·q = N ∧ 1 < p ∧ 1 < q asks Z3 to factor a 124-bit number, while p = P ∧ q = Q
 * (the factors given) is easy and its model satisfies the hard query under evaluation.
 * Everything is owned by the fixture and freed by hard_factors_free.
 */
#ifndef SYMQ_TEST_HARD_FACTORS_H
#define SYMQ_TEST_HARD_FACTORS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

/* As in test_qsolver's timeout test. */
#define HARD_P UINT64_C(3646726173730169317)
#define HARD_Q UINT64_C(4194513520037794141)

typedef struct hard_factors {
  expr_array *P, *Q;
  expr *cap, *at0, *rp, *rq;
  expr *p, *q;     /* the inputs, zero-extended to 128 bits */
  expr *vp, *vq;   /* the factors */
  expr *one, *two; /* 128-bit constants */
  expr *n, *pq;    /* the product of the factors, and p·q */
} hard_factors;

static inline hard_factors hard_factors_new(void) {
  hard_factors h;
  h.cap = expr_const(64, 8);
  h.at0 = expr_const(64, 0);
  h.P = expr_array_new("p", h.cap, 8, true, NULL);
  h.Q = expr_array_new("q", h.cap, 8, true, NULL);
  h.rp = expr_read_le(h.P, NULL, h.at0, 8);
  h.rq = expr_read_le(h.Q, NULL, h.at0, 8);
  h.p = expr_zext(h.rp, 128);
  h.q = expr_zext(h.rq, 128);
  h.vp = expr_const(128, HARD_P);
  h.vq = expr_const(128, HARD_Q);
  h.one = expr_const(128, 1);
  h.two = expr_const(128, 2);
  h.n = expr_const(128, (u128)HARD_P * HARD_Q);
  h.pq = expr_mul(h.p, h.q);
  return h;
}

/* The solver's options for these tests: --validate-qsolver as asked; independence off (the
 * factors' query stays whole, so one model binds both) and the slice step off (it would
 * answer first: the stage under test is another). */
static inline qs_options hard_factors_options(bool validate) {
  qs_options o = qs_default_options();
  o.validate_quantified = validate;
  o.independence = false;
  o.forall_slice = false;
  return o;
}

static inline void hard_factors_free(hard_factors *h) {
  expr *all[] = {h->cap, h->at0, h->rp,  h->rq,  h->p, h->q,
                 h->vp,  h->vq,  h->one, h->two, h->n, h->pq};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(h->P);
  expr_array_unref(h->Q);
}

#endif
