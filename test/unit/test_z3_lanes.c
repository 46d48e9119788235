/*
 * test_z3_lanes.c — the Z3 stage's incremental lanes under interleaved request sequences:
 * each request lane keeps several solvers (qsolver/z3_backend.c, lane_pick), each holding
 * the formulas of its last request as scopes. Five sequences of growing paths (more than a
 * lane has solvers, so a request sharing nothing replaces another sequence's scopes) ask in
 * turn; every answer is checked against the arithmetic and against the same questions asked
 * one sequence at a time and without incremental scopes, and the interleaved run asked
 * again on a new solver costs the same solver effort (qs_effort is deterministic).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

enum { SEQS = 5, STEPS = 12 };

/* Sequence s's terms: x·y over two 16-bit-extended input bytes of its own array (so that
 * independence keeps each sequence's requests apart), and its path's formulas
 * x·y ≠ c (c = 0..STEPS): after c + 1 of them, x·y = c + 1 is possible (x = 1) and
 * x·y < c + 1 is not. */
typedef struct seq {
  expr_array *arr;
  expr *prod, *path[STEPS], *can[STEPS], *cannot[STEPS];
} seq;

static expr *c16(uint64_t v) { return expr_const(16, v); }

static void seq_make(seq *q, int s) {
  char name[16];
  snprintf(name, sizeof name, "in%d", s);
  expr *size = expr_const(64, 2);
  q->arr = expr_array_new(name, size, 2, true, NULL);
  expr_unref(size);
  expr *idx[2], *byte[2];
  for (int b = 0; b < 2; b++) {
    idx[b] = expr_const(64, (uint64_t)b);
    expr *rd = expr_read(q->arr, NULL, idx[b]);
    byte[b] = expr_zext(rd, 16);
    expr_unref(rd);
    expr_unref(idx[b]);
  }
  q->prod = expr_mul(byte[0], byte[1]);
  expr_unref(byte[0]);
  expr_unref(byte[1]);
  for (int c = 0; c < STEPS; c++) {
    expr *k = c16((uint64_t)c), *k1 = c16((uint64_t)c + 1);
    q->path[c] = expr_ne(q->prod, k);
    q->can[c] = expr_eq(q->prod, k1);
    q->cannot[c] = expr_ult(q->prod, k1);
    expr_unref(k);
    expr_unref(k1);
  }
}

static void seq_free(seq *q) {
  for (int c = 0; c < STEPS; c++) {
    expr_unref(q->path[c]);
    expr_unref(q->can[c]);
    expr_unref(q->cannot[c]);
  }
  expr_unref(q->prod);
  expr_array_unref(q->arr);
}

/* Asks sequence q's two questions at step c: the path's first c + 1 formulas and one more. */
static void ask(qsolver *s, const seq *q, int c, qs_status out[2]) {
  expr *f[STEPS + 1];
  for (int i = 0; i <= c; i++) f[i] = q->path[i];
  f[c + 1] = q->can[c];
  out[0] = qs_check_sat(s, f, (size_t)c + 2);
  f[c + 1] = q->cannot[c];
  out[1] = qs_check_sat(s, f, (size_t)c + 2);
}

static qsolver *solver(bool incremental) {
  qs_options o = qs_default_options();
  o.cex_cache = o.validity_cache = false; /* every question reaches Z3 */
  o.incremental = incremental;
  return qs_new(&o);
}

int main(void) {
  size_t nodes = expr_live_count();
  seq q[SEQS];
  for (int s = 0; s < SEQS; s++) seq_make(&q[s], s);

  /* interleaved: step by step, every sequence in turn */
  qs_status inter[SEQS][STEPS][2], apart[SEQS][STEPS][2], plain[SEQS][STEPS][2];
  qsolver *a = solver(true), *b = solver(true), *c = solver(false), *d = solver(true);
  for (int k = 0; k < STEPS; k++)
    for (int s = 0; s < SEQS; s++) ask(a, &q[s], k, inter[s][k]);
  /* one sequence after another, on a fresh solver, and without scopes */
  for (int s = 0; s < SEQS; s++)
    for (int k = 0; k < STEPS; k++) {
      ask(b, &q[s], k, apart[s][k]);
      ask(c, &q[s], k, plain[s][k]);
    }
  for (int s = 0; s < SEQS; s++)
    for (int k = 0; k < STEPS; k++) {
      CHECK_EQ_U64(inter[s][k][0], QS_SAT);
      CHECK_EQ_U64(inter[s][k][1], QS_UNSAT);
      CHECK_EQ_U64(apart[s][k][0], inter[s][k][0]);
      CHECK_EQ_U64(apart[s][k][1], inter[s][k][1]);
      CHECK_EQ_U64(plain[s][k][0], inter[s][k][0]);
      CHECK_EQ_U64(plain[s][k][1], inter[s][k][1]);
    }
  const qs_stage_stats *z = qs_stats(a, "z3");
  CHECK(z != NULL);
  if (z) CHECK_EQ_U64(z->answered, 2 * SEQS * STEPS); /* each question reached Z3 */

  /* determinism: the interleaved run again gives the same effort */
  qs_status again[2];
  for (int k = 0; k < STEPS; k++)
    for (int s = 0; s < SEQS; s++) ask(d, &q[s], k, again);
  CHECK_EQ_U64(qs_effort(d), qs_effort(a));

  qs_free(a);
  qs_free(b);
  qs_free(c);
  qs_free(d);
  for (int s = 0; s < SEQS; s++) seq_free(&q[s]);
  CHECK_EQ_U64(expr_live_count(), nodes);
  return check_exit();
}
