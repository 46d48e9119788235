/* validate.c — Theorem 3.8 for one merge (contract in validate.h). */
#include "merge/validate.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
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

/* ---- deciding a check without the solver where the structure proves it ----------------
 * A merge's formulas are built from its constituents' own constraints (the tails, the tree's
 * branch conditions), so most of a check follows from which of those constraints a path
 * holds: `facts` is a set of literals assumed true (the conjuncts of the assumptions; each
 * one's negation, built by expr_not as the interpreter builds a branch's other side, is
 * false), and eval3 evaluates a formula under it by and/or/not/ite alone. Only a `true`
 * answer is used (a proof: the claim follows from the assumed literals); anything else goes
 * to the solver as before, so the checks never get weaker. A disjunction among the
 * assumptions (a merged path condition) is split into its cases, each proved on its own:
 * m's pc implies the claim when every disjunct's case does. */
typedef enum tri { TRI_UNKNOWN = 0, TRI_TRUE = 1, TRI_FALSE = 2 } tri;

static tri tri_not(tri t) { return t == TRI_TRUE ? TRI_FALSE : t == TRI_FALSE ? TRI_TRUE : t; }

typedef struct facts {
  merge_ctx *mc;
  hmap truth;    /* expr id + 1 -> TRI_TRUE / TRI_FALSE: the assumed literals */
  hmap memo;     /* expr id + 1 -> generation << 2 | tri */
  uint64_t gen;  /* bumped when truth changes: older memo entries are stale */
  uint64_t *log; /* keys put into truth, in order (undone by a case split) */
  size_t nlog, caplog;
  expr **ors; /* disjunctions among the assumptions, in order */
  size_t nors, capors;
  bool contradiction; /* a literal assumed both ways: the assumptions are unsatisfiable */
} facts;

static void facts_set(facts *f, expr *e, tri t) {
  uint64_t have;
  if (hmap_get(&f->truth, e->id + 1, &have)) {
    if (have != t) f->contradiction = true;
    return;
  }
  hmap_put(&f->truth, e->id + 1, t);
  if (f->nlog == f->caplog) f->log = xrealloc(f->log, (f->caplog = 2 * f->caplog + 64) * 8);
  f->log[f->nlog++] = e->id + 1;
}

/* Assumes e (width 1) true: its conjuncts, and each disjunction as a case to split. */
static void facts_assume(facts *f, expr *e) {
  uint64_t have;
  if (expr_is_true(e) || (hmap_get(&f->truth, e->id + 1, &have) && have == TRI_TRUE)) return;
  if (expr_is_false(e)) f->contradiction = true;
  f->gen++;
  facts_set(f, e, TRI_TRUE);
  if (e->kind == EXPR_AND && e->width == 1) {
    facts_assume(f, e->kid[0]);
    facts_assume(f, e->kid[1]);
  } else if (e->kind == EXPR_OR && e->width == 1) {
    if (f->nors == f->capors) f->ors = xrealloc(f->ors, (f->capors = 2 * f->capors + 16) * 8);
    f->ors[f->nors++] = e;
  } else {
    facts_set(f, merge_tmp(f->mc, expr_not(e)), TRI_FALSE);
  }
}

static void facts_undo(facts *f, size_t nlog, size_t nors, bool contradiction) {
  while (f->nlog > nlog) hmap_erase(&f->truth, f->log[--f->nlog]);
  f->nors = nors;
  f->contradiction = contradiction;
  f->gen++;
}

static void facts_init(facts *f, merge_ctx *mc, expr *const *pc, size_t npc, expr *extra) {
  *f = (facts){.mc = mc};
  for (size_t k = 0; k < npc; k++) facts_assume(f, pc[k]);
  if (extra) facts_assume(f, extra);
}

static void facts_free(facts *f) {
  hmap_free(&f->truth);
  hmap_free(&f->memo);
  free(f->log);
  free(f->ors);
}

/* e's value under the facts, by and/or/not/ite over the assumed literals (depth bounds the
 * recursion: past it, unknown). */
static tri eval3(facts *f, expr *e, unsigned depth) {
  if (expr_is_true(e)) return TRI_TRUE;
  if (expr_is_false(e)) return TRI_FALSE;
  uint64_t v;
  if (hmap_get(&f->truth, e->id + 1, &v)) return (tri)v;
  if (e->width != 1 || depth == 0) return TRI_UNKNOWN;
  if (hmap_get(&f->memo, e->id + 1, &v) && v >> 2 == f->gen) return (tri)(v & 3);
  tri t = TRI_UNKNOWN;
  switch (e->kind) {
  case EXPR_AND:
  case EXPR_OR: {
    tri absorbing = e->kind == EXPR_AND ? TRI_FALSE : TRI_TRUE;
    tri a = eval3(f, e->kid[0], depth - 1);
    if (a == absorbing) {
      t = a;
      break;
    }
    tri b = eval3(f, e->kid[1], depth - 1);
    t = b == absorbing ? b : a == b ? a : TRI_UNKNOWN;
    break;
  }
  case EXPR_NOT: t = tri_not(eval3(f, e->kid[0], depth - 1)); break;
  case EXPR_ITE: {
    tri c = eval3(f, e->kid[0], depth - 1);
    if (c != TRI_UNKNOWN) {
      t = eval3(f, e->kid[c == TRI_TRUE ? 1 : 2], depth - 1);
    } else {
      tri a = eval3(f, e->kid[1], depth - 1);
      t = a == eval3(f, e->kid[2], depth - 1) ? a : TRI_UNKNOWN;
    }
    break;
  }
  default: break;
  }
  hmap_put(&f->memo, e->id + 1, f->gen << 2 | t);
  return t;
}

/* eval3's and residual's recursion bound */
enum { EVAL_DEPTH = 8192 };

/* Collects the disjuncts of e (nested ors flattened) into *out. */
static void disjuncts(expr *e, expr ***out, size_t *n, size_t *cap) {
  if (e->kind == EXPR_OR && e->width == 1) {
    disjuncts(e->kid[0], out, n, cap);
    disjuncts(e->kid[1], out, n, cap);
    return;
  }
  if (*n == *cap) *out = xrealloc(*out, (*cap = 2 * *cap + 8) * sizeof **out);
  (*out)[(*n)++] = e;
}

/* Do the facts imply claim, case by case over their disjunctions from ors[from] on? true is
 * a proof; false says only that this way found none (each case costs one of *budget). */
static bool proved_by_cases(facts *f, expr *claim, size_t from, size_t *budget) {
  if (f->contradiction || eval3(f, claim, EVAL_DEPTH) == TRI_TRUE) return true;
  if (*budget == 0) return false;
  --*budget;
  size_t at = from;
  for (; at < f->nors; at++) { /* the disjunction itself is assumed: evaluate its sides */
    tri a = eval3(f, f->ors[at]->kid[0], EVAL_DEPTH), b = eval3(f, f->ors[at]->kid[1], EVAL_DEPTH);
    tri t = a == TRI_TRUE || b == TRI_TRUE ? TRI_TRUE : a == b ? a : TRI_UNKNOWN;
    if (t == TRI_FALSE) return true; /* this case's assumptions contradict each other */
    if (t == TRI_UNKNOWN) break;
  }
  if (at == f->nors) return false;
  expr **cases = NULL;
  size_t ncases = 0, cap = 0;
  disjuncts(f->ors[at], &cases, &ncases, &cap);
  bool holds = true;
  size_t nlog = f->nlog, nors = f->nors;
  bool contradiction = f->contradiction;
  for (size_t c = 0; holds && c < ncases; c++) {
    facts_assume(f, cases[c]);
    holds = proved_by_cases(f, claim, at + 1, budget);
    facts_undo(f, nlog, nors, contradiction);
  }
  free(cases);
  return holds;
}

/* Does pc (with extra) imply claim by the facts alone? (n: the merge's size, for the case
 * budget.) */
static bool proved_by_structure(facts *f, expr *claim, size_t n) {
  size_t budget = 4 * n + 64;
  return proved_by_cases(f, claim, 0, &budget);
}

/* claim (width 1) with every part the facts decide replaced by its truth: equivalent to
 * claim wherever the facts hold, and what is left for the solver is only the part they leave
 * open (a branch the interpreter found one-sided adds no constraint, yet the tree's edge, and
 * so the merged formula, keeps its condition). done: memo, expr id + 1 -> expr. */
static expr *residual(facts *f, expr *e, hmap *done, unsigned depth) {
  tri t = eval3(f, e, EVAL_DEPTH);
  if (t != TRI_UNKNOWN) return merge_tmp(f->mc, expr_bool(t == TRI_TRUE));
  bool connective =
      e->kind == EXPR_AND || e->kind == EXPR_OR || e->kind == EXPR_NOT || e->kind == EXPR_ITE;
  if (e->width != 1 || !connective || depth == 0) return e;
  uint64_t v;
  if (hmap_get(done, e->id + 1, &v)) return (expr *)(uintptr_t)v;
  expr *kids[4];
  for (unsigned k = 0; k < e->nkids; k++) kids[k] = residual(f, e->kid[k], done, depth - 1);
  expr *r = merge_tmp(f->mc, expr_with_kids(e, kids));
  hmap_put(done, e->id + 1, (uint64_t)(uintptr_t)r);
  return r;
}

/* The claim left for the solver after the facts' part is taken out. */
static expr *claim_left(facts *f, expr *claim) {
  hmap done = {0};
  expr *r = residual(f, claim, &done, EVAL_DEPTH);
  hmap_free(&done);
  return r;
}

/* value under the facts: each ite whose condition they decide replaced by its chosen side
 * (equal to value wherever the facts hold). */
static expr *resolve_ites(facts *f, expr *value) {
  while (value->kind == EXPR_ITE) {
    tri c = eval3(f, value->kid[0], EVAL_DEPTH);
    if (c == TRI_UNKNOWN) break;
    value = value->kid[c == TRI_TRUE ? 1 : 2];
  }
  return value;
}

/* e under witness w: a witness K = c (a pattern merge's count) substituted into e, which is
 * e's meaning wherever the witness holds; e itself otherwise. The merged pc's ∀ then has a
 * constant range and its exit condition and values a constant K, as in the constituent. */
static expr *under_witness(merge_ctx *mc, expr *w, expr *e) {
  if (!w || w->kind != EXPR_EQ || !expr_is_const(w->kid[0]) || expr_is_const(w->kid[1])) return e;
  return merge_tmp(mc, expr_substitute(e, &w->kid[1], &w->kid[0], 1));
}

bool merge_validate(merge_ctx *mc, const state *m, state *const *group, expr *const *tails,
                    expr *const *witness, size_t n, const merge_values *values) {
  check_result res = CHECK_HOLDS;
  char what[200] = "", why[160] = "";
  facts f;
  /* 1. each constituent's path (with its witness) implies every constraint of m's pc */
  for (size_t j = 0; res == CHECK_HOLDS && j < n; j++) {
    expr *w = witness ? witness[j] : NULL;
    facts_init(&f, mc, group[j]->pc, group[j]->npc, w);
    for (size_t k = 0; res == CHECK_HOLDS && k < m->npc; k++) {
      expr *claim = under_witness(mc, w, m->pc[k]);
      if (proved_by_structure(&f, claim, n)) continue;
      res = implies(mc, group[j]->pc, group[j]->npc, w, claim_left(&f, claim), why, sizeof why);
      if (res != CHECK_HOLDS)
        snprintf(what, sizeof what,
                 "path condition: constituent %zu's path does not imply the merged "
                 "constraint %zu of %zu",
                 j, k, m->npc);
    }
    facts_free(&f);
  }
  /* 2. m's pc implies that some constituent's tail (with its witness) holds */
  if (res == CHECK_HOLDS) {
    expr *any = merge_tmp(mc, expr_false());
    for (size_t j = 0; j < n; j++)
      any = merge_tmp(
          mc, expr_or(any, witness ? merge_tmp(mc, expr_and(tails[j], witness[j])) : tails[j]));
    facts_init(&f, mc, m->pc, m->npc, NULL);
    if (!proved_by_structure(&f, any, n))
      res = implies(mc, m->pc, m->npc, NULL, claim_left(&f, any), why, sizeof why);
    facts_free(&f);
    if (res != CHECK_HOLDS)
      snprintf(what, sizeof what,
               "path condition: the merged path condition admits a path of no constituent");
  }
  /* 3. under each constituent's path (and witness), every merged value is that
   * constituent's: the merged ite/guard structure picks the right side. The ites whose
   * guards the path decides are resolved first; what is left goes to the solver. */
  if (res == CHECK_HOLDS && values->unset) {
    res = CHECK_FAILS;
    snprintf(what, sizeof what, "value: %zu set in the merged state or in a constituent only",
             values->unset);
  }
  for (size_t j = 0; res == CHECK_HOLDS && j < n && values->n; j++) {
    expr *w = witness ? witness[j] : NULL;
    facts_init(&f, mc, group[j]->pc, group[j]->npc, w);
    for (size_t v = 0; res == CHECK_HOLDS && v < values->n; v++) {
      expr *part = values->items[v].parts[j];
      expr *chosen =
          f.contradiction ? part : resolve_ites(&f, under_witness(mc, w, values->items[v].merged));
      if (chosen == part) continue;
      if (chosen->width == 1) { /* a flag: equal when the facts give both the same truth */
        tri a = eval3(&f, chosen, EVAL_DEPTH);
        if (a != TRI_UNKNOWN && a == eval3(&f, part, EVAL_DEPTH)) continue;
      }
      res = implies(mc, group[j]->pc, group[j]->npc, w, merge_tmp(mc, expr_eq(chosen, part)), why,
                    sizeof why);
      if (res != CHECK_HOLDS)
        snprintf(what, sizeof what,
                 "value: merged value %zu of %zu differs from constituent %zu's under its path", v,
                 values->n, j);
    }
    facts_free(&f);
  }
  if (res == CHECK_HOLDS) return true;
  size_t nwhy = strlen(why), nlimit = strlen(QS_REASON_RUN_LIMIT);
  if (res == CHECK_UNKNOWN && nwhy >= nlimit &&
      strcmp(why + nwhy - nlimit, QS_REASON_RUN_LIMIT) == 0) {
    /* the run is ending (--max-time, a halt): this merge was not checked, which is not a
     * failure — the run's verdict already says it did not finish. The reason ends so too
     * where a stage wraps Z3's ("quantified: no bounded expansion …: z3: timeout (the run's
     * time limit)": a ∀ check on libpng text under pat-inc, capacity 10, 20 s) */
    mc->stats->validation_unchecked++;
    fprintf(stderr,
            "symq: warning: merge validation of state %" PRIu64
            " not checked: the run's time limit came first (%s)\n",
            m->id, what);
    return false;
  }
  mc->stats->validation_failures++;
  fprintf(stderr,
          "symq: error: merge validation failed for state %" PRIu64
          " (%zu constituents): %s%s%s%s\n",
          m->id, n, what, res == CHECK_UNKNOWN ? " (not proved: the solver answered unknown: " : "",
          res == CHECK_UNKNOWN ? why : "", res == CHECK_UNKNOWN ? ")" : "");
  return false;
}
