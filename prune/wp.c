/* wp.c — conjunctive BackProp with abduction (contract in wp.h). */
#include "prune/wp.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"
#include "prune/core.h"

typedef struct list {
  expr **items; /* borrowed */
  size_t n, cap;
} list;

static void push(list *l, expr *e) {
  for (size_t k = 0; k < l->n; k++)
    if (l->items[k] == e) return;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->items = xrealloc(l->items, l->cap * sizeof *l->items);
  }
  l->items[l->n++] = e;
}

/* A set of variables: cells (an input byte, or a whole array read at a symbolic index) and
 * the arrays any of them belongs to. */
typedef struct vars {
  hmap cells, arrays;
} vars;

static void vars_add(vars *v, expr *e) {
  uint64_t *cells = NULL;
  size_t n = 0, cap = 0;
  expr_collect_cells(e, &cells, &n, &cap);
  for (size_t k = 0; k < n; k++) {
    hmap_put(&v->cells, cells[k], 1);
    hmap_put(&v->arrays, (uint64_t)expr_cell_array(cells[k]) + 1, 1);
  }
  free(cells);
}

/* Whether e shares a variable with v: the same cell, a whole array v reads and e reads a
 * cell of, or an array e reads whole and v reads a cell of. */
static bool touches(expr *e, const vars *v) {
  uint64_t *cells = NULL;
  size_t n = 0, cap = 0;
  expr_collect_cells(e, &cells, &n, &cap);
  bool yes = false;
  for (size_t k = 0; k < n && !yes; k++) {
    uint32_t a = expr_cell_array(cells[k]);
    yes = hmap_get(&v->cells, cells[k], NULL) ||
          hmap_get(&v->cells, expr_cell(a, EXPR_CELL_WHOLE), NULL) ||
          (expr_cell_is_whole(cells[k]) && hmap_get(&v->arrays, (uint64_t)a + 1, NULL));
  }
  free(cells);
  return yes;
}

/* Fig. 7's SEPARATE(γ, v): γ_v (the conjuncts connected to v, transitively; v grows with
 * their cells) and γ_v̄ (the rest). */
static void separate(const list *g, vars *v, list *in, list *out) {
  bool *taken = xcalloc(g->n + 1, sizeof *taken);
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t k = 0; k < g->n; k++)
      if (!taken[k] && touches(g->items[k], v)) {
        taken[k] = grew = true;
        vars_add(v, g->items[k]);
      }
  }
  for (size_t k = 0; k < g->n; k++) push(taken[k] ? in : out, g->items[k]);
  free(taken);
}

static expr *conjunction(expr *const *c, size_t n) {
  expr *all = expr_true();
  for (size_t k = 0; k < n; k++) {
    expr *next = expr_and(all, c[k]);
    expr_unref(all);
    all = next;
  }
  return all;
}

/* Whether the conjuncts a (and e) imply Ψ: one query; unknown is no. */
static bool implies(qsolver *s, const list *a, expr *e, expr *psi, prune_wp_stats *st) {
  expr **c = xcalloc(a->n + 2, sizeof *c);
  if (a->n) memcpy(c, a->items, a->n * sizeof *c); /* items is NULL while empty */
  c[a->n] = e;
  bool must = false;
  qs_status status = qs_must_be_true(s, c, a->n + 1, psi, &must);
  st->queries++;
  free(c);
  return status != QS_UNKNOWN && must;
}

static bool any_forall(const list *l) {
  for (size_t k = 0; k < l->n; k++)
    if (l->items[k]->has_forall) return true;
  return false;
}

/* One step: ABDUCTION(pc[0 .. j), e = pc[j], Ψ) into w (borrowed expressions of pc or Ψ). */
static void abduce(qsolver *s, expr *const *pc, size_t j, const list *psi, list *w,
                   prune_wp_stats *st) {
  st->steps++;
  expr *e = pc[j];
  /* φ̄ = CORE(φ ∧ e, Ψ): the connected slice, minimized when small */
  size_t *idx = xcalloc(j + 2, sizeof *idx);
  size_t ns = prune_core_slice(pc, j + 1, psi->items, psi->n, idx);
  list core = {0};
  for (size_t k = 0; k < ns; k++)
    if (idx[k] != j) push(&core, pc[idx[k]]);
  free(idx);
  expr *all = conjunction(psi->items, psi->n);
  /* a ∀ (a merged state's): no query — W is φ̄, the slice (wp.h) */
  bool quantified = e->has_forall || any_forall(&core) || any_forall(psi);
  if (quantified) st->quantified++;
  if (core.n <= PRUNE_WP_CORE_MAX && !quantified)
    for (size_t k = 0; k < core.n;) {
      list without = {0};
      for (size_t m = 0; m < core.n; m++)
        if (m != k) push(&without, core.items[m]);
      if (implies(s, &without, e, all, st)) {
        free(core.items);
        core = without;
      } else {
        free(without.items);
        k++;
      }
    }
  /* SEPARATE twice */
  vars v = {0};
  hmap_reset(&v.cells, 64);
  hmap_reset(&v.arrays, 64);
  vars_add(&v, e);
  list phi_v = {0}, phi_rest = {0}, psi_v = {0}, psi_rest = {0};
  separate(&core, &v, &phi_v, &phi_rest); /* v is now cells(φ_v ∧ e) */
  separate(psi, &v, &psi_v, &psi_rest);
  if (!psi_v.n) {
    st->passed++;
    for (size_t k = 0; k < psi->n; k++) push(w, psi->items[k]);
  } else {
    list cand = {0};
    for (size_t k = 0; k < phi_v.n; k++) push(&cand, phi_v.items[k]);
    for (size_t k = 0; k < psi_rest.n; k++) push(&cand, psi_rest.items[k]);
    if (!quantified && implies(s, &cand, e, all, st)) {
      st->abduced++;
      for (size_t k = 0; k < cand.n; k++) push(w, cand.items[k]);
    } else {
      st->fallbacks++;
      for (size_t k = 0; k < core.n; k++) push(w, core.items[k]);
    }
    free(cand.items);
  }
  expr_unref(all);
  hmap_free(&v.cells), hmap_free(&v.arrays);
  free(core.items), free(phi_v.items), free(phi_rest.items), free(psi_v.items);
  free(psi_rest.items);
}

expr **prune_wp_backprop(qsolver *solver, expr *const *pc, size_t from, size_t to, expr *const *psi,
                         size_t n, size_t *count, prune_wp_stats *stats) {
  list cur = {0};
  for (size_t k = 0; k < n; k++)
    if (!expr_is_true(psi[k])) push(&cur, psi[k]);
  for (size_t j = to; j-- > from && cur.n;) {
    list next = {0};
    abduce(solver, pc, j, &cur, &next, stats);
    free(cur.items);
    cur = next;
  }
  expr **out = xcalloc(cur.n + 1, sizeof *out);
  for (size_t k = 0; k < cur.n; k++) out[k] = expr_ref(cur.items[k]);
  *count = cur.n;
  free(cur.items);
  return out;
}
