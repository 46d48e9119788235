/*
 * strategy — what a merge strategy sees of a region being released (the interpreter sees
 * merge/region.h only): the region with its execution tree, the merging context, and the
 * helpers every strategy uses.
 *
 * Strategies plug in per group: a merge_strategy gets the region (with its execution tree)
 * and one group of n ≥ 2 paused, merge-compatible states at one exit, and returns the states
 * that resume instead. merge_use_cfg (merge/strategy_cfg.h) or merge_use_pat
 * (merge/strategy_pat.h) installs one; a strategy that cannot merge a group (or part of it)
 * calls merge_cfg itself, or returns the states unchanged. Every group (or part of one) gets
 * one decision counted with merge_decision (merge/decide.h).
 *
 * Contract: the group is borrowed; members not returned are handed back to the interpreter
 * by the caller (merge_host.discard), new states resume as fresh. Temporaries made while
 * merging go on merge_tmp and are released after each group. A file for the output
 * directory goes through m->host.write_file.
 */
#ifndef SYMQ_MERGE_STRATEGY_H
#define SYMQ_MERGE_STRATEGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/hashmap.h"
#include "merge/region.h"
#include "merge/size.h"

typedef struct merge_region {
  uint32_t id;
  bool manual;
  uint32_t func, depth, loop; /* the loop's function, frame depth and index in merge_loops */
  size_t entry_npc;           /* the path condition at entry: a prefix every member shares */
  merge_tree *tree;
  state **paused;
  size_t npaused, cap_paused;
  uint32_t running;             /* members still running inside */
  bool gave_up;                 /* too many waited at the exits: members leave without waiting */
  struct merge_inc_region *inc; /* --incremental-merge: snapshots and pending nodes */
  struct merge_region *next;    /* the context's list of open regions */
  /* Nested regions (issue 26, item 3c): an inner loop's region opened by a member of the
   * region of a loop around it (`parent`, at the member's leaf `outer_leaf`). While it is
   * open it counts as one running member of its parent; each state it releases comes back to
   * the parent as a member under outer_leaf: a merged one as one node
   * (merge_tree_add_nested), one that resumes unmerged with its path (merge_tree_graft). */
  struct merge_region *parent;
  merge_node *outer_leaf;
  hmap *grafted;   /* its tree's nodes copied into the parent's (merge_tree_graft) */
  merge_work work; /* appended (issue 26, give-up): what its members did since it opened */
  /* appended (issue 26, item 1: early decisions): the exits (edge sources) whose states were
   * declined early (merge_early_fn) and continue forked without waiting; the decisions
   * noted for --dump-tree meanwhile (merge_decisions_take gives them to r's tree) */
  uint32_t *forked_exits;
  size_t nforked_exits;
  char *early_log;
  /* appended (issue 26: regions must not hold states until the time limit): per exit (edge
   * source) of a loop's region, the states that arrived there since its last batch and the
   * batch size that releases them (merge/region.c, batches); `batch_due` when one is reached;
   * `batch_merged` when a batch merged (the loop is not barren) */
  struct merge_exit_batch *batches;
  size_t nbatches;
  bool batch_due, batch_merged;
  uint32_t groups;     /* groups handed to the strategy so far, the one being merged included (the
                          --dump-tree files' numbers: a region's batches and release share them) */
  bool joins_declined; /* appended (issue 26): opened plain under --incremental-merge because
                          every join in its loop would be declined (merge/region.c) */
} merge_region;

/* Merges group[0..n) (n ≥ 2, paused at one exit of r, merge-compatible) and writes the
 * states that resume to out (room for n); returns how many. A returned state is either a
 * member (it resumes as it is) or a new one (made with merge_host.new_state_id). */
typedef size_t (*merge_strategy)(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                                 state **out, void *arg);

/* The early decision (issue 26, item 1): group[0..n) (n ≥ 2) are the first states to wait at
 * one exit of r (n = MERGE_EARLY_SAMPLE, then at each doubling). True when the strategy would
 * decline their merge for a reason that more members arriving there do not reverse (see
 * merge_decline_stands, merge/decide.h): the decision is then counted ("declined early: …")
 * and the caller releases them forked; the exit's later arrivals continue without waiting.
 * Reads the group and never changes a state. arg: the strategy's. */
typedef bool (*merge_early_fn)(merge_ctx *m, merge_region *r, state *const *group, size_t n,
                               void *arg);
/* The sample: states waiting at one exit before the early decision is first asked. */
enum { MERGE_EARLY_SAMPLE = 8 };

struct merge_ctx {
  const ir_program *prog;
  merge_options opt;
  qsolver *solver;
  const char *out_dir; /* the output directory's path (merge_host.write_file's) */
  merge_stats *stats;
  merge_host host;
  merge_strategy strategy;
  void *strategy_arg; /* owned when strategy_free is set */
  void (*strategy_free)(void *arg);
  merge_loops **loops;   /* per function, computed when first needed */
  merge_region *regions; /* open regions */
  uint32_t next_region_id;
  merge_sizes sizes;                /* what counts as a symbolic size (merge/size.h) */
  struct merge_liveness **liveness; /* --incremental-merge: per function, when first needed */
  expr **tmp;                       /* temporaries of the merge in progress */
  size_t ntmp, cap_tmp;
  struct merge_decide_cache *decide; /* merge/decide.h: per exit, when first needed */
  char *decision_log;                /* --dump-tree: the decisions of the region released */
  merge_early_fn early;              /* appended (issue 26, item 1): NULL when none */
  hmap pause_models; /* appended (issue 26): state id -> its model at its pause (region.c) */
  /* appended (issue 26): the states paused since the last merge_release_finished, their
   * models not yet asked (region.c) */
  state **models_due;
  size_t nmodels_due, cap_models_due;
  /* appended (issue 26, busybox): the region merge_at_branch would open on a state if its
   * branch forks (region.c, merge_forked): the state's id + 1 (0: none), its `instructions`
   * then, and the loop */
  uint64_t open_on, open_at;
  uint32_t open_loop;
  /* appended (issue 26): incremental joins and the forks that undid them (merge/incremental.c) */
  struct merge_inc_undone *undone;
};

/* Installs strategy with its argument; free_arg (or NULL) releases arg with the context. */
void merge_set_strategy(merge_ctx *m, merge_strategy strategy, void *arg,
                        void (*free_arg)(void *arg));
/* Are a and b at the same position with the same call stack, inputs and objects (the
 * paper's merge-compatibility; every group a strategy gets is)? */
bool merge_compatible(const state *a, const state *b);
/* Registers a new reference for release after the current group's merge; returns it. */
expr *merge_tmp(merge_ctx *m, expr *e);
void merge_tmp_release(merge_ctx *m); /* releases them (done after each group) */
/* The conjunction of st's constraints from position `from` on (its tail since a region's
 * entry or a tree node), as a temporary. */
expr *merge_tail(merge_ctx *m, const state *st, size_t from);
/* merged goes on for member's path among others: it keeps member's test (test_id, 0 if none
 * was written) and those of the paths merged into member, which lack the inputs it makes
 * later (engine/core/member_tests.h). */
void merge_keep_member_tests(state *merged, const state *member, uint32_t test_id);

merge_loops *merge_loops_of(merge_ctx *m, uint32_t func);
static inline merge_region *merge_region_of(const state *st) { return st->region; }

#endif
