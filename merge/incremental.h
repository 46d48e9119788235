/*
 * incremental — incremental state merging inside a region (pat-merge.md §6, the paper's §4),
 * --incremental-merge. After every fork inside a region, each side's state is snapshotted
 * (copy-on-write) at the first non-phi instruction of the block it enters; the snapshot stays
 * with its tree node while the state runs on. In a loop region a member that forked in the
 * current iteration is snapshotted again (replacing its leaf's snapshot) where it enters a
 * join of the loop's body: a block other than the header entered by two edges or more, in a
 * loop that contains no other loop; and one that forked in the iteration it just ended, where
 * it enters the header of such a loop (a body whose arms end with `continue` meets only
 * there). The
 * iteration of a node is the number of header entries on its path (merge_node.loop_entries).
 * When no state is running (between the interpreter's slices), every new snapshot n is
 * compared with the snapshots of the other nodes; the compatible node n' closest to the root
 * (then the oldest) is merged with it when
 *   - n' is neither an ancestor nor a descendant of n,
 *   - both are at the same instruction with the same call stack, inputs and objects, and
 *     either every register live there (merge/liveness.h, per frame) and every writable byte
 *     of memory are syntactically equal, or (a join: when no equal partner exists) both are
 *     at a block of the loop's body other than its header, in the iteration of their lowest
 *     common ancestor, or both at the header, in the iteration after their lowest common
 *     ancestor's, their paths since it exclude each other (asked of the solver),
 *     they agree in every live register of the loop's function that an address of its
 *     memory accesses is computed from (an ite there would make every later access a read
 *     at a symbolic index), and the comparison of the loop's function at which their paths
 *     parted is not asked again after the join, in the rest of the iteration or after the
 *     loop, nor the byte it read compared again after the loop (merge_decide_asked_again:
 *     the joined state would be split there into the two sides again), their paths did
 *     not part, in any function, at a comparison with what klee_get_value returned
 *     (merge_decide_concretized: the program enumerates that value's constants, an ite
 *     would make it symbolic again), and no join at that position was undone after its
 *     loop, or by a joined path that ended on a symbolic operand of floating point (see
 *     "Joins a later fork undid" below),
 *   - no path below n or n' has ended inside the region (its test is written: redoing it
 *     would write it twice), and n is not a state that left a loop region (the release
 *     merges those; merging them here would take them from under the join snapshots).
 * Merging n away from under an ancestor (below L) drops that ancestor's snapshot: it no
 * longer stands for every path below it, and merging it later would cover n's paths twice.
 * The merge: both subtrees' states are discarded (their paths are redone from the merged
 * node, none is lost), one node joins the lowest common ancestor L with condition
 * tail(L→n) ∨ tail(L→n') — the side whose first branch below L comes first (instruction,
 * then edge) listed first, its branch the node's symbol, so that each iteration's join is one
 * symbol of the word — and its state — n'`s snapshot with its path condition cut back to L's
 * and that disjunction added, and at a join every register and byte on which the sides
 * differ an ite over the first side's tail — resumes; nodes left with no child are removed
 * and those left with one child are spliced (conditions conjoined), except a node whose
 * snapshot waits at a join of the body (or at the header) for the other side. Unlike the paper, L
 * need not be the parent of n or n' (symq's tree has any number of children and its one-sided
 * branches are nodes too). With --validate-merges each merge is checked (merge/validate.h); with
 * --tests-per-merge=all each side's snapshot gets a test first, as a release's members do.
 *
 * A region whose loop holds another loop drops its incremental part once two of its merged
 * states have reached its exits while none of them has forked inside it (merges_idle): it goes
 * on as a plain region (not one that gave up), its exits merged on release, as after
 * merge_inc_give_up, which it uses.
 *
 * Contract: a region's incremental part is made when the region opens (merge_inc_region_new)
 * and freed with it; it owns the snapshots. States are owned by the interpreter: discarded
 * ones go to merge_host.discard, merged ones come from merge_host.new_state_id and go to
 * merge_host.resume(fresh=true). merge_inc_run must be called only while no state executes.
 */
#ifndef SYMQ_MERGE_INCREMENTAL_H
#define SYMQ_MERGE_INCREMENTAL_H

#include <stddef.h>

#include "engine/core/state.h"
#include "merge/strategy.h"

typedef struct merge_inc_region merge_inc_region;

merge_inc_region *merge_inc_region_new(void);
void merge_inc_region_free(merge_inc_region *ir); /* NULL is allowed; frees the snapshots */

/* A node of r's tree was made for st (after its constraint, if any, joined st's path). */
void merge_inc_node_added(merge_region *r, const merge_node *node, const state *st);
/* st entered a block (its phi moves done): snapshots it if its leaf was just forked. */
void merge_inc_entered_block(merge_ctx *m, state *st);
/* A member ended inside the region at its leaf (a test may be written): nothing above
 * that leaf may be merged away any more. */
void merge_inc_member_ended(merge_region *r, const merge_node *leaf);
/* Breadth-first inside the region: members take turns, one slice each, the sides of a fork
 * queued behind the member that ran. A waiting member is parked with st->paused set (it
 * still counts as running). merge_inc_forked: child was forked inside r. merge_inc_leaving:
 * st is about to stop being a running member (it ends, pauses at the exit or is discarded):
 * it leaves the queues; true when it was waiting (then it is not in the searcher, and its
 * paused mark is cleared: it counts as running). */
void merge_inc_forked(merge_region *r, state *child);
bool merge_inc_leaving(merge_region *r, state *st);
/* Regions nested in r (merge/region.c) are plain ones (no incremental part). When st, a
 * member of r at `leaf`, opens one, merge_inc_nest_opened takes st out of r's turns (the
 * nested region's states run as its members do, depth-first) and, until
 * merge_inc_nest_closed, no node at or above `leaf` is merged: merging it away would redo
 * paths the nested region's states explore, which r's merge cannot discard. A state that
 * comes back to r at node n under `leaf` (nodes grafted between them) gets its turns again
 * (merge_inc_nest_rejoined); n's path condition is st's, a grafted node's cut at `leaf`. */
uint32_t merge_inc_merges(const merge_region *r); /* nodes merged in r so far (0: no part) */
void merge_inc_nest_opened(merge_region *r, const merge_node *leaf, state *st);
void merge_inc_nest_closed(merge_region *r, const merge_node *leaf);
void merge_inc_nest_rejoined(merge_region *r, const merge_node *leaf, const merge_node *n,
                             state *st);
/* Merges every new snapshot of r that has a partner, then lets the next member run. No
 * state may be executing. */
void merge_inc_run(merge_ctx *m, merge_region *r);
/* The per-function liveness cache of the context (computed when first needed). */
void merge_inc_liveness_free(merge_ctx *m);

/* The members of r that wait for their turn (queued, or forked since the last slice and
 * about to be): every running member but the one whose turn it is. 0 without an incremental
 * part. */
size_t merge_inc_waiting(const merge_region *r);
/* r gives up (merge/region.c): every member waiting for its turn resumes (the queue's front
 * last, so that DFS runs it first) and runs on as an ordinary member, the snapshots are
 * dropped — none may be merged after the give-up: its subtree's states now run forked, and a
 * merge would redo their paths — and the incremental part is freed (r->inc = NULL), so r is
 * from then on a region that gave up like any other. Any time, even while a state executes
 * (it merges nothing). */
void merge_inc_give_up(merge_ctx *m, merge_region *r);

/* Joins a later fork undid (every region of the run): a join site — the position where two
 * sides were joined with ite — joins no more, nor merges equal sides, once a state carrying one
 * of its joins forks, outside the join's loop, on exactly the condition one side's path took
 * since the sides parted (its tail, or that negated): there the joined state splits into the
 * two sides again, each still paying for the join's ite in every later query. merge_at_branch
 * reports a conditional branch of st on cond before it is decided, merge_forked every fork (a
 * branch's when at the same instruction), merge_gone every state that ends. */
void merge_inc_at_branch(merge_ctx *m, const state *st, expr *cond);
void merge_inc_state_forked(merge_ctx *m, const state *parent, const state *child);
void merge_inc_state_gone(merge_ctx *m, const state *st);
/* Joins that lost a path: st, about to end because an operation symq computes on constants
 * only (floating point) got a symbolic operand, carries joins whose ite may have made that
 * operand symbolic where each side held a constant (strtod's digits, concretized by
 * klee_get_value): forked, the sides would have run on. Their sites join no more. */
void merge_inc_state_unsupported(merge_ctx *m, const state *st);
void merge_inc_undone_free(merge_ctx *m);

/* The decision counted for each pair of snapshots not joined at a site whose join was undone. */
#define MERGE_INC_UNDONE \
  "join declined: a join here was split again on its sides' own condition after its loop"

/* The decision counted for each pair of snapshots not joined at a site one of whose joins
 * was carried by a state that ended on a symbolic operand (merge_inc_state_unsupported). */
#define MERGE_INC_LOST \
  "join declined: a state carrying a join here ended on a symbolic operand of floating point"

/* The decision counted for each pair of snapshots not joined because their paths parted at
 * a comparison with what klee_get_value returned (merge_decide_concretized). */
#define MERGE_INC_CONCRETIZED \
  "join declined: its sides parted where the program concretized a value (klee_get_value)"

/* The decision (merge.decisions) counted for each pair of snapshots not joined because the
 * comparison their paths parted at is asked again after the join (merge_decide_asked_again). */
#define MERGE_INC_ASKED_AGAIN \
  "join declined: the comparison its sides parted at is asked again after the join"

/* The decision counted for each pair of snapshots not joined because the byte the comparison
 * their paths parted at read is compared again after the loop (merge_decide_asked_again). */
#define MERGE_INC_BYTE_AGAIN \
  "join declined: the byte its sides parted at is compared again after the loop"

#endif
