/*
 * region — what the interpreter sees of merging: the options, the events it reports, the
 * interface it provides (merge_host) and the counters (merge_stats). Strategies see more
 * (merge/strategy.h). A merge region (pat-merge.md §2) is a natural loop whose branch
 * depends on a symbolic size (opened when a state first forks inside it) or a manual
 * symq_merge_begin/end section. Its members run until each has left it or died; those that
 * left wait ("paused") at the exit; when none runs inside, the region is released: the
 * paused states are grouped by exit (a loop's by exit edge, a manual region's by the
 * position they wait at, and always merge-compatible), each group is handed to the merge
 * strategy installed with merge_use_cfg or merge_use_pat, and what it returns resumes.
 *
 * The interpreter only reports events — a branch is about to fork (merge_at_branch), a state
 * forked (merge_forked), added a constraint (merge_constrained / merge_branched), took an
 * edge (merge_took_edge), may have left its region (merge_should_pause), is gone
 * (merge_gone) — and asks what resumes (merge_release_finished, through merge_host.resume).
 *
 * Contract: regions own their trees; states are owned by the interpreter, except that a
 * released group's members not returned by the strategy are handed back through
 * merge_host.discard and the strategy's new states through merge_host.resume(fresh=true).
 * Files merge writes (--dump-tree) go to the output directory through
 * merge_host.write_file: merge knows the directory's path only, for the tools it runs (dot).
 */
#ifndef SYMQ_MERGE_REGION_H
#define SYMQ_MERGE_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "engine/core/ir.h"
#include "engine/core/json.h"
#include "engine/core/state.h"
#include "merge/loops.h"
#include "merge/pattern.h"
#include "merge/tree.h"
#include "qsolver/qsolver.h"

typedef enum merge_mode { MERGE_MODE_NONE, MERGE_MODE_CFG, MERGE_MODE_PAT } merge_mode;
/* --merge-loops: loops whose branch reads a size, those and the ones bounded by a length
 * decoded from the input (merge/size.h, 4), or any symbolic branch */
typedef enum merge_loop_filter {
  MERGE_LOOPS_SIZE,
  MERGE_LOOPS_SYMBOLIC,
  MERGE_LOOPS_DECODED
} merge_loop_filter;
/* --pat-fallback: what becomes of states PAT cannot merge by pattern: CFG-merged where the
 * decision says it pays (the default, docs/merging.md says why), or always forked */
typedef enum merge_pat_fallback { MERGE_FALLBACK_FORK, MERGE_FALLBACK_CFG } merge_pat_fallback;
/* --merge-decide: PAT merges only where the cost estimate says it pays (merge/decide.h), or
 * whenever a pattern fits */
typedef enum merge_decide_mode { MERGE_DECIDE_COST, MERGE_DECIDE_ALWAYS } merge_decide_mode;

typedef struct merge_options {
  merge_mode mode;
  merge_loop_filter loops;  /* loops that open regions: size-dependent branches, or any */
  bool tests_per_merge_all; /* a test for every constituent before its group merges */
  bool validate;            /* --validate-merges: Theorem 3.8 for every merge */
  bool dump_tree;           /* region<id>.dot (and .svg) for every released region */
  bool incremental;         /* --incremental-merge: merging into the tree (merge/incremental.h) */
  pat_limits pat;           /* --merge=pat: --max-candidate-patterns, --max-patterns */
  merge_pat_fallback pat_fallback; /* --pat-fallback */
  merge_decide_mode decide;        /* --merge-decide */
  uint32_t max_waiting;            /* --max-region-states: a region with more states waiting at its
                                      exits (or, with --incremental-merge, waiting for their turn), or
                                      whose tree is estimated to end with more states
                                      besides those its batches merged (merge/region.c), gives
                                      up (they and its later leavers continue forked; its loop
                                      opens no more regions); 0: no limit */
} merge_options;

/* What a region's members did since it opened, for its give-up by estimate (merge/region.c):
 * the forks they made, and when the region's tree is next sized up. */
typedef struct merge_work {
  uint64_t forks;      /* states its members forked inside it */
  uint64_t next_check; /* forks at which the tree's size is estimated next */
  bool over_budget;    /* the estimate passed --max-region-states: give up at the next chance */
  /* appended (issue 26: solver effort) */
  uint64_t effort_at_open; /* qs_effort when the region opened */
  bool over_effort;        /* its states not yet explored, at the effort each fork cost so
                              far, would cost more than the region may spend: give up at the
                              next chance */
  /* appended (issue 25: a region that keeps merging) */
  uint64_t collapsed; /* states its exits released in batches that merged: they wait no more */
  /* appended (issue 26: an incremental region's frontier) */
  bool frontier_grows; /* an incremental region whose queue was long held 3/8 of its forks in
                          the queue and at its exits at a check while it merged: its merges do
                          not keep the frontier down, give up at the next chance
                          (merge/region.c, MERGE_INC_FRONTIER_NUM) */
  uint64_t inc_merges_at_open; /* merge_stats.inc_merges when the region opened (the nodes
                                  merged since count those of regions nested in it too) */
} merge_work;

/* Counts by reason, sorted by text (deterministic output). */
typedef struct merge_reason {
  char *text;
  uint64_t count;
} merge_reason;
typedef struct merge_reasons {
  merge_reason *items;
  size_t n;
} merge_reasons;
void merge_reasons_add(merge_reasons *r, const char *text);
void merge_reasons_free(merge_reasons *r);

typedef struct merge_stats {
  uint64_t regions_opened, regions_released, merges, merged_states, merge_tests;
  uint64_t merges_along_tree; /* CFG merges built along the execution tree (not flat) */
  uint64_t validation_failures;
  uint64_t validation_unchecked; /* merges whose check the run's deadline cut (not failures) */
  merge_reasons skipped;         /* loops that did not open a region, by reason */
  merge_reasons hash_invalid;    /* released regions whose pattern hash was invalid, by reason */
  uint64_t merged_pc_nodes;      /* DAG nodes of the constraints merges added, summed */
  uint64_t states_at_exits;      /* states waiting at released regions' exits, summed */
  uint64_t tree_nodes;           /* nodes ever made in released regions' execution trees */
  /* --merge=pat (merge/strategy_pat.h) */
  uint64_t pat_regions;                   /* regions with at least one merge by pattern */
  uint64_t pat_merges, pat_merged_states; /* merges by pattern and their constituents */
  uint64_t pat_quantified;                /* ∀ constraints created */
  merge_reasons pat_fallbacks; /* groups (or partitions) merged the CFG way instead, by reason */
  /* --incremental-merge (merge/incremental.h) */
  uint64_t inc_merges;    /* nodes merged into the tree */
  uint64_t inc_discarded; /* states discarded by those merges (their paths redone) */
  uint64_t inc_snapshots, inc_snapshot_bytes; /* snapshots taken and the bytes they copied */
  /* every decision taken on a group (or a partition of one) of states at an exit, by
   * outcome and reason: "merged (cfg)", "merged by pattern", "declined: <reason>",
   * "fallback fork: <why>", "fallback cfg: <why>" (merge/decide.h) */
  merge_reasons decisions;
  uint64_t regions_nested;  /* appended (issue 26, 3c): regions opened inside another's loop */
  uint64_t pat_syntheses;   /* appended (issue 26, 1): partitions PAT synthesized a formula for */
  uint64_t batches;         /* appended (issue 26): exit groups released in a batch, before
                               their region (merge/region.c) */
  uint64_t covered_paths;   /* appended (issue 26): merged states that completed with no test
                               of their own, their members' tests covering their paths */
  uint64_t tests_completed; /* appended (issue 26): tests written for paths merged away,
                               written again with the inputs their merged state made later
                               (engine/core/member_tests.h) */
} merge_stats;

/* The "merge" object of stats.json. */
void merge_stats_json(json_writer *j, const merge_stats *s);
/* {text: count, …} in the items' order (merge_reasons keep them sorted by text). */
void merge_reasons_json(json_writer *j, const merge_reason *items, size_t n);
void merge_stats_free(merge_stats *s);

/* What the merging module asks of the interpreter. */
typedef struct merge_host {
  void *ctx;
  void (*park)(void *ctx, state *st);               /* out of the searcher: it waits */
  void (*resume)(void *ctx, state *st, bool fresh); /* back in; fresh: a new (merged) state */
  void (*discard)(void *ctx, state *st);            /* merged away: forget and free it */
  uint32_t (*write_test)(void *ctx, state *st);     /* st's test's id; 0 if none written */
  uint64_t (*new_state_id)(void *ctx);
  /* Writes the file `name` (no '/') into the output directory, whole or not at all; false
   * once the failure is reported on stderr. */
  bool (*write_file)(void *ctx, const char *name, const void *data, size_t len);
  /* appended (issue 26): st's test from `model`, a model of st's whole path condition that
   * the call takes over (frees); its id, 0 if none written */
  uint32_t (*write_test_model)(void *ctx, state *st, expr_assignment *model);
} merge_host;

typedef struct merge_ctx merge_ctx; /* the merging context (merge/strategy.h) */

/* out_dir: the output directory's path, that host->write_file writes into. Borrowed, as prog,
 * solver and stats are, for the context's lifetime. */
merge_ctx *merge_ctx_new(const ir_program *prog, const merge_options *opt, qsolver *solver,
                         const char *out_dir, merge_stats *stats, const merge_host *host);
/* Frees the context and any region left open (their states have already ended). */
void merge_ctx_free(merge_ctx *m);
/* Installs the strategy of --merge=cfg (merge/strategy_cfg.h) or --merge=pat
 * (merge/strategy_pat.h); one of them, before any region is released. */
void merge_use_cfg(merge_ctx *m);
void merge_use_pat(merge_ctx *m);

/* ---- events from the interpreter ---- */
/* At a branch on cond of st, before the interpreter asks which sides are feasible: when the
 * branch's innermost loop qualifies, a region opens on it if st forks there (merge_forked,
 * within the same instruction); a branch with one feasible side opens nothing. Asks the
 * solver nothing (the interpreter's own questions decide). */
void merge_at_branch(merge_ctx *m, state *st, expr *cond);
/* klee_open_merge/symq_merge_begin: a manual region (nested begins are counted). */
void merge_manual_begin(merge_ctx *m, state *st);
/* klee_close_merge/symq_merge_end: true when st paused (it is to resume after the call). */
bool merge_manual_end(merge_ctx *m, state *st);
/* child was just forked from parent: it runs in parent's region too (the region
 * merge_at_branch left to open at this fork opens first, with both as members). */
void merge_forked(merge_ctx *m, state *parent, state *child);
/* st added constraint c to its path (a rider in the tree, see merge/tree.h). */
void merge_constrained(merge_ctx *m, state *st, expr *c);
/* st took side `cond` of branch b (a symbol); when the other sides were infeasible they are
 * given as dead siblings (their conditions and edges), so one-sided branches make the same
 * symbols as forking ones. The path condition is the caller's business. */
void merge_branched(merge_ctx *m, state *st, expr *cond, const merge_branch *b,
                    expr *const *dead_conds, const uint32_t *dead_edges, size_t ndead);
/* st entered a block by an edge, its phi moves done (a snapshot point after a fork). */
void merge_entered_block(merge_ctx *m, state *st);
/* st takes an edge out of `from_block` (remembered as the exit edge's source). */
void merge_took_edge(merge_ctx *m, state *st, uint32_t from_block);
/* Before st runs its next instruction: if it left its loop region, it is paused (parked)
 * and true is returned. */
bool merge_should_pause(merge_ctx *m, state *st);
/* What makes a size (merge/size.h): a symbolic allocation size, a store (offset, value),
 * an assumed condition. All borrowed. */
void merge_note_size(merge_ctx *m, expr *size);
void merge_note_store(merge_ctx *m, expr *offset, expr *value);
void merge_note_assume(merge_ctx *m, expr *cond);
/* st ends (error, exit, limit) while it may be a member: it no longer counts. */
void merge_gone(merge_ctx *m, state *st);
/* st is about to end early on a symbolic operand of floating point (merge_gone follows). */
void merge_symbolic_float(merge_ctx *m, const state *st);
/* Between slices (no state executing, so its questions are no state's): asks the models of
 * the states paused since the last call (--tests-per-merge=all), merges into the trees
 * (--incremental-merge), then releases every region with no member left running; the resumed
 * states go to merge_host.resume. */
void merge_release_finished(merge_ctx *m);

/* ---- appended (issue 26, item 3a) ---- */
/* st is about to end (merge_gone follows) — an error, an exit, a path cut short: inside a
 * region its path leaves the partition, and the tree judges its siblings without it
 * (merge_tree_leaf_ended), so that an error side forked by a check does not invalidate the
 * tree's hash for the states that go on. */
void merge_path_ended(merge_ctx *m, state *st);

/* ---- appended (issue 26) ---- */
/* Is st, about to complete, a merged state whose path no constraint narrowed since its merge,
 * with every member merged into it already given its test (--tests-per-merge=all)? Its own
 * test would be one more input for those same paths: the interpreter writes none. */
bool merge_path_covered(merge_ctx *m, const state *st);

/* ---- appended (issue 26, item 4: dynamic state merging) ---- */
/* When st runs inside an open region (not waiting at an exit, the region not given up): a key
 * ≥ 1 naming the region, ascending in the order regions open; else 0. Its siblings wait, or
 * will, at the region's exits for it: the sooner it gets there, the sooner they merge and go
 * on. The searcher fast-forwards such states (engine/exec/search.h). */
uint64_t merge_fast_forward(const merge_ctx *m, const state *st);

#endif
