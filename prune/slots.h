/*
 * slots — which stack allocations of a function are *private slots*: an alloca of a constant
 * size whose address (or a move of it: a bitcast) is used only as the address of a load or
 * a store, or as the object a direct call to klee_make_symbolic / symq_make_symbolic makes
 * symbolic. SV-COMP's
 * __VERIFIER_nondet_X (runtime/lib/svcomp.c: a local made symbolic and returned) allocates
 * exactly one; so do -O0 scalar locals.
 *
 * What it is for (docs/interpolation.md): an allocation below a node normally leaves the
 * node without an interpolant, because the object's address (a constant chosen by the run's
 * allocator) differs in another subtree and could make that subtree behave differently. A
 * private slot's address cannot: it never reaches a register other than the alloca's own, an
 * arithmetic, a comparison, a stored value, a call or a phi; its loads and stores resolve to
 * the slot itself without a solver request whatever the address is; and the frame unbinds it
 * on return. So two subtrees that differ only in such addresses behave the same.
 *
 * Contract: computed once per function from the decoded program (never fails); the result
 * does not keep the program. Conservative: any other use, a symbolic count or an indirect
 * call makes the alloca not private.
 */
#ifndef SYMQ_PRUNE_SLOTS_H
#define SYMQ_PRUNE_SLOTS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"

typedef struct prune_slots {
  uint32_t ninsts;
  uint64_t *private_at; /* bit per instruction: an alloca that is a private slot */
} prune_slots;

prune_slots *prune_slots_compute(const ir_program *prog, const ir_function *fn);
void prune_slots_free(prune_slots *s); /* NULL is allowed */

/* Whether instruction inst of the function is an alloca that is a private slot. */
static inline bool prune_slot_is_private(const prune_slots *s, uint32_t inst) {
  return inst < s->ninsts && (s->private_at[inst / 64] >> (inst % 64)) & 1;
}

#endif
