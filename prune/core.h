/*
 * core — the deletion interpolant's building block: which conjuncts of a path condition an
 * unsatisfiable question needs. symq's own core extraction, without a solver call: the
 * conjuncts connected to the question through shared cells (expr_collect_cells: a byte of
 * an array read at a constant index, or a whole array), transitively.
 *
 * Why it is a core: when pc is satisfiable and pc ∧ q is not, split pc into S (connected to
 * q) and R (the rest). R shares no cell with S ∪ q and is satisfiable (it is part of pc), so
 * a model of S ∧ q would extend by R's to a model of pc ∧ q; hence S ∧ q is unsatisfiable.
 * Not minimal: a conjunct sharing a cell without being needed stays in.
 *
 * Contract: pc and query are borrowed; out receives indices into pc, increasing, and the
 * count is returned (out must hold n entries).
 */
#ifndef SYMQ_PRUNE_CORE_H
#define SYMQ_PRUNE_CORE_H

#include <stddef.h>

#include "engine/core/expr.h"

size_t prune_core_slice(expr *const *pc, size_t n, expr *const *query, size_t nquery, size_t *out);

#endif
