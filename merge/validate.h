/*
 * validate — --validate-merges: Theorem 3.8 (pat-merge.md §5) checked with the solver for
 * one merge. A merged state m replaces constituents s1..sn; witness_j (true for a CFG merge;
 * for a pattern merge e.g. K = m_j) picks constituent j's share of m. The checks:
 *   1. pc_j ∧ witness_j implies every constraint of m's pc (each constituent is covered);
 *   2. m's pc implies ∨_j (tail_j ∧ witness_j) (m covers nothing else);
 *   3. under pc_j ∧ witness_j, every merged value equals constituent j's value (a value set
 *      in the merged state and unset in a constituent, or the reverse, fails outright).
 * Since pc_j implies m's pc (check 1), check 3 is "under m's pc, where constituent j's
 * condition holds, the merged value is j's": what the ite/guard structure must give. A
 * failure (or a solver `unknown`) is counted and reported on stderr with m's id, the first
 * check that failed ("path condition: …" for 1 and 2, "value: …" for 3) and, for an
 * `unknown`, that it was not proved and the solver's reason (qs_last_reason) — except an
 * unknown because the run's own deadline cut the check (QS_REASON_RUN_LIMIT): that merge is
 * counted as unchecked (stats validation_unchecked) with a warning, not as a failure.
 *
 * How each check is decided: first by the structure the merge was built from — a
 * constituent's path condition holds its own branch literals, so the merged disjunction (flat
 * or along the tree) and the tails evaluate by and/or/not over them, a disjunction in m's pc
 * is split into its cases (check 2: each case implies some tail), and a merged value's ites
 * are resolved along the path (check 3) — a proof wherever it says "holds"; what it leaves
 * open (a literal the path implies without holding it, a ∀, a value not an ite) goes to the
 * solver with the decided parts replaced by their truth. So a merge of thousands of
 * constituents is checked by thousands of small steps, not one query Z3 cannot finish, and a
 * wrong merge is refuted as before (test/unit/test_merge_validate.c).
 *
 * Contract: everything is borrowed; values are recorded with merge_values_add while merging.
 */
#ifndef SYMQ_MERGE_VALIDATE_H
#define SYMQ_MERGE_VALIDATE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/core/state.h"
#include "merge/strategy.h"

/* The merged values of one merge with their constituents' values (borrowed expressions). */
typedef struct merge_values {
  struct merge_value {
    expr *merged;
    expr **parts; /* one per constituent */
  } * items;
  size_t n, cap, nparts;
  size_t unset; /* values set on one side only (each a failure) */
} merge_values;

void merge_values_add(merge_values *v, expr *merged, expr *const *parts);
void merge_values_free(merge_values *v);

/* Checks m against group[0..n) (tails[j]: constituent j's constraints since region entry;
 * witness NULL means true for every j). Returns true when every check holds. */
bool merge_validate(merge_ctx *mc, const state *m, state *const *group, expr *const *tails,
                    expr *const *witness, size_t n, const merge_values *values);

#endif
