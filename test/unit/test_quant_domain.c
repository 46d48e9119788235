/*
 * test_quant_domain.c — scalar conjunctions decided by enumeration over their own bounds
 * (qsolver/domain.c), which the relaxed stage tries on a merged state's scalar parts before
 * Z3.
 *
 *   - The merged state's bounds question (K ≤ 31 or K ≤ 32, K ≤ n ≤ 32, ¬(K + c in bounds))
 *     is unsat, decided without Z3, whichever of K and n comes first in the request.
 *   - Shapes it must not decide (a read at a symbolic index, overlapping reads of one array,
 *     a variable without a small range, more work than its budget) give unknown; bounds that
 *     contradict each other give unsat.
 *   - A seeded family of conjunctions over two 64-bit words and a byte, with bounds of every
 *     kind (strict, non-strict, negated, on either side, at the range's edges) and relations
 *     between the variables: every decided answer agrees with Z3 (the chain without the
 *     relaxed stage), every model satisfies every formula, and most are decided.
 *   - Through the chain: the relaxed stage's answers on merged states' bounds questions
 *     agree with the chain without it, and --validate-qsolver counts no disagreement.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "expr_pool.h"
#include "test_rng.h"
#include "engine/core/expr.h"
#include "qsolver/domain.h"
#include "qsolver/qsolver.h"

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }

/* Z3's answer (the chain without the relaxed stage, which is the only caller of domain.c). */
static qs_status z3_answer(expr *const *f, size_t n) {
  qs_options o = qs_default_options();
  o.relax = false;
  qsolver *s = qs_new(&o);
  qs_status st = qs_check_sat(s, f, n);
  qs_free(s);
  return st;
}

/* Decides f[0..n) by enumeration; a decided answer must agree with Z3 and a model must
 * satisfy every formula. Returns the answer. */
static qs_status decide(qs_domain *d, expr *const *f, size_t n) {
  expr_assignment *m = NULL;
  qs_status st = qs_domain_solve(d, f, n, &m);
  CHECK(st == QS_SAT || !m);
  if (st != QS_UNKNOWN) CHECK_EQ_U64(st, z3_answer(f, n));
  if (st == QS_SAT) CHECK(m && expr_eval_all_true(f, n, m));
  expr_assignment_free(m);
  return st;
}

/* ¬(base ≤ base + 1 + c + K ≤ base + 44): the engine's bounds check on s[K + 1 + c] of a
 * 45-byte buffer at address base, negated (the must-be-true question). */
static expr *out_of_bounds(expr *k, uint64_t c) {
  const uint64_t base = 0x7f0000001000ULL;
  expr *addr = K(expr_add(k64(base + 1 + c), k));
  return K(expr_not(K(expr_and(K(expr_ule(k64(base), addr)), K(expr_ule(addr, k64(base + 44)))))));
}

static void test_bounds_question(void) {
  qs_domain *d = qs_domain_new();
  expr_array *ka = pool_array("K", 8, false), *na = pool_array("n", 8, true);
  expr *k = word(ka), *n = word(na);
  for (uint64_t kmax = 31; kmax <= 32; kmax++)
    for (int order = 0; order < 2; order++)
      for (uint64_t c = 0; c < 12; c++) {
        expr *f[5];
        size_t nf = 0;
        if (order) f[nf++] = K(expr_ule(n, k64(32))); /* n read first */
        f[nf++] = K(expr_or(K(expr_eq(k64(0), k)), K(expr_ult(K(expr_add(k64(-1ULL), k)), n))));
        f[nf++] = K(expr_ule(k, n));
        f[nf++] = K(expr_ule(k, k64(kmax)));
        if (!order) f[nf++] = K(expr_ule(n, k64(32)));
        f[nf++] = out_of_bounds(k, c);
        CHECK_EQ_U64(decide(d, f, nf), QS_UNSAT);
      }
  /* Past the buffer's end (c = 13 reaches base + 45 at K = 31): sat, K ≥ 31. */
  expr *f[4] = {K(expr_ule(n, k64(32))), K(expr_ule(k, n)), K(expr_ule(k, k64(32))),
                out_of_bounds(k, 13)};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_domain_solve(d, f, 4, &m), QS_SAT);
  u128 v = 0;
  CHECK(m && expr_eval(k, m, 0, &v) == EXPR_EVAL_OK && v >= 31 && v <= 32);
  expr_assignment_free(m);
  qs_domain_free(d);
  pool_release();
}

static void test_shapes(void) {
  qs_domain *d = qs_domain_new();
  expr_array *ka = pool_array("K", 8, false), *na = pool_array("n", 8, true),
             *s = pool_array("s", 16, true);
  expr *k = word(ka), *n = word(na);
  /* a read at a symbolic index: not scalar */
  expr *sym[2] = {K(expr_ule(k, k64(3))), K(expr_eq(byte_at(s, k), k8('a')))};
  CHECK_EQ_U64(decide(d, sym, 2), QS_UNKNOWN);
  /* reads of one array's overlapping bytes */
  expr *lap[3] = {K(expr_ule(k, k64(3))), K(expr_eq(byte_at(ka, k64(0)), k8(2))),
                  K(expr_ule(n, k64(3)))};
  CHECK_EQ_U64(decide(d, lap, 3), QS_UNKNOWN);
  /* no small range: n ≥ 5 alone, n ≠ 7 is no interval, signed bounds are not read */
  expr *wide[2] = {K(expr_ule(k64(5), n)), K(expr_ne(n, k64(7)))};
  CHECK_EQ_U64(decide(d, wide, 2), QS_UNKNOWN);
  expr *sgn[1] = {K(expr_sle(n, k64(3)))};
  CHECK_EQ_U64(decide(d, sgn, 1), QS_UNKNOWN);
  /* contradicting bounds: unsat without a search */
  expr *empty[2] = {K(expr_ult(n, k64(4))), K(expr_ule(k64(4), n))};
  CHECK_EQ_U64(decide(d, empty, 2), QS_UNSAT);
  expr *none_below[1] = {K(expr_ult(n, k64(0)))};
  CHECK_EQ_U64(decide(d, none_below, 1), QS_UNSAT);
  /* more than its budget: 256 × 256 points, the only model at the far corner */
  expr *far[5] = {K(expr_ule(n, k64(255))), K(expr_ule(k, k64(255))),
                  K(expr_eq(K(expr_add(n, k)), k64(510))), K(expr_ule(k64(0), n)),
                  K(expr_ule(k64(0), k))};
  CHECK_EQ_U64(decide(d, far, 5), QS_UNKNOWN);
  /* a byte and an 8-byte word of different arrays, the byte pinned by its range */
  expr *b = byte_at(s, k64(3));
  expr *mixed[4] = {K(expr_ule(k8('x'), b)), K(expr_ule(b, k8('x'))), K(expr_ule(n, k64(40))),
                    K(expr_eq(K(expr_zext(b, 64)), n))};
  CHECK_EQ_U64(decide(d, mixed, 4), QS_UNSAT); /* 'x' = 120 > 40 … */
  mixed[2] = K(expr_ule(n, k64(200)));
  CHECK_EQ_U64(decide(d, mixed, 4), QS_SAT); /* … then n = 120 */
  qs_domain_free(d);
  pool_release();
}

/* Every kind of bound, negated or not, on a byte and on a word, at constants next to the
 * edges of the range, with the variable pinned to a point next to the constant: sat iff the
 * bound holds at that point (constant folding says). */
static expr *bound_of(int kind, expr *v, expr *c) {
  switch (kind) {
  case 0: return K(expr_ule(v, c));
  case 1: return K(expr_ult(v, c));
  case 2: return K(expr_ule(c, v));
  case 3: return K(expr_ult(c, v));
  default: return K(expr_eq(v, c));
  }
}

static void test_edges(void) {
  qs_domain *d = qs_domain_new();
  expr_array *s = pool_array("s", 4, true), *xa = pool_array("x", 8, true);
  expr *vars[2] = {byte_at(s, k64(1)), word(xa)};
  const uint64_t cs[2][5] = {{0, 1, 100, 254, 255}, {0, 1, 5, UINT64_MAX - 1, UINT64_MAX}};
  unsigned checked = 0;
  for (int vi = 0; vi < 2; vi++) {
    expr *v = vars[vi];
    unsigned w = v->width;
    for (int kind = 0; kind < 5; kind++)
      for (int neg = 0; neg < 2; neg++)
        for (int ci = 0; ci < 5; ci++)
          for (int dt = -1; dt <= 1; dt++) {
            uint64_t c = cs[vi][ci], t = c + (uint64_t)(int64_t)dt;
            if (w == 8) t &= 0xff;
            expr *b = bound_of(kind, v, K(expr_const(w, c)));
            expr *at = bound_of(kind, K(expr_const(w, t)), K(expr_const(w, c)));
            if (neg) {
              b = K(expr_not(b));
              at = K(expr_not(at));
            }
            CHECK(expr_is_const(at));
            /* the pin second, so that the bound narrows the range first */
            expr *f[2] = {b, K(expr_eq(v, K(expr_const(w, t))))};
            expr_assignment *m = NULL;
            qs_status st = qs_domain_solve(d, f, 2, &m);
            CHECK_EQ_U64(st, expr_is_true(at) ? QS_SAT : QS_UNSAT);
            expr_assignment_free(m);
            checked++;
          }
  }
  CHECK_EQ_U64(checked, 300);
  qs_domain_free(d);
  pool_release();
}

/* A bound on v of a random kind against c, possibly negated. */
static expr *random_bound(expr *v, uint64_t c, unsigned w) {
  expr *kc = K(expr_const(w, c));
  expr *e;
  switch (test_rnd(6)) {
  case 0: e = K(expr_ule(v, kc)); break;
  case 1: e = K(expr_ult(v, kc)); break;
  case 2: e = K(expr_ule(kc, v)); break;
  case 3: e = K(expr_ult(kc, v)); break;
  case 4: e = K(expr_eq(v, kc)); break;
  default: e = K(expr_ne(v, kc)); break;
  }
  return test_rnd(3) == 0 ? K(expr_not(e)) : e;
}

static void test_family(void) {
  qs_domain *d = qs_domain_new();
  unsigned decided = 0, sat = 0, unsat = 0, total = 0;
  for (unsigned round = 0; round < 60; round++) {
    expr_array *xa = pool_array("x", 8, true), *ya = pool_array("y", 8, false),
               *s = pool_array("s", 4, true);
    expr *x = word(xa), *y = word(ya), *b = byte_at(s, k64(test_rnd(4)));
    expr *vars[3] = {x, y, b};
    expr *f[10];
    size_t nf = 0;
    /* ranges near the edges: [lo, lo + span], sometimes at 0 or at the top */
    for (unsigned i = 0; i < 3; i++) {
      unsigned w = vars[i]->width;
      uint64_t top = w == 64 ? UINT64_MAX : (1u << w) - 1;
      uint64_t lo = test_rnd(3) == 0 ? 0 : test_rnd(2) ? top - test_rnd(40) : test_rnd(200);
      f[nf++] = K(expr_ule(K(expr_const(w, lo)), vars[i]));
      f[nf++] =
          K(expr_ule(vars[i], K(expr_const(w, lo + test_rnd(30) > top ? top : lo + test_rnd(30)))));
    }
    for (unsigned q = 0, nq = 1 + test_rnd(3); q < nq; q++) {
      switch (test_rnd(4)) {
      case 0: { /* a bound on one variable */
        expr *v = vars[test_rnd(3)];
        u128 at = 0;
        for (unsigned i = 0; i < nf; i++) /* near an existing constant: at the edges */
          if (f[i]->kid[1] == v && expr_is_const(f[i]->kid[0])) at = f[i]->kid[0]->u.value;
        f[nf++] = random_bound(v, (uint64_t)at + test_rnd(5) - 2, v->width);
        break;
      }
      case 1: f[nf++] = K(expr_ult(x, K(expr_add(y, k64(test_rnd(50)))))); break;
      case 2:
        f[nf++] = K(expr_eq(K(expr_zext(b, 64)),
                            K(expr_add(x, K(expr_const(64, -(uint64_t)test_rnd(300)))))));
        break;
      default: f[nf++] = K(expr_ne(K(expr_add(x, y)), k64(test_rnd(400)))); break;
      }
    }
    qs_status st = decide(d, f, nf);
    total++;
    decided += st != QS_UNKNOWN;
    sat += st == QS_SAT;
    unsat += st == QS_UNSAT;
    pool_release();
  }
  printf("domain family: %u of %u decided (%u sat, %u unsat)\n", decided, total, sat, unsat);
  CHECK(sat > 5 && unsat > 5);
  qs_domain_free(d);
}

/* The chain: the relaxed stage decides a merged state's bounds questions by enumeration. */
static void test_chain(void) {
  qs_options ow = qs_default_options(), oo = qs_default_options(), op = qs_default_options();
  ow.validate_quantified = true;
  oo.relax = false;
  qsolver *with = qs_new(&ow), *without = qs_new(&oo), *plain = qs_new(&op);
  expr_array *s = pool_array("s", 45, true), *ka = pool_array("K", 8, false),
             *na = pool_array("n", 8, true);
  expr *k = word(ka), *n = word(na);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *pc[6] = {K(expr_forall(i, k64(1), k,
                               K(expr_eq(byte_at(s, K(expr_add(i, k64((uint64_t)-1)))), k8('a'))))),
                 K(expr_ule(n, k64(32))),
                 K(expr_ule(k, n)),
                 K(expr_ule(k, k64(31))),
                 K(expr_ne(byte_at(s, K(expr_add(k, k64(1)))), k8('a'))),
                 K(expr_ne(byte_at(s, k64(33)), k8('A')))};
  for (uint64_t c = 0; c < 16; c++) {
    expr *q = out_of_bounds(k, c);
    bool a = false, b = false;
    qs_status sa = qs_may_be_true(with, pc, 6, q, &a), sb = qs_may_be_true(without, pc, 6, q, &b);
    CHECK(sa != QS_UNKNOWN);
    CHECK_EQ_U64(sa, sb);
    CHECK_EQ_U64(a, b);
    CHECK_EQ_U64(a, c + 31 > 43); /* K + 1 + c past base + 44 for some K ≤ 31 */
    bool p = false;
    CHECK_EQ_U64(qs_may_be_true(plain, pc, 6, q, &p), sb);
    CHECK_EQ_U64(p, b);
  }
  /* the unsat ones (c ≤ 12) never reach Z3 through the relaxed stage */
  const qs_stage_stats *z = qs_stats(plain, "z3"), *zo = qs_stats(without, "z3");
  printf("bounds questions: z3 queries %llu with the relaxed stage, %llu without\n",
         (unsigned long long)z->queries, (unsigned long long)zo->queries);
  CHECK(z->queries + 8 < zo->queries);
  CHECK_EQ_U64(qs_quant_stats_of(with)->disagreements, 0);
  CHECK_EQ_U64(qs_quant_stats_of(with)->models_unconfirmed, 0);
  qs_free(with);
  qs_free(without);
  qs_free(plain);
  pool_release();
}

int main(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  test_rng_seed(0x9E3779B97F4A7C15ULL);
  test_bounds_question();
  test_shapes();
  test_edges();
  test_family();
  test_chain();
  free(pool);
  free(apool);
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
  return check_exit();
}
