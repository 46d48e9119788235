/*
 * data — which registers of a decoded function are *data*: values that reach nothing but
 * integer arithmetic (divisions and shifts included: their checks are solver questions),
 * comparisons, selects, integer casts, conditional branches and phi moves — and, through
 * those, only other data registers. A data register's value never becomes an address, a
 * stored byte, a call's argument, a returned value or a switch's condition.
 *
 * What it is for (--interpolate=wp, docs/interpolation.md "Interpolants over program
 * variables"): at a node, each relevant data register's value e is replaced by a fresh
 * variable V with the conjunct V = e, so the node's subtree computes over V and its
 * interpolant is a formula over the *variable* (000 Fig. 6's BackProp over program
 * variables) rather than over the value the register happened to hold: a later state whose
 * register holds another value is compared through the interpolant (V ↦ its value), not
 * register for register. The restriction to data keeps every address, stored byte and
 * call argument what it was, so no pointer is ever made symbolic by the abstraction and
 * memory is compared as before.
 *
 * Contract: computed once per function (never fails; out of memory aborts); the result does
 * not keep the function. Conservative: any use it does not know makes a register not data.
 */
#ifndef SYMQ_PRUNE_DATA_H
#define SYMQ_PRUNE_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"

typedef struct prune_data {
  uint32_t nregs;
  uint64_t *bits; /* bit per register: data */
} prune_data;

prune_data *prune_data_compute(const ir_function *fn);
void prune_data_free(prune_data *d); /* NULL is allowed */

static inline bool prune_is_data(const prune_data *d, uint32_t reg) {
  return reg < d->nregs && (d->bits[reg / 64] >> (reg % 64)) & 1;
}

#endif
