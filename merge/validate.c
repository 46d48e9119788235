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

/* Does pc (with `extra`, when not NULL, as one more constraint) imply claim? */
static bool implies(merge_ctx *mc, expr *const *pc, size_t npc, expr *extra, expr *claim) {
  bool holds = false;
  if (!extra) return qs_must_be_true(mc->solver, pc, npc, claim, &holds) != QS_UNKNOWN && holds;
  expr **with = xrealloc(NULL, (npc + 1) * sizeof *with);
  memcpy(with, pc, npc * sizeof *with);
  with[npc] = extra;
  bool ok = qs_must_be_true(mc->solver, with, npc + 1, claim, &holds) != QS_UNKNOWN && holds;
  free(with);
  return ok;
}

bool merge_validate(merge_ctx *mc, const state *m, state *const *group, expr *const *tails,
                    expr *const *witness, size_t n, const merge_values *values) {
  bool ok = true;
  expr *any = merge_tmp(mc, expr_false());
  for (size_t j = 0; j < n; j++)
    any = merge_tmp(
        mc, expr_or(any, witness ? merge_tmp(mc, expr_and(tails[j], witness[j])) : tails[j]));
  for (size_t k = 0; ok && k < m->npc; k++)
    for (size_t j = 0; ok && j < n; j++)
      ok = implies(mc, group[j]->pc, group[j]->npc, witness ? witness[j] : NULL, m->pc[k]);
  if (ok) ok = implies(mc, m->pc, m->npc, NULL, any);
  if (values->unset) ok = false;
  for (size_t v = 0; ok && v < values->n; v++)
    for (size_t j = 0; ok && j < n; j++) {
      expr *same = merge_tmp(mc, expr_eq(values->items[v].merged, values->items[v].parts[j]));
      ok = implies(mc, group[j]->pc, group[j]->npc, witness ? witness[j] : NULL, same);
    }
  if (!ok) {
    mc->stats->validation_failures++;
    fprintf(stderr,
            "symq: error: merge validation failed for state %" PRIu64 " (%zu constituents)\n",
            m->id, n);
  }
  return ok;
}
