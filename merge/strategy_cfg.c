/* strategy_cfg.c — standard merging along the execution tree (contract in strategy_cfg.h). */
#include "merge/strategy_cfg.h"

#include <stdlib.h>

#include "engine/core/memory.h"
#include "engine/core/xalloc.h"
#include "merge/decide.h"
#include "merge/validate.h"

/* ite(g1, v1, ite(g2, v2, … vn)): the guards are mutually exclusive tails. */
static expr *ite_chain(merge_ctx *m, expr *const *guards, expr *const *values, size_t n) {
  expr *v = values[n - 1];
  for (size_t j = n - 1; j-- > 0;) v = merge_tmp(m, expr_ite(guards[j], values[j], v));
  return v;
}

/* Merging along the execution tree: per tree node, how many of the group's states lie below
 * it, and which state sits at it. A node's disjunction is the OR, over its children that
 * hold members, of (the child's condition ∧ the child's disjunction); its value is an ite on
 * the children's own conditions — no guard at all where only one child holds members, since
 * the merged pc already implies that child's condition. */
typedef struct tree_merge {
  const merge_tree *tree;
  uint32_t *below; /* per node id: group members in its subtree */
  int32_t *member; /* per node id: the group index of the state at this leaf, or -1 */
} tree_merge;

/* Prepares the tree walk for a group; false when it cannot apply (two members on one leaf,
 * a member off the tree, a tree reshaped by incremental merging or a nested node beside a
 * sibling holding members, where a child's own condition is no guard), and then the flat
 * construction over the tails is used. */
static bool tree_merge_init(tree_merge *tm, const merge_region *r, state *const *group, size_t n) {
  const merge_tree *t = r->tree;
  if (t->reshaped) {
    *tm = (tree_merge){0};
    return false;
  }
  tm->tree = t;
  tm->below = xcalloc(t->count, sizeof *tm->below);
  tm->member = xrealloc(NULL, t->count * sizeof *tm->member);
  for (uint32_t k = 0; k < t->count; k++) tm->member[k] = -1;
  for (size_t j = 0; j < n; j++) {
    const merge_node *leaf = group[j]->leaf;
    if (!leaf || leaf->id >= t->count || t->nodes[leaf->id] != leaf || tm->member[leaf->id] >= 0 ||
        leaf->first_child)
      return false;
    tm->member[leaf->id] = (int32_t)j;
    for (; leaf; leaf = leaf->parent) tm->below[leaf->id]++;
  }
  /* A nested node's condition is its merged state's whole tail, which need not exclude its
   * siblings' branch conditions (wget html_tags: a tag-name scan's merge for K = 0 implies its
   * sibling's `32 < s[i]`), so an ite over the children would give a member its sibling's
   * value: the flat construction over the tails is exact there (test/merge/treenest). */
  for (size_t j = 0; j < n; j++)
    for (const merge_node *x = group[j]->leaf; x->parent; x = x->parent)
      if (x->nested)
        for (const merge_node *c = x->parent->first_child; c; c = c->next_sibling)
          if (c != x && tm->below[c->id]) return false;
  return true;
}

static void tree_merge_free(tree_merge *tm) {
  free(tm->below);
  free(tm->member);
}

static bool held_after(const tree_merge *tm, const merge_node *c) {
  for (c = c->next_sibling; c; c = c->next_sibling)
    if (tm->below[c->id]) return true;
  return false;
}

static expr *tree_disjunction(merge_ctx *m, const tree_merge *tm, const merge_node *node) {
  if (tm->member[node->id] >= 0) return merge_tmp(m, expr_true());
  expr *any = merge_tmp(m, expr_false()), *first = NULL;
  const merge_node *first_child = NULL;
  size_t nheld = 0;
  for (const merge_node *c = node->first_child; c; c = c->next_sibling) {
    if (!tm->below[c->id]) continue;
    expr *d = tree_disjunction(m, tm, c);
    /* (c ∧ D) ∨ (¬c ∧ D) is D: a branch whose two sides reach the members alike (apr's
     * space test in apr_collapse_spaces) leaves no disjunction in the merged pc */
    if (++nheld == 2 && d == first && !held_after(tm, c) &&
        merge_tmp(m, expr_not(first_child->cond)) == c->cond)
      return d;
    if (nheld == 1) first = d, first_child = c;
    any = merge_tmp(m, expr_or(any, merge_tmp(m, expr_and(c->cond, d))));
  }
  return any;
}

/* The merged value below node: ite over every child that holds members, however many. */
static expr *tree_value(merge_ctx *m, const tree_merge *tm, const merge_node *node,
                        expr *const *vals) {
  if (tm->member[node->id] >= 0) return vals[tm->member[node->id]];
  const merge_node *last = NULL;
  for (const merge_node *c = node->first_child; c; c = c->next_sibling)
    if (tm->below[c->id]) last = c;
  expr *v = tree_value(m, tm, last, vals);
  /* children are linked first to last: build the chain by recursing to the end first */
  size_t nheld = 0;
  for (const merge_node *c = node->first_child; c != last; c = c->next_sibling)
    nheld += tm->below[c->id] != 0;
  const merge_node **held = xrealloc(NULL, (nheld + 1) * sizeof *held);
  nheld = 0;
  for (const merge_node *c = node->first_child; c != last; c = c->next_sibling)
    if (tm->below[c->id]) held[nheld++] = c;
  for (size_t k = nheld; k-- > 0;)
    v = merge_tmp(m, expr_ite(held[k]->cond, tree_value(m, tm, held[k], vals), v));
  free(held);
  return v;
}

state *merge_state_new(merge_ctx *mc, const merge_region *r, state *const *group) {
  state *m = state_fork(group[0], mc->host.new_state_id(mc->host.ctx));
  while (m->npc > r->entry_npc) expr_unref(m->pc[--m->npc]);
  return m;
}

void merge_state_finish(state *m, state *const *group, size_t n) {
  for (size_t j = 1; j < n; j++) {
    if (group[j]->depth > m->depth) m->depth = group[j]->depth;
    if (group[j]->since_new_coverage < m->since_new_coverage)
      m->since_new_coverage = group[j]->since_new_coverage;
  }
  m->region = NULL;
  m->leaf = NULL;
  m->paused = false;
  m->pointer_forks = 0;
}

void merge_each_value(merge_ctx *mc, state *m, state *const *group, size_t n, merge_value_fn merge,
                      void *arg, merge_values *values) {
  expr **vals = xrealloc(NULL, n * sizeof *vals);
  for (uint32_t k = 0; k < m->nframes; k++) {
    state_frame *f = &m->frames[k];
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
      bool same = true, missing = false;
      for (size_t j = 0; j < n; j++) {
        vals[j] = group[j]->frames[k].regs[reg];
        same &= vals[j] == vals[0];
        missing |= !vals[j];
      }
      if (same) continue;
      /* a register some path never set is dead here (SSA: every use is dominated by a def) */
      expr *merged = missing ? NULL : merge(mc, vals, n, arg);
      state_set_reg(f, reg, merged);
      if (merged && mc->opt.validate) merge_values_add(values, merged, vals);
    }
  }
  mem_space **spaces = xrealloc(NULL, n * sizeof *spaces);
  for (size_t j = 0; j < n; j++) spaces[j] = group[j]->mem;
  bool *differ = NULL;
  uint64_t cap_differ = 0;
  for (size_t i = 0; i < mem_space_count(m->mem); i++) {
    const mem_object *o = mem_space_object_at(m->mem, i);
    if (o->read_only) continue;
    bool shared = true;
    for (size_t j = 1; j < n && shared; j++)
      shared = mem_shares_contents(group[0]->mem, group[j]->mem, o);
    if (shared) continue;
    if (o->capacity > cap_differ) {
      cap_differ = o->capacity;
      differ = xrealloc(differ, cap_differ);
    }
    /* only the bytes that may differ are read: reading every byte of every member built
     * an expression per byte and member, most of them for bytes no member changed */
    if (!mem_bytes_differing(spaces, n, o, differ)) continue;
    for (uint64_t b = 0; b < o->capacity; b++) {
      if (!differ[b]) continue;
      expr *at = merge_tmp(mc, expr_const(64, b));
      bool same = true;
      for (size_t j = 0; j < n; j++) {
        vals[j] = merge_tmp(mc, mem_read(group[j]->mem, o, at, 1));
        same &= vals[j] == vals[0];
      }
      if (same) continue;
      expr *merged = merge(mc, vals, n, arg);
      mem_write(m->mem, o, at, merged);
      if (mc->opt.validate) merge_values_add(values, merged, vals);
    }
  }
  free(differ);
  free(spaces);
  free(vals);
}

/* The CFG way of merging one value: along the tree, or flat over the tails. */
typedef struct cfg_value {
  const merge_region *r;
  const tree_merge *tm; /* NULL: flat */
  expr *const *tails;
} cfg_value;

static expr *merge_value_cfg(merge_ctx *mc, expr *const *vals, size_t n, void *arg) {
  const cfg_value *cv = arg;
  return cv->tm ? tree_value(mc, cv->tm, cv->r->tree->root, vals)
                : ite_chain(mc, cv->tails, vals, n);
}

state *merge_cfg(merge_ctx *mc, const merge_region *r, state *const *group, size_t n) {
  expr **tails = xrealloc(NULL, n * sizeof *tails);
  merge_values values = {.nparts = n};
  expr *any = merge_tmp(mc, expr_false());
  for (size_t j = 0; j < n; j++) {
    tails[j] = merge_tail(mc, group[j], r->entry_npc);
    any = merge_tmp(mc, expr_or(any, tails[j]));
  }
  tree_merge tm;
  bool along_tree = tree_merge_init(&tm, r, group, n);
  if (along_tree) any = tree_disjunction(mc, &tm, r->tree->root);
  state *m = merge_state_new(mc, r, group);
  state_add_constraint(m, any);
  cfg_value cv = {r, along_tree ? &tm : NULL, tails};
  merge_each_value(mc, m, group, n, merge_value_cfg, &cv, &values);
  merge_state_finish(m, group, n);
  if (mc->opt.validate) merge_validate(mc, m, group, tails, NULL, n, &values);
  if (along_tree) mc->stats->merges_along_tree++;
  tree_merge_free(&tm);
  merge_values_free(&values);
  free(tails);
  mc->stats->merges++;
  mc->stats->merged_states += n;
  return m;
}

size_t merge_cfg_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg) {
  (void)arg;
  out[0] = merge_cfg(m, r, group, n);
  merge_decision(m, r, group, n, "merged (cfg)");
  return 1;
}

void merge_use_cfg(merge_ctx *m) { merge_set_strategy(m, merge_cfg_strategy, NULL, NULL); }
