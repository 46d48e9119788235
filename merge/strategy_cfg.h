/*
 * strategy_cfg — standard merging (pat-merge.md §1, Def. 2.1): one state for a group of
 * merge-compatible states with pc = pc_entry ∧ (tail1 ∨ … ∨ tailn) and every register and
 * memory byte that differs merged with ite over the tails, both built along the region's
 * execution tree (guards only where a subtree holds several members); flat over the tails
 * when the tree walk cannot apply (two members on one leaf, a member off the tree).
 *
 * Contract: the group is borrowed and left as it is; the result is a new state (not in any
 * region, not paused) that the caller resumes. With --validate-merges the merge is checked
 * (merge/validate.h). This is also the fallback of every other strategy.
 */
#ifndef SYMQ_MERGE_STRATEGY_CFG_H
#define SYMQ_MERGE_STRATEGY_CFG_H

#include <stddef.h>

#include "engine/core/state.h"
#include "merge/strategy.h"
#include "merge/validate.h"

state *merge_cfg(merge_ctx *m, const merge_region *r, state *const *group, size_t n);

/* The pieces every strategy builds a merged state from. merge_state_new: group[0]'s state
 * (a new id) with its pc cut back to the region's entry; merge_each_value: merge(vals) for
 * every register and writable memory byte on which the group differs (a register some
 * member never set stays unset), written into `merged` and, with --validate-merges,
 * recorded in values; merge_state_finish: the bookkeeping of a state that leaves its region
 * merged. */
typedef expr *(*merge_value_fn)(merge_ctx *m, expr *const *vals, size_t n, void *arg);
state *merge_state_new(merge_ctx *m, const merge_region *r, state *const *group);
void merge_each_value(merge_ctx *m, state *merged, state *const *group, size_t n,
                      merge_value_fn merge, void *arg, merge_values *values);
void merge_state_finish(state *merged, state *const *group, size_t n);
/* merge_cfg as a merge_strategy: the whole group becomes one state. */
size_t merge_cfg_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg);

#endif
