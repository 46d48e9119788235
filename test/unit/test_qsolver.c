/*
 * test_qsolver.c — unit tests of qsolver/: answers and models on hand-written queries,
 * the engine operations (must/may/value/model), each stage proved to act through its
 * counters (constant, independence, validity cache, both counterexample-cache rules),
 * quantified queries and the relaxed stage in front of them, chained 64-bit bound questions
 * through the solver lanes, a timeout, the translation of every operator checked against
 * expr_eval, the non-canonical kinds, SMT-LIB dumps, determinism, and leaks.
 *
 *   test_qsolver [--encoding-rounds=N]
 * N (default 8) rounds of random queries compare the encodings (test_encodings). Those
 * rounds spend their time in Z3, three times as long under the sanitizers (whose allocator
 * Z3's allocations go through): CI runs every round in the optimized build and one in the
 * sanitizer build, which checks symq's side of every group (test/CMakeLists.txt).
 *
 * Each group builds its expressions through `keep()` and ends with `end_group()`, which
 * releases them and checks that the live node/array/update counts are back where the
 * group started (the solvers of a group are freed before).
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qs_check.h"

/* ---- references kept until the end of a group ---------------------------------------------- */

static expr **kept_e;
static size_t n_kept_e, cap_kept_e;
static expr_array **kept_a;
static size_t n_kept_a, cap_kept_a;
static expr_update **kept_u;
static size_t n_kept_u, cap_kept_u;
static size_t group_nodes, group_arrays, group_updates;

static void *grow(void *p, size_t *cap, size_t elem) {
  *cap = *cap ? *cap * 2 : 256;
  p = realloc(p, *cap * elem);
  if (!p) abort();
  return p;
}

static expr *keep(expr *e) {
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

static void begin_group(void) {
  group_nodes = expr_live_count();
  group_arrays = expr_live_arrays();
  group_updates = expr_live_updates();
}

static void end_group(void) {
  for (size_t i = 0; i < n_kept_e; i++) expr_unref(kept_e[i]);
  for (size_t i = 0; i < n_kept_u; i++) expr_update_unref(kept_u[i]);
  for (size_t i = 0; i < n_kept_a; i++) expr_array_unref(kept_a[i]);
  n_kept_e = n_kept_u = n_kept_a = 0;
  CHECK_EQ_U64(expr_live_count(), group_nodes);
  CHECK_EQ_U64(expr_live_arrays(), group_arrays);
  CHECK_EQ_U64(expr_live_updates(), group_updates);
}

/* ---- builders ------------------------------------------------------------------------------ */

static expr *c64(u128 v) { return keep(expr_const(64, v)); }
static expr *cw(unsigned w, u128 v) { return keep(expr_const(w, v)); }

static expr_array *array(const char *name, uint64_t capacity, bool input) {
  return keep_a(expr_array_new(name, c64(capacity), capacity, input, NULL));
}

/* nbytes little-endian bytes of a at a constant offset. */
static expr *rd(expr_array *a, uint64_t off, unsigned nbytes) {
  return keep(expr_read_le(a, NULL, c64(off), nbytes));
}

static expr *eq(expr *a, expr *b) { return keep(expr_eq(a, b)); }
static expr *ult(expr *a, expr *b) { return keep(expr_ult(a, b)); }
static expr *add(expr *a, expr *b) { return keep(expr_add(a, b)); }
static expr * not(expr * a) { return keep(expr_not(a)); }

static uint64_t le_bytes(const expr_assignment *m, const expr_array *a, unsigned off, unsigned n) {
  const expr_binding *b = expr_assignment_find(m, a);
  uint64_t v = 0;
  for (unsigned i = n; b && i-- > 0;) v = v << 8 | (off + i < b->len ? b->bytes[off + i] : 0);
  return v;
}

static const qs_stage_stats *st(qsolver *s, const char *name) {
  const qs_stage_stats *r = qs_stats(s, name);
  static const qs_stage_stats none;
  CHECK(r != NULL);
  return r ? r : &none;
}

/* The groups that count what reaches Z3 take the unit stage out of its way (test_units
 * tests that stage). */
static qs_options opts(bool ind, bool vc, bool cex) {
  qs_options o = qs_default_options();
  o.independence = ind;
  o.validity_cache = vc;
  o.cex_cache = cex;
  o.units = false;
  return o;
}

/* ---- basic answers and models -------------------------------------------------------------- */

static void test_basic(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *X = array("x", 4, true);
  expr *x = rd(X, 0, 4);
  expr *f = eq(add(x, cw(32, 1)), cw(32, 5)); /* x + 1 == 5 */
  CHECK_EQ_U64(qs_check_sat(s, &f, 1), QS_SAT);
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, &f, 1, &X, 1, &m), QS_SAT);
  CHECK(m != NULL);
  if (m) {
    const expr_binding *b = expr_assignment_find(m, X);
    CHECK(b != NULL);
    CHECK_EQ_U64(b ? b->len : 0, 4);
    CHECK_EQ_U64(le_bytes(m, X, 0, 4), 4);
    CHECK(expr_eval_all_true(&f, 1, m));
  }
  expr_assignment_free(m);
  CHECK_EQ_STR(qs_last_reason(s), "");

  /* An unsat pair, and a constant false. */
  expr *pair[2] = {f, eq(x, cw(32, 7))};
  CHECK_EQ_U64(qs_check_sat(s, pair, 2), QS_UNSAT);
  m = (expr_assignment *)1;
  CHECK_EQ_U64(qs_get_model(s, pair, 2, &X, 1, &m), QS_UNSAT);
  CHECK(m == NULL);
  expr *fls = keep(expr_false());
  CHECK_EQ_U64(qs_check_sat(s, &fls, 1), QS_UNSAT);
  CHECK_EQ_U64(qs_check_sat(s, NULL, 0), QS_SAT);

  /* 16-bit little-endian read. */
  expr_array *Y = array("y", 2, true);
  expr *y = rd(Y, 0, 2);
  expr *g = eq(y, cw(16, 0x1234));
  CHECK_EQ_U64(qs_get_model(s, &g, 1, &Y, 1, &m), QS_SAT);
  if (m) {
    const expr_binding *b = expr_assignment_find(m, Y);
    CHECK(b && b->len == 2 && b->bytes[0] == 0x34 && b->bytes[1] == 0x12);
  }
  expr_assignment_free(m);

  /* A byte read at offset 1 of a wider array, signed comparison. */
  expr_array *W = array("w", 8, true);
  expr *w3 = rd(W, 3, 1);
  expr *h[2] = {keep(expr_slt(w3, cw(8, 0))), keep(expr_sgt(w3, cw(8, 0xfd)))}; /* -3 < w3 < 0 */
  u128 v = 0;
  CHECK_EQ_U64(qs_get_value(s, h, 2, w3, &v), QS_SAT);
  CHECK(v == 0xfe || v == 0xff);
  CHECK_EQ_U64(qs_get_model(s, h, 2, &W, 1, &m), QS_SAT);
  if (m) {
    const expr_binding *b = expr_assignment_find(m, W);
    CHECK(b && b->len == 8 && (b->bytes[3] == 0xfe || b->bytes[3] == 0xff));
    CHECK(expr_eval_all_true(h, 2, m));
  }
  expr_assignment_free(m);
  qs_free(s);
  end_group();
}

/* Symbolic index through an update list: A[2] = 'q' then A[i] = 0x55; reading A[2]. */
static void test_updates(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *A = array("a", 8, true), *I = array("i", 8, true);
  expr *i = rd(I, 0, 8);
  expr_update *u1 = keep_u(expr_update_push(A, NULL, c64(2), cw(8, 'q')));
  expr_update *u2 = keep_u(expr_update_push(A, u1, i, cw(8, 0x55)));
  expr *r2 = keep(expr_read(A, u2, c64(2)));
  CHECK_EQ_U64(r2->kind, EXPR_READ);
  expr *f = eq(r2, cw(8, 0x55));
  u128 v = 0;
  CHECK_EQ_U64(qs_get_value(s, &f, 1, i, &v), QS_SAT);
  CHECK(v == 2);
  expr *g = eq(r2, cw(8, 0x66));
  CHECK_EQ_U64(qs_check_sat(s, &g, 1), QS_UNSAT);
  /* A symbolic-index read of the updated array at i+1 sees the initial contents. */
  expr *at = add(i, c64(1));
  expr *r3 = keep(expr_read(A, u2, at));
  expr *h[2] = {f, eq(r3, cw(8, 0x42))};
  expr_array *both[2] = {A, I};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, h, 2, both, 2, &m), QS_SAT);
  if (m) {
    CHECK_EQ_U64(le_bytes(m, I, 0, 8), 2);
    CHECK_EQ_U64(le_bytes(m, A, 3, 1), 0x42);
    CHECK(expr_eval_all_true(h, 2, m));
  }
  expr_assignment_free(m);
  /* A 2-byte read through the updates at a symbolic index: 0x55 from the newest write,
   * then 'q' from the older one (i = 1) or from the initial contents. */
  expr *w = keep(expr_read_le(A, u2, i, 2));
  expr *k[2] = {eq(w, cw(16, 0x7155)), ult(i, c64(7))};
  CHECK_EQ_U64(qs_get_model(s, k, 2, both, 2, &m), QS_SAT);
  if (m) CHECK(expr_eval_all_true(k, 2, m));
  expr_assignment_free(m);
  expr *k2[3] = {k[0], k[1], keep(expr_ne(keep(expr_read(A, NULL, add(i, c64(1)))), cw(8, 'q')))};
  CHECK_EQ_U64(qs_get_model(s, k2, 3, both, 2, &m), QS_SAT);
  if (m) {
    CHECK(expr_eval_all_true(k2, 3, m));
    CHECK_EQ_U64(le_bytes(m, I, 0, 8), 1);
  }
  expr_assignment_free(m);
  qs_free(s);
  end_group();
}

/* An array with a constant init, read at a symbolic index. */
static void test_const_array(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  static const uint8_t hello[8] = {'h', 'e', 'l', 'l', 'o', 0, 0, 0};
  expr_array *T = keep_a(expr_array_new("t", c64(8), 8, false, hello));
  expr_array *J = array("j", 8, true);
  expr *j = rd(J, 0, 8);
  expr *tj = keep(expr_read(T, NULL, j));
  expr *f[2] = {eq(tj, cw(8, 'l')), keep(expr_ugt(j, c64(2)))};
  u128 v = 0;
  CHECK_EQ_U64(qs_get_value(s, f, 2, j, &v), QS_SAT);
  CHECK_EQ_STR(qs_last_reason(s), "");
  CHECK(v == 3);
  expr *g = eq(tj, cw(8, 'z'));
  CHECK_EQ_U64(qs_check_sat(s, &g, 1), QS_UNSAT);
  /* The model of a constant array is its init. */
  expr_array *both[2] = {T, J};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, 2, both, 2, &m), QS_SAT);
  if (m) {
    const expr_binding *b = expr_assignment_find(m, T);
    CHECK(b && b->len == 8 && memcmp(b->bytes, hello, 8) == 0);
    CHECK(expr_eval_all_true(f, 2, m));
  }
  expr_assignment_free(m);
  qs_free(s);
  end_group();
}

/* A constant lookup table (256 bytes, as APR's test_char_table) read at a symbolic index in
 * queries holding a forall: Z3 alone keeps the other arrays in the array theory and reads the
 * table as an ite over its bytes (z3_backend.c, is_blasted); the procedure's stripped queries
 * encode it as any quantifier-free query. The answers and models must be the table's, through
 * a write at a symbolic index too, on the default solver (the procedure), on Z3 alone, and
 * with nothing blasted. */
static void test_table_in_array_theory(void) {
  begin_group();
  static uint8_t table[256];
  for (unsigned k = 0; k < 256; k += 7) table[k] = (uint8_t)(k / 7 + 1); /* T[28] = 5 */
  qs_options zo = qs_default_options(), po = qs_default_options();
  zo.quantified = false;
  po.blast_max_bytes = 0;
  qsolver *solvers[3] = {qs_new(NULL), qs_new(&zo), qs_new(&po)};
  expr_array *T = keep_a(expr_array_new("tbl", c64(256), 256, false, table));
  expr_array *J = array("j", 1, true), *SA = array("sa", 4, true);
  expr *j = keep(expr_zext(rd(J, 0, 1), 64));
  expr *sa0 = keep(expr_zext(rd(SA, 0, 1), 64));
  /* ∀b ∈ [0, 3]. sa[b] ≠ 0, and sa[j & 3] = sa[0] so that strip reads sa at a symbolic
   * index (the stripped request keeps the array theory) */
  expr *b = keep(expr_bvar_fresh(64, "b"));
  expr *fa =
      keep(expr_forall(b, c64(0), c64(3), keep(expr_ne(keep(expr_read(SA, NULL, b)), cw(8, 0)))));
  expr *sym = eq(keep(expr_read(SA, NULL, keep(expr_and(j, c64(3))))), rd(SA, 0, 1));
  expr_update *w = keep_u(expr_update_push(T, NULL, sa0, cw(8, 200)));
  expr *tj = keep(expr_read(T, NULL, j)), *wj = keep(expr_read(T, w, j));
  expr_array *arrays[3] = {T, J, SA};
  for (int k = 0; k < 3; k++) {
    qsolver *s = solvers[k];
    expr *f[4] = {fa, sym, eq(tj, cw(8, 5)), NULL};
    expr_assignment *m = NULL;
    CHECK_EQ_U64(qs_get_model(s, f, 3, arrays, 3, &m), QS_SAT);
    CHECK(m && expr_eval_all_true(f, 3, m));
    CHECK(m && le_bytes(m, J, 0, 1) == 28); /* the only index holding 5 */
    expr_assignment_free(m);
    f[2] = eq(tj, cw(8, 200)); /* no byte of the table is 200 */
    CHECK_EQ_U64(qs_check_sat(s, f, 3), QS_UNSAT);
    f[2] = eq(wj, cw(8, 200)); /* after tbl[sa[0]] = 200: only at j = sa[0] */
    m = NULL;
    CHECK_EQ_U64(qs_get_model(s, f, 3, arrays, 3, &m), QS_SAT);
    CHECK(m && expr_eval_all_true(f, 3, m));
    CHECK(m && le_bytes(m, J, 0, 1) == le_bytes(m, SA, 0, 1));
    expr_assignment_free(m);
    f[3] = keep(expr_ne(j, sa0));
    CHECK_EQ_U64(qs_check_sat(s, f, 4), QS_UNSAT);
  }
  for (int k = 0; k < 3; k++) qs_free(solvers[k]);
  end_group();
}

/* ---- engine operations --------------------------------------------------------------------- */

static void test_must_may_value(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *X = array("x", 4, true);
  expr *x = rd(X, 0, 4);
  expr *pc[1] = {ult(x, cw(32, 10))};
  bool b = false;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, ult(x, cw(32, 20)), &b), QS_UNSAT);
  CHECK(b);
  b = true;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, ult(x, cw(32, 5)), &b), QS_SAT);
  CHECK(!b);
  b = false;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, ult(x, cw(32, 5)), &b), QS_SAT);
  CHECK(b);
  b = true;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, keep(expr_ugt(x, cw(32, 50))), &b), QS_UNSAT);
  CHECK(!b);
  /* The condition itself is on the path: answered by the constant stage. */
  uint64_t z3q = st(s, "z3")->queries, ca = st(s, "constant")->answered;
  b = false;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, pc[0], &b), QS_UNSAT);
  CHECK(b);
  b = true;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, not(pc[0]), &b), QS_UNSAT);
  CHECK(!b);
  CHECK_EQ_U64(st(s, "z3")->queries, z3q);
  CHECK_EQ_U64(st(s, "constant")->answered, ca + 2);
  /* A constant query never reaches the chain's later stages. */
  b = false;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, keep(expr_true()), &b), QS_UNSAT);
  CHECK(b);
  /* get_value */
  expr *q[1] = {eq(add(x, cw(32, 1)), cw(32, 5))};
  u128 v = 0;
  CHECK_EQ_U64(qs_get_value(s, q, 1, keep(expr_mul(x, cw(32, 3))), &v), QS_SAT);
  CHECK(v == 12);
  CHECK_EQ_U64(qs_get_value(s, q, 1, cw(32, 77), &v), QS_SAT);
  CHECK(v == 77);
  qs_free(s);
  end_group();
}

/* ---- stages, through their counters -------------------------------------------------------- */

static void test_independence(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *X = array("x", 4, true), *Z = array("z", 4, true);
  expr *x = rd(X, 0, 4), *z = rd(Z, 0, 4);
  expr *pc[2] = {eq(x, cw(32, 4)), eq(z, cw(32, 9))};
  uint64_t dropped = st(s, "independence")->formulas_dropped;
  bool b = false;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 2, ult(x, cw(32, 10)), &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 1); /* z == 9 */
  CHECK_EQ_U64(st(s, "validity_cache")->queries, 1);
  /* check_sat drops nothing but solves the two groups separately. */
  uint64_t z3q = st(s, "z3")->queries;
  CHECK_EQ_U64(qs_check_sat(s, pc, 2), QS_SAT);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 1);
  CHECK_EQ_U64(st(s, "validity_cache")->queries, 3);
  CHECK(st(s, "z3")->queries <= z3q + 2);
  /* Models of separate groups are merged. */
  expr_array *both[2] = {X, Z};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, pc, 2, both, 2, &m), QS_SAT);
  if (m) {
    CHECK_EQ_U64(le_bytes(m, X, 0, 4), 4);
    CHECK_EQ_U64(le_bytes(m, Z, 0, 4), 9);
  }
  expr_assignment_free(m);
  /* A model request for one array slices the other group away. */
  dropped = st(s, "independence")->formulas_dropped;
  CHECK_EQ_U64(qs_get_model(s, pc, 2, &Z, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 1);
  if (m) {
    CHECK_EQ_U64(m->count, 1);
    CHECK_EQ_U64(le_bytes(m, Z, 0, 4), 9);
  }
  expr_assignment_free(m);
  /* An unsat group among independent ones makes the whole unsat (no precondition). */
  expr *three[3] = {pc[0], pc[1], eq(z, cw(32, 8))};
  CHECK_EQ_U64(qs_check_sat(s, three, 3), QS_UNSAT);
  /* A fresh constant (a non-input array, like a merge's K) ties its constraints together. */
  expr_array *K = array("K", 8, false);
  expr *k = rd(K, 0, 8);
  expr *tied[3] = {eq(keep(expr_zext(x, 64)), k), eq(keep(expr_zext(z, 64)), k), ult(k, c64(100))};
  dropped = st(s, "independence")->formulas_dropped;
  u128 v = 0;
  expr *tie_pc[4] = {tied[0], tied[1], tied[2], pc[1]};
  CHECK_EQ_U64(qs_get_value(s, tie_pc, 4, x, &v), QS_SAT);
  CHECK(v == 9); /* x = K = z = 9: the z constraint was kept through K */
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped);
  qs_free(s);

  /* Without the stage, nothing is dropped and the set reaches Z3 whole. */
  qs_options o = opts(false, false, false);
  s = qs_new(&o);
  CHECK(qs_stats(s, "independence") == NULL);
  CHECK_EQ_U64(qs_may_be_true(s, pc, 2, ult(x, cw(32, 10)), &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  qs_free(s);
  end_group();
}

/* Slicing by byte: formulas reading different bytes of one array are independent, unless
 * some formula reads the array at a symbolic index or through writes (then all of it is one
 * cell). Models of the groups are merged byte by byte. */
static void test_independence_bytes(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *D = array("d", 8, true), *I = array("i", 8, true);
  expr *pc[3] = {eq(rd(D, 0, 1), cw(8, 4)), eq(rd(D, 3, 1), cw(8, 7)),
                 eq(rd(D, 4, 2), cw(16, 0x1234))};
  uint64_t dropped = st(s, "independence")->formulas_dropped;
  bool b = false;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 3, ult(rd(D, 6, 1), cw(8, 3)), &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 3);
  /* A question on a byte the path constrains keeps that byte's formula only. */
  dropped = st(s, "independence")->formulas_dropped;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 3, ult(rd(D, 3, 1), cw(8, 8)), &b), QS_UNSAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 2);
  /* Three groups over one array: one model, every group's bytes in it. */
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, pc, 3, &D, 1, &m), QS_SAT);
  if (m) {
    CHECK_EQ_U64(le_bytes(m, D, 0, 1), 4);
    CHECK_EQ_U64(le_bytes(m, D, 3, 1), 7);
    CHECK_EQ_U64(le_bytes(m, D, 4, 2), 0x1234);
    CHECK(expr_eval_all_true(pc, 3, m));
  }
  expr_assignment_free(m);
  /* A read at a symbolic index depends on every byte: nothing is sliced away, and the
   * model satisfies all (d[i] = 1 must avoid bytes 0, 3, 4, 5). */
  expr *at = rd(I, 0, 8);
  expr *sym[5] = {pc[0], pc[1], pc[2], ult(at, c64(8)), eq(keep(expr_read(D, NULL, at)), cw(8, 1))};
  dropped = st(s, "independence")->formulas_dropped;
  CHECK_EQ_U64(qs_may_be_true(s, sym, 4, sym[4], &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped);
  expr_array *DI[2] = {D, I};
  CHECK_EQ_U64(qs_get_model(s, sym, 5, DI, 2, &m), QS_SAT);
  if (m) CHECK(expr_eval_all_true(sym, 5, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(qs_may_be_true(s, sym, 4, eq(keep(expr_read(D, NULL, at)), cw(8, 4)), &b), QS_SAT);
  CHECK(b); /* i = 0 */
  /* A read at a constant index through a write at a symbolic index reads its own byte and
   * the write's index and value: d[0] and d[3] are sliced away, i and d[6] stay together. */
  expr_update *w = keep_u(expr_update_push(D, NULL, at, cw(8, 9)));
  expr *through = eq(keep(expr_read(D, w, c64(6))), cw(8, 9));
  expr *upd[4] = {pc[0], pc[1], ult(at, c64(8)), through};
  dropped = st(s, "independence")->formulas_dropped;
  CHECK_EQ_U64(qs_check_sat(s, upd, 4), QS_SAT);
  CHECK_EQ_U64(qs_may_be_true(s, upd, 3, through, &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "independence")->formulas_dropped, dropped + 2);
  expr *upd_unsat[5] = {pc[0], pc[1], ult(at, c64(8)), through, eq(rd(D, 6, 1), cw(8, 2))};
  CHECK_EQ_U64(qs_check_sat(s, upd_unsat, 5), QS_SAT); /* i = 6 writes 9 over d[6] = 2 */
  expr *pinned[6] = {pc[0],         pc[1], ult(at, c64(8)), through, eq(rd(D, 6, 1), cw(8, 2)),
                     eq(at, c64(3))};
  CHECK_EQ_U64(qs_check_sat(s, pinned, 6), QS_UNSAT);
  qs_free(s);
  end_group();
}

/* qs_solve checks only the formulas past the prefix a request shares with the last one: a
 * forall in the shared prefix, past it, or no longer there, each counted right. */
static void test_forall_across_prefixes(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *B = array("pb", 4, true), *X = array("px", 1, true);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *all_small =
      keep(expr_forall(i, c64(0), c64(3), ult(keep(expr_read(B, NULL, i)), cw(8, 10))));
  expr *x = rd(X, 0, 1), *b0 = rd(B, 0, 1);
  expr *p0 = ult(x, cw(8, 100)), *p1 = ult(b0, cw(8, 5)), *p2 = ult(cw(8, 1), b0);
  expr *q = ult(x, cw(8, 50));
  struct {
    expr *path[4];
    size_t n;
    uint64_t asked;
  } steps[] = {
      {{p0, all_small, p1}, 3, 1},     /* the forall on a new path */
      {{p0, all_small, p1, p2}, 4, 2}, /* in the shared prefix */
      {{p0, p1}, 2, 2},                /* gone past the shared prefix */
      {{p0, p1, all_small}, 3, 3},     /* past the shared prefix */
      {{p0}, 1, 3},
  };
  for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
    bool out = false;
    CHECK_EQ_U64(qs_may_be_true(s, steps[k].path, steps[k].n, q, &out), QS_SAT);
    CHECK(out);
    CHECK_EQ_U64(qs_quant_stats_of(s)->asked, steps[k].asked);
  }
  qs_free(s);
  end_group();
}

/* A forall only in an update list (a written byte computed from a quantified condition):
 * the read carries has_forall, and the query is answered right, sat and unsat. */
static void test_forall_in_updates(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *A = array("fa", 4, true), *B = array("fb", 4, true), *J = array("fj", 8, true);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *bi = keep(expr_read(B, NULL, i));
  expr *all_small = keep(expr_forall(i, c64(0), c64(3), ult(bi, cw(8, 10))));
  expr_update *w = keep_u(expr_update_push(A, NULL, c64(0), keep(expr_zext(all_small, 8))));
  CHECK(w->has_forall);
  expr *j = rd(J, 0, 8);
  expr *r = keep(expr_read(A, w, j));
  CHECK(r->kind == EXPR_READ && r->has_forall);
  CHECK(!rd(A, 1, 1)->has_forall);
  expr *sat[3] = {eq(j, c64(0)), eq(r, cw(8, 1)), eq(rd(B, 2, 1), cw(8, 9))};
  CHECK_EQ_U64(qs_check_sat(s, sat, 3), QS_SAT);
  expr *unsat[3] = {eq(j, c64(0)), eq(r, cw(8, 1)), eq(rd(B, 2, 1), cw(8, 20))};
  CHECK_EQ_U64(qs_check_sat(s, unsat, 3), QS_UNSAT);
  qs_free(s);
  end_group();
}

static void test_validity_cache(void) {
  begin_group();
  qs_options o = opts(true, true, false);
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 4, true);
  expr *x = rd(X, 0, 4);
  expr *pc[1] = {ult(x, cw(32, 10))};
  expr *e = ult(x, cw(32, 5));
  bool b = false;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, e, &b), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  CHECK_EQ_U64(st(s, "validity_cache")->answered, 0);
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, e, &b), QS_SAT);
  CHECK(b);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  CHECK_EQ_U64(st(s, "validity_cache")->answered, 1);
  CHECK_EQ_U64(st(s, "validity_cache")->sat, 1);
  /* The same set in another order is the same key. */
  expr *rev[2] = {e, pc[0]};
  CHECK_EQ_U64(qs_check_sat(s, rev, 2), QS_SAT);
  CHECK_EQ_U64(st(s, "validity_cache")->answered, 2);
  /* An unsat answer is cached too. */
  b = true;
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, keep(expr_ugt(x, cw(32, 20))), &b), QS_UNSAT);
  CHECK_EQ_U64(qs_may_be_true(s, pc, 1, keep(expr_ugt(x, cw(32, 20))), &b), QS_UNSAT);
  CHECK_EQ_U64(st(s, "validity_cache")->unsat, 1);
  CHECK_EQ_U64(st(s, "z3")->queries, 2);
  /* A model request on a set cached without a model goes on to Z3, once. */
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, rev, 2, &X, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 3);
  if (m) CHECK(le_bytes(m, X, 0, 4) < 5);
  expr_assignment_free(m);
  CHECK_EQ_U64(qs_get_model(s, rev, 2, &X, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 3);
  if (m) CHECK(le_bytes(m, X, 0, 4) < 5);
  expr_assignment_free(m);
  qs_free(s);
  end_group();
}

/* The counterexample cache's rings past their capacity (1024 unsat, 256 sat entries): a
 * request finds an entry in either part of a wrapped ring (newest first, walked by the flat
 * signature array), and not one evicted. */
static void test_cex_rings_wrapped(void) {
  begin_group();
  qs_options o = opts(false, false, true);
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 2, true);
  expr *x = rd(X, 0, 2);
  enum { NU = 1030, NS = 260 };
  for (unsigned i = 0; i < NU; i++) { /* the unsat ring's head ends at slot 6 */
    expr *u[2] = {eq(x, cw(16, i)), eq(x, cw(16, i + 1))};
    CHECK_EQ_U64(qs_check_sat(s, u, 2), QS_UNSAT);
  }
  CHECK_EQ_U64(st(s, "z3")->queries, NU);
  unsigned hits[3] = {1027, 500, 6}; /* the newest part, the older part, its oldest */
  for (unsigned j = 0; j < 3; j++) {
    expr *u[3] = {ult(x, cw(16, 60000)), eq(x, cw(16, hits[j] + 1)), eq(x, cw(16, hits[j]))};
    CHECK_EQ_U64(qs_check_sat(s, u, 3), QS_UNSAT);
  }
  CHECK_EQ_U64(st(s, "z3")->queries, NU);
  CHECK_EQ_U64(st(s, "cex_cache")->unsat, 3);
  expr *gone[2] = {eq(x, cw(16, 5)), eq(x, cw(16, 6))}; /* evicted: Z3 again */
  CHECK_EQ_U64(qs_check_sat(s, gone, 2), QS_UNSAT);
  CHECK_EQ_U64(st(s, "z3")->queries, NU + 1);
  uint64_t z3q = NU + 1;
  for (unsigned i = 0; i < NS; i++) { /* sat sets x ≠ i ∧ x = 60000 + i */
    expr *f[2] = {keep(expr_ne(x, cw(16, i))), eq(x, cw(16, 60000 + i))};
    CHECK_EQ_U64(qs_check_sat(s, f, 2), QS_SAT);
  }
  CHECK_EQ_U64(st(s, "z3")->queries, z3q + NS);
  uint64_t sat0 = st(s, "cex_cache")->sat;
  /* A subset of an entry in each part of the wrapped ring; no other entry's model satisfies
   * it, and the one of the older part is past the models that evaluation tries. */
  unsigned sub[2] = {258, 100};
  for (unsigned j = 0; j < 2; j++) {
    expr *f[1] = {eq(x, cw(16, 60000 + sub[j]))};
    expr_assignment *m = NULL;
    CHECK_EQ_U64(qs_get_model(s, f, 1, &X, 1, &m), QS_SAT);
    if (m) CHECK_EQ_U64(le_bytes(m, X, 0, 2), 60000 + sub[j]);
    expr_assignment_free(m);
  }
  CHECK_EQ_U64(st(s, "z3")->queries, z3q + NS);
  CHECK_EQ_U64(st(s, "cex_cache")->sat, sat0 + 2);
  /* No entry's set holds these formulas, and the one model satisfying them (x = 60100) is
   * the 160th newest: evaluation tries every model the ring holds, not only the newest few
   * (a state resuming after a long subtree finds its own model there). */
  expr *mid[2] = {ult(cw(16, 60099), x), ult(x, cw(16, 60101))};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, mid, 2, &X, 1, &m), QS_SAT);
  if (m) CHECK_EQ_U64(le_bytes(m, X, 0, 2), 60100);
  expr_assignment_free(m);
  CHECK_EQ_U64(st(s, "z3")->queries, z3q + NS);
  CHECK_EQ_U64(st(s, "cex_cache")->sat, sat0 + 3);
  qs_free(s);
  end_group();
}

static void test_cex_cache(void) {
  begin_group();
  qs_options o = opts(true, false, true);
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 4, true);
  expr *x = rd(X, 0, 4);
  /* Subset unsat. */
  expr *u2[2] = {eq(x, cw(32, 4)), eq(x, cw(32, 7))};
  CHECK_EQ_U64(qs_check_sat(s, u2, 2), QS_UNSAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  expr *u3[3] = {u2[0], ult(cw(32, 1), x), u2[1]};
  CHECK_EQ_U64(qs_check_sat(s, u3, 3), QS_UNSAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  CHECK_EQ_U64(st(s, "cex_cache")->answered, 1);
  CHECK_EQ_U64(st(s, "cex_cache")->unsat, 1);
  /* A stored model that satisfies a new, unrelated-looking query. */
  expr *one[1] = {eq(x, cw(32, 4))};
  CHECK_EQ_U64(qs_check_sat(s, one, 1), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 2);
  expr *range[2] = {ult(cw(32, 3), x), ult(x, cw(32, 100))};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, range, 2, &X, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, 2);
  CHECK_EQ_U64(st(s, "cex_cache")->sat, 1);
  if (m) {
    CHECK_EQ_U64(le_bytes(m, X, 0, 4), 4); /* the cached model */
    CHECK(expr_eval_all_true(range, 2, m));
  }
  expr_assignment_free(m);
  /* A subset of a stored sat set: its model. */
  expr_array *Y = array("y", 1, true);
  expr *y = rd(Y, 0, 1);
  expr *big[3] = {ult(y, cw(8, 50)), ult(cw(8, 40), y), keep(expr_ne(y, cw(8, 45)))};
  CHECK_EQ_U64(qs_check_sat(s, big, 3), QS_SAT);
  uint64_t z3q = st(s, "z3")->queries;
  CHECK_EQ_U64(qs_check_sat(s, big + 1, 2), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, z3q);
  CHECK_EQ_U64(st(s, "cex_cache")->sat, 2);
  /* A model that does not satisfy the query is not used. */
  expr *other[1] = {eq(y, cw(8, 200))};
  CHECK_EQ_U64(qs_get_model(s, other, 1, &Y, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->queries, z3q + 1);
  if (m) CHECK_EQ_U64(le_bytes(m, Y, 0, 1), 200);
  expr_assignment_free(m);
  qs_free(s);
  end_group();
}

/* ---- the unit stage ------------------------------------------------------------------------ */

/* The pinned bytes decide a request when they can, never otherwise: each case below is
 * counted at the unit stage and at Z3. Independence and the caches are off, so that every
 * request arrives whole. */
static void test_units(void) {
  begin_group();
  qs_options o = opts(false, false, false);
  o.units = true;
  qsolver *s = qs_new(&o);
  expr_array *S = array("s", 8, true), *N = array("n", 8, true);
  expr *n = rd(N, 0, 8);
  /* s[3] = 'b', n = 300 (eight bytes, little-endian), s[0] != 'a': the pins and zeros. */
  expr *f[3] = {eq(cw(8, 'b'), rd(S, 3, 1)), eq(n, c64(300)), not(eq(rd(S, 0, 1), cw(8, 'a')))};
  expr_array *both[2] = {S, N};
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, 3, both, 2, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "units")->sat, 1);
  CHECK_EQ_U64(st(s, "z3")->queries, 0);
  if (m) {
    CHECK(expr_eval_all_true(f, 3, m));
    CHECK_EQ_U64(le_bytes(m, S, 3, 1), 'b');
    CHECK_EQ_U64(le_bytes(m, N, 0, 8), 300);
  }
  expr_assignment_free(m);
  /* s[0] != 0 is false on the zeros: Z3 decides, and finds s[0] non-zero. */
  expr *g[2] = {f[0], not(eq(rd(S, 0, 1), cw(8, 0)))};
  CHECK_EQ_U64(qs_get_model(s, g, 2, &S, 1, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "units")->answered, 1);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  if (m) CHECK(expr_eval_all_true(g, 2, m));
  expr_assignment_free(m);
  /* Two pins of one byte that disagree, through reads of different widths: s[1..2] as a
   * 16-bit 0x0201 pins s[2] to 2, against s[2] = 7. */
  expr *h[2] = {eq(rd(S, 1, 2), cw(16, 0x0201)), eq(rd(S, 2, 1), cw(8, 7))};
  CHECK_EQ_U64(qs_check_sat(s, h, 2), QS_UNSAT);
  CHECK_EQ_U64(st(s, "units")->unsat, 1);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  /* ... and two that agree are one pin. */
  expr *k[2] = {h[0], eq(rd(S, 2, 1), cw(8, 2))};
  CHECK_EQ_U64(qs_check_sat(s, k, 2), QS_SAT);
  CHECK_EQ_U64(st(s, "units")->sat, 2);
  CHECK_EQ_U64(st(s, "z3")->queries, 1);
  /* A read through a write is not a pin: s[i] = 5 then s[3] = 'c' holds only when i = 3,
   * which only Z3 finds. */
  expr_array *I = array("i", 8, true);
  expr_update *u = keep_u(expr_update_push(S, NULL, rd(I, 0, 8), cw(8, 5)));
  expr *through = keep(expr_read_le(S, u, c64(3), 1));
  expr *w[2] = {eq(through, cw(8, 5)), eq(rd(S, 3, 1), cw(8, 'c'))};
  expr_array *si[2] = {S, I};
  CHECK_EQ_U64(qs_get_model(s, w, 2, si, 2, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "units")->answered, 3);
  CHECK_EQ_U64(st(s, "z3")->queries, 2);
  if (m) {
    CHECK(expr_eval_all_true(w, 2, m));
    CHECK_EQ_U64(le_bytes(m, I, 0, 8), 3);
  }
  expr_assignment_free(m);
  /* A read past the capacity is not a pin (it reads 0): s[8] = 1 is unsat. */
  expr *past = eq(rd(S, 8, 1), cw(8, 1));
  CHECK_EQ_U64(qs_check_sat(s, &past, 1), QS_UNSAT);
  CHECK_EQ_U64(st(s, "units")->answered, 3);
  CHECK_EQ_U64(st(s, "z3")->queries, 3);
  qs_free(s);
  end_group();
}

/* ---- quantifiers --------------------------------------------------------------------------- */

static void test_forall(void) {
  begin_group();
  qs_options o = qs_default_options();
  o.relax = false; /* the Z3 counts below are the procedure's; test_relax has the stage's */
  qsolver *s = qs_new(&o);
  expr_array *S = array("s", 8, true), *K = array("K", 8, false);
  expr *k = rd(K, 0, 8);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *si = keep(expr_read(S, NULL, i));
  expr *all_a = keep(expr_forall(i, c64(0), keep(expr_sub(k, c64(1))), eq(si, cw(8, 'a'))));
  CHECK_EQ_U64(all_a->kind, EXPR_FORALL);
  /* ∀i∈[0,K−1]. s[i]='a', K = 3, s[1] = 'b': unsat, by Z3. */
  expr *f[3] = {all_a, eq(k, c64(3)), eq(rd(S, 1, 1), cw(8, 'b'))};
  uint64_t z3u = st(s, "z3")->unsat;
  CHECK_EQ_U64(qs_check_sat(s, f, 3), QS_UNSAT);
  CHECK_EQ_U64(st(s, "z3")->unsat, z3u + 1);
  /* memspn's loop exit: ∀i∈[0,K−1]. s[i]='a', 2 ≤ K ≤ 5, s[K] ≠ 'a'. */
  expr *sk = keep(expr_read(S, NULL, k));
  expr *g[4] = {all_a, keep(expr_ule(c64(2), k)), keep(expr_ule(k, c64(5))),
                keep(expr_ne(sk, cw(8, 'a')))};
  expr_array *both[2] = {S, K};
  expr_assignment *m = NULL;
  uint64_t z3s = st(s, "z3")->sat;
  CHECK_EQ_U64(qs_get_model(s, g, 4, both, 2, &m), QS_SAT);
  CHECK_EQ_U64(st(s, "z3")->sat, z3s + 1);
  if (m) {
    CHECK(expr_eval_all_true(g, 4, m));
    uint64_t kv = le_bytes(m, K, 0, 8);
    CHECK(kv >= 2 && kv <= 5);
    for (uint64_t j = 0; j < kv && j < 8; j++) CHECK_EQ_U64(le_bytes(m, S, (unsigned)j, 1), 'a');
  }
  expr_assignment_free(m);
  /* Must queries over the merged state: s[0] = s[1] = 'a' follow (K ≥ 2, hi inclusive);
   * s[2] = 'a' does not. */
  bool b = false;
  CHECK_EQ_U64(qs_must_be_true(s, g, 4, eq(rd(S, 0, 1), cw(8, 'a')), &b), QS_UNSAT);
  CHECK(b);
  b = false;
  CHECK_EQ_U64(qs_must_be_true(s, g, 4, eq(rd(S, 1, 1), cw(8, 'a')), &b), QS_UNSAT);
  CHECK(b);
  CHECK_EQ_U64(qs_must_be_true(s, g, 4, eq(rd(S, 2, 1), cw(8, 'a')), &b), QS_SAT);
  CHECK(!b);
  qs_free(s);
  end_group();
}

/* The relaxed stage on memspn's merged state ∀i∈[0,K−1]. s[i]='a': its unsat comes from the
 * scalar part alone and is final; a model of the scalar part that fails the query is never
 * the answer; a model found with K fixed is, once it satisfies the query. Every answer
 * agrees with the chain without the stage, and with --validate-qsolver's re-check. */
static void test_relax(void) {
  begin_group();
  qs_options vo = qs_default_options(), po = qs_default_options();
  vo.validate_quantified = true;
  po.relax = false;
  qsolver *s = qs_new(&vo), *plain = qs_new(&po);
  expr_array *S = array("s", 8, true), *K = array("K", 8, false);
  expr *k = rd(K, 0, 8);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *all_a = keep(expr_forall(i, c64(0), keep(expr_sub(k, c64(1))),
                                 eq(keep(expr_read(S, NULL, i)), cw(8, 'a'))));
  expr *two_le_k = keep(expr_ule(c64(2), k)), *k_le_5 = keep(expr_ule(k, c64(5)));
  const qs_stage_stats *r = st(s, "relaxed");
  const qs_quant_stats *q = qs_quant_stats_of(s);
  /* 7 ≤ K ≤ 5 under the forall: the scalar part's unsat, without the procedure. */
  expr *f[3] = {all_a, k_le_5, keep(expr_ule(c64(7), k))};
  CHECK_EQ_U64(qs_check_sat(s, f, 3), QS_UNSAT);
  CHECK_EQ_U64(qs_check_sat(plain, f, 3), QS_UNSAT);
  CHECK_EQ_U64(r->answered, 1);
  CHECK_EQ_U64(r->unsat, 1);
  /* 2 ≤ K ≤ 5 ∧ s[0] ≠ 'a': the scalar part is sat (s[0] is read at a constant index), its
   * models all fail the forall, and fixing them cannot help: unsat, from the procedure. */
  expr *g[4] = {all_a, two_le_k, k_le_5, keep(expr_ne(rd(S, 0, 1), cw(8, 'a')))};
  uint64_t answered = r->answered, asked = q->queries;
  CHECK_EQ_U64(qs_check_sat(s, g, 4), QS_UNSAT);
  CHECK_EQ_U64(qs_check_sat(plain, g, 4), QS_UNSAT);
  CHECK_EQ_U64(r->answered, answered);
  CHECK(q->queries > asked);
  /* memspn's loop exit, s[K] ≠ 'a' read at a symbolic index: the model of the scalar part
   * fixes K, and the fixed query's model is one of the whole query. */
  expr *h[4] = {all_a, two_le_k, k_le_5, keep(expr_ne(keep(expr_read(S, NULL, k)), cw(8, 'a')))};
  expr_array *both[2] = {S, K};
  expr_assignment *m = NULL;
  answered = r->answered;
  uint64_t sat = r->sat;
  CHECK_EQ_U64(qs_get_model(s, h, 4, both, 2, &m), QS_SAT);
  CHECK_EQ_U64(r->answered, answered + 1);
  CHECK_EQ_U64(r->sat, sat + 1);
  CHECK(m && expr_eval_all_true(h, 4, m));
  expr_assignment_free(m);
  /* A bound question on the merged state: K + 1 ≤ 6 must hold, K + 1 ≤ 5 need not. */
  bool b = false;
  answered = r->answered;
  CHECK_EQ_U64(qs_must_be_true(s, h, 4, keep(expr_ule(add(k, c64(1)), c64(6))), &b), QS_UNSAT);
  CHECK(b);
  CHECK_EQ_U64(r->answered, answered + 1);
  CHECK_EQ_U64(qs_must_be_true(s, h, 4, keep(expr_ule(add(k, c64(1)), c64(5))), &b), QS_SAT);
  CHECK(!b);
  CHECK_EQ_U64(qs_must_be_true(plain, h, 4, keep(expr_ule(add(k, c64(1)), c64(5))), &b), QS_SAT);
  /* memspn's exit with its bound inside the conjunction, K < 5 ∧ s[K] ≠ 'a', against
   * K = 5: the conjunct K < 5 is the scalar part's, which is unsat without the procedure
   * (with the conjunction as one non-scalar formula, the scalar part allowed K = 5). */
  expr *exit_k = keep(
      expr_and(keep(expr_ult(k, c64(5))), keep(expr_ne(keep(expr_read(S, NULL, k)), cw(8, 'a')))));
  expr *e[4] = {all_a, two_le_k, exit_k, eq(k, c64(5))};
  answered = r->answered;
  uint64_t unsat = r->unsat;
  CHECK_EQ_U64(qs_check_sat(s, e, 4), QS_UNSAT);
  CHECK_EQ_U64(qs_check_sat(plain, e, 4), QS_UNSAT);
  CHECK_EQ_U64(r->answered, answered + 1);
  CHECK_EQ_U64(r->unsat, unsat + 1);
  /* ... and with K = 4 instead, sat (no earlier model has K = 4): the fixed request's model
   * satisfies the whole. */
  e[3] = eq(k, c64(4));
  sat = r->sat;
  CHECK_EQ_U64(qs_get_model(s, e, 4, both, 2, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(e, 4, m));
  expr_assignment_free(m);
  CHECK_EQ_U64(r->sat, sat + 1);
  /* Quantifier-free requests pass through. */
  answered = r->answered;
  uint64_t seen = r->queries;
  CHECK_EQ_U64(qs_check_sat(s, &f[1], 2), QS_UNSAT);
  CHECK_EQ_U64(r->queries, seen + 1);
  CHECK_EQ_U64(r->answered, answered);
  CHECK_EQ_U64(q->disagreements, 0);
  qs_free(plain);
  qs_free(s);
  end_group();
}

/* ---- encodings and incremental solving, against the plain encoding -------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ULL;
static unsigned rnd(unsigned n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state % n);
}

/* small input, small constant, large (past the blasting size), and two read at constant
 * indices only (writes go anywhere), which every encoding but the plain one blasts cell by
 * cell (z3_backend.c, ENC_CELLS): a large input and a large constant table */
#define ENC_ARRAYS 5
#define ENC_CONST_ONLY 3 /* arr[ENC_CONST_ONLY..] are read at constant indices only */

typedef struct enc_world {
  expr_array *arr[ENC_ARRAYS];
  expr_update *ups[ENC_ARRAYS];
  expr_array *idx; /* the bytes symbolic indices are made of */
} enc_world;

/* A symbolic or constant index at which nbytes can be read from array a (within capacity,
 * as the engine's bounds checks guarantee); constant only when !symbolic. */
static expr *rand_index(enc_world *w, expr_array *a, unsigned nbytes, bool symbolic) {
  uint64_t span = a->capacity - nbytes + 1;
  if (!symbolic || rnd(3) == 0) return c64(rnd((unsigned)span));
  expr *b = keep(expr_zext(rd(w->idx, rnd(8), 1), 64));
  if (rnd(2)) b = add(b, c64(rnd(4)));
  return keep(expr_urem(b, c64(span)));
}

static expr *rand_value(enc_world *w, unsigned width, int depth) {
  unsigned k = rnd(depth > 0 ? 6 : 2);
  if (k == 0) return cw(width, rnd(4) == 0 ? rnd(256) : rnd(3));
  if (k == 1 || k == 2) {
    unsigned which = rnd(ENC_ARRAYS), nbytes = width / 8;
    return keep(expr_read_le(w->arr[which], w->ups[which],
                             rand_index(w, w->arr[which], nbytes, which < ENC_CONST_ONLY), nbytes));
  }
  expr *a = rand_value(w, width, depth - 1), *b = rand_value(w, width, depth - 1);
  if (k == 3) return add(a, b);
  if (k == 4) return keep(expr_mul(a, b));
  return keep(expr_ite(keep(expr_ult(a, b)), a, keep(expr_xor(a, b))));
}

static expr *rand_formula(enc_world *w) {
  unsigned width = rnd(2) ? 8 : 16;
  expr *a = rand_value(w, width, 2), *b = rand_value(w, width, 1);
  switch (rnd(3)) {
  case 0: return eq(a, b);
  case 1: return ult(a, b);
  default: return keep(expr_sle(a, b));
  }
}

/* A formula with an integer form (z3_int.h): reads at constant indices (through the update
 * lists, whose writes may sit at symbolic indices), +, −, not, extensions, comparisons. */
static expr *rand_int_formula(enc_world *w) {
  expr *v[2];
  for (int k = 0; k < 2; k++) {
    unsigned which = rnd(ENC_ARRAYS), nbytes = rnd(2) ? 1 : 2, width = 16;
    expr *r =
        keep(expr_read_le(w->arr[which], w->ups[which],
                          c64(rnd((unsigned)(w->arr[which]->capacity - nbytes + 1))), nbytes));
    r = nbytes == 1 ? keep(rnd(2) ? expr_zext(r, width) : expr_sext(r, width)) : r;
    switch (rnd(3)) {
    case 0: r = add(r, cw(width, rnd(2) ? 0xfff0 : rnd(300))); break;
    case 1: r = keep(expr_sub(cw(width, rnd(300)), r)); break;
    default: r = not(r); break;
    }
    v[k] = r;
  }
  switch (rnd(3)) {
  case 0: return eq(v[0], v[1]);
  case 1: return ult(v[0], v[1]);
  default: return keep(expr_sle(v[0], v[1]));
  }
}

/* Adds a write at a random index to one of the arrays' update lists. */
static void rand_write(enc_world *w) {
  unsigned which = rnd(ENC_ARRAYS);
  expr_update *u = expr_update_push(w->arr[which], w->ups[which],
                                    rand_index(w, w->arr[which], 1, true), rand_value(w, 8, 1));
  w->ups[which] = keep_u(u);
}

/* Both solvers must agree, and every model must satisfy its formulas under expr_eval. */
static void check_agree(qsolver *fast, qsolver *plain, expr *const *path, size_t n, expr *q,
                        expr_array *const *arrays, size_t narrays, unsigned *decided) {
  bool bf = false, bp = false;
  qs_status sf = qs_may_be_true(fast, path, n, q, &bf);
  qs_status sp = qs_may_be_true(plain, path, n, q, &bp);
  if (sf == QS_UNKNOWN || sp == QS_UNKNOWN) return;
  CHECK_EQ_U64(sf, sp);
  (*decided)++;
  if (sf != QS_SAT) return;
  expr *all[64];
  memcpy(all, path, n * sizeof *all);
  all[n] = q;
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(fast, all, n + 1, arrays, narrays, &m), QS_SAT);
  if (m) CHECK(expr_eval_all_true(all, n + 1, m));
  expr_assignment_free(m);
}

/* Random queries over reads through update lists at symbolic indices, asked the way the
 * executor asks them (a growing path, one question at a time, and back), answered by the
 * default solver (small arrays blasted, incremental scopes, the bit-blasting fallback) and
 * by one with both off; a forall query now and then makes the solver switch encodings. */
static void test_encodings(unsigned rounds) {
  begin_group();
  qs_options fo = qs_default_options(), po = qs_default_options();
  fo.cex_cache = fo.validity_cache = po.cex_cache = po.validity_cache = false;
  po.incremental = false;
  po.blast_max_bytes = 0;
  qs_options io = fo;
  io.int_lanes = ~0u; /* every lane in integers first */
  qsolver *fast = qs_new(&fo), *plain = qs_new(&po), *ints = qs_new(&io);
  static const uint8_t init[5] = {7, 0, 0xff, 3, 0};
  static uint8_t table[1000];
  for (size_t k = 0; k < sizeof table; k += 61) table[k] = (uint8_t)(k * 37 + 1);
  enc_world w = {
      .arr = {array("sa", 6, true), keep_a(expr_array_new("ca", c64(5), 5, false, init)),
              array("la", 300, true), array("ha", 2000, true),
              keep_a(expr_array_new("ta", c64(sizeof table), sizeof table, false, table))},
      .idx = array("ix", 8, true)};
  expr_array *arrays[ENC_ARRAYS + 1] = {w.arr[0], w.arr[1], w.arr[2], w.arr[3], w.arr[4], w.idx};
  size_t narrays = ENC_ARRAYS + 1;
  unsigned decided = 0;
  for (unsigned round = 0; round < rounds; round++) {
    expr *path[40];
    size_t n = 0;
    memset(w.ups, 0, sizeof w.ups);
    for (unsigned step = 0; step < 10 && n < 40; step++) {
      if (rnd(2)) rand_write(&w);
      expr *q = rand_formula(&w);
      check_agree(fast, plain, path, n, q, arrays, narrays, &decided);
      check_agree(ints, plain, path, n, q, arrays, narrays, &decided);
      check_agree(ints, plain, path, n, rand_int_formula(&w), arrays, narrays, &decided);
      if (step % 5 == 4) { /* ∀ b ∈ [0, 1]. sa[b] ≠ q's first byte, for the encoding switch */
        expr *b = keep(expr_bvar_fresh(64, "b"));
        expr *body = keep(expr_ne(keep(expr_read(w.arr[0], NULL, b)), cw(8, rnd(256))));
        check_agree(fast, plain, path, n, keep(expr_forall(b, c64(0), c64(1), body)), arrays,
                    narrays, &decided);
      }
      /* Extend the path with q or its negation, whichever is feasible. */
      bool may = false;
      if (qs_may_be_true(fast, path, n, q, &may) == QS_UNKNOWN) continue;
      path[n++] = may ? q : not(q);
      if (n > 3 && rnd(4) == 0) n -= 1 + rnd(3); /* backtrack, as a searcher switching states */
    }
  }
  CHECK(decided > 30 * rounds); /* the comparisons did happen (34 questions a round) */
  CHECK(st(ints, "z3")->in_integers >= 2 * rounds); /* ~3 a round reach Z3 whole */
  qs_free(ints);
  qs_free(fast);
  qs_free(plain);
  end_group();
}

/* The string scan of issue 25 over a 1000-byte buffer (past blast_max_bytes): n ≤ 999,
 * s[n] = 0, and s[0..k) = 'a' on the path, so n ≥ k. The default solver blasts the bytes it
 * reads (every read is at a constant index); the plain one keeps the array theory. Both must
 * give the arithmetic's answers, and the model must put the zero at n. */
static void test_large_scan(void) {
  begin_group();
  qs_options po = qs_default_options();
  po.blast_max_bytes = 0;
  qsolver *fast = qs_new(NULL), *plain = qs_new(&po);
  expr_array *N = array("n", 8, true), *S = array("s", 1000, true);
  expr *n = rd(N, 0, 8);
  expr_update *u = keep_u(expr_update_push(S, NULL, n, cw(8, 0)));
  expr *path[40] = {keep(expr_ule(n, c64(999)))};
  size_t len = 1;
  for (uint64_t k = 0; k < 30; k++) {
    bool out = false;
    for (int which = 0; which < 2; which++) {
      qsolver *s = which ? plain : fast;
      CHECK_EQ_U64(qs_must_be_true(s, path, len, keep(expr_ule(c64(k), n)), &out), QS_UNSAT);
      CHECK(out); /* n ≥ k */
      CHECK_EQ_U64(qs_must_be_true(s, path, len, keep(expr_ule(c64(k + 1), n)), &out), QS_SAT);
      CHECK(!out); /* n = k is allowed */
    }
    path[len++] = eq(keep(expr_read(S, u, c64(k))), cw(8, 'a'));
  }
  path[len++] = eq(keep(expr_read(S, u, c64(30))), cw(8, 0));
  expr_array *arrays[2] = {N, S};
  check_model(fast, path, len, arrays, 2);
  qs_free(fast);
  qs_free(plain);
  end_group();
}

/* A read the per-cell encoding blasts (ha[5], ha being 2000 bytes, at a constant index)
 * through a write whose value reads another large array at a symbolic index (la[i], which no
 * encoding can blast cell by cell): the whole query must go to the encoding that keeps la in
 * the array theory, else la[i] and la's cell 0 are two unrelated terms. With i = 0,
 * la[0] = 7 and ha[5] = la[i] = 9 contradict each other; la[0] = 7 with ha[5] = 7 has a
 * model, which must satisfy the formulas. The same through a blasted read's index and a
 * write's index. */
static void test_cells_mixed(void) {
  begin_group();
  qs_options po = qs_default_options();
  po.blast_max_bytes = 0;
  qsolver *fast = qs_new(NULL), *plain = qs_new(&po);
  expr_array *IX = array("ix", 1, true), *SA = array("sa", 16, true), *LA = array("la", 300, true),
             *HA = array("ha", 2000, true);
  expr *i = keep(expr_zext(rd(IX, 0, 1), 64));
  expr *la_i = keep(expr_read(LA, NULL, i));
  expr *at = keep(expr_urem(keep(expr_zext(la_i, 64)), c64(16)));
  /* ha[5] = la[i], then a write at i + 100 (which keeps the read of ha[5] from folding) */
  expr_update *in_value = keep_u(expr_update_push(
      HA, keep_u(expr_update_push(HA, NULL, c64(5), la_i)), add(i, c64(100)), cw(8, 0)));
  expr_update *in_index = keep_u(expr_update_push(HA, NULL, at, cw(8, 9)));
  expr_array *arrays[4] = {IX, SA, LA, HA};
  for (int k = 0; k < 3; k++) {
    /* i = 0 and la[0] = 7, then k = 0: ha[5] = la[i] = 9 (through the write's value);
     * k = 1: sa[7] = 9 and sa[la[i] % 16] = 3 (la[i] in a blasted read's index); k = 2:
     * ha[7] = 1, then ha[7] = 1 after the write ha[la[i] % 16] = 9 (in a write's index) */
    expr *f[4] = {eq(rd(IX, 0, 1), cw(8, 0)), eq(rd(LA, 0, 1), cw(8, 7)), NULL, NULL};
    size_t n = 4;
    if (k == 0) {
      f[2] = eq(keep(expr_read(HA, in_value, c64(5))), cw(8, 9));
      n = 3;
    } else if (k == 1) {
      f[2] = eq(rd(SA, 7, 1), cw(8, 9));
      f[3] = eq(keep(expr_read(SA, NULL, at)), cw(8, 3));
    } else {
      f[2] = eq(rd(HA, 7, 1), cw(8, 1));
      f[3] = eq(keep(expr_read(HA, in_index, c64(7))), cw(8, 1));
    }
    CHECK_EQ_U64(qs_check_sat(plain, f, n), QS_UNSAT);
    CHECK_EQ_U64(qs_check_sat(fast, f, n), QS_UNSAT);
    f[n - 1] = not(f[n - 1]); /* sat; its model must satisfy every formula */
    check_model(fast, f, n, arrays, 4);
  }
  qs_free(fast);
  qs_free(plain);
  end_group();
}

/* ---- chained bound questions: a lane whose SMT core gives up keeps its scopes -------------- */

/* Chained memspn's second loop as the solver sees it: n ≤ 64, K ≤ 63, K = 0 ∨ K − 1 < n, and
 * one more loop bound c < n − K per step; each step asks whether K + c + 1 ≤ n + 1 with the
 * access K + c + 2^32 inside [2^32, 2^32 + 64] (true: K ≤ n, so n − K does not wrap) and
 * whether K + c + 2 ≤ n (false: n − K = c + 1 is allowed). The true ones are 64-bit
 * relational proofs that exhaust the engine lane's conflict budget (bvs answers them) and,
 * when a forall rides along, run on the relaxed stage's scalar lane; in both, the next
 * question reuses the lane's scopes. Every answer is checked against the arithmetic, and
 * against a solver without incremental scopes. */
static void test_bound_chain(void) {
  begin_group();
  qs_options fo = qs_default_options(), po = qs_default_options();
  fo.cex_cache = fo.validity_cache = false; /* every question reaches Z3 */
  po.cex_cache = po.validity_cache = false;
  po.incremental = false;
  qsolver *fast = qs_new(&fo), *plain = qs_new(&po);
  expr_array *N = array("n", 8, true), *K = array("K", 8, false), *S = array("s", 64, true);
  expr *n = rd(N, 0, 8), *k = rd(K, 0, 8), *base = c64(UINT64_C(1) << 32);
  expr *i = keep(expr_bvar_fresh(64, "i"));
  expr *all_a = keep(expr_forall(i, c64(0), keep(expr_sub(k, c64(1))),
                                 eq(keep(expr_read(S, NULL, i)), cw(8, 'a'))));
  expr *path[64] = {all_a, keep(expr_ule(n, c64(64))), keep(expr_ule(k, c64(63))),
                    keep(expr_or(eq(k, c64(0)), ult(keep(expr_sub(k, c64(1))), n)))};
  size_t len = 4;
  for (unsigned quantified = 0; quantified < 2; quantified++) {
    size_t from = quantified ? 0 : 1; /* the path without, then with, the forall */
    len = 4;
    for (uint64_t c = 1; c <= 40; c++) {
      path[len++] = ult(c64(c), keep(expr_sub(n, k)));
      expr *at = add(add(k, c64(c)), base);
      expr *inside =
          keep(expr_and(keep(expr_ule(base, at)), keep(expr_ule(at, add(base, c64(64))))));
      expr *holds = keep(expr_and(inside, keep(expr_ule(add(k, c64(c + 1)), add(n, c64(1))))));
      expr *fails = keep(expr_ule(add(k, c64(c + 2)), n));
      bool bf = false, bp = true;
      CHECK_EQ_U64(qs_must_be_true(fast, path + from, len - from, holds, &bf), QS_UNSAT);
      CHECK(bf);
      CHECK_EQ_U64(qs_must_be_true(fast, path + from, len - from, fails, &bf), QS_SAT);
      CHECK(!bf);
      if (c % 8 == 0) { /* the plain solver agrees (every step would take it long) */
        CHECK_EQ_U64(qs_must_be_true(plain, path + from, len - from, holds, &bp), QS_UNSAT);
        CHECK(bp);
        CHECK_EQ_U64(qs_must_be_true(plain, path + from, len - from, fails, &bp), QS_SAT);
        CHECK(!bp);
      }
    }
  }
  /* the relaxed stage's scalar parts (the 80 questions with the forall) went to Z3 in
   * linear integer arithmetic, but for those its enumeration decided (qsolver/domain.h: 14
   * of them, K and n within its budget of evaluations) */
  CHECK(st(fast, "z3")->in_integers >= 60);
  CHECK_EQ_U64(st(plain, "z3")->in_integers, 0);
  qs_free(fast);
  qs_free(plain);
  end_group();
}

/* ---- timeout ------------------------------------------------------------------------------- */

/* Factoring a 124-bit product of two 62-bit primes through a 128-bit multiplication: out of
 * reach of any SAT-based solver in any time a test could wait. Z3's timer is a thread that
 * a loaded machine may run seconds late, so the query must stay undecided for far longer
 * than its timeout (32-bit factors did not: under load Z3 factored them before its 1 ms
 * timer fired, and the answer, cached, also failed the leak check). */
#define HARD_P UINT64_C(3646726173730169317)
#define HARD_Q UINT64_C(4194513520037794141)
static void test_timeout(void) {
  begin_group();
  qs_options o = qs_default_options();
  o.timeout_ms = 1;
  qsolver *s = qs_new(&o);
  expr_array *P = array("p", 8, true), *Q = array("q", 8, true);
  expr *p = keep(expr_zext(rd(P, 0, 8), 128)), *q = keep(expr_zext(rd(Q, 0, 8), 128));
  u128 n = (u128)HARD_P * HARD_Q;
  expr *f[3] = {eq(keep(expr_mul(p, q)), cw(128, n)), ult(cw(128, 1), p), ult(cw(128, 1), q)};
  /* no bound on the wall time: a timeout that never fires hangs the test until CTest's */
  CHECK_EQ_U64(qs_check_sat(s, f, 3), QS_UNKNOWN);
  CHECK_EQ_STR(qs_last_reason(s), "timeout");
  CHECK_EQ_U64(st(s, "z3")->unknown, 1);
  /* Unknown is not cached: asking again asks Z3 again. */
  CHECK_EQ_U64(qs_check_sat(s, f, 3), QS_UNKNOWN);
  CHECK_EQ_U64(st(s, "z3")->queries, 2);
  /* The operations pass it on. */
  bool b = true;
  expr_array *arrays[2] = {P, Q};
  expr_assignment *m = (expr_assignment *)1;
  CHECK_EQ_U64(qs_may_be_true(s, f, 2, f[2], &b), QS_UNKNOWN);
  CHECK(b); /* untouched */
  CHECK_EQ_U64(qs_get_model(s, f, 3, arrays, 2, &m), QS_UNKNOWN);
  CHECK(m == NULL);
  CHECK_EQ_STR(qs_last_reason(s), "timeout");
  /* The solver still works afterwards. */
  qs_set_timeout(s, 10000);
  expr *easy[1] = {eq(p, cw(128, 6))};
  CHECK_EQ_U64(qs_check_sat(s, easy, 1), QS_SAT);
  CHECK_EQ_STR(qs_last_reason(s), "");
  /* … and many quick queries in a row that reach Z3, each a new one, are never cut: no
   * deadline of an earlier query (the one that timed out included) reaches a later one. */
  uint64_t unknown = st(s, "z3")->unknown, queries = st(s, "z3")->queries;
  for (unsigned k = 0; k < 300; k++) {
    expr *quick[2] = {eq(keep(expr_add(p, q)), cw(128, 2 * k + 7)), ult(q, p)};
    CHECK_EQ_U64(qs_check_sat(s, quick, 2), QS_SAT);
  }
  CHECK_EQ_U64(st(s, "z3")->unknown, unknown);
  CHECK_EQ_U64(st(s, "z3")->queries - queries, 300);
  qs_free(s);
  end_group();
}

/* What --max-time leaves bounds quantified queries too: qs_set_time_left cuts the Z3 timeout
 * of a hard quantified query to 1 ms (unknown), and a larger bound leaves the configured one
 * (the same query's easy variant is answered; with 1 ms configured, the hard one is unknown).
 * Neither solver has any other limit on that query, so a bound that is not applied hangs the
 * test until CTest's timeout: the check cannot pass by another timeout firing. The relaxed
 * stage is off: it would send the query's scalar part, the factoring, to the quantifier-free
 * solver, which time_left does not bound (test_relax covers that stage). */
static void test_time_left(void) {
  begin_group();
  qs_options o = qs_default_options();
  o.quantified = false; /* straight to Z3's quantified solver */
  o.relax = false;
  o.timeout_ms = 60000;
  o.quant_timeout_ms = 0; /* none: only time_left bounds the quantified query */
  qsolver *s = qs_new(&o);
  expr_array *P = array("tp", 8, true), *Q = array("tq", 8, true);
  expr *p = keep(expr_zext(rd(P, 0, 8), 128)), *q = keep(expr_zext(rd(Q, 0, 8), 128));
  u128 n = (u128)HARD_P * HARD_Q; /* as in test_timeout: undecidable in any test's time */
  expr *i = keep(expr_bvar_fresh(128, "i"));
  expr *all = keep(expr_forall(i, cw(128, 1), cw(128, 2), ult(i, p)));
  expr *f[4] = {eq(keep(expr_mul(p, q)), cw(128, n)), ult(cw(128, 1), p), ult(cw(128, 1), q), all};
  qs_set_time_left(s, 1);
  CHECK_EQ_U64(qs_check_sat(s, f, 4), QS_UNKNOWN);
  CHECK_EQ_STR(qs_last_reason(s), "timeout (the run's time limit)");
  qs_set_time_left(s, 1000000);
  expr *easy[2] = {eq(p, cw(128, 6)), all};
  CHECK_EQ_U64(qs_check_sat(s, easy, 2), QS_SAT);
  qs_free(s);
  o.quant_timeout_ms = 1;
  s = qs_new(&o);
  qs_set_time_left(s, 1000000); /* more than the configured 1 ms: the 1 ms stays */
  CHECK_EQ_U64(qs_check_sat(s, f, 4), QS_UNKNOWN);
  CHECK_EQ_STR(qs_last_reason(s), "timeout");
  qs_free(s);
  end_group();
}

/* Z3's bit-vector terms are simplified once, when translated (z3_backend.c,
 * simplify_on_translate): stats' "simplified" counts them, a term asked again is not
 * simplified again, and the answers stay right —
 * a 2-byte read at a symbolic index i meets the write at i + 1 through the simplified index. */
static void test_simplified_once(void) {
  begin_group();
  qs_options o = opts(false, false, false);
  qsolver *s = qs_new(&o);
  expr_array *A = array("a", 8, true), *I = array("i", 8, true), *X = array("x", 1, true);
  expr *i = rd(I, 0, 8), *x = rd(X, 0, 1);
  expr *f = eq(add(x, cw(8, 1)), cw(8, 5));
  u128 v = 0;
  CHECK_EQ_U64(qs_get_value(s, &f, 1, x, &v), QS_SAT);
  CHECK(v == 4);
  uint64_t once = st(s, "z3")->simplified;
  CHECK(once >= 1);                  /* x + 1 at least */
  expr *g[2] = {f, eq(x, cw(8, 3))}; /* x + 1 and x are cached: nothing new to simplify */
  CHECK_EQ_U64(qs_check_sat(s, g, 2), QS_UNSAT);
  CHECK_EQ_U64(st(s, "z3")->simplified, once);
  /* A[i + 1] = 0x77, then the 2 bytes at i: the high one is 0x77 whatever i (i < 6). */
  expr_update *w = keep_u(expr_update_push(A, NULL, add(i, c64(1)), cw(8, 0x77)));
  expr *r = keep(expr_read_le(A, w, i, 2));
  expr *pc[1] = {ult(i, c64(6))};
  bool b = false;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, eq(keep(expr_extract(r, 8, 8)), cw(8, 0x77)), &b),
               QS_UNSAT);
  CHECK(b);
  b = true;
  CHECK_EQ_U64(qs_must_be_true(s, pc, 1, eq(keep(expr_extract(r, 0, 8)), cw(8, 0x77)), &b), QS_SAT);
  CHECK(!b);
  CHECK(st(s, "z3")->simplified > once);
  /* ∀ j ∈ [0, 3]: A[j] = x + 1, and A[0] = 5 then 6 */
  expr *j = keep(expr_bvar_fresh(64, "j"));
  expr *body = eq(keep(expr_read(A, NULL, j)), add(x, cw(8, 1)));
  expr *all = keep(expr_forall(j, c64(0), c64(3), body));
  expr *q[2] = {all, eq(rd(A, 0, 1), cw(8, 5))};
  CHECK_EQ_U64(qs_check_sat(s, q, 2), QS_SAT);
  q[1] = eq(rd(A, 0, 1), add(x, cw(8, 2)));
  CHECK_EQ_U64(qs_check_sat(s, q, 2), QS_UNSAT);
  qs_free(s);
  end_group();
}

/* ---- translation against evaluation -------------------------------------------------------- */

/* For concrete x and y, {x = a, y = b, t = eval(t)} must be sat and {…, t ≠ eval(t)} unsat:
 * Z3's reading of every operator agrees with expr_eval's (caches off, so Z3 answers all). */
static void check_term(qsolver *s, expr *t, expr *const *fix, expr_assignment *m) {
  u128 v = 0;
  CHECK_EQ_U64(expr_eval(t, m, 1024, &v), EXPR_EVAL_OK);
  expr *val = keep(expr_const(t->width, v));
  expr *f[3] = {fix[0], fix[1], eq(t, val)};
  qs_status st1 = qs_check_sat(s, f, 3);
  f[2] = not(f[2]);
  qs_status st2 = qs_check_sat(s, f, 3);
  if (st1 != QS_SAT || st2 != QS_UNSAT) {
    char *str = expr_to_string(t);
    fprintf(stderr, "    term %s\n", str);
    free(str);
  }
  CHECK_EQ_U64(st1, QS_SAT);
  CHECK_EQ_U64(st2, QS_UNSAT);
}

/* in_integers: every lane tries linear integer arithmetic first (z3_int.h), so each term
 * with an integer form is checked in it. */
static void test_translation(bool in_integers) {
  begin_group();
  qs_options o = opts(false, false, false);
  if (in_integers) o.int_lanes = ~0u;
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 1, true), *Y = array("y", 1, true);
  expr *x = rd(X, 0, 1), *y = rd(Y, 0, 1);
  static const uint8_t pairs[][2] = {{0, 0}, {7, 0}, {200, 3}, {0x80, 0xff}, {5, 9}, {255, 8}};
  static const expr_kind bin[] = {EXPR_ADD,  EXPR_SUB, EXPR_MUL,  EXPR_UDIV, EXPR_SDIV, EXPR_UREM,
                                  EXPR_SREM, EXPR_SHL, EXPR_LSHR, EXPR_ASHR, EXPR_AND,  EXPR_OR,
                                  EXPR_XOR,  EXPR_EQ,  EXPR_ULT,  EXPR_ULE,  EXPR_SLT,  EXPR_SLE};
  for (size_t p = 0; p < sizeof pairs / sizeof pairs[0]; p++) {
    expr *fix[2] = {eq(x, cw(8, pairs[p][0])), eq(y, cw(8, pairs[p][1]))};
    expr_assignment *m = expr_assignment_new();
    expr_assignment_set(m, X, &pairs[p][0], 1);
    expr_assignment_set(m, Y, &pairs[p][1], 1);
    expr *bx = ult(x, y), *by = eq(y, cw(8, 0)); /* two width-1 terms */
    for (size_t k = 0; k < sizeof bin / sizeof bin[0]; k++) {
      check_term(s, keep(expr_binary(bin[k], x, y)), fix, m);
      check_term(s, keep(expr_binary(bin[k], bx, by)), fix, m);
    }
    check_term(s, not(x), fix, m);
    check_term(s, not(bx), fix, m);
    check_term(s, keep(expr_zext(x, 32)), fix, m);
    check_term(s, keep(expr_sext(x, 32)), fix, m);
    check_term(s, keep(expr_add(keep(expr_zext(bx, 8)), keep(expr_sext(by, 8)))), fix, m);
    check_term(s, keep(expr_extract(x, 3, 1)), fix, m);
    check_term(s, keep(expr_extract(keep(expr_mul(x, y)), 2, 5)), fix, m);
    check_term(s, keep(expr_concat(bx, x)), fix, m);
    check_term(s, keep(expr_concat(y, x)), fix, m);
    check_term(s, keep(expr_ite(bx, x, y)), fix, m);
    check_term(s, keep(expr_ite(by, bx, keep(expr_ult(y, cw(8, 100))))), fix, m);
    /* 128 bits: a constant above 2^64. */
    expr *wide = keep(expr_mul(keep(expr_zext(x, 128)), cw(128, (u128)0x1234567 << 70)));
    check_term(s, wide, fix, m);
    check_term(s, keep(expr_ashr(keep(expr_sext(x, 128)), keep(expr_zext(y, 128)))), fix, m);
    expr_assignment_free(m);
  }
  CHECK(st(s, "z3")->queries >= 500); /* Z3 did answer them: no cache in the way */
  if (in_integers) /* 22 terms of each pair have an integer form, both questions of each */
    CHECK(st(s, "z3")->in_integers >= 6 * 2 * 22);
  else
    CHECK_EQ_U64(st(s, "z3")->in_integers, 0);
  qs_free(s);
  end_group();
}

/* The kinds canonicalisation never builds (ne, ugt, uge, sgt, sge, sub) must still translate:
 * hand-made nodes over real operands, asked with every formula assumed (so that no stage
 * builds a node on top of them). */
static void test_noncanonical(void) {
  begin_group();
  qs_options o = opts(false, false, false);
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 1, true);
  expr *x = rd(X, 0, 1);
  struct {
    expr_kind kind;
    uint8_t c;
    bool holds_at_5;
  } cases[] = {{EXPR_NE, 5, false},    {EXPR_UGT, 4, true}, {EXPR_UGE, 6, false},
               {EXPR_SGT, 0xff, true}, {EXPR_SGE, 5, true}, {EXPR_SUB, 0, false}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    expr fake = {0};
    expr *c = cw(8, cases[i].c);
    fake.kind = cases[i].kind;
    fake.width = cases[i].kind == EXPR_SUB ? 8 : 1;
    fake.nkids = 2;
    fake.refcount = 1;
    fake.id = UINT64_MAX - 1000 + i;
    fake.kid[0] = x;
    fake.kid[1] = c;
    expr *formula = &fake;
    expr fake_eq = {0};
    if (cases[i].kind == EXPR_SUB) { /* x - 0 == 5 */
      fake_eq.kind = EXPR_EQ;
      fake_eq.width = 1;
      fake_eq.nkids = 2;
      fake_eq.refcount = 1;
      fake_eq.id = UINT64_MAX - 2000;
      fake_eq.kid[0] = &fake;
      fake_eq.kid[1] = cw(8, 5);
      formula = &fake_eq;
      cases[i].holds_at_5 = true;
    }
    expr *f[2] = {eq(x, cw(8, 5)), formula};
    qs_query qq = {.formulas = f, .count = 2, .assumed = 2};
    qs_result r;
    CHECK_EQ_U64(qs_solve(s, &qq, &r), cases[i].holds_at_5 ? QS_SAT : QS_UNSAT);
  }
  /* An error inside Z3 (here a malformed node: an 8-bit add of a 16-bit operand, which Z3
   * rejects) is never an answer: a query symq built wrongly stops the process with Z3's
   * message (checked in a child process), and the solver still works in this one. */
  expr bad = {0}, bad_eq = {0};
  bad.kind = EXPR_ADD;
  bad.width = 8;
  bad.nkids = 2;
  bad.refcount = 1;
  bad.id = UINT64_MAX - 3000;
  bad.kid[0] = x;
  bad.kid[1] = cw(16, 1);
  bad_eq = bad;
  bad_eq.kind = EXPR_EQ;
  bad_eq.width = 1;
  bad_eq.id = UINT64_MAX - 3001;
  bad_eq.kid[0] = &bad;
  bad_eq.kid[1] = cw(8, 5);
  expr *badf = &bad_eq;
  qs_query qb = {.formulas = &badf, .count = 1, .assumed = 1};
  int pipefd[2];
  CHECK(pipe(pipefd) == 0);
  fflush(stdout);
  fflush(stderr);
  pid_t child = fork();
  if (child == 0) {
    dup2(pipefd[1], 2);
    qs_result rb;
    qs_solve(s, &qb, &rb);
    _exit(0);
  }
  close(pipefd[1]);
  char message[512] = "";
  size_t got = 0;
  ssize_t n;
  while (got + 1 < sizeof message &&
         (n = read(pipefd[0], message + got, sizeof message - 1 - got)) > 0)
    got += (size_t)n;
  message[got] = 0;
  close(pipefd[0]);
  int status = 0;
  CHECK(waitpid(child, &status, 0) == child);
  CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
  CHECK(strncmp(message, "symq: internal error: Z3 rejected a query: ", 43) == 0);
  expr *good = eq(x, cw(8, 3));
  CHECK_EQ_U64(qs_check_sat(s, &good, 1), QS_SAT);
  qs_free(s);
  end_group();
}

/* ---- dumps, determinism, the primitive request --------------------------------------------- */

static void test_smt2_dump(void) {
  begin_group();
  char dir[] = "/tmp/test_qsolver_XXXXXX";
  CHECK(mkdtemp(dir) != NULL);
  char sub[64];
  snprintf(sub, sizeof sub, "%s/smt2", dir);
  qs_options o = qs_default_options();
  o.smt2_dir = sub;
  o.units = false; /* x = 3 is the unit stage's, and Z3 must see it */
  qsolver *s = qs_new(&o);
  expr_array *X = array("x", 4, true);
  expr *f = eq(rd(X, 0, 4), cw(32, 3));
  CHECK_EQ_U64(qs_check_sat(s, &f, 1), QS_SAT);
  char path[128];
  snprintf(path, sizeof path, "%s/query000001.smt2", sub);
  FILE *fp = fopen(path, "r");
  CHECK(fp != NULL);
  if (fp) {
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = 0;
    CHECK(strstr(buf, "check-sat") != NULL);
    fclose(fp);
    unlink(path);
  }
  /* a directory named after qs_new, before the first query (copied: the caller's text may
   * change) */
  o.smt2_dir = NULL;
  qsolver *late = qs_new(&o);
  char name[64];
  snprintf(name, sizeof name, "%s/late", dir);
  qs_set_smt2_dir(late, name);
  strcpy(name, sub);
  CHECK_EQ_U64(qs_check_sat(late, &f, 1), QS_SAT);
  snprintf(path, sizeof path, "%s/late/query000001.smt2", dir);
  CHECK(unlink(path) == 0);
  snprintf(path, sizeof path, "%s/query000001.smt2", sub);
  CHECK(access(path, F_OK) != 0);
  snprintf(path, sizeof path, "%s/late", dir);
  rmdir(path);
  qs_free(late);
  rmdir(sub);
  rmdir(dir);
  qs_free(s);
  end_group();
}

/* The same queries in the same order on two fresh solvers: the same models. */
static void run_sequence(qsolver *s, expr_array *S, expr_array *N, expr_assignment **out,
                         size_t *nout) {
  expr *n = rd(N, 0, 8);
  expr *pc[16];
  size_t npc = 0;
  pc[npc++] = keep(expr_ule(n, c64(8)));
  for (unsigned i = 0; i < 4; i++) {
    pc[npc++] = ult(c64(i), n);
    expr *si = rd(S, i, 1);
    bool b;
    qs_may_be_true(s, pc, npc, eq(si, cw(8, 'a')), &b);
    pc[npc++] = keep(expr_ne(si, cw(8, (u128)('a' + i))));
    expr_array *both[2] = {S, N};
    qs_get_model(s, pc, npc, both, 2, &out[(*nout)++]);
  }
}

static bool same_model(const expr_assignment *a, const expr_assignment *b) {
  if (!a || !b || a->count != b->count) return false;
  for (size_t i = 0; i < a->count; i++) {
    if (a->bindings[i].array != b->bindings[i].array || a->bindings[i].len != b->bindings[i].len ||
        memcmp(a->bindings[i].bytes, b->bindings[i].bytes, a->bindings[i].len) != 0)
      return false;
  }
  return true;
}

static void test_determinism(void) {
  begin_group();
  expr_array *S = array("s", 8, true), *N = array("n", 8, true);
  expr_assignment *m1[8] = {0}, *m2[8] = {0};
  size_t n1 = 0, n2 = 0;
  qsolver *s = qs_new(NULL);
  uint64_t effort0 = qs_effort(s); /* Z3's resource count: a running total, deterministic */
  run_sequence(s, S, N, m1, &n1);
  uint64_t effort1 = qs_effort(s);
  CHECK(effort1 > effort0);
  CHECK_EQ_U64(qs_effort(s), effort1); /* reading it costs no effort */
  qs_free(s);
  s = qs_new(NULL);
  run_sequence(s, S, N, m2, &n2);
  CHECK_EQ_U64(qs_effort(s), effort1);
  qs_free(s);
  CHECK_EQ_U64(n1, n2);
  for (size_t i = 0; i < n1; i++) {
    CHECK(same_model(m1[i], m2[i]));
    expr_assignment_free(m1[i]);
    expr_assignment_free(m2[i]);
  }
  end_group();
}

/* qs_solve directly; and the stats JSON names every stage. */
static void test_solve_and_stats(void) {
  begin_group();
  qsolver *s = qs_new(NULL);
  expr_array *X = array("x", 2, true), *Y = array("y", 3, true);
  expr *f[2] = {ult(rd(X, 0, 2), cw(16, 3)), eq(rd(Y, 2, 1), cw(8, 9))};
  expr_array *req[2] = {Y, X};
  qs_query q = {.formulas = f, .count = 2, .want_model = true, .arrays = req, .narrays = 2};
  qs_result r;
  CHECK_EQ_U64(qs_solve(s, &q, &r), QS_SAT);
  CHECK_EQ_STR(r.reason, "");
  CHECK(r.model != NULL);
  if (r.model) {
    CHECK_EQ_U64(r.model->count, 2);
    CHECK(expr_eval_all_true(f, 2, r.model));
    const expr_binding *b = expr_assignment_find(r.model, Y);
    CHECK(b && b->len == 3 && b->bytes[2] == 9);
  }
  expr_assignment_free(r.model);
  CHECK_EQ_U64(qs_stage_count(s), 8);
  CHECK_EQ_STR(qs_stage_at(s, 0)->name, "constant");
  CHECK_EQ_STR(qs_stage_at(s, 4)->name, "relaxed");
  CHECK_EQ_STR(qs_stage_at(s, 5)->name, "quantified_procedure");
  CHECK_EQ_STR(qs_stage_at(s, 6)->name, "units");
  CHECK_EQ_STR(qs_stage_at(s, 7)->name, "z3");
  CHECK(qs_stage_at(s, 8) == NULL);
  json_writer j;
  json_init(&j);
  json_object_begin(&j);
  qs_write_stats(&j, s);
  json_object_end(&j);
  const char *buf = json_text(&j, NULL);
  CHECK(buf && strncmp(buf, "{\n  \"queries\": 1,\n", 18) == 0);
  CHECK(buf && strstr(buf, ",\n  \"queries_by_stage\": {\n    \"constant\": {\n") != NULL);
  CHECK(buf && strstr(buf, "\n    \"cex_cache\": {\n      \"queries\": ") != NULL);
  CHECK(buf && strstr(buf, "\"slowest_s\": ") != NULL && strstr(buf, "\"over_1s\": ") != NULL);
  CHECK(buf && strstr(buf, "\"over_1s\": 0,\n      \"in_integers\": ") != NULL); /* z3's */
  CHECK(buf && strstr(buf, "\n  \"quantified\": {\n    \"queries\": 0,") != NULL);
  CHECK(buf && strstr(buf, "\n  \"queries_over_1s\": 0,\n  \"solver_effort\": ") != NULL);
  json_free(&j);
  /* The first stage times whole requests, so its slowest covers Z3's. */
  CHECK(qs_stage_at(s, 5)->slowest_seconds > 0);
  CHECK(qs_stage_at(s, 0)->slowest_seconds >= qs_stage_at(s, 5)->slowest_seconds);
  qs_free(s);
  qs_free(NULL);
  end_group();
}

int main(int argc, char **argv) {
  unsigned encoding_rounds = 8;
  for (int i = 1; i < argc; i++) {
    char *end;
    if (strncmp(argv[i], "--encoding-rounds=", 18) == 0 &&
        (encoding_rounds = (unsigned)strtoul(argv[i] + 18, &end, 10)) > 0 && !*end)
      continue;
    fprintf(stderr, "usage: test_qsolver [--encoding-rounds=N] (N >= 1)\n");
    return 2;
  }
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  test_basic();
  test_updates();
  test_const_array();
  test_table_in_array_theory();
  test_must_may_value();
  test_independence();
  test_independence_bytes();
  test_forall_in_updates();
  test_forall_across_prefixes();
  test_validity_cache();
  test_cex_cache();
  test_cex_rings_wrapped();
  test_units();
  test_forall();
  test_relax();
  test_encodings(encoding_rounds);
  test_large_scan();
  test_cells_mixed();
  test_bound_chain();
  test_timeout();
  test_time_left();
  test_simplified_once();
  test_translation(false);
  test_translation(true);
  test_noncanonical();
  test_smt2_dump();
  test_determinism();
  test_solve_and_stats();
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
  free(kept_e);
  free(kept_a);
  free(kept_u);
  return check_exit();
}
