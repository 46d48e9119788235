/*
 * relevance — which registers of a decoded function can still matter before each
 * instruction: the strongly live registers (faint-variable analysis). A register is relevant
 * when, on some path from that point, its value reaches an *observing* use before it is
 * redefined: a branch or switch condition, an address, a stored value, a call's callee or
 * argument, a returned value, a division's or shift's operands (they are checked), or any
 * instruction this analysis does not know to be pure. A pure instruction (arithmetic,
 * comparison, select, casts, gep, aggregates, bit counting) makes its operands relevant only
 * when its result is. Phi moves likewise: a source is relevant at the end of its predecessor
 * only when its destination is relevant at the target's entry.
 *
 * What it is for (docs/interpolation.md): a state is subsumed only when its relevant
 * registers hold the very same expressions as the subsuming node's; the others (a counter no
 * check reads) may differ, because nothing below the point can observe them.
 *
 * Contract: computed once per function (never fails; out of memory aborts); the result does
 * not keep the function. Over-approximate by construction: unknown opcodes observe.
 */
#ifndef SYMQ_PRUNE_RELEVANCE_H
#define SYMQ_PRUNE_RELEVANCE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"

typedef struct prune_relevance {
  uint32_t ninsts, nregs, words; /* words: 64-bit words per set */
  uint64_t *before;              /* ninsts sets: relevant before instruction i runs */
} prune_relevance;

prune_relevance *prune_relevance_compute(const ir_function *fn);
void prune_relevance_free(prune_relevance *r); /* NULL is allowed */

/* Whether reg is relevant just before instruction inst runs. */
static inline bool prune_relevant_before(const prune_relevance *r, uint32_t inst, uint32_t reg) {
  return (r->before[(uint64_t)inst * r->words + reg / 64] >> (reg % 64)) & 1;
}
/* Whether op passes relevance through its result only (exposed for the unit test). */
bool prune_opcode_is_pure(ir_opcode op);

#endif
