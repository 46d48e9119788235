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
 * Variables (--interpolate=wp, prune/data.h): when `vars` is set (the ids of the arrays that
 * prune made as fresh variables for data registers, each read whole as one value), σ also
 * maps a variable V of the node to any expression of the state of V's width (the value the
 * state's register holds where the node's held V), once: a later occurrence must match the
 * same expression. A variable met inside an expression both sides share is mapped to itself.
 * prune_rename_apply replaces V (and a constant-index read of part of it) by its image.
 * Sound for the same reason as the renaming of arrays: V is a symbol of the node's state, and
 * the node's interpolant holds for every value of its symbols that satisfies it.
 *
 * Against an ancestor (`ancestor`, for covering: prune.h), whose inputs are all the state's
 * too, σ may map any input to an input of the same shape, and an array (or variable) met as
 * itself is recorded as mapped to itself, so that no occurrence is renamed one way here and
 * another way there. prune_rename_moves then says whether an expression still holds an array
 * σ moves (an occurrence apply could not rename): the caller must not trust σ(e) then.
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
  const hmap *vars; /* array id + 1 of each variable (set by the caller), or NULL */
  bool ancestor;    /* the node is an ancestor of the state (set by the caller): see above */
  hmap binds;       /* variable's array id + 1 → its image (a borrowed expression) */
  hmap extra;       /* array id + 1 of inputs bound as variables (prune_rename_bind_input) */
  size_t nbinds;
} prune_rename;

void prune_rename_begin(prune_rename *r, const state *st, expr_array *const *node_inputs, size_t n);
void prune_rename_end(prune_rename *r);
/* Whether σ (grown as needed) maps e_node to e_state (both may be NULL: equal only then). */
bool prune_rename_match(prune_rename *r, expr *e_node, expr *e_state);
/* Maps variable `var` (a whole read of one of vars' arrays) to `value` (borrowed): false when
 * it is already mapped to another expression. */
bool prune_rename_bind(prune_rename *r, expr *var, expr *value);
/* Against an ancestor: binds `read`, a whole read of an input σ does not map yet (as an
 * array or a variable), to `value` (borrowed), as if it were a variable — σ may choose any
 * image for a symbol the ancestor's snapshot does not hold. False (nothing bound) otherwise.
 * A later occurrence of that input is replaced by value (or a part of it). */
bool prune_rename_bind_input(prune_rename *r, expr *read, expr *value);
/* Whether σ maps variable `var` already. */
bool prune_rename_binds(const prune_rename *r, expr *var);
/* Whether e is a whole read of one of vars' arrays. */
bool prune_rename_is_var(const prune_rename *r, const expr *e);
/* Whether e reads an array σ maps elsewhere, or a variable σ maps elsewhere (an occurrence
 * σ(e) left). */
bool prune_rename_moves(const prune_rename *r, expr *e);
/* σ(e): a new reference (e itself, referenced, when σ is the identity). */
expr *prune_rename_apply(prune_rename *r, expr *e);

#endif
