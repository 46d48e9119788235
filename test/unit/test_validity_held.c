/*
 * test_validity_held.c — the validity cache answers a question asked again after the engine
 * dropped it (qsolver/stage_cache.c): a question built, asked and released, then built
 * again, is the same interned node with the same id only if something kept the first one
 * alive (here the query's formula, the question's negation); the cache keeps its entries'
 * formulas, so the second ask is its hit, not a second Z3 query. (Before: every rebuilt question had a new id and went to Z3 again — 388 of the
 * 2,289 Z3 queries of APR unescape_url at capacity 5 under forking.)
 */
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

/* s[0] · s[1] = 9973 in 16 bits: no two bytes multiply to that prime, so the question
 * "must s[0] · s[1] ≠ 9973" holds, and its query (the negation) is unsat — an answer the
 * counterexample cache cannot give from a model, only from an unsat set it holds by id. */
static expr *product_is_prime(expr_array *s) {
  expr *i0 = expr_const(64, 0), *i1 = expr_const(64, 1);
  expr *b0 = expr_read(s, NULL, i0), *b1 = expr_read(s, NULL, i1);
  expr *w0 = expr_zext(b0, 16), *w1 = expr_zext(b1, 16);
  expr *mul = expr_mul(w0, w1), *prime = expr_const(16, 9973);
  expr *eq = expr_eq(mul, prime);
  expr *ne = expr_not(eq);
  expr *all[] = {i0, i1, b0, b1, w0, w1, mul, prime, eq};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  return ne;
}

static uint64_t stage_count(const qsolver *s, const char *name, bool answered) {
  const qs_stage_stats *st = qs_stats(s, name);
  CHECK(st != NULL);
  return st ? (answered ? st->answered : st->queries) : 0;
}

static void rebuilt_question_hits(void) {
  qsolver *s = qs_new(NULL);
  expr *cap = expr_const(64, 8);
  expr_array *arr = expr_array_new("s", cap, 8, true, NULL);
  expr_unref(cap);
  expr *first = product_is_prime(arr);
  bool holds = false;
  CHECK_EQ_U64(qs_must_be_true(s, NULL, 0, first, &holds), QS_UNSAT); /* the query, s[0] · s[1] = 9973 */
  CHECK(holds);
  uint64_t z3 = stage_count(s, "z3", false);
  CHECK_EQ_U64(z3, 1); /* the first ask is Z3's */
  expr_unref(first);   /* the engine drops its question */

  expr *again = product_is_prime(arr);
  holds = false;
  CHECK_EQ_U64(qs_must_be_true(s, NULL, 0, again, &holds), QS_UNSAT);
  CHECK(holds);
  CHECK_EQ_U64(stage_count(s, "z3", false), z3); /* no second Z3 query */
  CHECK_EQ_U64(stage_count(s, "validity_cache", true), 1);
  expr_unref(again);
  qs_free(s);
  expr_array_unref(arr);
}

int main(void) {
  rebuilt_question_hits();
  return check_exit();
}
