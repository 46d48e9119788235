/*
 * test_quant_dear.c — the slice step put first where strip is dear (qsolver/stage_quant.c,
 * dear_strip): with --qsolver-forall-slice off (the default), a request whose first forall's
 * last strip cost Z3 more than STRIP_DEAR_EFFORT goes to the slice step before strip.
 *
 *   - The shape of json-c string_serialize under pat-inc: a merged scan
 *     ∀i∈[1,K]. s[i − 1] ≠ 0, s[K] = 0, K ≤ 8 in the path, beside a part of the path that is
 *     dear for Z3 and shares no byte with the questions (here p·q = N, a 32-bit semiprime
 *     factored), and questions on bytes of another array. The first question is stripped (the
 *     factoring paid); the next ones are answered by the slice step (slice_dear counted), the
 *     answers right and every model checked against the whole path.
 *   - Harder: a question whose answer needs the forall (s[2] = 0 with K ≥ 5): the slice step
 *     falls through and strip answers it, unsat, validated.
 *   - Not firing: the same path without the dear part; its strips are cheap and the slice
 *     step never runs (slice_dear 0, no slice answer).
 * Counts and answers, not seconds; --validate-qsolver on throughout (0 disagreements). On the
 * base (58d5c03) the file does not build (slice_dear is new); with dear_strip returning false
 * the first group's slice counts fail.
 */
#include "check.h"
#include "expr_pool.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qsolver/quant.h"
#include "qs_check.h"

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }
/* Two primes: p·q = N with 1 < p, q asks Z3 to factor N (p and q BYTES wide). */
#define SEMIPRIME (UINT64_C(4093) * UINT64_C(4091))
#define BYTES 2

static expr *half(expr_array *a, uint64_t at) {
  return K(expr_zext(K(expr_read_le(a, NULL, k64(at), BYTES)), 64));
}


/* The chain without the relaxed stage and the caches (they would answer some requests before
 * the procedure, which the counts below are about), slice off, --validate-qsolver on. */
static qsolver *validated_solver(void) {
  qs_options o = qs_default_options();
  o.relax = false;
  o.validity_cache = false;
  o.cex_cache = false;
  o.forall_slice = false;
  o.validate_quantified = true;
  return qs_new(&o);
}

typedef struct fixture {
  expr_array *S, *KA;
  expr *k;
  expr *path[8];
  size_t npath;
} fixture;

/* ∀i∈[1,K]. s[i − 1] ≠ 0, s[K] = 0, K ≤ 8, K ≥ 5, then (dear) p·q = N, 1 < p, 1 < q. */
static fixture make(bool dear) {
  fixture x;
  x.S = pool_array("s", 32, true);
  x.KA = pool_array("K", 8, false);
  x.k = word(x.KA);
  expr *i = K(expr_bvar_fresh(64, "i"));
  expr *before_i = K(expr_add(k64((uint64_t)-1), i));
  size_t n = 0;
  x.path[n++] = K(expr_forall(i, k64(1), x.k, K(expr_ne(byte_at(x.S, before_i), k8(0)))));
  x.path[n++] = K(expr_eq(byte_at(x.S, x.k), k8(0)));
  x.path[n++] = K(expr_ule(x.k, k64(8)));
  x.path[n++] = K(expr_ule(k64(5), x.k));
  if (dear) {
    expr *p = half(x.S, 10), *q = half(x.S, 14);
    x.path[n++] = K(expr_eq(K(expr_mul(p, q)), k64(SEMIPRIME)));
    x.path[n++] = K(expr_ult(k64(1), p));
    x.path[n++] = K(expr_ult(k64(1), q));
  }
  x.npath = n;
  return x;
}

/* May question e be true on the path? Checked against want. */
static void ask(qsolver *s, const fixture *x, expr *e, bool want) {
  bool may = !want;
  CHECK_EQ_U64(qs_may_be_true(s, x->path, x->npath, e, &may), want ? QS_SAT : QS_UNSAT);
  CHECK_EQ_U64(may, want);
}

static void test_dear(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  fixture x = make(true);
  qsolver *s = validated_solver();
  const qs_quant_stats *st = qs_quant_stats_of(s);
  /* a model at the path's end (the engine's test): the state's last model, kept */
  expr *f[8];
  for (size_t i = 0; i < x.npath; i++) f[i] = x.path[i];
  f[x.npath] = K(expr_eq(byte_at(x.S, k64(20)), k8('x')));
  expr_array *all[2] = {x.S, x.KA};
  check_model(s, f, x.npath + 1, all, 2);
  uint64_t first = st->effort[QS_QSTEP_STRIP];
  CHECK(first > 100000); /* the fixture's premise: this strip is dear */
  CHECK_EQ_U64(st->slice_dear, 0);
  for (uint64_t j = 1; j < 5; j++) ask(s, &x, K(expr_eq(byte_at(x.S, k64(20 + j)), k8('a' + j))), true);
  CHECK(st->slice_dear >= 1);
  CHECK(st->answered[QS_QSTEP_SLICE] >= 1);
  /* harder: s[2] = 0 contradicts the forall's instance at 3 (K ≥ 5); the group without the
   * forall is sat, so the slice step must fall through and strip answer */
  uint64_t slice_before = st->answered[QS_QSTEP_SLICE];
  ask(s, &x, K(expr_eq(byte_at(x.S, k64(2)), k8(0))), false);
  CHECK_EQ_U64(st->answered[QS_QSTEP_SLICE], slice_before);
  /* and a question on the merged count and a byte past it: sat, the model checked */
  ask(s, &x, K(expr_and(K(expr_eq(x.k, k64(6))), K(expr_eq(byte_at(x.S, k64(7)), k8('z'))))), true);
  CHECK_EQ_U64(st->disagreements, 0);
  CHECK_EQ_U64(st->recheck_unknown, 0);
  qs_free(s);
  pool_release();
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
}

static void test_cheap(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  fixture x = make(false);
  qsolver *s = validated_solver();
  const qs_quant_stats *st = qs_quant_stats_of(s);
  for (uint64_t j = 0; j < 5; j++) ask(s, &x, K(expr_eq(byte_at(x.S, k64(20 + j)), k8('a' + j))), true);
  ask(s, &x, K(expr_eq(byte_at(x.S, k64(2)), k8(0))), false);
  CHECK(st->effort[QS_QSTEP_STRIP] / (st->answered[QS_QSTEP_STRIP] + 1) < 100000);
  CHECK_EQ_U64(st->slice_dear, 0);
  CHECK_EQ_U64(st->answered[QS_QSTEP_SLICE], 0);
  CHECK_EQ_U64(st->disagreements, 0);
  qs_free(s);
  pool_release();
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
}

int main(void) {
  test_dear();
  test_cheap();
  return check_exit();
}
