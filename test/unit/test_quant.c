/*
 * test_quant.c — the quantified procedure (qsolver/quant.h, stage_quant.c).
 *
 *   - The paper's Examples 5.1–5.3, each step's outcome asserted on the paper's models:
 *     strip's model satisfies the stripped query but not the query; duplication breaks a
 *     quantifier-free clause; repair finds the conflict cell, and duplicating around it
 *     gives a model of the query. (Our copy of the paper lost its formulas; the query is
 *     rebuilt from the prose: ∀x∈[1,k]. a[x] ≠ 0, a[j] = 5, 1 ≤ j ≤ k ≤ 5.)
 *   - The same query through the chain: answered before any fallback, model checked; a
 *     variant that strip alone proves unsat; a counting loop only repair can answer.
 *   - The shapes of a validated PAT run of chained memspn: a negated clause (what
 *     --validate-merges asks) is Skolemized and answered by strip, sat and unsat; a clause
 *     read at s[K1 + i − 1] gets its trigger instance, so strip proves unsat alone.
 *   - A write's index is a trigger (the string scan's s[n] = 0 under the ∀), so strip
 *     proves K > n unsat without the expansion.
 *   - Strip's order: the instances follow the formulas that bring them in, so two questions
 *     on one path condition share the stripped prefix.
 *   - A seeded family of memspn-shaped queries (pat-merge.md §5: both loop exits, K up to
 *     200, sat and unsat questions over them, existentials ¬∀ among them; a third of them
 *     strlen's loop instead), every answer cross-checked with Z3 on an
 *     expansion this file builds itself, every model checked against the whole query, run
 *     with --validate-qsolver on (0 disagreements).
 *   - The fallbacks: a forall under an `or` (not strippable) goes to the expansion, or to
 *     Z3 with fallback=z3; an unbounded range with fallback=expand is unknown, with a reason.
 *   - Quantifier-free queries pass through untouched; has_forall; no leaks.
 *   - The slice step (quant_slice.c): a forall and a question sharing the array through a
 *     symbolic index (a slice that dropped the forall would answer sat), the last model kept
 *     for a forall never answering another path condition it breaks, a forall over constant
 *     bounds answered by its expansion, and a family of
 *     questions on growing merged states cross-checked with Z3 on the expansion.
 * The relaxed stage (stage_relax.c) is off wherever a test counts the procedure's steps, since
 * it answers some queries first and sends the procedure requests of its own; the family
 * runs once more with it on, every answer cross-checked the same way (test_qsolver.c tests
 * the stage itself).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expr_pool.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qsolver/quant.h"

/* The chain as qs_default_options builds it, without the relaxed stage and the forall slice. */
static qs_options procedure_options(void) {
  qs_options o = qs_default_options();
  o.relax = false;
  o.forall_slice = false; /* it answers some before the procedure (tested on its own below) */
  return o;
}

/* ---- references released at the end of a group ---------------------------------------------- */

static size_t live_nodes, live_arrays;

static expr_array *arr(const char *name, uint64_t capacity, bool input) {
  return pool_array(name, capacity, input);
}

static void group_begin(void) {
  live_nodes = expr_live_count();
  live_arrays = expr_live_arrays();
}

static void group_end(void) {
  size_t leaked_before = check_failed;
  pool_release();
  CHECK_EQ_U64(expr_live_count(), live_nodes);
  CHECK_EQ_U64(expr_live_arrays(), live_arrays);
  if (check_failed != leaked_before) fprintf(stderr, "    (leak in the group just run)\n");
}

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }

static void set_word(expr_assignment *m, expr_array *a, uint64_t v) {
  uint8_t b[8];
  for (int i = 0; i < 8; i++) b[i] = (uint8_t)(v >> (8 * i));
  expr_assignment_set(m, a, b, 8);
}

static uint64_t get_word(const expr_assignment *m, expr_array *a) {
  const expr_binding *b = expr_assignment_find(m, a);
  uint64_t v = 0;
  for (int i = 7; b && i >= 0; i--) v = v << 8 | ((size_t)i < b->len ? b->bytes[i] : 0);
  return v;
}

static unsigned get_byte(const expr_assignment *m, expr_array *a, uint64_t i) {
  const expr_binding *b = expr_assignment_find(m, a);
  return b && i < b->len ? b->bytes[i] : 0;
}

static uint64_t before_fallback(const qs_quant_stats *q) {
  return q->answered[QS_QSTEP_STRIP] + q->answered[QS_QSTEP_DUPLICATE] +
         q->answered[QS_QSTEP_REPAIR];
}

/* ---- the paper's Examples 5.1–5.3 --------------------------------------------------------------
 */

typedef struct example {
  expr_array *a, *k, *j;
  expr *f[5];
} example;

/* ∀x∈[1,k]. a[x] ≠ 0, k ≤ 5, 1 ≤ j, j ≤ k, a[j] = 5. */
static example build_example(void) {
  example e;
  e.a = arr("a", 8, true);
  e.k = arr("k", 8, true);
  e.j = arr("j", 8, true);
  expr *x = K(expr_bvar_fresh(64, "x"));
  expr *k = word(e.k), *j = word(e.j);
  e.f[0] = K(expr_forall(x, k64(1), k, K(expr_ne(byte_at(e.a, x), k8(0)))));
  e.f[1] = K(expr_ule(k, k64(5)));
  e.f[2] = K(expr_ule(k64(1), j));
  e.f[3] = K(expr_ule(j, k));
  e.f[4] = K(expr_eq(byte_at(e.a, j), k8(5)));
  return e;
}

static expr_assignment *example_model(const example *e, uint64_t k, uint64_t j,
                                      const uint8_t a[8]) {
  expr_assignment *m = expr_assignment_new();
  set_word(m, e->k, k);
  set_word(m, e->j, j);
  expr_assignment_set(m, e->a, a, 8);
  return m;
}

static void test_paper_examples(void) {
  group_begin();
  example e = build_example();
  CHECK(e.f[0]->kind == EXPR_FORALL);
  qs_quant *q = qs_quant_new(e.f, 5);
  CHECK(qs_quant_strippable(q));

  /* Example 5.1 — strip. The model k=4, j=2, a[1..4] = 1,5,0,7 satisfies the stripped
   * query (the instances at 1, at k and at the trigger j all hold) but not the query. */
  expr **w = NULL;
  size_t nw = qs_quant_strip(q, &w);
  static const uint8_t a1[8] = {0, 1, 5, 0, 7, 0, 0, 0};
  expr_assignment *m1 = example_model(&e, 4, 2, a1);
  CHECK(expr_eval_all_true(w, nw, m1));
  CHECK(!qs_quant_holds(q, m1));
  /* The bound lemma (the instance at i = k) is in the stripped query: a[4] = 0 breaks it. */
  static const uint8_t a1b[8] = {0, 1, 5, 0, 0, 0, 0, 0};
  expr_assignment *m1b = example_model(&e, 4, 2, a1b);
  CHECK(!expr_eval_all_true(w, nw, m1b));
  expr_assignment_free(m1b);
  /* The e-matching instance at the trigger j: with j = 3 and a[3] = 0 the stripped query
   * fails even though a[j] = 5 is dropped from the model's concern. */
  static const uint8_t a1c[8] = {0, 1, 0, 0, 7, 0, 0, 0};
  expr_assignment *m1c = example_model(&e, 4, 3, a1c);
  CHECK(!expr_eval_all_true(w, nw, m1c));
  expr_assignment_free(m1c);

  /* Example 5.2 — duplicate: a[1] = 1 is copied to a[2..4]; the ∀ now holds, but a[j] = 5
   * (j = 2) is violated. */
  expr_assignment *m2 = qs_quant_duplicate(q, m1, NULL);
  CHECK_EQ_U64(get_byte(m2, e.a, 1), 1);
  CHECK_EQ_U64(get_byte(m2, e.a, 2), 1);
  CHECK_EQ_U64(get_byte(m2, e.a, 3), 1);
  CHECK_EQ_U64(get_byte(m2, e.a, 4), 1);
  CHECK(expr_eval_all_true(e.f, 1, m2));
  CHECK(!expr_eval_all_true(e.f + 4, 1, m2));
  CHECK(!qs_quant_holds(q, m2));
  /* The Appendix's remark: from a different strip model (j = 1) duplication succeeds. */
  static const uint8_t a1d[8] = {0, 5, 0, 0, 5, 0, 0, 0};
  expr_assignment *m1d = example_model(&e, 4, 1, a1d);
  CHECK(expr_eval_all_true(w, nw, m1d));
  expr_assignment *m2d = qs_quant_duplicate(q, m1d, NULL);
  CHECK(qs_quant_holds(q, m2d));
  expr_assignment_free(m1d);
  expr_assignment_free(m2d);

  /* Example 5.3 — repair: the violated clause a[j] = 5 reads cell a[2]; the instance x = 2
   * reads it too and is added; k and j are fixed to 4 and 2; a is solved afresh; the
   * duplication then skips a[2], and the result satisfies the query. */
  qs_cells *conflicts = qs_cells_new();
  expr **r = NULL;
  size_t nr = qs_quant_repair_query(q, m2, w, nw, &r, conflicts);
  CHECK_EQ_U64(qs_cells_count(conflicts), 1);
  CHECK(qs_cells_has(conflicts, e.a, 2));
  CHECK(nr > nw);
  qs_options o = procedure_options();
  o.quantified = false; /* the repair query is quantifier-free: plain Z3 */
  qsolver *s = qs_new(&o);
  expr_array *all[3] = {e.a, e.k, e.j};
  expr_assignment *m3 = NULL;
  CHECK_EQ_U64(qs_get_model(s, r, nr, all, 3, &m3), QS_SAT);
  if (m3) {
    CHECK_EQ_U64(get_word(m3, e.k), 4);
    CHECK_EQ_U64(get_word(m3, e.j), 2);
    CHECK_EQ_U64(get_byte(m3, e.a, 2), 5);
    expr_assignment *m4 = qs_quant_duplicate(q, m3, conflicts);
    CHECK_EQ_U64(get_byte(m4, e.a, 2), 5);
    CHECK_EQ_U64(get_byte(m4, e.a, 3), get_byte(m3, e.a, 1));
    CHECK_EQ_U64(get_byte(m4, e.a, 4), get_byte(m3, e.a, 1));
    CHECK(qs_quant_holds(q, m4));
    expr_assignment_free(m4);
  }
  expr_assignment_free(m3);
  qs_free(s);
  qs_formulas_free(r, nr);
  qs_cells_free(conflicts);
  expr_assignment_free(m1);
  expr_assignment_free(m2);
  qs_formulas_free(w, nw);
  qs_quant_free(q);
  group_end();
}

/* The example through the chain, and a variant that strip proves unsat. */
static void test_example_in_chain(void) {
  group_begin();
  example e = build_example();
  qs_options o = procedure_options();
  qsolver *s = qs_new(&o);
  expr_array *all[3] = {e.a, e.k, e.j};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, e.f, 5, all, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(e.f, 5, m));
  expr_assignment_free(m);
  const qs_quant_stats *qst = qs_quant_stats_of(s);
  CHECK_EQ_U64(qst->queries, 1);
  CHECK_EQ_U64(before_fallback(qst), 1);
  /* a[j] = 0 with j in [1, k]: the instance at the trigger j says a[j] ≠ 0. */
  expr *g[5] = {e.f[0], e.f[1], e.f[2], e.f[3], K(expr_eq(byte_at(e.a, word(e.j)), k8(0)))};
  uint64_t stripped = qst->answered[QS_QSTEP_STRIP];
  CHECK_EQ_U64(qs_check_sat(s, g, 5), QS_UNSAT);
  CHECK_EQ_U64(qst->answered[QS_QSTEP_STRIP], stripped + 1);
  CHECK_EQ_U64(qst->answered[QS_QSTEP_FALLBACK_EXPAND] + qst->answered[QS_QSTEP_FALLBACK_Z3], 0);
  /* Quantifier-free queries pass through untouched. */
  expr *qf[2] = {e.f[1], e.f[2]};
  CHECK_EQ_U64(qs_check_sat(s, qf, 2), QS_SAT);
  CHECK_EQ_U64(qst->queries, 2);
  qs_free(s);
  group_end();
}

/* A counting loop, ∀i∈[1,K]. a[i] = a[i−1] + 1 with a[j] = 150 for some 1 ≤ j < K, 5 ≤ K ≤ 10:
 * strip leaves the cells between its instances free, and duplication makes them all equal,
 * so neither can give a model; repair adds the instances at the conflict cells and succeeds
 * (checked against the whole query, and by Z3 on the expansion). */
static void test_repair_in_chain(void) {
  group_begin();
  expr_array *A = arr("a", 16, true), *KA = arr("K", 8, true), *J = arr("j", 8, true);
  expr *k = word(KA), *j = word(J);
  expr *x = K(expr_bvar_fresh(64, "x"));
  expr *prev = byte_at(A, K(expr_add(x, k64((uint64_t)-1))));
  expr *body = K(expr_eq(byte_at(A, x), K(expr_add(prev, k8(1)))));
  expr *f[6] = {K(expr_forall(x, k64(1), k, body)),
                K(expr_ule(k, k64(10))),
                K(expr_ule(k64(5), k)),
                K(expr_ule(k64(1), j)),
                K(expr_ult(j, k)),
                K(expr_eq(byte_at(A, j), k8(150)))};
  qs_options o = procedure_options();
  o.validate_quantified = true;
  qsolver *s = qs_new(&o);
  expr_array *arrays[3] = {A, KA, J};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, 6, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, 6, m));
  const qs_quant_stats *q = qs_quant_stats_of(s);
  CHECK_EQ_U64(q->answered[QS_QSTEP_REPAIR], 1);
  CHECK_EQ_U64(q->disagreements, 0);
  expr_assignment_free(m);
  qs_free(s);
  group_end();
}

/* ---- the shapes of a validated PAT run of chained memspn ---------------------------------------
 */

static bool mentions_witness(const qs_quant *q, expr *const *f, size_t n) {
  expr_array **v = NULL;
  size_t nv = 0, cap = 0;
  for (size_t i = 0; i < n; i++) expr_collect_arrays(f[i], &v, &nv, &cap);
  bool found = false;
  for (size_t i = 0; i < nv; i++) found |= qs_quant_is_witness(q, v[i]);
  free(v);
  return found;
}

static bool any_forall(expr *const *f, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (f[i]->has_forall) return true;
  return false;
}

/* --validate-merges asks whether a merged pc implies its members: the member's loop ran K
 * times, ∀i∈[1,K]. i−1 < n ∧ s[i−1] = 'a' negated. Such a ¬∀ used to make the query
 * unstrippable (every one went to the expansion); Skolemized it is answered by strip, unsat
 * (the member's own bytes refute the witness) and sat (a model of the whole query). */
static void test_negated_clause(void) {
  group_begin();
  expr_array *S = arr("s", 11, true), *N = arr("n", 8, true), *KA = arr("K", 8, false);
  expr *n = word(N), *k = word(KA);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *cell = byte_at(S, K(expr_add(k64((uint64_t)-1), i)));
  expr *body =
      K(expr_and(K(expr_ult(K(expr_add(k64((uint64_t)-1), i)), n)), K(expr_eq(k8('a'), cell))));
  expr *all = K(expr_forall(i, k64(1), k, body));
  expr *f[7] = {K(expr_ule(n, k64(10))),
                K(expr_eq(k64(3), k)),
                K(expr_ult(k64(3), n)),
                K(expr_eq(byte_at(S, k64(0)), k8('a'))),
                K(expr_eq(byte_at(S, k64(1)), k8('a'))),
                K(expr_eq(byte_at(S, k64(2)), k8('a'))),
                K(expr_not(all))};
  qs_quant *q = qs_quant_new(f, 7);
  CHECK(qs_quant_strippable(q));
  expr **w = NULL;
  size_t nw = qs_quant_strip(q, &w), nqf;
  qs_quant_qf(q, &nqf);
  CHECK(!any_forall(w, nw));
  CHECK(mentions_witness(q, w, nw));
  qs_options p = procedure_options();
  p.quantified = false;
  qsolver *plain = qs_new(&p);
  CHECK_EQ_U64(qs_check_sat(plain, w, nw), QS_UNSAT); /* strip's own answer */
  qs_formulas_free(w, nw);
  qs_quant_free(q);

  qs_options o = procedure_options();
  o.validate_quantified = true;
  qsolver *s = qs_new(&o);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(qs_check_sat(s, f, 7), QS_UNSAT);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 1);
  /* stats.json's strip_conjuncts and strip_instances: what that strip handed Z3 */
  CHECK_EQ_U64(st->strip_conjuncts, nqf);
  CHECK_EQ_U64(st->strip_instances, nw - nqf); /* none: a ¬∀ becomes a witness's conjuncts */
  /* Without s[2] = 'a' the member is not implied: sat, by strip, and the model holds. */
  expr *g[6] = {f[0], f[1], f[2], f[3], f[4], f[6]};
  expr_array *arrays[3] = {S, N, KA};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, g, 6, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(g, 6, m));
  CHECK(m && get_byte(m, S, 2) != 'a');
  expr_assignment_free(m);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 2);
  CHECK_EQ_U64(st->answered[QS_QSTEP_FALLBACK_EXPAND] + st->answered[QS_QSTEP_FALLBACK_Z3], 0);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  /* A negated disjunction holding the ¬∀ (¬(∀ ∨ …) is ¬∀ ∧ ¬…): strippable as well (a
   * fresh solver, so that no cache answers it first). */
  s = qs_new(&o);
  st = qs_quant_stats_of(s);
  expr *b = K(expr_read(S, NULL, k64(10)));
  expr *h[3] = {f[0], f[1], K(expr_not(K(expr_or(all, K(expr_eq(b, k8(7)))))))};
  q = qs_quant_new(h, 3);
  CHECK(qs_quant_strippable(q));
  qs_quant_free(q);
  CHECK_EQ_U64(qs_get_model(s, h, 3, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(h, 3, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 1);
  CHECK_EQ_U64(st->disagreements, 0);
  /* A ¬∀ whose body holds another forall stays unstrippable (only the fallback knows it). */
  expr *j = K(expr_bvar_fresh(64, "j"));
  expr *inner = K(expr_forall(j, k64(1), k, K(expr_ule(j, n))));
  expr *outer = K(expr_forall(i, k64(1), k, K(expr_and(inner, body))));
  expr *nested[2] = {f[0], K(expr_not(outer))};
  q = qs_quant_new(nested, 2);
  CHECK(!qs_quant_strippable(q));
  qs_quant_free(q);
  qs_free(s);
  qs_free(plain);
  group_end();
}

/* The second loop of chained memspn reads s[K1 + i − 1]: its index is offset by the first
 * loop's count, a closed term that is not a constant. Strip's trigger terms must see through
 * it: s[K1 + 2] ≠ 'b' with 2 < K3 contradicts the instance at i = 3 (found from that read),
 * so strip alone proves unsat; without the trigger its model fails, duplication and repair
 * cannot help (repair fixes K1 and K3) and the query reached the expansion. */
static void test_offset_trigger(void) {
  group_begin();
  expr_array *S = arr("s", 16, true), *K1A = arr("K1", 8, false), *K3A = arr("K3", 8, false);
  expr *k1 = word(K1A), *k3 = word(K3A);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *at = K(expr_add(k1, K(expr_add(k64((uint64_t)-1), i))));
  expr *all = K(expr_forall(i, k64(1), k3, K(expr_eq(k8('b'), byte_at(S, at)))));
  expr *f[5] = {all, K(expr_ule(k1, k64(4))), K(expr_ule(k3, k64(5))), K(expr_ult(k64(2), k3)),
                K(expr_ne(byte_at(S, K(expr_add(k64(2), k1))), k8('b')))};
  qs_quant *q = qs_quant_new(f, 5);
  expr **w = NULL;
  size_t nw = qs_quant_strip(q, &w);
  CHECK_EQ_U64(nw, 4 + 3); /* the conjuncts, the instances at lo, hi and the trigger */
  qs_options p = procedure_options();
  p.quantified = false;
  qsolver *plain = qs_new(&p);
  CHECK_EQ_U64(qs_check_sat(plain, w, nw), QS_UNSAT);
  qs_formulas_free(w, nw);
  qs_quant_free(q);
  qs_options o = procedure_options();
  o.validate_quantified = true;
  qsolver *s = qs_new(&o);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(qs_check_sat(s, f, 5), QS_UNSAT);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 1);
  CHECK_EQ_U64(st->strip_conjuncts, 4); /* stats.json's counts of what strip handed Z3 */
  CHECK_EQ_U64(st->strip_instances, 3);
  /* With K3 ≤ 2 instead the read is outside the range: sat, and the model holds. */
  expr *g[5] = {all, f[1], f[2], K(expr_ule(k3, k64(2))), f[4]};
  expr_array *arrays[3] = {S, K1A, K3A};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, g, 5, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(g, 5, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(before_fallback(st), 2);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  qs_free(plain);
  group_end();
}

/* A read just past the clause's range (chained memspn reads s[K1 + c] after ∀i∈[1,K1].
 * s[i − 1] = 'a') gets no instance: its guard could only hold if K + 1 wrapped, and one such
 * instance per read made every stripped query of the second loop grow. */
/* ∀i∈[1,K]. s[i − 1] = 'a' over a 16-byte s and a fresh K: memspn's clause. */
typedef struct a_clause {
  expr_array *S, *KA;
  expr *k, *all;
} a_clause;

static a_clause a_prefix_clause(void) {
  a_clause c = {arr("s", 16, true), arr("K", 8, false), NULL, NULL};
  c.k = word(c.KA);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *before_i = K(expr_add(k64((uint64_t)-1), i));
  c.all = K(expr_forall(i, k64(1), c.k, K(expr_eq(k8('a'), byte_at(c.S, before_i)))));
  return c;
}

/* A solver running the procedure with --validate-qsolver, and its counters. */
static qsolver *validated_solver(const qs_quant_stats **st) {
  qs_options o = procedure_options();
  o.validate_quantified = true;
  qsolver *s = qs_new(&o);
  *st = qs_quant_stats_of(s);
  return s;
}

static void test_trigger_past_range(void) {
  group_begin();
  a_clause c = a_prefix_clause();
  expr_array *S = c.S, *KA = c.KA;
  expr *k = c.k, *all = c.all;
  expr *f[3] = {all, K(expr_ule(k, k64(5))), K(expr_ne(byte_at(S, k), k8('a')))};
  qs_quant *q = qs_quant_new(f, 3);
  expr **w = NULL;
  size_t nw = qs_quant_strip(q, &w);
  CHECK_EQ_U64(nw, 2 + 2); /* the quantifier-free conjuncts and the instances at lo and hi */
  qs_formulas_free(w, nw);
  qs_quant_free(q);
  const qs_quant_stats *st;
  qsolver *s = validated_solver(&st);
  expr_array *arrays[2] = {S, KA};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, 3, arrays, 2, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, 3, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(before_fallback(st), 1);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  group_end();
}

/* The string scan's last question (eval/drivers/string_scan.c, pat): s[n] = 0 written, then
 * ∀i∈[1,K]. s'[i − 1] = 'a' over the written s', and K > n asks for a count past the
 * terminator. Only the instance at the written index (i = n + 1) contradicts it; no other
 * conjunct reads s, so strip had no trigger there and the query went on to the expansion
 * (10 s timeouts from capacity 512). The write's index is a trigger now: strip proves it. */
static void test_trigger_write_index(void) {
  group_begin();
  expr_array *S = arr("s", 16, true), *NA = arr("n", 8, true), *KA = arr("K", 8, false);
  expr *n = word(NA), *k = word(KA);
  expr_update *u = expr_update_push(S, NULL, n, k8(0));
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *read = K(expr_read(S, u, K(expr_add(k64((uint64_t)-1), i))));
  expr_update_unref(u);
  expr *all = K(expr_forall(i, k64(1), k, K(expr_eq(k8('a'), read))));
  /* K ≤ 15 bounds the expansion that --validate-qsolver re-checks on (else Z3's MBQI on the
   * query, which times out on it) */
  expr *f[4] = {K(expr_ule(n, k64(10))), K(expr_ule(k, k64(15))), all, K(expr_ult(n, k))};
  const qs_quant_stats *st;
  qsolver *s = validated_solver(&st);
  CHECK_EQ_U64(qs_check_sat(s, f, 4), QS_UNSAT);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 1);
  CHECK_EQ_U64(st->answered[QS_QSTEP_FALLBACK_EXPAND] + st->answered[QS_QSTEP_FALLBACK_Z3], 0);
  /* K = n is possible (the scan stopped at the terminator): sat, the model holds. */
  expr *g[4] = {f[0], f[1], all, K(expr_eq(n, k))};
  expr_array *arrays[3] = {S, NA, KA};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, g, 4, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(g, 4, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  qs_free(s);
  group_end();
}

/* Strip keeps the query's order: each formula, then the instances it brings in (lo and hi
 * after the clause, a trigger's after the formula reading it), the question and its own
 * trigger's instance last. Two questions on one path condition then give stripped queries
 * that share everything before the question, so Z3's incremental lane keeps the instances
 * asserted (libpng text re-asserted them at every query: 72% of its instructions). */
static void test_strip_order(void) {
  group_begin();
  a_clause c = a_prefix_clause();
  expr_array *S = c.S, *KA = c.KA;
  expr *k = c.k, *all = c.all;
  expr *path[3] = {K(expr_ule(k, k64(5))), all, K(expr_ne(byte_at(S, k64(4)), k8('c')))};
  expr *qa = K(expr_ne(byte_at(S, k64(2)), k8('a'))), *qb = K(expr_ne(byte_at(S, k64(3)), k8('a')));
  expr *fa[4] = {path[0], path[1], path[2], qa}, *fb[4] = {path[0], path[1], path[2], qb};
  qs_quant *q = qs_quant_new(fa, 4);
  expr **wa = NULL, **wb = NULL;
  size_t na = qs_quant_strip(q, &wa);
  qs_quant_free(q);
  q = qs_quant_new(fb, 4);
  size_t nb = qs_quant_strip(q, &wb);
  qs_quant_free(q);
  /* K ≤ 5; the instances at 1 and K; s[4] ≠ 'c' and the instance at 5 it triggers; the
   * question and the instance it triggers (at 3, at 4). */
  CHECK_EQ_U64(na, 7);
  CHECK_EQ_U64(nb, 7);
  if (na == 7 && nb == 7) {
    CHECK(wa[0] == path[0]);
    CHECK(wa[1] != path[2] && wa[2] != path[2] && !wa[1]->has_forall && !wa[2]->has_forall);
    CHECK(wa[3] == path[2]);
    CHECK(wa[4] != qa && wa[4] != qb);
    CHECK(wa[5] == qa && wb[5] == qb);
    for (size_t j = 0; j < 5; j++) CHECK(wa[j] == wb[j]); /* the shared prefix */
    CHECK(wa[6] != wb[6]);
    /* The instance at the question's trigger: a model with s[2] != 'a' breaks it (K = 4). */
    expr_assignment *m = expr_assignment_new();
    set_word(m, KA, 4);
    static const uint8_t bytes[16] = {'a', 'a', 'x', 'a', 'a'};
    expr_assignment_set(m, S, bytes, 16);
    CHECK(!expr_eval_all_true(&wa[6], 1, m));
    CHECK(expr_eval_all_true(&wb[6], 1, m));
    expr_assignment_free(m);
  }
  qs_formulas_free(wa, na);
  qs_formulas_free(wb, nb);
  group_end();
}

/* ---- the memspn family -------------------------------------------------------------------------
 */

static uint64_t rng;
static unsigned rnd(unsigned n) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)((rng >> 33) % n);
}

/* The test's own expansion of ∀i∈[1,K]. φ(i) with K ≤ max: ⋀_{i=1..max} (i ≤ K → φ(i)). */
static expr *expand_by_hand(expr *fa, uint64_t max) {
  expr *i = fa->kid[0], *k = fa->kid[2], *body = fa->kid[3];
  expr *all = expr_true();
  for (uint64_t v = 1; v <= max; v++) {
    expr *c = expr_const(64, v);
    expr *inst = expr_substitute(body, &i, &c, 1);
    expr *in = expr_ule(c, k);
    expr *imp = expr_implies(in, inst);
    expr *next = expr_and(all, imp);
    expr_unref(c);
    expr_unref(inst);
    expr_unref(in);
    expr_unref(imp);
    expr_unref(all);
    all = next;
  }
  return K(all);
}

typedef struct family_totals {
  unsigned queries, sat, unsat, models;
} family_totals;

/* One merged memspn exit over a buffer s of size n ≤ max: pc and extra question. */
static void family_case(qsolver *s, qsolver *plain, family_totals *t) {
  unsigned max = 1 + rnd(200);
  uint8_t c = (uint8_t)('a' + rnd(3));
  expr_array *S = arr("s", max + 1, true), *N = arr("n", 8, true), *KA = arr("K", 8, false);
  expr *n = word(N), *k = word(KA);
  expr *i = K(expr_bvar_fresh(64, "i"));
  /* memspn's loop (s[i-1] = c) or strlen's (s[i-1] ≠ 0, which leaves room for other
   * constraints on the cells and so for duplication to break them). */
  bool strlen_loop = rnd(3) == 0;
  expr *cell = byte_at(S, K(expr_add(i, k64((uint64_t)-1))));
  expr *body = K(strlen_loop ? expr_ne(cell, k8(0)) : expr_eq(cell, k8(c)));
  expr *all = K(expr_forall(i, k64(1), k, body));
  bool exit_short = rnd(2);
  expr *f[6];
  size_t nf = 0;
  f[nf++] = all;
  f[nf++] = K(expr_ule(n, k64(max)));
  if (exit_short) { /* K < n, s[K] ≠ c */
    f[nf++] = K(expr_ult(k, n));
    f[nf++] = K(strlen_loop ? expr_eq(byte_at(S, k), k8(0)) : expr_ne(byte_at(S, k), k8(c)));
  } else { /* K = n */
    f[nf++] = K(expr_eq(k, n));
  }
  /* The question: sat or unsat, about a cell the ∀ may or may not cover. */
  unsigned j = rnd(max + 1);
  expr *exists = NULL; /* ¬∀i∈[1,j]. φ(i), when the question is an existential */
  switch (rnd(5)) {
  case 0: /* s[j] ≠ c while K > j: unsat */
    f[nf++] = K(expr_ult(k64(j), k));
    f[nf++] = K(expr_ne(byte_at(S, k64(j)), k8(c)));
    break;
  case 1: /* s[j] ≠ c, nothing else: sat (K ≤ j) */
    f[nf++] = K(expr_ne(byte_at(S, k64(j)), k8(c)));
    break;
  case 2: /* K = j exactly */ f[nf++] = K(expr_eq(k, k64(j))); break;
  case 3: /* a second exit value: K ≥ j and s[j] = c+1 */
    f[nf++] = K(expr_ule(k64(j), k));
    f[nf++] = K(expr_eq(byte_at(S, k64(j)), k8((uint8_t)(c + 1))));
    break;
  default: /* --validate-merges' shape: some i ≤ j fails the loop's test (sat iff K < j) */
    exists = K(expr_forall(i, k64(1), k64(j), body));
    f[nf++] = K(expr_not(exists));
    break;
  }
  expr_array *arrays[3] = {S, N, KA};
  expr_assignment *m = NULL;
  qs_status got = qs_get_model(s, f, nf, arrays, 3, &m);
  /* The cross-check: Z3 alone on this file's expansion. */
  expr *g[6];
  memcpy(g, f, nf * sizeof *g);
  g[0] = expand_by_hand(all, max);
  if (exists) g[nf - 1] = K(expr_not(expand_by_hand(exists, j)));
  qs_status want = qs_check_sat(plain, g, nf);
  CHECK(want != QS_UNKNOWN);
  CHECK_EQ_U64(got, want);
  t->queries++;
  if (got == QS_SAT) {
    t->sat++;
    CHECK(m != NULL);
    if (m) {
      t->models++;
      CHECK(expr_eval_all_true(f, nf, m)); /* the test's model satisfies the full query */
    }
  } else if (got == QS_UNSAT) {
    t->unsat++;
  }
  expr_assignment_free(m);
}

static void test_memspn_family(bool relax) {
  group_begin();
  qs_options o = procedure_options();
  o.relax = relax;
  o.validate_quantified = true;
  qsolver *s = qs_new(&o);
  qs_options p = procedure_options();
  p.quantified = false;
  qsolver *plain = qs_new(&p);
  rng = 20231;
  family_totals t = {0};
  for (int r = 0; r < 60; r++) family_case(s, plain, &t);
  const qs_quant_stats *q = qs_quant_stats_of(s);
  printf(
      "memspn family (relaxed stage %s): %u queries (%u sat, %u unsat); answered by strip %llu, "
      "duplicate %llu,"
      " repair %llu, expansion %llu, z3 %llu, unknown %llu\n",
      relax ? "on" : "off", t.queries, t.sat, t.unsat,
      (unsigned long long)q->answered[QS_QSTEP_STRIP],
      (unsigned long long)q->answered[QS_QSTEP_DUPLICATE],
      (unsigned long long)q->answered[QS_QSTEP_REPAIR],
      (unsigned long long)q->answered[QS_QSTEP_FALLBACK_EXPAND],
      (unsigned long long)q->answered[QS_QSTEP_FALLBACK_Z3], (unsigned long long)q->unknown);
  CHECK(t.sat > 0 && t.unsat > 0);
  CHECK_EQ_U64(t.models, t.sat);
  CHECK_EQ_U64(q->disagreements, 0);
  CHECK_EQ_U64(q->unknown, 0);
  if (relax) {
    const qs_stage_stats *r = qs_stats(s, "relaxed");
    CHECK(r && r->sat > 0 && r->unsat > 0);
  } else {
    CHECK(q->queries > 0 && q->queries <= t.queries); /* the caches answer a few first */
    /* The procedure's purpose: nearly every query is answered before any fallback. */
    CHECK(before_fallback(q) * 100 >= 95 * q->queries);
  }
  qs_free(plain);
  qs_free(s);
  group_end();
}

/* ---- fallbacks ------------------------------------------------------------------------------- */

/* (∀i∈[1,K]. s[i] = 'x' ∨ b = 1) ∧ b = 0 ∧ K ≤ 10 ∧ K ≥ 3 ∧ s[2] = 'y' in f[0..4]: unsat, the
 * forall not a clause; its first four formulas are sat. The arrays s, K, b in arrays[0..2]. */
static void unstrippable_query(expr *f[5], expr_array *arrays[3]) {
  expr_array *S = arr("s", 16, true), *KA = arr("K", 8, false), *B = arr("b", 1, true);
  expr *k = word(KA), *b = K(expr_read(B, NULL, k64(0)));
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *all = K(expr_forall(i, k64(1), k, K(expr_eq(byte_at(S, i), k8('x')))));
  f[0] = K(expr_or(all, K(expr_eq(b, k8(1)))));
  f[1] = K(expr_eq(b, k8(0)));
  f[2] = K(expr_ule(k, k64(10)));
  f[3] = K(expr_ule(k64(3), k));
  f[4] = K(expr_eq(byte_at(S, k64(2)), k8('y')));
  arrays[0] = S;
  arrays[1] = KA;
  arrays[2] = B;
}

static void test_fallbacks(void) {
  group_begin();
  expr *f[5];
  expr_array *arrays[3];
  unstrippable_query(f, arrays);
  qs_options o = procedure_options();
  qsolver *s = qs_new(&o);
  CHECK_EQ_U64(qs_check_sat(s, f, 5), QS_UNSAT);
  CHECK_EQ_U64(qs_quant_stats_of(s)->answered[QS_QSTEP_FALLBACK_EXPAND], 1);
  /* Without s[2] = 'y' it is sat, and the model holds. */
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, 4, arrays, 3, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, 4, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(qs_quant_stats_of(s)->answered[QS_QSTEP_FALLBACK_EXPAND], 2);
  qs_free(s);
  o.fallback = QS_FALLBACK_Z3;
  s = qs_new(&o);
  CHECK_EQ_U64(qs_check_sat(s, f, 5), QS_UNSAT);
  CHECK_EQ_U64(qs_quant_stats_of(s)->answered[QS_QSTEP_FALLBACK_Z3], 1);
  CHECK_EQ_U64(qs_quant_stats_of(s)->answered[QS_QSTEP_FALLBACK_EXPAND], 0);
  qs_free(s);
  /* No bound on K at all: no bounded expansion, and expand alone says unknown. */
  o.fallback = QS_FALLBACK_EXPAND;
  s = qs_new(&o);
  expr *g[2] = {f[0], f[1]};
  CHECK_EQ_U64(qs_check_sat(s, g, 2), QS_UNKNOWN);
  CHECK(strstr(qs_last_reason(s), "no bounded expansion") != NULL);
  CHECK_EQ_U64(qs_quant_stats_of(s)->unknown, 1);
  qs_free(s);
  group_end();
}

/* ---- the run's deadline and interrupt --------------------------------------------------------
 * No Z3 check starts past the deadline qs_set_time_left sets, nor in a query during which the
 * interrupt flag turned on: a quantified query's many checks cannot outlast --max-time or
 * SIGTERM (json-c pointer_get under pat ran minutes past both). A flag already set when the
 * query starts (the halt's own queries) does not stop it. */
static void test_deadline(void) {
  group_begin();
  expr *f[5];
  expr_array *arrays[3];
  unstrippable_query(f, arrays);
  qsolver *s = qs_new(NULL); /* the whole chain, as symq run builds it */
  qs_set_time_left(s, 0);    /* the deadline is now: no check may run */
  CHECK_EQ_U64(qs_check_sat(s, f, 5), QS_UNKNOWN);
  CHECK(strstr(qs_last_reason(s), "timeout") != NULL);
  qs_free(s);
  volatile sig_atomic_t flag = 1;
  s = qs_new(NULL);
  qs_set_interrupt(s, &flag); /* set before the query began: it runs as usual */
  CHECK_EQ_U64(qs_check_sat(s, f, 5), QS_UNSAT);
  qs_set_time_left(s, 60000); /* a minute left: still answered */
  CHECK_EQ_U64(qs_check_sat(s, f, 4), QS_SAT);
  qs_free(s);
  group_end();
}

/* ---- the slice step (quant_slice.c) ------------------------------------------------------------
 */

/* memspn's loop over s merged: ∀i∈[1,hi]. s[i−1] = 'a'. */
static expr *a_prefix(expr_array *S, expr *hi) {
  expr *i = K(expr_bvar_fresh(64, "i"));
  return K(expr_forall(i, k64(1), hi,
                       K(expr_eq(byte_at(S, K(expr_add(i, k64((uint64_t)-1)))), k8('a')))));
}

/* The options the slice tests run with: the procedure, the slice step on, validation on. */
static qs_options slice_options(void) {
  qs_options o = procedure_options();
  o.forall_slice = true;
  o.validate_quantified = true;
  return o;
}

/* The forall and the question share the array through a symbolic index: ∀i∈[1,K]. s[i−1] =
 * 'a' with 5 ≤ K ≤ 10, and j ≤ 3. s[j] = 'b' reads a cell inside the range at an index no
 * group links to K, and K > j against s[j] = 'z' in the path condition reads no byte of s at
 * all: a slice that dropped the forall would answer sat to both. A first sat question leaves
 * a last model behind, so every step of the slice gets its chance. */
static void test_slice_symbolic_index(void) {
  group_begin();
  expr_array *S = arr("s", 24, true), *KA = arr("K", 8, false), *J = arr("j", 8, true);
  expr *k = word(KA), *j = word(J);
  expr *all = a_prefix(S, k);
  qs_options o = slice_options();
  qsolver *s = qs_new(&o);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  expr *pc[4] = {all, K(expr_ule(k, k64(10))), K(expr_ule(k64(5), k)), K(expr_ule(j, k64(3)))};
  bool b;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 4, K(expr_eq(byte_at(S, k64(20)), k8('x'))), &b), QS_SAT);
  CHECK(b);
  uint64_t sliced = st->answered[QS_QSTEP_SLICE];
  CHECK_EQ_U64(qs_may_be_true(s, pc, 4, K(expr_eq(byte_at(S, j), k8('b'))), &b), QS_UNSAT);
  CHECK(!b);
  CHECK_EQ_U64(qs_must_be_true(s, pc, 4, K(expr_eq(byte_at(S, j), k8('a'))), &b), QS_UNSAT);
  CHECK(b);
  /* The path condition reads s only at j; the question reads K and j alone. */
  expr *pc2[4] = {all, K(expr_ule(k, k64(10))), K(expr_ule(j, k64(12))),
                  K(expr_eq(byte_at(S, j), k8('z')))};
  CHECK_EQ_U64(qs_may_be_true(s, pc2, 4, K(expr_ult(j, k)), &b), QS_UNSAT);
  CHECK_EQ_U64(qs_may_be_true(s, pc2, 4, K(expr_ule(k, j)), &b), QS_SAT);
  CHECK(b);
  /* Outside the range, the slice answers without strip. */
  uint64_t strips = st->answered[QS_QSTEP_STRIP];
  CHECK_EQ_U64(qs_may_be_true(s, pc, 4, K(expr_eq(byte_at(S, k64(21)), k8('y'))), &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], strips);
  CHECK(st->answered[QS_QSTEP_SLICE] > sliced);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  group_end();
}

/* The last model must never answer for another path condition: kept from a state with
 * K ≥ 6, it satisfies every formula of a sibling's but s[3] = 'b' — which, with K ≥ 6,
 * contradicts the forall (check_sat assumes nothing, so the set may be unsat). And a question
 * the last model satisfies on a path condition it breaks is not answered by it. */
static void test_slice_model_reuse(void) {
  group_begin();
  expr_array *S = arr("s", 24, true), *KA = arr("K", 8, false);
  expr *k = word(KA);
  expr *all = a_prefix(S, k);
  qs_options o = slice_options();
  qsolver *s = qs_new(&o);
  expr *pc[3] = {all, K(expr_ule(k, k64(10))), K(expr_ule(k64(6), k))};
  expr_array *arrays[2] = {S, KA};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, pc, 3, arrays, 2, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(pc, 3, m));
  expr_assignment_free(m);
  expr *sibling[4] = {pc[0], pc[1], pc[2], K(expr_eq(byte_at(S, k64(3)), k8('b')))};
  CHECK_EQ_U64(qs_check_sat(s, sibling, 4), QS_UNSAT);
  /* K ≤ 3 leaves s[3] free: sat, and the model holds (the last model had K ≥ 6). */
  expr *low[4] = {pc[0], pc[1], K(expr_ule(k, k64(3))), sibling[3]};
  m = NULL;
  CHECK_EQ_U64(qs_get_model(s, low, 4, arrays, 2, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(low, 4, m));
  expr_assignment_free(m);
  /* Back on K ≥ 6: s[2] = 'a' is what the last model (K ≤ 3 now) may not say; must be true. */
  bool b;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 3, K(expr_eq(byte_at(S, k64(2)), k8('a'))), &b), QS_UNSAT);
  CHECK(b);
  CHECK_EQ_U64(qs_quant_stats_of(s)->disagreements, 0);
  qs_free(s);
  group_end();
}

/* A forall over constant bounds (the relaxed stage's fixed requests) is its own expansion:
 * the slice step answers it, unsat and sat, and strip never runs. */
static void test_slice_constant_range(void) {
  group_begin();
  expr_array *S = arr("s", 16, true);
  expr *all = a_prefix(S, k64(5));
  qs_options o = slice_options();
  qsolver *s = qs_new(&o);
  const qs_quant_stats *st = qs_quant_stats_of(s);
  expr *inside[2] = {all, K(expr_eq(byte_at(S, k64(4)), k8('b')))};
  CHECK_EQ_U64(qs_check_sat(s, inside, 2), QS_UNSAT);
  expr *outside[2] = {all, K(expr_eq(byte_at(S, k64(5)), k8('b')))};
  expr_array *arrays[1] = {S};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, outside, 2, arrays, 1, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(outside, 2, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(st->answered[QS_QSTEP_SLICE], 2);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 0);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  group_end();
}

/* Many questions on one merged state whose path condition grows as branches are taken (the
 * engine's use: the last model is the state's, or a sibling's), each answered with the slice
 * step on and cross-checked with Z3 alone on this file's expansion; every model checked
 * against the whole query. Questions: bytes past the range (constant and K + c indices),
 * bytes inside it, a byte at a symbolic index j, n and K. */
static void test_slice_family(void) {
  group_begin();
  qs_options o = slice_options();
  qsolver *s = qs_new(&o);
  qs_options p = procedure_options();
  p.quantified = false;
  qsolver *plain = qs_new(&p);
  rng = 4711;
  family_totals t = {0};
  for (int state = 0; state < 6; state++) {
    unsigned max = 8 + rnd(40);
    expr_array *S = arr("s", max + 8, true), *N = arr("n", 8, true), *KA = arr("K", 8, false),
               *J = arr("j", 8, true);
    expr *n = word(N), *k = word(KA), *j = word(J);
    expr *all = a_prefix(S, k);
    expr *pc[40];
    size_t np = 0;
    pc[np++] = all;
    pc[np++] = K(expr_ule(n, k64(max)));
    pc[np++] = K(expr_ule(j, k64(max + 7)));
    if (rnd(2)) {
      pc[np++] = K(expr_ult(k, n));
      pc[np++] = K(expr_ne(byte_at(S, k), k8('a')));
    } else {
      pc[np++] = K(expr_eq(k, n));
    }
    expr_array *arrays[4] = {S, N, KA, J};
    for (int q = 0; q < 12; q++) {
      unsigned c = rnd(max + 8);
      uint8_t v = (uint8_t)("abxyz"[rnd(5)]);
      expr *question;
      switch (rnd(6)) {
      case 0: question = K(expr_eq(byte_at(S, k64(c)), k8(v))); break;
      case 1: question = K(expr_eq(byte_at(S, K(expr_add(k, k64(1 + rnd(3))))), k8(v))); break;
      case 2: question = K(expr_eq(byte_at(S, j), k8(v))); break;
      case 3: question = K(expr_ult(j, k)); break;
      case 4: question = K(expr_eq(n, k64(c))); break;
      default: question = K(expr_ule(k64(c), k)); break;
      }
      if (rnd(2)) question = K(expr_not(question));
      expr *f[41], *g[41];
      memcpy(f, pc, np * sizeof *pc);
      f[np] = question;
      expr_assignment *m = NULL;
      qs_status got = qs_get_model(s, f, np + 1, arrays, 4, &m);
      memcpy(g, f, (np + 1) * sizeof *f);
      g[0] = expand_by_hand(all, max);
      qs_status want = qs_check_sat(plain, g, np + 1);
      CHECK(want != QS_UNKNOWN);
      CHECK_EQ_U64(got, want);
      t.queries++;
      if (got == QS_SAT) {
        t.sat++;
        CHECK(m && expr_eval_all_true(f, np + 1, m));
        t.models += m != NULL;
      } else if (got == QS_UNSAT) {
        t.unsat++;
      }
      expr_assignment_free(m);
      /* The branch taken: the question joins the path condition when it was feasible. */
      if (got == QS_SAT && rnd(2) && np < 39) pc[np++] = question;
    }
  }
  const qs_quant_stats *q = qs_quant_stats_of(s);
  printf(
      "slice family: %u queries (%u sat, %u unsat); answered by slice %llu, strip %llu, "
      "duplicate %llu, repair %llu\n",
      t.queries, t.sat, t.unsat, (unsigned long long)q->answered[QS_QSTEP_SLICE],
      (unsigned long long)q->answered[QS_QSTEP_STRIP],
      (unsigned long long)q->answered[QS_QSTEP_DUPLICATE],
      (unsigned long long)q->answered[QS_QSTEP_REPAIR]);
  CHECK(t.sat > 0 && t.unsat > 0);
  CHECK_EQ_U64(t.models, t.sat);
  CHECK(q->answered[QS_QSTEP_SLICE] > 0); /* the step under test did answer */
  CHECK_EQ_U64(q->disagreements, 0);
  CHECK_EQ_U64(q->unknown, 0);
  qs_free(s);
  qs_free(plain);
  group_end();
}

static void test_has_forall(void) {
  group_begin();
  expr_array *S = arr("s", 4, true);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *all = K(expr_forall(i, k64(0), k64(3), K(expr_ne(byte_at(S, i), k8(0)))));
  expr *x = K(expr_eq(byte_at(S, k64(0)), k8(1)));
  CHECK(all->has_forall && !all->has_bvar);
  CHECK(K(expr_and(x, all))->has_forall);
  CHECK(K(expr_not(all))->has_forall);
  CHECK(!x->has_forall);
  CHECK(!all->kid[3]->has_forall);
  group_end();
}

int main(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  test_has_forall();
  test_paper_examples();
  test_example_in_chain();
  test_repair_in_chain();
  test_negated_clause();
  test_offset_trigger();
  test_trigger_past_range();
  test_strip_order();
  test_trigger_write_index();
  test_fallbacks();
  test_deadline();
  test_memspn_family(false);
  test_memspn_family(true);
  test_slice_symbolic_index();
  test_slice_model_reuse();
  test_slice_constant_range();
  test_slice_family();
  free(pool);
  free(apool);
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
  return check_exit();
}
