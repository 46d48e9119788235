/*
 * testmodel — the bytes a test holds, made a function of the path's formulas rather than of
 * the solver's history (issue 24: `--jobs` gives the single run's tests byte for byte).
 *
 * The solver's model of a path depends on the queries asked before (the counterexample
 * cache hands back an earlier model that also fits; Z3's state): a part of an exploration
 * run alone may get another model for the same path than the single run. out_canonical_model
 * moves the model towards a canonical point by evaluation only, no solver call:
 *
 *   - arrays in the order given, bytes in index order; a byte that is not 0 is set to the
 *     least value v ≤ its current one that a search finds (0 first, then steps down by 1,
 *     2, 4… and a bisection) at which every formula whose value reads that byte holds;
 *   - a formula is counted as reading a byte by expr_collect_value_cells (a read at a
 *     symbolic index or through writes reads the whole array); formulas reading no byte of
 *     a changed array are untouched, so a change never makes a formula false that was true:
 *     the path condition holds under the result wherever it held under the model
 *     (evaluation's semantics, expr_eval);
 *   - a byte read by a disjunction (a formula whose top is a boolean `or` or `ite`: the paths
 *     a merge joined, `a || b` without a branch) keeps the model's value: lowered, every
 *     test would take the least disjunct ('a' of s[0] = 'a' ∨ s[0] = 'b'), and a replay
 *     would no longer cover the native branches the other one takes;
 *   - when a formula reads an array the model does not bind (neither one of `arrays` nor a
 *     constant one: a merge's K evaluates as 0 there), the model is left as it is;
 *   - deterministic: the result is a function of (formulas, model). It is the same for two
 *     models whenever each byte's allowed values, given the bytes before it, form an interval
 *     reaching down to the least one (v > c, v ≤ c, v ≠ c, n ≤ 5 ∧ n > k…): what the e2e
 *     drivers and the bench's paths need. Coupled bytes (x + y = 10) keep the model's choice.
 *   - short paths only: a path of more than OUT_CANONICAL_MAX_FORMULAS formulas keeps the
 *     solver's model (returns 0). The search walks and sorts every formula's cells per test,
 *     O(path · log path): at capacity 2,048 the string scan (eval/bench_capacity.py) spent
 *     3.7x the CPU time of the run without it. The byte-exact --jobs tests hold on paths up
 *     to this length (test/dist's drivers, bench_dist's 21-byte tree);
 *   - bounded: `budget` counts formula evaluations (64 for one holding a forall, whose range
 *     evaluation expands up to 4,096 values); when it runs out the remaining bytes keep the
 *     model's values. Counted, not timed: the same run gives the same tests.
 *   - the cells each formula reads are remembered by the formula's id (a path's formulas are
 *     its parent's plus a few: each is walked once, not at every test); the memo starts
 *     over past 4M cells. It caches a function of the formula only: no history enters.
 *
 * Returns the number of bytes changed.
 */
#ifndef SYMQ_TESTMODEL_H
#define SYMQ_TESTMODEL_H

#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"

/* The budget interp gives each test (formula evaluations). */
#define OUT_CANONICAL_BUDGET ((uint64_t)4096)
/* The longest path condition made canonical (formulas). */
#define OUT_CANONICAL_MAX_FORMULAS 256

typedef struct out_canon out_canon; /* the memo of formulas' cells; one per run */

out_canon *out_canon_new(void);
void out_canon_free(out_canon *c); /* NULL is allowed */

size_t out_canonical_model(out_canon *c, expr *const *formulas, size_t n, expr_array *const *arrays,
                           size_t narrays, expr_assignment *model, uint64_t budget);

#endif
