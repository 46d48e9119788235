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
 * The whole group falls back to CFG merging when the tree's hash is invalid or there is no
 * regular partitioning within the limits; every fallback is counted by reason. K is noted as
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
  uint32_t group_index;  /* that group's number in its region (--dump-tree's file names) */
  pat_alphabet alphabet; /* symbol codes, shared by the groups of one region */
  FILE *dump;            /* --dump-tree: the current group's report, or NULL */
} pat_ctx;

void pat_ctx_free(pat_ctx *pc); /* NULL is allowed */

size_t merge_pat_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg /* pat_ctx */);

#endif
