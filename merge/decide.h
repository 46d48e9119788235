/*
 * decide — whether a PAT merge of a group of states paused at one exit pays, and the record
 * of every decision taken on a group (stats.json's merge.decisions, --dump-tree's note).
 *
 * The estimate follows the query count estimation of Kuznetsov et al. (PLDI 2012, "Efficient
 * State Merging in Symbolic Execution"), made for the group as a whole: n forked states
 * against the one merged state (docs/merging.md "Merge decisions" has the formulas).
 *   - From the program (static, per position, cached): the query sites reachable from a
 *     position — conditional branches and switches (a branch query), loads, stores and
 *     memory intrinsics with a register address (a bounds or pointer query) — in the exit's
 *     frame from the exit on, in up to 8 callers from just after their call on, and in the
 *     functions their reachable code calls directly (MERGE_DECIDE_CALL_DEPTH deep): Q_t.
 *     Unlike the paper, a site counts once, whatever loops surround it.
 *   - From the group: the "costly" values the merge would make — a register of a frame,
 *     live at its position, that the merge turns into an ite (a value that a template
 *     a·K + b fits costs nothing), a writable memory object holding a byte merged into an
 *     ite — and the objects bound to the arrays the ∀ it adds reads, or holding a byte that
 *     reads them among their first 64 (a copy of the ∀'s buffer). Forward data flow over
 *     registers and phi moves in the reachable code (a call's result depends on its
 *     arguments; a callee's parameter on its argument, a callee's load from a pointer
 *     parameter whose argument points to a costly object reads it) gives the sites reading
 *     merged values (Q_v), the ∀'s objects (Q_∀), and the Q_v sites reading only values that
 *     are constants in every member (Q_c: no query for a forked state). A load's object in
 *     the group's frames is read off the group's first state: its address's base (through
 *     GEPs, moves and phis — a pointer a loop steps points where the values it receives
 *     point, its steps and null pointers left out; a call's result in a frame below the top
 *     where the callee's returns point) is a global or a register live at the position
 *     holding a constant address; one that cannot be told counts as reading a costly object
 *     (in a callee: it does not). Also: d, the distinct tuples of the members' constant costly
 *     values (registers and bytes), and arms, the most distinct values one costly register or
 *     byte has. A template value (K, a·K + b; in a register or a memory object, or an object
 *     stored into at an address computed from K) is free to merge but followed too: a load at
 *     an address computed from it reads an ite over the cells K selects (its values are
 *     merged values, arms ≥ n, weighing as a ∀ read when the merge adds a ∀), and a later
 *     loop bounded by K that loads from the ∀'s objects at an address not computed from K
 *     (in the group's frames: in the pass of the loops around their position — K reaching a
 *     pointer over their back edges is K of a later pass) walks the ∀'s range again
 *     (k_walks): it splits the merged state into one state per value of K, so M is taken
 *     with s = n. An object stored into at an address computed from a merged value (an
 *     ite, `str[len] = 0` after a CFG-merged strspn) is merged memory: its loads read V, and
 *     when the group's frames load from it or pass a pointer to it to a call, such a read
 *     weighs as one at K (arms ≥ n: the ite's guards are the members' conditions).
 *   - Constants of the members: a register holding the same constant in every member (not
 *     defined again after the position), a call's result whose callee returns one constant,
 *     and comparisons of those are known; a conditional branch on a known condition reaches
 *     one side only (the other side's sites are not counted in any term). A term that
 *     every member's path condition pins to a constant of its own (bounds c <u x, x ≤u c,
 *     c = x…; c + y and y bound each other where nothing wraps) is a merged value where it
 *     is read later: a writable object with one of its first 64 bytes mentioning it (an array
 *     written at that index) is merged memory (symbolic), and when the group's frames load
 *     from one at an address not computed from K (a load at K is priced as such: the term is
 *     tied to K there), the pinned values count in d and arms.
 *   - From the run: r, the measured solver requests per quantified query the engine asked
 *     (the quantified stage's requests — procedure runs, the relaxed stage's sub-requests —
 *     minus --validate-qsolver's re-checks, over the ∀ queries asked; requests are counted,
 *     not timed, so the decision is deterministic), at least 1; 2 until 8 ∀ queries were
 *     asked. A quantifier-free query costs one request (r = 1 for a merge without a ∀).
 *     Also measured, and reported with the estimate but not weighed: what a ∀ query cost Z3
 *     against a plain one so far, and what a plain query of a state descending from a CFG
 *     merge (its path condition holds the merge's disjunction) cost against the other plain
 *     queries (qs_effort_split; docs/merging.md says why neither is weighed).
 * Forked cost F = n·(Q_t − Q_c); merged cost M = s·(plain sites + Q_v·max(r, 2, arms) +
 * Q_∀·5r), s = d when Q_v > 0 (the merged state is split again by the reads; n when a loop
 * walks the ∀'s range by K) else 1. A merge
 * is declined when M > F/2 (the paper's α = 1/2), and a merge adding a ∀ also when the
 * ∀'s own hot-variable test fails over the group's frames' sites (callees left out):
 * Q_∀·r > Q_t/2 — the ∀ is paid in every state the merged one becomes.
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
  uint32_t sites;                     /* Q_t, the callees' sites included */
  uint32_t callee_sites;              /* of those, in callees */
  uint32_t value_sites;               /* sites reading a costly register or merged memory */
  uint32_t hot_sites;                 /* Q_add: those, and the sites reading a load under a ∀ */
  uint32_t concrete_sites;            /* value sites reading only values constant in every member */
  uint32_t costly_regs;               /* costly registers live at the exit */
  bool memory;                        /* some merged memory byte is costly */
  uint64_t ratio_x100;                /* r, in hundredths */
  size_t group;                       /* n */
  size_t distinct;                    /* members with distinct constant costly values (1: none) */
  size_t arms;                        /* the most distinct values a costly register or byte has */
  uint64_t forked_cost, merged_cost;  /* in hundredths of a plain query */
  uint32_t frame_sites, frame_forall; /* the group's frames' own sites; of them, reading the
                                         ∀'s objects and no merged value */
  uint32_t k_sites;                   /* sites reading a template value (K, a·K + b) */
  uint32_t k_walks;       /* with a ∀: later loops bounded by K reading the ∀'s objects at an
                             address not computed from K (the merged state splits per K) */
  uint64_t measured_x100; /* with a ∀: the run's ∀ query / plain query effort so far, in
                             hundredths (0: not measured yet); reported, not weighed */
  uint32_t pinned; /* the frames' loads, not at K, from an object holding a term each member's
                     path pins to its own constant (a merged value) */
  uint64_t measured_cfg_x100; /* without a ∀: the run's query of a state descending from a CFG
                                 merge / any other plain query, mean effort so far, in
                                 hundredths (0: not measured yet); reported, not weighed */
  uint32_t rewalks;           /* a CFG merge's: later calls running the exit's function again on the
                                 bytes the members' paths constrain (merge_decide_cfg) */
} merge_estimate;

/* The estimate for merging group[0..n) (merge-compatible, n ≥ 2) into one state that adds a
 * ∀ over forall_body (NULL: none; borrowed); returns NULL when the merge pays, else the
 * reason it is declined ("declined: …", static text). est (may be NULL) receives the
 * numbers. */
const char *merge_decide(merge_ctx *m, state *const *group, size_t n, const expr *forall_body,
                         merge_cheap_fn cheap, void *arg, merge_estimate *est);

/* The value part of merge_decide, for a strategy to ask before it builds the merge (PAT:
 * before its pattern synthesis): the estimate without the ∀ (Q_∀ = 0, r = 1), whose costs the
 * ∀ can only raise. NULL when the merge's values pay; else the reason ("declined: merged
 * values read by later queries") — then any merge of the group with these values is declined,
 * whatever ∀ it would add, and the strategy need not synthesize one. est as merge_decide's. */
const char *merge_decide_values(merge_ctx *m, state *const *group, size_t n, merge_cheap_fn cheap,
                                void *arg, merge_estimate *est);

/* merge_decide for a CFG merge of group[0..n) (PAT's fallback: no ∀, every differing value an
 * ite), also declined ("declined: a later call walks the merged paths' bytes again") when a
 * call after the exit in one of the group's callers runs the exit's function again (itself
 * or a callee calling it) on an object bound to an array the members' own path conditions
 * read (merge_decide_rewalks) — the merged state would ask the same branches again over the
 * members' disjunction and split into their paths again (est->rewalks counts such calls) — and
 * ("declined: nothing left to ask after the exit") when each member has exactly one query site left
 * after the exit (Q_t − Q_c = 1): the merge would save at most n − 1 cheap queries and make
 * the merged state's own ask over the members' disjunction (docs/merging.md "Merge
 * decisions"). est as merge_decide's. */
const char *merge_decide_cfg(merge_ctx *m, state *const *group, size_t n, merge_estimate *est);

/* The later calls merge_decide_cfg's rewalk counts for group[0..n): calls after the exit, in
 * the group's callers, that run the exit's function again on an object bound to an array the
 * members' own path conditions read after their common prefix, at an address every member
 * has (not one computed from the result of the call they are in: a scan from where the walk
 * ended, chained memspn's second, reads bytes their paths did not all decide). Any merge of such
 * members — by pattern as well as the CFG way — is asked the same branches again over what it
 * merged and split into the members' paths again; more members only add bytes read, so a sample
 * with a rewalk is declined for good, however it partitions (PAT's early decision). */
uint32_t merge_decide_rewalks(merge_ctx *m, state *const *group, size_t n);

/* What merge_decide_asked_again found after a join. */
typedef enum merge_asked {
  MERGE_ASKED_NOT,  /* nothing */
  MERGE_ASKED_BYTE, /* after the loop, a comparison reading the byte the parting one read */
  MERGE_ASKED_SAME, /* the parting comparison itself (the same two values) */
} merge_asked;

/* Is the comparison that the conditional branch at instruction `branch` of func tests (an
 * ICMP of two operands) asked again after two sides that parted there join at block `join`
 * of loop `loop`: a conditional branch, other than `branch`, on a comparison of the same two
 * values (the same operands, or loads from the same address; either order, any predicate)
 * reachable from the join without passing the loop's header — in the rest of the iteration
 * or after the loop — or, for a join at the header, reachable from the loop's exits
 * (MERGE_ASKED_SAME)? Else, is a byte loaded from the address the parting comparison read one
 * from (through casts and arithmetic with a constant) compared again by such a branch outside
 * the loop (MERGE_ASKED_BYTE: busybox's escape parser classes `*q - '0'` in its digit loop and,
 * past it, looks `*q` up letter by letter)? */
merge_asked merge_decide_asked_again(merge_ctx *m, uint32_t func, uint32_t loop, uint32_t branch,
                                     uint32_t join);

/* Does the conditional branch at instruction `branch` of func compare a value with what
 * klee_get_value returned for it (through casts)? That is a concretization: the program
 * (strtod's digit_value in the libc model) needs the value concrete and forks once per value
 * it may take. Sides that parted there differ in constants the program chose to enumerate;
 * joined with ite, the value is symbolic again where the program needed it concrete (json-c
 * string_get_double: strtod's joined digits made every later query dearer and ended paths on
 * symbolic floating point). */
bool merge_decide_concretized(merge_ctx *m, uint32_t func, uint32_t branch);

/* Would every ite join that --incremental-merge's part of a region of loop `loop` of func could
 * make be declined by merge_decide_asked_again — for every conditional branch of the loop's
 * body and every join of the body (or its header) that both its sides reach in the
 * iteration? Only for an innermost loop whose body calls no defined function and forks at
 * conditional branches alone. Such a region's incremental part would only pay for its
 * breadth-first turns and snapshots (busybox printf_escape: 73,158 against plain pat's
 * 64,481). Cached per loop. */
bool merge_decide_joins_declined(merge_ctx *m, uint32_t func, uint32_t loop);

/* Does the values decline est describes (of merge_decide or merge_decide_values, without a ∀)
 * stand for every larger group at that exit whose members repeat their costly values no more
 * often than these do (d/n kept) — so that it can be taken on the first members to arrive
 * (issue 26, item 1: early decisions)? Of the formula's terms, more members only grow the
 * costly values (a value differing among n differs among more; a template that fits no n
 * points fits no more), so Q_v and arms only grow and the plain sites only shrink: the merged
 * cost per distinct tuple only grows; d/n kept, the merged cost then grows at least as fast
 * as n. The forked cost grows as n·(Q_t − Q_c), and Q_c can shrink (a value constant in these
 * members may not be in the next): bounded by n·Q_t. So: some merged value is read later
 * (Q_v > 0, no ∀'s loads counted) and 2·M > n·Q_t — declined even were every later site a
 * query in every forked state. */
bool merge_decline_stands(const merge_estimate *est);

/* Counts one decision about the states members[0..n) of region r. */
void merge_decision(merge_ctx *m, const merge_region *r, state *const *members, size_t n,
                    const char *outcome);
/* merge_decision for an early decision, taken while other regions may be released: its
 * --dump-tree note is kept with r (r->early_log) until r's tree is written. */
void merge_decision_early(merge_ctx *m, merge_region *r, state *const *members, size_t n,
                          const char *outcome);
/* The decisions noted for region r since the last call (--dump-tree only; r's early ones
 * first), as text lines; owned by the caller ("" when none). */
char *merge_decisions_take(merge_ctx *m, merge_region *r);

void merge_decide_free(merge_ctx *m); /* the cache; with the context */

#endif
