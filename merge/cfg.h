/*
 * cfg — standard merging (pat-merge.md §1, Def. 2.1): one state for a group of
 * merge-compatible states with pc = pc_entry ∧ (tail1 ∨ … ∨ tailn) and every register and
 * memory byte that differs merged with ite over the tails, both built along the region's
 * execution tree (guards only where a subtree holds several members); flat over the tails
 * when the tree walk cannot apply (two members on one leaf, a member off the tree).
 *
 * Contract: the group is borrowed and left as it is; the result is a new state (not in any
 * region, not paused) that the caller resumes. With --validate-merges the merge is checked
 * (merge/validate.h). This is also the fallback of every other strategy.
 */
#ifndef SYMQ_MERGE_CFG_H
#define SYMQ_MERGE_CFG_H

#include <stddef.h>

#include "engine/state.h"
#include "merge/region.h"

/* Are a and b at the same position with the same call stack, inputs and objects? */
bool merge_compatible(const state *a, const state *b);
state *merge_cfg(merge_ctx *m, const merge_region *r, state *const *group, size_t n);
/* merge_cfg as a merge_strategy: the whole group becomes one state. */
size_t merge_cfg_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg);

#endif
