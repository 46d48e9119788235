/*
 * domain.c — scalar conjunctions decided by enumeration over their own bounds (domain.h).
 *
 * 1. The variables: the distinct reads of the formulas (each at a constant index, through no
 *    writes, below its array's capacity; reads of the same array at overlapping bytes give up).
 * 2. Each variable's range [lo, hi], from the formulas whose only variable it is and that
 *    compare it with a constant (unsigned, possibly negated). An empty range is unsat: the
 *    bounds contradict each other.
 * 3. A depth-first search over the variables, smallest range first; each formula is evaluated
 *    as soon as its last variable has a value, so a formula on one variable prunes that
 *    variable's values before any other is tried. Exhausted: unsat. A full assignment that
 *    satisfies every formula: sat, the model checked once more on the whole conjunction.
 * Evaluation is expr_eval's, the semantics every other stage's model is checked with.
 */
#include "qsolver/domain.h"
#include "engine/core/xalloc.h"
#include "qsolver/stage.h"

/* Variables a conjunction may have (a bit each in a formula's mask). */
#define MAX_VARS 16

typedef struct dvar {
  const expr *read;
  expr_array *array;
  uint64_t at, nbytes;
  u128 lo, hi;
  unsigned unary; /* formulas on this variable alone */
  uint8_t *bytes; /* the model's binding of the array, written in place */
} dvar;

struct qs_domain {
  dvar vars[MAX_VARS];
  size_t nvars;
  unsigned order[MAX_VARS]; /* search position → variable */
  unsigned pos[MAX_VARS];   /* variable → search position */
  uint32_t *mask;           /* per formula: its variables */
  size_t mask_cap;
  expr **level; /* the formulas by the search position of their last variable */
  size_t level_cap;
  size_t *start; /* level k's formulas: level[start[k], start[k + 1]) */
  size_t start_cap;
  qs_idmap seen;
  expr **stack;
  size_t stack_cap;
  expr_assignment *m;
  unsigned evals;
};

qs_domain *qs_domain_new(void) { return xcalloc(1, sizeof(qs_domain)); }

void qs_domain_free(qs_domain *d) {
  if (!d) return;
  free(d->mask);
  free(d->level);
  free(d->start);
  free(d->stack);
  qs_idmap_free(&d->seen);
  free(d);
}

/* The variable of read e (added when new), or -1 when e is not a variable. */
static int var_of(qs_domain *d, const expr *e) {
  for (size_t i = 0; i < d->nvars; i++)
    if (d->vars[i].read == e) return (int)i;
  const expr_array *a = e->u.read.array;
  if (e->u.read.updates || a->init || !expr_is_const(e->kid[0]) || e->width % 8 ||
      d->nvars == MAX_VARS)
    return -1;
  u128 at = e->kid[0]->u.value;
  uint64_t nbytes = e->width / 8;
  if (at > a->capacity || nbytes > a->capacity - (uint64_t)at) return -1;
  for (size_t i = 0; i < d->nvars; i++) { /* another read of the array's bytes: disjoint */
    const dvar *v = &d->vars[i];
    if (v->array == a && at < v->at + v->nbytes && v->at < at + nbytes) return -1;
  }
  d->vars[d->nvars] = (dvar){.read = e,
                             .array = e->u.read.array,
                             .at = (uint64_t)at,
                             .nbytes = nbytes,
                             .lo = 0,
                             .hi = expr_mask(e->width),
                             .unary = 0};
  return (int)d->nvars++;
}

/* The mask of f's variables into *mask; false when f reads an array otherwise. */
static bool formula_vars(qs_domain *d, expr *f, uint32_t *mask) {
  qs_idmap_reset(&d->seen, 32);
  size_t depth = 0;
  *mask = 0;
  qs_push_unseen(&d->seen, &d->stack, &depth, &d->stack_cap, f);
  while (depth) {
    expr *e = d->stack[--depth];
    if (e->has_forall || e->has_bvar) return false;
    if (e->kind == EXPR_READ) {
      if (e->u.read.array->init && !e->u.read.updates && expr_is_const(e->kid[0]))
        continue; /* a byte of a constant array: a constant */
      int v = var_of(d, e);
      if (v < 0) return false;
      *mask |= 1u << v;
      continue;
    }
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&d->seen, &d->stack, &depth, &d->stack_cap, e->kid[k]);
  }
  return true;
}

/* Narrows the range of the variable of f (its only one) when f compares it with a constant.
 * False when the range becomes empty. */
static bool narrow(dvar *v, const expr *f) {
  bool neg = false;
  while (f->kind == EXPR_NOT && f->width == 1) {
    neg = !neg;
    f = f->kid[0];
  }
  if (f->kind != EXPR_EQ && f->kind != EXPR_ULT && f->kind != EXPR_ULE) return true;
  const expr *a = f->kid[0], *b = f->kid[1];
  bool var_left = a == v->read && expr_is_const(b), var_right = b == v->read && expr_is_const(a);
  if (!var_left && !var_right) return true;
  u128 c = var_left ? b->u.value : a->u.value, lo = v->lo, hi = v->hi;
  u128 top = expr_mask(v->read->width);
  /* The range f (or ¬f) allows, as [l, h] (l > h: none). */
  u128 l = 0, h = top;
  if (f->kind == EXPR_EQ) {
    if (neg) return true; /* v ≠ c: not an interval */
    l = h = c;
  } else {
    /* v ≤ c (ULE, var left), v < c (ULT, var left), c ≤ v, c < v; negated, the opposite. */
    bool strict = f->kind == EXPR_ULT;
    bool upper = var_left != neg; /* an upper bound on v */
    if (neg) strict = !strict;
    if (upper) {
      if (strict && c == 0) return false; /* v < 0 */
      h = strict ? c - 1 : c;
    } else {
      if (strict && c == top) return false; /* v > top */
      l = strict ? c + 1 : c;
    }
  }
  v->lo = l > lo ? l : lo;
  v->hi = h < hi ? h : hi;
  return v->lo <= v->hi;
}

static void write_value(dvar *v, u128 x) {
  for (uint64_t k = 0; k < v->nbytes; k++) v->bytes[v->at + k] = (uint8_t)(x >> (8 * k));
}

/* Does level k hold under the values of the variables at positions 0..k? */
static bool level_holds(qs_domain *d, size_t k) {
  size_t n = d->start[k + 1] - d->start[k];
  d->evals += (unsigned)n;
  return !n || expr_eval_all_true(d->level + d->start[k], n, d->m);
}

/* 1: found (the variables at positions ≥ k hold a satisfying assignment), 0: none, -1: the
 * budget ran out. */
static int search(qs_domain *d, size_t k) {
  if (k == d->nvars) return 1;
  dvar *v = &d->vars[d->order[k]];
  for (u128 x = v->lo;; x++) {
    if (d->evals > QS_DOMAIN_EVALS) return -1;
    write_value(v, x);
    if (level_holds(d, k + 1)) {
      int r = search(d, k + 1);
      if (r) return r;
    }
    if (x == v->hi) return 0;
  }
}

qs_status qs_domain_solve(qs_domain *d, expr *const *f, size_t n, expr_assignment **model) {
  *model = NULL;
  d->nvars = 0;
  d->evals = 0;
  QS_RESERVE(d->mask, d->mask_cap, n ? n : 1);
  for (size_t i = 0; i < n; i++)
    if (!formula_vars(d, f[i], &d->mask[i])) return QS_UNKNOWN;
  for (size_t i = 0; i < n; i++) {
    uint32_t mk = d->mask[i];
    if (mk && !(mk & (mk - 1))) {
      d->vars[__builtin_ctz(mk)].unary++;
      if (!narrow(&d->vars[__builtin_ctz(mk)], f[i])) return QS_UNSAT;
    }
  }
  for (size_t i = 0; i < d->nvars; i++)
    if (d->vars[i].hi - d->vars[i].lo >= QS_DOMAIN_MAX) return QS_UNKNOWN;
  /* Smallest range first; among equal ranges, the one more formulas constrain alone (a
   * question on K + c is one of them: it prunes K before the other variables are tried);
   * then the first read first. */
  for (size_t i = 0; i < d->nvars; i++) {
    size_t j = i;
    for (; j > 0; j--) {
      const dvar *p = &d->vars[d->order[j - 1]], *v = &d->vars[i];
      u128 sp = p->hi - p->lo, sv = v->hi - v->lo;
      if (sp < sv || (sp == sv && p->unary >= v->unary)) break;
      d->order[j] = d->order[j - 1];
    }
    d->order[j] = (unsigned)i;
  }
  for (size_t k = 0; k < d->nvars; k++) d->pos[d->order[k]] = (unsigned)k;
  /* Level k + 1: the formulas whose last variable (in search order) is at position k;
   * level 0: those without a variable. */
  QS_RESERVE(d->level, d->level_cap, n ? n : 1);
  QS_RESERVE(d->start, d->start_cap, d->nvars + 2);
  size_t nl = 0;
  for (size_t k = 0; k <= d->nvars; k++) {
    d->start[k] = nl;
    for (size_t i = 0; i < n; i++) {
      size_t last = 0;
      for (uint32_t mk = d->mask[i]; mk; mk &= mk - 1) {
        size_t p = d->pos[__builtin_ctz(mk)] + 1;
        if (p > last) last = p;
      }
      if (last == k) d->level[nl++] = f[i];
    }
  }
  d->start[d->nvars + 1] = nl;
  d->m = expr_assignment_new();
  for (size_t i = 0; i < d->nvars; i++) {
    expr_array *a = d->vars[i].array;
    if (!expr_assignment_find(d->m, a)) {
      uint8_t *zeros = xcalloc(a->capacity ? a->capacity : 1, 1);
      expr_assignment_set(d->m, a, zeros, a->capacity);
      free(zeros);
    }
  }
  for (size_t i = 0; i < d->nvars; i++) /* the binding's own bytes, written in place */
    d->vars[i].bytes = expr_assignment_find(d->m, d->vars[i].array)->bytes;
  qs_status st = QS_UNKNOWN;
  if (level_holds(d, 0)) {
    int r = search(d, 0);
    st = r > 0 ? QS_SAT : r == 0 ? QS_UNSAT : QS_UNKNOWN;
  } else {
    st = QS_UNSAT;
  }
  if (st == QS_SAT && !qs_model_satisfies(f, n, d->m)) st = QS_UNKNOWN; /* cannot happen */
  if (st == QS_SAT) *model = d->m;
  else
    expr_assignment_free(d->m);
  d->m = NULL;
  return st;
}
