/*
 * test_quant_rescan.c — strip's fold of a rescan (qsolver/quant.c, fold_rescans): two clauses
 * ∀i∈[lo,a]. φ(i) and ∀i∈[lo,b]. φ(i) with the same body, lo ≤ 1, and both terminators
 * ¬φ(a + 1), ¬φ(b + 1) among the conjuncts are one clause and the conjunct a = b.
 *
 *   - The shape of libpng text under pat: a merged keyword scan and a merged strlen over the
 *     same bytes (∀i∈[1,K]. s[i − 1] ≠ 0, s[K] = 0, twice). Strip hands Z3 one clause's
 *     instances and a = b instead of both clauses' (counted: strip_instances, strip_folded),
 *     and proves K1 ≠ K2 unsat by itself.
 *   - No fold where the argument fails: a terminator missing (then K1 ≠ K2 is sat, and the
 *     model holds), lo = 2 (an empty range's terminator lies below it: sat too), different
 *     bodies.
 *   - A family of questions over the two scans (and a third over another array), every answer
 *     cross-checked with Z3 on the expansion, every model against the whole query, with
 *     --validate-qsolver on (0 disagreements).
 *   - A scan of a copy (stage_quant.c, scan_equal): the strlen of the bytes copied from a
 *     scanned string equals the scan's count; proved once per path prefix (a second question
 *     on the path does not prove it again), K1 ≠ K2 unsat with the lemma counted; with only
 *     three bytes copied nothing is proved and K1 ≠ K2 is sat, its model checked.
 * Counts, not seconds. On the base (b9d830f) the file does not build (qs_quant_folded,
 * qs_quant_scan_pairs and the two counters are new); with the fold left out, the first
 * group's counts fail (strip instantiated both clauses), and with no scan pairs tried the
 * last group's scan_lemmas checks fail.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "expr_pool.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qsolver/quant.h"
#include "qs_check.h"

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }

/* The end of a group: its references dropped, nothing else left alive. */
static void release_since(size_t nodes, size_t arrays) {
  pool_release();
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
}

/* The chain without the relaxed stage and the slice step (they answer some requests before
 * the procedure, which the counts below are about), with --validate-qsolver on. */
static qsolver *validated_solver(void) {
  qs_options o = qs_default_options();
  o.relax = false;
  o.forall_slice = false;
  o.validate_quantified = true;
  return qs_new(&o);
}

/* ∀i∈[lo,k]. s[i − 1] ≠ 0: a scan for the terminator, merged (strlen's loop, libpng's keyword
 * loop). */
static expr *scan(expr_array *s, uint64_t lo, expr *k) {
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *before_i = K(expr_add(k64((uint64_t)-1), i));
  return K(expr_forall(i, k64(lo), k, K(expr_ne(byte_at(s, before_i), k8(0)))));
}

static expr *terminator(expr_array *s, expr *k) { return K(expr_eq(byte_at(s, k), k8(0))); }

static uint64_t get_k(const expr_assignment *m, expr_array *a) {
  const expr_binding *b = expr_assignment_find(m, a);
  uint64_t v = 0;
  for (int i = 7; b && i >= 0; i--) v = v << 8 | ((size_t)i < b->len ? b->bytes[i] : 0);
  return v;
}

static void test_fold(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  expr_array *S = pool_array("s", 8, true), *K1A = pool_array("K1", 8, false),
             *K2A = pool_array("K2", 8, false);
  expr *k1 = word(K1A), *k2 = word(K2A);
  expr *f[7] = {scan(S, 1, k1),    terminator(S, k1),       K(expr_ule(k1, k64(6))), scan(S, 1, k2),
                terminator(S, k2), K(expr_ule(k2, k64(6))), K(expr_ne(k1, k2))};
  qs_quant *q = qs_quant_new(f, 7);
  CHECK_EQ_U64(qs_quant_folded(q), 1);
  expr **w = NULL;
  size_t nw = qs_quant_strip(q, &w);
  /* the five conjuncts and K1 = K2; K1's instances at lo, hi and the trigger K2 + 1 (s[K2]
   * read by K2's terminator; K1's own terminator at K1 + 1 is past its range) */
  CHECK_EQ_U64(nw, 6 + 3);
  bool has_eq = false;
  for (size_t i = 0; i < nw; i++) has_eq |= w[i] == K(expr_eq(k1, k2));
  CHECK(has_eq);
  qs_formulas_free(w, nw);
  qs_quant_free(q);

  qsolver *s = validated_solver();
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK_EQ_U64(qs_check_sat(s, f, 7), QS_UNSAT);
  CHECK_EQ_U64(st->answered[QS_QSTEP_STRIP], 1);
  CHECK_EQ_U64(st->strip_conjuncts, 6);
  CHECK_EQ_U64(st->strip_instances, 3);
  CHECK_EQ_U64(st->strip_folded, 1);
  /* K1 = K2 = 3 with s = "abc": sat, the model holds */
  expr *g[8] = {f[0],
                f[1],
                f[2],
                f[3],
                f[4],
                f[5],
                K(expr_eq(k2, k64(3))),
                K(expr_eq(byte_at(S, k64(1)), k8('b')))};
  expr_array *all[3] = {S, K1A, K2A};
  check_model(s, g, 8, all, 3);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  qs_free(s);
  release_since(nodes, arrays);
}

/* f[0..6) with K1 ≠ K2 last: sat, and the procedure's model satisfies it. */
static void check_not_folded(expr *const *f, size_t n, expr_array *const *arrays, size_t na) {
  qs_quant *q = qs_quant_new(f, n);
  CHECK_EQ_U64(qs_quant_folded(q), 0);
  qs_quant_free(q);
  qsolver *s = validated_solver();
  check_model(s, f, n, arrays, na);
  CHECK_EQ_U64(qs_quant_stats_of(s)->strip_folded, 0);
  CHECK_EQ_U64(qs_quant_stats_of(s)->disagreements, 0);
  qs_free(s);
}

static void test_no_fold(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  expr_array *S = pool_array("s", 8, true), *T = pool_array("t", 8, true),
             *K1A = pool_array("K1", 8, false), *K2A = pool_array("K2", 8, false);
  expr *k1 = word(K1A), *k2 = word(K2A);
  expr_array *all[4] = {S, T, K1A, K2A};
  /* K2's terminator missing: K2 < K1 is possible */
  expr *f[6] = {scan(S, 1, k1), terminator(S, k1),       K(expr_ule(k1, k64(6))),
                scan(S, 1, k2), K(expr_ule(k2, k64(6))), K(expr_ne(k1, k2))};
  check_not_folded(f, 6, all, 4);
  /* lo = 2: [2, 0] is empty and its terminator s[0] = 0 says nothing of the other range;
   * K1 = 0, K2 = 5 over s = "\0abcd\0" satisfies both scans */
  expr *g[7] = {scan(S, 2, k1),    terminator(S, k1),       K(expr_ule(k1, k64(6))), scan(S, 2, k2),
                terminator(S, k2), K(expr_ule(k2, k64(6))), K(expr_ne(k1, k2))};
  check_not_folded(g, 7, all, 4);
  /* two scans of different bytes */
  expr *h[7] = {scan(S, 1, k1),    terminator(S, k1),       K(expr_ule(k1, k64(6))), scan(T, 1, k2),
                terminator(T, k2), K(expr_ule(k2, k64(6))), K(expr_ne(k1, k2))};
  check_not_folded(h, 7, all, 4);
  release_since(nodes, arrays);
}

/* Questions over two scans of s (folded) and one of t (not), each answer compared with Z3's
 * on the expansion (every range ≤ 6 by the path), each model checked against the query. */
static void test_family(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  expr_array *S = pool_array("s", 8, true), *T = pool_array("t", 8, true),
             *K1A = pool_array("K1", 8, false), *K2A = pool_array("K2", 8, false),
             *K3A = pool_array("K3", 8, false);
  expr *k1 = word(K1A), *k2 = word(K2A), *k3 = word(K3A);
  expr *path[9] = {scan(S, 1, k1), terminator(S, k1), K(expr_ule(k1, k64(6))),
                   scan(S, 1, k2), terminator(S, k2), K(expr_ule(k2, k64(6))),
                   scan(T, 1, k3), terminator(T, k3), K(expr_ule(k3, k64(6)))};
  expr *questions[] = {
      K(expr_ult(k1, k2)),
      K(expr_eq(k1, k2)),
      K(expr_eq(k2, k64(4))),
      K(expr_eq(byte_at(S, K(expr_add(k2, k64(1)))), k8(0))),
      K(expr_eq(byte_at(S, k64(2)), k8(0))),
      K(expr_ne(byte_at(S, k64(0)), k8(0))),
      K(expr_and(K(expr_ult(k64(3), k2)), K(expr_eq(byte_at(S, k64(2)), k8(0))))),
      K(expr_eq(k1, k3)),
      K(expr_and(K(expr_eq(k3, k64(2))), K(expr_ult(k3, k1)))),
      K(expr_eq(byte_at(T, k1), byte_at(S, k2))),
  };
  size_t nq = sizeof questions / sizeof *questions;
  expr_array *all[5] = {S, T, K1A, K2A, K3A};
  qsolver *s = validated_solver();
  qs_options plain_opt = qs_default_options();
  plain_opt.quantified = false;
  qsolver *plain = qs_new(&plain_opt);
  for (size_t i = 0; i < nq; i++) {
    expr *f[10];
    memcpy(f, path, sizeof path);
    f[9] = questions[i];
    qs_quant *q = qs_quant_new(f, 10);
    uint64_t low[3] = {1, 1, 1}, high[3] = {6, 6, 6};
    CHECK_EQ_U64(qs_quant_forall_count(q), 3);
    expr **ex = NULL;
    size_t nex = qs_quant_expand(q, low, high, &ex);
    qs_status want = qs_check_sat(plain, ex, nex);
    qs_formulas_free(ex, nex);
    qs_quant_free(q);
    expr_assignment *m = NULL;
    qs_status got = qs_get_model(s, f, 10, all, 5, &m);
    if (got != want) fprintf(stderr, "    question %zu: %d, the expansion %d\n", i, got, want);
    CHECK_EQ_U64(got, want);
    if (got == QS_SAT) CHECK(m && expr_eval_all_true(f, 10, m));
    expr_assignment_free(m);
  }
  const qs_quant_stats *st = qs_quant_stats_of(s);
  CHECK(st->strip_folded >= 1);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  CHECK_EQ_U64(st->models_unconfirmed, 0);
  qs_free(plain);
  qs_free(s);
  release_since(nodes, arrays);
}

/* ---- scan equalities (stage_quant.c, scan_equal) ------------------------------------------- */

/* ∀i∈[1,k]. t[i − 1] ≠ 0 over t read through update list u. */
static expr *scan_through(expr_array *t, expr_update *u, expr *k) {
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *before_i = K(expr_add(k64((uint64_t)-1), i));
  return K(expr_forall(i, k64(1), k, K(expr_ne(K(expr_read(t, u, before_i)), k8(0)))));
}

/* t's bytes 0..copied−1 written with s's (a merged memcpy's shape, libpng text's
 * png_set_text_2 copying the keyword): the update list, a new reference. */
static expr_update *copy_of(expr_array *t, expr_array *s, unsigned copied) {
  expr_update *u = NULL;
  for (unsigned j = 0; j < copied; j++) {
    expr_update *next = expr_update_push(t, u, k64(j), byte_at(s, k64(j)));
    if (u) expr_update_unref(u);
    u = next;
  }
  return u;
}

/* Scans of s and of its copy t (t's bytes 0..copied−1 are s's), both terminated and bounded by
 * 6, then `question`: f[0..7). */
static void copy_scans(expr_array *S, expr_array *T, expr *k1, expr *k2, expr_update *u,
                       expr *f[6]) {
  f[0] = scan(S, 1, k1);
  f[1] = terminator(S, k1);
  f[2] = K(expr_ule(k1, k64(6)));
  f[3] = scan_through(T, u, k2);
  f[4] = K(expr_eq(K(expr_read(T, u, k2)), k8(0)));
  f[5] = K(expr_ule(k2, k64(6)));
}

/* The strlen of a copy equals the strlen of the original: proved once for the path, as a
 * request of its own, and put in front of the question as K1 = K2. With only the first three
 * bytes copied nothing is proved, and K1 ≠ K2 is sat. Every answer is checked against Z3 on
 * the expansion (--validate-qsolver: 0 disagreements). */
static void test_scan_lemma(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  expr_array *S = pool_array("s", 8, true), *T = pool_array("t", 8, false),
             *K1A = pool_array("K1", 8, false), *K2A = pool_array("K2", 8, false);
  expr *k1 = word(K1A), *k2 = word(K2A);
  expr_array *all[4] = {S, T, K1A, K2A};
  expr_update *full = copy_of(T, S, 7);
  expr *f[8];
  copy_scans(S, T, k1, k2, full, f);
  qs_quant *q = qs_quant_new(f, 6);
  qs_scan_pair pairs[4];
  CHECK_EQ_U64(qs_quant_folded(q), 0); /* different bodies */
  CHECK_EQ_U64(qs_quant_scan_pairs(q, pairs, 4), 1);
  CHECK_EQ_U64(pairs[0].pos, 5); /* the terminators, then the bound K2 ≤ 6 */
  qs_quant_free(q);
  qsolver *s = validated_solver();
  const qs_quant_stats *st = qs_quant_stats_of(s);
  f[6] = K(expr_ne(k1, k2));
  CHECK_EQ_U64(qs_check_sat(s, f, 7), QS_UNSAT);
  CHECK_EQ_U64(st->scan_lemmas, 1);
  /* the next question on the same path finds the lemma proved: no second proof */
  uint64_t runs = st->queries;
  f[6] = K(
      expr_eq(K(expr_read(T, full, K(expr_add(k2, k64(1))))), byte_at(S, K(expr_add(k1, k64(1))))));
  f[7] = K(expr_ult(k1, k64(6)));
  CHECK_EQ_U64(qs_check_sat(s, f, 8), QS_SAT);
  CHECK_EQ_U64(st->scan_lemmas, 1);
  CHECK(st->queries - runs <= 2); /* the question itself (and no proof of K1 = K2 again) */
  expr_assignment *m = NULL;
  f[6] = K(expr_eq(k2, k64(2)));
  CHECK_EQ_U64(qs_get_model(s, f, 7, all, 4, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, 7, m));
  CHECK(m && get_k(m, K1A) == 2);
  expr_assignment_free(m);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  qs_free(s);

  /* three bytes copied: t[3..] unconstrained, K2 may stop before or after K1 */
  expr_update *part = copy_of(T, S, 3);
  expr *g[7];
  copy_scans(S, T, k1, k2, part, g);
  g[6] = K(expr_ne(k1, k2));
  s = validated_solver();
  st = qs_quant_stats_of(s);
  check_model(s, g, 7, all, 4);
  CHECK_EQ_U64(st->scan_lemmas, 0);
  CHECK_EQ_U64(st->unknown, 0);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  expr_update_unref(part);
  expr_update_unref(full);
  release_since(nodes, arrays);
}

int main(void) {
  test_fold();
  test_no_fold();
  test_family();
  test_scan_lemma();
  free(pool);
  free(apool);
  return check_exit();
}
