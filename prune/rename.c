/* rename.c — matching up to a renaming of inputs made apart (contract in rename.h). */
#include "prune/rename.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

enum { MATCH_DEPTH_MAX = 4000 };

static uint64_t key(const void *p) { return (uint64_t)(uintptr_t)p; }

void prune_rename_begin(prune_rename *r, const state *st, expr_array *const *node_inputs,
                        size_t n) {
  memset(r, 0, sizeof *r);
  r->st = st;
  r->node_inputs = node_inputs;
  r->nnode_inputs = n;
}

void prune_rename_end(prune_rename *r) {
  hmap_free(&r->to), hmap_free(&r->from), hmap_free(&r->memo), hmap_free(&r->binds);
  hmap_free(&r->extra);
  hmap_free(&r->mine), hmap_free(&r->node);
  free(r->pairs);
  memset(r, 0, sizeof *r);
}

static void build(prune_rename *r) {
  if (r->built) return;
  r->built = true;
  hmap_reset(&r->mine, r->st->nsymbolics + 1);
  for (size_t k = 0; k < r->st->nsymbolics; k++)
    hmap_put(&r->mine, key(r->st->symbolics[k].array), 1);
  hmap_reset(&r->node, r->nnode_inputs + 1);
  for (size_t k = 0; k < r->nnode_inputs; k++) hmap_put(&r->node, key(r->node_inputs[k]), 1);
}

static bool arrays_match(prune_rename *r, expr_array *a, expr_array *b) {
  uint64_t v;
  if (hmap_get(&r->to, key(a), &v)) return v == key(b);
  if (hmap_get(&r->from, key(b), &v)) return v == key(a);
  if (a == b && !r->ancestor) return true; /* an array both hold: itself (never renamed) */
  if (a == b) {                            /* recorded: it may not be renamed later */
    hmap_put(&r->to, key(a), key(b));
    hmap_put(&r->from, key(b), key(a));
    return true;
  }
  build(r);
  /* a is the node's own and b the state's own: both fresh inputs of the same shape (an
   * ancestor's inputs are all the state's: any input of the same shape) */
  if (!a->is_input || !b->is_input) return false;
  if (!r->ancestor && (hmap_get(&r->mine, key(a), NULL) || hmap_get(&r->node, key(b), NULL) ||
                       !hmap_get(&r->node, key(a), NULL) || !hmap_get(&r->mine, key(b), NULL)))
    return false;
  if (a->capacity != b->capacity || a->size != b->size || !expr_is_const(a->size) ||
      (a->init || b->init))
    return false;
  hmap_put(&r->to, key(a), key(b));
  hmap_put(&r->from, key(b), key(a));
  if (r->npairs == r->cap_pairs) {
    r->cap_pairs = r->cap_pairs ? 2 * r->cap_pairs : 8;
    r->pairs = xrealloc(r->pairs, 2 * r->cap_pairs * sizeof *r->pairs);
  }
  r->pairs[2 * r->npairs] = a, r->pairs[2 * r->npairs + 1] = b;
  r->npairs++;
  return true;
}

static bool match(prune_rename *r, expr *a, expr *b, unsigned depth);

/* Whether a is a variable's array, or an input bound as one (prune_rename_bind_input). */
static bool is_var_array(const prune_rename *r, const expr_array *a) {
  uint64_t id = (uint64_t)a->id + 1;
  return (r->vars && hmap_get(r->vars, id, NULL)) || hmap_get(&r->extra, id, NULL);
}

/* Whether e reads one of the variables' arrays (at a constant index, no updates). */
static bool reads_var(const prune_rename *r, const expr *e) {
  return e->kind == EXPR_READ && !e->u.read.updates && expr_is_const(e->kid[0]) &&
         is_var_array(r, e->u.read.array);
}

bool prune_rename_is_var(const prune_rename *r, const expr *e) {
  return reads_var(r, e) && e->kid[0]->u.value == 0 && e->width == 8 * e->u.read.array->capacity;
}

bool prune_rename_bind_input(prune_rename *r, expr *read, expr *value) {
  expr_array *a = read->kind == EXPR_READ ? read->u.read.array : NULL;
  if (!a || !a->is_input || read->u.read.updates || !expr_is_const(read->kid[0]) ||
      read->kid[0]->u.value != 0 || read->width != 8 * a->capacity || read->width != value->width ||
      is_var_array(r, a) || hmap_get(&r->to, key(a), NULL) || hmap_get(&r->from, key(a), NULL))
    return false;
  if (!r->extra.cap) hmap_reset(&r->extra, 16);
  hmap_put(&r->extra, (uint64_t)a->id + 1, 1);
  return prune_rename_bind(r, read, value);
}

bool prune_rename_binds(const prune_rename *r, expr *var) {
  return hmap_get(&r->binds, (uint64_t)var->u.read.array->id + 1, NULL);
}

bool prune_rename_bind(prune_rename *r, expr *var, expr *value) {
  uint64_t id = (uint64_t)var->u.read.array->id + 1, v;
  if (hmap_get(&r->binds, id, &v)) return v == key(value);
  if (var->width != value->width) return false;
  if (!r->binds.cap) hmap_reset(&r->binds, 16);
  hmap_put(&r->binds, id, key(value));
  r->nbinds++;
  return true;
}

/* The read of a variable's whole array (NEW): the variable itself, as the path condition's
 * definition V = value holds it (expressions are interned: the same node). */
static expr *whole_read(expr_array *a) {
  expr *zero = expr_const(64, 0);
  expr *whole = expr_read_le(a, NULL, zero, (unsigned)a->capacity);
  expr_unref(zero);
  return whole;
}

/* a == b: σ(a) is a only if every variable in it maps to itself (binding those not yet
 * mapped) — and, against an ancestor, every array. */
static bool shared(prune_rename *r, expr *a) {
  if (expr_is_const(a) || (!r->ancestor && (!r->vars || !r->vars->count))) return true;
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(a, &arrays, &n, &cap);
  bool ok = true;
  for (size_t k = 0; k < n && ok; k++) {
    if (!is_var_array(r, arrays[k])) {
      ok = !r->ancestor || arrays_match(r, arrays[k], arrays[k]);
      continue;
    }
    expr *whole = whole_read(arrays[k]);
    ok = prune_rename_bind(r, whole, whole);
    expr_unref(whole);
  }
  free(arrays);
  return ok;
}

static bool updates_match(prune_rename *r, expr_update *a, expr_update *b, unsigned depth) {
  for (; a != b; a = a->next, b = b->next) {
    if (!a || !b || a->length != b->length) return false;
    if (!match(r, a->index, b->index, depth + 1) || !match(r, a->value, b->value, depth + 1))
      return false;
  }
  return true;
}

static bool match(prune_rename *r, expr *a, expr *b, unsigned depth) {
  /* an equal expression holds only arrays both states have: σ is the identity on them,
   * since an array is renamed only when the state does not have it */
  if (a && b && reads_var(r, a)) return prune_rename_is_var(r, a) && prune_rename_bind(r, a, b);
  if (a == b) return shared(r, a);
  if (!a || !b || depth > MATCH_DEPTH_MAX) return false;
  if (a->kind != b->kind || a->width != b->width || a->nkids != b->nkids) return false;
  uint64_t v;
  if (hmap_get(&r->memo, key(a), &v)) return v == key(b);
  switch (a->kind) {
  case EXPR_CONST: return false; /* hash-consed: equal constants are the same node */
  case EXPR_EXTRACT:
    if (a->u.extract.lo != b->u.extract.lo) return false;
    break;
  case EXPR_BVAR: return false; /* bound variables are matched only as the same node */
  case EXPR_READ:
    if (!arrays_match(r, a->u.read.array, b->u.read.array) ||
        !updates_match(r, a->u.read.updates, b->u.read.updates, depth))
      return false;
    break;
  default: break;
  }
  for (unsigned k = 0; k < a->nkids; k++)
    if (!match(r, a->kid[k], b->kid[k], depth + 1)) return false;
  if (!r->memo.cap) hmap_reset(&r->memo, 64);
  hmap_put(&r->memo, key(a), key(b));
  return true;
}

bool prune_rename_moves(const prune_rename *r, expr *e) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(e, &arrays, &n, &cap);
  bool moved = false;
  for (size_t k = 0; k < n && !moved; k++) {
    uint64_t v, id = (uint64_t)arrays[k]->id + 1;
    moved = hmap_get(&r->to, key(arrays[k]), &v) && v != key(arrays[k]);
    if (!moved && is_var_array(r, arrays[k]) && hmap_get(&r->binds, id, &v)) {
      expr *whole = whole_read(arrays[k]);
      moved = v != key(whole);
      expr_unref(whole);
    }
  }
  free(arrays);
  return moved;
}

bool prune_rename_match(prune_rename *r, expr *e_node, expr *e_state) {
  return match(r, e_node, e_state, 0);
}

/* σ(e) with a memo of rebuilt nodes (new references in `done`); NULL past the depth limit. */
static expr *apply(prune_rename *r, hmap *done, expr *e, unsigned depth) {
  uint64_t v;
  if (hmap_get(done, key(e), &v)) return expr_ref((expr *)(uintptr_t)v);
  if (depth > MATCH_DEPTH_MAX) return NULL;
  expr *kids[4] = {0};
  bool same = true, failed = false;
  for (unsigned k = 0; k < e->nkids && !failed; k++) {
    kids[k] = apply(r, done, e->kid[k], depth + 1);
    failed = !kids[k];
    same = same && kids[k] == e->kid[k];
  }
  expr *out = NULL;
  uint64_t b;
  if (failed) out = NULL;
  else if (reads_var(r, e) && hmap_get(&r->binds, (uint64_t)e->u.read.array->id + 1, &b))
    out = expr_extract((expr *)(uintptr_t)b, (unsigned)(8 * e->kid[0]->u.value), e->width);
  else if (e->kind == EXPR_READ && !e->u.read.updates && hmap_get(&r->to, key(e->u.read.array), &b))
    out = expr_read_le((expr_array *)(uintptr_t)b, NULL, kids[0], e->width / 8);
  else
    out = same ? expr_ref(e) : expr_with_kids(e, kids);
  for (unsigned k = 0; k < e->nkids; k++) expr_unref(kids[k]);
  if (out) hmap_put(done, key(e), key(expr_ref(out)));
  return out;
}

expr *prune_rename_apply(prune_rename *r, expr *e) {
  if (!r->npairs && !r->nbinds) return expr_ref(e);
  hmap done = {0};
  hmap_reset(&done, 64);
  expr *out = apply(r, &done, e, 0);
  for (size_t k = 0; k < done.cap; k++)
    if (done.keys[k]) expr_unref((expr *)(uintptr_t)done.vals[k]);
  hmap_free(&done);
  return out ? out : expr_ref(e); /* too deep to rename: the node's arrays stay, free */
}
