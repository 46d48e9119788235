/*
 * test_qcount.c — the counters of the quantified queries asked and of --validate-qsolver's
 * re-checks (qsolver.h: qs_quant_stats, qs_stage_stats.forall_decided):
 *   - every query holding a forall that the engine asks is counted once as asked and by
 *     exactly one stage as decided, also when no stage below independence ever sees the
 *     forall: a group without it that is unsat comes first, or the forall's group is
 *     dropped (assumed formulas only, no requested array); the quantified procedure's own
 *     answers are its; the sum over the stages is always `asked`;
 *   - the relaxed stage's answers are re-checked under --validate-qsolver (by the
 *     quantified stage, Z3 on the expansion; without that stage, by Z3 on the request) and
 *     counted as re-checked, not as from a cache; a re-check that comes back unknown (a
 *     124-bit factoring, 1 ms) is counted as unknown, not as a confirmation or a
 *     disagreement, and the relaxed stage's answer stands; without validation nothing is
 *     re-checked;
 *   - the procedure's Z3 effort is counted by step (qs_quant_stats.effort).
 */
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine/core/expr.h"
#include "hard_factors.h"
#include "qsolver/qsolver.h"

static uint64_t decided_sum(const qsolver *s) {
  uint64_t sum = 0;
  for (size_t i = 0; i < qs_stage_count(s); i++) sum += qs_stage_at(s, i)->forall_decided;
  return sum;
}

static void unref_all(expr **e, size_t n) {
  for (size_t k = 0; k < n; k++) expr_unref(e[k]);
}

/* ∀i ∈ [0, 3]. a[i] ≠ 0 over a fresh 8-byte array a, and b[0] over another. */
typedef struct fixture {
  expr_array *a, *b;
  expr *zero8, *lo, *hi, *i, *ai, *body, *forall, *at0, *b0;
} fixture;

static fixture fixture_new(void) {
  fixture f;
  expr *cap = expr_const(64, 8);
  f.a = expr_array_new("a", cap, 8, true, NULL);
  f.b = expr_array_new("b", cap, 8, true, NULL);
  expr_unref(cap);
  f.zero8 = expr_const(8, 0);
  f.lo = expr_const(64, 0);
  f.hi = expr_const(64, 3);
  f.i = expr_bvar_fresh(64, "i");
  f.ai = expr_read(f.a, NULL, f.i);
  f.body = expr_ne(f.ai, f.zero8);
  f.forall = expr_forall(f.i, f.lo, f.hi, f.body);
  f.at0 = expr_const(64, 0);
  f.b0 = expr_read(f.b, NULL, f.at0);
  return f;
}

static void fixture_free(fixture *f) {
  expr *all[] = {f->zero8, f->lo, f->hi, f->i, f->ai, f->body, f->forall, f->at0, f->b0};
  unref_all(all, sizeof all / sizeof *all);
  expr_array_unref(f->a);
  expr_array_unref(f->b);
}

/* Independence answers unsat from b's group, which comes first; the forall never goes
 * further down the chain. */
static void unsat_group_first(void) {
  qsolver *s = qs_new(NULL);
  fixture f = fixture_new();
  expr *one = expr_const(8, 1), *two = expr_const(8, 2);
  expr *f1 = expr_eq(f.b0, one), *f2 = expr_eq(f.b0, two);
  expr *q[3] = {f1, f2, f.forall};
  CHECK_EQ_U64(qs_check_sat(s, q, 3), QS_UNSAT);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(st->asked, 1);
  CHECK_EQ_U64(st->queries, 0); /* the procedure never ran */
  CHECK_EQ_U64(qs_stats(s, "independence")->forall_decided, 1);
  CHECK_EQ_U64(decided_sum(s), st->asked);
  qs_free(s);
  expr *mine[] = {one, two, f1, f2};
  unref_all(mine, 4);
  fixture_free(&f);
}

/* A branch question on b under a path condition holding the forall: the forall's group is
 * assumed and reads no requested array, so independence drops it. */
static void forall_group_dropped(void) {
  qsolver *s = qs_new(NULL);
  fixture f = fixture_new();
  expr *one = expr_const(8, 1), *is_one = expr_eq(f.b0, one);
  bool holds = true;
  CHECK_EQ_U64(qs_must_be_true(s, &f.forall, 1, is_one, &holds), QS_SAT);
  CHECK(!holds);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(st->asked, 1);
  CHECK_EQ_U64(st->queries, 0);
  CHECK_EQ_U64(qs_stats(s, "independence")->forall_decided, 1);
  CHECK_EQ_U64(decided_sum(s), st->asked);
  qs_free(s);
  expr_unref(one);
  expr_unref(is_one);
  fixture_free(&f);
}

/* Without the relaxed stage the procedure answers: its answer, counted once, not the
 * sub-queries' stages. Asked twice (the second from a cache), counted twice. Its Z3 effort
 * is counted under the step that spent it (deterministic, unlike its seconds): strip's
 * query is the only one Z3 sees (duplicate then answers, by evaluation), so strip has all
 * of it. */
static void procedure_decides(void) {
  qs_options o = qs_default_options();
  o.relax = false;
  qsolver *s = qs_new(&o);
  fixture f = fixture_new();
  expr *five = expr_const(8, 5), *a0 = expr_read(f.a, NULL, f.at0), *a0_five = expr_eq(a0, five);
  expr *q[2] = {a0_five, f.forall};
  CHECK_EQ_U64(qs_check_sat(s, q, 2), QS_SAT);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(st->asked, 1);
  CHECK_EQ_U64(qs_stats(s, "quantified_procedure")->forall_decided, 1);
  CHECK_EQ_U64(qs_stats(s, "z3")->forall_decided, 0);
  CHECK_EQ_U64(decided_sum(s), 1);
  CHECK_EQ_U64(st->answered[QS_QSTEP_DUPLICATE], 1);
  CHECK(st->effort[QS_QSTEP_STRIP] > 0);
  CHECK_EQ_U64(st->effort[QS_QSTEP_STRIP], qs_effort(s));
  for (int k = 0; k < QS_QSTEP_COUNT; k++)
    if (k != QS_QSTEP_STRIP) CHECK_EQ_U64(st->effort[k], 0);
  CHECK_EQ_U64(qs_check_sat(s, q, 2), QS_SAT);
  CHECK_EQ_U64(st->asked, 2);
  CHECK_EQ_U64(st->asked_unknown, 0);
  CHECK_EQ_U64(qs_stats(s, "quantified_procedure")->forall_decided, 1);
  CHECK_EQ_U64(decided_sum(s), 2);
  qs_free(s);
  expr *mine[] = {five, a0, a0_five};
  unref_all(mine, 3);
  fixture_free(&f);
}

/* The relaxed stage answers from a recent model by evaluation; with validation the answer
 * is re-checked (with the procedure on, Z3 on the expansion; off, Z3 on the request). The
 * first re-check (the factors given) confirms it; the second (the product of two factors
 * > 1, 1 ms) comes back unknown. */
static void relaxed_answer_rechecked(bool validate, bool procedure) {
  uint64_t live = expr_live_count(), live_arrays = expr_live_arrays();
  qs_options o = hard_factors_options(validate);
  o.validity_cache = false;
  o.cex_cache = false; /* they would answer first: the relaxed stage's answer is under test */
  o.quantified = procedure;
  o.quant_timeout_ms = 1;
  qsolver *s = qs_new(&o);
  hard_factors h = hard_factors_new();
  expr *p = h.p, *q = h.q, *one = h.one, *two = h.two;
  expr *i = expr_bvar_fresh(128, "i"), *body = expr_ult(i, p);
  expr *forall = expr_forall(i, one, two, body);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  /* the factors given and the forall: the relaxed stage's scalar part gives the model */
  expr *given[3] = {expr_eq(p, h.vp), expr_eq(q, h.vq), forall};
  CHECK_EQ_U64(qs_check_sat(s, given, 3), QS_SAT);
  CHECK_EQ_U64(qs_stats(s, "relaxed")->forall_decided, 1);
  CHECK_EQ_U64(st->rechecked, validate ? 1 : 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  CHECK_EQ_U64(st->queries, 0); /* a re-check is Z3's, not the procedure's */
  uint64_t before = st->rechecked;
  /* the product of two factors > 1: the relaxed stage's recent model satisfies it */
  qs_set_timeout(s, 1);
  expr *hard[4] = {expr_eq(h.pq, h.n), expr_ult(one, p), expr_ult(one, q), forall};
  CHECK_EQ_U64(qs_check_sat(s, hard, 4), QS_SAT);
  CHECK_EQ_U64(st->asked, 2);
  CHECK_EQ_U64(st->asked_unknown, 0);
  CHECK_EQ_U64(qs_stats(s, "relaxed")->forall_decided, 2);
  CHECK_EQ_U64(decided_sum(s), 2);
  CHECK_EQ_U64(st->rechecked - before, validate ? 1 : 0);
  CHECK_EQ_U64(st->recheck_unknown, validate ? 1 : 0);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->rechecked_from_cache, 0);
  qs_free(s);
  expr *all[] = {i, body, forall, given[0], given[1], hard[0], hard[1], hard[2]};
  unref_all(all, sizeof all / sizeof *all);
  hard_factors_free(&h);
  CHECK_EQ_U64(expr_live_count(), live);
  CHECK_EQ_U64(expr_live_arrays(), live_arrays);
}

int main(void) {
  unsat_group_first();
  forall_group_dropped();
  procedure_decides();
  relaxed_answer_rechecked(true, true);
  relaxed_answer_rechecked(false, true);
  relaxed_answer_rechecked(true, false);
  return check_exit();
}
