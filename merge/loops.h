/*
 * loops — the natural loops of a decoded function: dominators over its blocks, back edges
 * (t → h with h dominating t), each loop's body (h and every block that reaches t without
 * passing h; back edges sharing a header make one loop), and for every block its innermost
 * loop. Merge regions are opened on these loops.
 *
 * Contract: merge_loops_find never fails (out of memory aborts); blocks unreachable from the
 * entry belong to no loop. The result is independent of the function's later use (but for
 * the `barren` counts and `calls` flags merge/region.c keeps in it) and owned by the caller
 * (merge_loops_free).
 */
#ifndef SYMQ_MERGE_LOOPS_H
#define SYMQ_MERGE_LOOPS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"

#define MERGE_NO_LOOP UINT32_MAX

typedef struct merge_loop {
  uint32_t header; /* block */
  uint32_t parent; /* the innermost loop strictly containing this one, or MERGE_NO_LOOP */
  uint32_t size;   /* blocks in the body */
  uint8_t *body;   /* nblocks flags */
  uint32_t barren; /* merge/region.c: released regions of this loop that had states to merge
                      at an exit and merged none (zero when found) */
  int8_t calls;    /* merge/region.c: does the body call a defined function (-1: not known) */
} merge_loop;

typedef struct merge_loops {
  uint32_t nblocks;
  uint32_t *innermost; /* per block: a loop index or MERGE_NO_LOOP */
  merge_loop *loops;   /* ordered by header block */
  uint32_t nloops;
} merge_loops;

merge_loops *merge_loops_find(const ir_function *fn);
void merge_loops_free(merge_loops *l); /* NULL is allowed */

static inline bool merge_loop_contains(const merge_loops *l, uint32_t loop, uint32_t block) {
  return loop != MERGE_NO_LOOP && block < l->nblocks && l->loops[loop].body[block];
}

/* The block holding instruction pc. */
uint32_t merge_block_of(const ir_function *fn, uint32_t pc);

#endif
