/*
 * test_recheck.c — --validate-qsolver's re-check of the answers the caches give to quantified
 * queries, and the counters of the quantified queries asked (qsolver.h, qs_quant_stats):
 *   - a model the counterexample cache learnt from a quantifier-free query answers a
 *     quantified one by evaluation; with validation the quantified stage re-checks that answer
 *     with Z3 on the expansion, which (factoring a 124-bit product, 1 ms) comes back unknown:
 *     the re-check is counted as unknown, not as a confirmation or a disagreement, and the
 *     cache's answer stands;
 *   - the quantified query is counted once as asked, decided by the counterexample cache;
 *   - without validation nothing is re-checked.
 */
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine/core/expr.h"
#include "hard_factors.h"
#include "qsolver/qsolver.h"

static void cached_answer_rechecked(bool validate) {
  uint64_t live = expr_live_count(), live_arrays = expr_live_arrays();
  qs_options o = hard_factors_options(validate);
  o.relax = false; /* it would answer first: the cache's answer is the one under test */
  qsolver *s = qs_new(&o);
  hard_factors h = hard_factors_new();
  expr *p = h.p, *q = h.q, *one = h.one, *two = h.two;
  /* the factors given: easy, and its model goes to the counterexample cache */
  expr *given[2] = {expr_eq(p, h.vp), expr_eq(q, h.vq)};
  CHECK_EQ_U64(qs_check_sat(s, given, 2), QS_SAT);
  /* the product of two factors > 1, and ∀i ∈ [1, 2]. i < p: the cached model satisfies it */
  expr *i = expr_bvar_fresh(128, "i"), *body = expr_ult(i, p);
  expr *hard[4] = {expr_eq(h.pq, h.n), expr_ult(one, p), expr_ult(one, q),
                   expr_forall(i, one, two, body)};
  qs_set_timeout(s, 1);
  CHECK_EQ_U64(qs_check_sat(s, hard, 4), QS_SAT);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(st->asked, 1);
  CHECK_EQ_U64(st->asked_unknown, 0);
  CHECK_EQ_U64(qs_stats(s, "cex_cache")->forall_decided, 1);
  CHECK_EQ_U64(st->queries, 0); /* the procedure never ran on it */
  CHECK_EQ_U64(st->rechecked, validate ? 1 : 0);
  CHECK_EQ_U64(st->rechecked_from_cache, validate ? 1 : 0);
  CHECK_EQ_U64(st->recheck_unknown, validate ? 1 : 0);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->models_unconfirmed, 0);
  qs_free(s);
  expr *all[] = {given[0], given[1], i, body, hard[0], hard[1], hard[2], hard[3]};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  hard_factors_free(&h);
  CHECK_EQ_U64(expr_live_count(), live);
  CHECK_EQ_U64(expr_live_arrays(), live_arrays);
}

int main(void) {
  cached_answer_rechecked(true);
  cached_answer_rechecked(false);
  return check_exit();
}
