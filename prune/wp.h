/*
 * wp — weakest-precondition interpolants (`--interpolate=wp`; seeds 000 Fig. 6–7 and 002's
 * TracerX-WP): the conjunctive BackProp of an interpolant Ψ over the assumes of a path, with
 * the ABDUCTION of Fig. 7 at each one.
 *
 * In symq's states every register and memory byte is already an expression over the inputs
 * (assignments were substituted on the way down: rule (2b) is the identity), so a path
 * between two points is the sequence of conjuncts it added to the path condition, each an
 * assume(e). BackProp(assume(e), Ψ) is rule (5b), ABDUCTION(φ, e, Ψ), for every e (its
 * contract needs only φ ∧ e ⊨ Ψ, which holds whether or not φ ⊨ e):
 *   1. φ̄ = CORE(φ ∧ e, Ψ): the conjuncts of φ connected to Ψ through shared cells
 *      (prune/core.h), then minimized as Fig. 7's loop does — a conjunct is dropped when
 *      the rest with e still implies Ψ (one solver query each, up to PRUNE_WP_CORE_MAX
 *      conjuncts; a larger core is kept whole);
 *   2. ⟨φ_v, φ_v̄⟩ = SEPARATE(φ̄, cells(e)); ⟨Ψ_v, Ψ_v̄⟩ = SEPARATE(Ψ, cells(φ_v ∧ e))
 *      (cells are expr_collect_cells': an input byte, or a whole array read at a symbolic
 *      index — the seeds' "variables");
 *   3. Ψ_v empty: Ψ itself (e says nothing about it); otherwise φ_v ∧ Ψ_v̄.
 * The result W of step 3 is checked (one query: W ∧ e ⊨ Ψ); when the syntactic separation
 * did not give that, W is φ̄, which does by construction. When e, φ̄ or Ψ holds a ∀ (a
 * merged state's path condition), no query is made: W is φ̄ unminimized (Ψ itself when Ψ_v
 * is empty) — such queries fall outside the quantified procedure's fragment as often as not,
 * and Z3 then spends its whole time limit on them. So every step keeps the invariant
 * that makes the interpolant sound: φ ⊨ W and W ∧ e ⊨ Ψ.
 *
 * A fact (an unsat question pc ∧ q) contributes Ψ = {¬q} at its point; the checks
 * themselves, not the conjuncts that made them hold, travel up — the weaker the conjunct,
 * the more states it subsumes (a branch whose own condition implies the check contributes
 * nothing above it).
 *
 * Contract: pc and psi are borrowed; the result is a malloc'd array of new references
 * (*count of them, possibly 0 = true). The solver's preconditions hold: every constraint
 * set asked about is a subset of a feasible path condition.
 */
#ifndef SYMQ_PRUNE_WP_H
#define SYMQ_PRUNE_WP_H

#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

enum { PRUNE_WP_CORE_MAX = 16 };

typedef struct prune_wp_stats {
  uint64_t steps;      /* assumes Ψ was pushed back over */
  uint64_t passed;     /* steps where Ψ passed unchanged (Ψ_v empty) */
  uint64_t abduced;    /* steps that returned φ_v ∧ Ψ_v̄ */
  uint64_t fallbacks;  /* steps whose φ_v ∧ Ψ_v̄ did not imply Ψ with e: φ̄ instead */
  uint64_t queries;    /* solver queries made */
  uint64_t quantified; /* steps over a ∀ (in e, φ̄ or Ψ): φ̄ without a query */
} prune_wp_stats;

/* Ψ pushed back over the assumes pc[from .. to) of a path whose conjuncts are pc[0 .. to)
 * (pc[0 .. to) ⊨ Ψ): W with pc[0 .. from) ⊨ W and W ∧ pc[from .. to) ⊨ Ψ. */
expr **prune_wp_backprop(qsolver *solver, expr *const *pc, size_t from, size_t to, expr *const *psi,
                         size_t n, size_t *count, prune_wp_stats *stats);

#endif
