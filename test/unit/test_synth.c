/* test_synth — templates and formula patterns (merge/synth): the paper's memspn tails first
 * (their formula pattern generalises beyond the iterations it was fitted on, and the
 * quantified pc it induces is equivalent to the disjunction of the tails, by the solver),
 * then the arithmetic corner cases of the fit. */
#include "check.h"
#include "memspn_tree.h"
#include "merge/pattern.h"
#include "merge/synth.h"
#include "qsolver/qsolver.h"

static expr *c64(uint64_t v) { return expr_const(64, v); }

static size_t count_nodes(const expr *e, const expr **seen, size_t *n) {
  for (size_t k = 0; k < *n; k++)
    if (seen[k] == e) return 0;
  seen[(*n)++] = e;
  size_t total = 1;
  for (unsigned k = 0; k < e->nkids; k++) total += count_nodes(e->kid[k], seen, n);
  return total;
}

static size_t nodes(const expr *e) {
  const expr *seen[4096];
  size_t n = 0;
  return count_nodes(e, seen, &n);
}

static expr *and3(expr *a, expr *b, expr *c) { /* consumes its arguments */
  expr *ab = expr_and(a, b), *r = expr_and(ab, c);
  expr_unref(a), expr_unref(b), expr_unref(c), expr_unref(ab);
  return r;
}

/* The formula pattern of one memspn exit at capacity N, from the real partitioner. */
typedef struct exit_fit {
  memspn_leaf *leaves;
  size_t n;
  pat_partitioning parts;
  synth_formula f;
  bool ok;
} exit_fit;

static exit_fit fit_exit(const memspn_tree *t, pat_alphabet *ab, unsigned capacity, int by_byte,
                         expr *bvar) {
  exit_fit x = {0};
  x.n = by_byte ? capacity : capacity + 1;
  x.leaves = calloc(x.n, sizeof *x.leaves);
  pat_word *words = calloc(x.n, sizeof *words);
  for (size_t m = 0; m < x.n; m++) {
    x.leaves[m] = memspn_leaf_make(t, ab, m, by_byte);
    words[m] = (pat_word){x.leaves[m].word, x.leaves[m].len};
  }
  CHECK_EQ_U64(pat_partition(words, x.n, (pat_limits){20, 10}, &x.parts), PAT_PARTITIONED);
  CHECK_EQ_U64(x.parts.npatterns, 1);
  synth_leaf *sl = calloc(x.n, sizeof *sl);
  for (size_t m = 0; m < x.n; m++)
    sl[m] = (synth_leaf){x.leaves[m].conds, x.leaves[m].nconds, x.parts.count[m]};
  const pat_pattern *p = &x.parts.patterns[0];
  x.ok = synth_formula_pattern(sl, x.n, p->nprefix, p->ncore, p->nsuffix, bvar, &x.f);
  free(sl);
  free(words);
  return x;
}

static void exit_fit_free(exit_fit *x) {
  for (size_t m = 0; m < x->n; m++) memspn_leaf_free(&x->leaves[m]);
  free(x->leaves);
  pat_partitioning_free(&x->parts);
  synth_formula_free(&x->f);
}

/* φ(k) must be iteration k's conditions for every k — also far beyond the capacity it was
 * fitted on (a lookup table would not generalise) — and ψ(m) the exit's conditions. */
static void test_memspn_formulas(unsigned capacity, size_t *phi_nodes) {
  memspn_tree t;
  memspn_tree_init(&t, capacity);
  pat_alphabet ab = {0};
  expr *i = expr_bvar_fresh(64, "i");
  exit_fit g = fit_exit(&t, &ab, capacity, 0, i);
  CHECK(g.ok);
  if (g.ok) {
    CHECK(expr_is_true(g.f.phi0));
    CHECK(g.f.phi->has_bvar);
    uint64_t probes[] = {1, 2, capacity, capacity + 1, 1000, 123456789};
    for (size_t k = 0; k < 6; k++) {
      expr *at = c64(probes[k]);
      expr *phi = synth_at(g.f.phi, i, at), *psi = synth_at(g.f.psi, i, at);
      uint64_t it = probes[k] - 1;
      expr *want = and3(mt_loop_test(&t, it), mt_bounds(&t, it), mt_byte_test(&t, it));
      expr *want_psi = mt_negate(mt_loop_test(&t, probes[k]));
      CHECK_EQ_PTR(phi, want);
      CHECK_EQ_PTR(psi, want_psi);
      expr_unref(at), expr_unref(phi), expr_unref(psi), expr_unref(want), expr_unref(want_psi);
    }
    *phi_nodes = nodes(g.f.phi) + nodes(g.f.psi);
  }
  exit_fit_free(&g);
  if (capacity >= 3) {
    exit_fit b = fit_exit(&t, &ab, capacity, 1, i);
    CHECK(b.ok);
    if (b.ok) {
      expr *at = c64(77);
      expr *psi = synth_at(b.f.psi, i, at);
      expr *want = and3(mt_loop_test(&t, 77), mt_bounds(&t, 77), mt_negate(mt_byte_test(&t, 77)));
      CHECK_EQ_PTR(psi, want);
      expr_unref(at), expr_unref(psi), expr_unref(want);
    }
    exit_fit_free(&b);
  }
  expr_unref(i);
  pat_alphabet_free(&ab);
  memspn_tree_free(&t);
}

/* Definition 3.7's pc for memspn's loop-test exit, checked by the solver against the tails:
 * pc ∧ K = m ≡ tail_m for every m, pc ⊨ K = n, and pc ⊨ (K ≥ 2 → s[1] = 'a'). */
static void test_memspn_merged_pc(unsigned capacity) {
  memspn_tree t;
  memspn_tree_init(&t, capacity);
  pat_alphabet ab = {0};
  expr *i = expr_bvar_fresh(64, "i");
  exit_fit g = fit_exit(&t, &ab, capacity, 0, i);
  CHECK(g.ok);
  if (!g.ok) goto out;
  expr *eight = c64(8), *zero = c64(0), *one = c64(1), *cap = c64(capacity);
  expr_array *ka = expr_array_new("K", eight, 8, false, NULL);
  expr *K = expr_read_le(ka, NULL, zero, 8);
  expr *all = expr_forall(i, one, K, g.f.phi);
  expr *psi = synth_at(g.f.psi, i, K);
  expr *range = expr_ule(K, cap), *entry = expr_ule(t.n, cap);
  expr *pc[] = {entry, g.f.phi0, all, psi, range};
  qsolver *s = qs_new(NULL);
  bool holds = false;
  CHECK_EQ_U64(qs_check_sat(s, pc, 5), QS_SAT);
  expr *k_is_n = expr_eq(K, t.n);
  CHECK_EQ_U64(qs_must_be_true(s, pc, 5, k_is_n, &holds), QS_UNSAT);
  CHECK(holds);
  expr *two = c64(2), *k2 = expr_ule(two, K), *s1 = mt_byte_test(&t, 1);
  expr *imp = expr_implies(k2, s1);
  CHECK_EQ_U64(qs_must_be_true(s, pc, 5, imp, &holds), QS_UNSAT);
  CHECK(holds);
  for (uint64_t m = 0; m <= capacity; m++) {
    expr *cm = c64(m), *km = expr_eq(K, cm);
    expr *tail = expr_true();
    for (size_t q = 0; q < g.leaves[m].nconds; q++) {
      expr *next = expr_and(tail, g.leaves[m].conds[q]);
      expr_unref(tail);
      tail = next;
    }
    expr *with_k[] = {entry, g.f.phi0, all, psi, range, km};
    CHECK_EQ_U64(qs_must_be_true(s, with_k, 6, tail, &holds), QS_UNSAT); /* pc ∧ K=m ⊨ tail_m */
    CHECK(holds);
    expr *tail_k[] = {entry, tail, km};
    CHECK_EQ_U64(qs_must_be_true(s, tail_k, 3, all, &holds), QS_UNSAT); /* tail_m ∧ K=m ⊨ pc */
    CHECK(holds);
    CHECK_EQ_U64(qs_must_be_true(s, tail_k, 3, psi, &holds), QS_UNSAT);
    CHECK(holds);
    expr_unref(cm), expr_unref(km), expr_unref(tail);
  }
  qs_free(s);
  expr_unref(two), expr_unref(k2), expr_unref(s1), expr_unref(imp), expr_unref(k_is_n);
  expr_unref(eight), expr_unref(zero), expr_unref(one), expr_unref(cap), expr_unref(K);
  expr_unref(all), expr_unref(psi), expr_unref(range), expr_unref(entry);
  expr_array_unref(ka);
out:
  exit_fit_free(&g);
  expr_unref(i);
  pat_alphabet_free(&ab);
  memspn_tree_free(&t);
}

/* eq(x, c) at each point, c given per point. */
static expr *eq_x(expr *x, unsigned width, uint64_t c) {
  expr *k = expr_const(width, c), *r = expr_eq(x, k);
  expr_unref(k);
  return r;
}

static void free_points(synth_point *p, size_t n) {
  for (size_t k = 0; k < n; k++) expr_unref(p[k].e);
}

/* t(at) == want */
static bool fits(expr *t, expr *i, uint64_t at, expr *want) {
  expr *c = c64(at), *v = synth_at(t, i, c);
  bool ok = v == want;
  expr_unref(c), expr_unref(v);
  return ok;
}

/* A template fits the points, and at `at` it gives `want` (consumed). */
#define CHECK_FIT(points, n, i, at, want)                        \
  do {                                                           \
    expr *fit_t_ = synth_fit(points, n, i), *fit_want_ = (want); \
    CHECK(fit_t_ != NULL);                                       \
    if (fit_t_) CHECK(fits(fit_t_, i, at, fit_want_));           \
    expr_unref(fit_t_), expr_unref(fit_want_);                   \
  } while (0)

static void test_fit_arithmetic(void) {
  expr *i = expr_bvar_fresh(64, "i");
  expr *zero = c64(0);
  expr *eight = c64(8);
  expr_array *xa = expr_array_new("x", eight, 8, true, NULL);
  expr *x8 = expr_read(xa, NULL, zero), *x64 = expr_read_le(xa, NULL, zero, 8);
  synth_point p[6];

  /* width 8, slope 3 wrapping past 255: 250, 253, 0, 3 at 1..4 */
  uint64_t wrap[] = {250, 253, 0, 3};
  for (int k = 0; k < 4; k++) p[k] = (synth_point){(uint64_t)k + 1, eq_x(x8, 8, wrap[k])};
  CHECK_FIT(p, 4, i, 5, eq_x(x8, 8, 6));
  free_points(p, 4);

  /* not affine: 0, 1, 3 */
  uint64_t bent[] = {0, 1, 3};
  for (int k = 0; k < 3; k++) p[k] = (synth_point){(uint64_t)k + 1, eq_x(x64, 64, bent[k])};
  CHECK(synth_fit(p, 3, i) == NULL);
  free_points(p, 3);

  /* gaps of 2 (counts 0, 2, 4) with slope 3: 2a ≡ 6 has two solutions mod 2^64 */
  for (int k = 0; k < 3; k++)
    p[k] = (synth_point){2 * (uint64_t)k, eq_x(x64, 64, 1 + 6 * (uint64_t)k)};
  CHECK_FIT(p, 3, i, 1, eq_x(x64, 64, 4));
  free_points(p, 3);

  /* a point given twice with different expressions: no function of i */
  p[0] = (synth_point){1, eq_x(x64, 64, 5)};
  p[1] = (synth_point){1, eq_x(x64, 64, 6)};
  p[2] = (synth_point){2, eq_x(x64, 64, 7)};
  CHECK(synth_fit(p, 3, i) == NULL);
  free_points(p, 3);

  /* the same at every point (constant across iterations), and a single point */
  p[0] = (synth_point){1, eq_x(x64, 64, 5)};
  p[1] = (synth_point){2, expr_ref(p[0].e)};
  p[2] = (synth_point){9, expr_ref(p[0].e)};
  expr *t = synth_fit(p, 3, i);
  CHECK_EQ_PTR(t, p[0].e);
  expr_unref(t);
  t = synth_fit(p + 2, 1, i);
  CHECK_EQ_PTR(t, p[0].e);
  expr_unref(t);
  free_points(p, 3);

  /* different shapes */
  p[0] = (synth_point){1, eq_x(x64, 64, 5)};
  p[1] = (synth_point){2, expr_ult(zero, x64)};
  CHECK(synth_fit(p, 2, i) == NULL);
  free_points(p, 2);

  /* two constants, two slopes: x[2i] = i + 5 as bytes; and a value, 4·i + 1 */
  expr *cap = c64(64);
  expr_array *ya = expr_array_new("y", cap, 64, true, NULL);
  for (int k = 0; k < 4; k++) {
    expr *idx = c64(2 * (uint64_t)k + 2);
    expr *rd = expr_read(ya, NULL, idx);
    p[k] = (synth_point){(uint64_t)k + 1, eq_x(rd, 8, (uint64_t)k + 6)};
    expr_unref(idx), expr_unref(rd);
  }
  expr *sixty = c64(60), *rd60 = expr_read(ya, NULL, sixty);
  CHECK_FIT(p, 4, i, 30, eq_x(rd60, 8, 35));
  expr_unref(sixty), expr_unref(rd60);
  free_points(p, 4);
  for (int k = 0; k < 5; k++) p[k] = (synth_point){(uint64_t)k * 7, c64(4 * (uint64_t)k * 7 + 1)};
  CHECK_FIT(p, 5, i, 100, c64(401));
  free_points(p, 5);

  /* an index K + i that simplified to K at i = 0: still one template */
  expr *K = x64;
  for (int k = 0; k < 3; k++) {
    expr *off = c64((uint64_t)k), *idx = expr_add(off, K), *rd = expr_read(ya, NULL, idx);
    p[k] = (synth_point){(uint64_t)k, eq_x(rd, 8, 'b')};
    expr_unref(off), expr_unref(idx), expr_unref(rd);
  }
  CHECK(p[0].e->kid[1]->kid[0] == K || p[0].e->kid[0]->kid[0] == K); /* read at K itself */
  /* only the two points that do not line up syntactically */
  CHECK_FIT(p, 2, i, 2, expr_ref(p[2].e));
  free_points(p, 3);

  expr_unref(cap);
  expr_array_unref(ya);
  expr_unref(x8), expr_unref(x64), expr_unref(zero), expr_unref(eight), expr_unref(i);
  expr_array_unref(xa);
}

/* Leaves whose shared positions disagree have no formula pattern: a prefix that differs, and
 * an iteration whose condition differs between two leaves that both went through it. */
static void test_pattern_rejected(void) {
  memspn_tree t;
  memspn_tree_init(&t, 4);
  pat_alphabet ab = {0};
  expr *i = expr_bvar_fresh(64, "i");
  memspn_leaf l[3];
  for (int m = 0; m < 3; m++) l[m] = memspn_leaf_make(&t, &ab, (uint64_t)m + 1, 0);
  synth_leaf sl[3];
  for (int m = 0; m < 3; m++) sl[m] = (synth_leaf){l[m].conds, l[m].nconds, (uint64_t)m + 1};
  synth_formula f;
  CHECK(synth_formula_pattern(sl, 3, 1, 3, 1, i, &f));
  synth_formula_free(&f);
  /* leaf 2's second iteration reads s[5] instead of s[1] */
  expr *odd = mt_byte_test(&t, 5);
  expr *saved = l[2].conds[5];
  l[2].conds[5] = odd;
  CHECK(!synth_formula_pattern(sl, 3, 1, 3, 1, i, &f));
  l[2].conds[5] = saved;
  /* a prefix of one condition that differs between the leaves */
  CHECK(!synth_formula_pattern(sl, 3, 2, 3, 1, i, &f)); /* lengths no longer fit */
  sl[0].count = 0, sl[1].count = 0, sl[2].count = 0;
  sl[0].nconds = 1, sl[1].nconds = 1, sl[2].nconds = 1;
  CHECK(synth_formula_pattern(sl, 3, 2, 3, 0, i, &f)); /* R_0 shared: fine */
  synth_formula_free(&f);
  expr *saved0 = l[1].conds[0];
  l[1].conds[0] = odd;
  CHECK(!synth_formula_pattern(sl, 3, 2, 3, 0, i, &f));
  l[1].conds[0] = saved0;
  expr_unref(odd);
  for (int m = 0; m < 3; m++) memspn_leaf_free(&l[m]);
  expr_unref(i);
  pat_alphabet_free(&ab);
  memspn_tree_free(&t);
}

/* Conditions monotone in i leave the ∀ at the iteration where they are hardest to meet; anything
 * that could wrap or that is not a comparison of the index with a closed term stays inside. */
static void test_monotone(void) {
  expr *i = expr_bvar_fresh(64, "i");
  expr *zero = c64(0), *eight = c64(8);
  expr_array *na = expr_array_new("n", eight, 8, false, NULL);
  expr *n = expr_read_le(na, NULL, zero, 8);
  expr *minus1 = c64(UINT64_MAX), *prev = expr_add(minus1, i); /* i − 1 */
  expr *below = expr_ult(prev, n), *at_most = expr_ule(i, n), *above = expr_ult(n, i);
  expr *not_below = expr_not(below), *not_above = expr_not(above);
  CHECK_EQ_U64(synth_monotone(below, i, 8), SYNTH_AT_HI); /* i − 1 < n: true at K, true below */
  CHECK_EQ_U64(synth_monotone(at_most, i, 8), SYNTH_AT_HI);
  CHECK_EQ_U64(synth_monotone(above, i, 8), SYNTH_AT_ONE); /* n < i: weakest at i = 1 */
  CHECK_EQ_U64(synth_monotone(not_below, i, 8), SYNTH_AT_ONE);
  CHECK_EQ_U64(synth_monotone(not_above, i, 8), SYNTH_AT_HI);
  /* c + i wraps on [1, hi] when c > 2^64 − hi − 1: then it is not monotone */
  expr *big = c64(UINT64_MAX - 3), *wrapping = expr_add(big, i), *w = expr_ult(wrapping, n);
  CHECK_EQ_U64(synth_monotone(w, i, 3), SYNTH_AT_HI); /* up to 2^64 − 1: no wrap */
  CHECK_EQ_U64(synth_monotone(w, i, 4), SYNTH_NOT_MONOTONE);
  /* i on both sides, a product, an equality: not monotone */
  expr *two = c64(2), *twice = expr_mul(two, i), *both = expr_ult(prev, i);
  expr *scaled = expr_ult(twice, n), *eq = expr_eq(i, n);
  CHECK_EQ_U64(synth_monotone(both, i, 8), SYNTH_NOT_MONOTONE);
  CHECK_EQ_U64(synth_monotone(scaled, i, 8), SYNTH_NOT_MONOTONE);
  CHECK_EQ_U64(synth_monotone(eq, i, 8), SYNTH_NOT_MONOTONE);
  expr *all[] = {i,         zero, eight,    n, minus1, prev,  below, at_most, above, not_below,
                 not_above, big,  wrapping, w, two,    twice, both,  scaled,  eq};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(na);
}

/* A 32-bit counter: the loop test is extract(i) − 1 < m at width 32 — monotone while hi fits
 * in 32 bits and c + extract(i) does not wrap there. */
static void test_monotone_narrow(void) {
  expr *i = expr_bvar_fresh(64, "i");
  expr *zero = c64(0), *four = c64(4);
  expr_array *ma = expr_array_new("m", four, 4, false, NULL);
  expr *m = expr_read_le(ma, NULL, zero, 4);
  expr *low = expr_extract(i, 0, 32), *minus1 = expr_const(32, UINT32_MAX);
  expr *prev = expr_add(minus1, low), *below = expr_ult(prev, m);
  CHECK(prev->kind == EXPR_ADD && prev->kid[1]->kind == EXPR_EXTRACT);
  CHECK_EQ_U64(synth_monotone(below, i, 8), SYNTH_AT_HI);
  CHECK_EQ_U64(synth_monotone(below, i, UINT64_C(1) << 32), SYNTH_NOT_MONOTONE); /* i wraps */
  expr *big = expr_const(32, UINT32_MAX - 3), *wrapping = expr_add(big, low);
  expr *w = expr_ult(wrapping, m);
  CHECK_EQ_U64(synth_monotone(w, i, 3), SYNTH_AT_HI);
  CHECK_EQ_U64(synth_monotone(w, i, 4), SYNTH_NOT_MONOTONE);   /* c + i wraps at 32 bits */
  expr *high = expr_extract(i, 8, 32), *h = expr_ult(high, m); /* not the low bits: no */
  CHECK_EQ_U64(synth_monotone(h, i, 8), SYNTH_NOT_MONOTONE);
  expr *all[] = {i, zero, four, m, low, minus1, prev, below, big, wrapping, w, high, h};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(ma);
}

int main(void) {
  test_monotone();
  test_monotone_narrow();
  size_t small = 0, large = 0;
  test_memspn_formulas(4, &small);
  test_memspn_formulas(64, &large);
  CHECK(small > 0);
  CHECK_EQ_U64(small, large); /* the formula's size does not grow with the capacity */
  test_memspn_formulas(3, &small);
  test_memspn_merged_pc(4);
  test_memspn_merged_pc(9);
  test_fit_arithmetic();
  test_pattern_rejected();
  CHECK_EQ_U64(expr_live_count(), 0);
  return check_exit();
}
