/* strategy_pat.c — the ∀-merged state of a regular partition (contract in strategy_pat.h). */
#include "merge/strategy_pat.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"
#include "merge/decide.h"
#include "merge/strategy_cfg.h"
#include "merge/synth.h"
#include "merge/validate.h"

/* The root's symbol: no condition hashes to it (a 64-bit collision aside, which would only
 * make a pattern fail to be found, never a wrong merge: every merge is checked by synthesis). */
enum { ROOT_SYMBOL_HASH = 0x5ea7ed0000000001ULL };

/* A member's path, one position per symbol: its code and its condition (the symbol's own
 * condition and the riders below it, conjoined). Position 0 is the root. */
typedef struct member_path {
  uint32_t *word;
  expr **conds; /* conds[0]: the riders at the root (true if none); merge_tmp references */
  size_t len;
  bool nested_forall; /* a symbol for a nested region's release holds a ∀ (merge/tree.h) */
} member_path;

/* Where a member's path stands right after a node of the tree: the member whose path passed
 * it first, how long that path was (len) and its last condition then (the riders so far
 * conjoined). Members of one group share their prefixes (a loop's exits hang off one spine),
 * so a later member copies the prefix up to the deepest node already read and conjoins only
 * its own riders below it: a group costs its tree's nodes, not the sum of its paths' depths. */
typedef struct path_mark {
  size_t member, len;
  expr *last;
  bool nested_forall;
} path_mark;

typedef struct path_memo {
  hmap at; /* node id + 1 → index into marks */
  path_mark *marks;
  size_t nmarks, cap;
} path_memo;

static void path_memo_free(path_memo *pm) {
  hmap_free(&pm->at);
  free(pm->marks);
}

static void mark_node(path_memo *pm, const merge_node *n, size_t member, const member_path *p) {
  if (pm->nmarks == pm->cap) {
    pm->cap = pm->cap ? 2 * pm->cap : 64;
    pm->marks = xrealloc(pm->marks, pm->cap * sizeof *pm->marks);
  }
  pm->marks[pm->nmarks] = (path_mark){member, p->len, p->conds[p->len - 1], p->nested_forall};
  hmap_put(&pm->at, (uint64_t)n->id + 1, pm->nmarks++);
}

/* Member j's path (paths[0..j) read before it, their nodes marked in pm). */
static bool read_path(merge_ctx *m, pat_alphabet *ab, const merge_region *r, const state *st,
                      member_path *paths, size_t j, path_memo *pm) {
  const merge_node *leaf = st->leaf;
  if (!leaf || leaf->id >= r->tree->count || r->tree->nodes[leaf->id] != leaf || leaf->first_child)
    return false;
  /* the nodes below the deepest one a member before read (all up to the root if none) */
  const path_mark *from = NULL;
  size_t depth = 0;
  uint64_t at;
  for (const merge_node *n = leaf; n->parent; n = n->parent) {
    if (hmap_get(&pm->at, (uint64_t)n->id + 1, &at)) {
      from = &pm->marks[at];
      break;
    }
    depth++;
  }
  const merge_node **path = xmalloc((depth + 1) * sizeof *path);
  size_t k = depth;
  for (const merge_node *n = leaf; k; n = n->parent) path[--k] = n;
  member_path *p = &paths[j];
  size_t room = (from ? from->len : 1) + depth;
  p->word = xmalloc(room * sizeof *p->word);
  p->conds = xmalloc(room * sizeof *p->conds);
  if (from) {
    const member_path *q = &paths[from->member];
    memcpy(p->word, q->word, from->len * sizeof *p->word);
    memcpy(p->conds, q->conds, (from->len - 1) * sizeof *p->conds);
    p->conds[from->len - 1] = from->last;
    p->len = from->len;
    p->nested_forall = from->nested_forall;
  } else {
    p->len = 1;
    p->word[0] = pat_alphabet_code(ab, ROOT_SYMBOL_HASH);
    p->conds[0] = merge_tmp(m, expr_true());
  }
  for (size_t i = 0; i < depth; i++) {
    const merge_node *n = path[i];
    p->nested_forall |= n->nested && n->cond->has_forall;
    if (n->symbol) {
      p->word[p->len] = pat_alphabet_code(ab, n->hash);
      p->conds[p->len++] = n->cond;
    } else {
      p->conds[p->len - 1] = merge_tmp(m, expr_and(p->conds[p->len - 1], n->cond));
    }
    mark_node(pm, n, j, p);
  }
  free(path);
  return true;
}

static void paths_free(member_path *paths, pat_word *words, size_t n) {
  for (size_t j = 0; j < n; j++) {
    free(paths[j].word);
    free(paths[j].conds);
  }
  free(paths);
  free(words);
}

/* The members' paths and words (paths[j], words[j] for group[j]); false when one is off the
 * tree (then the later ones are not read). */
static bool read_paths(merge_ctx *m, pat_alphabet *ab, const merge_region *r, state *const *group,
                       size_t n, member_path *paths, pat_word *words) {
  bool on_tree = true;
  path_memo pm = {0};
  for (size_t j = 0; j < n && on_tree; j++) {
    on_tree = read_path(m, ab, r, group[j], paths, j, &pm);
    words[j] = (pat_word){paths[j].word, paths[j].len};
  }
  path_memo_free(&pm);
  return on_tree;
}

/* The members of partition p, in group order, and what decides whether PAT can merge them. */
typedef struct partition_members {
  size_t k;           /* members[0..k), counts[0..k) (their loop counts) */
  bool distinct;      /* no two members have one count */
  bool same_root;     /* one set of riders at the root (root_riders) */
  bool nested_forall; /* a member's path holds an inner region's ∀ merge */
  expr *root_riders;  /* the first member's (the same nodes for every member of a valid tree) */
} partition_members;

/* Gathers partition p of parts into members/counts and, when leaves is not NULL, the leaves
 * synth_formula_pattern reads. */
static partition_members gather_partition(const pat_partitioning *parts, size_t p,
                                          state *const *group, const member_path *paths, size_t n,
                                          state **members, uint64_t *counts, synth_leaf *leaves) {
  partition_members pm = {.distinct = true, .same_root = true};
  for (size_t j = 0; j < n; j++) {
    if (parts->pattern_of[j] != p) continue;
    for (size_t i = 0; i < pm.k; i++) pm.distinct &= counts[i] != parts->count[j];
    if (!pm.root_riders) pm.root_riders = paths[j].conds[0];
    pm.same_root &= paths[j].conds[0] == pm.root_riders;
    pm.nested_forall |= paths[j].nested_forall;
    members[pm.k] = group[j];
    counts[pm.k] = parts->count[j];
    if (leaves) leaves[pm.k] = (synth_leaf){paths[j].conds + 1, paths[j].len - 1, parts->count[j]};
    pm.k++;
  }
  return pm;
}

/* ---- the ∀-merged state ------------------------------------------------------------------- */

typedef struct value_fit {
  const uint64_t *counts;
  expr *bvar, *K;
  synth_point *points;
} value_fit;

/* x = t(K) when a template fits (m_j, x_j) for every j; else ite on K over the counts. */
static expr *merge_value_on_k(merge_ctx *mc, expr *const *vals, size_t n, void *arg) {
  value_fit *vf = arg;
  for (size_t j = 0; j < n; j++) vf->points[j] = (synth_point){vf->counts[j], vals[j]};
  expr *t = synth_fit(vf->points, n, vf->bvar);
  if (t) {
    merge_tmp(mc, t);
    return merge_tmp(mc, synth_at(t, vf->bvar, vf->K));
  }
  expr *v = vals[n - 1];
  for (size_t j = n - 1; j-- > 0;) {
    expr *c = merge_tmp(mc, expr_const(64, vf->counts[j]));
    v = merge_tmp(mc, expr_ite(merge_tmp(mc, expr_eq(vf->K, c)), vals[j], v));
  }
  return v;
}

/* For the cost estimate (merge/decide.h): does a template fit, so that x needs no ite? */
static bool value_fits_k(merge_ctx *mc, expr *const *vals, size_t n, void *arg) {
  value_fit *vf = arg;
  (void)mc;
  for (size_t j = 0; j < n; j++) vf->points[j] = (synth_point){vf->counts[j], vals[j]};
  expr *t = synth_fit(vf->points, n, vf->bvar);
  if (t) expr_unref(t);
  return t != NULL;
}

/* The conjuncts of φ (its width-1 AND tree flattened, left to right); *n receives how many.
 * The caller frees the array (the conjuncts are φ's). */
static expr **conjuncts(expr *phi, size_t *n) {
  size_t ntodo = 0, cap = 8, cap_out = 8;
  expr **todo = xmalloc(cap * sizeof *todo), **out = xmalloc(cap_out * sizeof *out);
  *n = 0;
  todo[ntodo++] = phi;
  while (ntodo) {
    expr *c = todo[--ntodo];
    if (c->kind == EXPR_AND && c->width == 1) {
      if (ntodo + 2 > cap) todo = xrealloc(todo, (cap *= 2) * sizeof *todo);
      todo[ntodo++] = c->kid[1];
      todo[ntodo++] = c->kid[0];
      continue;
    }
    if (*n == cap_out) out = xrealloc(out, (cap_out *= 2) * sizeof *out);
    out[(*n)++] = c;
  }
  free(todo);
  return out;
}

/* The part of φ that stays in the ∀ (its conjuncts not monotone in i, see add_forall), a
 * temporary, or NULL when nothing stays. */
static expr *forall_part(merge_ctx *mc, const synth_formula *f, expr *bvar, uint64_t hi) {
  size_t n;
  expr **cs = conjuncts(f->phi, &n), *kept = NULL;
  for (size_t k = 0; k < n; k++)
    if (!expr_is_true(cs[k]) && synth_monotone(cs[k], bvar, hi) == SYNTH_NOT_MONOTONE)
      kept = kept ? merge_tmp(mc, expr_and(kept, cs[k])) : cs[k];
  free(cs);
  return kept;
}

static void add_pc(state *s, expr *c) {
  if (!expr_is_true(c)) state_add_constraint(s, c);
}

/* ∀i. 1 ≤ i ≤ K → φ(i), with φ's monotone conjuncts taken out of the quantifier at their
 * extreme iteration (guarded by K = 0 unless K ≥ 1): every constraint goes to s, what stays
 * quantified under one ∀. Bound checks such as i − 1 < n then cost Z3 one comparison instead
 * of one per instantiation, and the ∀ reads only what the loop really matched. */
static void add_forall(merge_ctx *mc, state *s, const synth_formula *f, expr *bvar, expr *K,
                       uint64_t lo, uint64_t hi) {
  expr *one = merge_tmp(mc, expr_const(64, 1));
  expr *k_zero = lo ? NULL : merge_tmp(mc, expr_eq(K, merge_tmp(mc, expr_const(64, 0))));
  expr *body = merge_tmp(mc, expr_true());
  size_t n;
  expr **cs = conjuncts(f->phi, &n);
  for (size_t k = 0; k < n; k++) {
    expr *c = cs[k];
    synth_extreme extreme = synth_monotone(c, bvar, hi);
    if (extreme == SYNTH_NOT_MONOTONE) {
      body = merge_tmp(mc, expr_and(body, c));
      continue;
    }
    expr *at = merge_tmp(mc, synth_at(c, bvar, extreme == SYNTH_AT_HI ? K : one));
    add_pc(s, k_zero ? merge_tmp(mc, expr_or(k_zero, at)) : at);
  }
  free(cs);
  expr *all = merge_tmp(mc, expr_forall(bvar, one, K, body));
  add_pc(s, all);
  if (all->kind == EXPR_FORALL) mc->stats->pat_quantified++;
}

/* Cells of a nested region's K (see strategy_pat.h): at most this many per outer region, so
 * that the array stays within the size the solver encodes as byte constants. */
enum { PAT_MAX_CELLS = 32 };

/* The array of K cells of outer region `outer` (made when first needed; the entries of
 * regions no longer open are dropped). */
static expr_array *pat_cells_of(merge_ctx *mc, pat_ctx *pc, const merge_region *outer) {
  size_t kept = 0;
  expr_array *found = NULL;
  for (size_t k = 0; k < pc->ncells; k++) {
    bool open = false;
    for (const merge_region *o = mc->regions; o && !open; o = o->next)
      open = o->id == pc->cells[k].region;
    if (!open) {
      expr_array_unref(pc->cells[k].cells);
      continue;
    }
    if (pc->cells[k].region == outer->id) found = pc->cells[k].cells;
    pc->cells[kept++] = pc->cells[k];
  }
  pc->ncells = kept;
  if (found) return found;
  char name[32];
  snprintf(name, sizeof name, "pat_KA%" PRIu32, pc->next_k++);
  expr *size = expr_const(64, 8 * PAT_MAX_CELLS);
  found = expr_array_new(name, size, 8 * PAT_MAX_CELLS, false, NULL);
  expr_unref(size);
  pc->cells = xrealloc(pc->cells, (pc->ncells + 1) * sizeof *pc->cells);
  pc->cells[pc->ncells++] = (struct pat_cells){outer->id, found};
  return found;
}

/* K of a merge in region r: a cell of the outer region's array when r is nested (its index
 * the nested releases above r's place in the outer tree), else a fresh constant pat_K<n>. */
static expr *pat_new_k(merge_ctx *mc, pat_ctx *pc, const merge_region *r) {
  uint64_t cell = 0;
  if (r->parent) {
    for (const merge_node *n = r->outer_leaf; n; n = n->parent) cell += n->nested;
  }
  expr_array *ka;
  uint64_t at = 0;
  if (r->parent && cell < PAT_MAX_CELLS) {
    ka = expr_array_ref(pat_cells_of(mc, pc, r->parent));
    at = 8 * cell;
  } else {
    char name[32];
    snprintf(name, sizeof name, "pat_K%" PRIu32, pc->next_k++);
    expr *eight = expr_const(64, 8);
    ka = expr_array_new(name, eight, 8, false, NULL);
    expr_unref(eight);
  }
  expr *index = expr_const(64, at);
  expr *K = merge_tmp(mc, expr_read_le(ka, NULL, index, 8));
  expr_unref(index);
  expr_array_unref(ka); /* K's reads hold it */
  return K;
}

/* One state for members (n ≥ 2, distinct counts) that match formula pattern f. */
static state *merge_on_pattern(merge_ctx *mc, pat_ctx *pc, const merge_region *r,
                               state *const *members, const uint64_t *counts, size_t n,
                               expr *root_riders, const synth_formula *f, expr *bvar) {
  expr *K = pat_new_k(mc, pc, r);
  merge_sizes_note(&mc->sizes, K);

  state *m = merge_state_new(mc, r, members);
  uint64_t lo = counts[0], hi = counts[0];
  for (size_t j = 1; j < n; j++) {
    if (counts[j] < lo) lo = counts[j];
    if (counts[j] > hi) hi = counts[j];
  }
  add_pc(m, root_riders);
  add_pc(m, f->phi0);
  add_forall(mc, m, f, bvar, K, lo, hi);
  add_pc(m, merge_tmp(mc, synth_at(f->psi, bvar, K)));
  add_pc(m, merge_tmp(mc, expr_ule(merge_tmp(mc, expr_const(64, lo)), K)));
  add_pc(m, merge_tmp(mc, expr_ule(K, merge_tmp(mc, expr_const(64, hi)))));
  for (uint64_t c = lo + 1; c < hi; c++) {
    bool present = false;
    for (size_t j = 0; j < n && !present; j++) present = counts[j] == c;
    if (!present) add_pc(m, merge_tmp(mc, expr_ne(K, merge_tmp(mc, expr_const(64, c)))));
  }

  merge_values values = {.nparts = n};
  value_fit vf = {counts, bvar, K, xmalloc(n * sizeof *vf.points)};
  merge_each_value(mc, m, members, n, merge_value_on_k, &vf, &values);
  free(vf.points);
  merge_state_finish(m, members, n);
  if (mc->opt.validate) {
    expr **tails = xmalloc(n * sizeof *tails), **witness = xmalloc(n * sizeof *witness);
    for (size_t j = 0; j < n; j++) {
      tails[j] = merge_tail(mc, members[j], r->entry_npc);
      witness[j] = merge_tmp(mc, expr_eq(K, merge_tmp(mc, expr_const(64, counts[j]))));
    }
    merge_validate(mc, m, members, tails, witness, n, &values);
    free(tails);
    free(witness);
  }
  merge_values_free(&values);
  mc->stats->merges++;
  mc->stats->merged_states += n;
  mc->stats->pat_merges++;
  mc->stats->pat_merged_states += n;
  if (pc->last_region != r->id + 1) {
    pc->last_region = r->id + 1;
    mc->stats->pat_regions++;
  }
  return m;
}

/* ---- the strategy ------------------------------------------------------------------------- */

static void dump_group(FILE *f, state *const *group, size_t n, const member_path *paths,
                       const pat_partitioning *parts) {
  fprintf(f, "group of %zu states at exit block %" PRIu32 "\n", n, group[0]->prev_block);
  for (size_t j = 0; j < n; j++) {
    fprintf(f, "  state %" PRIu64 ": word", group[j]->id);
    for (size_t k = 0; paths && k < paths[j].len; k++) fprintf(f, " %" PRIu32, paths[j].word[k]);
    if (parts && parts->pattern_of) {
      char *pt = pat_pattern_text(&parts->patterns[parts->pattern_of[j]]);
      fprintf(f, "; partition %zu = %s; count %" PRIu64, parts->pattern_of[j], pt, parts->count[j]);
      free(pt);
    }
    fputc('\n', f);
  }
}

static void dump_merged(FILE *f, const merge_region *r, const state *m, const char *how) {
  if (!f) return;
  fprintf(f, "merged state %" PRIu64 " (%s): pc since entry, %zu nodes\n", m->id, how,
          expr_dag_size(m->pc + r->entry_npc, m->npc - r->entry_npc));
  for (size_t k = r->entry_npc; k < m->npc; k++) {
    fputs("  ", f);
    expr_print(f, m->pc[k]);
    fputc('\n', f);
  }
}

/* The numbers of a decision (--dump-tree). */
static void dump_estimate(FILE *f, const char *what, const merge_estimate *e,
                          const char *declined) {
  fprintf(f,
          "%s: %" PRIu32 " query sites after the exit, %" PRIu32 " read merged values, %" PRIu32
          " with the ∀'s loads, %" PRIu32
          " only constants; n = %zu, distinct = %zu, arms = %zu, "
          "r = %" PRIu64 "/100, measured ∀ weight %" PRIu64 "/100; %" PRIu32 " read K, %" PRIu32
          " walks by K, %" PRIu32 " calls walking the paths' bytes again; forked %" PRIu64
          ", merged %" PRIu64 ": %s\n",
          what, e->sites, e->value_sites, e->hot_sites, e->concrete_sites, e->group, e->distinct,
          e->arms, e->ratio_x100, e->measured_x100, e->k_sites, e->k_walks, e->rewalks,
          e->forked_cost, e->merged_cost, declined ? declined : "merge");
}

/* Was st joined inside r: has incremental merging joined paths in r's tree (it reshaped it),
 * and does st's path since r's entry hold a disjunction — a join's tail ∨ tail'
 * (merge/incremental.h)? A switch case taken for several values, or a rider placing an
 * address in one of several objects, is a disjunction too and counts in a tree with joins:
 * what makes a CFG merge of such members dear is the disjunction nested in the merged one,
 * not its origin. In a tree without joins (apr_collapse_spaces under --incremental-merge: no
 * side met another equal, its isspace a switch of several cases) no member counts. */
static bool joined_in(const merge_region *r, const state *st) {
  if (!r->inc || !r->tree->reshaped) return false;
  for (size_t k = r->entry_npc; k < st->npc; k++)
    if (st->pc[k]->kind == EXPR_OR && st->pc[k]->width == 1) return true;
  return false;
}

/* Does the group's fallback continue forked whatever --pat-fallback says? Under
 * --merge-decide=always no: the strategy merges as told. Else in two cases:
 *  - The region's tree is invalid by a rider fork — a constraint that is not a branch had two
 *    feasible sides that both went on: a pointer resolved to one object or another, a bounds
 *    check — so the members differ in which object or cell an address selected. A CFG merge
 *    keeps that choice as a disjunction of reads at a symbolic address, which the merged
 *    state's later queries over those bytes carry, and its later accesses through the address
 *    resolve it again: on json-c pointer_get (the probe loop of lh_table_lookup_entry_w_hash)
 *    such merges, each estimated to pay (no value differs), took 2.3x forking's queries and
 *    2.2x its Z3 effort for the same instructions (docs/merging.md).
 *  - A member was joined inside the region (--incremental-merge; joined_in): its path since
 *    the entry is already a disjunction of the paths joined, and a CFG merge puts the
 *    disjunction of those disjunctions into every later query of the merged state, which the
 *    estimate, counting query sites, does not see. busybox httpd_percent_decode (capacity 10)
 *    measured such a merged state's query at 7–22 times the run's other plain queries; its
 *    five fallbacks (8–87 states) cost 17.6 M of Z3 effort where forked they cost 13.6 M. On
 *    wget html_tags (5) the merges at the exits of the outer loop's first regions kept the
 *    loop opening regions (merge/region.c's barren count), and the next one held the whole
 *    parse of the longer inputs: 9.60 M against 4.00 M forked (none: 5.09 M). A group of
 *    states that were not joined (the first of two loops in a row, test/merge/fallcost) is
 *    merged as before; so is every group of plain --merge=pat, which joins nothing. */
static bool fallback_forks(const merge_ctx *m, const merge_region *r, state *const *members,
                           size_t n) {
  if (m->opt.decide != MERGE_DECIDE_COST) return false;
  if (r->tree->invalid == merge_invalid_rider_fork) return true;
  bool joined = false;
  for (size_t j = 0; j < n && !joined; j++) joined = joined_in(r, members[j]);
  return joined;
}

/* Members PAT could not merge by pattern (why): under --pat-fallback=fork (or fallback_forks)
 * they resume as they are; under cfg they are merged the CFG way unless the cost estimate
 * declines it. Writes what resumes to out; returns how many. */
static size_t fallback(merge_ctx *m, pat_ctx *pc, const merge_region *r, state *const *members,
                       size_t n, const char *why, state **out) {
  char outcome[160];
  const char *declined = NULL;
  merge_estimate est;
  bool fork = m->opt.pat_fallback == MERGE_FALLBACK_FORK || fallback_forks(m, r, members, n);
  if (n >= 2 && !fork && m->opt.decide == MERGE_DECIDE_COST) {
    declined = merge_decide_cfg(m, members, n, &est);
    if (pc->dump) {
      dump_estimate(pc->dump, "fallback", &est, declined);
      fprintf(pc->dump, "measured CFG-merged query weight %" PRIu64 "/100 (not weighed)\n",
              est.measured_cfg_x100);
    }
  }
  if (n < 2 || fork || declined) {
    snprintf(outcome, sizeof outcome, "%s (%s)", declined ? declined : "fallback fork", why);
    merge_decision(m, r, members, n, outcome);
    if (pc->dump)
      fprintf(pc->dump, "%zu state%s continue forked: %s\n", n, n == 1 ? "" : "s", outcome);
    for (size_t j = 0; j < n; j++) out[j] = members[j];
    return n;
  }
  snprintf(outcome, sizeof outcome, "fallback cfg (%s)", why);
  merge_decision(m, r, members, n, outcome);
  out[0] = merge_cfg(m, r, members, n);
  out[0]->merge_cfg_descendant = true; /* its queries carry the disjunction: measured apart */
  if (pc->dump) fprintf(pc->dump, "merged the CFG way (%s)\n", why);
  dump_merged(pc->dump, r, out[0], "cfg");
  return 1;
}

/* Does the CFG fallback merge the leftovers left[0..*nleft) pooled with the members of the
 * partitions declined on their values (out[dstart[d] .. + dcount[d]), d < ndeclined)? Only
 * where the fallback would merge the CFG way at all and its estimate takes the pool; then the
 * pool is appended to left (its room: the group's size) and *nleft counts it. */
static bool pool_pays(merge_ctx *m, const merge_region *r, state *const *out, const size_t *dstart,
                      const size_t *dcount, size_t ndeclined, state **left, size_t *nleft) {
  if (m->opt.decide != MERGE_DECIDE_COST || m->opt.pat_fallback != MERGE_FALLBACK_CFG) return false;
  size_t n = *nleft;
  for (size_t d = 0; d < ndeclined; d++)
    for (size_t i = 0; i < dcount[d]; i++) left[n++] = out[dstart[d] + i];
  merge_estimate est;
  if (fallback_forks(m, r, left, n) || merge_decide_cfg(m, left, n, &est)) return false;
  *nleft = n;
  return true;
}

static const char *status_reason(pat_status s) {
  return s == PAT_TOO_MANY_CANDIDATES ? "too many candidate patterns" : "too many patterns";
}

/* The partitions of a partitioned group: one state per partition with a formula pattern;
 * every other member (alone in its partition, or in one without a formula pattern) is merged
 * the CFG way with the others left, so that no member resumes unmerged for want of a pattern.
 * So are the partitions whose merged values are declined (merge_decide_values), where that
 * pool's CFG merge pays: their members' values differ member by member, which splits each
 * one's merged state again, but the group's other leftovers may repeat them (wget url_parse's
 * c_strncasecmp exit: partitions of 2–5 states, each declined on as many distinct values,
 * pooled with the leftovers into 19 states over 5 distinct tuples). Where the pool's merge is
 * declined the partitions stay declined and the leftovers are weighed alone, as before
 * (busybox printf_escape: three leftovers that merge, nine pooled states that would not). */
static size_t merge_partitions(merge_ctx *m, pat_ctx *pc, const merge_region *r,
                               state *const *group, size_t n, const member_path *paths,
                               const pat_partitioning *parts, state **out) {
  size_t nout = 0, nleft = 0;
  state **members = xmalloc(n * sizeof *members), **left = xmalloc(n * sizeof *left);
  uint64_t *counts = xmalloc(n * sizeof *counts);
  synth_leaf *leaves = xmalloc(n * sizeof *leaves);
  const char *why_left = NULL;
  bool singletons = false;
  /* the partitions declined on their values: where their members are in out, and why */
  size_t ndeclined = 0, *dstart = xmalloc(parts->npatterns * sizeof *dstart);
  size_t *dcount = xmalloc(parts->npatterns * sizeof *dcount);
  const char **dwhy = xmalloc(parts->npatterns * sizeof *dwhy);
  for (size_t p = 0; p < parts->npatterns; p++) {
    partition_members pm = gather_partition(parts, p, group, paths, n, members, counts, leaves);
    size_t k = pm.k;
    if (k == 1) { /* alone in its partition: merged the CFG way with the other leftovers */
      singletons = true;
      left[nleft++] = members[0];
      continue;
    }
    const pat_pattern *pt = &parts->patterns[p];
    expr *bvar = merge_tmp(m, expr_bvar_fresh(64, "i"));
    synth_formula f = {0};
    const char *declined = NULL;
    bool synthesized = false, cost = m->opt.decide == MERGE_DECIDE_COST, by_values = false;
    merge_estimate est;
    if (pm.distinct && pm.same_root && !pm.nested_forall) {
      uint64_t hi = counts[0];
      for (size_t i = 1; i < k; i++) hi = counts[i] > hi ? counts[i] : hi;
      value_fit vf = {counts, bvar, NULL, xmalloc(k * sizeof *vf.points)};
      /* the values first: a partition whose merged values do not pay is declined whatever
       * ∀ it would add, and pays for no pattern synthesis (merge/decide.h) */
      if (cost) declined = merge_decide_values(m, members, k, value_fits_k, &vf, &est);
      by_values = declined != NULL;
      /* a later call walking the partition's bytes again asks the merged state the loop's
       * branches again and splits it into the members' paths, each with the ∀ */
      if (cost && !declined && (est.rewalks = merge_decide_rewalks(m, members, k)) > 0)
        declined = "declined: a later call walks the merged paths' bytes again";
      if (!declined) {
        m->stats->pat_syntheses++;
        synthesized =
            synth_formula_pattern(leaves, k, pt->nprefix, pt->ncore, pt->nsuffix, bvar, &f);
      }
      expr *body = synthesized && cost ? forall_part(m, &f, bvar, hi) : NULL;
      if (body) /* with the ∀: its reads and the measured ratio r weigh as well */
        declined = merge_decide(m, members, k, body, value_fits_k, &vf, &est);
      free(vf.points);
      if (pc->dump && cost && (declined || synthesized)) {
        fprintf(pc->dump, "partition %zu: ", p);
        dump_estimate(pc->dump, "estimate", &est, declined);
      }
    }
    if (by_values) { /* decided with the leftovers, which a CFG merge may pool it with */
      dstart[ndeclined] = nout, dcount[ndeclined] = k, dwhy[ndeclined++] = declined;
      for (size_t i = 0; i < k; i++) out[nout++] = members[i];
      synth_formula_free(&f);
    } else if (declined) {
      merge_decision(m, r, members, k, declined);
      for (size_t i = 0; i < k; i++) out[nout++] = members[i];
      synth_formula_free(&f);
    } else if (synthesized) {
      merge_decision(m, r, members, k, "merged by pattern");
      out[nout] = merge_on_pattern(m, pc, r, members, counts, k, pm.root_riders, &f, bvar);
      dump_merged(pc->dump, r, out[nout++], "by pattern");
      synth_formula_free(&f);
    } else {
      why_left = !pm.distinct       ? "counts not distinct"
                 : !pm.same_root    ? "riders at the root differ"
                 : pm.nested_forall ? "nested ∀: an iteration holds an inner loop's ∀ merge"
                                    : "no formula pattern";
      merge_reasons_add(&m->stats->pat_fallbacks, why_left);
      for (size_t i = 0; i < k; i++) left[nleft++] = members[i];
    }
  }
  if (ndeclined && pool_pays(m, r, out, dstart, dcount, ndeclined, left, &nleft)) {
    why_left = "values declined in its partition";
    merge_reasons_add(&m->stats->pat_fallbacks, why_left);
    size_t kept = 0, d = 0; /* the pooled members leave out, the others keep their order */
    for (size_t j = 0; j < nout; j++) {
      while (d < ndeclined && j >= dstart[d] + dcount[d]) d++;
      if (d == ndeclined || j < dstart[d]) out[kept++] = out[j];
    }
    nout = kept;
  } else {
    for (size_t d = 0; d < ndeclined; d++)
      merge_decision(m, r, out + dstart[d], dcount[d], dwhy[d]);
  }
  free(dstart);
  free(dcount);
  free(dwhy);
  if (nleft == 1 && !why_left) {
    merge_decision(m, r, left, 1, "not merged (alone in its partition)");
    out[nout++] = left[0];
  } else if (nleft >= 1) {
    if (singletons && nleft > 1)
      merge_reasons_add(&m->stats->pat_fallbacks, "alone in its partition");
    nout +=
        fallback(m, pc, r, left, nleft, why_left ? why_left : "alone in its partition", out + nout);
  }
  free(members);
  free(left);
  free(counts);
  free(leaves);
  return nout;
}

size_t merge_pat_strategy(merge_ctx *m, const merge_region *r, state *const *group, size_t n,
                          state **out, void *arg) {
  pat_ctx *pc = arg;
  if (pc->group_region != r->id + 1) {
    pc->group_region = r->id + 1;
    pat_alphabet_free(&pc->alphabet);
  }
  char *report = NULL;
  size_t report_len = 0;
  if (m->opt.dump_tree) pc->dump = xopen_memstream(&report, &report_len);

  member_path *paths = xcalloc(n, sizeof *paths);
  pat_word *words = xmalloc(n * sizeof *words);
  bool on_tree = !r->tree->invalid && read_paths(m, &pc->alphabet, r, group, n, paths, words);
  pat_partitioning parts = {0};
  pat_status status = on_tree ? pat_partition(words, n, pc->limits, &parts) : PAT_PARTITIONED;
  if (pc->dump) dump_group(pc->dump, group, n, on_tree ? paths : NULL, &parts);
  size_t nout;
  if (!on_tree || status != PAT_PARTITIONED) {
    const char *why = r->tree->invalid == merge_invalid_rider_fork
                          ? "tree hash invalid: fork at a constraint that is not a branch"
                      : r->tree->invalid ? "tree hash invalid"
                      : !on_tree         ? "member off the tree"
                                         : status_reason(status);
    merge_reasons_add(&m->stats->pat_fallbacks, why);
    nout = fallback(m, pc, r, group, n, why, out);
  } else {
    nout = merge_partitions(m, pc, r, group, n, paths, &parts, out);
  }
  pat_partitioning_free(&parts);
  paths_free(paths, words, n);
  if (pc->dump) {
    fclose(pc->dump);
    pc->dump = NULL;
    char name[64];
    snprintf(name, sizeof name, "region%06" PRIu32 ".group%" PRIu32 ".txt", r->id, r->groups);
    m->host.write_file(m->host.ctx, name, report, report_len);
    free(report);
  }
  return nout;
}

/* ---- the early decision (issue 26, item 1) ------------------------------------------------- */

/* Would the CFG fallback decline members[0..n) for good on their values? Only where the
 * sample's states each arrived by a path of its own length (comb, one_arrival_per_depth): a
 * decline that stands (merge_decline_stands). (A rewalk, which stands wherever the paths
 * met, pat_declines_sample asks of the whole sample first.) Where the fallback forks
 * (--pat-fallback=fork, or fallback_forks) it is not a decision on values: no. */
static bool fallback_declines(merge_ctx *m, const merge_region *r, state *const *members, size_t n,
                              bool comb) {
  merge_estimate est;
  if (n < 2 || !comb || m->opt.pat_fallback != MERGE_FALLBACK_CFG ||
      fallback_forks(m, r, members, n))
    return false;
  return merge_decide(m, members, n, NULL, NULL, NULL, &est) && merge_decline_stands(&est);
}

/* Did the members of the sample each arrive by a path of its own length — at most one arrival
 * per depth of the tree, as in a loop whose continuing iterations take one path (a comb: each
 * iteration forks only states that leave)? Then the arrivals at the exit are bounded by the
 * loop's iterations and their values track the iteration count, as in the sample. Two arrivals
 * at one depth are paths that met again after a diamond: later ones may repeat the sample's
 * values (apr_collapse_spaces: 2,047 states at its exit, 11 distinct lengths), so that a decline
 * on the sample could be reversed by the whole group. */
static bool one_arrival_per_depth(const merge_region *r, state *const *group, size_t n) {
  uint64_t *depth = xmalloc(n * sizeof *depth);
  bool distinct = true;
  for (size_t j = 0; j < n && distinct; j++) {
    const merge_node *leaf = group[j]->leaf;
    distinct = leaf && leaf->id < r->tree->count && r->tree->nodes[leaf->id] == leaf;
    depth[j] = 0;
    for (const merge_node *x = leaf; distinct && x->parent; x = x->parent) depth[j]++;
    for (size_t i = 0; i < j && distinct; i++) distinct = depth[i] != depth[j];
  }
  free(depth);
  return distinct;
}

/* The decisions merge_pat_strategy would take on the sample, made as it makes them (its own
 * alphabet: the region's codes stay as the release will make them): the reason when every
 * member falls in a piece declined for good — a partition whose values are declined
 * (merge_decide_values with the template test) or the leftovers the CFG fallback declines —
 * else NULL. A piece that could merge, or whose fate depends on a pattern synthesis, keeps the
 * exit waiting. A sample whose paths met again (apr_unescape_url: 696 states at its exit,
 * every one paused until the release declined them all, then resumed out of DFS order: 1.19x
 * forking's Z3 effort on the same queries) is declined early only by a rewalk, which any
 * sample is asked first (wget uri_merge's url_has_scheme: its samples of 8 and 16 partition
 * by pattern and kept the exit waiting until 32). */
static const char *pat_declines_sample(merge_ctx *m, const merge_region *r, state *const *group,
                                       size_t n) {
  static const char *const values = "declined early: merged values read by later queries";
  static const char *const rewalk =
      "declined early: a later call walks the merged paths' bytes again";
  if (r->tree->invalid) return NULL;
  /* a later call walking the sample's bytes again declines every piece the release would
   * make of the group (a partition by pattern as the CFG fallback: merge_partitions), and
   * more members only add bytes: it stands however the sample partitions or its paths met */
  if (merge_decide_rewalks(m, group, n) > 0) return rewalk;
  bool comb = one_arrival_per_depth(r, group, n);
  pat_alphabet ab = {0};
  member_path *paths = xcalloc(n, sizeof *paths);
  pat_word *words = xmalloc(n * sizeof *words);
  bool on_tree = read_paths(m, &ab, r, group, n, paths, words);
  pat_partitioning parts = {0};
  bool declines = true;
  if (!on_tree || pat_partition(words, n, m->opt.pat, &parts) != PAT_PARTITIONED) {
    declines = fallback_declines(m, r, group, n, comb);
  } else if (!comb) {
    declines = false;
  } else {
    state **members = xmalloc(n * sizeof *members), **left = xmalloc(n * sizeof *left);
    uint64_t *counts = xmalloc(n * sizeof *counts);
    size_t nleft = 0;
    for (size_t p = 0; p < parts.npatterns && declines; p++) {
      partition_members pm = gather_partition(&parts, p, group, paths, n, members, counts, NULL);
      size_t k = pm.k;
      if (k == 1) {
        left[nleft++] = members[0];
        continue;
      }
      /* the fallback's, as merge_partitions */
      if (!pm.distinct || !pm.same_root || pm.nested_forall) {
        for (size_t i = 0; i < k; i++) left[nleft++] = members[i];
        continue;
      }
      value_fit vf = {counts, merge_tmp(m, expr_bvar_fresh(64, "i")), NULL,
                      xmalloc(k * sizeof *vf.points)};
      merge_estimate est;
      declines =
          merge_decide_values(m, members, k, value_fits_k, &vf, &est) && merge_decline_stands(&est);
      free(vf.points);
    }
    if (declines && nleft) declines = fallback_declines(m, r, left, nleft, true);
    free(members);
    free(left);
    free(counts);
  }
  pat_partitioning_free(&parts);
  paths_free(paths, words, n);
  pat_alphabet_free(&ab);
  merge_tmp_release(m);
  return declines ? values : NULL;
}

static bool merge_pat_early(merge_ctx *m, merge_region *r, state *const *group, size_t n,
                            void *arg) {
  (void)arg;
  const char *why = pat_declines_sample(m, r, group, n);
  if (!why) return false;
  merge_decision_early(m, r, group, n, why);
  return true;
}

void pat_ctx_free(pat_ctx *pc) {
  if (!pc) return;
  for (size_t k = 0; k < pc->ncells; k++) expr_array_unref(pc->cells[k].cells);
  free(pc->cells);
  pat_alphabet_free(&pc->alphabet);
  free(pc);
}

static void free_pat_ctx(void *pc) { pat_ctx_free(pc); }

void merge_use_pat(merge_ctx *m) {
  pat_ctx *pc = xcalloc(1, sizeof *pc);
  pc->limits = m->opt.pat;
  merge_set_strategy(m, merge_pat_strategy, pc, free_pat_ctx);
  if (m->opt.decide == MERGE_DECIDE_COST) m->early = merge_pat_early;
}
