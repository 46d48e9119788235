/*
 * test_expr.c — unit tests of engine/core/expr: everything in expr.h except the differential
 * constant-folding test (test_expr_fold.c).
 *
 * Each test group builds its expressions through `keep()` (which records the new reference)
 * and ends with `end_group()`, which releases them all and checks that the live counts of
 * nodes, arrays and update lists are back where the group started: a leak or a double
 * release in expr.c shows up in the group that caused it.
 *
 * Groups: constants, hash-consing, reference counting (with a 1,000,000-deep chain),
 * simplification at construction, read-over-write and read merging, the pattern hash,
 * evaluation (with a reference implementation of every operator written here, independent
 * of expr.c), division of extended operands and its identity, forall, substitution, array
 * collection, the SMT-LIB printer (replayed with the `z3` command) and the memspn example of
 * pat-merge.md §5.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/core/expr.h"

/* ---- references kept until the end of a group ------------------------------------------ */

static expr **kept_e;
static size_t n_kept_e, cap_kept_e;
static expr_array **kept_a;
static size_t n_kept_a, cap_kept_a;
static expr_update **kept_u;
static size_t n_kept_u, cap_kept_u;

static void *grow(void *p, size_t *cap, size_t elem) {
  *cap = *cap ? *cap * 2 : 256;
  p = realloc(p, *cap * elem);
  if (!p) abort();
  return p;
}

static expr *keep(expr *e) {
  if (!e) {
    fprintf(stderr, "test_expr: a constructor returned NULL\n");
    abort();
  }
  if (n_kept_e == cap_kept_e) kept_e = grow(kept_e, &cap_kept_e, sizeof *kept_e);
  kept_e[n_kept_e++] = e;
  return e;
}

static expr_array *keep_a(expr_array *a) {
  if (n_kept_a == cap_kept_a) kept_a = grow(kept_a, &cap_kept_a, sizeof *kept_a);
  kept_a[n_kept_a++] = a;
  return a;
}

static expr_update *keep_u(expr_update *u) {
  if (n_kept_u == cap_kept_u) kept_u = grow(kept_u, &cap_kept_u, sizeof *kept_u);
  kept_u[n_kept_u++] = u;
  return u;
}

static void release_kept(void) {
  /* Release in reverse order of creation; the order must not matter, but this is the one
   * least likely to hide a premature free behind a still-held reference. */
  while (n_kept_e) expr_unref(kept_e[--n_kept_e]);
  while (n_kept_u) expr_update_unref(kept_u[--n_kept_u]);
  while (n_kept_a) expr_array_unref(kept_a[--n_kept_a]);
}

typedef struct group {
  const char *name;
  size_t nodes, arrays, updates;
  unsigned long failed_before;
} group;

static group begin_group(const char *name) {
  group g = {name, expr_live_count(), expr_live_arrays(), expr_live_updates(), check_failed};
  return g;
}

static void end_group(group g) {
  release_kept();
  CHECK_EQ_U64(expr_live_count(), g.nodes);
  CHECK_EQ_U64(expr_live_arrays(), g.arrays);
  CHECK_EQ_U64(expr_live_updates(), g.updates);
  printf("  %-14s %s\n", g.name, check_failed == g.failed_before ? "ok" : "FAILED");
}

/* ---- small builders (all results kept) --------------------------------------------------- */

static u128 mask(unsigned w) { return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1); }

static expr *cw(unsigned w, u128 v) { return keep(expr_const(w, v)); }
static expr *c8(u128 v) { return cw(8, v); }
static expr *c32(u128 v) { return cw(32, v); }
static expr *c64(u128 v) { return cw(64, v); }

/* An input array of `cap` bytes with constant size `cap`. */
static expr_array *arr(const char *name, uint64_t cap) {
  expr *size = expr_const(64, cap);
  expr_array *a = keep_a(expr_array_new(name, size, cap, true, NULL));
  expr_unref(size);
  return a;
}

static expr *rd(expr_array *a, expr_update *u, uint64_t i) { return keep(expr_read(a, u, c64(i))); }

static expr *rdx(expr_array *a, expr_update *u, expr *index) {
  return keep(expr_read(a, u, index));
}

/* A w-bit variable (w a multiple of 8): the little-endian read of a fresh array at 0. */
static expr *var(const char *name, unsigned w) {
  expr_array *a = arr(name, w / 8);
  return keep(expr_read_le(a, NULL, c64(0), w / 8));
}

static expr_update *push(expr_array *a, expr_update *next, expr *index, expr *value) {
  return keep_u(expr_update_push(a, next, index, value));
}

#define ADD(a, b) keep(expr_add((a), (b)))
#define SUB(a, b) keep(expr_sub((a), (b)))
#define MUL(a, b) keep(expr_mul((a), (b)))
#define AND(a, b) keep(expr_and((a), (b)))
#define OR(a, b) keep(expr_or((a), (b)))
#define XOR(a, b) keep(expr_xor((a), (b)))
#define NOT(a) keep(expr_not((a)))
#define EQ(a, b) keep(expr_eq((a), (b)))
#define NE(a, b) keep(expr_ne((a), (b)))
#define ULT(a, b) keep(expr_ult((a), (b)))
#define ULE(a, b) keep(expr_ule((a), (b)))
#define ITE(c, a, b) keep(expr_ite((c), (a), (b)))
#define ZEXT(a, w) keep(expr_zext((a), (w)))
#define EXTRACT(a, lo, w) keep(expr_extract((a), (lo), (w)))
#define CONCAT(h, l) keep(expr_concat((h), (l)))
#define TRUE_ keep(expr_true())
#define FALSE_ keep(expr_false())

static const char *hex128(u128 v, char buf[40]) {
  uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
  if (hi) snprintf(buf, 40, "0x%" PRIx64 "%016" PRIx64, hi, lo);
  else
    snprintf(buf, 40, "0x%" PRIx64, lo);
  return buf;
}

#define CHECK_EQ_U128(a, b)                                                      \
  do {                                                                           \
    u128 check_a_ = (a), check_b_ = (b);                                         \
    check_report(check_a_ == check_b_, __FILE__, __LINE__, #a " == " #b);        \
    if (check_a_ != check_b_) {                                                  \
      char ba_[40], bb_[40];                                                     \
      fprintf(stderr, "    left  = %s\n    right = %s\n", hex128(check_a_, ba_), \
              hex128(check_b_, bb_));                                            \
    }                                                                            \
  } while (0)

/* Pointer equality of two expressions; on failure prints both. */
#define CHECK_SAME(a, b)                                                             \
  do {                                                                               \
    const expr *cs_a_ = (a), *cs_b_ = (b);                                           \
    check_report(cs_a_ == cs_b_, __FILE__, __LINE__, #a " is the same node as " #b); \
    if (cs_a_ != cs_b_) show2(cs_a_, cs_b_);                                         \
  } while (0)

#define CHECK_DIFF(a, b)                                                                  \
  do {                                                                                    \
    const expr *cs_a_ = (a), *cs_b_ = (b);                                                \
    check_report(cs_a_ != cs_b_, __FILE__, __LINE__, #a " is a different node from " #b); \
    if (cs_a_ == cs_b_) show2(cs_a_, cs_b_);                                              \
  } while (0)

static void show2(const expr *a, const expr *b) {
  char *sa = expr_to_string(a), *sb = expr_to_string(b);
  fprintf(stderr, "    left  = %s\n    right = %s\n", sa, sb);
  free(sa);
  free(sb);
}

static void show(const char *label, const expr *e) {
  char *s = expr_to_string(e);
  fprintf(stderr, "    %s = %s\n", label, s);
  free(s);
}

static bool is_const_value(const expr *e, unsigned w, u128 v) {
  return e->kind == EXPR_CONST && e->width == w && e->u.value == (v & mask(w));
}

#define CHECK_CONST(e, w, v)                                          \
  do {                                                                \
    const expr *cc_e_ = (e);                                          \
    check_report(is_const_value(cc_e_, (w), (v)), __FILE__, __LINE__, \
                 #e " is the constant " #v " of width " #w);          \
    if (!is_const_value(cc_e_, (w), (v))) show("got", cc_e_);         \
  } while (0)

/* ---- deterministic randomness ------------------------------------------------------------ */

static uint64_t rng_state = 0x7e57e4b12ULL;

static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n) { return (unsigned)(rng_next() % n); }

/* ======================================================================================= */
/* constants                                                                                */
/* ======================================================================================= */

static void test_constants(void) {
  group g = begin_group("constants");
  CHECK_EQ_U128(expr_mask(1), 1);
  CHECK_EQ_U128(expr_mask(8), 0xff);
  CHECK_EQ_U128(expr_mask(63), (((u128)1 << 63) - 1));
  CHECK_EQ_U128(expr_mask(64), (u128)UINT64_MAX);
  CHECK_EQ_U128(expr_mask(127), (~(u128)0) >> 1);
  CHECK_EQ_U128(expr_mask(128), ~(u128)0);

  CHECK_SAME(c32(5), c32(5));
  CHECK_SAME(c32(5), c32(5 | ((u128)1 << 40) | ((u128)3 << 100))); /* truncated */
  CHECK_CONST(c32(5 | ((u128)1 << 40)), 32, 5);
  CHECK_DIFF(c32(5), c64(5));
  CHECK_DIFF(c32(5), c32(6));
  CHECK_CONST(cw(128, ~(u128)0), 128, ~(u128)0);
  CHECK_CONST(cw(128, (u128)1 << 127), 128, (u128)1 << 127);
  CHECK_DIFF(cw(128, (u128)1 << 127), cw(128, (u128)1 << 126));
  CHECK_CONST(cw(1, 3), 1, 1);
  CHECK_CONST(cw(7, 0x1ff), 7, 0x7f);

  expr *t = TRUE_, *f = FALSE_;
  CHECK_CONST(t, 1, 1);
  CHECK_CONST(f, 1, 0);
  CHECK_SAME(cw(1, 1), t);
  CHECK_SAME(cw(1, 0), f);
  CHECK_SAME(keep(expr_bool(true)), t);
  CHECK_SAME(keep(expr_bool(false)), f);
  CHECK(expr_is_true(t) && !expr_is_false(t));
  CHECK(expr_is_false(f) && !expr_is_true(f));
  CHECK(expr_is_const(t) && expr_is_const(c32(0)));
  expr *x = var("x", 32);
  CHECK(!expr_is_const(x));
  expr *b = ULT(x, c32(7));
  CHECK(!expr_is_true(b) && !expr_is_false(b));
  CHECK(!expr_is_true(c32(1))); /* true is width 1 */
  CHECK(!expr_is_false(c32(0)));

  /* Kind names exist and are distinct. */
  for (int k = 0; k < EXPR_KIND_COUNT; k++) {
    const char *nk = expr_kind_name((expr_kind)k);
    CHECK(nk && *nk);
    for (int j = 0; j < k && nk; j++) {
      const char *nj = expr_kind_name((expr_kind)j);
      if (nj && strcmp(nj, nk) == 0) {
        check_report(0, __FILE__, __LINE__, "expr_kind_name gives distinct names");
        fprintf(stderr, "    kinds %d and %d are both \"%s\"\n", j, k, nk);
      }
    }
  }
  /* Printing does something sensible. */
  char *s = expr_to_string(ADD(x, c32(3)));
  CHECK(s && strlen(s) > 0);
  free(s);
  FILE *tf = tmpfile();
  CHECK(tf != NULL);
  if (tf) {
    expr_print(tf, b);
    CHECK(ftell(tf) > 0);
    fclose(tf);
  }
  end_group(g);
}

/* ======================================================================================= */
/* hash-consing                                                                             */
/* ======================================================================================= */

/* A random term over 32-bit leaves, described first and built afterwards, so the same term
 * can be built in two different orders. */
typedef struct tnode {
  int op;   /* -1: leaf */
  int leaf; /* index into leaves */
  int l, r; /* children (indices into the node pool) */
} tnode;

enum { T_ADD, T_MUL, T_AND, T_OR, T_XOR, T_SUB, T_UDIV, T_SHL, T_ULT_ITE, T_EQ_ITE, T_NOPS };
static const bool t_commutative[T_NOPS] = {true,  true,  true,  true,  true,
                                           false, false, false, false, true};

static tnode tpool[4096];
static int ntpool;

static int gen_tree(int depth, int nleaves) {
  int n = ntpool++;
  if (depth == 0 || rng_below(5) == 0) {
    tpool[n].op = -1;
    tpool[n].leaf = (int)rng_below((unsigned)nleaves);
    return n;
  }
  tpool[n].op = (int)rng_below(T_NOPS);
  int l = gen_tree(depth - 1, nleaves);
  int r = gen_tree(depth - 1, nleaves);
  tpool[n].l = l;
  tpool[n].r = r;
  return n;
}

/* Builds tree n; `flip` builds the right child first and passes commutative operands the
 * other way round. */
static expr *build_tree(int n, expr **leaves, bool flip) {
  tnode *t = &tpool[n];
  if (t->op < 0) return leaves[t->leaf];
  expr *a, *b;
  if (flip) {
    b = build_tree(t->r, leaves, flip);
    a = build_tree(t->l, leaves, flip);
  } else {
    a = build_tree(t->l, leaves, flip);
    b = build_tree(t->r, leaves, flip);
  }
  expr *p = a, *q = b;
  if (flip && t_commutative[t->op]) {
    p = b;
    q = a;
  }
  switch (t->op) {
  case T_ADD: return ADD(p, q);
  case T_MUL: return MUL(p, q);
  case T_AND: return AND(p, q);
  case T_OR: return OR(p, q);
  case T_XOR: return XOR(p, q);
  case T_SUB: return SUB(p, q);
  case T_UDIV: return keep(expr_udiv(p, q));
  case T_SHL: return keep(expr_shl(p, q));
  case T_ULT_ITE: return ITE(ULT(p, q), p, q);
  case T_EQ_ITE: return ITE(EQ(p, q), a, b); /* eq commutative, the arms are not */
  }
  abort();
}

static void test_hashcons(void) {
  group g = begin_group("hash-consing");
  expr *x = var("x", 32), *y = var("y", 32), *z = var("z", 32);
  CHECK(x->id < y->id && y->id < z->id);

  /* Same term, built twice in different orders. */
  expr *t1 = MUL(ADD(x, y), z);
  expr *zy = SUB(z, y);
  expr *t2 = MUL(z, ADD(y, x));
  CHECK_SAME(t1, t2);
  expr *u1 = AND(zy, XOR(x, c32(0x55)));
  expr *u2 = AND(XOR(c32(0x55), x), SUB(z, y));
  CHECK_SAME(u1, u2);
  CHECK(t1->refcount >= 2);

  /* Commutative operands either way round. */
  CHECK_SAME(ADD(x, y), ADD(y, x));
  CHECK_SAME(MUL(x, y), MUL(y, x));
  CHECK_SAME(AND(x, y), AND(y, x));
  CHECK_SAME(OR(x, y), OR(y, x));
  CHECK_SAME(XOR(x, y), XOR(y, x));
  CHECK_SAME(EQ(x, y), EQ(y, x));

  /* Distinct structure, distinct nodes. */
  CHECK_DIFF(SUB(x, y), SUB(y, x));
  CHECK_DIFF(ULT(x, y), ULT(y, x));
  CHECK_DIFF(keep(expr_slt(x, y)), ULT(x, y));
  CHECK_DIFF(ADD(x, y), MUL(x, y));
  CHECK_DIFF(ADD(x, c32(1)), ADD(x, c32(2)));
  CHECK_DIFF(ADD(x, y), ADD(x, z));
  CHECK_DIFF(EXTRACT(x, 0, 8), EXTRACT(x, 8, 8));
  CHECK_DIFF(EXTRACT(x, 0, 8), EXTRACT(x, 0, 16));
  CHECK_DIFF(ZEXT(EXTRACT(x, 0, 8), 16), keep(expr_sext(EXTRACT(x, 0, 8), 16)));
  CHECK_DIFF(keep(expr_udiv(x, y)), keep(expr_sdiv(x, y)));
  CHECK_DIFF(keep(expr_lshr(x, y)), keep(expr_ashr(x, y)));
  expr_array *A = arr("hA", 16), *B = arr("hB", 16);
  CHECK_DIFF(rd(A, NULL, 0), rd(B, NULL, 0));
  CHECK_DIFF(rd(A, NULL, 0), rd(A, NULL, 1));
  CHECK_SAME(rd(A, NULL, 3), rd(A, NULL, 3));
  expr *i = var("hi", 64);
  expr_update *w1 = push(A, NULL, i, c8(1));
  CHECK_DIFF(rdx(A, w1, ADD(i, c64(1))), rdx(A, NULL, ADD(i, c64(1))));
  CHECK_SAME(rdx(A, w1, ADD(i, c64(1))), rdx(A, w1, ADD(c64(1), i)));
  expr *bv1 = keep(expr_bvar_fresh(64, "i")), *bv2 = keep(expr_bvar_fresh(64, "i"));
  CHECK_DIFF(bv1, bv2);
  CHECK(bv1->kind == EXPR_BVAR && bv1->width == 64);

  /* Foralls are interned like any node. */
  expr *fb = ULT(bv1, ZEXT(x, 64));
  CHECK_SAME(keep(expr_forall(bv1, c64(1), c64(4), fb)),
             keep(expr_forall(bv1, c64(1), c64(4), fb)));
  CHECK_DIFF(keep(expr_forall(bv1, c64(1), c64(4), fb)),
             keep(expr_forall(bv1, c64(1), c64(5), fb)));
  CHECK_DIFF(keep(expr_forall(bv1, c64(1), c64(4), fb)),
             keep(expr_forall(bv2, c64(1), c64(4), ULT(bv2, ZEXT(x, 64)))));

  /* Update lists are interned too: same (next, index, value), same list. */
  expr_update *p1 = push(A, NULL, i, c8(7)), *p2 = push(A, NULL, i, c8(7));
  CHECK_EQ_PTR(p1, p2);
  expr_update *p3 = push(A, p1, c64(4), c8(9));
  CHECK_EQ_PTR(p3->next, p1);
  CHECK(p3->array == A && p1->array == A);
  CHECK_EQ_U64(p3->length, 2);
  CHECK_EQ_U64(p1->length, 1);
  CHECK_EQ_PTR(push(A, p1, c64(4), c8(9)), p3);
  CHECK(push(A, p1, c64(4), c8(8)) != p3);

  /* Random terms built twice: left-first, then right-first with commutative operands
   * swapped, and the other way round on fresh nodes. The same root both times, and the
   * second construction creates no node. */
  expr *leaves[8] = {x, y, z, c32(0), c32(1), c32(0x12345), rd(A, NULL, 5), var("w", 32)};
  leaves[6] = ZEXT(leaves[6], 32);
  unsigned long same = 0;
  for (int k = 0; k < 400; k++) {
    ntpool = 0;
    int root = gen_tree(7, 8);
    size_t mark = n_kept_e;
    bool first_flip = k & 1;
    expr *ra = build_tree(root, leaves, first_flip);
    size_t live = expr_live_count();
    expr *rb = build_tree(root, leaves, !first_flip);
    if (ra == rb && expr_live_count() == live) {
      same++;
      check_passed++;
    } else {
      check_report(0, __FILE__, __LINE__, "random term built twice is one node");
      if (ra != rb) show2(ra, rb);
      else
        fprintf(stderr, "    second construction created %zu nodes\n", expr_live_count() - live);
    }
    while (n_kept_e > mark) expr_unref(kept_e[--n_kept_e]);
  }
  printf("    %lu random terms rebuilt in another order to the same node\n", same);
  end_group(g);
}

/* ======================================================================================= */
/* reference counting                                                                       */
/* ======================================================================================= */

static void test_refcount(void) {
  group g = begin_group("refcount");
  size_t n0 = expr_live_count(), a0 = expr_live_arrays(), u0 = expr_live_updates();

  /* A node whose last reference goes away is freed, and its id is never reused. */
  expr *k = expr_const(32, 0xdeadbeef);
  uint64_t id1 = k->id;
  CHECK_EQ_U64(expr_live_count(), n0 + 1);
  CHECK_EQ_PTR(expr_ref(k), k);
  CHECK_EQ_U64(k->refcount, 2);
  expr_unref(k);
  CHECK_EQ_U64(k->refcount, 1);
  expr_unref(k);
  CHECK_EQ_U64(expr_live_count(), n0);
  k = expr_const(32, 0xdeadbeef);
  CHECK(k->id != id1 && k->id > id1);
  expr_unref(k);
  expr_unref(NULL); /* allowed */

  /* Arrays live as long as a read holds them. */
  expr *sz = expr_const(64, 8);
  expr_array *a = expr_array_new("rcA", sz, 8, true, NULL);
  expr_unref(sz);
  CHECK_EQ_U64(expr_live_arrays(), a0 + 1);
  CHECK_EQ_STR(a->name, "rcA");
  CHECK_EQ_U64(a->capacity, 8);
  CHECK(a->is_input && a->init == NULL);
  CHECK(a->size && is_const_value(a->size, 64, 8));
  expr *idx = expr_const(64, 2);
  expr *r = expr_read(a, NULL, idx);
  expr_unref(idx);
  expr_array_unref(a);
  CHECK_EQ_U64(expr_live_arrays(), a0 + 1);
  CHECK_EQ_STR(r->u.read.array->name, "rcA");
  expr *r2 = expr_read_le(r->u.read.array, NULL, r->kid[0], 4);
  expr_unref(r);
  CHECK_EQ_U64(expr_live_arrays(), a0 + 1);
  expr_unref(r2);
  CHECK_EQ_U64(expr_live_arrays(), a0);
  CHECK_EQ_U64(expr_live_count(), n0);

  /* Update lists: a push holds its suffix. */
  sz = expr_const(64, 4);
  a = expr_array_new("rcB", sz, 4, false, NULL);
  expr_unref(sz);
  expr *i0 = expr_const(64, 0), *v = expr_const(8, 0x41);
  expr *sym = expr_read_le(a, NULL, i0, 4);
  expr *symi = expr_zext(sym, 64);
  expr_update *l1 = expr_update_push(a, NULL, symi, v);
  expr_update *l2 = expr_update_push(a, l1, i0, v);
  CHECK_EQ_U64(expr_live_updates(), u0 + 2);
  expr_update_unref(l1);
  CHECK_EQ_U64(expr_live_updates(), u0 + 2);
  CHECK_EQ_PTR(expr_update_ref(l2), l2);
  expr_update_unref(l2);
  expr *rr = expr_read(a, l2, symi);
  expr_update_unref(l2);
  CHECK_EQ_U64(expr_live_updates(), u0 + 2);
  expr_unref(rr);
  CHECK_EQ_U64(expr_live_updates(), u0);
  expr_unref(i0);
  expr_unref(v);
  expr_unref(sym);
  expr_unref(symi);
  expr_array_unref(a);
  CHECK_EQ_U64(expr_live_arrays(), a0);
  CHECK_EQ_U64(expr_live_count(), n0);

  /* A chain of 1,000,000 nested adds, released from its root: the release must be
   * iterative (a recursive one overflows an 8 MB stack at this depth). */
  enum { DEPTH = 1000000 };
  sz = expr_const(64, 8);
  a = expr_array_new("rcC", sz, 8, true, NULL);
  expr_unref(sz);
  i0 = expr_const(64, 0);
  expr *i4 = expr_const(64, 4);
  expr *vx = expr_read_le(a, NULL, i0, 4), *vy = expr_read_le(a, NULL, i4, 4);
  expr_unref(i0);
  expr_unref(i4);
  expr *e = expr_ref(vx);
  size_t before = expr_live_count();
  for (int d = 0; d < DEPTH; d++) {
    expr *n = expr_add((d & 1) ? vx : vy, e);
    expr_unref(e);
    e = n;
  }
  size_t grown = expr_live_count() - before;
  CHECK(grown >= DEPTH); /* no simplification collapsed the chain */
  if (grown < DEPTH) fprintf(stderr, "    the chain has only %zu nodes\n", grown);
  expr_unref(e);
  CHECK_EQ_U64(expr_live_count(), before);

  /* A long update list, released from its head. */
  expr_update *ul = NULL;
  expr *byte = expr_extract(vx, 0, 8), *vidx = expr_zext(vy, 64);
  for (int d = 0; d < DEPTH; d++) {
    expr_update *n = expr_update_push(a, ul, vidx, byte);
    expr_update_unref(ul);
    ul = n;
  }
  CHECK_EQ_U64(expr_live_updates(), u0 + DEPTH);
  CHECK_EQ_U64(ul->length, DEPTH);
  expr_update_unref(ul);
  CHECK_EQ_U64(expr_live_updates(), u0);
  expr_unref(byte);
  expr_unref(vidx);
  expr_unref(vx);
  expr_unref(vy);
  expr_array_unref(a);
  CHECK_EQ_U64(expr_live_count(), n0);
  CHECK_EQ_U64(expr_live_arrays(), a0);
  end_group(g);
}

/* ======================================================================================= */
/* simplification at construction                                                           */
/* ======================================================================================= */

static void test_simplify(void) {
  group g = begin_group("simplify");
  expr *x = var("sx", 32), *y = var("sy", 32);
  CHECK(x->id < y->id);
  expr *c0 = c32(0), *c1 = c32(1), *ones = c32(0xffffffff);

  /* Neutral and absorbing elements. */
  CHECK_SAME(ADD(x, c0), x);
  CHECK_SAME(ADD(c0, x), x);
  CHECK_SAME(SUB(x, c0), x);
  CHECK_SAME(MUL(x, c1), x);
  CHECK_SAME(MUL(c1, x), x);
  CHECK_SAME(MUL(x, c0), c0);
  CHECK_SAME(MUL(c0, x), c0);
  CHECK_SAME(AND(x, c0), c0);
  CHECK_SAME(AND(x, ones), x);
  CHECK_SAME(OR(x, ones), ones);
  CHECK_SAME(OR(x, c0), x);
  CHECK_SAME(XOR(x, c0), x);
  CHECK_SAME(XOR(x, x), c0);
  CHECK_SAME(SUB(x, x), c0);
  CHECK_SAME(keep(expr_udiv(x, c1)), x);
  CHECK_SAME(keep(expr_shl(x, c0)), x);
  CHECK_SAME(keep(expr_lshr(x, c0)), x);
  CHECK_SAME(keep(expr_ashr(x, c0)), x);
  expr *b = ULT(x, y);
  CHECK_SAME(AND(b, TRUE_), b);
  CHECK_SAME(AND(b, FALSE_), FALSE_);
  CHECK_SAME(OR(b, FALSE_), b);
  CHECK_SAME(OR(b, TRUE_), TRUE_);
  CHECK_SAME(EQ(x, x), TRUE_);

  /* Widened booleans combined bitwise narrow to the booleans (in_set's `found |= *p == c`):
   * a test of the int is the comparisons' own disjunction. */
  expr *e7 = EQ(x, c32(7)), *wide = OR(ZEXT(b, 32), ZEXT(e7, 32));
  CHECK_SAME(wide, ZEXT(OR(b, e7), 32));
  CHECK_SAME(EQ(c0, wide), NOT(OR(b, e7)));
  CHECK_SAME(AND(ZEXT(b, 32), ZEXT(e7, 32)), ZEXT(AND(b, e7), 32));
  CHECK_SAME(XOR(ZEXT(b, 32), ZEXT(e7, 32)), ZEXT(XOR(b, e7), 32));
  expr *half = ZEXT(var("sh", 16), 32); /* different source widths stay as they are */
  CHECK(OR(ZEXT(b, 32), half)->kind == EXPR_OR);

  /* Canonical order: a constant first, then by id. */
  expr *a5 = ADD(x, c32(5));
  CHECK(a5->kind == EXPR_ADD && a5->kid[0]->kind == EXPR_CONST && a5->kid[1] == x);
  CHECK_SAME(ADD(c32(5), x), a5);
  expr *m5 = MUL(x, c32(5));
  CHECK(m5->kind == EXPR_MUL && m5->kid[0]->kind == EXPR_CONST && m5->kid[1] == x);
  expr *n5 = AND(x, c32(5));
  CHECK(n5->kind == EXPR_AND && n5->kid[0]->kind == EXPR_CONST && n5->kid[1] == x);
  expr *o5 = OR(x, c32(5));
  CHECK(o5->kind == EXPR_OR && o5->kid[0]->kind == EXPR_CONST);
  expr *x5 = XOR(x, c32(5));
  CHECK(x5->kind == EXPR_XOR && x5->kid[0]->kind == EXPR_CONST);
  expr *e5 = EQ(x, c32(5));
  CHECK(e5->kind == EXPR_EQ && e5->kid[0]->kind == EXPR_CONST && e5->kid[1] == x);
  CHECK_SAME(EQ(c32(5), x), e5);
  expr *yx = ADD(y, x);
  CHECK(yx->kind == EXPR_ADD && yx->kid[0] == x && yx->kid[1] == y);
  expr *myx = MUL(y, x);
  CHECK(myx->kind == EXPR_MUL && myx->kid[0] == x && myx->kid[1] == y);
  expr *eyx = EQ(y, x);
  CHECK(eyx->kind == EXPR_EQ && eyx->kid[0] == x && eyx->kid[1] == y);

  /* sub x c is add (−c) x. */
  expr *s5 = SUB(x, c32(5));
  CHECK(s5->kind == EXPR_ADD);
  CHECK_SAME(s5, ADD(c32((u128)-5), x));
  CHECK(s5->kid[0] && is_const_value(s5->kid[0], 32, 0xfffffffb) && s5->kid[1] == x);

  /* Nested constant adds fold. */
  CHECK_SAME(ADD(ADD(x, c32(3)), c32(5)), ADD(c32(8), x));
  CHECK_SAME(ADD(c32(3), ADD(c32(5), x)), ADD(c32(8), x));
  CHECK_SAME(SUB(ADD(x, c32(3)), c32(3)), x);
  CHECK_SAME(ADD(SUB(x, c32(3)), c32(5)), ADD(c32(2), x));
  CHECK_SAME(ADD(ADD(x, ones), c1), x);
  CHECK_SAME(SUB(SUB(x, c32(1)), c32(2)), ADD(c32((u128)-3), x));

  /* ite. */
  expr *cnd = EQ(x, c32(5));
  CHECK_SAME(ITE(cnd, y, y), y);
  CHECK_SAME(ITE(TRUE_, x, y), x);
  CHECK_SAME(ITE(FALSE_, x, y), y);

  /* not(not x), at 32 bits and on a boolean. */
  CHECK_SAME(NOT(NOT(x)), x);
  CHECK_SAME(NOT(NOT(b)), b);
  CHECK_SAME(NOT(TRUE_), FALSE_);

  /* eq on booleans. */
  CHECK_SAME(EQ(b, TRUE_), b);
  CHECK_SAME(EQ(TRUE_, b), b);
  CHECK_SAME(EQ(b, FALSE_), NOT(b));
  CHECK_SAME(EQ(FALSE_, b), NOT(b));

  /* Width changes that change nothing. */
  CHECK_SAME(EXTRACT(x, 0, 32), x);
  CHECK_SAME(ZEXT(x, 32), x);
  CHECK_SAME(keep(expr_sext(x, 32)), x);
  CHECK_SAME(keep(expr_resize(x, 32, false)), x);
  CHECK_SAME(keep(expr_resize(x, 32, true)), x);
  CHECK_SAME(keep(expr_resize(x, 64, false)), ZEXT(x, 64));
  CHECK_SAME(keep(expr_resize(x, 64, true)), keep(expr_sext(x, 64)));
  CHECK_SAME(keep(expr_resize(x, 8, true)), EXTRACT(x, 0, 8));
  CHECK_SAME(keep(expr_resize(x, 8, false)), EXTRACT(x, 0, 8));
  CHECK(ZEXT(x, 64)->width == 64 && EXTRACT(x, 3, 5)->width == 5 && CONCAT(x, y)->width == 64);

  /* Comparisons are built from the canonical kinds. */
  CHECK_SAME(NE(x, y), NOT(EQ(x, y)));
  CHECK_SAME(keep(expr_ugt(x, y)), ULT(y, x));
  CHECK_SAME(keep(expr_uge(x, y)), ULE(y, x));
  CHECK_SAME(keep(expr_sgt(x, y)), keep(expr_slt(y, x)));
  CHECK_SAME(keep(expr_sge(x, y)), keep(expr_sle(y, x)));
  CHECK_SAME(keep(expr_binary(EXPR_UGT, x, y)), ULT(y, x));
  CHECK_SAME(keep(expr_binary(EXPR_NE, x, y)), NOT(EQ(x, y)));
  expr *b2 = EQ(x, c32(9));
  CHECK_SAME(keep(expr_implies(b, b2)), OR(NOT(b), b2));
  expr *cmp[] = {NE(x, y),
                 keep(expr_ugt(x, y)),
                 keep(expr_uge(x, y)),
                 keep(expr_sgt(x, y)),
                 keep(expr_sge(x, y)),
                 keep(expr_ne(x, c32(3))),
                 keep(expr_ugt(x, c32(3)))};
  for (size_t k = 0; k < sizeof cmp / sizeof cmp[0]; k++) {
    expr_kind kk = cmp[k]->kind;
    bool canonical =
        kk != EXPR_NE && kk != EXPR_UGT && kk != EXPR_UGE && kk != EXPR_SGT && kk != EXPR_SGE;
    CHECK(canonical);
    CHECK_EQ_U64(cmp[k]->width, 1);
    /* ... and so is anything below them. */
    for (unsigned j = 0; j < cmp[k]->nkids; j++) {
      expr_kind kj = cmp[k]->kid[j]->kind;
      CHECK(kj != EXPR_NE && kj != EXPR_UGT && kj != EXPR_UGE && kj != EXPR_SGT && kj != EXPR_SGE);
    }
  }
  end_group(g);
}

/* ======================================================================================= */
/* read-over-write and read merging                                                         */
/* ======================================================================================= */

static void test_reads(void) {
  group g = begin_group("reads");
  expr_array *A = arr("rA", 16), *B = arr("rB", 4);
  expr *v = rd(B, NULL, 0), *w = rd(B, NULL, 1);
  expr *s = var("rs", 64); /* a symbolic index */
  CHECK(s->kind == EXPR_READ && s->width == 64);

  /* Read-over-write at constant indices. */
  expr_update *u1 = push(A, NULL, c64(3), v);
  CHECK_SAME(rd(A, u1, 3), v);              /* hit */
  CHECK_SAME(rd(A, u1, 7), rd(A, NULL, 7)); /* miss: to the (empty) suffix */
  expr_update *u2 = push(A, u1, c64(5), w);
  CHECK_SAME(rd(A, u2, 3), v); /* miss then hit */
  CHECK_SAME(rd(A, u2, 5), w);
  CHECK_SAME(rd(A, u2, 7), rd(A, NULL, 7));
  expr_update *u3 = push(A, push(A, u1, c64(3), w), c64(9), v); /* newest write to 3 wins */
  CHECK_SAME(rd(A, u3, 3), w);

  /* A symbolic write stops the walk; the read keeps the list from there. */
  expr_update *sy = push(A, NULL, s, v);
  expr_update *u4 = push(A, push(A, sy, c64(3), w), c64(5), w);
  expr *r7 = rd(A, u4, 7);
  CHECK(r7->kind == EXPR_READ);
  CHECK_EQ_PTR(r7->u.read.updates, sy);
  CHECK_SAME(r7, rd(A, sy, 7));
  CHECK_SAME(rd(A, u4, 3), w);
  expr_update *u5 = push(A, push(A, NULL, c64(3), v), s, w);
  expr *r3 = rd(A, u5, 3);
  CHECK(r3->kind == EXPR_READ && r3->u.read.updates == u5); /* may alias: no folding */
  /* A symbolic index does not fold over a constant write either. */
  expr *rs = rdx(A, u1, s);
  CHECK(rs->kind == EXPR_READ && rs->u.read.updates == u1);
  /* A write of a constant value, read back. */
  expr_update *u6 = push(A, NULL, c64(2), c8(0x5a));
  CHECK_CONST(rd(A, u6, 2), 8, 0x5a);

  /* A constant array reads its byte at a constant index. */
  static const uint8_t abcd[4] = {'a', 'b', 'c', 'd'};
  expr *sz4 = c64(4);
  expr_array *C = keep_a(expr_array_new("rC", sz4, 4, false, abcd));
  CHECK(C->init != NULL && C->init != abcd && memcmp(C->init, abcd, 4) == 0);
  CHECK_CONST(rd(C, NULL, 2), 8, 'c');
  CHECK_CONST(rd(C, NULL, 0), 8, 'a');
  CHECK_CONST(rd(C, push(C, NULL, c64(1), v), 2), 8, 'c'); /* miss down to the init */
  CHECK_SAME(rd(C, push(C, NULL, c64(2), v), 2), v);
  CHECK(rdx(C, NULL, s)->kind == EXPR_READ);
  CHECK_CONST(keep(expr_read_le(C, NULL, c64(0), 4)), 32, 0x64636261);
  CHECK_CONST(keep(expr_read_le(C, NULL, c64(1), 2)), 16, 0x6362);

  /* Adjacent byte reads merge into one little-endian wide read. */
  expr *r = keep(expr_read_le(A, NULL, c64(4), 4));
  CHECK(r->kind == EXPR_READ && r->width == 32);
  CHECK(r->u.read.array == A && r->u.read.updates == NULL && r->kid[0] == c64(4));
  CHECK_SAME(EXTRACT(r, 16, 8), rd(A, NULL, 6));
  CHECK_SAME(EXTRACT(r, 0, 8), rd(A, NULL, 4));
  CHECK_SAME(EXTRACT(r, 24, 8), rd(A, NULL, 7));
  CHECK_SAME(EXTRACT(r, 8, 16), keep(expr_read_le(A, NULL, c64(5), 2)));
  CHECK_SAME(CONCAT(rd(A, NULL, 5), rd(A, NULL, 4)), keep(expr_read_le(A, NULL, c64(4), 2)));
  CHECK_SAME(CONCAT(keep(expr_read_le(A, NULL, c64(6), 2)), keep(expr_read_le(A, NULL, c64(4), 2))),
             r);
  CHECK_SAME(CONCAT(CONCAT(CONCAT(rd(A, NULL, 7), rd(A, NULL, 6)), rd(A, NULL, 5)), rd(A, NULL, 4)),
             r);
  CHECK_SAME(keep(expr_read_le(A, NULL, c64(4), 1)), rd(A, NULL, 4));
  expr *r16 = keep(expr_read_le(A, NULL, c64(0), 16));
  CHECK(r16->kind == EXPR_READ && r16->width == 128);
  CHECK_SAME(EXTRACT(r16, 120, 8), rd(A, NULL, 15));
  /* Not adjacent in little-endian order: no merge. */
  CHECK(CONCAT(rd(A, NULL, 4), rd(A, NULL, 5))->kind == EXPR_CONCAT);
  CHECK(CONCAT(rd(A, NULL, 6), rd(A, NULL, 4))->kind == EXPR_CONCAT);
  CHECK(CONCAT(rd(B, NULL, 1), rd(A, NULL, 0))->kind == EXPR_CONCAT);
  CHECK(CONCAT(rdx(A, sy, c64(1)), rd(A, NULL, 0))->kind == EXPR_CONCAT); /* other lists */
  /* A wide read at a symbolic index, and through a list of symbolic writes. */
  expr *rsw = keep(expr_read_le(A, NULL, s, 4));
  CHECK(rsw->kind == EXPR_READ && rsw->width == 32 && rsw->kid[0] == s);
  CHECK_SAME(EXTRACT(rsw, 8, 8), rdx(A, NULL, ADD(s, c64(1))));
  CHECK_SAME(CONCAT(rdx(A, NULL, ADD(s, c64(1))), rdx(A, NULL, s)),
             keep(expr_read_le(A, NULL, s, 2)));
  expr *rup = keep(expr_read_le(A, sy, c64(0), 4));
  CHECK(rup->kind == EXPR_READ && rup->width == 32 && rup->u.read.updates == sy);
  /* Bytes that all miss a constant write merge past it; a byte and a wide read merge too. */
  CHECK_SAME(keep(expr_read_le(A, push(A, NULL, c64(8), v), c64(0), 4)),
             keep(expr_read_le(A, NULL, c64(0), 4)));
  CHECK_SAME(CONCAT(rd(A, NULL, 8), r), keep(expr_read_le(A, NULL, c64(4), 5)));
  CHECK_SAME(CONCAT(r, rd(A, NULL, 3)), keep(expr_read_le(A, NULL, c64(3), 5)));
  /* Extracts that straddle bytes are not byte reads. */
  expr *straddle = EXTRACT(r, 4, 8), *nibble = EXTRACT(r, 8, 4);
  CHECK(straddle->kind != EXPR_READ && nibble->kind != EXPR_READ);
  CHECK_EQ_U64(straddle->width, 8);
  /* Distinct arrays, distinct lists. */
  CHECK(push(A, NULL, s, v) != push(B, NULL, s, v));
  CHECK(A->id < B->id);
  /* A wide read whose bytes hit different writes is not one read, but its bytes are right. */
  expr *mixed = keep(expr_read_le(A, u2, c64(3), 3)); /* bytes 3 (v), 4, 5 (w) */
  CHECK_EQ_U64(mixed->width, 24);
  expr_assignment *m = expr_assignment_new();
  uint8_t ab[16];
  for (int k = 0; k < 16; k++) ab[k] = (uint8_t)(100 + k);
  expr_assignment_set(m, A, ab, 16);
  expr_assignment_set(m, B, (const uint8_t *)"\x01\x02", 2);
  u128 out = 0;
  CHECK(expr_eval(mixed, m, 10, &out) == EXPR_EVAL_OK);
  CHECK_EQ_U128(out, 1 | (104 << 8) | (2 << 16));
  CHECK(expr_eval(r, m, 10, &out) == EXPR_EVAL_OK);
  CHECK_EQ_U128(out, 104 | (105 << 8) | (106 << 16) | ((u128)107 << 24));
  CHECK(expr_eval(straddle, m, 10, &out) == EXPR_EVAL_OK);
  CHECK_EQ_U128(out, ((104 | (105 << 8)) >> 4) & 0xff);
  CHECK(expr_eval(nibble, m, 10, &out) == EXPR_EVAL_OK);
  CHECK_EQ_U128(out, 105 & 0xf);
  CHECK(expr_eval(EXTRACT(r16, 60, 9), m, 10, &out) == EXPR_EVAL_OK);
  CHECK_EQ_U128(out, ((107 >> 4) | (108 << 4)) & 0x1ff); /* bits 60..68: bytes 7 and 8 */
  expr_assignment_free(m);
  end_group(g);
}

/* ======================================================================================= */
/* pattern hash                                                                             */
/* ======================================================================================= */

#define CHECK_PH_SAME(a, b) CHECK_EQ_U64(expr_phash(a), expr_phash(b))
#define CHECK_PH_DIFF(a, b)                                          \
  do {                                                               \
    check_report(expr_phash(a) != expr_phash(b), __FILE__, __LINE__, \
                 "phash(" #a ") != phash(" #b ")");                  \
  } while (0)

static void test_phash(void) {
  group g = begin_group("phash");
  expr *x = var("px", 32), *y = var("py", 32);
  expr_array *S = arr("ps", 16), *T = arr("pt", 16);
  expr *n = var("pn", 64);

  /* All constants alike. */
  CHECK_PH_SAME(EQ(x, c32(5)), EQ(x, c32(7)));
  CHECK_PH_SAME(ULT(x, c32(5)), ULT(x, c32(0x80000000)));
  CHECK_PH_SAME(c32(1), c32(2));
  CHECK_PH_SAME(rd(S, NULL, 3), rd(S, NULL, 9));
  CHECK_PH_SAME(keep(expr_read_le(S, NULL, c64(3), 4)), keep(expr_read_le(S, NULL, c64(9), 4)));
  CHECK_PH_SAME(EQ(rd(S, NULL, 3), c8('a')), EQ(rd(S, NULL, 9), c8('a')));
  CHECK_PH_SAME(EQ(rd(S, NULL, 3), c8('a')), EQ(rd(S, NULL, 9), c8('b')));
  CHECK_PH_SAME(ULT(c64(1), n), ULT(c64(3), n));
  /* x + c hashes as x. */
  CHECK_PH_SAME(ADD(x, c32(5)), x);
  CHECK_PH_SAME(ADD(x, c32(5)), ADD(x, c32(9)));
  CHECK_PH_SAME(SUB(x, c32(5)), x);
  /* In context too. y is older than x + 5 but younger than x, so the canonical (by id)
   * operand order of eq(x+5, y) is the reverse of eq(x, y)'s: the pattern hash of a
   * commutative node must not depend on that order. */
  CHECK_PH_SAME(EQ(ADD(x, c32(5)), y), EQ(x, y));
  CHECK_PH_SAME(ADD(ADD(x, c32(5)), y), ADD(x, y));
  CHECK_PH_SAME(EQ(x, ADD(y, c32(5))), EQ(x, y));
  CHECK_PH_SAME(ULT(ADD(x, c32(5)), y), ULT(x, y));
  expr *bv = keep(expr_bvar_fresh(64, "i"));
  CHECK_PH_SAME(rdx(S, NULL, SUB(bv, c64(1))), rdx(S, NULL, bv));
  /* Update lists ignored. */
  expr_update *u = push(S, NULL, ZEXT(y, 64), c8(1));
  CHECK_PH_SAME(rdx(S, u, n), rdx(S, NULL, n));
  /* A condition and its negation differ. */
  expr *c = EQ(x, c32(5));
  CHECK_PH_DIFF(c, NOT(c));
  expr *lt = ULT(x, y);
  CHECK_PH_DIFF(lt, NOT(lt));
  expr *lt2 = ULT(c64(3), n);
  CHECK_PH_DIFF(lt2, NOT(lt2));
  expr *ea = EQ(rd(S, NULL, 2), c8('a'));
  CHECK_PH_DIFF(ea, NOT(ea));
  CHECK_PH_DIFF(ea, NE(rd(S, NULL, 2), c8('a')));
  /* Different structure differs. */
  CHECK_PH_DIFF(EQ(x, c32(5)), ULT(x, c32(5)));
  CHECK_PH_DIFF(ULT(x, c32(5)), ULT(c32(5), x));
  CHECK_PH_DIFF(keep(expr_slt(x, y)), ULT(x, y));
  CHECK_PH_DIFF(ADD(x, y), MUL(x, y));
  CHECK_PH_DIFF(EQ(x, y), EQ(x, c32(5)));
  CHECK_PH_DIFF(EQ(x, c32(5)), EQ(y, c32(5)));
  CHECK_PH_DIFF(rd(S, NULL, 3), rd(T, NULL, 3));
  CHECK_PH_DIFF(rd(S, NULL, 3), rdx(S, NULL, n));
  CHECK_PH_DIFF(AND(EQ(x, c32(1)), ULT(y, c32(2))), OR(EQ(x, c32(1)), ULT(y, c32(2))));
  /* Salting. */
  CHECK(expr_phash_salted(c, 1) != expr_phash_salted(c, 2));
  CHECK(expr_phash_salted(c, 1) != expr_phash_salted(NOT(c), 1));
  CHECK(expr_phash_salted(c, 1) != expr_phash_salted(lt, 1));
  CHECK_EQ_U64(expr_phash_salted(EQ(x, c32(5)), 77), expr_phash_salted(EQ(x, c32(7)), 77));
  CHECK_EQ_U64(expr_phash_salted(c, 77), expr_phash_salted(c, 77));
  end_group(g);
}

/* ======================================================================================= */
/* evaluation                                                                               */
/* ======================================================================================= */

/* Reference semantics (SMT-LIB), written independently of expr.c. */
static u128 ref_neg(u128 v, unsigned w) { return (0 - v) & mask(w); }

static u128 ref_op(expr_kind k, unsigned w, u128 a, u128 b) {
  u128 m = mask(w), smin = (u128)1 << (w - 1);
  bool sa = (a & smin) != 0, sb = (b & smin) != 0;
  u128 ua = sa ? ref_neg(a, w) : a, ub = sb ? ref_neg(b, w) : b;
  switch (k) {
  case EXPR_ADD: return (a + b) & m;
  case EXPR_SUB: return (a - b) & m;
  case EXPR_MUL: return (a * b) & m;
  case EXPR_UDIV: return b == 0 ? m : a / b;
  case EXPR_UREM: return b == 0 ? a : a % b;
  case EXPR_SDIV: {
    if (b == 0) return sa ? 1 : m;
    u128 q = ua / ub;
    return (sa != sb) ? ref_neg(q, w) : q;
  }
  case EXPR_SREM: {
    if (b == 0) return a;
    u128 r = ua % ub;
    return sa ? ref_neg(r, w) : r;
  }
  case EXPR_SHL: return b >= w ? 0 : (a << (unsigned)b) & m;
  case EXPR_LSHR: return b >= w ? 0 : a >> (unsigned)b;
  case EXPR_ASHR:
    if (b >= w) return sa ? m : 0;
    return sa ? ((a >> (unsigned)b) | (m ^ (m >> (unsigned)b))) : a >> (unsigned)b;
  case EXPR_AND: return a & b;
  case EXPR_OR: return a | b;
  case EXPR_XOR: return a ^ b;
  case EXPR_EQ: return a == b;
  case EXPR_NE: return a != b;
  case EXPR_ULT: return a < b;
  case EXPR_ULE: return a <= b;
  case EXPR_UGT: return a > b;
  case EXPR_UGE: return a >= b;
  case EXPR_SLT: return (a ^ smin) < (b ^ smin);
  case EXPR_SLE: return (a ^ smin) <= (b ^ smin);
  case EXPR_SGT: return (a ^ smin) > (b ^ smin);
  case EXPR_SGE: return (a ^ smin) >= (b ^ smin);
  default: abort();
  }
}

static u128 ref_sext(u128 a, unsigned from, unsigned to) {
  if (from < 128 && (a >> (from - 1)) & 1) a |= mask(to) & ~mask(from);
  return a;
}

static expr_assignment *assign_new(void) { return expr_assignment_new(); }

static u128 eval_ok(const expr *e, const expr_assignment *m, bool *ok) {
  u128 v = 0;
  expr_eval_status st = expr_eval(e, m, 1000, &v);
  *ok = st == EXPR_EVAL_OK;
  return v;
}

#define CHECK_EVAL(e, m, want)                                                     \
  do {                                                                             \
    bool ev_ok_;                                                                   \
    u128 ev_v_ = eval_ok((e), (m), &ev_ok_);                                       \
    check_report(ev_ok_, __FILE__, __LINE__, "expr_eval(" #e ") is EXPR_EVAL_OK"); \
    if (ev_ok_) CHECK_EQ_U128(ev_v_, (want));                                      \
  } while (0)

static void set_bytes(expr_assignment *m, expr_array *a, const void *bytes, size_t len) {
  expr_assignment_set(m, a, (const uint8_t *)bytes, len);
}

static void set_value(expr_assignment *m, expr_array *a, u128 v, unsigned nbytes) {
  uint8_t b[16];
  for (unsigned i = 0; i < nbytes; i++) b[i] = (uint8_t)(v >> (8 * i));
  expr_assignment_set(m, a, b, nbytes);
}

static void test_eval(void) {
  group g = begin_group("eval");
  expr_array *A = arr("eA", 8), *B = arr("eB", 8), *I = arr("eI", 2), *W = arr("eW", 16);
  expr_assignment *m = assign_new();
  static const uint8_t abytes[5] = {10, 20, 30, 40, 50};
  set_bytes(m, A, abytes, 5);

  /* The assignment itself. */
  const expr_binding *bd = expr_assignment_find(m, A);
  CHECK(bd && bd->array == A && bd->len == 5 && memcmp(bd->bytes, abytes, 5) == 0);
  CHECK(expr_assignment_find(m, B) == NULL);
  set_bytes(m, I, "\x03\x01", 2);
  set_bytes(m, B, "\x07", 1);
  CHECK_EQ_U64(m->count, 3);
  for (size_t k = 1; k < m->count; k++)
    CHECK(m->bindings[k - 1].array->id < m->bindings[k].array->id);
  expr_assignment *mc = expr_assignment_copy(m);
  set_bytes(mc, B, "\x08\x09", 2); /* replaces, in the copy only */
  CHECK_EQ_U64(mc->count, 3);
  const expr_binding *bmc = expr_assignment_find(mc, B), *bm = expr_assignment_find(m, B);
  CHECK(bmc && bm && bmc->len == 2 && bm->len == 1 && bmc->bytes[0] == 8 && bm->bytes[0] == 7);

  /* Arrays to bytes; unassigned bytes read 0. */
  CHECK_EVAL(rd(A, NULL, 2), m, 30);
  CHECK_EVAL(rd(A, NULL, 4), m, 50);
  CHECK_EVAL(rd(A, NULL, 6), m, 0); /* past the bound bytes */
  CHECK_EVAL(rd(W, NULL, 3), m, 0); /* no binding at all */
  CHECK_EVAL(rd(B, NULL, 0), m, 7);
  CHECK_EVAL(rd(B, NULL, 0), mc, 8);
  CHECK_EVAL(rd(B, NULL, 1), mc, 9);
  CHECK_EVAL(c32(1234), m, 1234);
  /* Multi-byte little-endian. */
  CHECK_EVAL(keep(expr_read_le(A, NULL, c64(1), 4)), m, 20u | 30u << 8 | 40u << 16 | 50u << 24);
  CHECK_EVAL(keep(expr_read_le(A, NULL, c64(3), 4)), m, 40u | 50u << 8);
  uint8_t wb[16];
  u128 wv = 0;
  for (int k = 15; k >= 0; k--) {
    wb[k] = (uint8_t)(0xf0 + k * 7);
    wv = (wv << 8) | wb[k];
  }
  set_bytes(m, W, wb, 16);
  CHECK_EVAL(keep(expr_read_le(W, NULL, c64(0), 16)), m, wv);
  CHECK_EVAL(keep(expr_read_le(W, NULL, c64(8), 8)), m, wv >> 64);
  /* Symbolic index. */
  expr *idx = ZEXT(rd(I, NULL, 0), 64); /* 3 */
  CHECK_EVAL(rdx(A, NULL, idx), m, 40);
  CHECK_EVAL(keep(expr_read_le(A, NULL, idx, 2)), m, 40u | 50u << 8);

  /* Update lists, newest first. */
  expr *j = ZEXT(rd(I, NULL, 1), 64); /* 1 */
  expr_update *u = push(A, push(A, NULL, idx, c8(0x77)), c64(1), c8(0x99));
  CHECK_EVAL(rdx(A, u, j), m, 0x99);
  CHECK_EVAL(rdx(A, u, idx), m, 0x77);
  CHECK_EVAL(rdx(A, u, c64(0)), m, 10);
  CHECK_EVAL(keep(expr_read_le(A, u, c64(0), 5)), m,
             (u128)10 | (u128)0x99 << 8 | (u128)30 << 16 | (u128)0x77 << 24 | (u128)50 << 32);
  expr_update *u2 =
      push(A, push(A, NULL, c64(1), c8(0x11)), j, c8(0x22)); /* symbolic write newest */
  CHECK_EVAL(rdx(A, u2, c64(1)), m, 0x22);
  set_bytes(mc, I, "\x03\x02", 2); /* now j = 2: the symbolic write misses index 1 */
  CHECK_EVAL(rdx(A, u2, c64(1)), mc, 0x11);
  CHECK_EVAL(rdx(A, u2, c64(2)), mc, 0x22);

  /* A constant array's init bytes win over a binding. */
  static const uint8_t xyz[3] = {'x', 'y', 'z'};
  expr_array *Cst = keep_a(expr_array_new("eC", c64(3), 3, false, xyz));
  set_bytes(mc, Cst, "QQQ", 3);
  expr *jc = ZEXT(rd(I, NULL, 1), 64); /* 2 in mc */
  CHECK_EVAL(rdx(Cst, NULL, jc), mc, 'z');
  CHECK_EVAL(rdx(Cst, NULL, jc), m, 'y');

  /* Bound variables: free ones do not evaluate. */
  expr *bv = keep(expr_bvar_fresh(64, "i"));
  u128 out = 0;
  CHECK(expr_eval(bv, m, 100, &out) == EXPR_EVAL_FREE_BVAR);
  CHECK(expr_eval(ADD(bv, c64(1)), m, 100, &out) == EXPR_EVAL_FREE_BVAR);
  CHECK(bv->has_bvar && ADD(bv, c64(1))->has_bvar && !c64(1)->has_bvar);

  /* Every operator under evaluation, against the reference semantics. */
  static const expr_kind bins[] = {EXPR_ADD,  EXPR_SUB, EXPR_MUL,  EXPR_UDIV, EXPR_SDIV, EXPR_UREM,
                                   EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR, EXPR_AND,  EXPR_OR,
                                   EXPR_XOR,  EXPR_EQ,  EXPR_NE,   EXPR_ULT,  EXPR_ULE,  EXPR_UGT,
                                   EXPR_UGE,  EXPR_SLT, EXPR_SLE,  EXPR_SGT,  EXPR_SGE};
  static const unsigned ws[] = {1, 8, 16, 32, 64, 128};
  expr_array *X = arr("eX", 16), *Y = arr("eY", 16), *Cb = arr("eCb", 1);
  unsigned long evals = 0, eval_fail = 0;
  for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
    unsigned w = ws[wi], nb = w < 8 ? 1 : w / 8;
    expr *xv = keep(expr_read_le(X, NULL, c64(0), nb)),
         *yv = keep(expr_read_le(Y, NULL, c64(0), nb));
    if (w < 8) {
      xv = EXTRACT(xv, 0, w);
      yv = EXTRACT(yv, 0, w);
    }
    expr *cb = EXTRACT(rd(Cb, NULL, 0), 0, 1);
    expr *terms[40];
    unsigned nt = 0;
    for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++)
      terms[nt++] = keep(expr_binary(bins[k], xv, yv));
    terms[nt++] = NOT(xv);
    terms[nt++] = ITE(cb, xv, yv);
    terms[nt++] = w < 128 ? ZEXT(xv, 128) : xv;
    terms[nt++] = keep(expr_sext(xv, 128));
    terms[nt++] = EXTRACT(xv, w / 3, w - w / 3);
    terms[nt++] = w <= 64 ? CONCAT(xv, yv) : xv;
    for (int trial = 0; trial < 300; trial++) {
      u128 av = ((u128)rng_next() << 64) | rng_next(), bvv = ((u128)rng_next() << 64) | rng_next();
      switch (trial % 6) { /* edge values now and then */
      case 1: bvv = 0; break;
      case 2: bvv = ~(u128)0; break;
      case 3:
        av = (u128)1 << (w - 1);
        bvv = ~(u128)0;
        break;
      case 4: bvv = w + rng_below(3); break;
      default: break;
      }
      if (trial % 5 == 0 && w > 1) bvv &= 0xff;
      av &= mask(w);
      bvv &= mask(w);
      u128 cv = rng_next() & 1;
      expr_assignment *ma = assign_new();
      set_value(ma, X, av, nb);
      set_value(ma, Y, bvv, nb);
      set_value(ma, Cb, cv, 1);
      u128 want[40];
      unsigned n2 = 0;
      for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++)
        want[n2++] = ref_op(bins[k], w, av, bvv);
      want[n2++] = ~av & mask(w);
      want[n2++] = cv ? av : bvv;
      want[n2++] = av;
      want[n2++] = ref_sext(av, w, 128);
      want[n2++] = av >> (w / 3);
      want[n2++] = w <= 64 ? (av << w) | bvv : av;
      for (unsigned t = 0; t < nt; t++) {
        u128 got = 0;
        expr_eval_status st = expr_eval(terms[t], ma, 10, &got);
        evals++;
        if (st != EXPR_EVAL_OK || got != want[t]) {
          eval_fail++;
          if (eval_fail <= 10) {
            char b1[40], b2[40], b3[40], b4[40];
            fprintf(stderr, "test_expr: eval w=%u term %u a=%s b=%s: got %s (status %d), want %s\n",
                    w, t, hex128(av, b1), hex128(bvv, b2), hex128(got, b3), (int)st,
                    hex128(want[t], b4));
            show("term", terms[t]);
          }
        }
      }
      expr_assignment_free(ma);
    }
  }
  check_report(eval_fail == 0, __FILE__, __LINE__, "every operator evaluates as SMT-LIB says");
  if (eval_fail) fprintf(stderr, "    %lu of %lu evaluations wrong\n", eval_fail, evals);
  printf("    %lu evaluations of every operator against the reference semantics\n", evals);

  /* expr_eval_all_true. */
  expr *f1 = EQ(rd(A, NULL, 0), c8(10)), *f2 = ULT(rd(A, NULL, 1), c8(21));
  expr *f3 = EQ(rd(A, NULL, 1), c8(0));
  expr *l1[] = {f1, f2};
  CHECK(expr_eval_all_true(l1, 2, m));
  expr *l2[] = {f1, f3, f2};
  CHECK(!expr_eval_all_true(l2, 3, m));
  CHECK(expr_eval_all_true(NULL, 0, m));
  expr *l3[] = {f1, ULT(bv, c64(3))}; /* a free bound variable: does not evaluate */
  CHECK(!expr_eval_all_true(l3, 2, m));

  expr_assignment_free(mc);
  expr_assignment_free(m);
  end_group(g);
}

/* ======================================================================================= */
/* soundness of the rewrites: random terms, built and evaluated vs. described and computed */
/* ======================================================================================= */

/* A random term at width w, described as a tree; `build_rterm` constructs it with the
 * simplifying constructors and `ref_rterm` computes it from the description with the
 * reference semantics. Any unsound rewrite (or wrong evaluation) makes the two differ. */
typedef struct rnode {
  int op;         /* R_* */
  expr_kind k;    /* operator for R_BIN, comparison for R_CMP and R_ITE */
  unsigned lo, n; /* R_EXT*: bit offset and width; R_LEAF: leaf index */
  int l, r;
} rnode;

enum { R_LEAF, R_BIN, R_NOT, R_CMP, R_ITE, R_EXTZ, R_EXTS, R_CONCAT, R_NOPS };

static rnode rpool[1024];
static int nrpool;

static const expr_kind r_bins[] = {EXPR_ADD,  EXPR_SUB,  EXPR_MUL, EXPR_UDIV, EXPR_SDIV,
                                   EXPR_UREM, EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR,
                                   EXPR_AND,  EXPR_OR,   EXPR_XOR};
static const expr_kind r_cmps[] = {EXPR_EQ,  EXPR_NE,  EXPR_ULT, EXPR_ULE, EXPR_UGT,
                                   EXPR_UGE, EXPR_SLT, EXPR_SLE, EXPR_SGT, EXPR_SGE};
#define R_NLEAVES 12 /* 3 variables, 4 array reads, 5 constants */

static int gen_rterm(int depth, unsigned w) {
  int n = nrpool++;
  rnode *t = &rpool[n];
  if (depth == 0 || rng_below(4) == 0) {
    t->op = R_LEAF;
    t->n = rng_below(R_NLEAVES);
    return n;
  }
  t->op = 1 + (int)rng_below(R_NOPS - 1);
  t->k = t->op == R_BIN ? r_bins[rng_below(13)] : r_cmps[rng_below(10)];
  if (t->op == R_EXTZ || t->op == R_EXTS) {
    t->n = 1 + rng_below(w);
    if (rng_below(2)) t->n = t->n >= 8 ? t->n / 8 * 8 : t->n; /* byte-sized often */
    t->lo = rng_below(w - t->n + 1);
    if (rng_below(2)) t->lo = t->lo / 8 * 8;
  }
  int l = gen_rterm(depth - 1, w);
  int r = gen_rterm(depth - 1, w);
  rpool[n].l = l;
  rpool[n].r = r;
  return n;
}

static expr *build_rterm(int n, unsigned w, expr **leaves) {
  rnode *t = &rpool[n];
  if (t->op == R_LEAF) return leaves[t->n];
  expr *a = build_rterm(t->l, w, leaves), *b = build_rterm(t->r, w, leaves);
  switch (t->op) {
  case R_BIN: return keep(expr_binary(t->k, a, b));
  case R_NOT: return NOT(a);
  case R_CMP: return ZEXT(keep(expr_binary(t->k, a, b)), w);
  case R_ITE: return ITE(keep(expr_binary(t->k, a, b)), a, b);
  case R_EXTZ: return t->n == w ? EXTRACT(a, 0, w) : ZEXT(EXTRACT(a, t->lo, t->n), w);
  case R_EXTS: return t->n == w ? EXTRACT(a, 0, w) : keep(expr_sext(EXTRACT(a, t->lo, t->n), w));
  case R_CONCAT: return w == 1 ? a : CONCAT(EXTRACT(a, w / 2, w - w / 2), EXTRACT(b, 0, w / 2));
  }
  abort();
}

static u128 ref_rterm(int n, unsigned w, const u128 *leafv) {
  rnode *t = &rpool[n];
  if (t->op == R_LEAF) return leafv[t->n];
  u128 a = ref_rterm(t->l, w, leafv), b = ref_rterm(t->r, w, leafv);
  switch (t->op) {
  case R_BIN: return ref_op(t->k, w, a, b);
  case R_NOT: return ~a & mask(w);
  case R_CMP: return ref_op(t->k, w, a, b);
  case R_ITE: return ref_op(t->k, w, a, b) ? a : b;
  case R_EXTZ: return (a >> t->lo) & mask(t->n);
  case R_EXTS: return ref_sext((a >> t->lo) & mask(t->n), t->n, w);
  case R_CONCAT:
    if (w == 1) return a;
    return (((a >> (w / 2)) & mask(w - w / 2)) << (w / 2)) | (b & mask(w / 2));
  }
  abort();
}

static u128 rand_value(unsigned w) {
  u128 r = ((u128)rng_next() << 64) | rng_next();
  switch (rng_below(6)) {
  case 0: return 0;
  case 1: return mask(w);
  case 2: return ((u128)1 << (w - 1)) & mask(w);
  case 3: return r & 0xf & mask(w);
  default: return r & mask(w);
  }
}

static void test_soundness(void) {
  group g = begin_group("soundness");
  static const unsigned ws[] = {1, 8, 16, 32, 64, 128};
  expr_array *V = arr("rV", 48), *R = arr("rR", 32);
  unsigned long terms = 0, evals = 0, wrong = 0;
  for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
    unsigned w = ws[wi], nb = w < 8 ? 1 : w / 8;
    expr *leaves[R_NLEAVES];
    for (unsigned k = 0; k < 3; k++) { /* variables at V[16k] */
      leaves[k] = keep(expr_read_le(V, NULL, c64(16 * k), nb));
      if (w < 8) leaves[k] = EXTRACT(leaves[k], 0, w);
    }
    /* Reads of R at overlapping offsets: merging and extract-of-read rewrites fire. */
    for (unsigned k = 0; k < 4; k++) {
      unsigned off = k < 2 ? k : 2 * k; /* 0, 1, 4, 6 */
      expr *rr =
          w >= 8 ? keep(expr_read_le(R, NULL, c64(off), nb)) : EXTRACT(rd(R, NULL, off), 0, w);
      leaves[3 + k] = rr;
    }
    u128 cvals[5] = {0, 1, mask(w), ((u128)1 << (w - 1)), w};
    for (unsigned k = 0; k < 5; k++) leaves[7 + k] = cw(w, cvals[k]);
    for (int trial = 0; trial < 800; trial++) {
      nrpool = 0;
      int root = gen_rterm(5, w);
      size_t mark = n_kept_e;
      expr *e = build_rterm(root, w, leaves);
      terms++;
      CHECK_EQ_U64(e->width, w);
      for (int a = 0; a < 6; a++) {
        uint8_t vb[48], rb[32];
        u128 leafv[R_NLEAVES];
        for (unsigned k = 0; k < 3; k++) {
          u128 v = rand_value(w);
          for (unsigned i = 0; i < 16; i++) vb[16 * k + i] = (uint8_t)(v >> (8 * i));
          leafv[k] = v;
        }
        for (unsigned i = 0; i < 32; i++)
          rb[i] = rng_below(3) ? (uint8_t)rng_next() : (uint8_t)(rng_below(2) ? 0 : 0xff);
        for (unsigned k = 0; k < 4; k++) {
          unsigned off = k < 2 ? k : 2 * k;
          u128 v = 0;
          for (int i = (int)nb - 1; i >= 0; i--) v = (v << 8) | rb[off + (unsigned)i];
          leafv[3 + k] = v & mask(w);
        }
        for (unsigned k = 0; k < 5; k++) leafv[7 + k] = cvals[k] & mask(w);
        expr_assignment *m = expr_assignment_new();
        set_bytes(m, V, vb, 48);
        set_bytes(m, R, rb, 32);
        u128 got = 0, want = ref_rterm(root, w, leafv);
        expr_eval_status st = expr_eval(e, m, 10, &got);
        evals++;
        if (st != EXPR_EVAL_OK || got != want) {
          if (wrong++ < 5) {
            char b1[40], b2[40];
            fprintf(stderr, "test_expr: soundness w=%u: got %s (status %d), want %s\n", w,
                    hex128(got, b1), (int)st, hex128(want, b2));
            show("term", e);
            for (unsigned k = 0; k < 7; k++)
              fprintf(stderr, "    leaf %u = %s\n", k, hex128(leafv[k], b1));
          }
        }
        expr_assignment_free(m);
      }
      while (n_kept_e > mark) expr_unref(kept_e[--n_kept_e]);
    }
  }
  check_report(wrong == 0, __FILE__, __LINE__,
               "random terms built by the simplifying constructors keep their meaning");
  if (wrong) fprintf(stderr, "    %lu of %lu evaluations wrong\n", wrong, evals);
  printf("    %lu random terms, %lu evaluations against the reference semantics\n", terms, evals);
  end_group(g);
}

/* Division by a constant: nested divisions fold into one, and a bound on x/c becomes a bound
 * on x. Checked exhaustively at 8 bits (every x, divisors and bounds whose products pass the
 * width included) against C's arithmetic, and the rewrites must fire: no division left
 * under a comparison, no division of a division. */
static u128 ref_udiv(u128 a, u128 b) { return b ? a / b : 0xff; }

static void test_division_bounds(void) {
  group g = begin_group("div bounds");
  static const unsigned cs[] = {1, 2, 3, 7, 10, 16, 17, 128, 255};
  static const unsigned ks[] = {0, 1, 2, 9, 15, 16, 25, 100, 127, 254, 255};
  const size_t ncs = sizeof cs / sizeof cs[0], nks = sizeof ks / sizeof ks[0];
  expr_array *X = arr("dX", 1);
  expr *x = rd(X, NULL, 0);
  unsigned long wrong = 0, unrewritten = 0;
  for (size_t i = 0; i < ncs; i++) {
    expr *c1 = c8(cs[i]), *q = keep(expr_udiv(x, c1));
    expr *terms[2 + 4 * (sizeof ks / sizeof ks[0]) + sizeof cs / sizeof cs[0]];
    size_t n = 0;
    terms[n++] = EQ(c8(0), q);
    terms[n++] = NE(q, c8(0));
    for (size_t j = 0; j < nks; j++) {
      expr *k = c8(ks[j]);
      terms[n++] = ULT(q, k);
      terms[n++] = ULT(k, q);
      terms[n++] = ULE(q, k);
      terms[n++] = ULE(k, q);
    }
    for (size_t j = 0; j < ncs; j++) terms[n++] = keep(expr_udiv(q, c8(cs[j])));
    for (size_t t = 0; t < n; t++) {
      const expr *e = terms[t];
      const expr *inner = e->kind == EXPR_NOT ? e->kid[0] : e;
      for (unsigned s = 0; s < inner->nkids; s++)
        if (inner->kid[s]->kind == EXPR_UDIV && (e->width == 1 || inner->kind == EXPR_UDIV))
          unrewritten++;
    }
    for (unsigned v = 0; v < 256; v++) {
      uint8_t byte = (uint8_t)v;
      expr_assignment *m = expr_assignment_new();
      set_bytes(m, X, &byte, 1);
      u128 qv = ref_udiv(v, cs[i]);
      size_t t = 0;
      u128 want[sizeof terms / sizeof terms[0]];
      want[t++] = qv == 0;
      want[t++] = qv != 0;
      for (size_t j = 0; j < nks; j++) {
        want[t++] = qv < ks[j];
        want[t++] = ks[j] < qv;
        want[t++] = qv <= ks[j];
        want[t++] = ks[j] <= qv;
      }
      for (size_t j = 0; j < ncs; j++) want[t++] = ref_udiv(qv, cs[j]);
      for (t = 0; t < n; t++) {
        u128 got = 0;
        if (expr_eval(terms[t], m, 10, &got) != EXPR_EVAL_OK || got != want[t]) {
          if (wrong++ < 5) {
            fprintf(stderr, "test_expr: x = %u, c = %u, term %zu: got %u, want %u\n", v, cs[i], t,
                    (unsigned)got, (unsigned)want[t]);
            show("term", terms[t]);
          }
        }
      }
      expr_assignment_free(m);
    }
  }
  check_report(wrong == 0, __FILE__, __LINE__,
               "bounds on x udiv c and (x udiv c1) udiv c2 keep their meaning at every x");
  check_report(unrewritten == 0, __FILE__, __LINE__,
               "no comparison with x udiv c and no division of a division survives");
  /* The decimal printer's loop: v/10/10/10 != 0 is v >= 1000, one comparison. */
  expr *v64 = var("dv", 64), *ten = c64(10);
  expr *thrice = keep(expr_udiv(keep(expr_udiv(keep(expr_udiv(v64, ten)), ten)), ten));
  CHECK_SAME(thrice, keep(expr_udiv(v64, c64(1000))));
  CHECK_SAME(NE(thrice, c64(0)), NOT(ULT(v64, c64(1000))));
  end_group(g);
}

/* Division of extended operands done narrow (expr.c's narrow_division) and the identity
 * x = (x div y)·y + x rem y (division_identity, remainder_of_sub). Operands are a sext or
 * zext of an n-bit variable, or a constant, at width W; every result is evaluated against
 * the reference semantics (ref_op at W, independent of expr.c) at every value pair when
 * the variables have ≤ 4 bits, else at their edge values (0, ±1, ±2, the minimum and
 * maximum and their neighbours) and random ones: the minimum / −1, division by zero and
 * quotients that overflow n bits included. The rewrite must fire where it is exact and
 * pays (no W-bit division left), and the identity must collapse only the true shape. */
enum { DV_SEXT, DV_ZEXT, DV_CONST };

static expr *dv_operand(int form, expr *v, unsigned w, u128 k) {
  if (form == DV_CONST) return cw(w, k);
  return form == DV_SEXT ? keep(expr_sext(v, w)) : ZEXT(v, w);
}

static u128 dv_value(int form, u128 v, unsigned n, unsigned w, u128 k) {
  if (form == DV_CONST) return k & mask(w);
  return form == DV_SEXT ? ref_sext(v, n, w) : v;
}

/* The values tried for an n-bit variable: all of them up to 4 bits, else edges and random. */
static size_t dv_values(unsigned n, u128 *out) {
  if (n <= 4) {
    for (u128 v = 0; v <= mask(n); v++) out[v] = v;
    return (size_t)1 << n;
  }
  u128 m = mask(n), smin = (u128)1 << (n - 1);
  u128 e[] = {0, 1, 2, 3, m, m - 1, smin, smin - 1, smin + 1, smin - 2};
  size_t c = 0;
  for (size_t i = 0; i < sizeof e / sizeof e[0]; i++) out[c++] = e[i] & m;
  while (c < 20) out[c++] = rng_next() & m;
  return c;
}

static void test_division_narrow(void) {
  group g = begin_group("div narrow");
  static const unsigned ws[] = {4, 9, 16, 32, 64};
  static const unsigned ns[][2] = {{1, 1}, {3, 2}, {3, 3}, {8, 8}, {8, 3}, {2, 8}, {16, 8}};
  static const expr_kind ops[] = {EXPR_UDIV, EXPR_SDIV, EXPR_UREM, EXPR_SREM};
  expr_array *A = arr("nA", 2), *B = arr("nB", 2);
  unsigned long evals = 0, wrong = 0, unfired = 0, built = 0;
  for (size_t wi = 0; wi < sizeof ws / sizeof ws[0]; wi++) {
    unsigned w = ws[wi];
    u128 ks[] = {0, 1, 3, mask(w), (u128)-128 & mask(w), (u128)1 << (w - 1)};
    for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
      unsigned na = ns[ni][0], nb = ns[ni][1];
      if (na >= w || nb >= w) continue;
      expr *xa = keep(expr_read_le(A, NULL, c64(0), na > 8 ? 2 : 1));
      expr *xb = keep(expr_read_le(B, NULL, c64(0), nb > 8 ? 2 : 1));
      if (na < 8) xa = EXTRACT(xa, 0, na);
      if (nb < 8) xb = EXTRACT(xb, 0, nb);
      u128 va[32], vb[32];
      size_t nva = dv_values(na, va), nvb = dv_values(nb, vb);
      for (int fa = 0; fa < 3; fa++)
        for (int fb = 0; fb < 3; fb++)
          for (size_t ka = 0; ka < (fa == DV_CONST ? 6 : 1); ka++)
            for (size_t kb = 0; kb < (fb == DV_CONST ? 6 : 1); kb++)
              for (size_t oi = 0; oi < 4; oi++) {
                if (fa == DV_CONST && fb == DV_CONST) continue;
                expr_kind op = ops[oi];
                bool is_signed = op == EXPR_SDIV || op == EXPR_SREM;
                size_t mark = n_kept_e;
                expr *ea = dv_operand(fa, xa, w, ks[ka]), *eb = dv_operand(fb, xb, w, ks[kb]);
                expr *e = keep(expr_binary(op, ea, eb));
                built++;
                /* fires: narrowable operands (small constants) and a divider narrower than w */
                bool small = true;
                if (fa == DV_CONST) small &= is_signed ? ka < 5 : ka < 3;
                if (fb == DV_CONST) small &= is_signed ? kb < 5 : kb < 3;
                bool narrowable = is_signed || (fa != DV_SEXT && fb != DV_SEXT);
                if (w >= 32 && small && narrowable && e->kind == op && e->width == w) {
                  if (unfired++ < 5) show("not narrowed", e);
                }
                for (size_t i = 0; i < (fa == DV_CONST ? 1 : nva); i++) {
                  expr_assignment *m = expr_assignment_new();
                  set_value(m, A, va[i], 2);
                  for (size_t j = 0; j < (fb == DV_CONST ? 1 : nvb); j++) {
                    set_value(m, B, vb[j], 2);
                    u128 a = dv_value(fa, va[i], na, w, ks[ka]);
                    u128 b = dv_value(fb, vb[j], nb, w, ks[kb]);
                    u128 want = ref_op(op, w, a, b), got = 0;
                    evals++;
                    if (expr_eval(e, m, 10, &got) != EXPR_EVAL_OK || got != want) {
                      if (wrong++ < 5) {
                        char b1[40], b2[40], b3[40], b4[40];
                        fprintf(stderr, "test_expr: w=%u a=%s b=%s: got %s, want %s\n", w,
                                hex128(a, b1), hex128(b, b2), hex128(got, b3), hex128(want, b4));
                        show("term", e);
                      }
                    }
                  }
                  expr_assignment_free(m);
                }
                while (n_kept_e > mark) expr_unref(kept_e[--n_kept_e]);
              }
    }
  }
  check_report(wrong == 0, __FILE__, __LINE__,
               "divisions of extended operands keep their meaning at every value tried");
  check_report(unfired == 0, __FILE__, __LINE__,
               "a division of extended operands at 32/64 bits is done at the narrow width");
  printf("    %lu divisions, %lu evaluations against the reference semantics\n", built, evals);

  /* The identity, wide and narrowed: it holds at every value (checked with ref_op, at
   * 8 bits exhaustively: y = 0 and −128 / −1 included), so the sum collapses to x. */
  unsigned long identity_wrong = 0;
  for (unsigned a = 0; a < 256; a++)
    for (unsigned b = 0; b < 256; b++)
      for (int s = 0; s < 2; s++) {
        u128 q = ref_op(s ? EXPR_SDIV : EXPR_UDIV, 8, a, b);
        u128 r = ref_op(s ? EXPR_SREM : EXPR_UREM, 8, a, b);
        if (ref_op(EXPR_ADD, 8, ref_op(EXPR_MUL, 8, q, b), r) != a) identity_wrong++;
      }
  CHECK_EQ_U64(identity_wrong, 0);
  expr *x8 = var("ix", 8), *y8 = var("iy", 8), *x32 = var("iX", 32), *y32 = var("iY", 32);
  expr *pairs[][2] = {{keep(expr_sext(x8, 32)), keep(expr_sext(y8, 32))},
                      {ZEXT(x8, 32), ZEXT(y8, 32)},
                      {keep(expr_sext(x8, 32)), c32(7)},
                      {ZEXT(x8, 32), c32(10)},
                      {x32, y32},
                      {x8, y8}};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++)
    for (int s = 0; s < 2; s++) {
      expr *x = pairs[p][0], *y = pairs[p][1];
      expr *q = keep(expr_binary(s ? EXPR_SDIV : EXPR_UDIV, x, y));
      expr *r = keep(expr_binary(s ? EXPR_SREM : EXPR_UREM, x, y));
      CHECK_SAME(ADD(MUL(q, y), r), x);
      CHECK_SAME(ADD(r, MUL(y, q)), x);
      CHECK_SAME(SUB(x, MUL(q, y)), r);
      /* not the identity: another factor, the other signedness's remainder */
      CHECK_DIFF(ADD(MUL(q, x), r), x);
      CHECK_DIFF(SUB(x, MUL(q, x)), r);
      expr *r_other = keep(expr_binary(s ? EXPR_UREM : EXPR_SREM, x, y));
      if (r_other != r) CHECK_DIFF(ADD(MUL(q, y), r_other), x);
    }
  /* A narrow division the program wrote, then extended, is not the wide one: x = 0xff,
   * y = 1: sext(x udiv y)·zext(y) + sext(x urem y) = −1, not zext(x) = 0xff; x = −128,
   * y = −1: sext(x sdiv y)·sext(y) + sext(x srem y) = 128, not sext(x) = −128. */
  expr *yz = ZEXT(y8, 32), *ys = keep(expr_sext(y8, 32));
  expr *uq = keep(expr_sext(keep(expr_udiv(x8, y8)), 32));
  expr *ur = keep(expr_sext(keep(expr_urem(x8, y8)), 32));
  expr *sq = keep(expr_sext(keep(expr_sdiv(x8, y8)), 32));
  expr *sr = keep(expr_sext(keep(expr_srem(x8, y8)), 32));
  expr *not_u = ADD(MUL(uq, yz), ur), *not_s = ADD(MUL(sq, ys), sr);
  CHECK_DIFF(not_u, ZEXT(x8, 32));
  CHECK_DIFF(not_s, keep(expr_sext(x8, 32)));
  expr_array *ax = x8->u.read.array, *ay = y8->u.read.array;
  expr_assignment *m = expr_assignment_new();
  set_value(m, ax, 0xff, 1);
  set_value(m, ay, 1, 1);
  CHECK_EVAL(not_u, m, 0xffffffffu);
  set_value(m, ax, 0x80, 1);
  set_value(m, ay, 0xff, 1);
  CHECK_EVAL(not_s, m, 128);
  expr_assignment_free(m);
  end_group(g);
}

/* Known low bits of affine indices: sound at random points, and reads skip writes whose
 * index can never equal theirs (8·i + 4 against 8·j + 1), but not others. */
static void test_low_bits(void) {
  group g = begin_group("low bits");
  expr_array *X = arr("lX", 8), *Y = arr("lY", 4);
  expr *x = keep(expr_read_le(X, NULL, c64(0), 8)), *y32 = keep(expr_read_le(Y, NULL, c64(0), 4));
  expr *terms[] = {
      ADD(c64(4), MUL(c64(8), x)),
      MUL(c64(4), ZEXT(MUL(c32(2), y32), 64)),
      MUL(c64(4), ZEXT(ADD(c32(1), MUL(c32(2), y32)), 64)),
      ADD(c64(3), MUL(c64(4), ZEXT(ADD(c32(1), MUL(c32(2), y32)), 64))),
      keep(expr_shl(ADD(c64(1), MUL(c64(6), x)), c64(3))),
      MUL(c64(12), keep(expr_sext(ADD(c32(7), MUL(c32(16), y32)), 64))),
      ADD(MUL(c64(8), x), ZEXT(MUL(c32(16), y32), 64)),
      ADD(x, c64(5)),
  };
  const size_t nt = sizeof terms / sizeof terms[0];
  unsigned long wrong = 0;
  for (size_t t = 0; t < nt; t++) {
    expr_low_bits lb = expr_known_low_bits(terms[t]);
    for (int trial = 0; trial < 200; trial++) {
      uint64_t xv = rng_next(), yv = rng_next();
      expr_assignment *m = expr_assignment_new();
      set_bytes(m, X, &xv, 8);
      set_bytes(m, Y, &yv, 4);
      u128 v = 0;
      if (expr_eval(terms[t], m, 10, &v) != EXPR_EVAL_OK ||
          (lb.known && ((v ^ lb.value) & mask(lb.known))))
        wrong++;
      expr_assignment_free(m);
    }
  }
  check_report(wrong == 0, __FILE__, __LINE__, "known low bits hold at random points");
  CHECK_EQ_U64(expr_known_low_bits(terms[0]).known, 3);
  CHECK_EQ_U64(expr_known_low_bits(terms[2]).known, 3);
  CHECK_EQ_U64((uint64_t)expr_known_low_bits(terms[2]).value, 4);
  CHECK_EQ_U64(expr_known_low_bits(terms[7]).known, 0);
  /* Reads over writes at symbolic indices. */
  expr_array *A = arr("lA", 64);
  expr *at8j = MUL(c64(8), ZEXT(y32, 64)), *at8i4 = terms[0];
  expr_update *w1 = push(A, NULL, ADD(c64(4), at8j), c8(7)); /* 8j + 4 */
  expr_update *w2 = push(A, w1, at8i4, c8(9));               /* 8x + 4 */
  expr *r = rdx(A, w2, ADD(c64(1), at8j));                   /* 8j + 1: skips both */
  CHECK(r->kind == EXPR_READ && r->u.read.updates == NULL);
  expr *r4 = rdx(A, w2, ADD(c64(4), at8j)); /* 8j + 4 may meet 8x + 4: stays */
  CHECK(r4->kind == EXPR_READ && r4->u.read.updates == w2);
  expr *r8 = rdx(A, w1, ADD(c64(4), at8j)); /* the same index: the value */
  CHECK_SAME(r8, c8(7));
  expr *rc = rdx(A, w2, c64(16)); /* 16 = 0 mod 8: skips both */
  CHECK(rc->kind == EXPR_READ && rc->u.read.updates == NULL);
  end_group(g);
}

/* ======================================================================================= */
/* forall                                                                                   */
/* ======================================================================================= */

static void test_forall(void) {
  group g = begin_group("forall");
  expr_array *S = arr("fS", 8), *N = arr("fN", 1);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *body = EQ(rdx(S, NULL, i), c8('a'));
  CHECK(body->has_bvar);
  expr *F03 = keep(expr_forall(i, c64(0), c64(3), body));
  CHECK(F03->kind == EXPR_FORALL && F03->width == 1 && !F03->has_bvar);
  CHECK(F03->kid[0] == i);
  expr *F02 = keep(expr_forall(i, c64(0), c64(2), body));
  expr *hi = ZEXT(rd(N, NULL, 0), 64);
  expr *Fn = keep(expr_forall(i, c64(1), hi, EQ(rdx(S, NULL, SUB(i, c64(1))), c8('a'))));
  CHECK(!Fn->has_bvar);

  expr_assignment *m = expr_assignment_new();
  set_bytes(m, S, "aaaa", 4);
  CHECK_EVAL(F03, m, 1);
  set_bytes(m, S, "aaba", 4);
  CHECK_EVAL(F03, m, 0);
  CHECK_EVAL(F02, m, 0);
  set_bytes(m, S, "aaab", 4);
  CHECK_EVAL(F03, m, 0);
  CHECK_EVAL(F02, m, 1); /* index 3 is outside the range */
  for (unsigned n = 0; n <= 6; n++) {
    set_value(m, N, n, 1); /* ∀i∈[1,n]. s[i−1]='a' over "aaab": true iff n ≤ 3 */
    CHECK_EVAL(Fn, m, n <= 3);
    CHECK_EVAL(NOT(Fn), m, n > 3);
  }
  /* An empty range is true. */
  expr *Fe = keep(expr_forall(i, c64(5), c64(2), body));
  CHECK_EVAL(Fe, m, 1);

  /* Range limits: 10 values fit a limit of 10, not of 9. */
  expr *F10 = keep(expr_forall(i, c64(1), c64(10), ULE(rdx(S, NULL, i), c8('b'))));
  u128 out = 7;
  CHECK(expr_eval(F10, m, 10, &out) == EXPR_EVAL_OK && out == 1);
  CHECK(expr_eval(F10, m, 9, &out) == EXPR_EVAL_RANGE_TOO_LARGE);
  expr *Fbig = keep(expr_forall(i, c64(0), c64(1000), body));
  CHECK(expr_eval(Fbig, m, 100, &out) == EXPR_EVAL_RANGE_TOO_LARGE);
  expr *Ffull = keep(expr_forall(i, c64(0), c64(UINT64_MAX), body)); /* 2^64 values */
  CHECK(expr_eval(Ffull, m, 1000, &out) == EXPR_EVAL_RANGE_TOO_LARGE);
  expr *l[] = {Fbig};
  CHECK(!expr_eval_all_true(l, 1, m));
  /* A narrow bound variable over its whole range. */
  expr *j8 = keep(expr_bvar_fresh(8, "j"));
  expr *F8 = keep(expr_forall(j8, c8(0), c8(255), ULE(rdx(S, NULL, ZEXT(j8, 64)), c8('b'))));
  CHECK_EVAL(F8, m, 1);
  /* Two foralls with their own variables in one formula. */
  expr *k = keep(expr_bvar_fresh(64, "k"));
  expr *G = keep(expr_forall(k, c64(4), c64(7), EQ(rdx(S, NULL, k), c8(0))));
  CHECK_EVAL(AND(G, F02), m, 1);
  set_bytes(m, S, "aaabaaaa", 8);
  CHECK_EVAL(AND(G, F02), m, 0);
  expr_assignment_free(m);
  end_group(g);
}

/* ======================================================================================= */
/* substitution                                                                             */
/* ======================================================================================= */

static void test_substitute(void) {
  group g = begin_group("substitute");
  expr_array *S = arr("uS", 8), *N = arr("uN", 8);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *body = EQ(rdx(S, NULL, SUB(i, c64(1))), c8('a'));

  /* A bound variable by a constant: the result is simplified. */
  expr *from[2] = {i}, *to[2] = {c64(3)};
  expr *r = keep(expr_substitute(body, from, to, 1));
  CHECK_SAME(r, EQ(rd(S, NULL, 2), c8('a')));
  CHECK(!r->has_bvar);
  /* Through a constant array the read folds too. */
  static const uint8_t init[3] = {'x', 'a', 'z'};
  expr_array *C = keep_a(expr_array_new("uC", c64(3), 3, false, init));
  expr *cbody = EQ(rdx(C, NULL, SUB(i, c64(1))), c8('a'));
  to[0] = c64(2);
  CHECK_SAME(keep(expr_substitute(cbody, from, to, 1)), TRUE_);
  to[0] = c64(3);
  CHECK_SAME(keep(expr_substitute(cbody, from, to, 1)), FALSE_);

  /* An array read by a constant. */
  expr *n = keep(expr_read_le(N, NULL, c64(0), 8));
  expr *lt = ULT(c64(3), n);
  from[0] = n;
  to[0] = c64(2);
  CHECK_SAME(keep(expr_substitute(lt, from, to, 1)), FALSE_);
  to[0] = c64(5);
  CHECK_SAME(keep(expr_substitute(lt, from, to, 1)), TRUE_);
  expr *sum = ADD(MUL(n, c64(3)), ZEXT(rd(S, NULL, 0), 64));
  to[0] = c64(7);
  CHECK_SAME(keep(expr_substitute(sum, from, to, 1)), ADD(c64(21), ZEXT(rd(S, NULL, 0), 64)));

  /* Simultaneous replacement: swapping two variables. */
  expr *x = var("ux", 32), *y = var("uy", 32);
  expr *d = SUB(x, y);
  from[0] = x;
  from[1] = y;
  to[0] = y;
  to[1] = x;
  CHECK_SAME(keep(expr_substitute(d, from, to, 2)), SUB(y, x));
  CHECK_SAME(keep(expr_substitute(d, from, to, 0)), d);

  /* Into an update list: the rebuilt read folds over the now-constant write. */
  expr *v = rd(N, NULL, 7);
  expr *sidx = ZEXT(rd(N, NULL, 6), 64);
  expr_update *wl = push(S, NULL, sidx, v);
  expr *ru = rd(S, wl, 3);
  CHECK(ru->kind == EXPR_READ && ru->u.read.updates == wl);
  from[0] = sidx;
  to[0] = c64(3);
  CHECK_SAME(keep(expr_substitute(ru, from, to, 1)), v);
  to[0] = c64(4);
  CHECK_SAME(keep(expr_substitute(ru, from, to, 1)), rd(S, NULL, 3));
  from[0] = v; /* the written value */
  to[0] = c8(0x61);
  expr *ru2 = keep(expr_substitute(rdx(S, wl, sidx), from, to, 1));
  expr_assignment *mv = expr_assignment_new();
  set_bytes(mv, N, "\0\0\0\0\0\0\x02\x09", 8);
  CHECK_EVAL(ru2, mv, 0x61);
  expr_assignment_free(mv);
  /* Into a forall body (an array read other than the bound variable). */
  expr *Fb = keep(expr_forall(i, c64(1), c64(3), ULT(i, n)));
  from[0] = n;
  to[0] = c64(4);
  CHECK_SAME(keep(expr_substitute(Fb, from, to, 1)),
             keep(expr_forall(i, c64(1), c64(3), ULT(i, c64(4)))));

  /* Inside a forall: substituting the bound K keeps the quantifier over the same body. */
  expr *F = keep(expr_forall(i, c64(1), n, body));
  from[0] = n;
  to[0] = c64(2);
  expr *F2 = keep(expr_substitute(F, from, to, 1));
  CHECK_SAME(F2, keep(expr_forall(i, c64(1), c64(2), body)));
  expr_assignment *m = expr_assignment_new();
  set_bytes(m, S, "aab", 3);
  CHECK_EVAL(F2, m, 1);
  to[0] = c64(3);
  CHECK_EVAL(keep(expr_substitute(F, from, to, 1)), m, 0);
  expr_assignment_free(m);

  /* A bound variable by a term: what does not mention it is not rebuilt. A forall's
   * instance over a buffer written 200 times at symbolic places (libpng's chunk buffer)
   * asked the constructors again for every write's index and value before. */
  expr *W = var("uW", 8), *J = var("uJ", 64);
  expr_update *wl200 = NULL;
  for (unsigned k = 0; k < 200; k++)
    wl200 = push(S, wl200, ADD(J, c64(k)), ADD(MUL(W, c8(k + 2)), c8(k)));
  expr *wbody = EQ(rdx(S, wl200, i), ADD(W, c8(1)));
  expr *at = var("uAt", 64);
  from[0] = i;
  to[0] = at;
  expr_stats st0 = expr_get_stats();
  expr *wr = keep(expr_substitute(wbody, from, to, 1));
  expr_stats st1 = expr_get_stats();
  CHECK_SAME(wr, EQ(rdx(S, wl200, at), ADD(W, c8(1))));
  CHECK((st1.created + st1.interned_hits) - (st0.created + st0.interned_hits) < 20);
  end_group(g);
}

/* ======================================================================================= */
/* expr_collect_arrays                                                                      */
/* ======================================================================================= */

static bool has_array(expr_array **v, size_t n, const expr_array *a) {
  for (size_t k = 0; k < n; k++)
    if (v[k] == a) return true;
  return false;
}

static void test_collect(void) {
  group g = begin_group("collect");
  expr_array *A = arr("cA", 16), *B = arr("cB", 4), *Nn = arr("cN", 8), *I = arr("cI", 2);
  expr *nsize = keep(expr_read_le(Nn, NULL, c64(0), 8));
  expr_array *D = keep_a(expr_array_new("cD", nsize, 10, true, NULL)); /* symbolic size */
  expr *i0 = ZEXT(rd(I, NULL, 0), 64), *i1 = ZEXT(rd(I, NULL, 1), 64);
  expr_update *u = push(A, NULL, i0, rd(B, NULL, 0));
  expr *e = ADD(ZEXT(rdx(D, NULL, i0), 32), ZEXT(rdx(A, u, i1), 32));

  expr_array **out = NULL;
  size_t count = 0, cap = 0;
  expr_collect_arrays(e, &out, &count, &cap);
  CHECK_EQ_U64(count, 5);
  CHECK(has_array(out, count, A) && has_array(out, count, B) && has_array(out, count, D) &&
        has_array(out, count, Nn) && has_array(out, count, I));
  for (size_t a1 = 0; a1 < count; a1++)
    for (size_t a2 = 0; a2 < a1; a2++) CHECK(out[a1] != out[a2]);
  CHECK(cap >= count);
  /* A second call appends only what is new. */
  expr_collect_arrays(e, &out, &count, &cap);
  CHECK_EQ_U64(count, 5);
  free(out);

  /* Pre-filled output keeps its entries first. */
  cap = 2;
  out = malloc(cap * sizeof *out);
  out[0] = B;
  count = 1;
  expr_collect_arrays(rdx(A, NULL, i1), &out, &count, &cap);
  CHECK_EQ_U64(count, 3);
  CHECK(count >= 1 && out[0] == B);
  CHECK(has_array(out, count, A) && has_array(out, count, I));
  expr_collect_arrays(c32(4), &out, &count, &cap);
  CHECK_EQ_U64(count, 3);
  free(out);
  /* A size is enough: D's size mentions N. */
  out = NULL;
  count = cap = 0;
  expr_collect_arrays(rd(D, NULL, 3), &out, &count, &cap);
  CHECK_EQ_U64(count, 2);
  CHECK(has_array(out, count, D) && has_array(out, count, Nn));
  free(out);
  /* Several roots in one walk: the union, each array once. */
  expr *roots[] = {rd(D, NULL, 3), rdx(A, NULL, i1), c32(4), rd(B, NULL, 1)};
  out = NULL;
  count = cap = 0;
  expr_collect_arrays_of(roots, 4, &out, &count, &cap);
  CHECK_EQ_U64(count, 5);
  CHECK(has_array(out, count, A) && has_array(out, count, B) && has_array(out, count, D) &&
        has_array(out, count, Nn) && has_array(out, count, I));
  for (size_t a1 = 0; a1 < count; a1++)
    for (size_t a2 = 0; a2 < a1; a2++) CHECK(out[a1] != out[a2]);
  expr_collect_arrays_of(roots, 0, &out, &count, &cap);
  CHECK_EQ_U64(count, 5);
  free(out);
  end_group(g);
}

/* ======================================================================================= */
/* SMT-LIB printer, replayed with z3                                                        */
/* ======================================================================================= */

static const char *z3_path;

static bool find_z3(void) {
  static const char *cands[] = {"/usr/bin/z3", "/usr/local/bin/z3"};
  for (size_t k = 0; k < sizeof cands / sizeof cands[0]; k++)
    if (access(cands[k], X_OK) == 0) {
      z3_path = cands[k];
      return true;
    }
  return false;
}

/* Prints the query, runs z3 on it and checks its answer. */
static void smt_expect_at(const char *file, int line, const char *what, expr *const *fs, size_t n,
                          const char *want) {
  if (!z3_path) {
    check_report(0, file, line, "the z3 command is installed");
    return;
  }
  char path[] = "/tmp/symq-test-expr-XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) {
    check_report(0, file, line, "mkstemp");
    return;
  }
  FILE *f = fdopen(fd, "w");
  expr_print_smtlib(f, fs, n);
  fclose(f);
  char cmd[512];
  /* A bound in CPU seconds (ulimit -t), not z3's -T wall-clock one: a loaded machine must
   * not turn a slow answer into a failure, and a query that truly runs away still ends. */
  snprintf(cmd, sizeof cmd, "ulimit -t 60; %s -smt2 %s 2>&1", z3_path, path);
  FILE *p = popen(cmd, "r");
  char outbuf[4096] = "";
  size_t got = p ? fread(outbuf, 1, sizeof outbuf - 1, p) : 0;
  outbuf[got] = 0;
  if (p) pclose(p);
  char first[64] = "";
  sscanf(outbuf, "%63s", first);
  bool ok = strcmp(first, want) == 0 && !strstr(outbuf, "(error");
  char msg[256];
  snprintf(msg, sizeof msg, "z3 says %s for the printed query: %s", want, what);
  check_report(ok, file, line, msg);
  if (!ok) {
    fprintf(stderr, "    z3 output:\n%s    query:\n", outbuf);
    FILE *q = fopen(path, "r");
    if (q) {
      char line_buf[512];
      int lines = 0;
      while (fgets(line_buf, sizeof line_buf, q) && lines++ < 80)
        fprintf(stderr, "      %s", line_buf);
      fclose(q);
    }
  }
  unlink(path);
}

#define SMT_EXPECT(what, want, ...)                                                             \
  do {                                                                                          \
    expr *smt_fs_[] = {__VA_ARGS__};                                                            \
    smt_expect_at(__FILE__, __LINE__, what, smt_fs_, sizeof smt_fs_ / sizeof smt_fs_[0], want); \
  } while (0)

static void test_smtlib(void) {
  group g = begin_group("smtlib");
  if (!find_z3()) {
    check_report(0, __FILE__, __LINE__, "the z3 command is installed");
    fprintf(stderr,
            "    /usr/bin/z3 not found: install Debian's z3 package "
            "(apt-get install z3) to run the SMT-LIB printer tests\n");
    end_group(g);
    return;
  }
  expr *x = var("zx", 32), *y = var("zy", 32);
  expr *ones = c32(0xffffffff);
  SMT_EXPECT("x+1 = 0 and x != ones", "unsat", EQ(ADD(x, c32(1)), c32(0)), NE(x, ones));
  SMT_EXPECT("x+1 = 0", "sat", EQ(ADD(x, c32(1)), c32(0)));
  /* Shared nodes (define-fun) used by two assertions. */
  expr *sq = MUL(x, x);
  SMT_EXPECT("3 < x*x < 10", "sat", ULT(c32(3), sq), ULT(sq, c32(10)));
  SMT_EXPECT("x*x = 2", "unsat", EQ(sq, c32(2)));
  /* SMT-LIB semantics survive printing. */
  SMT_EXPECT("y = 0 and x udiv y != ones", "unsat", EQ(y, c32(0)), NE(keep(expr_udiv(x, y)), ones));
  SMT_EXPECT("y = 0 and x urem y != x", "unsat", EQ(y, c32(0)), NE(keep(expr_urem(x, y)), x));
  SMT_EXPECT("y = 0, x < 0 and x sdiv y != 1", "unsat", EQ(y, c32(0)), keep(expr_slt(x, c32(0))),
             NE(keep(expr_sdiv(x, y)), c32(1)));
  SMT_EXPECT("y >= 32 and x shl y != 0", "unsat", ULE(c32(32), y),
             NE(keep(expr_shl(x, y)), c32(0)));
  SMT_EXPECT("y >= 32, x < 0 and x ashr y != ones", "unsat", ULE(c32(32), y),
             keep(expr_slt(x, c32(0))), NE(keep(expr_ashr(x, y)), ones));
  SMT_EXPECT("x = min and x sdiv -1 != min", "unsat", EQ(x, c32(0x80000000)),
             NE(keep(expr_sdiv(x, ones)), c32(0x80000000)));

  /* Every operator: with the inputs fixed, the printed terms equal their evaluated values
   * (sat), and no term differs from its value (unsat). */
  {
    expr_array *X = arr("zX", 16), *Y = arr("zY", 16), *Cc = arr("zC", 1);
    uint8_t xb[16], yb[16];
    for (int k = 0; k < 16; k++) {
      xb[k] = (uint8_t)rng_next();
      yb[k] = (uint8_t)rng_next();
    }
    yb[1] = 0x80; /* negative at 16 bits */
    yb[3] = 0;
    yb[2] = 5; /* 32-bit y: a small positive shift amount */
    expr *fixed[40];
    unsigned nf = 0;
    for (int k = 0; k < 16; k++) {
      fixed[nf++] = EQ(rd(X, NULL, (uint64_t)k), c8(xb[k]));
      fixed[nf++] = EQ(rd(Y, NULL, (uint64_t)k), c8(yb[k]));
    }
    fixed[nf++] = EQ(rd(Cc, NULL, 0), c8(1));
    expr_assignment *m = expr_assignment_new();
    set_bytes(m, X, xb, 16);
    set_bytes(m, Y, yb, 16);
    set_bytes(m, Cc, "\x01", 1);
    static const expr_kind bins[] = {EXPR_ADD,  EXPR_SUB,  EXPR_MUL, EXPR_UDIV, EXPR_SDIV,
                                     EXPR_UREM, EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR,
                                     EXPR_AND,  EXPR_OR,   EXPR_XOR, EXPR_EQ,   EXPR_ULT,
                                     EXPR_ULE,  EXPR_SLT,  EXPR_SLE};
    expr *terms[200];
    unsigned nt = 0;
    static const unsigned ws[] = {1, 8, 16, 32, 64, 128};
    for (size_t wi = 0; wi < 6; wi++) {
      unsigned nb = ws[wi] < 8 ? 1 : ws[wi] / 8;
      expr *xv = keep(expr_read_le(X, NULL, c64(0), nb)),
           *yv = keep(expr_read_le(Y, NULL, c64(0), nb));
      if (ws[wi] < 8) {
        xv = EXTRACT(xv, 0, ws[wi]);
        yv = EXTRACT(yv, 0, ws[wi]);
      }
      for (size_t k = 0; k < sizeof bins / sizeof bins[0]; k++)
        terms[nt++] = keep(expr_binary(bins[k], xv, yv));
      terms[nt++] = NOT(xv);
      terms[nt++] = ITE(EXTRACT(rd(Cc, NULL, 0), 0, 1), xv, yv);
      if (ws[wi] < 128) terms[nt++] = ZEXT(xv, 128);
      terms[nt++] = keep(expr_sext(xv, 128));
      if (ws[wi] >= 8) terms[nt++] = EXTRACT(xv, 3, ws[wi] - 5);
      if (ws[wi] <= 64) terms[nt++] = CONCAT(yv, xv);
    }
    /* Reads through an update list at a symbolic index, too. */
    expr *sidx = ZEXT(EXTRACT(rd(Y, NULL, 0), 0, 3), 64);
    expr_update *uu = push(X, push(X, NULL, sidx, c8(0xab)), c64(2), c8(0xcd));
    terms[nt++] = keep(expr_read_le(X, uu, c64(0), 8));
    terms[nt++] = rdx(X, uu, sidx);
    expr *eqs[260], *nes[200];
    unsigned ne = 0;
    for (unsigned k = 0; k < nf; k++) eqs[k] = fixed[k];
    bool all_ok = true;
    for (unsigned t = 0; t < nt; t++) {
      bool ok;
      u128 v = eval_ok(terms[t], m, &ok);
      all_ok &= ok;
      eqs[nf + t] = EQ(terms[t], cw(terms[t]->width, v));
      nes[ne++] = NE(terms[t], cw(terms[t]->width, v));
    }
    CHECK(all_ok);
    smt_expect_at(__FILE__, __LINE__, "every operator equals its evaluated value", eqs, nf + nt,
                  "sat");
    expr *any_ne = FALSE_;
    for (unsigned k = 0; k < ne; k++) any_ne = OR(any_ne, nes[k]);
    fixed[nf] = any_ne;
    smt_expect_at(__FILE__, __LINE__, "some operator differs from its evaluated value", fixed,
                  nf + 1, "unsat");
    printf("    %u printed terms checked by z3\n", nt);
    expr_assignment_free(m);
  }

  /* Random terms with shared subterms (define-fun), every width: printed values equal the
   * evaluated ones. */
  {
    expr_array *V = arr("zV", 48), *R = arr("zR", 32);
    uint8_t vb[48], rb[32];
    for (int k = 0; k < 48; k++) vb[k] = (uint8_t)rng_next();
    for (int k = 0; k < 32; k++) rb[k] = (uint8_t)rng_next();
    vb[0] = 0;
    vb[16] = 0xff;
    expr_assignment *m = expr_assignment_new();
    set_bytes(m, V, vb, 48);
    set_bytes(m, R, rb, 32);
    expr *fs[48 + 32 + 1 + 200];
    size_t nfix = 0;
    for (int k = 0; k < 48; k++) fs[nfix++] = EQ(rd(V, NULL, (uint64_t)k), c8(vb[k]));
    for (int k = 0; k < 32; k++) fs[nfix++] = EQ(rd(R, NULL, (uint64_t)k), c8(rb[k]));
    expr *eqs[200 + 80], *any_ne = FALSE_;
    size_t neq = 0;
    static const unsigned ws[] = {1, 8, 16, 32, 64, 128};
    bool all_ok = true;
    for (size_t wi = 0; wi < 6; wi++) {
      unsigned w = ws[wi], nb = w < 8 ? 1 : w / 8;
      expr *leaves[R_NLEAVES];
      for (unsigned k = 0; k < 3; k++) {
        leaves[k] = keep(expr_read_le(V, NULL, c64(16 * k), nb));
        if (w < 8) leaves[k] = EXTRACT(leaves[k], 0, w);
      }
      for (unsigned k = 0; k < 4; k++) {
        unsigned off = k < 2 ? k : 2 * k;
        leaves[3 + k] =
            w >= 8 ? keep(expr_read_le(R, NULL, c64(off), nb)) : EXTRACT(rd(R, NULL, off), 0, w);
      }
      u128 cvals[5] = {0, 1, mask(w), ((u128)1 << (w - 1)), w};
      for (unsigned k = 0; k < 5; k++) leaves[7 + k] = cw(w, cvals[k]);
      for (int t = 0; t < 30; t++) {
        nrpool = 0;
        expr *e = build_rterm(gen_rterm(5, w), w, leaves);
        bool ok;
        u128 v = eval_ok(e, m, &ok);
        all_ok &= ok;
        eqs[neq++] = EQ(e, cw(w, v));
        any_ne = OR(any_ne, NE(e, cw(w, v)));
      }
    }
    CHECK(all_ok);
    memcpy(fs + nfix, eqs, neq * sizeof *eqs);
    smt_expect_at(__FILE__, __LINE__, "random terms equal their evaluated values", fs, nfix + neq,
                  "sat");
    fs[nfix] = any_ne;
    smt_expect_at(__FILE__, __LINE__, "some random term differs from its evaluated value", fs,
                  nfix + 1, "unsat");
    printf("    %zu random terms (shared subterms) checked by z3\n", neq);
    expr_assignment_free(m);
  }

  /* forall. */
  {
    expr_array *S = arr("zS", 8), *Ka = arr("zK", 8);
    expr *K = keep(expr_read_le(Ka, NULL, c64(0), 8));
    expr *i = keep(expr_bvar_fresh(64, "i"));
    expr *F = keep(expr_forall(i, c64(1), K, EQ(rdx(S, NULL, SUB(i, c64(1))), c8('a'))));
    SMT_EXPECT("forall, K = 3, s[1] = 'b'", "unsat", F, EQ(K, c64(3)), EQ(rd(S, NULL, 1), c8('b')));
    SMT_EXPECT("forall, K = 3, s[3] = 'b'", "sat", F, EQ(K, c64(3)), EQ(rd(S, NULL, 3), c8('b')));
    SMT_EXPECT("forall, K = 3", "sat", F, EQ(K, c64(3)));
    SMT_EXPECT("not forall, K = 0", "unsat", NOT(F), EQ(K, c64(0)));
  }

  /* A constant array: its init bytes are part of the query. */
  {
    static const uint8_t abcd[4] = {'a', 'b', 'c', 'd'};
    expr_array *C = keep_a(expr_array_new("zconst", c64(4), 4, false, abcd)), *J = arr("zJc", 8);
    expr *j = keep(expr_read_le(J, NULL, c64(0), 8));
    SMT_EXPECT("const array: c[j] = 'e', j < 4", "unsat", EQ(rdx(C, NULL, j), c8('e')),
               ULT(j, c64(4)));
    SMT_EXPECT("const array: c[j] = 'c', j < 4", "sat", EQ(rdx(C, NULL, j), c8('c')),
               ULT(j, c64(4)));
    SMT_EXPECT("const array: c[j] = 'c', j != 2, j < 4", "unsat", EQ(rdx(C, NULL, j), c8('c')),
               ULT(j, c64(4)), NE(j, c64(2)));
    expr_update *cu = push(C, NULL, j, c8('z'));
    SMT_EXPECT("const array with a write: c[1] = 'z', j != 1", "unsat", EQ(rd(C, cu, 1), c8('z')),
               NE(j, c64(1)), ULT(j, c64(4)));
  }
  /* Array names that are not plain SMT-LIB symbols. */
  {
    expr_array *odd1 = arr("arg 1", 4), *odd2 = arr("s.data-2", 4), *odd3 = arr("0lead", 4);
    SMT_EXPECT("odd names", "sat", EQ(rd(odd1, NULL, 0), rd(odd2, NULL, 1)),
               NE(rd(odd2, NULL, 1), rd(odd3, NULL, 2)));
  }
  /* Booleans as values: width-1 operators, extended and selected. */
  {
    expr *b1 = ULT(x, y), *b2 = EQ(ADD(x, c32(1)), y);
    expr *nb = keep(expr_xor(b1, b2));
    SMT_EXPECT("x+1 = y and x < 100 imply x < y (as width-1 bit-vectors)", "unsat", b2,
               ULT(x, c32(100)), NOT(b1));
    SMT_EXPECT("x+1 = y without a bound on x: x < y may fail", "sat", b2, NOT(b1));
    SMT_EXPECT("width-1 xor, zext and ite", "sat", EQ(ZEXT(nb, 8), c8(1)),
               EQ(ITE(b1, c32(7), c32(9)), c32(9)), EQ(CONCAT(b1, b2), cw(2, 1)));
    SMT_EXPECT("width-1 sext", "unsat", EQ(keep(expr_sext(b1, 8)), c8(1)));
  }
  smt_expect_at(__FILE__, __LINE__, "no formulas", NULL, 0, "sat");

  /* Update lists and a 128-bit constant. */
  {
    expr_array *A = arr("zA", 16), *J = arr("zJ", 8);
    expr *j = keep(expr_read_le(J, NULL, c64(0), 8));
    expr_update *u = push(A, push(A, NULL, j, c8(0x42)), c64(2), c8(0x13));
    expr *r = keep(expr_read_le(A, u, c64(0), 16));
    CHECK_EQ_U64(r->width, 128);
    u128 cv = 0;
    for (int k = 15; k >= 0; k--) cv = (cv << 8) | (u128)(0xe0 + k);
    u128 byte5 = (u128)0xff << 40, byte2 = (u128)0xff << 16;
    u128 good = (cv & ~byte5 & ~byte2) | ((u128)0x42 << 40) | ((u128)0x13 << 16);
    u128 bad5 = (good & ~byte5) | ((u128)0x41 << 40);
    u128 bad2 = (good & ~byte2) | ((u128)0x42 << 16);
    SMT_EXPECT("128-bit read through writes, j = 5", "sat", EQ(r, cw(128, good)), EQ(j, c64(5)));
    SMT_EXPECT("128-bit read, j = 5, byte 5 is not the written one", "unsat", EQ(r, cw(128, bad5)),
               EQ(j, c64(5)));
    SMT_EXPECT("128-bit read, j = 2: the newer write to 2 wins", "unsat", EQ(r, cw(128, bad2)),
               EQ(j, c64(2)));
    SMT_EXPECT("128-bit constant compared", "unsat", EQ(r, cw(128, good)), EQ(r, cw(128, bad5)));
    SMT_EXPECT("128-bit high bit", "sat", ULT(cw(128, (u128)1 << 127), r));
  }
  end_group(g);
}

/* ======================================================================================= */
/* memspn (pat-merge.md §5)                                                                 */
/* ======================================================================================= */

static void test_memspn(void) {
  group g = begin_group("memspn");
  enum { N = 3, KMAX = 5 };
  expr_array *Na = arr("mn", 8), *Ka = keep_a(expr_array_new("mK", c64(8), 8, false, NULL));
  expr *n = keep(expr_read_le(Na, NULL, c64(0), 8));
  CHECK(n->kind == EXPR_READ && n->width == 64);
  expr_array *s = keep_a(expr_array_new("ms", n, N, true, NULL));
  expr *K = keep(expr_read_le(Ka, NULL, c64(0), 8));
  expr *pre = ULE(n, c64(N));
  expr *A = c8('a');

  /* The forked paths: exit 1 leaves the loop on i < n false with count m; exit 2 breaks on
   * s[m] != 'a' with count m. */
  expr *pc1[N + 1], *pc2[N];
  expr *prefix = pre;
  for (unsigned m = 0; m <= N; m++) {
    expr *lt = ULT(c64(m), n);
    pc1[m] = AND(prefix, NOT(lt));
    if (m < N) pc2[m] = AND(AND(prefix, lt), NE(rd(s, NULL, m), A));
    if (m < N) prefix = AND(AND(prefix, lt), EQ(rd(s, NULL, m), A));
  }
  /* The words of pattern hashes: the iteration conditions hash alike, and each differs from
   * its negation. */
  CHECK_PH_SAME(ULT(c64(1), n), ULT(c64(2), n));
  CHECK_PH_SAME(EQ(rd(s, NULL, 0), A), EQ(rd(s, NULL, 2), A));
  CHECK_PH_DIFF(ULT(c64(1), n), NOT(ULT(c64(1), n)));
  CHECK_PH_DIFF(EQ(rd(s, NULL, 1), A), NE(rd(s, NULL, 1), A));

  /* The merged states. */
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *F = keep(expr_forall(i, c64(1), K, EQ(rdx(s, NULL, SUB(i, c64(1))), A)));
  expr *merged1 = AND(AND(AND(pre, F), EQ(K, n)), ULE(K, c64(N)));
  expr *merged2 = AND(AND(AND(AND(pre, F), ULT(K, n)), NE(rdx(s, NULL, K), A)), ULE(K, c64(N - 1)));

  unsigned long assignments = 0, sat1 = 0, sat2 = 0;
  unsigned long bad = 0;
  for (unsigned nv = 0; nv <= KMAX; nv++)
    for (unsigned sbits = 0; sbits < 16; sbits++) {
      uint8_t sb[4];
      for (int k = 0; k < 4; k++) sb[k] = (sbits >> k) & 1 ? 'b' : 'a';
      int hit1 = -1, hit2 = -1, count1 = 0, count2 = 0;
      expr_assignment *m = expr_assignment_new();
      set_value(m, Na, nv, 8);
      set_bytes(m, s, sb, 4);
      for (unsigned k = 0; k <= N; k++) {
        bool ok;
        u128 v = eval_ok(pc1[k], m, &ok);
        if (!ok) bad++;
        if (ok && v) {
          hit1 = (int)k;
          count1++;
        }
        if (k < N) {
          v = eval_ok(pc2[k], m, &ok);
          if (!ok) bad++;
          if (ok && v) {
            hit2 = (int)k;
            count2++;
          }
        }
      }
      /* Siblings are exclusive, and every assignment within the bound takes one path. */
      if (count1 + count2 > 1 || (nv <= N && count1 + count2 != 1) || (nv > N && count1 + count2))
        bad++;
      for (unsigned kv = 0; kv <= KMAX; kv++) {
        set_value(m, Ka, kv, 8);
        bool ok1, ok2;
        u128 v1 = eval_ok(merged1, m, &ok1), v2 = eval_ok(merged2, m, &ok2);
        assignments++;
        /* Theorem 3.8: merged pc with count K holds iff the forked pc with count K does. */
        bool want1 = hit1 >= 0 && (unsigned)hit1 == kv;
        bool want2 = hit2 >= 0 && (unsigned)hit2 == kv;
        if (!ok1 || !ok2 || (v1 != 0) != want1 || (v2 != 0) != want2) {
          if (bad++ < 10)
            fprintf(stderr,
                    "test_expr: memspn n=%u s=%.4s K=%u: merged1=%d (want %d), "
                    "merged2=%d (want %d)\n",
                    nv, (const char *)sb, kv, (int)v1, want1, (int)v2, want2);
        }
        sat1 += v1 != 0;
        sat2 += v2 != 0;
      }
      expr_assignment_free(m);
    }
  check_report(bad == 0, __FILE__, __LINE__, "memspn: merged pc holds iff a forked pc holds");
  CHECK(sat1 > 0 && sat2 > 0);
  printf("    memspn: %lu assignments, merged pcs true for %lu and %lu of them\n", assignments,
         sat1, sat2);

  /* The same equivalence, proved by z3 over the printed queries. */
  if (z3_path) {
    expr *any1 = FALSE_, *any2 = FALSE_;
    for (unsigned k = 0; k <= N; k++) any1 = OR(any1, pc1[k]);
    for (unsigned k = 0; k < N; k++) any2 = OR(any2, pc2[k]);
    SMT_EXPECT("merged pc 1 implies a forked pc", "unsat", merged1, NOT(any1));
    SMT_EXPECT("a forked pc implies merged pc 1 with K = n", "unsat", any1, EQ(K, n), NOT(merged1));
    SMT_EXPECT("merged pc 2 implies a forked pc", "unsat", merged2, NOT(any2));
    SMT_EXPECT("merged pc 1 is satisfiable with K = 2", "sat", merged1, EQ(K, c64(2)));
  }
  end_group(g);
}

int main(void) {
  size_t n0 = expr_live_count(), a0 = expr_live_arrays(), u0 = expr_live_updates();
  expr_stats st0 = expr_get_stats();
  find_z3();
  printf("test_expr:\n");
  test_constants();
  test_hashcons();
  test_refcount();
  test_simplify();
  test_reads();
  test_phash();
  test_eval();
  test_soundness();
  test_division_bounds();
  test_division_narrow();
  test_low_bits();
  test_forall();
  test_substitute();
  test_collect();
  test_smtlib();
  test_memspn();
  expr_stats st1 = expr_get_stats();
  /* The counters moved: every group creates, re-interns, folds, rewrites and merges. */
  CHECK(st1.created > st0.created);
  CHECK(st1.interned_hits > st0.interned_hits);
  CHECK(st1.folded > st0.folded);
  CHECK(st1.rewrites > st0.rewrites);
  CHECK(st1.read_over_write > st0.read_over_write);
  CHECK(st1.reads_merged > st0.reads_merged);
  CHECK_EQ_U64(expr_live_count(), n0);
  CHECK_EQ_U64(expr_live_arrays(), a0);
  CHECK_EQ_U64(expr_live_updates(), u0);
  free(kept_e);
  free(kept_a);
  free(kept_u);
  return check_exit();
}
