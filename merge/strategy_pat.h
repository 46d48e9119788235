/*
 * strategy_pat — pattern-based merging with quantifiers (pat-merge.md §4–5, the paper's
 * Def. 3.7), the merge strategy of --merge=pat. For one group of states paused at one exit
 * of a region:
 *   1. each member's word is read off the execution tree (one symbol per branch edge from the
 *      root; a rider constraint joins the condition of the symbol before it);
 *   2. the words are split into regular partitions (merge/pattern);
 *   3. per partition of two or more members, a formula pattern (φ0, φ, ψ) is synthesised
 *      (merge/synth) and ONE state replaces the members, with a fresh K (not a test input):
 *        pc = pc_entry ∧ riders at the root ∧ φ0 ∧ (∀i. 1 ≤ i ≤ K → φ(i)) ∧ ψ(K)
 *             ∧ min ≤ K ≤ max ∧ K ≠ c for every count c missing in between,
 *      where each conjunct of φ monotone in i (synth_monotone: a loop condition or bound
 *      check on the index) is taken out of the ∀ as K = 0 ∨ φ_k(K) (or φ_k(1)),
 *      every differing register and memory byte a template t(K) when one fits the members'
 *      values at their counts, otherwise ite(K = m_1, x_1, ite(…, x_k)) (counts are distinct);
 *   4. members left without a formula pattern, or alone in their partition, are merged the
 *      CFG way, together. A group with several partitions resumes as several states (one per
 *      partition, as the paper does), where CFG merging would resume one.
 * In a region nested in another's loop (merge/region.c), K is not a fresh constant but cell k
 * of an array of the outer region (`pat_KA<n>`, 8 bytes a cell), k the number of nested
 * releases on the state's path in the outer tree: K of the outer loop's t-th iteration is
 * then the same read, up to its constant index, in every iteration, so the outer words'
 * conditions follow a formula pattern and the outer loop merges by pattern too — when the
 * inner merges added no ∀ (a ∀ nested in a ∀ whose bound is a cell is not in the expression
 * language: those members continue forked, the reason recorded). Distinct merges along one
 * path get distinct cells; merges on disjoint paths may share one (an auxiliary constant of
 * disjuncts: ∃K. a ∨ b ⟺ (∃K. a) ∨ (∃K. b)). Beyond 32 cells K is a fresh constant again.
 * The whole group falls back to CFG merging when the tree's hash is invalid or there is no
 * regular partitioning within the limits — but continues forked (under --merge-decide=cost)
 * when the tree is invalid by a fork at a constraint that is not a branch (the members differ
 * in which object an address selected) or when a member was joined inside the region by
 * incremental merging (the merged state would nest the joins' disjunctions in its own;
 * docs/merging.md); every fallback is counted by reason. K is noted as
 * a symbolic size, so a loop over a merged result opens a region of its own. With
 * --validate-merges each merge is checked (Theorem 3.8, witness K = m_j); with --dump-tree
 * each group's words, partitions, counts and merged pcs go to region<id>.group<k>.txt.
 *
 * Contract: as every merge_strategy (merge/strategy.h). merge_use_pat installs it with a
 * pat_ctx of its own (limits from the merge options), freed with the merge_ctx.
 */
#ifndef SYMQ_MERGE_STRATEGY_PAT_H
#define SYMQ_MERGE_STRATEGY_PAT_H

#include <stdio.h>

#include "merge/pattern.h"
#include "merge/strategy.h"

typedef struct pat_ctx {
  pat_limits limits;
  uint32_t last_region;  /* the region of the last pattern merge, +1 (0: none yet) */
  uint32_t next_k;       /* K's are named pat_K<n> in creation order */
  uint32_t group_region; /* the region of the last group seen, +1 */
  pat_alphabet alphabet; /* symbol codes, shared by the groups of one region */
  FILE *dump;            /* --dump-tree: the current group's report, or NULL */
  /* K cells of nested regions: per outer region still open, the array whose cell k holds
   * the K of the merges its k-th nested release made along a path (pat_cells_of) */
  struct pat_cells {
    uint32_t region; /* the outer region's id */
    expr_array *cells;
  } * cells;
  size_t ncells;
} pat_ctx;

void pat_ctx_free(pat_ctx *pc); /* NULL is allowed */

size_t merge_pat_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg /* pat_ctx */);

#endif
