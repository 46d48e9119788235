/* synth.c — templates and formula patterns (contract in synth.h). */
#include "merge/synth.h"

#include <assert.h>
#include <stdlib.h>

#include "engine/core/xalloc.h"

/* Expressions compared in parallel are bounded so that two unrelated DAGs cannot cost more
 * than this many node visits; beyond it they count as not alike. */
enum { ALIKE_BUDGET = 100000, MAX_PAIRS_TRIED = 4 };

/* ---- alike up to constants --------------------------------------------------------------- */

/* c + x: x at an offset. x and c + x are alike (x as 0 + x): an index that simplified from
 * 0 + x to x in one iteration still lines up with c + x in the others. */
static bool is_offset(const expr *e) {
  return e->kind == EXPR_ADD && e->kid[0]->kind == EXPR_CONST;
}

static bool alike(const expr *a, const expr *b, size_t *budget) {
  if (a == b) return true;
  if (*budget == 0) return false;
  (*budget)--;
  if (is_offset(a) != is_offset(b))
    return is_offset(a) ? alike(a->kid[1], b, budget) : alike(a, b->kid[1], budget);
  if (a->kind != b->kind || a->width != b->width || a->nkids != b->nkids) return false;
  switch (a->kind) {
  case EXPR_CONST: return true;
  case EXPR_READ:
    if (a->u.read.array != b->u.read.array || a->u.read.updates != b->u.read.updates) return false;
    break;
  case EXPR_EXTRACT:
    if (a->u.extract.lo != b->u.extract.lo) return false;
    break;
  case EXPR_BVAR:
  case EXPR_FORALL: return false; /* different binders: no template across them */
  default: break;
  }
  for (unsigned k = 0; k < a->nkids; k++)
    if (!alike(a->kid[k], b->kid[k], budget)) return false;
  return true;
}

/* ---- exact modular arithmetic ------------------------------------------------------------- */

static unsigned trailing_zeros(u128 v, unsigned width) {
  unsigned t = 0;
  while (t < width && !((v >> t) & 1)) t++;
  return t;
}

/* The inverse of an odd x modulo 2^128 (Newton's iteration doubles the correct bits). */
static u128 inverse_odd(u128 x) {
  u128 y = x; /* correct to 3 bits */
  for (int k = 0; k < 7; k++) y *= 2 - x * y;
  return y;
}

/* a with a·d ≡ delta (mod 2^width), the smallest one; false when none exists. */
static bool solve_slope(u128 d, u128 delta, unsigned width, u128 *a) {
  u128 mask = expr_mask(width);
  d &= mask, delta &= mask;
  unsigned t = trailing_zeros(d, width);
  if (t == width) { /* d ≡ 0: only delta ≡ 0 works, with any slope */
    *a = 0;
    return delta == 0;
  }
  if (trailing_zeros(delta, width) < t) return false;
  *a = ((delta >> t) * inverse_odd(d >> t)) & expr_mask(width - t);
  return true;
}

/* ---- building a template from two alike expressions ------------------------------------- */

typedef struct fit {
  expr *bvar;
  uint64_t at1, at2;
} fit;

/* c1 at at1 and c2 at at2 as a·i + b in their width; NULL when no slope exists. */
static expr *affine(const fit *f, const expr *c1, const expr *c2) {
  unsigned w = c1->width;
  u128 a;
  if (!solve_slope((u128)(f->at2 - f->at1), c2->u.value - c1->u.value, w, &a)) return NULL;
  u128 b = (c1->u.value - a * (u128)f->at1) & expr_mask(w);
  expr *i = expr_resize(f->bvar, w, false);
  expr *ca = expr_const(w, a), *cb = expr_const(w, b);
  expr *ai = expr_mul(ca, i);
  expr *t = expr_add(ai, cb);
  expr_unref(i), expr_unref(ca), expr_unref(cb), expr_unref(ai);
  return t;
}

static expr *build(const fit *f, expr *a, expr *b);

/* (c_a + x_a, x_b) or (x_a, c_b + x_b): the offsets c_a and 0 (or 0 and c_b) as a template. */
static expr *build_offset(const fit *f, expr *a, expr *b) {
  bool left = is_offset(a);
  expr *zero = expr_const(a->width, 0);
  expr *c = left ? affine(f, a->kid[0], zero) : affine(f, zero, b->kid[0]);
  expr *x = left ? build(f, a->kid[1], b) : build(f, a, b->kid[1]);
  expr *r = c && x ? expr_add(c, x) : NULL;
  expr_unref(zero), expr_unref(c), expr_unref(x);
  return r;
}

static expr *build(const fit *f, expr *a, expr *b) {
  if (a == b) return expr_ref(a);
  if (is_offset(a) != is_offset(b)) return build_offset(f, a, b);
  if (a->kind == EXPR_CONST) return affine(f, a, b);
  expr *kids[4] = {NULL, NULL, NULL, NULL};
  bool ok = true;
  for (unsigned k = 0; k < a->nkids && ok; k++)
    ok = (kids[k] = build(f, a->kid[k], b->kid[k])) != NULL;
  expr *r = ok ? expr_with_kids(a, kids) : NULL;
  for (unsigned k = 0; k < a->nkids; k++) expr_unref(kids[k]);
  return r;
}

expr *synth_at(expr *tmpl, expr *bvar, expr *value) {
  if (!tmpl->has_bvar) return expr_ref(tmpl);
  return expr_substitute(tmpl, &bvar, &value, 1);
}

static bool fits_all(expr *t, const synth_point *points, size_t n, expr *bvar) {
  bool ok = true;
  for (size_t j = 0; j < n && ok; j++) {
    expr *at = expr_const(64, points[j].at);
    expr *v = synth_at(t, bvar, at);
    ok = v == points[j].e;
    expr_unref(v);
    expr_unref(at);
  }
  return ok;
}

static int by_at(const void *x, const void *y) {
  const synth_point *a = x, *b = y;
  return a->at < b->at ? -1 : a->at > b->at;
}

expr *synth_fit(const synth_point *points, size_t n, expr *bvar) {
  assert(n > 0 && bvar->kind == EXPR_BVAR && bvar->width == 64);
  bool identical = true;
  for (size_t j = 1; j < n && identical; j++) identical = points[j].e == points[0].e;
  if (identical) return expr_ref(points[0].e);
  synth_point *sorted = xmalloc(n * sizeof *sorted);
  for (size_t j = 0; j < n; j++) sorted[j] = points[j];
  qsort(sorted, n, sizeof *sorted, by_at);
  expr *result = NULL;
  bool conflict = false; /* one point, two different expressions: no function of i */
  for (size_t j = 1; j < n; j++)
    conflict |= sorted[j].at == sorted[j - 1].at && sorted[j].e != sorted[j - 1].e;
  /* neighbours in order of their distance (the closest pair has the simplest slope) */
  for (uint64_t gap = 1, tried = 0; !conflict && !result && tried < MAX_PAIRS_TRIED && gap;) {
    uint64_t next_gap = 0;
    for (size_t j = 1; j < n && !result && tried < MAX_PAIRS_TRIED; j++) {
      uint64_t d = sorted[j].at - sorted[j - 1].at;
      if (d > gap && (!next_gap || d < next_gap)) next_gap = d;
      if (d != gap) continue;
      size_t budget = ALIKE_BUDGET;
      if (!alike(sorted[j - 1].e, sorted[j].e, &budget)) continue;
      tried++;
      fit f = {bvar, sorted[j - 1].at, sorted[j].at};
      expr *t = build(&f, sorted[j - 1].e, sorted[j].e);
      if (t && fits_all(t, sorted, n, bvar)) result = t;
      else
        expr_unref(t);
    }
    gap = next_gap;
  }
  free(sorted);
  return result;
}

/* ---- monotone conditions ------------------------------------------------------------------ */

/* f(i) = i or c + i, increasing (no wrap) for i in [1, hi]; i may be truncated to f's width
 * (a 32-bit counter: c + extract(i)) when hi fits in it. */
static bool increasing_index(const expr *f, const expr *bvar, uint64_t hi) {
  const expr *x = f;
  u128 c = 0;
  if (x->kind == EXPR_ADD && x->kid[0]->kind == EXPR_CONST) {
    c = x->kid[0]->u.value;
    x = x->kid[1];
  }
  unsigned w = f->width;
  if (x->kind == EXPR_EXTRACT && x->u.extract.lo == 0 && x->kid[0] == bvar && w < 64) {
    if (hi >> w) return false; /* i itself would wrap */
  } else if (x != bvar) {
    return false;
  }
  u128 mask = expr_mask(w);
  return ((1 + c) & mask) <= ((hi + c) & mask); /* both wrap or neither does */
}

synth_extreme synth_monotone(const expr *c, const expr *bvar, uint64_t hi) {
  bool negated = c->kind == EXPR_NOT;
  if (negated) c = c->kid[0];
  if (hi == 0 || (c->kind != EXPR_ULT && c->kind != EXPR_ULE)) return SYNTH_NOT_MONOTONE;
  bool left = increasing_index(c->kid[0], bvar, hi) && !c->kid[1]->has_bvar;
  bool right = increasing_index(c->kid[1], bvar, hi) && !c->kid[0]->has_bvar;
  if (!left && !right) return SYNTH_NOT_MONOTONE;
  return left != negated ? SYNTH_AT_HI : SYNTH_AT_ONE; /* f(i) below x: hardest at the top */
}

/* ---- formula patterns ---------------------------------------------------------------------- */

static expr *conjoin(expr *acc, expr *c) {
  expr *r = expr_and(acc, c);
  expr_unref(acc);
  return r;
}

bool synth_formula_pattern(const synth_leaf *leaves, size_t n, size_t nprefix, size_t ncore,
                           size_t nsuffix, expr *bvar, synth_formula *out) {
  assert(n > 0 && nprefix >= 1);
  out->phi0 = out->phi = out->psi = NULL;
  uint64_t max_count = 0;
  for (size_t j = 0; j < n; j++) {
    if (leaves[j].nconds != nprefix - 1 + leaves[j].count * ncore + nsuffix) return false;
    if (leaves[j].count > max_count) max_count = leaves[j].count;
  }
  /* φ0: the prefix's conditions, the same nodes for every leaf */
  out->phi0 = expr_true();
  for (size_t q = 0; q + 1 < nprefix; q++) {
    for (size_t j = 1; j < n; j++)
      if (leaves[j].conds[q] != leaves[0].conds[q]) goto fail;
    out->phi0 = conjoin(out->phi0, leaves[0].conds[q]);
  }
  /* φ(i): per core position, a template over the iterations 1..max_count, then checked
   * against every leaf's own iterations */
  out->phi = expr_true();
  synth_point *points = xmalloc((max_count + n + 1) * sizeof *points);
  expr **instances = xmalloc((max_count + 1) * sizeof *instances);
  bool ok = true;
  for (size_t q = 0; q < ncore && max_count > 0 && ok; q++) {
    /* the first leaf that reached iteration i: the leaves past i shrink as i grows, so the
     * first of them only moves right */
    size_t first = 0;
    for (uint64_t i = 1; i <= max_count; i++) {
      while (leaves[first].count < i) first++;
      points[i - 1] = (synth_point){i, leaves[first].conds[nprefix - 1 + (i - 1) * ncore + q]};
    }
    expr *t = synth_fit(points, max_count, bvar);
    if (!t) {
      ok = false;
      break;
    }
    for (uint64_t i = 1; i <= max_count; i++)
      instances[i] = points[i - 1].e; /* checked by the fit */
    for (size_t j = 0; j < n && ok; j++)
      for (uint64_t i = 1; i <= leaves[j].count && ok; i++)
        ok = leaves[j].conds[nprefix - 1 + (i - 1) * ncore + q] == instances[i];
    out->phi = conjoin(out->phi, t);
    expr_unref(t);
  }
  /* ψ(m): per suffix position, a template over the leaves' counts */
  out->psi = expr_true();
  for (size_t q = 0; q < nsuffix && ok; q++) {
    for (size_t j = 0; j < n; j++)
      points[j] = (synth_point){leaves[j].count,
                                leaves[j].conds[nprefix - 1 + leaves[j].count * ncore + q]};
    expr *t = synth_fit(points, n, bvar);
    if (!t) {
      ok = false;
      break;
    }
    out->psi = conjoin(out->psi, t);
    expr_unref(t);
  }
  free(points);
  free(instances);
  if (ok) return true;
fail:
  synth_formula_free(out);
  return false;
}

void synth_formula_free(synth_formula *f) {
  expr_unref(f->phi0);
  expr_unref(f->phi);
  expr_unref(f->psi);
  f->phi0 = f->phi = f->psi = NULL;
}
