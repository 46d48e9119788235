/*
 * bench_support — what the solver benchmarks (bench_qsolver, bench_quant) share: a monotonic
 * clock, a seeded generator (the same seed gives the same queries), and a pool that holds one
 * reference to every expression a configuration builds, released together.
 */
#ifndef SYMQ_EVAL_BENCH_SUPPORT_H
#define SYMQ_EVAL_BENCH_SUPPORT_H

#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#include "engine/core/expr.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t rng_state;
static unsigned rnd(unsigned n) {
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (unsigned)((rng_state >> 33) % n);
}

static expr **pool;
static size_t npool, cap_pool;
/* Takes e's reference into the pool and returns e. */
static expr *pooled(expr *e) {
  if (npool == cap_pool) {
    cap_pool = cap_pool ? cap_pool * 2 : 1024;
    pool = realloc(pool, cap_pool * sizeof *pool);
    if (!pool) abort();
  }
  return pool[npool++] = e;
}
static void release_pool(void) {
  for (size_t i = 0; i < npool; i++) expr_unref(pool[i]);
  npool = 0;
}

#endif
