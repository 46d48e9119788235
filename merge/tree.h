/*
 * tree — the execution tree of one merge region (pat-merge.md §3): the root is the state at
 * region entry; every symbolic branch inside the region gives the branching leaf one child
 * per side, each carrying its condition (the false side the negation), also when a side is
 * infeasible (then the child is `dead`). tail(n) is the conjunction of the conditions from
 * the root to n.
 *
 * Contract: nodes live until merge_tree_free; conditions are owned references. The tree does
 * not know states: a leaf's `state` is an opaque pointer kept by the interpreter.
 */
#ifndef SYMQ_MERGE_TREE_H
#define SYMQ_MERGE_TREE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/expr.h"

typedef struct merge_node {
  uint32_t id;
  struct merge_node *parent, *first_child, *last_child, *next_sibling;
  expr *cond;   /* NULL at the root */
  bool dead;    /* an infeasible side */
  void *state;  /* the state at this leaf, or NULL */
} merge_node;

typedef struct merge_tree {
  merge_node *root;
  merge_node **nodes; /* by id */
  uint32_t count, cap;
} merge_tree;

merge_tree *merge_tree_new(void *root_state);
/* A new child of parent with condition cond (borrowed). */
merge_node *merge_tree_add(merge_tree *t, merge_node *parent, expr *cond, bool dead);
/* tail(n): a new reference (true at the root). */
expr *merge_tree_tail(const merge_node *n);
/* Graphviz DOT: one node per tree node (leaves with their state's label from `label`, dead
 * ones dashed), one edge per condition. */
void merge_tree_dot(FILE *f, const merge_tree *t, const char *title,
                    const char *(*label)(void *state, void *ctx), void *ctx);
void merge_tree_free(merge_tree *t); /* NULL is allowed */

#endif
