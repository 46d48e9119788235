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
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/core/expr.h"
#include "engine/core/state.h"
#include "merge/validate.h"
#include "qsolver/qsolver.h"

/* merge_validate with its stderr report captured into report (empty when none). */
static bool validate_captured(merge_ctx *mc, const state *m, state *const *group,
                              expr *const *tails, const merge_values *values, char *report,
                              size_t size) {
  fflush(stderr);
  int saved = dup(fileno(stderr));
  FILE *tmp = tmpfile();
  CHECK(saved >= 0 && tmp);
  dup2(fileno(tmp), fileno(stderr));
  bool ok = merge_validate(mc, m, group, tails, NULL, 2, values);
  fflush(stderr);
  dup2(saved, fileno(stderr));
  close(saved);
  rewind(tmp);
  size_t n = fread(report, 1, size - 1, tmp);
  report[n] = '\0';
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
  CHECK(validate_captured(&mc, merged, group, tails, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 0);
  CHECK_EQ_U64(strlen(report), 0);
  merge_values_free(&values);

  values = (merge_values){.nparts = 2};
  merge_values_add(&values, swapped, parts);
  CHECK(!validate_captured(&mc, merged, group, tails, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 1);
  CHECK(strstr(report, "merge validation failed for state 3") != NULL);
  CHECK(strstr(report, "value: merged value 0 of 1") != NULL);
  CHECK(strstr(report, "not proved") == NULL);
  merge_values_free(&values);

  values = (merge_values){.nparts = 2, .unset = 1};
  CHECK(!validate_captured(&mc, merged, group, tails, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 2);
  CHECK(strstr(report, "value: 1 set in the merged state or in a constituent only") != NULL);

  state *narrow = with_pc(4, prefix, lt10), *wide = with_pc(5, prefix, too_wide);
  values = (merge_values){.nparts = 2};
  merge_values_add(&values, good, parts);
  CHECK(!validate_captured(&mc, narrow, group, tails, &values, report, sizeof report));
  CHECK_EQ_U64(stats.validation_failures, 3);
  CHECK(strstr(report, "path condition: constituent 1's path does not imply") != NULL);
  CHECK(!validate_captured(&mc, wide, group, tails, &values, report, sizeof report));
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
  return check_exit();
}
