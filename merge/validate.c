/* validate.c — Theorem 3.8 for one merge (contract in validate.h). */
#include "merge/validate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

void merge_values_add(merge_values *v, expr *merged, expr *const *parts) {
  if (v->n == v->cap) v->items = xrealloc(v->items, (v->cap = 2 * v->cap + 8) * sizeof *v->items);
  v->items[v->n].merged = merged;
  v->items[v->n].parts = xrealloc(NULL, (v->nparts + 1) * sizeof *parts);
  memcpy(v->items[v->n].parts, parts, v->nparts * sizeof *parts);
  v->n++;
}

void merge_values_free(merge_values *v) {
  for (size_t k = 0; k < v->n; k++) free(v->items[k].parts);
  free(v->items);
  v->items = NULL;
  v->n = v->cap = 0;
}

/* A check's outcome: proved, refuted, or neither (the solver answered unknown). */
typedef enum check_result { CHECK_HOLDS, CHECK_FAILS, CHECK_UNKNOWN } check_result;

/* Does pc (with `extra`, when not NULL, as one more constraint) imply claim? On
 * CHECK_UNKNOWN, why[0..why_size) says why (qs_last_reason: a timeout, incomplete reasoning). */
static check_result implies(merge_ctx *mc, expr *const *pc, size_t npc, expr *extra, expr *claim,
                            char *why, size_t why_size) {
  bool holds = false;
  qs_status st;
  qs_effort_split_exclude(mc->solver, true); /* no query of a path: not the decision's evidence */
  if (!extra) {
    st = qs_must_be_true(mc->solver, pc, npc, claim, &holds);
  } else {
    expr **with = xrealloc(NULL, (npc + 1) * sizeof *with);
    memcpy(with, pc, npc * sizeof *with);
    with[npc] = extra;
    st = qs_must_be_true(mc->solver, with, npc + 1, claim, &holds);
    free(with);
  }
  qs_effort_split_exclude(mc->solver, false);
  if (st == QS_UNKNOWN) snprintf(why, why_size, "%s", qs_last_reason(mc->solver));
  return st == QS_UNKNOWN ? CHECK_UNKNOWN : holds ? CHECK_HOLDS : CHECK_FAILS;
}

bool merge_validate(merge_ctx *mc, const state *m, state *const *group, expr *const *tails,
                    expr *const *witness, size_t n, const merge_values *values) {
  check_result res = CHECK_HOLDS;
  char what[200] = "", why[160] = "";
  /* 1. each constituent's path (with its witness) implies every constraint of m's pc */
  for (size_t k = 0; res == CHECK_HOLDS && k < m->npc; k++)
    for (size_t j = 0; res == CHECK_HOLDS && j < n; j++) {
      res = implies(mc, group[j]->pc, group[j]->npc, witness ? witness[j] : NULL, m->pc[k], why,
                    sizeof why);
      if (res != CHECK_HOLDS)
        snprintf(what, sizeof what,
                 "path condition: constituent %zu's path does not imply the merged "
                 "constraint %zu of %zu",
                 j, k, m->npc);
    }
  /* 2. m's pc implies that some constituent's tail (with its witness) holds */
  if (res == CHECK_HOLDS) {
    expr *any = merge_tmp(mc, expr_false());
    for (size_t j = 0; j < n; j++)
      any = merge_tmp(
          mc, expr_or(any, witness ? merge_tmp(mc, expr_and(tails[j], witness[j])) : tails[j]));
    res = implies(mc, m->pc, m->npc, NULL, any, why, sizeof why);
    if (res != CHECK_HOLDS)
      snprintf(what, sizeof what,
               "path condition: the merged path condition admits a path of no constituent");
  }
  /* 3. under each constituent's path (and witness), every merged value is that
   * constituent's: the merged ite/guard structure picks the right side */
  if (res == CHECK_HOLDS && values->unset) {
    res = CHECK_FAILS;
    snprintf(what, sizeof what, "value: %zu set in the merged state or in a constituent only",
             values->unset);
  }
  for (size_t v = 0; res == CHECK_HOLDS && v < values->n; v++)
    for (size_t j = 0; res == CHECK_HOLDS && j < n; j++) {
      expr *same = merge_tmp(mc, expr_eq(values->items[v].merged, values->items[v].parts[j]));
      res = implies(mc, group[j]->pc, group[j]->npc, witness ? witness[j] : NULL, same, why,
                    sizeof why);
      if (res != CHECK_HOLDS)
        snprintf(what, sizeof what,
                 "value: merged value %zu of %zu differs from constituent %zu's under its path", v,
                 values->n, j);
    }
  if (res == CHECK_HOLDS) return true;
  mc->stats->validation_failures++;
  fprintf(stderr,
          "symq: error: merge validation failed for state %" PRIu64
          " (%zu constituents): %s%s%s%s\n",
          m->id, n, what, res == CHECK_UNKNOWN ? " (not proved: the solver answered unknown: " : "",
          res == CHECK_UNKNOWN ? why : "", res == CHECK_UNKNOWN ? ")" : "");
  return false;
}
