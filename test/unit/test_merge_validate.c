/*
 * test_merge_validate.c — --validate-merges' checks of one merge (merge/validate.h) on two
 * hand-built constituents of a byte x after a common prefix x ≠ 200: s0 took x < 10 and has
 * v = 1, s1 took x > 20 and has v = x. The merged state's path condition is the prefix and
 * x < 10 ∨ x > 20.
 *   - the merged value ite(x < 10, 1, x) passes (no failure counted, nothing reported);
 *   - the guard's sides swapped, ite(x < 10, x, 1), fails on the value (the path condition
 *     checks hold) and the report names the value check;
 *   - a value set in the merged state and unset in a constituent fails outright;
 *   - a merged path condition that leaves out s1's paths (x < 10 only) fails on the path
 *     condition; one that admits paths of neither (x < 10 ∨ x > 5) fails on it too.
 *
 * And --validate-merges on a large CFG-shaped merge (tree_merge_checks):
 * 256 constituents, one per leaf of a full binary tree over 8 input bytes (constituent j took
 * x[b] <u 128 where bit b of j is 0, its negation where it is 1, after a common prefix
 * x[0] ≠ 200, and then x[0] ≠ j), merged along the tree as merge_cfg does: the merged pc is the
 * prefix and the tree's disjunction (per node: (l ∧ left) ∨ (¬l ∧ right)), the merged value the
 * tree's ite with x[0] + j at leaf j.
 *   - the right merge validates, and without asking Z3 anything: the checks follow from the
 *     constituents' own branch literals (case split over the merged disjunction, ites resolved
 *     by the path) — the shape that keeps merges of thousands of states decidable;
 *   - a leaf's value swapped with its neighbour's is still refuted (value check);
 *   - the merged pc with one leaf left out (false) is still refuted (check 1: that
 *     constituent's path does not imply it);
 *   - a group missing one constituent under the full tree's pc is still refuted (check 2: the
 *     merged pc admits a path of no constituent).
 * And a pattern-shaped merge (witness K = c_j, which the checks substitute into the merged
 * formulas): constituents j = 0..2 with value x[0] + j + 1 merged as x[0] + K under
 * 1 ≤ K ≤ 3 validate; the value x[0] + K + 1 is refuted, and so is the pc 1 ≤ K ≤ 4 (K = 4
 * is no constituent's). With no time left (qs_set_time_left 0: no Z3 check is made, however
 * fast the machine) that pc is not checked, which counts as unchecked, not failed — also with
 * a forall over K in the path conditions, where the quantified procedure wraps Z3's reason
 * (the limit is recognised at the reason's end: 86a64a4).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/core/expr.h"
#include "engine/core/state.h"
#include "merge/validate.h"
#include "qsolver/qsolver.h"

/* merge_validate with its stderr report captured into report (empty when none). */
static bool validate_captured(merge_ctx *mc, const state *m, state *const *group,
                              expr *const *tails, expr *const *witness, size_t n,
                              const merge_values *values, char *report, size_t size) {
  fflush(stderr);
  int saved = dup(fileno(stderr));
  FILE *tmp = tmpfile();
  CHECK(saved >= 0 && tmp);
  dup2(fileno(tmp), fileno(stderr));
  bool ok = merge_validate(mc, m, group, tails, witness, n, values);
  fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  rewind(tmp);
  size_t got = fread(report, 1, size - 1, tmp);
  report[got] = '\0';
  fclose(tmp);
  merge_tmp_release(mc);
  return ok;
}

/* A state with the prefix and then c as its path condition. */
static state *with_pc(uint64_t id, expr *prefix, expr *c) {
  state *s = state_new(id);
  state_add_constraint(s, prefix);
  state_add_constraint(s, c);
  return s;
}

enum { BITS = 8, N = 1 << BITS };

static expr *lit[BITS], *leaf[N], *value[N];

/* The tree's disjunction (leaf `skip` false) or value below the node of depth b whose leaves
 * are first .. first + 2^(BITS-b) - 1. Bit b of the leaf index is the branch taken at depth
 * b: 0 on lit[b], 1 on its negation. */
static expr *tree_pc(unsigned b, unsigned first, int skip) {
  if (b == BITS) return (int)first == skip ? expr_false() : expr_ref(leaf[first]);
  expr *l = tree_pc(b + 1, first, skip), *r = tree_pc(b + 1, first | 1u << b, skip);
  expr *nl = expr_not(lit[b]);
  expr *al = expr_and(lit[b], l), *ar = expr_and(nl, r), *d = expr_or(al, ar);
  expr *tmp[] = {l, r, nl, al, ar};
  for (size_t k = 0; k < 5; k++) expr_unref(tmp[k]);
  return d;
}

static expr *tree_value(unsigned b, unsigned first, int swap) {
  if (b == BITS) {
    unsigned j = first;
    if (swap >= 0 && first == (unsigned)swap) j = first + 1;
    if (swap >= 0 && first == (unsigned)swap + 1) j = first - 1;
    return expr_ref(value[j]);
  }
  expr *l = tree_value(b + 1, first, swap), *r = tree_value(b + 1, first | 1u << b, swap);
  expr *v = expr_ite(lit[b], l, r);
  expr_unref(l);
  expr_unref(r);
  return v;
}

static state *merged_state(uint64_t id, expr *prefix, int skip) {
  state *m = state_new(id);
  state_add_constraint(m, prefix);
  expr *d = tree_pc(0, 0, skip);
  state_add_constraint(m, d);
  expr_unref(d);
  return m;
}

static uint64_t z3_queries(const qsolver *s) {
  const qs_stage_stats *z3 = qs_stats(s, "z3");
  CHECK(z3 != NULL);
  return z3 ? z3->queries : 0;
}

static void tree_merge_checks(void) {
  uint64_t live = expr_live_count(), live_arrays = expr_live_arrays();
  qsolver *solver = qs_new(NULL);
  merge_stats stats = {0};
  merge_ctx mc = {.solver = solver, .stats = &stats};
  expr *size = expr_const(64, BITS);
  expr_array *X = expr_array_new("x", size, BITS, true, NULL);
  expr *x[BITS], *half = expr_const(8, 128);
  for (unsigned b = 0; b < BITS; b++) {
    expr *at = expr_const(64, b);
    x[b] = expr_read(X, NULL, at);
    expr_unref(at);
    lit[b] = expr_ult(x[b], half);
  }
  expr *c200 = expr_const(8, 200), *prefix = expr_ne(x[0], c200);
  state *group[N];
  expr *tails[N];
  for (unsigned j = 0; j < N; j++) {
    expr *c = expr_const(8, j);
    value[j] = expr_add(x[0], c);
    group[j] = state_new(j + 1);
    state_add_constraint(group[j], prefix);
    tails[j] = expr_true();
    leaf[j] = expr_ne(x[0], c); /* keeps the tree's disjunction from folding to true */
    for (unsigned b = 0; b < BITS; b++) {
      expr *l = j >> b & 1 ? expr_not(lit[b]) : expr_ref(lit[b]);
      state_add_constraint(group[j], l);
      expr *t = expr_and(tails[j], l);
      expr_unref(tails[j]);
      tails[j] = t;
      expr_unref(l);
    }
    state_add_constraint(group[j], leaf[j]);
    expr *t = expr_and(tails[j], leaf[j]);
    expr_unref(tails[j]);
    tails[j] = t;
    expr_unref(c);
  }
  char report[1024];

  /* the right merge: validated, Z3 never asked */
  state *m = merged_state(1000, prefix, -1);
  expr *good = tree_value(0, 0, -1);
  merge_values values = {.nparts = N};
  merge_values_add(&values, good, value);
  uint64_t before = z3_queries(solver);
  CHECK(validate_captured(&mc, m, group, tails, NULL, N, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 0);
  CHECK_EQ_U64(strlen(report), 0);
  CHECK_EQ_U64(z3_queries(solver), before);
  merge_values_free(&values);

  /* leaf 172's value and 173's swapped: refuted on the value */
  expr *swapped = tree_value(0, 0, 172);
  values = (merge_values){.nparts = N};
  merge_values_add(&values, swapped, value);
  CHECK(!validate_captured(&mc, m, group, tails, NULL, N, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 1);
  CHECK(strstr(report, "value: merged value 0 of 1 differs from constituent 172's") != NULL);
  CHECK(strstr(report, "not proved") == NULL);
  merge_values_free(&values);

  /* leaf 97 left out of the merged pc: constituent 97 is not covered */
  state *narrow = merged_state(1001, prefix, 97);
  values = (merge_values){.nparts = N};
  CHECK(!validate_captured(&mc, narrow, group, tails, NULL, N, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 2);
  CHECK(strstr(report,
               "path condition: constituent 97's path does not imply the merged "
               "constraint 1 of 2") != NULL);
  CHECK(strstr(report, "not proved") == NULL);

  /* constituent 50 missing from the group, the pc still the whole tree's: too wide */
  state *rest[N - 1];
  expr *rest_tails[N - 1];
  for (unsigned j = 0, k = 0; j < N; j++)
    if (j != 50) {
      rest[k] = group[j];
      rest_tails[k++] = tails[j];
    }
  CHECK(!validate_captured(&mc, m, rest, rest_tails, NULL, N - 1, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 3);
  CHECK(strstr(report,
               "path condition: the merged path condition admits a path of no "
               "constituent") != NULL);
  CHECK(strstr(report, "not proved") == NULL);

  /* the pattern-shaped merge */
  expr *kc = expr_const(64, 8);
  expr_array *KA = expr_array_new("K", kc, 8, false, NULL);
  expr *zero = expr_const(64, 0), *K = expr_read_le(KA, NULL, zero, 8);
  expr *one = expr_const(64, 1), *three = expr_const(64, 3), *four = expr_const(64, 4);
  expr *lo = expr_ule(one, K), *hi3 = expr_ule(K, three), *hi4 = expr_ule(K, four);
  expr *K8 = expr_extract(K, 0, 8), *byK = expr_add(x[0], K8);
  expr *one8 = expr_const(8, 1), *byK1 = expr_add(byK, one8);
  state *pat[3], *pm = state_new(2000), *pwide = state_new(2001);
  expr *ptails[3], *pw[3], *pparts[3];
  for (unsigned j = 0; j < 3; j++) {
    pat[j] = state_new(3000 + j);
    state_add_constraint(pat[j], prefix);
    ptails[j] = expr_true();
    expr *c = expr_const(64, j + 1);
    pw[j] = expr_eq(K, c);
    expr_unref(c);
    pparts[j] = value[j + 1];
  }
  state_add_constraint(pm, prefix);
  state_add_constraint(pm, lo);
  state_add_constraint(pm, hi3);
  state_add_constraint(pwide, prefix);
  state_add_constraint(pwide, lo);
  state_add_constraint(pwide, hi4);
  merge_values pv = {.nparts = 3};
  merge_values_add(&pv, byK, pparts);
  CHECK(validate_captured(&mc, pm, pat, ptails, pw, 3, &pv, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 3);
  /* the too-wide merge with no time left (a run at its --max-time): not checked, which is no
   * failure; with time, refuted */
  qs_set_time_left(solver, 0);
  CHECK(!validate_captured(&mc, pwide, pat, ptails, pw, 3, &pv, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 3);
  CHECK_EQ_U64(stats.validation_unchecked, 1);
  CHECK(strstr(report, "not checked: the run's time limit came first") != NULL);
  /* the same with a forall over K in every path condition: the check goes through the
   * quantified procedure, whose reason wraps Z3's ("quantified: no bounded expansion …: z3:
   * timeout (the run's time limit)", as on libpng text under pat-inc) — still not checked */
  expr *ycap = expr_const(64, 16);
  expr_array *YA = expr_array_new("y", ycap, 16, true, NULL);
  expr *i = expr_bvar_fresh(64, "i"), *yi = expr_read(YA, NULL, i), *nul = expr_const(8, 0);
  expr *nonzero = expr_ne(yi, nul), *all = expr_forall(i, one, K, nonzero);
  state *qwide = state_new(2002), *qpat[3];
  expr *qwide_pc[] = {prefix, all, lo, hi4};
  for (size_t k = 0; k < sizeof qwide_pc / sizeof *qwide_pc; k++)
    state_add_constraint(qwide, qwide_pc[k]);
  for (unsigned j = 0; j < 3; j++) {
    qpat[j] = state_new(3100 + j);
    state_add_constraint(qpat[j], prefix);
    state_add_constraint(qpat[j], all);
  }
  uint64_t quant_unknown = qs_quant_stats_of(solver)->unknown;
  CHECK(!validate_captured(&mc, qwide, qpat, ptails, pw, 3, &pv, report, sizeof report));
  CHECK(qs_quant_stats_of(solver)->unknown > quant_unknown);
  CHECK_EQ_U64(stats.validation_failures, 3);
  CHECK_EQ_U64(stats.validation_unchecked, 2);
  CHECK(strstr(report, "not checked: the run's time limit came first") != NULL);
  for (unsigned j = 0; j < 3; j++) state_free(qpat[j]);
  state_free(qwide);
  expr *qtmp[] = {ycap, i, yi, nul, nonzero, all};
  for (size_t k = 0; k < sizeof qtmp / sizeof *qtmp; k++) expr_unref(qtmp[k]);
  expr_array_unref(YA);
  qs_set_time_left(solver, UINT_MAX);
  CHECK(!validate_captured(&mc, pwide, pat, ptails, pw, 3, &pv, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 4);
  CHECK(strstr(report, "the merged path condition admits a path of no constituent") != NULL);
  merge_values_free(&pv);
  pv = (merge_values){.nparts = 3};
  merge_values_add(&pv, byK1, pparts);
  CHECK(!validate_captured(&mc, pm, pat, ptails, pw, 3, &pv, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 5);
  CHECK(strstr(report, "value: merged value 0 of 1 differs from constituent 0's") != NULL);
  CHECK(strstr(report, "not proved") == NULL);
  merge_values_free(&pv);
  for (unsigned j = 0; j < 3; j++) {
    state_free(pat[j]);
    expr_unref(ptails[j]);
    expr_unref(pw[j]);
  }
  state_free(pm);
  state_free(pwide);
  expr *ptmp[] = {kc, zero, K, one, three, four, lo, hi3, hi4, K8, byK, one8, byK1};
  for (size_t k = 0; k < sizeof ptmp / sizeof *ptmp; k++) expr_unref(ptmp[k]);
  expr_array_unref(KA);

  state_free(m);
  state_free(narrow);
  for (unsigned j = 0; j < N; j++) {
    state_free(group[j]);
    expr_unref(tails[j]);
    expr_unref(value[j]);
    expr_unref(leaf[j]);
  }
  free(mc.tmp);
  qs_free(solver);
  expr *rest_exprs[] = {good, swapped, prefix, c200, half, size};
  for (size_t k = 0; k < sizeof rest_exprs / sizeof *rest_exprs; k++) expr_unref(rest_exprs[k]);
  for (unsigned b = 0; b < BITS; b++) {
    expr_unref(x[b]);
    expr_unref(lit[b]);
  }
  expr_array_unref(X);
  CHECK_EQ_U64(expr_live_count(), live);
  CHECK_EQ_U64(expr_live_arrays(), live_arrays);
}

int main(void) {
  uint64_t live = expr_live_count(), live_arrays = expr_live_arrays();
  qsolver *solver = qs_new(NULL);
  merge_stats stats = {0};
  merge_ctx mc = {.solver = solver, .stats = &stats};
  expr *cap = expr_const(64, 1), *at0 = expr_const(64, 0);
  expr_array *X = expr_array_new("x", cap, 1, true, NULL);
  expr *x = expr_read(X, NULL, at0);
  expr *c200 = expr_const(8, 200), *c10 = expr_const(8, 10), *c20 = expr_const(8, 20);
  expr *c5 = expr_const(8, 5), *one = expr_const(8, 1);
  expr *prefix = expr_ne(x, c200), *lt10 = expr_ult(x, c10), *gt20 = expr_ugt(x, c20);
  expr *gt5 = expr_ugt(x, c5);
  expr *either = expr_or(lt10, gt20), *too_wide = expr_or(lt10, gt5);
  state *group[2] = {with_pc(1, prefix, lt10), with_pc(2, prefix, gt20)};
  expr *tails[2] = {lt10, gt20};
  state *merged = with_pc(3, prefix, either);
  expr *good = expr_ite(lt10, one, x), *swapped = expr_ite(lt10, x, one);
  expr *parts[2] = {one, x};
  char report[512];

  merge_values values = {.nparts = 2};
  merge_values_add(&values, good, parts);
  CHECK(validate_captured(&mc, merged, group, tails, NULL, 2, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 0);
  CHECK_EQ_U64(strlen(report), 0);
  merge_values_free(&values);

  values = (merge_values){.nparts = 2};
  merge_values_add(&values, swapped, parts);
  CHECK(!validate_captured(&mc, merged, group, tails, NULL, 2, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 1);
  CHECK(strstr(report, "merge validation failed for state 3") != NULL);
  CHECK(strstr(report, "value: merged value 0 of 1") != NULL);
  CHECK(strstr(report, "not proved") == NULL);
  merge_values_free(&values);

  values = (merge_values){.nparts = 2, .unset = 1};
  CHECK(!validate_captured(&mc, merged, group, tails, NULL, 2, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 2);
  CHECK(strstr(report, "value: 1 set in the merged state or in a constituent only") != NULL);

  state *narrow = with_pc(4, prefix, lt10), *wide = with_pc(5, prefix, too_wide);
  values = (merge_values){.nparts = 2};
  merge_values_add(&values, good, parts);
  CHECK(!validate_captured(&mc, narrow, group, tails, NULL, 2, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 3);
  CHECK(strstr(report, "path condition: constituent 1's path does not imply") != NULL);
  CHECK(!validate_captured(&mc, wide, group, tails, NULL, 2, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 4);
  CHECK(strstr(report, "path condition: the merged path condition admits") != NULL);
  merge_values_free(&values);

  state_free(narrow);
  state_free(wide);
  state_free(merged);
  state_free(group[0]);
  state_free(group[1]);
  free(mc.tmp);
  qs_free(solver);
  expr *all[] = {cap,    at0,  x,    c200, c10,    c20,      c5,   one,
                 prefix, lt10, gt20, gt5,  either, too_wide, good, swapped};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(X);
  CHECK_EQ_U64(expr_live_count(), live);
  CHECK_EQ_U64(expr_live_arrays(), live_arrays);
  tree_merge_checks();
  return check_exit();
}
