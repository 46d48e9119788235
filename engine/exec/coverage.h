/*
 * coverage — coverage and nurs:covnew distances: which instructions the run has executed,
 * the user's source lines they cover, and KLEE's covnew weight of a state (its distance to
 * uncovered code along its call stack). Internal to engine/exec.
 *
 * Contract
 *   - coverage_init makes the tables for every function of prog (borrowed: it outlives
 *     them); coverage_free releases them.
 *   - coverage_visit marks st's current instruction executed, once per instruction the
 *     interpreter runs; it keeps st->since_new_coverage.
 *   - coverage_lines counts distinct (function, line) pairs of the user's code (not symq's
 *     runtime): the covered ones, or all of them.
 *   - coverage_weight is a search_hooks weight (search.h): ctx is the coverage, state_ptr a
 *     state. It recomputes, lazily, the distances of functions whose coverage changed.
 */
#ifndef SYMQ_COVERAGE_H
#define SYMQ_COVERAGE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"
#include "engine/core/state.h"

typedef struct coverage {
  const ir_program *prog;
  uint8_t **covered;       /* per function, per instruction */
  uint32_t **to_uncovered; /* per function, per instruction, the distance in instructions
                              to the nearest uncovered one (DIST_NONE: none) */
  uint32_t **to_return;    /* … and to the function's return */
  bool *distances_stale;   /* per function: its coverage changed since they were computed */
} coverage;

void coverage_init(coverage *cov, const ir_program *prog);
void coverage_free(coverage *cov);

/* Inline: the interpreter calls it before every instruction. */
static inline void coverage_visit(coverage *cov, state *st) {
  state_frame *f = state_top(st);
  uint8_t *bits = cov->covered[f->func];
  if (!bits[f->pc]) {
    bits[f->pc] = 1;
    cov->distances_stale[f->func] = true;
    st->since_new_coverage = 0;
  } else {
    st->since_new_coverage++;
  }
}

uint64_t coverage_lines(const coverage *cov, bool covered_only);
double coverage_weight(void *state_ptr, void *ctx);

#endif
