/*
 * expr.c — the hash-consed expression DAG (contract in expr.h).
 *
 * Layout: every node and every update-list entry lives in one of two process-wide unique
 * tables (hashmap.h's hchain: chained buckets, power-of-two sized). A constructor fills a
 * template node on the stack, runs the rewrite rules of its kind (which may return an
 * existing node), and only then interns the template: the table either hands back the
 * equal node or copies the template to the heap and takes references on its children.
 *
 * Releasing a node whose count drops to zero never recurses: the children whose count drops
 * too are pushed on an explicit stack, so a million-deep chain is freed in constant C stack.
 */
#include "engine/core/expr.h"
#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- process-wide state ------------------------------------------------------------- */

static hchain nodes;   /* of expr, by structural hash */
static hchain updates; /* of expr_update */
#define NODE_LINK offsetof(expr, chain)
#define UPDATE_LINK offsetof(expr_update, chain)
static uint64_t next_node_id = 1, next_update_id = 1;
static uint32_t next_array_id = 1, next_bvar = 1;
static size_t live_arrays;
static expr_stats stats;

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}

static uint64_t mix128(uint64_t h, u128 v) { return mix(mix(h, (uint64_t)v), (uint64_t)(v >> 64)); }

u128 expr_mask(unsigned width) {
  assert(width >= 1 && width <= 128);
  return width == 128 ? ~(u128)0 : (((u128)1 << width) - 1);
}

static u128 sign_bit(unsigned width) { return (u128)1 << (width - 1); }

static bool is_negative(u128 v, unsigned width) { return (v & sign_bit(width)) != 0; }

/* ---- interning ---------------------------------------------------------------------- */

static bool is_commutative(expr_kind k) {
  return k == EXPR_ADD || k == EXPR_MUL || k == EXPR_AND || k == EXPR_OR || k == EXPR_XOR ||
         k == EXPR_EQ;
}

static uint64_t structural_hash(const expr *t) {
  uint64_t h = mix(0x5a17ULL + (uint64_t)t->kind, t->width);
  switch (t->kind) {
  case EXPR_CONST: return mix128(h, t->u.value);
  case EXPR_READ:
    h = mix(h, t->u.read.array->id);
    h = mix(h, t->u.read.updates ? t->u.read.updates->hash : 0);
    break;
  case EXPR_EXTRACT: h = mix(h, t->u.extract.lo); break;
  case EXPR_BVAR: return mix(h, t->u.bvar.var);
  default: break;
  }
  for (unsigned i = 0; i < t->nkids; i++) h = mix(h, t->kid[i]->hash);
  return h;
}

enum { PHASH_CONST = 0x0c0457a47ULL };

/* pat-merge.md §4: constants alike, `c + x` as `x`, update lists ignored, negation kept. */
static uint64_t pattern_hash(const expr *t) {
  switch (t->kind) {
  case EXPR_CONST: return PHASH_CONST;
  case EXPR_ADD:
    if (t->kid[0]->kind == EXPR_CONST) return t->kid[1]->phash;
    break;
  case EXPR_READ: {
    uint64_t h = mix(0x7ead0000ULL + t->width, t->u.read.array->id);
    return mix(h, t->kid[0]->phash);
  }
  case EXPR_BVAR: return mix(0xb0a40000ULL, t->width);
  default: break;
  }
  uint64_t h = mix(0x9a770000ULL + (uint64_t)t->kind, t->width);
  if (t->kind == EXPR_EXTRACT) h = mix(h, t->u.extract.lo);
  if (is_commutative(t->kind)) {
    /* operands are ordered by id, which `c + x` → `x` does not preserve: order by hash */
    uint64_t a = t->kid[0]->phash, b = t->kid[1]->phash;
    return a < b ? mix(mix(h, a), b) : mix(mix(h, b), a);
  }
  for (unsigned i = 0; i < t->nkids; i++) h = mix(h, t->kid[i]->phash);
  return h;
}

uint64_t expr_phash_salted(const expr *e, uint64_t salt) { return mix(e->phash, salt); }

static bool same_node(const expr *a, const expr *t) {
  if (a->kind != t->kind || a->width != t->width || a->nkids != t->nkids) return false;
  for (unsigned i = 0; i < t->nkids; i++)
    if (a->kid[i] != t->kid[i]) return false;
  switch (t->kind) {
  case EXPR_CONST: return a->u.value == t->u.value;
  case EXPR_READ:
    return a->u.read.array == t->u.read.array && a->u.read.updates == t->u.read.updates;
  case EXPR_EXTRACT: return a->u.extract.lo == t->u.extract.lo;
  case EXPR_BVAR: return a->u.bvar.var == t->u.bvar.var;
  default: return true;
  }
}

/* Returns a new reference to the node equal to template t (whose kids are borrowed). */
static expr *intern(expr *t) {
  if (hchain_is_full(&nodes)) hchain_grow(&nodes, 4096, NODE_LINK, offsetof(expr, hash));
  t->hash = structural_hash(t);
  for (expr *e = hchain_bucket(&nodes, t->hash); e; e = e->chain) {
    if (e->hash == t->hash && same_node(e, t)) {
      stats.interned_hits++;
      e->refcount++;
      return e;
    }
  }
  expr *e = xmalloc(sizeof *e);
  *e = *t;
  e->refcount = 1;
  e->id = next_node_id++;
  e->has_bvar = t->kind == EXPR_BVAR;
  e->has_forall = t->kind == EXPR_FORALL;
  for (unsigned i = 0; i < e->nkids; i++) {
    e->kid[i]->refcount++;
    e->has_bvar |= e->kid[i]->has_bvar;
    e->has_forall |= e->kid[i]->has_forall;
  }
  if (e->kind == EXPR_FORALL) /* the body's only bound variable is its own (expr.h) */
    e->has_bvar = e->kid[1]->has_bvar || e->kid[2]->has_bvar;
  if (e->kind == EXPR_READ) {
    expr_array_ref(e->u.read.array);
    expr_update_ref(e->u.read.updates); /* update lists hold no bound variable */
    e->has_forall |= e->u.read.updates && e->u.read.updates->has_forall;
  }
  if (e->kind == EXPR_BVAR) e->u.bvar.name = xstrdup(t->u.bvar.name ? t->u.bvar.name : "i");
  e->phash = pattern_hash(e);
  hchain_insert(&nodes, e, e->hash, NODE_LINK);
  stats.created++;
  return e;
}

static expr template_of(expr_kind kind, unsigned width, unsigned nkids) {
  expr t;
  memset(&t, 0, sizeof t);
  t.kind = kind;
  t.width = (uint16_t)width;
  t.nkids = (uint8_t)nkids;
  return t;
}

static expr *make1(expr_kind kind, unsigned width, expr *a) {
  expr t = template_of(kind, width, 1);
  t.kid[0] = a;
  return intern(&t);
}

static expr *make2(expr_kind kind, unsigned width, expr *a, expr *b) {
  expr t = template_of(kind, width, 2);
  t.kid[0] = a;
  t.kid[1] = b;
  return intern(&t);
}

/* ---- release ------------------------------------------------------------------------ */

enum { TAG_EXPR = 0, TAG_UPDATE = 1, TAG_ARRAY = 2, TAG_MASK = 3 };

typedef struct release_stack {
  uintptr_t *items;
  size_t count, cap;
} release_stack;

static void push_tagged(release_stack *s, void *p, unsigned tag) {
  if (s->count == s->cap) {
    s->cap = s->cap ? s->cap * 2 : 64;
    s->items = xrealloc(s->items, s->cap * sizeof *s->items);
  }
  s->items[s->count++] = (uintptr_t)p | tag;
}

static void drop_expr(release_stack *s, expr *e) {
  if (e && --e->refcount == 0) push_tagged(s, e, TAG_EXPR);
}

static void drop_update(release_stack *s, expr_update *u) {
  if (u && --u->refcount == 0) push_tagged(s, u, TAG_UPDATE);
}

static void drop_array(release_stack *s, expr_array *a) {
  if (a && --a->refcount == 0) push_tagged(s, a, TAG_ARRAY);
}

static void unlink_node(expr *e) { hchain_remove(&nodes, e, e->hash, NODE_LINK); }

static void unlink_update(expr_update *u) { hchain_remove(&updates, u, u->hash, UPDATE_LINK); }

static void release_all(release_stack *s) {
  while (s->count) {
    uintptr_t item = s->items[--s->count];
    void *p = (void *)(item & ~(uintptr_t)TAG_MASK);
    switch (item & TAG_MASK) {
    case TAG_EXPR: {
      expr *e = p;
      unlink_node(e);
      for (unsigned i = 0; i < e->nkids; i++) drop_expr(s, e->kid[i]);
      if (e->kind == EXPR_READ) {
        drop_array(s, e->u.read.array);
        drop_update(s, e->u.read.updates);
      }
      if (e->kind == EXPR_BVAR) free((char *)e->u.bvar.name);
      free(e);
      break;
    }
    case TAG_UPDATE: {
      expr_update *u = p;
      unlink_update(u);
      drop_expr(s, u->index);
      drop_expr(s, u->value);
      drop_update(s, u->next);
      drop_array(s, u->array);
      free(u);
      break;
    }
    default: {
      expr_array *a = p;
      drop_expr(s, a->size);
      free((char *)a->name);
      free((uint8_t *)a->init);
      free(a);
      live_arrays--;
      break;
    }
    }
  }
  free(s->items);
}

expr *expr_ref(expr *e) {
  if (e) e->refcount++;
  return e;
}

void expr_unref(expr *e) {
  release_stack s = {0};
  drop_expr(&s, e);
  release_all(&s);
}

size_t expr_live_count(void) { return nodes.count; }
size_t expr_live_arrays(void) { return live_arrays; }
size_t expr_live_updates(void) { return updates.count; }
expr_stats expr_get_stats(void) { return stats; }

void expr_stats_json(json_writer *j, const expr_stats *s) {
  json_object_begin(j);
  JSON_COUNTERS(j, {"created", s->created}, {"interned_hits", s->interned_hits},
                {"folded", s->folded}, {"rewrites", s->rewrites});
  json_object_end(j);
}

/* ---- constants ---------------------------------------------------------------------- */

expr *expr_const(unsigned width, u128 value) {
  expr t = template_of(EXPR_CONST, width, 0);
  t.u.value = value & expr_mask(width);
  return intern(&t);
}

expr *expr_true(void) { return expr_const(1, 1); }
expr *expr_false(void) { return expr_const(1, 0); }
expr *expr_bool(bool b) { return expr_const(1, b); }
bool expr_is_const(const expr *e) { return e->kind == EXPR_CONST; }
bool expr_is_true(const expr *e) { return e->kind == EXPR_CONST && e->width == 1 && e->u.value; }
bool expr_is_false(const expr *e) { return e->kind == EXPR_CONST && e->width == 1 && !e->u.value; }

static bool is_value(const expr *e, u128 v) { return e->kind == EXPR_CONST && e->u.value == v; }
static bool is_ones(const expr *e) { return is_value(e, expr_mask(e->width)); }

/* ---- arrays and update lists -------------------------------------------------------- */

expr_array *expr_array_new(const char *name, expr *size, uint64_t capacity, bool is_input,
                           const uint8_t *init) {
  assert(size && size->width == 64);
  expr_array *a = xcalloc(1, sizeof *a);
  a->name = xstrdup(name);
  a->id = next_array_id++;
  a->refcount = 1;
  a->size = expr_ref(size);
  a->capacity = capacity;
  a->is_input = is_input;
  if (init) {
    uint8_t *copy = xmalloc(capacity);
    memcpy(copy, init, capacity);
    a->init = copy;
  }
  live_arrays++;
  return a;
}

expr_array *expr_array_ref(expr_array *a) {
  if (a) a->refcount++;
  return a;
}

void expr_array_unref(expr_array *a) {
  release_stack s = {0};
  drop_array(&s, a);
  release_all(&s);
}

expr_update *expr_update_push(expr_array *a, expr_update *next, expr *index, expr *value) {
  assert(index->width == 64 && value->width == 8);
  assert(!next || next->array == a);
  assert(!index->has_bvar && !value->has_bvar);
  if (hchain_is_full(&updates))
    hchain_grow(&updates, 1024, UPDATE_LINK, offsetof(expr_update, hash));
  uint64_t h =
      mix(mix(mix(mix(0x0bdaULL, a->id), next ? next->hash : 0), index->hash), value->hash);
  for (expr_update *u = hchain_bucket(&updates, h); u; u = u->chain) {
    if (u->hash == h && u->array == a && u->next == next && u->index == index &&
        u->value == value) {
      u->refcount++;
      return u;
    }
  }
  expr_update *u = xmalloc(sizeof *u);
  u->array = expr_array_ref(a);
  u->next = expr_update_ref(next);
  u->index = expr_ref(index);
  u->value = expr_ref(value);
  u->hash = h;
  u->id = next_update_id++;
  u->refcount = 1;
  u->length = next ? next->length + 1 : 1;
  u->has_forall = index->has_forall || value->has_forall || (next && next->has_forall);
  hchain_insert(&updates, u, h, UPDATE_LINK);
  return u;
}

expr_update *expr_update_ref(expr_update *u) {
  if (u) u->refcount++;
  return u;
}

void expr_update_unref(expr_update *u) {
  release_stack s = {0};
  drop_update(&s, u);
  release_all(&s);
}

static expr *make_read(expr_array *a, expr_update *ups, expr *index, unsigned width) {
  expr t = template_of(EXPR_READ, width, 1);
  t.kid[0] = index;
  t.u.read.array = a;
  t.u.read.updates = ups;
  return intern(&t);
}

static unsigned trailing_zeros(u128 v, unsigned width) {
  unsigned t = 0;
  while (t < width && !((v >> t) & 1)) t++;
  return t;
}

/* The low bits of e that hold whatever its variables are: c + k·x with 2^t | k knows the
 * low t bits (c mod 2^t), as 8·i + 4 never meets 8·j. A few levels deep, no more: the
 * indices worth it are affine. */
static expr_low_bits low_bits(const expr *e, unsigned depth) {
  unsigned w = e->width;
  expr_low_bits r = {0, 0};
  if (e->kind == EXPR_CONST) return (expr_low_bits){e->u.value, w};
  if (depth == 0) return r;
  switch (e->kind) {
  case EXPR_ADD: {
    expr_low_bits a = low_bits(e->kid[0], depth - 1), b = low_bits(e->kid[1], depth - 1);
    r.known = a.known < b.known ? a.known : b.known;
    r.value = a.value + b.value;
    break;
  }
  case EXPR_MUL:
  case EXPR_SHL: {
    const expr *k = e->kind == EXPR_MUL ? e->kid[0] : e->kid[1];
    const expr *x = e->kind == EXPR_MUL ? e->kid[1] : e->kid[0];
    if (k->kind != EXPR_CONST || (e->kind == EXPR_SHL && k->u.value >= w)) break;
    u128 factor = e->kind == EXPR_MUL ? k->u.value : (u128)1 << k->u.value;
    expr_low_bits b = low_bits(x, depth - 1);
    unsigned t = trailing_zeros(factor, w);
    r.known = t + b.known < w ? t + b.known : w; /* 2^t·c'·x mod 2^(t+kb) needs x mod 2^kb */
    r.value = factor * b.value;
    break;
  }
  case EXPR_ZEXT:
  case EXPR_SEXT: r = low_bits(e->kid[0], depth - 1); break;
  default: break;
  }
  r.value = r.known ? r.value & expr_mask(r.known) : 0;
  return r;
}

expr_low_bits expr_known_low_bits(const expr *e) { return low_bits(e, 6); }

bool expr_low_bits_differ(expr_low_bits a, expr_low_bits b) {
  unsigned k = a.known < b.known ? a.known : b.known;
  return k && ((a.value ^ b.value) & expr_mask(k)) != 0;
}

/* ---- operators over a merged constant ------------------------------------------------ */

/* A merged state's value chosen among constants: ite(g1, c1, ite(g2, c2, … cn)) — a
 * pointer, a length, a count after a CFG merge, where each member had a constant (the tree
 * construction shares subtrees, so it is a DAG). An operator applied to it and a constant is
 * applied to each constant (op(c, ite(g, x, y)) = ite(g, op(c, x), op(c, y))), so the result
 * is again an ite over constants and folds where the forked members' constants fold: a
 * bounds check on a merged pointer becomes true when every member's pointer is in bounds, a
 * branch `len == 3` becomes the guards of the members whose length is 3, and a read at a
 * merged index becomes the members' reads at constant indices, instead of Z3 bit-blasting a
 * 64-bit adder and comparator over the ite. Only for DAGs of at most ITE_LIFT_NODES ite
 * nodes, each rebuilt once. */
#define ITE_LIFT_NODES 32

static expr *rewritten(expr *e);

/* The distinct ite nodes of an ite DAG over constants, and their lifted copies. */
typedef struct ite_dag {
  const expr *node[ITE_LIFT_NODES];
  expr *lifted[ITE_LIFT_NODES];
  size_t n;
} ite_dag;

static bool dag_holds(const ite_dag *d, const expr *e, size_t *at) {
  for (size_t k = 0; k < d->n; k++)
    if (d->node[k] == e) {
      if (at) *at = k;
      return true;
    }
  return false;
}

/* Collects e's ite nodes into d: false when a leaf is not a constant or there are more
 * than ITE_LIFT_NODES of them. */
static bool collect_const_ite(ite_dag *d, const expr *e) {
  if (e->kind == EXPR_CONST) return true;
  if (e->kind != EXPR_ITE) return false;
  if (dag_holds(d, e, NULL)) return true;
  if (d->n == ITE_LIFT_NODES) return false;
  d->node[d->n] = e;
  d->lifted[d->n++] = NULL;
  return collect_const_ite(d, e->kid[1]) && collect_const_ite(d, e->kid[2]);
}

static bool const_ite(ite_dag *d, const expr *e) {
  d->n = 0;
  return e->kind == EXPR_ITE && collect_const_ite(d, e);
}

/* What a lifted operator does at one leaf: leaf is a constant, the result a new reference. */
typedef struct ite_leaf_op {
  expr *(*apply)(const struct ite_leaf_op *op, expr *leaf);
  expr_kind kind;
  expr *other;       /* the binary operator's other operand */
  bool leaf_first;   /* the leaf is the left operand */
  unsigned width;    /* an extension's or extract's */
  unsigned lo;       /* an extract's */
  expr_array *array; /* a read's */
  expr_update *updates;
} ite_leaf_op;

/* ite(g, op(x), op(y)) over the DAG d holds (const_ite's), each ite node rebuilt once. */
static expr *lift_node(const ite_leaf_op *op, ite_dag *d, expr *e) {
  if (e->kind != EXPR_ITE) return op->apply(op, e);
  size_t at = 0;
  bool held = dag_holds(d, e, &at);
  assert(held);
  (void)held;
  if (!d->lifted[at]) {
    expr *then = lift_node(op, d, e->kid[1]);
    expr *otherwise = lift_node(op, d, e->kid[2]);
    d->lifted[at] = expr_ite(e->kid[0], then, otherwise);
    expr_unref(then);
    expr_unref(otherwise);
  }
  return expr_ref(d->lifted[at]);
}

static expr *lift_over_ite(const ite_leaf_op *op, ite_dag *d, expr *e) {
  expr *r = lift_node(op, d, e);
  for (size_t k = 0; k < d->n; k++) expr_unref(d->lifted[k]);
  return rewritten(r);
}

static expr *leaf_binary(const ite_leaf_op *op, expr *leaf) {
  return op->leaf_first ? expr_binary(op->kind, leaf, op->other)
                        : expr_binary(op->kind, op->other, leaf);
}

static expr *leaf_unary(const ite_leaf_op *op, expr *leaf) {
  switch (op->kind) {
  case EXPR_ZEXT: return expr_zext(leaf, op->width);
  case EXPR_SEXT: return expr_sext(leaf, op->width);
  case EXPR_EXTRACT: return expr_extract(leaf, op->lo, op->width);
  default: return expr_not(leaf);
  }
}

static expr *leaf_read(const ite_leaf_op *op, expr *leaf) {
  return expr_read(op->array, op->updates, leaf);
}

static bool is_comparison(expr_kind k) {
  return k == EXPR_EQ || k == EXPR_ULT || k == EXPR_ULE || k == EXPR_SLT || k == EXPR_SLE;
}

/* op(a, b) with one operand a constant and the other an ite over constants, lifted; NULL
 * otherwise. A comparison is lifted whatever its other operand (not an ite): its leaves are
 * the few `k <= n` for the members' constants k, where Z3 would blast a 64-bit mux under a
 * comparator (apr_collapse_spaces' merged length against the input's). */
static expr *lift_binary(expr_kind kind, expr *a, expr *b) {
  bool leaf_first = a->kind == EXPR_ITE; /* the ite is the left operand */
  expr *tree = leaf_first ? a : b, *other = leaf_first ? b : a;
  ite_dag d;
  if (other->kind != EXPR_CONST && (!is_comparison(kind) || other->kind == EXPR_ITE)) return NULL;
  if (!const_ite(&d, tree)) return NULL;
  ite_leaf_op op = {.apply = leaf_binary, .kind = kind, .other = other, .leaf_first = leaf_first};
  return lift_over_ite(&op, &d, tree);
}

static expr *lift_unary(expr_kind kind, expr *a, unsigned lo, unsigned width) {
  ite_dag d;
  if (!const_ite(&d, a)) return NULL;
  ite_leaf_op op = {.apply = leaf_unary, .kind = kind, .width = width, .lo = lo};
  return lift_over_ite(&op, &d, a);
}

/* A read at an ite over constant indices, each within the array: the members' reads at those
 * indices. A leaf past the capacity keeps the read as it is (a read past the array is not
 * the same term at a constant index as at a symbolic one in every encoding). */
static expr *lift_read(expr_array *a, expr_update *ups, expr *index) {
  ite_dag d;
  if (!const_ite(&d, index)) return NULL;
  for (size_t k = 0; k < d.n; k++)
    for (unsigned j = 1; j <= 2; j++)
      if (d.node[k]->kid[j]->kind == EXPR_CONST && d.node[k]->kid[j]->u.value >= a->capacity)
        return NULL;
  ite_leaf_op op = {.apply = leaf_read, .array = a, .updates = ups};
  return lift_over_ite(&op, &d, index);
}

/* A write at w cannot hit the cell at `index`: both constant and different, or their
 * known low bits differ. */
static bool cells_differ(const expr *w, const expr *index) {
  if (w->kind == EXPR_CONST && index->kind == EXPR_CONST) return w->u.value != index->u.value;
  return expr_low_bits_differ(expr_known_low_bits(w), expr_known_low_bits(index));
}

expr *expr_read(expr_array *a, expr_update *ups, expr *index) {
  assert(index->width == 64 && (!ups || ups->array == a));
  expr *lifted = lift_read(a, ups, index);
  if (lifted) return lifted;
  /* Read over write: skip writes that provably hit another cell, stop at one that may. */
  for (; ups; ups = ups->next) {
    if (ups->index == index) {
      stats.read_over_write++;
      return expr_ref(ups->value);
    }
    if (!cells_differ(ups->index, index)) break;
    stats.read_over_write++;
  }
  if (!ups && a->init && index->kind == EXPR_CONST && index->u.value < a->capacity)
    return expr_const(8, a->init[(size_t)index->u.value]);
  return make_read(a, ups, index, 8);
}

expr *expr_read_le(expr_array *a, expr_update *ups, expr *index, unsigned nbytes) {
  assert(nbytes >= 1 && nbytes <= 16);
  expr *result = expr_read(a, ups, index);
  for (unsigned k = 1; k < nbytes; k++) {
    expr *offset = expr_const(64, k);
    expr *at = expr_add(index, offset);
    expr *byte = expr_read(a, ups, at);
    expr *wider = expr_concat(byte, result);
    expr_unref(offset);
    expr_unref(at);
    expr_unref(byte);
    expr_unref(result);
    result = wider;
  }
  return result;
}

/* ---- constant folding --------------------------------------------------------------- */

static u128 fold_binary(expr_kind kind, unsigned w, u128 a, u128 b) {
  u128 m = expr_mask(w);
  switch (kind) {
  case EXPR_ADD: return (a + b) & m;
  case EXPR_SUB: return (a - b) & m;
  case EXPR_MUL: return (a * b) & m;
  case EXPR_UDIV: return b == 0 ? m : a / b;
  case EXPR_UREM: return b == 0 ? a : a % b;
  case EXPR_SDIV:
  case EXPR_SREM: {
    bool na = is_negative(a, w), nb = is_negative(b, w);
    if (b == 0) return kind == EXPR_SREM ? a : (na ? 1 : m);
    u128 ua = na ? (-a) & m : a, ub = nb ? (-b) & m : b;
    if (kind == EXPR_SDIV) {
      u128 q = ua / ub;
      return (na != nb ? -q : q) & m;
    }
    u128 r = ua % ub;
    return (na ? -r : r) & m;
  }
  case EXPR_SHL: return b >= w ? 0 : (a << b) & m;
  case EXPR_LSHR: return b >= w ? 0 : a >> b;
  case EXPR_ASHR: {
    bool neg = is_negative(a, w);
    if (b >= w) return neg ? m : 0;
    u128 r = a >> b;
    if (neg && b > 0) r |= m & ~(m >> b);
    return r;
  }
  case EXPR_AND: return a & b;
  case EXPR_OR: return a | b;
  case EXPR_XOR: return a ^ b;
  case EXPR_EQ: return a == b;
  case EXPR_NE: return a != b;
  case EXPR_ULT: return a < b;
  case EXPR_ULE: return a <= b;
  case EXPR_UGT: return a > b;
  case EXPR_UGE: return a >= b;
  case EXPR_SLT: return (a ^ sign_bit(w)) < (b ^ sign_bit(w));
  case EXPR_SLE: return (a ^ sign_bit(w)) <= (b ^ sign_bit(w));
  case EXPR_SGT: return (a ^ sign_bit(w)) > (b ^ sign_bit(w));
  case EXPR_SGE: return (a ^ sign_bit(w)) >= (b ^ sign_bit(w));
  default: assert(!"not a binary kind"); return 0;
  }
}

static expr *folded(unsigned width, u128 value) {
  stats.folded++;
  return expr_const(width, value);
}

static expr *rewritten(expr *e) {
  stats.rewrites++;
  return e;
}

/* ---- operators ---------------------------------------------------------------------- */

static expr *add_const(expr *x, u128 c) {
  expr *k = expr_const(x->width, c);
  expr *r = expr_add(k, x);
  expr_unref(k);
  return r;
}

static expr *division_identity(expr *a, expr *b);

static expr *simplify_add(expr *a, expr *b) {
  /* a is the constant when there is one (canonical order) */
  if (a->kind == EXPR_CONST) {
    if (a->u.value == 0) return rewritten(expr_ref(b));
    if (b->kind == EXPR_ADD && b->kid[0]->kind == EXPR_CONST)
      return rewritten(add_const(b->kid[1], a->u.value + b->kid[0]->u.value));
    return NULL;
  }
  return division_identity(a, b);
}

static expr *simplify_mul(expr *a, expr *b) {
  if (a->kind == EXPR_CONST) {
    if (a->u.value == 0) return rewritten(expr_ref(a));
    if (a->u.value == 1) return rewritten(expr_ref(b));
    if (b->kind == EXPR_MUL && b->kid[0]->kind == EXPR_CONST) {
      expr *k = expr_const(a->width, a->u.value * b->kid[0]->u.value);
      expr *r = expr_mul(k, b->kid[1]);
      expr_unref(k);
      return rewritten(r);
    }
  }
  if (a->width == 1) return rewritten(expr_and(a, b));
  return NULL;
}

static bool are_complements(const expr *a, const expr *b) {
  return (a->kind == EXPR_NOT && a->kid[0] == b) || (b->kind == EXPR_NOT && b->kid[0] == a);
}

static expr *simplify_bitwise(expr_kind kind, expr *a, expr *b) {
  unsigned w = a->width;
  if (a == b) return rewritten(kind == EXPR_XOR ? expr_const(w, 0) : expr_ref(a));
  if (are_complements(a, b))
    return rewritten(kind == EXPR_AND ? expr_const(w, 0) : expr_const(w, expr_mask(w)));
  /* zext x op zext y → zext (x op y): the high bits are 0 op 0 = 0. Branch-free C (ctype.c's
   * classes, in_set's `found |= *p == c`) or-s comparisons widened to int; narrowed, a test
   * of the result is the comparisons' own boolean, not 32-bit arithmetic around them. */
  if (a->kind == EXPR_ZEXT && b->kind == EXPR_ZEXT && a->kid[0]->width == b->kid[0]->width) {
    expr *narrow = expr_binary(kind, a->kid[0], b->kid[0]);
    expr *r = expr_zext(narrow, w);
    expr_unref(narrow);
    return rewritten(r);
  }
  if (a->kind != EXPR_CONST) return NULL;
  switch (kind) {
  case EXPR_AND:
    if (a->u.value == 0) return rewritten(expr_ref(a));
    if (is_ones(a)) return rewritten(expr_ref(b));
    break;
  case EXPR_OR:
    if (a->u.value == 0) return rewritten(expr_ref(b));
    if (is_ones(a)) return rewritten(expr_ref(a));
    break;
  default:
    if (a->u.value == 0) return rewritten(expr_ref(b));
    if (is_ones(a)) return rewritten(expr_not(b));
    break;
  }
  /* c1 op (c2 op y) → (c1 op c2) op y */
  if (b->kind == kind && b->kid[0]->kind == EXPR_CONST) {
    expr *k = expr_const(w, fold_binary(kind, w, a->u.value, b->kid[0]->u.value));
    expr *r = expr_binary(kind, k, b->kid[1]);
    expr_unref(k);
    return rewritten(r);
  }
  return NULL;
}

/* c·k when it fits in `width` bits (c ≠ 0). */
static bool product_fits(u128 c, u128 k, unsigned width, u128 *out) {
  if (k > expr_mask(width) / c) return false;
  *out = c * k;
  return true;
}

/* x udiv c for a constant c ≠ 0: the x, else NULL. */
static expr *udiv_by_const(const expr *e, u128 *c) {
  if (e->kind != EXPR_UDIV || e->kid[1]->kind != EXPR_CONST || e->kid[1]->u.value == 0) return NULL;
  *c = e->kid[1]->u.value;
  return e->kid[0];
}

static expr *simplify_eq(expr *a, expr *b) {
  if (a == b) return rewritten(expr_true());
  if (a->kind != EXPR_CONST) return NULL;
  unsigned w = a->width;
  if (w == 1) return rewritten(a->u.value ? expr_ref(b) : expr_not(b));
  u128 c;
  if (a->u.value == 0 && udiv_by_const(b, &c)) /* 0 == x/c ⟺ x < c */
    return rewritten(expr_ult(b->kid[0], b->kid[1]));
  if (b->kind == EXPR_ADD && b->kid[0]->kind == EXPR_CONST) { /* c == c2 + y → c − c2 == y */
    expr *k = expr_const(w, a->u.value - b->kid[0]->u.value);
    expr *r = expr_eq(k, b->kid[1]);
    expr_unref(k);
    return rewritten(r);
  }
  if (b->kind == EXPR_ZEXT || b->kind == EXPR_SEXT) {
    expr *y = b->kid[0];
    u128 low = a->u.value & expr_mask(y->width);
    u128 extended = low;
    if (b->kind == EXPR_SEXT && is_negative(low, y->width))
      extended = (low | ~expr_mask(y->width)) & expr_mask(w);
    if (extended != a->u.value) return rewritten(expr_false());
    expr *k = expr_const(y->width, low);
    expr *r = expr_eq(k, y);
    expr_unref(k);
    return rewritten(r);
  }
  return NULL;
}

/* A bound on x udiv c is a bound on x (c ≠ 0, k constant; over the integers, since x ≤ mask):
 *   x/c < k ⟺ x < c·k        x/c ≤ k ⟺ x < c·(k+1)
 *   k < x/c ⟺ c·(k+1) ≤ x    k ≤ x/c ⟺ c·k ≤ x
 * and a product past the width makes the comparison constant. A decimal printer's
 * `while (v /= 10)` thus branches on v ≥ 10^k instead of k nested 64-bit divisions. */
static expr *simplify_udiv_order(expr_kind kind, expr *a, expr *b) {
  unsigned w = a->width;
  u128 c, bound;
  bool x_left = b->kind == EXPR_CONST; /* x/c < k, x/c ≤ k; else k < x/c, k ≤ x/c */
  expr *x = x_left ? udiv_by_const(a, &c) : a->kind == EXPR_CONST ? udiv_by_const(b, &c) : NULL;
  if (!x) return NULL;
  u128 k = x_left ? b->u.value : a->u.value;
  bool plus_one = (kind == EXPR_ULE) == x_left;
  bool fits = plus_one ? k < expr_mask(w) && product_fits(c, k + 1, w, &bound)
                       : product_fits(c, k, w, &bound);
  if (!fits) return rewritten(expr_bool(x_left)); /* the bound passes every x */
  expr *kb = expr_const(w, bound);
  expr *r = x_left ? expr_ult(x, kb) : expr_ule(kb, x);
  expr_unref(kb);
  return rewritten(r);
}

static expr *simplify_order(expr_kind kind, expr *a, expr *b) {
  unsigned w = a->width;
  if (a == b) return rewritten(expr_bool(kind == EXPR_ULE || kind == EXPR_SLE));
  switch (kind) {
  case EXPR_ULT:
    if (is_value(b, 0) || is_ones(a)) return rewritten(expr_false());
    return simplify_udiv_order(kind, a, b);
  case EXPR_ULE:
    if (is_value(a, 0) || is_ones(b)) return rewritten(expr_true());
    return simplify_udiv_order(kind, a, b);
  case EXPR_SLT:
    if (is_value(b, sign_bit(w)) || is_value(a, expr_mask(w) >> 1)) return rewritten(expr_false());
    break;
  default:
    if (is_value(a, sign_bit(w)) || is_value(b, expr_mask(w) >> 1)) return rewritten(expr_true());
    break;
  }
  return NULL;
}

/* The fewest low bits of `e` that determine it, for a division of signedness `is_signed` at
 * e's width: n such that e = ext(low n bits of e) (sext when signed, zext when unsigned), for
 * an extension or a constant; 0 when e is neither (or needs its full width). */
static unsigned narrow_bits(const expr *e, bool is_signed) {
  unsigned w = e->width;
  if (e->kind == EXPR_ZEXT) return e->kid[0]->width + (is_signed ? 1 : 0); /* sign bit 0 */
  if (e->kind == EXPR_SEXT) return is_signed ? e->kid[0]->width : 0;
  if (e->kind != EXPR_CONST) return 0;
  u128 v = e->u.value;
  unsigned n = 1;
  if (is_signed) { /* the bits of |v| and a sign: v fits in n iff its top w−n+1 bits agree */
    u128 top = is_negative(v, w) ? (~v & expr_mask(w)) : v;
    while (n < w && (top >> (n - 1)) != 0) n++;
  } else {
    while (n < w && (v >> n) != 0) n++;
  }
  return n;
}

/* A division of extended operands done at the narrow width, which Z3 bit-blasts into a
 * divider of that width instead of w (sem_div_rem's (int)n8 / d8: 8 bits, not 32). With n
 * the wider of the operands' narrow widths (narrow_bits) and every value below meant at
 * n bits (a, b the operands' low n bits; each fits there, so it is exact):
 *   srem: sext(a srem b): |a srem b| ≤ |a|, the dividend's sign; b = 0 gives a either way.
 *   urem: zext(a urem b): a urem b ≤ a; b = 0 gives a.
 *   sdiv: sext(a' sdiv b') at n+1 bits: the quotient of n-bit values fits in n+1 bits signed,
 *         the minimum / −1 included (it overflows at n); b = 0 gives ±1 at both widths.
 *   udiv: zext(a udiv b) when b is a constant ≠ 0; else sext(a' udiv b') at n+1 bits, whose
 *         quotient a/b ≤ a < 2^n keeps the top bit 0, and b = 0's all ones extends to w's.
 * Only when the divider it asks for is narrower than w. */
static expr *narrow_division(expr_kind kind, expr *a, expr *b) {
  unsigned w = a->width;
  bool is_signed = kind == EXPR_SDIV || kind == EXPR_SREM;
  unsigned na = narrow_bits(a, is_signed), nb = narrow_bits(b, is_signed);
  if (na == 0 || nb == 0) return NULL;
  unsigned n = na > nb ? na : nb;
  bool by_nonzero_const = b->kind == EXPR_CONST && b->u.value != 0;
  if (kind == EXPR_SDIV || (kind == EXPR_UDIV && !by_nonzero_const)) n++;
  if (n >= w) return NULL;
  expr *an = expr_extract(a, 0, n), *bn = expr_extract(b, 0, n);
  expr *q = expr_binary(kind, an, bn);
  bool sign_extend = is_signed || (kind == EXPR_UDIV && !by_nonzero_const);
  expr *r = sign_extend ? expr_sext(q, w) : expr_zext(q, w);
  expr_unref(an);
  expr_unref(bn);
  expr_unref(q);
  return rewritten(r);
}

/* e as `x op y` at width w for a division or remainder op, looking through narrow_division:
 * an extension of a narrow division is that division's operands extended back to w (sext
 * for the signed ops, zext for the unsigned), accepted only when op rebuilds e itself (the
 * unique table makes that a pointer comparison, so a narrow division the program wrote
 * does not pass for a wide one). x and y are new references. */
static bool division_parts(expr *e, expr_kind *op, expr **x, expr **y) {
  expr *q = e->kind == EXPR_SEXT || e->kind == EXPR_ZEXT ? e->kid[0] : e;
  if (q->kind != EXPR_UDIV && q->kind != EXPR_SDIV && q->kind != EXPR_UREM && q->kind != EXPR_SREM)
    return false;
  *op = q->kind;
  if (q == e) {
    *x = expr_ref(q->kid[0]);
    *y = expr_ref(q->kid[1]);
    return true;
  }
  bool is_signed = q->kind == EXPR_SDIV || q->kind == EXPR_SREM;
  *x = is_signed ? expr_sext(q->kid[0], e->width) : expr_zext(q->kid[0], e->width);
  *y = is_signed ? expr_sext(q->kid[1], e->width) : expr_zext(q->kid[1], e->width);
  expr *rebuilt = expr_binary(q->kind, *x, *y);
  bool same = rebuilt == e;
  expr_unref(rebuilt);
  if (!same) {
    expr_unref(*x);
    expr_unref(*y);
  }
  return same;
}

/* m = (x div y)·y in either order, for the division `div` (udiv or sdiv): the x, else NULL
 * (borrowed: the caller's own x). */
static expr *product_of_quotient(expr *m, expr_kind div, expr *x, expr *y) {
  if (m->kind != EXPR_MUL) return NULL;
  for (unsigned i = 0; i < 2; i++) {
    expr_kind op;
    expr *qx, *qy;
    if (m->kid[1 - i] != y || !division_parts(m->kid[i], &op, &qx, &qy)) continue;
    bool match = op == div && qx == x && qy == y;
    expr_unref(qx);
    expr_unref(qy);
    if (match) return x;
  }
  return NULL;
}

/* x = (x div y)·y + x rem y for udiv/urem and sdiv/srem at every x and y, modulo 2^w: by
 * SMT-LIB's definitions when y ≠ 0 (the minimum / −1 too: its quotient wraps, its
 * remainder is 0), and y = 0 multiplies the quotient away, leaving rem = x. So the sum is
 * x, where Z3 would have to prove a multiplier inverts a divider (sem_div_rem's identity
 * took 0.9 s at 8 bits widened to 32). */
static expr *division_identity(expr *a, expr *b) {
  for (unsigned i = 0; i < 2; i++) {
    expr *rem = i ? b : a, *m = i ? a : b;
    expr_kind op;
    expr *x, *y;
    if (m->kind != EXPR_MUL || !division_parts(rem, &op, &x, &y)) continue;
    expr *r = NULL;
    if (op == EXPR_UREM || op == EXPR_SREM)
      r = product_of_quotient(m, op == EXPR_UREM ? EXPR_UDIV : EXPR_SDIV, x, y);
    if (r) r = expr_ref(r);
    expr_unref(x);
    expr_unref(y);
    if (r) return rewritten(r);
  }
  return NULL;
}

/* x − (x div y)·y = x rem y (the identity above). */
static expr *remainder_of_sub(expr *a, expr *b) {
  if (b->kind != EXPR_MUL) return NULL;
  for (unsigned i = 0; i < 2; i++) {
    expr_kind op;
    expr *x, *y;
    if (!division_parts(b->kid[i], &op, &x, &y)) continue;
    bool match = x == a && y == b->kid[1 - i] && (op == EXPR_UDIV || op == EXPR_SDIV);
    expr *r = match ? expr_binary(op == EXPR_UDIV ? EXPR_UREM : EXPR_SREM, x, y) : NULL;
    expr_unref(x);
    expr_unref(y);
    if (r) return rewritten(r);
  }
  return NULL;
}

static expr *simplify_div_shift(expr_kind kind, expr *a, expr *b) {
  unsigned w = a->width;
  switch (kind) {
  case EXPR_UDIV:
  case EXPR_SDIV:
    if (is_value(b, 1)) return rewritten(expr_ref(a));
    if (kind == EXPR_UDIV && b->kind == EXPR_CONST && b->u.value) {
      /* (x/c1)/c2 = x/(c1·c2), and 0 when the product passes the width (x/c1 < c2 then) */
      u128 c1, c;
      expr *x = udiv_by_const(a, &c1);
      if (x) {
        if (!product_fits(c1, b->u.value, w, &c)) return rewritten(expr_const(w, 0));
        expr *k = expr_const(w, c);
        expr *r = expr_udiv(x, k);
        expr_unref(k);
        return rewritten(r);
      }
    }
    return narrow_division(kind, a, b);
  case EXPR_UREM:
  case EXPR_SREM:
    if (is_value(b, 1)) return rewritten(expr_const(w, 0));
    return narrow_division(kind, a, b);
  default: /* shifts */
    if (is_value(b, 0)) return rewritten(expr_ref(a));
    if (is_value(a, 0)) return rewritten(expr_ref(a));
    if (kind != EXPR_ASHR && b->kind == EXPR_CONST && b->u.value >= w)
      return rewritten(expr_const(w, 0));
    break;
  }
  return NULL;
}

static expr *negated_comparison(expr_kind kind, expr *a, expr *b) {
  expr *e = expr_binary(kind, a, b);
  expr *r = expr_not(e);
  expr_unref(e);
  return r;
}

expr *expr_binary(expr_kind kind, expr *a, expr *b) {
  assert(a->width == b->width || kind == EXPR_CONCAT);
  if (kind == EXPR_CONCAT) return expr_concat(a, b);
  unsigned w = a->width;
  unsigned result_width = expr_kind_is_comparison(kind) ? 1 : w;
  if (a->kind == EXPR_CONST && b->kind == EXPR_CONST)
    return folded(result_width, fold_binary(kind, w, a->u.value, b->u.value));

  /* canonical forms of the derived kinds */
  switch (kind) {
  case EXPR_NE: return rewritten(negated_comparison(EXPR_EQ, a, b));
  case EXPR_UGT: return rewritten(expr_binary(EXPR_ULT, b, a));
  case EXPR_UGE: return rewritten(expr_binary(EXPR_ULE, b, a));
  case EXPR_SGT: return rewritten(expr_binary(EXPR_SLT, b, a));
  case EXPR_SGE: return rewritten(expr_binary(EXPR_SLE, b, a));
  case EXPR_SUB: {
    if (a == b) return rewritten(expr_const(w, 0));
    if (b->kind == EXPR_CONST) return rewritten(add_const(a, -b->u.value));
    expr *rem = remainder_of_sub(a, b);
    if (rem) return rem;
    break;
  }
  default: break;
  }

  if (is_commutative(kind)) {
    bool swap =
        b->kind == EXPR_CONST ? a->kind != EXPR_CONST : (a->kind != EXPR_CONST && b->id < a->id);
    if (swap) {
      expr *t = a;
      a = b;
      b = t;
    }
  }

  expr *r = lift_binary(kind, a, b);
  if (r) return r;
  switch (kind) {
  case EXPR_ADD: r = simplify_add(a, b); break;
  case EXPR_MUL: r = simplify_mul(a, b); break;
  case EXPR_AND:
  case EXPR_OR:
  case EXPR_XOR: r = simplify_bitwise(kind, a, b); break;
  case EXPR_EQ: r = simplify_eq(a, b); break;
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_SLT:
  case EXPR_SLE: r = simplify_order(kind, a, b); break;
  case EXPR_UDIV:
  case EXPR_SDIV:
  case EXPR_UREM:
  case EXPR_SREM:
  case EXPR_SHL:
  case EXPR_LSHR:
  case EXPR_ASHR: r = simplify_div_shift(kind, a, b); break;
  default: break;
  }
  if (r) return r;
  return make2(kind, result_width, a, b);
}

expr *expr_add(expr *a, expr *b) { return expr_binary(EXPR_ADD, a, b); }
expr *expr_sub(expr *a, expr *b) { return expr_binary(EXPR_SUB, a, b); }
expr *expr_mul(expr *a, expr *b) { return expr_binary(EXPR_MUL, a, b); }
expr *expr_udiv(expr *a, expr *b) { return expr_binary(EXPR_UDIV, a, b); }
expr *expr_sdiv(expr *a, expr *b) { return expr_binary(EXPR_SDIV, a, b); }
expr *expr_urem(expr *a, expr *b) { return expr_binary(EXPR_UREM, a, b); }
expr *expr_srem(expr *a, expr *b) { return expr_binary(EXPR_SREM, a, b); }
expr *expr_shl(expr *a, expr *b) { return expr_binary(EXPR_SHL, a, b); }
expr *expr_lshr(expr *a, expr *b) { return expr_binary(EXPR_LSHR, a, b); }
expr *expr_ashr(expr *a, expr *b) { return expr_binary(EXPR_ASHR, a, b); }
expr *expr_and(expr *a, expr *b) { return expr_binary(EXPR_AND, a, b); }
expr *expr_or(expr *a, expr *b) { return expr_binary(EXPR_OR, a, b); }
expr *expr_xor(expr *a, expr *b) { return expr_binary(EXPR_XOR, a, b); }
expr *expr_eq(expr *a, expr *b) { return expr_binary(EXPR_EQ, a, b); }
expr *expr_ne(expr *a, expr *b) { return expr_binary(EXPR_NE, a, b); }
expr *expr_ult(expr *a, expr *b) { return expr_binary(EXPR_ULT, a, b); }
expr *expr_ule(expr *a, expr *b) { return expr_binary(EXPR_ULE, a, b); }
expr *expr_ugt(expr *a, expr *b) { return expr_binary(EXPR_UGT, a, b); }
expr *expr_uge(expr *a, expr *b) { return expr_binary(EXPR_UGE, a, b); }
expr *expr_slt(expr *a, expr *b) { return expr_binary(EXPR_SLT, a, b); }
expr *expr_sle(expr *a, expr *b) { return expr_binary(EXPR_SLE, a, b); }
expr *expr_sgt(expr *a, expr *b) { return expr_binary(EXPR_SGT, a, b); }
expr *expr_sge(expr *a, expr *b) { return expr_binary(EXPR_SGE, a, b); }

expr *expr_not(expr *a) {
  if (a->kind == EXPR_CONST) return folded(a->width, ~a->u.value & expr_mask(a->width));
  if (a->kind == EXPR_NOT) return rewritten(expr_ref(a->kid[0]));
  expr *lifted = lift_unary(EXPR_NOT, a, 0, a->width);
  if (lifted) return lifted;
  return make1(EXPR_NOT, a->width, a);
}

expr *expr_implies(expr *a, expr *b) {
  assert(a->width == 1 && b->width == 1);
  expr *na = expr_not(a);
  expr *r = expr_or(na, b);
  expr_unref(na);
  return r;
}

expr *expr_zext(expr *a, unsigned width) {
  assert(width >= a->width && width <= 128);
  if (width == a->width) return expr_ref(a);
  if (a->kind == EXPR_CONST) return folded(width, a->u.value);
  if (a->kind == EXPR_ZEXT) return rewritten(expr_zext(a->kid[0], width));
  expr *lifted = lift_unary(EXPR_ZEXT, a, 0, width);
  if (lifted) return lifted;
  return make1(EXPR_ZEXT, width, a);
}

expr *expr_sext(expr *a, unsigned width) {
  assert(width >= a->width && width <= 128);
  if (width == a->width) return expr_ref(a);
  if (a->kind == EXPR_CONST) {
    u128 v = a->u.value;
    if (is_negative(v, a->width)) v |= ~expr_mask(a->width);
    return folded(width, v);
  }
  if (a->kind == EXPR_SEXT) return rewritten(expr_sext(a->kid[0], width));
  if (a->kind == EXPR_ZEXT) return rewritten(expr_zext(a->kid[0], width));
  expr *lifted = lift_unary(EXPR_SEXT, a, 0, width);
  if (lifted) return lifted;
  return make1(EXPR_SEXT, width, a);
}

static expr *wide_read_extract(expr *a, unsigned lo, unsigned width) {
  expr *offset = expr_const(64, lo / 8);
  expr *at = expr_add(a->kid[0], offset);
  expr *r = expr_read_le(a->u.read.array, a->u.read.updates, at, width / 8);
  expr_unref(offset);
  expr_unref(at);
  return r;
}

expr *expr_extract(expr *a, unsigned lo, unsigned width) {
  assert(width >= 1 && lo + width <= a->width);
  if (lo == 0 && width == a->width) return expr_ref(a);
  switch (a->kind) {
  case EXPR_CONST: return folded(width, a->u.value >> lo);
  case EXPR_EXTRACT: return rewritten(expr_extract(a->kid[0], a->u.extract.lo + lo, width));
  case EXPR_CONCAT: {
    expr *hi = a->kid[0], *low = a->kid[1];
    if (lo + width <= low->width) return rewritten(expr_extract(low, lo, width));
    if (lo >= low->width) return rewritten(expr_extract(hi, lo - low->width, width));
    break;
  }
  case EXPR_ZEXT: {
    expr *y = a->kid[0];
    if (lo + width <= y->width) return rewritten(expr_extract(y, lo, width));
    if (lo >= y->width) return rewritten(expr_const(width, 0));
    if (lo == 0) return rewritten(expr_zext(y, width));
    break;
  }
  case EXPR_SEXT: {
    expr *y = a->kid[0];
    if (lo + width <= y->width) return rewritten(expr_extract(y, lo, width));
    if (lo == 0) return rewritten(expr_sext(y, width));
    break;
  }
  case EXPR_READ:
    if (lo % 8 == 0 && width % 8 == 0) {
      stats.reads_merged++;
      return wide_read_extract(a, lo, width);
    }
    break;
  default: break;
  }
  expr *lifted = lift_unary(EXPR_EXTRACT, a, lo, width);
  if (lifted) return lifted;
  expr t = template_of(EXPR_EXTRACT, width, 1);
  t.kid[0] = a;
  t.u.extract.lo = lo;
  return intern(&t);
}

/* hi's bytes directly follow lo's in the same array through the same writes? */
static bool reads_adjacent(const expr *hi, const expr *lo) {
  if (hi->kind != EXPR_READ || lo->kind != EXPR_READ) return false;
  if (hi->u.read.array != lo->u.read.array || hi->u.read.updates != lo->u.read.updates)
    return false;
  expr *offset = expr_const(64, lo->width / 8);
  expr *next = expr_add(lo->kid[0], offset);
  bool adjacent = next == hi->kid[0];
  expr_unref(offset);
  expr_unref(next);
  return adjacent;
}

expr *expr_concat(expr *hi, expr *lo) {
  unsigned width = hi->width + lo->width;
  assert(width <= 128);
  if (hi->kind == EXPR_CONST && lo->kind == EXPR_CONST)
    return folded(width, (hi->u.value << lo->width) | lo->u.value);
  if (is_value(hi, 0)) return rewritten(expr_zext(lo, width));
  if (hi->kind == EXPR_EXTRACT && lo->kind == EXPR_EXTRACT && hi->kid[0] == lo->kid[0] &&
      hi->u.extract.lo == lo->u.extract.lo + lo->width)
    return rewritten(expr_extract(lo->kid[0], lo->u.extract.lo, width));
  if (reads_adjacent(hi, lo)) {
    stats.reads_merged++;
    return make_read(lo->u.read.array, lo->u.read.updates, lo->kid[0], width);
  }
  return make2(EXPR_CONCAT, width, hi, lo);
}

expr *expr_ite(expr *cond, expr *then, expr *otherwise) {
  assert(cond->width == 1 && then->width == otherwise->width);
  if (cond->kind == EXPR_CONST) return rewritten(expr_ref(cond->u.value ? then : otherwise));
  if (then == otherwise) return rewritten(expr_ref(then));
  if (cond->kind == EXPR_NOT) return rewritten(expr_ite(cond->kid[0], otherwise, then));
  if (then->width == 1) {
    if (is_value(then, 1) && is_value(otherwise, 0)) return rewritten(expr_ref(cond));
    if (is_value(then, 0) && is_value(otherwise, 1)) return rewritten(expr_not(cond));
    if (is_value(then, 1)) return rewritten(expr_or(cond, otherwise));
    if (is_value(otherwise, 0)) return rewritten(expr_and(cond, then));
  }
  expr t = template_of(EXPR_ITE, then->width, 3);
  t.kid[0] = cond;
  t.kid[1] = then;
  t.kid[2] = otherwise;
  return intern(&t);
}

expr *expr_resize(expr *a, unsigned width, bool is_signed) {
  if (width > a->width) return is_signed ? expr_sext(a, width) : expr_zext(a, width);
  return expr_extract(a, 0, width);
}

/* ---- bound variables and forall ------------------------------------------------------ */

expr *expr_bvar_fresh(unsigned width, const char *name) {
  expr t = template_of(EXPR_BVAR, width, 0);
  t.u.bvar.var = next_bvar++;
  t.u.bvar.name = name;
  return intern(&t);
}

expr *expr_forall(expr *bvar, expr *lo, expr *hi, expr *body) {
  assert(bvar->kind == EXPR_BVAR && lo->width == bvar->width && hi->width == bvar->width);
  assert(body->width == 1 && !lo->has_bvar && !hi->has_bvar);
  if (is_value(body, 1)) return rewritten(expr_true());
  if (lo->kind == EXPR_CONST && hi->kind == EXPR_CONST && hi->u.value < lo->u.value)
    return rewritten(expr_true());
  if (!body->has_bvar) { /* empty range, or body */
    expr *empty = expr_ult(hi, lo);
    expr *r = expr_or(empty, body);
    expr_unref(empty);
    return rewritten(r);
  }
  expr t = template_of(EXPR_FORALL, 1, 4);
  t.kid[0] = bvar;
  t.kid[1] = lo;
  t.kid[2] = hi;
  t.kid[3] = body;
  return intern(&t);
}

/* ---- pointer-keyed maps (open addressing) used by evaluation, substitution, printing -- */

typedef struct ptr_map {
  const void **keys;
  u128 *values;         /* evaluation results, or a pointer stored in the low bits */
  uint32_t *generation; /* an entry counts only when its generation is current */
  size_t mask, count;
  uint32_t current;
} ptr_map;

static size_t ptr_slot(const ptr_map *m, const void *key) {
  uint64_t h = mix(0, (uint64_t)(uintptr_t)key);
  size_t i = h & m->mask;
  while (m->keys[i] && (m->keys[i] != key || m->generation[i] != m->current)) {
    if (m->generation[i] != m->current) break; /* stale slots are free */
    i = (i + 1) & m->mask;
  }
  return i;
}

static void ptr_map_grow(ptr_map *m) {
  ptr_map old = *m;
  size_t size = old.keys ? (old.mask + 1) * 2 : 256;
  m->keys = xcalloc(size, sizeof *m->keys);
  m->values = xcalloc(size, sizeof *m->values);
  m->generation = xcalloc(size, sizeof *m->generation);
  m->mask = size - 1;
  m->count = 0;
  for (size_t i = 0; old.keys && i <= old.mask; i++) {
    if (!old.keys[i] || old.generation[i] != old.current) continue;
    size_t j = ptr_slot(m, old.keys[i]);
    m->keys[j] = old.keys[i];
    m->values[j] = old.values[i];
    m->generation[j] = m->current;
    m->count++;
  }
  free(old.keys);
  free(old.values);
  free(old.generation);
}

static bool ptr_map_get(const ptr_map *m, const void *key, u128 *value) {
  if (!m->keys) return false;
  size_t i = ptr_slot(m, key);
  if (m->keys[i] != key || m->generation[i] != m->current) return false;
  if (value) *value = m->values[i];
  return true;
}

static void ptr_map_put(ptr_map *m, const void *key, u128 value) {
  if (!m->keys || (m->count + 1) * 2 > m->mask + 1) ptr_map_grow(m);
  size_t i = ptr_slot(m, key);
  if (m->keys[i] != key || m->generation[i] != m->current) m->count++;
  m->keys[i] = key;
  m->values[i] = value;
  m->generation[i] = m->current;
}

/* Forgets every entry in O(1): entries of older generations read as empty (when the
 * generation wraps around, the keys are swept once instead). */
static void ptr_map_clear(ptr_map *m) {
  m->count = 0;
  if (++m->current == 0 && m->keys) memset(m->keys, 0, (m->mask + 1) * sizeof *m->keys);
}

static void ptr_map_free(ptr_map *m) {
  free(m->keys);
  free(m->values);
  free(m->generation);
}

/* ---- assignments -------------------------------------------------------------------- */

expr_assignment *expr_assignment_new(void) { return xcalloc(1, sizeof(expr_assignment)); }

void expr_assignment_free(expr_assignment *m) {
  if (!m) return;
  for (size_t i = 0; i < m->count; i++) {
    expr_array_unref(m->bindings[i].array);
    free(m->bindings[i].bytes);
  }
  free(m->bindings);
  free(m);
}

static size_t binding_position(const expr_assignment *m, uint32_t id) {
  size_t lo = 0, hi = m->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m->bindings[mid].array->id < id) lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

const expr_binding *expr_assignment_find(const expr_assignment *m, const expr_array *a) {
  size_t i = binding_position(m, a->id);
  return i < m->count && m->bindings[i].array == a ? &m->bindings[i] : NULL;
}

void expr_assignment_set(expr_assignment *m, expr_array *a, const uint8_t *bytes, size_t len) {
  size_t i = binding_position(m, a->id);
  uint8_t *copy = xmalloc(len);
  if (len) memcpy(copy, bytes, len);
  if (i < m->count && m->bindings[i].array == a) {
    free(m->bindings[i].bytes);
    m->bindings[i].bytes = copy;
    m->bindings[i].len = len;
    return;
  }
  if (m->count == m->cap) {
    m->cap = m->cap ? m->cap * 2 : 8;
    m->bindings = xrealloc(m->bindings, m->cap * sizeof *m->bindings);
  }
  memmove(&m->bindings[i + 1], &m->bindings[i], (m->count - i) * sizeof *m->bindings);
  m->bindings[i] = (expr_binding){expr_array_ref(a), copy, len};
  m->count++;
}

expr_assignment *expr_assignment_copy(const expr_assignment *m) {
  expr_assignment *c = expr_assignment_new();
  for (size_t i = 0; i < m->count; i++)
    expr_assignment_set(c, m->bindings[i].array, m->bindings[i].bytes, m->bindings[i].len);
  return c;
}

/* ---- evaluation --------------------------------------------------------------------- */

typedef struct eval_ctx {
  const expr_assignment *m;
  uint64_t max_range;
  ptr_map closed; /* nodes without a free bound variable: valid for the whole evaluation */
  ptr_map bound;  /* nodes with one: cleared whenever a bound variable changes */
  const expr *bvars[8];
  u128 bvar_values[8];
  unsigned nbvars;
  expr_eval_status status;
  const expr **stack;
  size_t stack_count, stack_cap;
  bool scratch; /* its tables and stack are eval_scratch's, returned by eval_ctx_free */
} eval_ctx;

static bool eval_node(eval_ctx *c, const expr *root, u128 *out);

static bool memo_get(eval_ctx *c, const expr *e, u128 *v) {
  return ptr_map_get(e->has_bvar ? &c->bound : &c->closed, e, v);
}

static u128 array_byte(const eval_ctx *c, const expr_array *a, u128 index) {
  if (a->init) return index < a->capacity ? a->init[(size_t)index] : 0;
  const expr_binding *b = expr_assignment_find(c->m, a);
  return b && index < b->len ? b->bytes[(size_t)index] : 0;
}

static bool eval_read_byte(eval_ctx *c, const expr *e, u128 index, u128 *out) {
  for (const expr_update *u = e->u.read.updates; u; u = u->next) {
    u128 at;
    if (!eval_node(c, u->index, &at)) return false;
    if (at == index) return eval_node(c, u->value, out);
  }
  *out = array_byte(c, e->u.read.array, index);
  return true;
}

static bool eval_forall(eval_ctx *c, const expr *e, u128 lo, u128 hi, u128 *out) {
  *out = 1;
  if (hi < lo) return true;
  if (hi - lo >= c->max_range) {
    c->status = EXPR_EVAL_RANGE_TOO_LARGE;
    return false;
  }
  if (c->nbvars == sizeof c->bvars / sizeof c->bvars[0]) {
    c->status = EXPR_EVAL_RANGE_TOO_LARGE;
    return false;
  }
  unsigned slot = c->nbvars++;
  c->bvars[slot] = e->kid[0];
  bool ok = true;
  for (u128 i = lo;; i++) {
    c->bvar_values[slot] = i;
    ptr_map_clear(&c->bound);
    u128 holds;
    if (!eval_node(c, e->kid[3], &holds)) {
      ok = false;
      break;
    }
    if (!holds) {
      *out = 0;
      break;
    }
    if (i == hi) break;
  }
  c->nbvars--;
  ptr_map_clear(&c->bound);
  return ok;
}

/* The value of e from its kids' memoised values. */
static bool eval_compute(eval_ctx *c, const expr *e, const u128 *k, u128 *out) {
  unsigned w = e->width;
  switch (e->kind) {
  case EXPR_CONST: *out = e->u.value; return true;
  case EXPR_BVAR:
    for (unsigned i = c->nbvars; i-- > 0;) {
      if (c->bvars[i] == e) {
        *out = c->bvar_values[i];
        return true;
      }
    }
    c->status = EXPR_EVAL_FREE_BVAR;
    return false;
  case EXPR_READ: {
    u128 value = 0;
    for (unsigned b = 0; b < w / 8; b++) {
      u128 byte;
      if (!eval_read_byte(c, e, (k[0] + b) & expr_mask(64), &byte)) return false;
      value |= byte << (8 * b);
    }
    *out = value;
    return true;
  }
  case EXPR_FORALL: return eval_forall(c, e, k[1], k[2], out);
  case EXPR_NOT: *out = ~k[0] & expr_mask(w); return true;
  case EXPR_ZEXT: *out = k[0]; return true;
  case EXPR_SEXT: {
    unsigned from = e->kid[0]->width;
    *out = is_negative(k[0], from) ? (k[0] | ~expr_mask(from)) & expr_mask(w) : k[0];
    return true;
  }
  case EXPR_EXTRACT: *out = (k[0] >> e->u.extract.lo) & expr_mask(w); return true;
  case EXPR_CONCAT: *out = (k[0] << e->kid[1]->width) | k[1]; return true;
  case EXPR_ITE: *out = k[0] ? k[1] : k[2]; return true;
  default: *out = fold_binary(e->kind, e->kid[0]->width, k[0], k[1]); return true;
  }
}

static void eval_push(eval_ctx *c, const expr *e) {
  if (c->stack_count == c->stack_cap) {
    c->stack_cap = c->stack_cap ? c->stack_cap * 2 : 64;
    c->stack = xrealloc(c->stack, c->stack_cap * sizeof *c->stack);
  }
  c->stack[c->stack_count++] = e;
}

/* Post-order over an explicit stack, so deep terms don't exhaust the C stack. A FORALL's
 * body is evaluated by the forall itself (it needs the bound variable), so only lo and hi
 * are pushed as its operands. */
static bool eval_node(eval_ctx *c, const expr *root, u128 *out) {
  if (root->kind == EXPR_CONST) { /* its own value: constants never enter the tables */
    *out = root->u.value;
    return true;
  }
  if (memo_get(c, root, out)) return true;
  size_t base = c->stack_count;
  eval_push(c, root);
  while (c->stack_count > base) {
    const expr *e = c->stack[c->stack_count - 1];
    u128 k[4] = {0, 0, 0, 0};
    bool ready = true;
    unsigned first = 0, last = e->nkids;
    if (e->kind == EXPR_FORALL) first = 1, last = 3;
    for (unsigned i = first; i < last; i++) {
      if (e->kid[i]->kind == EXPR_CONST) {
        k[i] = e->kid[i]->u.value; /* indices, masks, bounds: no lookup, no entry */
      } else if (!memo_get(c, e->kid[i], &k[i])) {
        eval_push(c, e->kid[i]);
        ready = false;
      }
    }
    if (!ready) continue;
    c->stack_count--;
    u128 v;
    if (memo_get(c, e, &v)) continue;
    if (!eval_compute(c, e, k, &v)) {
      c->stack_count = base;
      return false;
    }
    ptr_map_put(e->has_bvar ? &c->bound : &c->closed, e, v);
  }
  return memo_get(c, root, out);
}

/* The tables and stack of every evaluation, kept between evaluations and cleared by
 * generation: the caches evaluate candidate models thousands of times a run on formulas of
 * a few dozen nodes, where allocating fresh tables each time was ~5% of chained memspn's
 * instructions. An evaluation that starts while another runs gets tables of its own. */
static eval_ctx eval_scratch;
static bool eval_scratch_busy;
#define EVAL_SCRATCH_MAX_SLOTS ((size_t)1 << 16) /* larger tables (1.8 MB) are freed after use */

static void eval_ctx_init(eval_ctx *c, const expr_assignment *m, uint64_t max_range) {
  static const expr_assignment empty;
  *c = (eval_ctx){0};
  if (!eval_scratch_busy) {
    eval_scratch_busy = true;
    c->closed = eval_scratch.closed;
    c->bound = eval_scratch.bound;
    c->stack = eval_scratch.stack;
    c->stack_cap = eval_scratch.stack_cap;
    ptr_map_clear(&c->closed);
    ptr_map_clear(&c->bound);
    c->scratch = true;
  }
  c->m = m ? m : &empty;
  c->max_range = max_range;
  c->status = EXPR_EVAL_OK;
}

static void eval_ctx_free(eval_ctx *c) {
  if (c->scratch && c->closed.mask < EVAL_SCRATCH_MAX_SLOTS &&
      c->bound.mask < EVAL_SCRATCH_MAX_SLOTS) {
    eval_scratch.closed = c->closed;
    eval_scratch.bound = c->bound;
    eval_scratch.stack = c->stack;
    eval_scratch.stack_cap = c->stack_cap;
  } else {
    ptr_map_free(&c->closed);
    ptr_map_free(&c->bound);
    free(c->stack);
    if (c->scratch) eval_scratch = (eval_ctx){0};
  }
  if (c->scratch) eval_scratch_busy = false;
}

expr_eval_status expr_eval(const expr *e, const expr_assignment *m, uint64_t max_forall_range,
                           u128 *out) {
  eval_ctx c;
  eval_ctx_init(&c, m, max_forall_range);
  if (!eval_node(&c, e, out) && c.status == EXPR_EVAL_OK) c.status = EXPR_EVAL_FREE_BVAR;
  eval_ctx_free(&c);
  return c.status;
}

bool expr_eval_all_true(expr *const *formulas, size_t n, const expr_assignment *m) {
  /* A forall over a range this long is not expanded: its truth stays unknown (false). */
  eval_ctx c;
  eval_ctx_init(&c, m, 1u << 20);
  bool all = true;
  for (size_t i = 0; i < n && all; i++) {
    u128 v;
    all = eval_node(&c, formulas[i], &v) && v != 0;
  }
  eval_ctx_free(&c);
  return all;
}

/* ---- substitution ------------------------------------------------------------------- */

typedef struct subst_ctx {
  expr *const *from;
  expr *const *to;
  size_t n;
  ptr_map done;         /* expr → new expr (a reference owned by `made`) */
  ptr_map done_updates; /* update → new update (a reference owned by `made`) */
  release_stack made;   /* the references the call holds, tagged, dropped when it ends */
  bool busy;
  /* every from[i] is a bound variable: a term that mentions none (!has_bvar) and an update
   * list (which holds none, expr.h) come out as they are, so neither is walked. Instantiating
   * a forall over libpng's chunk buffer otherwise rebuilt the buffer's whole write list and
   * the merged cells' ite chains once per instance. */
  bool only_bvars;
} subst_ctx;

/* One memo for every call, cleared by generation: a call on a small formula then neither
 * allocates nor sweeps a table that a large one grew (the relaxed stage substitutes ~9,000
 * times a run on chained memspn, where fresh tables were a tenth of the instructions). */
static subst_ctx subst_memo;
#define SUBST_MEMO_MAX_SLOTS ((size_t)1 << 16) /* past it (1.8 MB), a call's tables are freed */

static void subst_remember(subst_ctx *s, const expr *e, expr *r) {
  push_tagged(&s->made, r, TAG_EXPR);
  ptr_map_put(&s->done, e, (uintptr_t)r);
}

static void subst_remember_update(subst_ctx *s, const expr_update *u, expr_update *r) {
  push_tagged(&s->made, r, TAG_UPDATE);
  ptr_map_put(&s->done_updates, u, (uintptr_t)r);
}

static expr *subst(subst_ctx *s, expr *e);

static expr_update *subst_updates(subst_ctx *s, expr_update *u) {
  if (!u) return NULL;
  u128 v;
  if (ptr_map_get(&s->done_updates, u, &v)) return expr_update_ref((expr_update *)(uintptr_t)v);
  expr_update *next = subst_updates(s, u->next);
  expr *index = subst(s, u->index);
  expr *value = subst(s, u->value);
  expr_update *r = expr_update_push(u->array, next, index, value);
  expr_update_unref(next);
  expr_unref(index);
  expr_unref(value);
  subst_remember_update(s, u, r);
  return expr_update_ref(r);
}

static bool binds_substituted(const subst_ctx *s, const expr *forall) {
  for (size_t i = 0; i < s->n; i++)
    if (s->from[i] == forall->kid[0]) return true;
  return false;
}

static expr *rebuild(subst_ctx *s, expr *e, expr **k) {
  if (e->kind != EXPR_READ || s->only_bvars) return expr_with_kids(e, k);
  expr_update *ups = subst_updates(s, e->u.read.updates);
  expr *r = expr_read_le(e->u.read.array, ups, k[0], e->width / 8);
  expr_update_unref(ups);
  return r;
}

expr *expr_with_kids(expr *e, expr *const *k) {
  switch (e->kind) {
  case EXPR_CONST:
  case EXPR_BVAR: return expr_ref(e);
  case EXPR_READ: return expr_read_le(e->u.read.array, e->u.read.updates, k[0], e->width / 8);
  case EXPR_FORALL: return expr_forall(k[0], k[1], k[2], k[3]);
  case EXPR_NOT: return expr_not(k[0]);
  case EXPR_ZEXT: return expr_zext(k[0], e->width);
  case EXPR_SEXT: return expr_sext(k[0], e->width);
  case EXPR_EXTRACT: return expr_extract(k[0], e->u.extract.lo, e->width);
  case EXPR_CONCAT: return expr_concat(k[0], k[1]);
  case EXPR_ITE: return expr_ite(k[0], k[1], k[2]);
  default: return expr_binary(e->kind, k[0], k[1]);
  }
}

static expr *subst(subst_ctx *s, expr *e) {
  u128 v;
  if (s->only_bvars && !e->has_bvar) return expr_ref(e);
  /* the memo starts with from[i] → to[i] (expr_substitute) */
  if (ptr_map_get(&s->done, e, &v)) return expr_ref((expr *)(uintptr_t)v);
  expr *r = NULL;
  if (e->kind == EXPR_FORALL && binds_substituted(s, e)) r = expr_ref(e); /* bound */
  if (!r) {
    expr *k[4] = {NULL, NULL, NULL, NULL};
    for (unsigned i = 0; i < e->nkids; i++) k[i] = subst(s, e->kid[i]);
    r = rebuild(s, e, k);
    for (unsigned i = 0; i < e->nkids; i++) expr_unref(k[i]);
  }
  subst_remember(s, e, r);
  return expr_ref(r);
}

expr *expr_substitute(expr *e, expr *const *from, expr *const *to, size_t n) {
  subst_ctx *s = &subst_memo;
  assert(!s->busy); /* no constructor substitutes */
  s->busy = true;
  s->from = from;
  s->to = to;
  s->n = n;
  s->only_bvars = true;
  for (size_t i = 0; i < n; i++) s->only_bvars &= from[i]->kind == EXPR_BVAR;
  ptr_map_clear(&s->done);
  ptr_map_clear(&s->done_updates);
  /* backwards, so that the first of equal from[i] wins */
  for (size_t i = n; i-- > 0;) {
    assert(from[i]->width == to[i]->width);
    subst_remember(s, from[i], expr_ref(to[i]));
  }
  expr *r = subst(s, e);
  for (size_t i = 0; i < s->made.count; i++) {
    void *p = (void *)(s->made.items[i] & ~(uintptr_t)TAG_MASK);
    if ((s->made.items[i] & TAG_MASK) == TAG_UPDATE) expr_update_unref(p);
    else
      expr_unref(p);
  }
  s->made.count = 0;
  if (s->done.mask + 1 > SUBST_MEMO_MAX_SLOTS) {
    ptr_map_free(&s->done);
    s->done = (ptr_map){0};
  }
  if (s->done_updates.mask + 1 > SUBST_MEMO_MAX_SLOTS) {
    ptr_map_free(&s->done_updates);
    s->done_updates = (ptr_map){0};
  }
  s->busy = false;
  return r;
}

/* ---- walking the DAG: arrays, printing ---------------------------------------------- */

typedef struct walk {
  ptr_map seen;
  uintptr_t *stack; /* tagged: expr or update */
  size_t count, cap;
} walk;

static void walk_push(walk *w, const void *p, unsigned tag) {
  if (!p || ptr_map_get(&w->seen, p, NULL)) return;
  ptr_map_put(&w->seen, p, 0);
  if (w->count == w->cap) {
    w->cap = w->cap ? w->cap * 2 : 64;
    w->stack = xrealloc(w->stack, w->cap * sizeof *w->stack);
  }
  w->stack[w->count++] = (uintptr_t)p | tag;
}

static void add_array(expr_array *a, expr_array ***out, size_t *count, size_t *cap) {
  for (size_t i = 0; i < *count; i++)
    if ((*out)[i] == a) return;
  if (*count == *cap) {
    *cap = *cap ? *cap * 2 : 8;
    *out = xrealloc(*out, *cap * sizeof **out);
  }
  (*out)[(*count)++] = a;
}

/* Visits every node reachable from roots once (through reads' update lists too, and through
 * array sizes when `sizes`); update-list entries count in *visited. */
static void walk_dag(expr *const *roots, size_t n, bool sizes, void (*visit)(const expr *, void *),
                     void *arg, size_t *visited) {
  walk w = {0};
  for (size_t i = 0; i < n; i++) walk_push(&w, roots[i], TAG_EXPR);
  while (w.count) {
    uintptr_t item = w.stack[--w.count];
    (*visited)++;
    if ((item & TAG_MASK) == TAG_UPDATE) {
      const expr_update *u = (const expr_update *)(item & ~(uintptr_t)TAG_MASK);
      walk_push(&w, u->index, TAG_EXPR);
      walk_push(&w, u->value, TAG_EXPR);
      walk_push(&w, u->next, TAG_UPDATE);
      continue;
    }
    const expr *e = (const expr *)item;
    if (visit) visit(e, arg);
    if (e->kind == EXPR_READ) {
      if (sizes) walk_push(&w, e->u.read.array->size, TAG_EXPR);
      walk_push(&w, e->u.read.updates, TAG_UPDATE);
    }
    for (unsigned i = 0; i < e->nkids; i++) walk_push(&w, e->kid[i], TAG_EXPR);
  }
  ptr_map_free(&w.seen);
  free(w.stack);
}

size_t expr_dag_size(expr *const *roots, size_t n) {
  size_t size = 0;
  walk_dag(roots, n, false, NULL, NULL, &size);
  return size;
}

typedef struct array_list {
  expr_array ***out;
  size_t *count, *cap;
} array_list;

static void collect_array(const expr *e, void *arg) {
  array_list *l = arg;
  if (e->kind == EXPR_READ) add_array(e->u.read.array, l->out, l->count, l->cap);
}

void expr_collect_arrays_of(expr *const *roots, size_t n, expr_array ***out, size_t *count,
                            size_t *cap) {
  array_list l = {out, count, cap};
  size_t visited = 0;
  walk_dag(roots, n, true, collect_array, &l, &visited);
}

void expr_collect_arrays(expr *e, expr_array ***out, size_t *count, size_t *cap) {
  expr_collect_arrays_of(&e, 1, out, count, cap);
}

typedef struct footprint {
  uint64_t **out;
  size_t *count, *cap;
  bool through_writes; /* a read at a constant index through writes is its bytes too */
} footprint;

static void add_cell(footprint *fp, uint64_t cell) {
  if (*fp->count == *fp->cap) {
    *fp->cap = *fp->cap ? *fp->cap * 2 : 16;
    *fp->out = xrealloc(*fp->out, *fp->cap * sizeof **fp->out);
  }
  (*fp->out)[(*fp->count)++] = cell;
}

static void collect_cells(const expr *e, void *arg) {
  if (e->kind != EXPR_READ) return;
  const expr_array *a = e->u.read.array;
  const expr *at = e->kid[0];
  uint64_t nbytes = e->width / 8;
  footprint *fp = arg;
  if ((!e->u.read.updates || fp->through_writes) && at->kind == EXPR_CONST &&
      at->u.value < a->capacity && a->capacity - (uint64_t)at->u.value >= nbytes &&
      a->capacity < EXPR_CELL_WHOLE) {
    for (uint64_t k = 0; k < nbytes; k++)
      add_cell(arg, expr_cell(a->id, (uint64_t)at->u.value + k));
  } else {
    add_cell(arg, expr_cell(a->id, EXPR_CELL_WHOLE));
  }
}

void expr_collect_cells(expr *e, uint64_t **out, size_t *count, size_t *cap) {
  footprint fp = {out, count, cap, false};
  size_t visited = 0;
  walk_dag(&e, 1, true, collect_cells, &fp, &visited);
}

void expr_collect_value_cells(expr *e, uint64_t **out, size_t *count, size_t *cap) {
  footprint fp = {out, count, cap, true};
  size_t visited = 0;
  walk_dag(&e, 1, false, collect_cells, &fp, &visited);
}

static const char *const kind_names[EXPR_KIND_COUNT] = {
    [EXPR_CONST] = "const",     [EXPR_READ] = "read",     [EXPR_BVAR] = "bvar",
    [EXPR_FORALL] = "forall",   [EXPR_ADD] = "add",       [EXPR_SUB] = "sub",
    [EXPR_MUL] = "mul",         [EXPR_UDIV] = "udiv",     [EXPR_SDIV] = "sdiv",
    [EXPR_UREM] = "urem",       [EXPR_SREM] = "srem",     [EXPR_SHL] = "shl",
    [EXPR_LSHR] = "lshr",       [EXPR_ASHR] = "ashr",     [EXPR_AND] = "and",
    [EXPR_OR] = "or",           [EXPR_XOR] = "xor",       [EXPR_NOT] = "not",
    [EXPR_EQ] = "eq",           [EXPR_NE] = "ne",         [EXPR_ULT] = "ult",
    [EXPR_ULE] = "ule",         [EXPR_UGT] = "ugt",       [EXPR_UGE] = "uge",
    [EXPR_SLT] = "slt",         [EXPR_SLE] = "sle",       [EXPR_SGT] = "sgt",
    [EXPR_SGE] = "sge",         [EXPR_ZEXT] = "zext",     [EXPR_SEXT] = "sext",
    [EXPR_EXTRACT] = "extract", [EXPR_CONCAT] = "concat", [EXPR_ITE] = "ite",
};

const char *expr_kind_name(expr_kind k) {
  return k < EXPR_KIND_COUNT && kind_names[k] ? kind_names[k] : "?";
}

static void print_u128(FILE *f, u128 v) {
  char digits[40];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  while (n) fputc(digits[--n], f);
}

/* Human-readable: (kind:width operands…); constants as value:width. Recursion is bounded
 * by a depth cut-off, so huge terms print as an ellipsis rather than crash. */
static void print_human(FILE *f, const expr *e, unsigned depth) {
  if (depth > 64) {
    fputs("…", f);
    return;
  }
  switch (e->kind) {
  case EXPR_CONST:
    print_u128(f, e->u.value);
    fprintf(f, ":%u", e->width);
    return;
  case EXPR_BVAR: fprintf(f, "%s!%u", e->u.bvar.name, e->u.bvar.var); return;
  case EXPR_READ:
    fprintf(f, "(read:%u %s", e->width, e->u.read.array->name);
    if (e->u.read.updates) fprintf(f, "@u%" PRIu64, e->u.read.updates->id);
    fputc(' ', f);
    print_human(f, e->kid[0], depth + 1);
    fputc(')', f);
    return;
  case EXPR_EXTRACT: fprintf(f, "(extract:%u @%u ", e->width, e->u.extract.lo); break;
  default: fprintf(f, "(%s:%u ", expr_kind_name(e->kind), e->width); break;
  }
  for (unsigned i = 0; i < e->nkids; i++) {
    if (i) fputc(' ', f);
    print_human(f, e->kid[i], depth + 1);
  }
  fputc(')', f);
}

void expr_print(FILE *f, const expr *e) { print_human(f, e, 0); }

char *expr_to_string(const expr *e) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&buf, &len);
  expr_print(f, e);
  fclose(f);
  return buf;
}

/* ---- SMT-LIB 2 ---------------------------------------------------------------------- */

typedef struct smt_printer {
  FILE *f;
  expr_array **arrays;
  size_t narrays, cap;
} smt_printer;

static void smt_array_name(const smt_printer *p, const expr_array *a) {
  bool shared_name = false;
  for (size_t i = 0; i < p->narrays; i++)
    if (p->arrays[i] != a && strcmp(p->arrays[i]->name, a->name) == 0) shared_name = true;
  fputc('|', p->f);
  for (const char *c = a->name; *c; c++) fputc(*c == '|' || *c == '\\' ? '_' : *c, p->f);
  if (shared_name) fprintf(p->f, "@%u", a->id);
  fputc('|', p->f);
}

static void smt_const(FILE *f, u128 v, unsigned width) {
  fputs("(_ bv", f);
  print_u128(f, v);
  fprintf(f, " %u)", width);
}

static void smt_term(const smt_printer *p, const expr *e);

static void smt_updates(const smt_printer *p, const expr_update *u, const expr_array *a) {
  if (u) fprintf(p->f, "u%" PRIu64, u->id);
  else
    smt_array_name(p, a);
}

static void smt_select(const smt_printer *p, const expr *e, unsigned byte) {
  fputs("(select ", p->f);
  smt_updates(p, e->u.read.updates, e->u.read.array);
  if (byte == 0) {
    fputc(' ', p->f);
    smt_term(p, e->kid[0]);
  } else {
    fputs(" (bvadd ", p->f);
    smt_term(p, e->kid[0]);
    fputc(' ', p->f);
    smt_const(p->f, byte, 64);
    fputc(')', p->f);
  }
  fputc(')', p->f);
}

static const char *smt_operator(expr_kind k) {
  switch (k) {
  case EXPR_ADD: return "bvadd";
  case EXPR_SUB: return "bvsub";
  case EXPR_MUL: return "bvmul";
  case EXPR_UDIV: return "bvudiv";
  case EXPR_SDIV: return "bvsdiv";
  case EXPR_UREM: return "bvurem";
  case EXPR_SREM: return "bvsrem";
  case EXPR_SHL: return "bvshl";
  case EXPR_LSHR: return "bvlshr";
  case EXPR_ASHR: return "bvashr";
  case EXPR_AND: return "bvand";
  case EXPR_OR: return "bvor";
  case EXPR_XOR: return "bvxor";
  case EXPR_NOT: return "bvnot";
  case EXPR_EQ: return "=";
  case EXPR_NE: return "distinct";
  case EXPR_ULT: return "bvult";
  case EXPR_ULE: return "bvule";
  case EXPR_UGT: return "bvugt";
  case EXPR_UGE: return "bvuge";
  case EXPR_SLT: return "bvslt";
  case EXPR_SLE: return "bvsle";
  case EXPR_SGT: return "bvsgt";
  case EXPR_SGE: return "bvsge";
  case EXPR_CONCAT: return "concat";
  default: return NULL;
  }
}

/* The node's own operator applied to references of its kids. */
static void smt_definition(const smt_printer *p, const expr *e) {
  FILE *f = p->f;
  switch (e->kind) {
  case EXPR_READ:
    if (e->width == 8) {
      smt_select(p, e, 0);
      return;
    }
    fputs("(concat", f);
    for (unsigned b = e->width / 8; b-- > 0;) {
      fputc(' ', f);
      smt_select(p, e, b);
    }
    fputc(')', f);
    return;
  case EXPR_FORALL:
    fprintf(f, "(ite (forall ((|%s!%u| (_ BitVec %u))) (=> (and (bvule ", e->kid[0]->u.bvar.name,
            e->kid[0]->u.bvar.var, e->kid[0]->width);
    smt_term(p, e->kid[1]);
    fputc(' ', f);
    smt_term(p, e->kid[0]);
    fputs(") (bvule ", f);
    smt_term(p, e->kid[0]);
    fputc(' ', f);
    smt_term(p, e->kid[2]);
    fputs(")) (= ", f);
    smt_term(p, e->kid[3]);
    fputs(" #b1))) #b1 #b0)", f);
    return;
  case EXPR_ZEXT:
  case EXPR_SEXT:
    fprintf(f, "((_ %s %u) ", e->kind == EXPR_ZEXT ? "zero_extend" : "sign_extend",
            e->width - e->kid[0]->width);
    smt_term(p, e->kid[0]);
    fputc(')', f);
    return;
  case EXPR_EXTRACT:
    fprintf(f, "((_ extract %u %u) ", e->u.extract.lo + e->width - 1, e->u.extract.lo);
    smt_term(p, e->kid[0]);
    fputc(')', f);
    return;
  case EXPR_ITE:
    fputs("(ite (= ", f);
    smt_term(p, e->kid[0]);
    fputs(" #b1) ", f);
    smt_term(p, e->kid[1]);
    fputc(' ', f);
    smt_term(p, e->kid[2]);
    fputc(')', f);
    return;
  default: break;
  }
  bool boolean = expr_kind_is_comparison(e->kind);
  if (boolean) fputs("(ite ", f);
  fprintf(f, "(%s", smt_operator(e->kind));
  for (unsigned i = 0; i < e->nkids; i++) {
    fputc(' ', f);
    smt_term(p, e->kid[i]);
  }
  fputc(')', f);
  if (boolean) fputs(" #b1 #b0)", f);
}

/* A reference: constants and bound variables inline, closed nodes by their define-fun,
 * nodes under a binder spelled out (they cannot be defined outside it). */
static void smt_term(const smt_printer *p, const expr *e) {
  if (e->kind == EXPR_CONST) smt_const(p->f, e->u.value, e->width);
  else if (e->kind == EXPR_BVAR)
    fprintf(p->f, "|%s!%u|", e->u.bvar.name, e->u.bvar.var);
  else if (e->has_bvar)
    smt_definition(p, e);
  else
    fprintf(p->f, "t%" PRIu64, e->id);
}

static void smt_declare_array(const smt_printer *p, const expr_array *a) {
  FILE *f = p->f;
  if (!a->init) {
    fputs("(declare-fun ", f);
    smt_array_name(p, a);
    fputs(" () (Array (_ BitVec 64) (_ BitVec 8)))\n", f);
    return;
  }
  fputs("(define-fun ", f);
  smt_array_name(p, a);
  fputs(" () (Array (_ BitVec 64) (_ BitVec 8))", f);
  unsigned stores = 0;
  for (uint64_t i = 0; i < a->capacity; i++)
    if (a->init[i]) stores++;
  for (unsigned i = 0; i < stores; i++) fputs(" (store", f);
  fputs(" ((as const (Array (_ BitVec 64) (_ BitVec 8))) #x00)", f);
  for (uint64_t i = 0; i < a->capacity; i++) {
    if (!a->init[i]) continue;
    fputc(' ', f);
    smt_const(f, i, 64);
    fputc(' ', f);
    smt_const(f, a->init[i], 8);
    fputc(')', f);
  }
  fputs(")\n", f);
}

/* Definitions in dependency order: a post-order over nodes and update entries. A node may
 * be pushed once per parent that finds it undefined; `emitted` makes each print once. */
static void smt_define_all(const smt_printer *p, expr *const *formulas, size_t n) {
  walk w = {0};
  ptr_map emitted = {0};
  for (size_t i = n; i-- > 0;) walk_push(&w, formulas[i], TAG_EXPR);
  while (w.count) {
    uintptr_t item = w.stack[w.count - 1];
    const void *node = (const void *)(item & ~(uintptr_t)TAG_MASK);
    if (ptr_map_get(&emitted, node, NULL)) {
      w.count--;
      continue;
    }
    const void *deps[5] = {NULL, NULL, NULL, NULL, NULL};
    unsigned tags[5] = {TAG_EXPR, TAG_EXPR, TAG_EXPR, TAG_EXPR, TAG_UPDATE};
    const expr_update *u = NULL;
    const expr *e = NULL;
    if ((item & TAG_MASK) == TAG_UPDATE) {
      u = node;
      deps[0] = u->index;
      deps[1] = u->value;
      deps[4] = u->next;
    } else {
      e = node;
      for (unsigned i = 0; i < e->nkids; i++) deps[i] = e->kid[i];
      if (e->kind == EXPR_READ) deps[4] = e->u.read.updates;
    }
    size_t before = w.count;
    for (unsigned i = 0; i < 5; i++) {
      if (!deps[i] || ptr_map_get(&emitted, deps[i], NULL)) continue;
      if (w.count == w.cap) {
        w.cap = w.cap ? w.cap * 2 : 64;
        w.stack = xrealloc(w.stack, w.cap * sizeof *w.stack);
      }
      w.stack[w.count++] = (uintptr_t)deps[i] | tags[i];
    }
    if (w.count != before) continue;
    w.count--;
    ptr_map_put(&emitted, node, 0);
    if (u) {
      fprintf(p->f, "(define-fun u%" PRIu64 " () (Array (_ BitVec 64) (_ BitVec 8)) (store ",
              u->id);
      smt_updates(p, u->next, u->array);
      fputc(' ', p->f);
      smt_term(p, u->index);
      fputc(' ', p->f);
      smt_term(p, u->value);
      fputs("))\n", p->f);
    } else if (e->kind != EXPR_CONST && e->kind != EXPR_BVAR && !e->has_bvar) {
      fprintf(p->f, "(define-fun t%" PRIu64 " () (_ BitVec %u) ", e->id, e->width);
      smt_definition(p, e);
      fputs(")\n", p->f);
    }
  }
  ptr_map_free(&emitted);
  ptr_map_free(&w.seen);
  free(w.stack);
}

void expr_print_smtlib(FILE *f, expr *const *formulas, size_t n) {
  smt_printer p = {.f = f};
  for (size_t i = 0; i < n; i++) expr_collect_arrays(formulas[i], &p.arrays, &p.narrays, &p.cap);
  fputs("; symq query\n(set-option :produce-models true)\n", f);
  for (size_t i = 0; i < p.narrays; i++) smt_declare_array(&p, p.arrays[i]);
  smt_define_all(&p, formulas, n);
  for (size_t i = 0; i < n; i++) {
    fputs("(assert (= ", f);
    smt_term(&p, formulas[i]);
    fputs(" #b1))\n", f);
  }
  fputs("(check-sat)\n", f);
  free(p.arrays);
}
