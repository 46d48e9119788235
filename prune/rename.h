/*
 * rename — matching a node's snapshot against a later state up to a renaming σ of the
 * symbolic inputs each made on its own (seeds 000 §5.2: an object is identified by its
 * allocation site, not by the address or name one run gave it). Each __VERIFIER_nondet_X
 * call makes a fresh input array, so two states at the same point after a loop of such
 * calls hold the same expressions over *different* arrays; without σ they never match.
 *
 * σ maps an input array A of the node to an input array B of the state when A is not one
 * of the state's inputs, B is not one of the node's, both have the same constant size, and
 * no other array maps to B (σ is injective); every other array maps to itself. Matching
 * e_node against e_state succeeds when σ(e_node) is e_state (the same operators, immediates
 * and update lists, arrays related by σ), growing σ as it goes.
 *
 * Why it is sound (docs/interpolation.md): given a valuation V' of the state's inputs,
 * V = V'∘σ values the node's; when every relevant register and memory byte matched, the
 * node's state under V is the state under V', so if V' satisfies σ(Ψ) then V satisfies Ψ
 * and the node's safe subtree is the state's. prune_rename_apply renames the reads at
 * constant indices (all a nondet value has); an occurrence it cannot rename keeps the
 * node's array, which is then free in the query (the state never had it), so the
 * implication is only harder to prove.
 *
 * Contract: arrays and expressions are borrowed; begin/end bracket one match; matching is
 * deterministic (σ grows in the order of the calls).
 */
#ifndef SYMQ_PRUNE_RENAME_H
#define SYMQ_PRUNE_RENAME_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/core/expr.h"
#include "engine/core/hashmap.h"
#include "engine/core/state.h"

typedef struct prune_rename {
  const state *st;
  expr_array *const *node_inputs; /* the node's inputs when its snapshot was taken */
  size_t nnode_inputs;
  hmap to, from;   /* array → array, both directions */
  hmap memo;       /* node expression → state expression, matched */
  hmap mine, node; /* the state's and the node's inputs (built on first need) */
  bool built;
  expr_array **pairs; /* σ's non-identity pairs: pairs[2k] ↦ pairs[2k + 1] */
  size_t npairs, cap_pairs;
} prune_rename;

void prune_rename_begin(prune_rename *r, const state *st, expr_array *const *node_inputs, size_t n);
void prune_rename_end(prune_rename *r);
/* Whether σ (grown as needed) maps e_node to e_state (both may be NULL: equal only then). */
bool prune_rename_match(prune_rename *r, expr *e_node, expr *e_state);
/* σ(e): a new reference (e itself, referenced, when σ is the identity). */
expr *prune_rename_apply(prune_rename *r, expr *e);

#endif
