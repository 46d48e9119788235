/*
 * synth — formula-pattern synthesis (pat-merge.md §5, the paper's §3.3): terms and formulas
 * with one free integer variable, fitted to the conditions and values of a regular partition.
 *
 * A template t(i) fits points (at_1, e_1) … (at_n, e_n) when instantiating i := at_j gives
 * exactly e_j (pointer equality of interned expressions: the instantiation is rebuilt by the
 * same simplifying constructors). Templates are found by
 *   - identity: every e_j is the same expression (a condition constant across iterations, a
 *     single iteration, a value all constituents share) — t(i) = e_1;
 *   - affine constants: two points whose expressions are syntactically identical except for
 *     constants give, for each differing constant c, a and b with c = a·i + b in the constant's
 *     width, solved exactly in modular arithmetic (the pair closest together is tried first);
 *     the template replaces c by a·i + b, and every other point is then checked.
 * Nothing is guessed: a template is returned only when every point checks.
 *
 * Contract: the bound variable i is an EXPR_BVAR of width 64 (borrowed); returned expressions
 * are new references; NULL means "no template".
 */
#ifndef SYMQ_MERGE_SYNTH_H
#define SYMQ_MERGE_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"

typedef struct synth_point {
  uint64_t at;
  expr *e;
} synth_point;

expr *synth_fit(const synth_point *points, size_t n, expr *bvar);

/* t(value): the template with the bound variable replaced by `value` (width 64). */
expr *synth_at(expr *tmpl, expr *bvar, expr *value);

/* Where a condition c(i) that is monotone in i over [1, K], for any K ≤ hi, is hardest to meet, so
 * that ∀i. 1 ≤ i ≤ K → c(i) ⟺ K = 0 ∨ c(extreme): c is f(i) < x, f(i) ≤ x, x < f(i) or
 * x ≤ f(i) (unsigned), negated or not, x closed, f(i) = i or a constant plus i that does not
 * wrap on [1, hi], i possibly truncated to a narrower width that holds hi (a 32-bit counter)
 * — a loop condition or a bound check on the iteration's index. */
typedef enum synth_extreme { SYNTH_NOT_MONOTONE, SYNTH_AT_ONE, SYNTH_AT_HI } synth_extreme;
synth_extreme synth_monotone(const expr *c, const expr *bvar, uint64_t hi);

/* A leaf of a regular partition: conds[q] is the condition of the node at word position q + 1
 * (position 0 is the root, whose condition is true); it matched p·u^count·s. */
typedef struct synth_leaf {
  expr *const *conds;
  size_t nconds;
  uint64_t count;
} synth_leaf;

/* A formula pattern (φ0, φ(i), ψ(i)): tail(leaf_j) ≡ φ0 ∧ φ(1) ∧ … ∧ φ(m_j) ∧ ψ(m_j), checked
 * conjunct by conjunct. φ and ψ are over `bvar`. */
typedef struct synth_formula {
  expr *phi0, *phi, *psi;
} synth_formula;

/* The formula pattern of leaves that matched (p, u, s) with |p| = nprefix (root included),
 * |u| = ncore, |s| = nsuffix; false when some position has no template. */
bool synth_formula_pattern(const synth_leaf *leaves, size_t n, size_t nprefix, size_t ncore,
                           size_t nsuffix, expr *bvar, synth_formula *out);
void synth_formula_free(synth_formula *f);

#endif
