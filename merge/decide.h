/*
 * decide — whether a PAT merge of a group of states paused at one exit pays, and the record
 * of every decision taken on a group (stats.json's merge.decisions, --dump-tree's note).
 *
 * The estimate is a simplified form of the query count estimation of Kuznetsov et al.
 * (PLDI 2012, "Efficient State Merging in Symbolic Execution"): a merge pays when the
 * values that differ between the states are read by few of the queries that follow.
 *   - From the program (static, per exit position, cached): the query sites reachable from
 *     the exit within its function — conditional branches and switches (a branch query),
 *     loads, stores and memory intrinsics (a bounds or pointer query on the address) — Q_t of
 *     them. Unlike the paper, a site counts once, whatever loops surround it.
 *   - From the group: the "costly" values the merge would make — a register of the exit's
 *     frame, live at the exit, that the merge turns into an ite (a value that a template
 *     a·K + b fits costs nothing and is left out), and any writable memory byte merged into
 *     an ite — and whether the merge adds a ∀. Q_add = the query sites whose operand depends
 *     (forward data flow over registers and phi moves in the reachable code) on a costly
 *     register, or on any load when merged memory or a ∀'s array may be read (without
 *     points-to information every later load may read them).
 *   - From the run: r, the measured solver requests per quantified query the engine asked
 *     (the quantified stage's requests — procedure runs, the relaxed stage's sub-requests —
 *     minus --validate-qsolver's re-checks, over the ∀ queries asked; requests are counted,
 *     not timed, so the decision is deterministic), at least 1; 2 until 8 ∀ queries were
 *     asked. A quantifier-free query costs one request.
 * A merge is declined when Q_add · r > Q_t / 2 (the paper's Q_add(v) ≤ α · Q_t with α = 1/2
 * and a quantified query weighted by r). Callees and callers are not looked into: a value
 * returned or passed to a call is not counted as read.
 *
 * Contract: the static analyses are cached in the merge context (freed with it); a decision
 * reads the group and never changes a state. merge_decision counts one decision (outcome
 * text, e.g. "merged by pattern", "declined: …", "fallback fork: …") in merge_stats and,
 * under --dump-tree, notes it for the region's tree (merge_decisions_take).
 */
#ifndef SYMQ_MERGE_DECIDE_H
#define SYMQ_MERGE_DECIDE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "merge/strategy.h"

/* Is the merged value of vals[0..n) cheap (a template that needs no ite)? NULL: never. */
typedef bool (*merge_cheap_fn)(merge_ctx *m, expr *const *vals, size_t n, void *arg);

typedef struct merge_estimate {
  uint32_t sites;       /* Q_t */
  uint32_t value_sites; /* sites reading a costly register or merged memory */
  uint32_t hot_sites;   /* Q_add: those, and the sites reading a load under a ∀ */
  uint32_t costly_regs; /* costly registers live at the exit */
  bool memory;          /* some merged memory byte is costly */
  uint64_t ratio_x100;  /* r, in hundredths */
} merge_estimate;

/* The estimate for merging group[0..n) (merge-compatible, n ≥ 2) into one state that adds a
 * ∀ when `forall`; returns NULL when the merge pays, else the reason it is declined
 * ("declined: …", static text). est (may be NULL) receives the numbers. */
const char *merge_decide(merge_ctx *m, state *const *group, size_t n, bool forall,
                         merge_cheap_fn cheap, void *arg, merge_estimate *est);

/* Counts one decision about the states members[0..n) of region r. */
void merge_decision(merge_ctx *m, const merge_region *r, state *const *members, size_t n,
                    const char *outcome);
/* The decisions noted for region r since the last call (--dump-tree only), as text lines;
 * owned by the caller ("" when none). */
char *merge_decisions_take(merge_ctx *m);

void merge_decide_free(merge_ctx *m); /* the cache; with the context */

#endif
