/*
 * test_effort_split.c — the engine's queries split by whether they hold a forall, with the
 * solver effort each part cost (qsolver.h: qs_effort_split):
 *   - a plain query counts as a query, not as a forall query, and its effort goes to the
 *     total only; a forall query the procedure answers through Z3 counts as both, and the
 *     effort it cost (qs_effort before and after) is its forall effort;
 *   - --validate-qsolver's re-checks of that answer add effort to qs_effort but not to the
 *     split: the split of a validated run equals the unvalidated one's;
 *   - queries asked between qs_effort_split_exclude(on) and (off) count nowhere and their
 *     effort is left out, nested pairs included;
 *   - the split is deterministic: the same queries on a fresh solver give the same numbers;
 *   - a plain query asked while qs_effort_split_tag is on counts as tagged too, with the
 *     effort it cost; a forall query, one asked with the tag off or one excluded does not.
 */
#include <stdbool.h>
#include <stdint.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

typedef struct queries {
  expr_array *a, *b;
  expr *plain[2], *forall[2]; /* a plain query (b0 = 7 ∧ b1 ≠ b0), a forall query */
  expr *own[48];
  size_t nown;
} queries;

static expr *keep(queries *q, expr *e) {
  if (q->nown == sizeof q->own / sizeof *q->own) abort();
  q->own[q->nown++] = e;
  return e;
}

/* ∀i ∈ [0, 3]. a[i] ≠ 0 with a[0] = 5, and a plain question over b. */
static queries queries_new(void) {
  queries q = {0};
  expr *cap = expr_const(64, 8);
  q.a = expr_array_new("a", cap, 8, true, NULL);
  q.b = expr_array_new("b", cap, 8, true, NULL);
  expr_unref(cap);
  expr *i = keep(&q, expr_bvar_fresh(64, "i"));
  expr *zero8 = keep(&q, expr_const(8, 0)), *lo = keep(&q, expr_const(64, 0));
  expr *hi = keep(&q, expr_const(64, 3)), *one = keep(&q, expr_const(64, 1));
  expr *body = keep(&q, expr_ne(keep(&q, expr_read(q.a, NULL, i)), zero8));
  q.forall[0] = keep(&q, expr_forall(i, lo, hi, body));
  expr *a0 = keep(&q, expr_read(q.a, NULL, lo));
  q.forall[1] = keep(&q, expr_eq(a0, keep(&q, expr_const(8, 5))));
  expr *b0 = keep(&q, expr_read(q.b, NULL, lo)), *b1 = expr_read(q.b, NULL, one);
  q.plain[0] = keep(&q, expr_eq(b0, keep(&q, expr_const(8, 7))));
  q.plain[1] = expr_ne(b1, b0);
  expr_unref(b1);
  keep(&q, q.plain[1]);
  return q;
}

static void queries_free(queries *q) {
  for (size_t k = 0; k < q->nown; k++) expr_unref(q->own[k]);
  expr_array_unref(q->a);
  expr_array_unref(q->b);
}

static qsolver *solver(bool validate) {
  qs_options o = qs_default_options();
  o.relax = false; /* the procedure answers the forall query, through Z3 */
  o.validate_quantified = validate;
  return qs_new(&o);
}

/* One plain query, then one forall query; returns the split after them. */
static qs_effort_split ask(qsolver *s, queries *q) {
  CHECK_EQ_U64(qs_check_sat(s, q->plain, 2), QS_SAT);
  qs_effort_split after_plain = qs_effort_split_of(s);
  CHECK_EQ_U64(after_plain.queries, 1);
  CHECK_EQ_U64(after_plain.forall_queries, 0);
  CHECK_EQ_U64(after_plain.forall_effort, 0);
  /* the plain query is answered before Z3 (the earlier stages), and Z3's context is made
   * only when a query first reaches it: no effort at all yet (before the context was lazy,
   * the count its making advanced showed here) */
  CHECK_EQ_U64(after_plain.effort, 0);
  uint64_t before = qs_effort(s);
  CHECK_EQ_U64(qs_check_sat(s, q->forall, 2), QS_SAT);
  qs_effort_split after = qs_effort_split_of(s);
  CHECK_EQ_U64(after.queries, 2);
  CHECK_EQ_U64(after.forall_queries, 1);
  CHECK(after.forall_effort > 0);
  CHECK(after.forall_effort <= qs_effort(s) - before);
  CHECK_EQ_U64(after.effort, after_plain.effort + after.forall_effort);
  return after;
}

static void split_and_validation(void) {
  queries q = queries_new();
  qsolver *plain = solver(false), *validated = solver(true);
  qs_effort_split a = ask(plain, &q), b = ask(validated, &q);
  CHECK_EQ_U64(qs_quant_stats_of(validated)->rechecked, 1);
  CHECK(qs_effort(validated) > b.effort); /* the re-check cost effort, outside the split */
  CHECK_EQ_U64(a.forall_effort, b.forall_effort);
  CHECK_EQ_U64(a.effort, b.effort);
  qs_free(plain);
  qs_free(validated);
  qsolver *again = solver(false);
  qs_effort_split c = ask(again, &q);
  CHECK_EQ_U64(c.effort, a.effort);
  CHECK_EQ_U64(c.forall_effort, a.forall_effort);
  qs_free(again);
  queries_free(&q);
}

static void excluded(void) {
  queries q = queries_new();
  qsolver *s = solver(false);
  qs_effort_split_exclude(s, true);
  qs_effort_split_exclude(s, true);
  CHECK_EQ_U64(qs_check_sat(s, q.forall, 2), QS_SAT);
  qs_effort_split_exclude(s, false);
  CHECK_EQ_U64(qs_check_sat(s, q.plain, 2), QS_SAT);
  qs_effort_split_exclude(s, false);
  qs_effort_split none = qs_effort_split_of(s);
  CHECK(qs_effort(s) > 0);
  CHECK_EQ_U64(none.queries, 0);
  CHECK_EQ_U64(none.forall_queries, 0);
  qsolver *fresh = solver(false); /* what the effort reads before any query */
  CHECK_EQ_U64(none.effort, qs_effort(fresh));
  qs_free(fresh);
  CHECK_EQ_U64(none.forall_effort, 0);
  qs_free(s);
  queries_free(&q);
}

static void tagged(void) {
  queries q = queries_new();
  qsolver *s = solver(false);
  /* an untagged forall query first: Z3's context is made, and it is nobody's tagged effort */
  CHECK_EQ_U64(qs_check_sat(s, q.forall, 2), QS_SAT);
  qs_effort_split_tag(s, true);
  CHECK_EQ_U64(qs_check_sat(s, q.forall, 2), QS_SAT); /* a forall query: never tagged */
  qs_effort_split_exclude(s, true);
  CHECK_EQ_U64(qs_check_sat(s, q.plain, 2), QS_SAT); /* excluded: counts nowhere */
  qs_effort_split_exclude(s, false);
  qs_effort_split before = qs_effort_split_of(s);
  CHECK_EQ_U64(before.tagged_queries, 0);
  CHECK_EQ_U64(before.tagged_effort, 0);
  /* a plain query only Z3 answers (b0 · b1 = 35, 1 < b0 < b1: sat), tagged */
  expr *b0 = keep(&q, expr_read(q.b, NULL, keep(&q, expr_const(64, 0))));
  expr *b1 = keep(&q, expr_read(q.b, NULL, keep(&q, expr_const(64, 1))));
  expr *one8 = keep(&q, expr_const(8, 1));
  expr *hard[3] = {keep(&q, expr_eq(keep(&q, expr_mul(b0, b1)), keep(&q, expr_const(8, 35)))),
                   keep(&q, expr_ult(one8, b0)), keep(&q, expr_ult(b0, b1))};
  CHECK_EQ_U64(qs_check_sat(s, hard, 3), QS_SAT);
  qs_effort_split after = qs_effort_split_of(s);
  CHECK_EQ_U64(after.tagged_queries, 1);
  CHECK_EQ_U64(after.queries, before.queries + 1);
  CHECK(after.tagged_effort > 0);
  CHECK_EQ_U64(after.tagged_effort, after.effort - before.effort);
  qs_effort_split_tag(s, false);
  CHECK_EQ_U64(qs_check_sat(s, q.plain, 2), QS_SAT);
  CHECK_EQ_U64(qs_effort_split_of(s).tagged_queries, 1);
  qs_free(s);
  queries_free(&q);
}

int main(void) {
  split_and_validation();
  excluded();
  tagged();
  return check_exit();
}
