/*
 * liveness — which registers of a decoded function are live before each instruction (for
 * incremental merging, pat-merge.md §6: two snapshots at one instruction must agree on every
 * register live there). A standard backward analysis over blocks to a fixpoint, then per
 * instruction: live_in(i) = uses(i) ∪ (live_out(i) − def(i)). Phi-aware: phis are the moves
 * of an edge (engine/core/ir.h), read in parallel, so across edge e into block t
 * live_out(source) ⊇ (live_in(t) − dsts(e)) ∪ srcs(e) — a phi's source is live at the end
 * of its own predecessor only, and its destination is not live before the edge.
 *
 * Contract: computed once per function (merge_liveness_compute never fails; out of memory
 * aborts); the result does not keep the function and is freed with merge_liveness_free.
 * Arguments are defined at entry; a register read before any definition on some path
 * (impossible in SSA) would show as live at the entry.
 */
#ifndef SYMQ_MERGE_LIVENESS_H
#define SYMQ_MERGE_LIVENESS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"

typedef struct merge_liveness {
  uint32_t ninsts, nregs, words; /* words: 64-bit words per set */
  uint64_t *before;              /* ninsts sets of nregs bits: live before instruction i */
  uint64_t *block_out;           /* nblocks sets: live after the block's terminator, before
                                    its edges' moves */
  uint32_t nblocks;
} merge_liveness;

merge_liveness *merge_liveness_compute(const ir_function *fn);
void merge_liveness_free(merge_liveness *l); /* NULL is allowed */

/* Sets of registers: a bit per register (nregs / 64 + 1 words), for the analyses of merge/. */
static inline void merge_reg_add(uint64_t *s, uint32_t reg) {
  s[reg / 64] |= UINT64_C(1) << (reg % 64);
}
static inline bool merge_reg_in(const uint64_t *s, uint32_t reg) {
  return (s[reg / 64] >> (reg % 64)) & 1;
}

/* Is reg live just before instruction inst runs? */
static inline bool merge_live_before(const merge_liveness *l, uint32_t inst, uint32_t reg) {
  return (l->before[(uint64_t)inst * l->words + reg / 64] >> (reg % 64)) & 1;
}
/* How many registers are live before inst (for statistics and tests). */
uint32_t merge_live_count(const merge_liveness *l, uint32_t inst);

#endif
