/*
 * bench_qsolver.c — micro-benchmark of the solver chain (not a test).
 *
 * A fixed, seeded family of queries: the exploration, by forking, of a memspn-like loop
 * over a symbolic buffer s of symbolic size n ≤ L, after an unrelated prefix that
 * constrained another buffer t (so that the path conditions carry constraints independence
 * can drop). At each loop step the executor asks may(i < n), may(i ≥ n), then
 * may(s[i] = c), may(s[i] ≠ c); each path that leaves the loop asks for a model (its test).
 * Then the two PAT-merged exit states of pat-merge.md §5 are queried (∀-constraints). The
 * whole family is run twice, as a second driver sharing the program would.
 *
 * Each configuration solves the same family on a fresh solver: the full chain, then with
 * one optional stage off, then with all off. Printed per configuration: operations, queries
 * that reached Z3, time, and the ratio of time to the full chain.
 *
 * Usage: bench_qsolver [seed]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "bench_support.h"

static expr *c64(uint64_t v) { return pooled(expr_const(64, v)); }
static expr *c8(unsigned v) { return pooled(expr_const(8, v)); }
static expr *byte(expr_array *a, expr *index) { return pooled(expr_read(a, NULL, index)); }

typedef struct run_counts {
  uint64_t ops, unknown, sat_answers;
} run_counts;

static void may(qsolver *s, expr **pc, size_t n, expr *e, bool *out, run_counts *rc) {
  rc->ops++;
  if (qs_may_be_true(s, pc, n, e, out) == QS_UNKNOWN) {
    rc->unknown++;
    *out = false;
  }
  rc->sat_answers += *out;
}

static void test_case(qsolver *s, expr **pc, size_t n, expr_array *const *arrays, size_t na,
                      run_counts *rc) {
  expr_assignment *m = NULL;
  rc->ops++;
  if (qs_get_model(s, pc, n, arrays, na, &m) == QS_UNKNOWN) rc->unknown++;
  expr_assignment_free(m);
}

/* The arrays of one buffer length, made once: names are unique in a run. */
typedef struct program {
  unsigned L;
  expr_array *S, *N, *T, *KA;
} program;

static expr_array *new_array(const char *prefix, unsigned L, uint64_t capacity, bool input) {
  char name[32];
  snprintf(name, sizeof name, "%s%u", prefix, L);
  expr *size = expr_const(64, capacity);
  expr_array *a = expr_array_new(name, size, capacity, input, NULL);
  expr_unref(size);
  return a;
}

/* One program run for buffer length L. */
static void explore(qsolver *s, const program *p, unsigned char accept, run_counts *rc) {
  unsigned L = p->L;
  expr_array *S = p->S, *N = p->N, *T = p->T, *KA = p->KA;
  expr_array *arrays[3] = {S, N, T};
  expr *n = pooled(expr_read_le(N, NULL, c64(0), 8));

  size_t cap = 4 * L + 32, npc = 0;
  expr **pc = calloc(cap, sizeof *pc);
  if (!pc) abort();
  /* The unrelated prefix: t is a non-empty, lower-case 8-byte word. */
  for (unsigned k = 0; k < 8; k++) {
    expr *tk = byte(T, c64(k));
    pc[npc++] = pooled(expr_ule(c8('a'), tk));
    pc[npc++] = pooled(expr_ule(tk, c8('z')));
  }
  pc[npc++] = pooled(expr_ule(n, c64(L)));
  size_t prefix = npc;

  for (unsigned i = 0;; i++) {
    expr *in = pooled(expr_ult(c64(i), n)), *out = pooled(expr_not(in));
    bool may_in = false, may_out = false;
    may(s, pc, npc, in, &may_in, rc);
    may(s, pc, npc, out, &may_out, rc);
    if (may_out) { /* the path that leaves because i = n */
      pc[npc] = out;
      test_case(s, pc, npc + 1, arrays, 3, rc);
    }
    if (!may_in) break;
    pc[npc++] = in;
    expr *si = byte(S, c64(i));
    expr *hit = pooled(expr_eq(si, c8(accept))), *miss = pooled(expr_not(hit));
    bool may_hit = false, may_miss = false;
    may(s, pc, npc, hit, &may_hit, rc);
    may(s, pc, npc, miss, &may_miss, rc);
    if (may_miss) { /* the path that leaves at a byte not accepted */
      pc[npc] = miss;
      test_case(s, pc, npc + 1, arrays, 3, rc);
    }
    if (!may_hit) break;
    pc[npc++] = hit;
  }

  /* The PAT-merged exits: ∀j∈[0,K−1]. s[j] = c, with K = n (all accepted) or K < n and
   * s[K] ≠ c; then the questions a caller of memspn asks about the count K. */
  expr *k = pooled(expr_read_le(KA, NULL, c64(0), 8));
  expr *j = pooled(expr_bvar_fresh(64, "j"));
  expr *all = pooled(expr_forall(j, c64(0), pooled(expr_sub(k, c64(1))),
                                 pooled(expr_eq(pooled(expr_read(S, NULL, j)), c8(accept)))));
  expr *merged[2][4] = {
      {all, pooled(expr_eq(k, n)), pooled(expr_ule(k, c64(L))), NULL},
      {all, pooled(expr_ult(k, n)), pooled(expr_ne(pooled(expr_read(S, NULL, k)), c8(accept))),
       pooled(expr_ule(k, c64(L)))}};
  size_t nmerged[2] = {3, 4};
  for (unsigned e = 0; e < 2; e++) {
    expr *mpc[64];
    size_t m = 0;
    for (size_t q = 0; q < prefix; q++) mpc[m++] = pc[q];
    for (size_t q = 0; q < nmerged[e]; q++) mpc[m++] = merged[e][q];
    bool b;
    may(s, mpc, m, pooled(expr_ult(c64(L / 2), k)), &b, rc);
    may(s, mpc, m, pooled(expr_eq(k, c64(0))), &b, rc);
    expr_array *marrays[4] = {S, N, T, KA};
    test_case(s, mpc, m, marrays, 4, rc);
  }
  free(pc);
}

typedef struct config {
  const char *name;
  bool independence, validity, cex;
} config;

int main(int argc, char **argv) {
  uint64_t seed = argc > 1 ? strtoull(argv[1], NULL, 0) : 1;
  static const unsigned lengths[] = {4, 8, 16, 32, 64, 96};
  static const config configs[] = {
      {"full chain", true, true, true},           {"no independence", false, true, true},
      {"no validity cache", true, false, true},   {"no cex cache", true, true, false},
      {"no optional stage", false, false, false},
  };
  size_t live = expr_live_count();
  enum { NPROG = sizeof lengths / sizeof lengths[0] };
  program progs[NPROG];
  for (size_t l = 0; l < NPROG; l++) {
    unsigned L = lengths[l];
    progs[l] = (program){L, new_array("s", L, L, true), new_array("n", L, 8, true),
                         new_array("t", L, 8, true), new_array("K", L, 8, false)};
  }
  double full_time = 0;
  printf("bench_qsolver: memspn family, lengths 4..96, 2 repeats, seed %" PRIu64 "\n", seed);
  printf("%-20s %8s %8s %8s %9s %7s\n", "configuration", "ops", "to z3", "unknown", "time (s)",
         "ratio");
  for (size_t c = 0; c < sizeof configs / sizeof configs[0]; c++) {
    qs_options o = qs_default_options();
    o.independence = configs[c].independence;
    o.validity_cache = configs[c].validity;
    o.cex_cache = configs[c].cex;
    qsolver *s = qs_new(&o);
    run_counts rc = {0};
    rng_state = seed;
    double t0 = now();
    for (unsigned rep = 0; rep < 2; rep++) {
      rng_state = seed; /* the repeat asks the very same questions */
      for (size_t l = 0; l < NPROG; l++) explore(s, &progs[l], (unsigned char)('a' + rnd(3)), &rc);
    }
    double t = now() - t0;
    if (c == 0) full_time = t;
    const qs_stage_stats *z3 = qs_stats(s, "z3");
    printf("%-20s %8" PRIu64 " %8" PRIu64 " %8" PRIu64 " %9.3f %7.2f\n", configs[c].name, rc.ops,
           z3->queries, rc.unknown, t, full_time > 0 ? t / full_time : 0.0);
    if (c == 0) {
      json_writer j;
      json_init(&j);
      json_object_begin(&j);
      qs_write_stats(&j, s);
      json_object_end(&j);
      const char *text = json_text(&j, NULL);
      printf("  the solver's stats.json members: %s", text ? text : "(out of memory)\n");
      json_free(&j);
      /* not in stats.json: the formulas the slicing stages dropped */
      for (size_t k = 0; k < qs_stage_count(s); k++)
        if (qs_stage_at(s, k)->formulas_dropped)
          printf("  %s dropped %" PRIu64 " formulas\n", qs_stage_at(s, k)->name,
                 qs_stage_at(s, k)->formulas_dropped);
    }
    qs_free(s);
    release_pool();
  }
  free(pool);
  for (size_t l = 0; l < NPROG; l++) {
    expr_array_unref(progs[l].S);
    expr_array_unref(progs[l].N);
    expr_array_unref(progs[l].T);
    expr_array_unref(progs[l].KA);
  }
  if (expr_live_count() != live) {
    fprintf(stderr, "bench_qsolver: %zu expressions leaked\n", expr_live_count() - live);
    return 1;
  }
  return 0;
}
