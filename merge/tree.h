/*
 * tree — the execution tree of one merge region (pat-merge.md §3): the root is the state at
 * region entry; every constraint a member adds inside the region is an edge to a new child
 * carrying it (a branch's infeasible side is added too, as a `dead` child). tail(n) is the
 * conjunction of the conditions from the root to n.
 *
 * Word symbols. An edge made by a branch instruction — either side of a `br`, each target of
 * a `switch`, also when only one side is feasible — is a *symbol*: it records the branch
 * (function, instruction, successor edge) and its condition's pattern hash salted with them.
 * Every other constraint — a memory bounds check, a pointer resolved to one object, a
 * division's nonzero check, a concretization, a klee_assume — is a *rider*: it is in tail(n)
 * like any edge but is not a symbol of the word; in a word it belongs to the last symbol
 * before it. Riders are left out because whether they are added at all depends on the
 * solver's answer at that point (an implied check adds nothing when constant, a
 * concretization adds a different constant each time), whereas a branch records its symbol
 * on every pass; so two iterations of one loop give equal symbol sequences.
 * The word H(n) of a leaf is the sequence of symbol hashes from the root to n.
 *
 * Validity (pat-merge.md §4): siblings must be distinguishable by their symbols. At every
 * fork (a node getting a second child) the children are checked: two symbols with equal
 * hashes, or a rider among siblings (a fork at a non-branch: two pointer targets, a bounds
 * check with both sides feasible), is a *conflict* at their parent; while one stands the
 * tree's hash is invalid, `invalid` names why, and pattern merging must fall back to CFG
 * merging for the region.
 *
 * Ended paths leave the partition. A member whose path ends inside the region (an error, an
 * exit, a path cut short) is reported with merge_tree_leaf_ended: its leaf is `ended`, and so
 * is every node all of whose children are ended or dead — no leaf below it will ever be
 * merged. Conflicts are judged among the children that are not ended, so the error side of a
 * bounds check (a division's zero check, an overshift…) that ended at once does not
 * invalidate the tree: its in-bounds sibling keeps its word, the check being a rider of it.
 * A conflict is re-judged whenever the children it is among change (one ends, one is
 * detached or spliced), so `invalid` always describes the tree as it stands. Validity is
 * what makes words find the patterns; soundness does not rest on it (synthesis checks every
 * member's conditions, merge/synth.h).
 *
 * Contract: nodes live until merge_tree_free; conditions are owned references. The tree does
 * not know states: a leaf's `state` is an opaque pointer kept by the region.
 */
#ifndef SYMQ_MERGE_TREE_H
#define SYMQ_MERGE_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/core/expr.h"

struct hmap;

/* The branch instruction that made an edge, and which of its successor edges. */
typedef struct merge_branch {
  uint32_t func, inst, edge;
} merge_branch;

typedef struct merge_node {
  uint32_t id;
  struct merge_node *parent, *first_child, *last_child, *next_sibling;
  expr *cond;            /* NULL at the root */
  bool dead;             /* an infeasible side */
  bool symbol;           /* made by a branch instruction: a symbol of the word */
  merge_branch branch;   /* symbols only */
  uint64_t hash;         /* symbols only: cond's pattern hash salted with `branch` */
  void *state;           /* the state at this leaf, or NULL */
  bool detached;         /* cut off by incremental merging (kept until merge_tree_free) */
  bool ended;            /* every path through it ended inside the region (see Validity) */
  uint32_t loop_entries; /* entries into the region's loop header made at this node (a
                            state entering the header counts at its leaf): the sum from
                            the root to a node is the iteration a state there is in */
  uint8_t conflict;      /* the conflict standing among its children: a merge_conflict */
  bool nested;           /* a symbol summing up a nested region's release (merge_tree_add_nested) */
} merge_node;

/* What makes siblings indistinguishable, worst last. */
typedef enum merge_conflict {
  MERGE_CONFLICT_NONE,
  MERGE_CONFLICT_COLLISION, /* two symbols with one hash */
  MERGE_CONFLICT_RIDER,     /* a rider among siblings */
} merge_conflict;

typedef struct merge_tree {
  merge_node *root;
  merge_node **nodes; /* by id */
  uint32_t count, cap;
  const char *invalid;    /* why the pattern hash is invalid for this tree (static), or NULL */
  uint32_t nconflicts[3]; /* standing conflicts by merge_conflict (index 0 unused) */
  bool reshaped;          /* incremental merging cut it: a node's own condition may overlap a
                             sibling's (their whole subtrees' paths stay disjoint) */
} merge_tree;

/* The reasons `invalid` may hold. */
extern const char merge_invalid_collision[];
extern const char merge_invalid_rider_fork[];

merge_tree *merge_tree_new(void *root_state);
/* A new child of parent with condition cond (borrowed): a symbol of `branch`, or a rider
 * when branch is NULL. Checks the new sibling against the others (see Validity). */
merge_node *merge_tree_add(merge_tree *t, merge_node *parent, expr *cond, bool dead,
                           const merge_branch *branch);
/* Nested regions (issue 26, item 3c): a child of parent for a state that comes back from a
 * region nested in this tree's (an inner loop, merged first). cond (borrowed) is the
 * conjunction of what the state added in the inner region — for a state merged there by
 * pattern, its ∀ and its K — and the node is a symbol of `branch` (by convention {the inner
 * loop's function, UINT32_MAX − its loop index, the block the state left it from}) whose hash is
 * cond's *shape*: its pattern hash with every array that is not an input alike (each inner merge
 * has a K of its own), so that the outer loop's iterations give equal symbols. */
merge_node *merge_tree_add_nested(merge_tree *t, merge_node *parent, expr *cond,
                                  const merge_branch *branch);
/* A state that comes back from the nested region unmerged brings its path: the nodes from
 * src's root to leaf (and the dead siblings along it) are copied under `at` in t, each once —
 * `copies` (src node id + 1 → the copy) is shared by the states of one release, so paths that
 * share nodes in src share their copies. Returns the copy of leaf (`at` for src's root). */
merge_node *merge_tree_graft(merge_tree *t, merge_node *at, const merge_node *leaf,
                             struct hmap *copies);
/* cond's shape hash (see merge_tree_add_nested). */
uint64_t merge_tree_shape_hash(const expr *cond);
/* The member at `leaf` (a node without children) ended inside the region: leaf and every
 * ancestor left with only ended or dead children are `ended`; the conflicts among their
 * siblings are judged again (see Validity). */
void merge_tree_leaf_ended(merge_tree *t, merge_node *leaf);
/* Incremental merging (merge/incremental.h) reshapes the tree: merge_tree_detach cuts n and
 * its subtree off (marked detached, freed with the tree); merge_tree_splice replaces p, whose
 * only child not dead is c, by c with condition cond(p) ∧ cond(c) (a symbol keeps its branch,
 * its hash is recomputed, checked against its new siblings, its loop_entries gets p's); p
 * and its dead children are detached. p is not the root. */
void merge_tree_detach(merge_tree *t, merge_node *n);
void merge_tree_splice(merge_tree *t, merge_node *p, merge_node *c);
/* tail(n): a new reference (true at the root). */
expr *merge_tree_tail(const merge_node *n);
/* The word H(n): the symbol hashes from the root to n, written to out (at most cap of
 * them); returns how many symbols the word has. */
size_t merge_tree_word(const merge_node *n, uint64_t *out, size_t cap);
/* Graphviz DOT: one node per tree node (leaves with their state's label from `label`, dead
 * ones dashed), one edge per condition (symbols with their hash and branch, riders
 * dotted, a nested region's release bold with its loop). */
void merge_tree_dot(FILE *f, const merge_tree *t, const char *title,
                    const char *(*label)(void *state, void *ctx), void *ctx);
void merge_tree_free(merge_tree *t); /* NULL is allowed */

#endif
