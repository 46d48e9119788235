/*
 * bench_quant.c — the quantified procedure against Z3 alone (not a test).
 *
 * A seeded family of hand-built quantified queries of the shapes PAT produces on the memspn
 * family (pat-merge.md §5): the two merged exits of memspn(s, n, c) (∀i∈[1,K]. s[i−1] = c,
 * with K = n or K < n ∧ s[K] ≠ c), strlen's loop (s[i−1] ≠ 0), and memspn fed into a second
 * memspn (a second clause over the same buffer at offset K1), for capacities up to 200. On
 * each merged state the engine's questions are asked: is the state feasible, may s[j] be x,
 * must s[j] be c (anywhere, and inside the loop's range), and a model with K fixed (a test).
 *
 * The same operations run on fresh solvers in three configurations:
 *   procedure   the quantified stage, fallback expand then Z3 (symq's default)
 *   z3          no quantified stage: every ∀ query goes to Z3 (MBQI) alone
 *   validate    the procedure with --validate-qsolver (Z3 on the expansion re-checks each)
 * Printed: per configuration, the time and answers (sat/unsat/unknown), the answers that
 * differ from the procedure's, and, for the procedure, the queries answered per step and the
 * share answered before any fallback; then the time ratio z3 / procedure.
 *
 * Usage: bench_quant [seed [merged-states [max-capacity [z3-timeout-ms]]]]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "bench_support.h"

static expr_array **apool;
static size_t napool, cap_apool;
static expr_array *new_array(const char *name, uint64_t capacity, bool input) {
  expr *size = expr_const(64, capacity);
  expr_array *a = expr_array_new(name, size, capacity, input, NULL);
  expr_unref(size);
  if (napool == cap_apool) {
    cap_apool = cap_apool ? cap_apool * 2 : 256;
    apool = realloc(apool, cap_apool * sizeof *apool);
    if (!apool) abort();
  }
  return apool[napool++] = a;
}
static void release_all(void) {
  release_pool();
  for (size_t i = 0; i < napool; i++) expr_array_unref(apool[i]);
  napool = 0;
}

static expr *c64(uint64_t v) { return pooled(expr_const(64, v)); }
static expr *c8(unsigned v) { return pooled(expr_const(8, v)); }
static expr *at(expr_array *a, expr *i) { return pooled(expr_read(a, NULL, i)); }
static expr *word(expr_array *a) { return pooled(expr_read_le(a, NULL, c64(0), 8)); }

/* ∀i∈[1,k]. s[off + i − 1] (= c | ≠ 0). */
static expr *loop(expr_array *s, expr *off, expr *k, bool strlen_loop, unsigned c) {
  expr *i = pooled(expr_bvar_fresh(64, "i"));
  expr *idx = pooled(expr_add(pooled(expr_add(off, i)), c64((uint64_t)-1)));
  expr *cell = at(s, idx);
  expr *body = pooled(strlen_loop ? expr_ne(cell, c8(0)) : expr_eq(cell, c8(c)));
  return pooled(expr_forall(i, c64(1), k, body));
}

typedef struct tally {
  unsigned ops, sat, unsat, unknown;
  qs_status *answers;
  size_t nanswers, cap;
} tally;

static void record(tally *t, qs_status st) {
  t->ops++;
  if (st == QS_SAT) t->sat++;
  else if (st == QS_UNSAT)
    t->unsat++;
  else
    t->unknown++;
  if (t->nanswers == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->answers = realloc(t->answers, t->cap * sizeof *t->answers);
    if (!t->answers) abort();
  }
  t->answers[t->nanswers++] = st;
}

/* One merged state and the questions asked on it. */
static void merged_state(qsolver *s, unsigned max_cap, tally *t, unsigned *bad_models) {
  unsigned cap = 2 + rnd(max_cap - 1);
  unsigned c = 'a' + rnd(3);
  expr_array *S = new_array("s", cap + 1, true), *N = new_array("n", 8, true);
  expr_array *K1 = new_array("K", 8, false), *K2 = new_array("K2", 8, false);
  expr *n = word(N), *k = word(K1), *k2 = word(K2);
  expr *pc[10];
  size_t np = 0;
  pc[np++] = pooled(expr_ule(n, c64(cap)));
  pc[np++] = pooled(expr_ule(k, c64(cap))); /* PAT's K ∈ {m1..mk}: bounded */
  unsigned shape = rnd(4);
  bool strlen_loop = shape == 2;
  pc[np++] = loop(S, c64(0), k, strlen_loop, c);
  if (shape == 3) { /* memspn into memspn: the second loop starts where the first stopped */
    unsigned c2 = c + 1;
    pc[np++] = pooled(expr_ult(k, n));
    pc[np++] = pooled(expr_ne(at(S, k), c8(c)));
    pc[np++] = loop(S, k, k2, false, c2);
    pc[np++] = pooled(expr_ule(k2, c64(cap)));
    pc[np++] = pooled(expr_ule(pooled(expr_add(k, k2)), n));
  } else if (rnd(2)) { /* the exit with K = n */
    pc[np++] = pooled(expr_eq(k, n));
  } else { /* the exit with K < n and a mismatch at s[K] */
    pc[np++] = pooled(expr_ult(k, n));
    pc[np++] = pooled(strlen_loop ? expr_eq(at(S, k), c8(0)) : expr_ne(at(S, k), c8(c)));
  }
  expr_array *arrays[4] = {S, N, K1, K2};
  record(t, qs_check_sat(s, pc, np));
  for (unsigned q = 0; q < 3; q++) {
    unsigned j = rnd(cap + 1);
    bool b;
    record(t, qs_may_be_true(s, pc, np, pooled(expr_eq(at(S, c64(j)), c8(c + rnd(2)))), &b));
    record(t, qs_must_be_true(s, pc, np, pooled(expr_eq(at(S, c64(j)), c8(c))), &b));
  }
  /* Inside the loop's range: must s[j] = c (unsat for memspn's loop when j < K). */
  unsigned j = rnd(cap);
  expr *inside[12];
  memcpy(inside, pc, np * sizeof *pc);
  inside[np] = pooled(expr_ult(c64(j), k));
  bool b;
  record(t, qs_must_be_true(s, inside, np + 1, pooled(expr_eq(at(S, c64(j)), c8(c))), &b));
  expr *with_k[12];
  memcpy(with_k, pc, np * sizeof *pc);
  with_k[np] = pooled(expr_eq(k, c64(rnd(cap + 1))));
  expr_assignment *m = NULL;
  qs_status st = qs_get_model(s, with_k, np + 1, arrays, 4, &m);
  record(t, st);
  if (st == QS_SAT && !(m && expr_eval_all_true(with_k, np + 1, m))) (*bad_models)++;
  expr_assignment_free(m);
}

typedef struct config {
  const char *name;
  bool quantified, validate;
} config;

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 10) : 1;
  unsigned states = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 40;
  unsigned max_cap = argc > 3 ? (unsigned)strtoul(argv[3], NULL, 10) : 200;
  unsigned z3_ms = argc > 4 ? (unsigned)strtoul(argv[4], NULL, 10) : 10000;
  if (max_cap < 2) max_cap = 2;
  const config configs[] = {
      {"procedure", true, false}, {"z3", false, false}, {"validate", true, true}};
  enum { NCONF = sizeof configs / sizeof configs[0] };
  tally t[NCONF];
  double secs[NCONF];
  memset(t, 0, sizeof t);
  printf("bench_quant: seed %" PRIu64 ", %u merged states, capacity up to %u, Z3 timeout %u ms\n",
         seed, states, max_cap, z3_ms);
  printf("%-10s %9s %6s %6s %6s %8s %6s %9s\n", "config", "time (s)", "ops", "sat", "unsat",
         "unknown", "differ", "bad model");
  for (size_t k = 0; k < NCONF; k++) {
    qs_options o = qs_default_options();
    o.quantified = configs[k].quantified;
    o.validate_quantified = configs[k].validate;
    o.quant_timeout_ms = z3_ms;
    o.timeout_ms = z3_ms;
    qsolver *s = qs_new(&o);
    rng_state = seed;
    unsigned bad = 0;
    double t0 = now();
    for (unsigned i = 0; i < states; i++) merged_state(s, max_cap, &t[k], &bad);
    secs[k] = now() - t0;
    unsigned differ = 0;
    for (size_t i = 0; i < t[k].nanswers && i < t[0].nanswers; i++)
      if (t[k].answers[i] != QS_UNKNOWN && t[0].answers[i] != QS_UNKNOWN &&
          t[k].answers[i] != t[0].answers[i])
        differ++;
    printf("%-10s %9.2f %6u %6u %6u %8u %6u %9u\n", configs[k].name, secs[k], t[k].ops, t[k].sat,
           t[k].unsat, t[k].unknown, differ, bad);
    if (configs[k].quantified) {
      const qs_quant_stats *q = qs_quant_stats_of(s);
      uint64_t before = q->answered[QS_QSTEP_STRIP] + q->answered[QS_QSTEP_DUPLICATE] +
                        q->answered[QS_QSTEP_REPAIR];
      printf("           quantified queries %" PRIu64 ":", q->queries);
      for (int st = 0; st < QS_QSTEP_COUNT; st++)
        printf(" %s %" PRIu64 " (%.2fs)", qs_qstep_name((qs_qstep)st), q->answered[st],
               q->seconds[st]);
      printf(", unknown %" PRIu64 "; before fallback %.1f%%; disagreements %" PRIu64 "\n",
             q->unknown, q->queries ? 100.0 * (double)before / (double)q->queries : 0.0,
             q->disagreements);
    }
    qs_free(s);
    release_all();
  }
  printf("ratio z3 / procedure: %.2f\n", secs[0] > 0 ? secs[1] / secs[0] : 0.0);
  for (size_t k = 0; k < NCONF; k++) free(t[k].answers);
  free(pool);
  free(apool);
  return 0;
}
