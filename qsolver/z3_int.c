/*
 * z3_int.c — bit-vector formulas in linear integer arithmetic (z3_int.h).
 *
 * Caches, keyed by ids (never reused): node id → its integer term (or "no form"), formula
 * id → the formula with its byte ranges, (array id, index) → the byte's variable. Each
 * cached AST holds one Z3 reference; the intermediate ones of a call sit on a temporary
 * list until the call returns. The walk is iterative (path conditions are deep DAGs).
 */
#include "qsolver/z3_int.h"
#include "engine/core/xalloc.h"

#include "qsolver/stage.h"

#include <assert.h>

#define NO_FORM ((uint64_t)1) /* a node cache value: the node has no integer form */

struct z3_int {
  Z3_context ctx;
  Z3_sort int_sort;
  qs_idmap nodes, formulas, bytes;
  z3_refs tmp;
  expr **stack;
  size_t stack_cap;
  qs_idmap seen;
  Z3_ast *ranges;
  size_t ranges_cap;
  expr_update **ups;
  size_t ups_cap;
};

Z3_ast z3_refs_hold(Z3_context ctx, z3_refs *r, Z3_ast a) {
  if (!a) return NULL;
  Z3_inc_ref(ctx, a);
  QS_RESERVE(r->ast, r->cap, r->n + 1);
  r->ast[r->n++] = a;
  return a;
}

void z3_refs_release(Z3_context ctx, z3_refs *r) {
  for (size_t i = r->n; i-- > 0;) Z3_dec_ref(ctx, r->ast[i]);
  r->n = 0;
}

static Z3_ast hold(z3_int *t, Z3_ast a) { return z3_refs_hold(t->ctx, &t->tmp, a); }

static void release_tmp(z3_int *t) { z3_refs_release(t->ctx, &t->tmp); }

static void put(z3_int *t, qs_idmap *m, uint64_t key, Z3_ast a) {
  if (a) Z3_inc_ref(t->ctx, a);
  qs_idmap_put(m, key, a ? (uint64_t)(uintptr_t)a : NO_FORM);
}

static void drop(z3_int *t, qs_idmap *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i] && m->vals[i] != NO_FORM) Z3_dec_ref(t->ctx, (Z3_ast)(uintptr_t)m->vals[i]);
  qs_idmap_free(m);
}

z3_int *z3_int_new(Z3_context ctx) {
  z3_int *t = xcalloc(1, sizeof *t);
  t->ctx = ctx;
  t->int_sort = Z3_mk_int_sort(ctx);
  Z3_inc_ref(ctx, Z3_sort_to_ast(ctx, t->int_sort));
  return t;
}

void z3_int_clear(z3_int *t) {
  drop(t, &t->nodes);
  drop(t, &t->formulas);
  drop(t, &t->bytes);
}

size_t z3_int_size(const z3_int *t) { return t->nodes.count + t->formulas.count + t->bytes.count; }

void z3_int_free(z3_int *t) {
  if (!t) return;
  z3_int_clear(t);
  Z3_dec_ref(t->ctx, Z3_sort_to_ast(t->ctx, t->int_sort));
  qs_idmap_free(&t->seen);
  free(t->tmp.ast);
  free(t->stack);
  free(t->ranges);
  free(t->ups);
  free(t);
}

/* ---- terms ------------------------------------------------------------------------------ */

static Z3_ast num(z3_int *t, u128 v) {
  char buf[48], *p = buf + sizeof buf;
  *--p = 0;
  do {
    *--p = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  return hold(t, Z3_mk_numeral(t->ctx, p, t->int_sort));
}

static u128 pow2(unsigned w) { return (u128)1 << w; } /* w ≤ 127 */

static Z3_ast add2(z3_int *t, Z3_ast a, Z3_ast b) {
  Z3_ast two[2] = {a, b};
  return a && b ? hold(t, Z3_mk_add(t->ctx, 2, two)) : NULL;
}

static Z3_ast sub2(z3_int *t, Z3_ast a, Z3_ast b) {
  Z3_ast two[2] = {a, b};
  return a && b ? hold(t, Z3_mk_sub(t->ctx, 2, two)) : NULL;
}

static Z3_ast mul2(z3_int *t, Z3_ast a, Z3_ast b) {
  Z3_ast two[2] = {a, b};
  return a && b ? hold(t, Z3_mk_mul(t->ctx, 2, two)) : NULL;
}

static Z3_ast ite(z3_int *t, Z3_ast c, Z3_ast a, Z3_ast b) {
  return c && a && b ? hold(t, Z3_mk_ite(t->ctx, c, a, b)) : NULL;
}

static Z3_ast ge(z3_int *t, Z3_ast a, Z3_ast b) {
  return a && b ? hold(t, Z3_mk_ge(t->ctx, a, b)) : NULL;
}

/* A Bool as the integer 0 or 1 (the value of a width-1 term). */
static Z3_ast bit(z3_int *t, Z3_ast b) { return ite(t, b, num(t, 1), num(t, 0)); }

/* The signed value of a w-bit term. */
static Z3_ast signed_value(z3_int *t, Z3_ast a, unsigned w) {
  return ite(t, ge(t, a, num(t, pow2(w - 1))), sub2(t, a, num(t, pow2(w))), a);
}

static Z3_ast node(const z3_int *t, const expr *e) {
  uint64_t v = NO_FORM;
  qs_idmap_get(&t->nodes, e->id, &v);
  return v == NO_FORM ? NULL : (Z3_ast)(uintptr_t)v;
}

static uint64_t byte_key(const expr_array *a, uint64_t index) {
  return (uint64_t)a->id << 32 | index;
}

/* The value of byte `at` of a before any write: a variable, its initial byte, or 0 past
 * the capacity (what expr_eval reads). */
static Z3_ast base_byte(z3_int *t, const expr_array *a, uint64_t at) {
  if (at >= a->capacity) return num(t, 0);
  if (a->init) return num(t, a->init[at]);
  uint64_t v;
  if (qs_idmap_get(&t->bytes, byte_key(a, at), &v)) return (Z3_ast)(uintptr_t)v;
  char name[96];
  snprintf(name, sizeof name, "%.48s!%u[%llu]", a->name, a->id, (unsigned long long)at);
  Z3_ast var = Z3_mk_const(t->ctx, Z3_mk_string_symbol(t->ctx, name), t->int_sort);
  if (var) put(t, &t->bytes, byte_key(a, at), var);
  return var;
}

/* Byte `at` of a read through its update list, newest write first. */
static Z3_ast read_byte(z3_int *t, const expr *e, uint64_t at) {
  size_t n = 0;
  Z3_ast r = NULL;
  for (expr_update *u = e->u.read.updates; u; u = u->next) {
    if (u->index->kind == EXPR_CONST) {
      if ((uint64_t)u->index->u.value == at) {
        r = node(t, u->value);
        break;
      }
      continue;
    }
    QS_RESERVE(t->ups, t->ups_cap, n + 1);
    t->ups[n++] = u;
  }
  if (!r) r = base_byte(t, e->u.read.array, at);
  Z3_ast at_term = n ? num(t, at) : NULL;
  while (r && n-- > 0) {
    expr_update *u = t->ups[n];
    Z3_ast same = at_term ? hold(t, Z3_mk_eq(t->ctx, node(t, u->index), at_term)) : NULL;
    r = ite(t, same, node(t, u->value), r);
  }
  return r;
}

static Z3_ast build_read(z3_int *t, const expr *e) {
  u128 at = e->kid[0]->u.value;
  unsigned nbytes = e->width / 8;
  Z3_ast r = NULL;
  for (unsigned b = nbytes; b-- > 0;) {
    Z3_ast byte = read_byte(t, e, (uint64_t)at + b);
    r = !r ? byte : add2(t, mul2(t, r, num(t, 256)), byte);
    if (!r) return NULL;
  }
  return r;
}

static bool has_form(const z3_int *t, const expr *e) { return node(t, e) != NULL; }

/* Whether e can have an integer form given its kind and widths (its operands' forms are
 * checked separately). */
static bool kind_has_form(const expr *e) {
  unsigned w = e->width, wa = e->nkids ? e->kid[0]->width : 0;
  switch (e->kind) {
  case EXPR_CONST:
  case EXPR_EQ:
  case EXPR_NE:
  case EXPR_ITE:
  case EXPR_NOT:
  case EXPR_ADD:
  case EXPR_SUB:
  case EXPR_ZEXT:
  case EXPR_SEXT:
  case EXPR_CONCAT: return w <= 126;
  case EXPR_READ: {
    if (e->kid[0]->kind != EXPR_CONST || w % 8 || e->u.read.array->id >= UINT32_MAX) return false;
    u128 last = e->kid[0]->u.value + w / 8;
    return last <= UINT32_MAX;
  }
  case EXPR_AND:
  case EXPR_OR:
  case EXPR_XOR:
  case EXPR_MUL: return w == 1;
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_UGT:
  case EXPR_UGE:
  case EXPR_SLT:
  case EXPR_SLE:
  case EXPR_SGT:
  case EXPR_SGE: return wa > 1 && wa <= 126;
  case EXPR_EXTRACT: return w == wa;
  default: return false;
  }
}

/* Builds e, whose operands all have forms. */
static Z3_ast build(z3_int *t, const expr *e) {
  Z3_context c = t->ctx;
  unsigned w = e->width, wa = e->nkids ? e->kid[0]->width : 0;
  Z3_ast a = e->nkids > 0 && e->kind != EXPR_READ ? node(t, e->kid[0]) : NULL;
  Z3_ast b = e->nkids > 1 ? node(t, e->kid[1]) : NULL;
  Z3_ast d = e->nkids > 2 ? node(t, e->kid[2]) : NULL;
  switch (e->kind) {
  case EXPR_CONST:
    return w == 1 ? hold(t, e->u.value ? Z3_mk_true(c) : Z3_mk_false(c)) : num(t, e->u.value);
  case EXPR_READ: return build_read(t, e);
  case EXPR_NOT: return w == 1 ? hold(t, Z3_mk_not(c, a)) : sub2(t, num(t, pow2(w) - 1), a);
  case EXPR_AND:
  case EXPR_MUL: return hold(t, Z3_mk_and(c, 2, (Z3_ast[]){a, b}));
  case EXPR_OR: return hold(t, Z3_mk_or(c, 2, (Z3_ast[]){a, b}));
  case EXPR_XOR: return hold(t, Z3_mk_xor(c, a, b));
  case EXPR_ADD:
  case EXPR_SUB: {
    if (w == 1) /* modulo 2 */
      return hold(t, Z3_mk_xor(c, a, b));
    if (e->kind == EXPR_ADD) {
      Z3_ast s = add2(t, a, b), m = num(t, pow2(w));
      return ite(t, ge(t, s, m), sub2(t, s, m), s);
    }
    Z3_ast diff = sub2(t, a, b);
    return ite(t, ge(t, a, b), diff, add2(t, diff, num(t, pow2(w))));
  }
  case EXPR_EQ: return hold(t, Z3_mk_eq(c, a, b));
  case EXPR_NE: {
    Z3_ast eq = hold(t, Z3_mk_eq(c, a, b));
    return eq ? hold(t, Z3_mk_not(c, eq)) : NULL;
  }
  case EXPR_ULT: return hold(t, Z3_mk_lt(c, a, b));
  case EXPR_ULE: return hold(t, Z3_mk_le(c, a, b));
  case EXPR_UGT: return hold(t, Z3_mk_gt(c, a, b));
  case EXPR_UGE: return hold(t, Z3_mk_ge(c, a, b));
  case EXPR_SLT:
  case EXPR_SLE:
  case EXPR_SGT:
  case EXPR_SGE: {
    Z3_ast x = signed_value(t, a, wa), y = signed_value(t, b, wa);
    if (!x || !y) return NULL;
    Z3_ast (*cmp)(Z3_context, Z3_ast, Z3_ast) = e->kind == EXPR_SLT   ? Z3_mk_lt
                                                : e->kind == EXPR_SLE ? Z3_mk_le
                                                : e->kind == EXPR_SGT ? Z3_mk_gt
                                                                      : Z3_mk_ge;
    return hold(t, cmp(c, x, y));
  }
  case EXPR_ZEXT: return wa == 1 ? bit(t, a) : a;
  case EXPR_SEXT:
    if (wa == 1) return ite(t, a, num(t, pow2(w) - 1), num(t, 0));
    return ite(t, ge(t, a, num(t, pow2(wa - 1))), add2(t, a, num(t, pow2(w) - pow2(wa))), a);
  case EXPR_EXTRACT: /* w == wa */ return a;
  case EXPR_CONCAT: {
    unsigned wb = e->kid[1]->width;
    Z3_ast hi = wa == 1 ? bit(t, a) : a, lo = wb == 1 ? bit(t, b) : b;
    return add2(t, mul2(t, hi, num(t, pow2(wb))), lo);
  }
  case EXPR_ITE: return ite(t, a, b, d);
  default: break;
  }
  assert(!"a kind without an integer form");
  return NULL;
}

static void push_new(z3_int *t, size_t *n, expr *e) {
  uint64_t v;
  if (qs_idmap_get(&t->nodes, e->id, &v)) return;
  QS_RESERVE(t->stack, t->stack_cap, *n + 1);
  t->stack[(*n)++] = e;
}

/* Translates root and everything under it into the node cache; false on a Z3 error. */
static bool translate(z3_int *t, expr *root) {
  size_t n = 0;
  push_new(t, &n, root);
  while (n) {
    expr *e = t->stack[n - 1];
    uint64_t v;
    if (qs_idmap_get(&t->nodes, e->id, &v)) {
      n--;
      continue;
    }
    if (!kind_has_form(e)) {
      put(t, &t->nodes, e->id, NULL);
      n--;
      continue;
    }
    size_t before = n;
    if (e->kind == EXPR_READ) {
      for (expr_update *u = e->u.read.updates; u; u = u->next) {
        push_new(t, &n, u->index);
        push_new(t, &n, u->value);
      }
    } else {
      for (unsigned k = 0; k < e->nkids; k++) push_new(t, &n, e->kid[k]);
    }
    if (n != before) continue;
    bool operands = true;
    if (e->kind == EXPR_READ) {
      for (expr_update *u = e->u.read.updates; u && operands; u = u->next)
        operands = has_form(t, u->index) && has_form(t, u->value);
    } else {
      for (unsigned k = 0; k < e->nkids && operands; k++) operands = has_form(t, e->kid[k]);
    }
    Z3_ast r = operands ? build(t, e) : NULL;
    if (operands && !r) return false; /* a Z3 error */
    put(t, &t->nodes, e->id, r);
    n--;
  }
  return true;
}

/* 0 ≤ byte ≤ 255 for each byte variable f reads, conjoined to f's term. */
static Z3_ast with_ranges(z3_int *t, expr *f, Z3_ast term) {
  size_t n = 0, nr = 0;
  qs_idmap_reset(&t->seen, 64);
  QS_RESERVE(t->ranges, t->ranges_cap, 1);
  t->ranges[nr++] = term;
  Z3_ast zero = num(t, 0), top = num(t, 255);
  if (!zero || !top) return NULL;
  qs_push_unseen(&t->seen, &t->stack, &n, &t->stack_cap, f);
  while (n) {
    expr *e = t->stack[--n];
    if (e->kind == EXPR_READ) {
      const expr_array *a = e->u.read.array;
      uint64_t at = (uint64_t)e->kid[0]->u.value; /* constant: f has a form */
      for (uint64_t k = 0; k < e->width / 8u; k++) {
        uint64_t key = byte_key(a, at + k), v;
        if (a->init || at + k >= a->capacity || !qs_idmap_get(&t->bytes, key, &v)) continue;
        uint64_t mark = (uint64_t)1 << 63 | key; /* bytes and nodes share `seen` */
        if (qs_idmap_get(&t->seen, mark, NULL)) continue;
        qs_idmap_put(&t->seen, mark, 0);
        Z3_ast var = (Z3_ast)(uintptr_t)v;
        Z3_ast lo = hold(t, Z3_mk_le(t->ctx, zero, var)), hi = hold(t, Z3_mk_le(t->ctx, var, top));
        if (!lo || !hi) return NULL;
        QS_RESERVE(t->ranges, t->ranges_cap, nr + 2);
        t->ranges[nr++] = lo;
        t->ranges[nr++] = hi;
      }
      for (expr_update *u = e->u.read.updates; u; u = u->next) {
        qs_push_unseen(&t->seen, &t->stack, &n, &t->stack_cap, u->index);
        qs_push_unseen(&t->seen, &t->stack, &n, &t->stack_cap, u->value);
      }
      continue;
    }
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&t->seen, &t->stack, &n, &t->stack_cap, e->kid[k]);
  }
  return nr == 1 ? term : hold(t, Z3_mk_and(t->ctx, (unsigned)nr, t->ranges));
}

Z3_ast z3_int_formula(z3_int *t, expr *f) {
  assert(f->width == 1);
  uint64_t v;
  if (qs_idmap_get(&t->formulas, f->id, &v)) return v == NO_FORM ? NULL : (Z3_ast)(uintptr_t)v;
  Z3_ast r = NULL;
  if (translate(t, f)) {
    Z3_ast term = node(t, f);
    r = term ? with_ranges(t, f, term) : NULL;
    if (!term || r) put(t, &t->formulas, f->id, r);
  }
  release_tmp(t);
  return r;
}

bool z3_int_model_bytes(z3_int *t, Z3_model m, const expr_array *a, uint8_t *bytes) {
  bool ok = true;
  for (uint64_t i = 0; i < a->capacity && ok; i++) {
    uint64_t v, value = 0;
    bytes[i] = a->init ? a->init[i] : 0;
    if (a->init || i > UINT32_MAX || !qs_idmap_get(&t->bytes, byte_key(a, i), &v)) continue;
    Z3_ast out = NULL;
    ok = Z3_model_eval(t->ctx, m, (Z3_ast)(uintptr_t)v, true, &out) && hold(t, out);
    /* a byte of no asserted formula may take any value: only its low 8 bits matter */
    if (ok && Z3_is_numeral_ast(t->ctx, out) && Z3_get_numeral_uint64(t->ctx, out, &value))
      bytes[i] = (uint8_t)value;
  }
  release_tmp(t);
  return ok;
}
