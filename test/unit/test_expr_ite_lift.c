/*
 * test_expr_ite_lift.c — an operator over a merged constant (engine/core/expr.c): a CFG
 * merge's value chosen among constants, ite(g1, c1, ite(g2, c2, c3)), combined with a
 * constant (or extended, extracted, negated, or used as a read's index) is applied to each
 * constant, so the result is again an ite over constants and folds where the forked
 * members' constants fold. Checked: the shapes (a bounds check true for every member is
 * the constant true; `v == 4` is the guard of the member holding 4; a read at the merged
 * index is the members' reads at constant indices), the tree construction's shared
 * subtrees (a DAG of 12 ite nodes whose tree has 4,096 leaves), the limits (a leaf past
 * the array's capacity, a DAG over 32 ite nodes, a symbolic leaf: left as they were), a
 * comparison with a symbolic term (lifted: the members' `k <= n`), and the values, by
 * evaluation on every assignment of the guards' bytes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "engine/core/expr.h"

#define NKEPT 4096
static expr *kept[NKEPT];
static size_t nkept;

static expr *keep(expr *e) {
  if (!e || nkept == NKEPT) abort();
  kept[nkept++] = e;
  return e;
}

static expr *c64(uint64_t v) { return keep(expr_const(64, v)); }
static expr *c8(uint64_t v) { return keep(expr_const(8, v)); }

static expr_array *s; /* the input the guards read: s[k] == 'a' + k */
#define NGUARD 6

static expr *guard(unsigned k) {
  return keep(expr_eq(keep(expr_read(s, NULL, c64(k))), c8('a' + k)));
}

/* The assignment of s where guard k holds iff bit k of `bits` is set. */
static expr_assignment *assignment(unsigned bits) {
  uint8_t bytes[8] = {0};
  for (unsigned k = 0; k < NGUARD; k++) bytes[k] = (uint8_t)(bits >> k & 1 ? 'a' + k : 'z');
  expr_assignment *m = expr_assignment_new();
  expr_assignment_set(m, s, bytes, sizeof bytes);
  return m;
}

static u128 eval(const expr *e, unsigned bits) {
  expr_assignment *m = assignment(bits);
  u128 v = 0;
  CHECK(expr_eval(e, m, 0, &v) == EXPR_EVAL_OK);
  expr_assignment_free(m);
  return v;
}

/* Only constants below the ites (the lifted result's shape). */
static bool const_leaves(const expr *e) {
  if (e->kind == EXPR_CONST) return true;
  if (e->kind != EXPR_ITE) return false;
  return const_leaves(e->kid[1]) && const_leaves(e->kid[2]);
}

/* v = ite(g0, 3, ite(g1, 4, 5)) */
static void test_shapes(void) {
  expr *g0 = guard(0), *g1 = guard(1);
  expr *v = keep(expr_ite(g0, c64(3), keep(expr_ite(g1, c64(4), c64(5)))));
  /* a bounds check every member passes: constant true */
  expr *in_bounds = keep(expr_ult(keep(expr_add(c64(10), v)), c64(16)));
  CHECK(in_bounds->kind == EXPR_CONST && in_bounds->u.value == 1);
  /* the member at 5 fails it: the others' guards */
  expr *past = keep(expr_ult(keep(expr_add(c64(10), v)), c64(15)));
  CHECK(past == keep(expr_ite(g0, keep(expr_true()), g1)));
  /* a branch on the merged value: the guard of the member holding it */
  expr *is4 = keep(expr_eq(v, c64(4)));
  CHECK(is4 == keep(expr_ite(g0, keep(expr_false()), g1)));
  /* arithmetic stays an ite over the folded constants */
  expr *sum = keep(expr_add(v, c64(100)));
  CHECK(sum == keep(expr_ite(g0, c64(103), keep(expr_ite(g1, c64(104), c64(105))))));
  expr *narrow = keep(expr_extract(v, 0, 8));
  CHECK(narrow == keep(expr_ite(g0, c8(3), keep(expr_ite(g1, c8(4), c8(5))))));
  expr *wide = keep(expr_zext(narrow, 32));
  CHECK(wide->kind == EXPR_ITE && wide->width == 32 && const_leaves(wide));
  /* a read at the merged index: the members' reads at constant indices */
  expr *r = keep(expr_read(s, NULL, v));
  expr *r3 = keep(expr_read(s, NULL, c64(3))), *r4 = keep(expr_read(s, NULL, c64(4)));
  expr *r5 = keep(expr_read(s, NULL, c64(5)));
  CHECK(r == keep(expr_ite(g0, r3, keep(expr_ite(g1, r4, r5)))));
  /* a leaf past the capacity (8): the read at the symbolic index, as before */
  expr *far = keep(expr_ite(g0, c64(3), c64(8)));
  expr *rfar = keep(expr_read(s, NULL, far));
  CHECK(rfar->kind == EXPR_READ && rfar->kid[0] == far);
  /* a symbolic leaf: not lifted */
  expr *mixed = keep(expr_ite(g0, c64(3), keep(expr_zext(r3, 64))));
  CHECK(keep(expr_add(c64(1), mixed))->kind == EXPR_ADD);
}

/* The tree construction's sharing: x_{k+1} = ite(g_k, x_k, ite(g_{k+1}, x_k, k + 2)), 12 ite
 * nodes, 2^12 leaves as a tree. Lifted once per node, and equal to the operator applied to
 * the value on every assignment. */
static void test_dag(void) {
  expr *g[NGUARD];
  for (unsigned k = 0; k < NGUARD; k++) g[k] = guard(k);
  expr *x = c64(1);
  for (unsigned k = 0; k < NGUARD; k++) {
    expr *inner = keep(expr_ite(g[(k + 1) % NGUARD], x, c64(k + 2)));
    x = keep(expr_ite(g[k], x, inner));
  }
  expr *shifted = keep(expr_add(c64(1000), x));
  CHECK(shifted->kind == EXPR_ITE && const_leaves(shifted));
  expr *small = keep(expr_ult(x, c64(4)));
  CHECK(small->kind != EXPR_ULT);
  expr *r = keep(expr_read(s, NULL, keep(expr_sub(x, c64(1)))));
  CHECK(r->kind == EXPR_ITE);
  for (unsigned bits = 0; bits < 1u << NGUARD; bits++) {
    u128 v = eval(x, bits);
    CHECK_EQ_U64(eval(shifted, bits), v + 1000);
    CHECK_EQ_U64(eval(small, bits), v < 4);
    uint8_t want = v - 1 < NGUARD ? (uint8_t)(bits >> (v - 1) & 1 ? 'a' + (v - 1) : 'z') : 0;
    CHECK_EQ_U64(eval(r, bits), want);
  }
}

/* A comparison of the merged value with a symbolic term n: the members' `k <= n`, one per
 * distinct constant, under the guards (apr_collapse_spaces' `len <= n`); an ite on both sides
 * is left as it is. Equal to the comparison on every assignment of the guards and of n. */
static void test_compare(void) {
  expr *g0 = guard(0), *g1 = guard(1);
  expr *v = keep(expr_ite(g0, c64(3), keep(expr_ite(g1, c64(4), c64(3)))));
  expr *n = keep(expr_zext(keep(expr_read(s, NULL, c64(7))), 64));
  expr *le = keep(expr_ule(v, n)), *lt = keep(expr_ult(n, v));
  expr *le3 = keep(expr_ule(c64(3), n)), *le4 = keep(expr_ule(c64(4), n));
  CHECK(le == keep(expr_ite(g0, le3, keep(expr_ite(g1, le4, le3)))));
  CHECK(lt->kind == EXPR_ITE && lt->kid[0] == g0);
  CHECK(keep(expr_eq(v, n))->kind == EXPR_ITE);
  expr *w = keep(expr_ite(g1, c64(1), c64(2)));
  CHECK(keep(expr_ule(v, w))->kind == EXPR_ULE);
  for (unsigned bits = 0; bits < 1u << NGUARD; bits++)
    for (uint8_t at7 = 0; at7 < 8; at7++) {
      uint8_t bytes[8] = {0};
      for (unsigned k = 0; k < NGUARD; k++) bytes[k] = (uint8_t)(bits >> k & 1 ? 'a' + k : 'z');
      bytes[7] = at7;
      expr_assignment *m = expr_assignment_new();
      expr_assignment_set(m, s, bytes, sizeof bytes);
      u128 vv = 0, got = 0;
      CHECK(expr_eval(v, m, 0, &vv) == EXPR_EVAL_OK);
      CHECK(expr_eval(le, m, 0, &got) == EXPR_EVAL_OK);
      CHECK_EQ_U64(got, vv <= at7);
      CHECK(expr_eval(lt, m, 0, &got) == EXPR_EVAL_OK);
      CHECK_EQ_U64(got, at7 < vv);
      expr_assignment_free(m);
    }
}

/* More than 32 distinct ite nodes: left as the operator over the ite. */
static void test_limit(void) {
  expr *y = c64(0);
  for (unsigned k = 1; k <= 33; k++) {
    expr *gk = keep(expr_eq(keep(expr_read(s, NULL, c64(k % 8))), c8(k)));
    y = keep(expr_ite(gk, c64(k), y));
  }
  CHECK(keep(expr_add(c64(1), y))->kind == EXPR_ADD);
}

int main(void) {
  expr *size = expr_const(64, 8);
  s = expr_array_new("s", size, 8, true, NULL);
  expr_unref(size);
  size_t live = expr_live_count();
  test_shapes();
  test_dag();
  test_compare();
  test_limit();
  while (nkept) expr_unref(kept[--nkept]);
  CHECK_EQ_U64(expr_live_count(), live);
  expr_array_unref(s);
  return check_exit();
}
