/*
 * prune — pruning by interpolation (TracerX's DSEI, seeds 000 §3–5 and 002; the notes'
 * interpolation.md), as the interpreter sees it: the options, the events it reports, the
 * counters and the run's verdict. The interpreter knows nothing of nodes, interpolants or
 * the table; it reports events, as it does to merge/region.h:
 *   - a state is selected to run (prune_running) — the solver requests made until the next
 *     event are that state's;
 *   - a state is at a symbolic conditional branch (prune_at_branch): a point where it may be
 *     subsumed (it then ends, counted `subsumed`, and its subtree is not explored) or where
 *     it opens a node of the execution tree;
 *   - it forked (prune_forked), allocated an object (prune_allocated), gave up a feasible
 *     alternative (prune_dropped), relied on an
 *     unsatisfiable question (prune_answered: one qs_must_be_true it just made);
 *   - it ends normally, in an error or early (prune_ended), and is gone (prune_gone).
 *
 * Deletion interpolants (docs/interpolation.md): when every state below a node is gone and
 * none ended in an error or early, allocated, or made a solver request the module was not
 * told about (it compares the solver's request counter with the questions it heard of, so a
 * check it was never told about makes the subtree uninterpolable instead of unsound), the
 * node's interpolant is the conjuncts of its path condition that the unsat questions below
 * needed (prune/core.h), stored with the node's snapshot in the table (prune/table.h).
 *
 * Weakest-precondition interpolants (--interpolate=wp, prune/wp.h): a node instead keeps
 * formulas — each fact's ¬q, each finished child's interpolant, each subsuming entry's σ(Ψ)
 * — pushed back to the node's point over the conjuncts the path added in between by the
 * conjunctive BackProp with abduction; the node's interpolant is their conjunction. Without
 * merging, a node first gives each relevant data register (prune/data.h) a fresh variable
 * V with the conjunct V = value, so its interpolant speaks of the program variable, and a
 * child's interpolant reaches its parent through the substitution V := value (an
 * assignment's BackProp) before the abduction over the conjuncts in between.
 *
 * Contract: states are the interpreter's; the module keeps a pointer to its node in the
 * state (state.h's prune_* fields) and owns the nodes and the table. Borrowed: prog, solver,
 * options and stats for the context's lifetime. Deterministic.
 */
#ifndef SYMQ_PRUNE_PRUNE_H
#define SYMQ_PRUNE_PRUNE_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "engine/core/ir.h"
#include "engine/core/json.h"
#include "engine/core/state.h"
#include "qsolver/qsolver.h"

typedef enum prune_mode { PRUNE_MODE_NONE, PRUNE_MODE_DELETION, PRUNE_MODE_WP } prune_mode;

typedef struct prune_options {
  prune_mode mode;    /* --interpolate */
  bool validate;      /* --validate-interpolation: explore every pruned subtree anyway */
  const char *svcomp; /* --svcomp: an unreach-call property file (prune/svcomp.h), or NULL */
} prune_options;

typedef enum prune_verdict {
  PRUNE_VERDICT_UNKNOWN,
  PRUNE_VERDICT_TRUE,
  PRUNE_VERDICT_FALSE
} prune_verdict;

typedef struct prune_stats {
  uint64_t nodes;               /* nodes opened (symbolic branches not subsumed) */
  uint64_t interpolants;        /* finished nodes stored in the table */
  uint64_t uninterpolable;      /* finished nodes with no interpolant (error, early, …) */
  uint64_t subsumed;            /* states pruned (or, validating, explored anyway) */
  uint64_t subsumption_queries; /* implication checks that reached the solver */
  uint64_t compared;            /* table entries a state was compared with (prune/table.h) */
  uint64_t wp_steps, wp_passed, wp_abduced, wp_fallbacks, wp_queries; /* prune/wp.h */
  uint64_t facts;            /* unsat questions whose core went into an interpolant */
  uint64_t renamed;          /* subsumptions that renamed inputs made apart (rename.h) */
  uint64_t private_slots;    /* allocations that left the tree interpolable (slots.h) */
  uint64_t validation_forks; /* forks inside pruned subtrees explored by validation */
  uint64_t validation_paths; /* paths that ended inside them */
  uint64_t validation_failures;
  uint64_t validation_checks; /* validated paths checked against their subsuming interpolant */
  /* with merging (the ---- merging ---- part below) */
  uint64_t merged_joined;     /* merged states counted at a node above their constituents */
  uint64_t merged_roots;      /* merged states that began a tree of their own */
  uint64_t partial;           /* finished nodes not stored: part of their subtree went on merged */
  uint64_t merge_conjuncts;   /* conjuncts a merge's correctness needed, put into interpolants */
  uint64_t wp_quantified;     /* wp steps over a ∀: the slice, no query (prune/wp.h) */
  uint64_t variables;         /* wp: data registers given a variable at a node (data.h) */
  uint64_t covered;           /* states covered by an ancestor (prune_at_branch) */
  char validation_error[512]; /* the first failure, one line */
  char first_error[512];      /* "KIND at FILE:LINE" of the first error path, or "" */
  char first_reach[512];      /* the same, of the first reach_error path, or "" */
  bool unreach_call;          /* --svcomp: only reach_error makes the verdict false */
  prune_verdict verdict;      /* set by prune_decide */
  char verdict_reason[512];
} prune_stats;

typedef struct prune_ctx prune_ctx;

prune_ctx *prune_new(const ir_program *prog, const prune_options *opt, qsolver *solver,
                     prune_stats *stats);
void prune_free(prune_ctx *p); /* NULL is allowed */

/* ---- events from the interpreter (all no-ops when the mode is none, but prune_ended's
 * record of the first error) ---- */
/* st was selected to run: the solver requests until the next event are its own. NULL: no state
 * runs (merging releases its regions): the requests until the next event are no state's. */
void prune_running(prune_ctx *p, state *st);
/* Before st branches on a symbolic condition (its pc is the branch): true when st is
 * subsumed and is to end now, with interp_end_state and nothing else (no test). Also when
 * st is *covered* by an ancestor node at its point (a loop's head, most often): the
 * ancestor's snapshot matches st up to σ and st's path condition implies σ of the
 * ancestor's, so st's states are among the ancestor's, reached by a longer path — any error
 * below st is reached by a shorter run below the ancestor. Covering needs no interpolant;
 * it leaves st's ancestors without one (their subtrees rely on the ancestor's). */
bool prune_at_branch(prune_ctx *p, state *st);
void prune_forked(prune_ctx *p, state *parent, state *child);
/* st just asked whether pc ∧ q is satisfiable (one qs_must_be_true of ¬q); unsat: it relied
 * on the answer. */
void prune_answered(prune_ctx *p, state *st, expr *q, bool unsat);
/* st allocated an object: below a node, its address would differ in another subtree. */
void prune_allocated(prune_ctx *p, state *st);
/* st gave up a feasible alternative (a limit's cut, a concretization, --capacity): its
 * subtree is not all there. */
void prune_dropped(prune_ctx *p, state *st);
typedef enum prune_end {
  PRUNE_END_NONE,
  PRUNE_END_NORMAL,
  PRUNE_END_ERROR,
  PRUNE_END_EARLY,
  PRUNE_END_SUBSUMED
} prune_end;
/* Before st's test is written: how its path ends; kind and where ("FILE:LINE") for errors
 * and early ends (NULL otherwise). */
void prune_ended(prune_ctx *p, state *st, prune_end how, const char *kind, const char *where);
/* st is freed next (every end goes through here; an end prune_ended did not hear of counts
 * as early). */
void prune_gone(prune_ctx *p, state *st);

/* ---- merging (--merge=cfg|pat; docs/interpolation.md "With merging") ----
 * A release merges states away (prune_merged_away, each before it is freed) and resumes the
 * states it made (prune_merged, each before it runs), all before any other event. A merged
 * state is counted at a node above all the constituents of its release group when its path
 * condition begins with that node's and its merge's correctness can be sliced (then its
 * subtree's interpolant reaches that node and above, with the conjuncts the merge needed);
 * otherwise it begins a tree of its own and the constituents' ancestors get no interpolant.
 * Either way it is subsumable like any state: its merged path condition (disjunctions, ∀)
 * must imply the entry's interpolant. */
void prune_merged_away(prune_ctx *p, state *st);
void prune_merged(prune_ctx *p, state *st);
/* --incremental-merge: a merged state restarts from a snapshot taken at an earlier point and
 * redoes its constituents' paths from there, so it always begins a tree of its own (the
 * constituents' ancestors get no interpolant). */
void prune_merges_restart(prune_ctx *p);
/* Merging is on (--merge): nodes give no variables to data registers (prune/data.h). */
void prune_with_merging(prune_ctx *p);
/* The solver requests since the last event were merging's (whether to open a region at the
 * running state's branch): no question its path relies on. */
void prune_merge_requests(prune_ctx *p);

/* ---- the verdict ---- */
typedef struct prune_run_facts {
  uint64_t error_paths, concretized, capacity_bounded, tests_lost;
  bool exhausted, output_failed;
  const char *early_reason;   /* the first early path's reason, or NULL */
  const char *dropped_reason; /* the first dropped alternative's, or NULL */
} prune_run_facts;
/* Sets stats->verdict and verdict_reason: false when a path ended in an error (the first;
 * under --svcomp, a reach_error path only: another error makes it unknown), true only when every
 * path ran to its end or was subsumed and nothing was concretized, bounded, dropped or lost,
 * unknown otherwise (the reason). */
void prune_decide(prune_stats *stats, const prune_run_facts *f);
/* "true (every path explored or subsumed)", "false (reach_error at f.c:12)", … written into
 * buf (n bytes, truncated), which is returned. */
const char *prune_verdict_text(const prune_stats *stats, char *buf, size_t n);
/* stats.json: "verdict" (the text), "subsumed" and "interpolation" ({counters}). */
void prune_stats_json(json_writer *j, const prune_stats *stats);

#endif
