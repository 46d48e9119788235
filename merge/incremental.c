/* incremental.c — incremental state merging inside a region (contract in incremental.h). */
#include "merge/incremental.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/memory.h"
#include "engine/core/xalloc.h"
#include "merge/strategy_cfg.h"
#include "merge/decide.h"
#include "merge/liveness.h"
#include "merge/validate.h"

/* What incremental merging keeps per tree node (indexed by node id). */
typedef struct inc_node {
  state *snapshot;  /* owned; NULL when none */
  size_t npc;       /* the path condition's length on reaching the node */
  bool ended_below; /* a member ended inside the region at or below the node */
  uint32_t iter;    /* the loop iteration the snapshot was taken in (see iteration_of) */
  bool merged;      /* made by a merge of this region (see merges_idle) */
  uint32_t lineage; /* the joins the snapshot's state carries (see undone_lineage) */
  uint32_t nests;   /* regions nested at or below it still open: it is not merged */
} inc_node;

/* A list of states (the breadth-first scheduler's queues). */
typedef struct state_list {
  state **items;
  size_t n, cap;
} state_list;

static void list_push(state_list *l, state *st) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->items = xrealloc(l->items, l->cap * sizeof *l->items);
  }
  l->items[l->n++] = st;
}

/* Removes st (keeping the order); false when it is not there. */
static bool list_remove(state_list *l, const state *st) {
  for (size_t k = 0; k < l->n; k++)
    if (l->items[k] == st) {
      memmove(&l->items[k], &l->items[k + 1], (l->n - k - 1) * sizeof *l->items);
      l->n--;
      return true;
    }
  return false;
}

struct merge_inc_region {
  inc_node *nodes;
  uint32_t cap;
  merge_node **pending; /* nodes whose snapshot is still to be compared, in order */
  size_t npending, cap_pending;
  /* Breadth-first inside the region: one running member is in the searcher at a time (the
   * active one); the others wait, parked and marked paused, in FIFO order. */
  state *active;
  state_list waiting; /* parked by the scheduler (they count as running) */
  state_list fresh;   /* forked since the last slice: in the searcher, to be queued */
  uint8_t *joins;     /* per block of the region's function: entered by ≥ 2 edges (lazily) */
  uint64_t *address;  /* per register of the region's function: feeds an address (lazily) */
  uint32_t merges;    /* made in this region */
  bool merged_forked; /* a state below a merged node has forked inside the region */
  size_t idle_seen;   /* r->npaused when the merged states at the exits were last counted */
};

merge_inc_region *merge_inc_region_new(void) { return xcalloc(1, sizeof(merge_inc_region)); }

void merge_inc_region_free(merge_inc_region *ir) {
  if (!ir) return;
  for (uint32_t k = 0; k < ir->cap; k++) state_free(ir->nodes[k].snapshot);
  free(ir->nodes);
  free(ir->pending);
  free(ir->waiting.items);
  free(ir->fresh.items);
  free(ir->joins);
  free(ir->address);
  free(ir);
}

static inc_node *node_info(merge_inc_region *ir, uint32_t id) {
  if (id >= ir->cap) {
    uint32_t cap = ir->cap ? ir->cap : 64;
    while (cap <= id) cap *= 2;
    ir->nodes = xrealloc(ir->nodes, cap * sizeof *ir->nodes);
    for (uint32_t k = ir->cap; k < cap; k++) ir->nodes[k] = (inc_node){0};
    ir->cap = cap;
  }
  return &ir->nodes[id];
}

void merge_inc_node_added(merge_region *r, const merge_node *node, const state *st) {
  if (r->inc) node_info(r->inc, node->id)->npc = st->npc;
}

void merge_inc_member_ended(merge_region *r, const merge_node *leaf) {
  if (!r->inc) return;
  for (const merge_node *n = leaf; n && !node_info(r->inc, n->id)->ended_below; n = n->parent)
    node_info(r->inc, n->id)->ended_below = true;
}

static uint32_t live_children(const merge_node *n) {
  uint32_t k = 0;
  for (const merge_node *c = n->first_child; c; c = c->next_sibling) k += !c->dead;
  return k;
}

/* The bytes a snapshot copies (its memory is shared copy-on-write until written). */
static uint64_t snapshot_bytes(const state *s) {
  uint64_t bytes = sizeof *s + s->nframes * sizeof *s->frames + s->npc * sizeof *s->pc +
                   s->nsymbolics * sizeof *s->symbolics;
  for (uint32_t k = 0; k < s->nframes; k++)
    bytes += s->frames[k].nregs * sizeof *s->frames[k].regs +
             s->frames[k].nallocas * sizeof *s->frames[k].allocas;
  return bytes;
}

/* The iteration of the region's loop a state at n is in: the header entries on its path. */
static uint32_t iteration_of(const merge_node *n) {
  uint32_t iter = 0;
  for (; n; n = n->parent) iter += n->loop_entries;
  return iter;
}

/* ---- joins undone after their loop ------------------------------------------------------- */

/* A join site: where sides were joined with ite (the loop's function and position). An equal
 * merge at a site a join undid is declined too: its state carries the disjunction of the
 * sides' tails, and a later fork on one of them splits it again as surely (apr_escape_shell).
 * But an equal merge does not undo its site itself: wget html_tags' outer loop, whose callee
 * loops nest under --incremental-merge, merges equal sides that its later loops split again,
 * and their sites undone declined 532 merges there (Z3 effort 3.80 M -> 11.26 M, none's
 * 5.00 M). */
typedef struct undone_site {
  uint32_t func, pc, loop;
  /* why it joins no more (a fork outside the loop split one of its joins again, or a state
   * carrying one ended needing a joined value concrete); NULL while it joins */
  const char *undone;
} undone_site;

/* A tail of one side of a join, filed under its expression's id (and, for a negation, the
 * negated one's), so that a fork's condition finds the joins it splits again. Ids, not
 * references: holding the tails would keep expressions alive that a run without this rule
 * frees, and the ones made again would keep their old ids, changing the order of Z3's
 * queries' terms (and its effort) where the rule never fires. An id is never reused. */
typedef struct undone_guard {
  uint32_t join, next; /* next: the next guard filed under the same key, + 1 (0: none) */
} undone_guard;

/* The joins a state carries: a join of its sides' lineages a and b (index + 1, 0: none);
 * join is NO_JOIN for the union of two lineages made by an equal merge. */
typedef struct undone_lineage {
  uint32_t join, a, b;
  uint64_t stamp; /* the walk that last visited it (carries) */
} undone_lineage;

enum { NO_JOIN = UINT32_MAX };

struct merge_inc_undone {
  undone_site *sites;
  size_t nsites, cap_sites;
  hmap site_of; /* (func << 32 | pc) + 1 -> site + 1 */
  uint32_t *join_site;
  size_t njoins, cap_joins;
  undone_guard *guards;
  size_t nguards, cap_guards;
  hmap guard_of; /* expression id + 1 -> first guard + 1 */
  undone_lineage *lin;
  size_t nlin, cap_lin;
  hmap lineage_of; /* state id + 1 -> lineage + 1, for states carrying a join */
  uint32_t *stack;
  size_t cap_stack;
  uint64_t stamp;
  /* the conditional branch merge_at_branch saw last: its state's id + 1, `instructions` */
  uint64_t branch_state, branch_at;
  expr *branch_cond;
};

static struct merge_inc_undone *undone_of(merge_ctx *m) {
  if (!m->undone) m->undone = xcalloc(1, sizeof *m->undone);
  return m->undone;
}

static uint32_t lineage_of(const merge_ctx *m, const state *st) {
  uint64_t v = 0;
  if (m->undone) hmap_get(&m->undone->lineage_of, st->id + 1, &v);
  return (uint32_t)v;
}

static uint32_t add_lineage(struct merge_inc_undone *u, uint32_t join, uint32_t a, uint32_t b) {
  if (u->nlin == u->cap_lin) {
    u->cap_lin = u->cap_lin ? 2 * u->cap_lin : 64;
    u->lin = xrealloc(u->lin, u->cap_lin * sizeof *u->lin);
  }
  u->lin[u->nlin++] = (undone_lineage){.join = join, .a = a, .b = b};
  return (uint32_t)u->nlin;
}

static undone_site *site_at(struct merge_inc_undone *u, uint32_t func, uint32_t pc, bool add,
                            uint32_t loop) {
  uint64_t key = ((uint64_t)func << 32 | pc) + 1, v;
  if (hmap_get(&u->site_of, key, &v)) return &u->sites[v - 1];
  if (!add) return NULL;
  if (u->nsites == u->cap_sites) {
    u->cap_sites = u->cap_sites ? 2 * u->cap_sites : 8;
    u->sites = xrealloc(u->sites, u->cap_sites * sizeof *u->sites);
  }
  u->sites[u->nsites] = (undone_site){.func = func, .pc = pc, .loop = loop};
  hmap_put(&u->site_of, key, ++u->nsites);
  return &u->sites[u->nsites - 1];
}

static void file_guard(struct merge_inc_undone *u, const expr *key, uint32_t join) {
  if (u->nguards == u->cap_guards) {
    u->cap_guards = u->cap_guards ? 2 * u->cap_guards : 64;
    u->guards = xrealloc(u->guards, u->cap_guards * sizeof *u->guards);
  }
  uint64_t head = 0;
  hmap_get(&u->guard_of, key->id + 1, &head);
  u->guards[u->nguards] = (undone_guard){.join = join, .next = (uint32_t)head};
  hmap_put(&u->guard_of, key->id + 1, ++u->nguards);
}

/* A join of the sides at `at` (their tails given) made `merged`; la and lb are the lineages
 * of the two snapshots. */
static void note_join(merge_ctx *m, const merge_region *r, state *merged, const state *at,
                      expr *const *tails, uint32_t la, uint32_t lb) {
  struct merge_inc_undone *u = undone_of(m);
  const state_frame *f = &at->frames[at->nframes - 1];
  undone_site *site = site_at(u, f->func, f->pc, true, r->loop);
  if (u->njoins == u->cap_joins) {
    u->cap_joins = u->cap_joins ? 2 * u->cap_joins : 64;
    u->join_site = xrealloc(u->join_site, u->cap_joins * sizeof *u->join_site);
  }
  uint32_t join = (uint32_t)u->njoins++;
  u->join_site[join] = (uint32_t)(site - u->sites);
  for (size_t j = 0; j < 2; j++) {
    if (expr_is_const(tails[j])) continue;
    file_guard(u, tails[j], join);
    if (tails[j]->kind == EXPR_NOT) file_guard(u, tails[j]->kid[0], join);
  }
  hmap_put(&u->lineage_of, merged->id + 1, add_lineage(u, join, la, lb));
}

/* An equal merge made `merged` of two snapshots: it carries the joins of both. */
static void note_equal_merge(merge_ctx *m, state *merged, uint32_t la, uint32_t lb) {
  if (!la && !lb) return;
  struct merge_inc_undone *u = undone_of(m);
  uint32_t lin = !la ? lb : !lb || la == lb ? la : add_lineage(u, NO_JOIN, la, lb);
  hmap_put(&u->lineage_of, merged->id + 1, lin);
}

/* Visits lineage lin's nodes depth first, each once (both sides may reach a shared tail),
 * until visit returns true; true if it did. */
typedef bool lineage_visit(struct merge_inc_undone *u, const undone_lineage *l, void *arg);
static bool walk_lineage(struct merge_inc_undone *u, uint32_t lin, lineage_visit *visit,
                         void *arg) {
  uint64_t stamp = ++u->stamp;
  size_t n = 0;
  for (uint32_t next = lin;;) {
    if (next && u->lin[next - 1].stamp != stamp) {
      undone_lineage *l = &u->lin[next - 1];
      l->stamp = stamp;
      if (visit(u, l, arg)) return true;
      if (n + 2 > u->cap_stack) {
        u->cap_stack = u->cap_stack ? 2 * u->cap_stack : 64;
        u->stack = xrealloc(u->stack, u->cap_stack * sizeof *u->stack);
      }
      u->stack[n++] = l->a;
      u->stack[n++] = l->b;
    }
    if (!n) return false;
    next = u->stack[--n];
  }
}

static bool holds_join(struct merge_inc_undone *u, const undone_lineage *l, void *join) {
  (void)u;
  return l->join == *(const uint32_t *)join;
}

/* Does lineage lin hold join? */
static bool carries(struct merge_inc_undone *u, uint32_t lin, uint32_t join) {
  return walk_lineage(u, lin, holds_join, &join);
}

void merge_inc_at_branch(merge_ctx *m, const state *st, expr *cond) {
  struct merge_inc_undone *u = m->undone;
  if (!u) return; /* no join made yet */
  u->branch_state = st->id + 1;
  u->branch_at = st->instructions;
  u->branch_cond = cond;
}

/* Is st's position outside the loop of site s (another function, or a block not in it)? */
static bool outside_loop(merge_ctx *m, const state *st, const undone_site *s) {
  const state_frame *f = &st->frames[st->nframes - 1];
  if (f->func != s->func) return true;
  return !merge_loop_contains(merge_loops_of(m, f->func), s->loop,
                              merge_block_of(&m->prog->funcs[f->func], f->pc));
}

/* The sites of the joins parent carries whose side's tail is cond or its negation: split again
 * where their loop no longer runs, they are undone. */
static void mark_undone(merge_ctx *m, const state *parent, uint32_t lin, const expr *cond) {
  struct merge_inc_undone *u = m->undone;
  const expr *keys[2] = {cond, cond->kind == EXPR_NOT ? cond->kid[0] : NULL};
  for (size_t k = 0; k < 2 && keys[k]; k++) {
    uint64_t g = 0;
    hmap_get(&u->guard_of, keys[k]->id + 1, &g);
    for (; g; g = u->guards[g - 1].next) {
      uint32_t join = u->guards[g - 1].join;
      undone_site *s = &u->sites[u->join_site[join]];
      if (!s->undone && outside_loop(m, parent, s) && carries(u, lin, join))
        s->undone = MERGE_INC_UNDONE;
    }
  }
}

void merge_inc_state_forked(merge_ctx *m, const state *parent, const state *child) {
  struct merge_inc_undone *u = m->undone;
  uint32_t lin = lineage_of(m, parent);
  if (!lin) return;
  hmap_put(&u->lineage_of, child->id + 1, lin);
  if (u->branch_state == parent->id + 1 && u->branch_at == parent->instructions)
    mark_undone(m, parent, lin, u->branch_cond);
}

/* Marks the site of lineage node l's join as having lost a path (walk_lineage's visit). */
static bool mark_lost(struct merge_inc_undone *u, const undone_lineage *l, void *unused) {
  (void)unused;
  undone_site *s = l->join == NO_JOIN ? NULL : &u->sites[u->join_site[l->join]];
  if (s && !s->undone) s->undone = MERGE_INC_LOST;
  return false;
}

void merge_inc_state_unsupported(merge_ctx *m, const state *st) {
  uint32_t lin = lineage_of(m, st);
  if (lin) walk_lineage(m->undone, lin, mark_lost, NULL);
}

void merge_inc_state_gone(merge_ctx *m, const state *st) {
  if (m->undone) hmap_erase(&m->undone->lineage_of, st->id + 1);
}

/* Why a join at st's position was undone (merge_inc_state_forked, _unsupported), or NULL. */
static const char *site_undone(merge_ctx *m, const state *st) {
  if (!m->undone) return NULL;
  const state_frame *f = &st->frames[st->nframes - 1];
  const undone_site *s = site_at(m->undone, f->func, f->pc, false, 0);
  return s ? s->undone : NULL;
}

void merge_inc_undone_free(merge_ctx *m) {
  struct merge_inc_undone *u = m->undone;
  if (!u) return;
  free(u->sites);
  hmap_free(&u->site_of);
  free(u->join_site);
  free(u->guards);
  hmap_free(&u->guard_of);
  free(u->lin);
  hmap_free(&u->lineage_of);
  free(u->stack);
  free(u);
  m->undone = NULL;
}

/* Takes (or, at a join, replaces) node's snapshot of st. */
static void take_snapshot(merge_ctx *m, merge_region *r, merge_node *node, const state *st) {
  inc_node *info = node_info(r->inc, node->id);
  state_free(info->snapshot);
  info->snapshot = state_fork(st, 0);
  info->npc = st->npc;
  info->iter = iteration_of(node);
  info->lineage = lineage_of(m, st);
  m->stats->inc_snapshots++;
  m->stats->inc_snapshot_bytes += snapshot_bytes(info->snapshot);
  merge_inc_region *ir = r->inc;
  if (ir->npending == ir->cap_pending) {
    ir->cap_pending = ir->cap_pending ? 2 * ir->cap_pending : 16;
    ir->pending = xrealloc(ir->pending, ir->cap_pending * sizeof *ir->pending);
  }
  ir->pending[ir->npending++] = node;
}

/* Where st is with respect to its region's loop: in the loop's frame at its header, in the
 * rest of its body, out of the loop (at an exit), or elsewhere (another frame, a manual
 * region). */
typedef enum loop_place { PLACE_ELSEWHERE, PLACE_HEADER, PLACE_BODY, PLACE_EXIT } loop_place;

static loop_place place_of(merge_ctx *m, const merge_region *r, const state *st) {
  if (r->manual || st->nframes != r->depth) return PLACE_ELSEWHERE;
  const state_frame *f = &st->frames[st->nframes - 1];
  if (f->func != r->func) return PLACE_ELSEWHERE;
  const merge_loops *l = merge_loops_of(m, f->func);
  uint32_t block = merge_block_of(&m->prog->funcs[f->func], f->pc);
  if (!merge_loop_contains(l, r->loop, block)) return PLACE_EXIT; /* left: waits there */
  return block == l->loops[r->loop].header ? PLACE_HEADER : PLACE_BODY;
}

/* Does the region's loop contain another loop? */
static bool has_nested_loop(merge_ctx *m, const merge_region *r) {
  const merge_loops *l = merge_loops_of(m, r->func);
  for (uint32_t k = 0; k < l->nloops; k++)
    if (l->loops[k].parent == r->loop) return true;
  return false;
}

/* Children that are neither infeasible nor ended: sides that may still meet. */
static uint32_t open_children(const merge_node *n) {
  uint32_t k = 0;
  for (const merge_node *c = n->first_child; c; c = c->next_sibling) k += !c->dead && !c->ended;
  return k;
}

/* Is block a join of fn (the target of two edges or more)? Computed once per region. */
static bool is_join(merge_inc_region *ir, const ir_function *fn, uint32_t block) {
  if (!ir->joins) {
    ir->joins = xcalloc(fn->nblocks + 1, 1);
    for (uint32_t e = 0; e < fn->nedges; e++) {
      uint8_t *k = &ir->joins[fn->edges[e].target];
      if (*k < 2) (*k)++;
    }
  }
  return block < fn->nblocks && ir->joins[block] >= 2;
}

/* Did the path to leaf fork in the current iteration (after its last header entry)? */
static bool forked_this_iteration(const merge_node *leaf) {
  for (const merge_node *n = leaf; n->parent && !n->loop_entries; n = n->parent)
    if (open_children(n->parent) >= 2) return true;
  return false;
}

/* Did the path to leaf, which has just entered the loop's header, fork in the iteration that
 * entry ended (after the header entry before it)? Only the entry just made is at the leaf. */
static bool forked_last_iteration(const merge_node *leaf) {
  if (leaf->loop_entries != 1) return false;
  for (const merge_node *n = leaf; n->parent; n = n->parent) {
    if (n != leaf && n->loop_entries) return false;
    if (open_children(n->parent) >= 2) return true;
  }
  return false;
}

void merge_inc_entered_block(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  merge_node *leaf = st->leaf;
  if (!r || !r->inc || !leaf || leaf->first_child) return;
  loop_place place = place_of(m, r, st);
  if (place == PLACE_HEADER) leaf->loop_entries++; /* a new iteration starts */
  /* after a fork: the leaf's parent has another side that is not dead */
  if (leaf->parent && leaf->symbol && !node_info(r->inc, leaf->id)->snapshot &&
      live_children(leaf->parent) >= 2) {
    take_snapshot(m, r, leaf, st);
    return;
  }
  /* back at the header after a fork of the iteration that just ended: where a body whose
   * sides end in `continue` (busybox's percent_decode_in_place) has its only join */
  if (place == PLACE_HEADER) {
    if (!has_nested_loop(m, r) && forked_last_iteration(leaf)) take_snapshot(m, r, leaf, st);
    return;
  }
  /* in the loop's body after a fork of this iteration: where the sides of the body's own
   * branches may join (the snapshot replaces the leaf's older one) */
  if (place != PLACE_BODY || has_nested_loop(m, r) || !forked_this_iteration(leaf)) return;
  const state_frame *f = state_top(st);
  const ir_function *fn = &m->prog->funcs[f->func];
  if (is_join(r->inc, fn, merge_block_of(fn, f->pc))) take_snapshot(m, r, leaf, st);
}

/* ---- comparing snapshots -------------------------------------------------------------------- */

static const merge_liveness *liveness_of(merge_ctx *m, uint32_t func) {
  if (!m->liveness) m->liveness = xcalloc(m->prog->nfuncs + 1, sizeof *m->liveness);
  if (!m->liveness[func]) m->liveness[func] = merge_liveness_compute(&m->prog->funcs[func]);
  return m->liveness[func];
}

void merge_inc_liveness_free(merge_ctx *m) {
  if (!m->liveness) return;
  for (uint32_t k = 0; k < m->prog->nfuncs; k++) merge_liveness_free(m->liveness[k]);
  free(m->liveness);
  m->liveness = NULL;
}

/* Every writable byte of every object equal in a and b (objects are the same ones). */
static bool same_memory(state *a, state *b) {
  for (size_t i = 0; i < mem_space_count(a->mem); i++) {
    const mem_object *o = mem_space_object_at(a->mem, i);
    if (o->read_only || mem_shares_contents(a->mem, b->mem, o)) continue;
    for (uint64_t byte = 0; byte < o->capacity; byte++) {
      expr *at = expr_const(64, byte);
      expr *va = mem_read(a->mem, o, at, 1), *vb = mem_read(b->mem, o, at, 1);
      bool same = va == vb; /* interned: pointer equality is syntactic equality */
      expr_unref(at), expr_unref(va), expr_unref(vb);
      if (!same) return false;
    }
  }
  return true;
}

/* The same instruction in the same functions all the way down the stack (cheap: first). */
static bool same_position(const state *a, const state *b) {
  if (a->nframes != b->nframes) return false;
  for (uint32_t k = a->nframes; k-- > 0;)
    if (a->frames[k].pc != b->frames[k].pc || a->frames[k].func != b->frames[k].func) return false;
  return true;
}

/* May the states of two snapshots (at the same position) be merged without ite: equal in
 * every live register, same stack objects, inputs and objects, and equal in every byte? */
static bool snapshots_equal(merge_ctx *m, state *a, state *b) {
  if (a->lifecycle != b->lifecycle || a->manual_nesting != b->manual_nesting ||
      a->pointer_forks != b->pointer_forks)
    return false;
  for (uint32_t k = 0; k < a->nframes; k++) {
    const state_frame *fa = &a->frames[k], *fb = &b->frames[k];
    const merge_liveness *l = liveness_of(m, fa->func);
    /* a caller's frame waits at its call: what is live before the call covers what the
     * rest of the caller reads (the call's own result is not live before it) */
    for (uint32_t reg = 0; reg < fa->nregs; reg++) /* one the analysis does not know: live */
      if (fa->regs[reg] != fb->regs[reg] && (reg >= l->nregs || merge_live_before(l, fa->pc, reg)))
        return false;
  }
  return merge_compatible(a, b) && same_memory(a, b);
}

/* ---- the tree ------------------------------------------------------------------------------- */

static uint32_t depth_of(const merge_node *n) {
  uint32_t d = 0;
  for (; n->parent; n = n->parent) d++;
  return d;
}

static bool is_ancestor(const merge_node *a, const merge_node *n) {
  for (; n; n = n->parent)
    if (n == a) return true;
  return false;
}

static merge_node *lowest_common_ancestor(merge_node *a, merge_node *b) {
  uint32_t da = depth_of(a), db = depth_of(b);
  for (; da > db; da--) a = a->parent;
  for (; db > da; db--) b = b->parent;
  while (a != b) a = a->parent, b = b->parent;
  return a;
}

/* The first symbol on the way from `from` down to n (the merged node's branch), or NULL. */
static const merge_branch *first_branch(const merge_node *from, const merge_node *n) {
  const merge_branch *b = NULL;
  for (; n && n != from; n = n->parent)
    if (n->symbol) b = &n->branch;
  return b;
}

/* Marks reg (a register operand) in s; true when it was not marked yet. */
static bool mark_operand(uint64_t *s, const ir_operand *o) {
  if (o->kind != IR_OPND_REG || merge_reg_in(s, o->index)) return false;
  merge_reg_add(s, o->index);
  return true;
}

/* The registers of fn an address of its memory accesses is computed from: the address
 * operand of a load, a store or a memory intrinsic, and — to a fixpoint — every operand of
 * an instruction, and the source of an edge's move (a phi), whose result is one. Computed
 * once per region (for the region's function). */
static const uint64_t *address_regs(merge_inc_region *ir, const ir_function *fn) {
  if (ir->address) return ir->address;
  uint64_t *s = ir->address = xcalloc(fn->nregs / 64 + 1, sizeof *s);
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    const ir_operand *o = &fn->operands[in->ops];
    switch (in->op) {
    case IR_LOAD: mark_operand(s, &o[0]); break;
    case IR_STORE: mark_operand(s, &o[1]); break;
    case IR_MEMCPY:
    case IR_MEMMOVE: mark_operand(s, &o[0]), mark_operand(s, &o[1]); break;
    case IR_MEMSET: mark_operand(s, &o[0]); break;
    default: break;
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (in->dst == IR_NONE || !merge_reg_in(s, in->dst) || in->op == IR_LOAD || in->op == IR_CALL)
        continue;
      for (uint32_t k = 0; k < in->nops; k++)
        changed |= mark_operand(s, &fn->operands[in->ops + k]);
    }
    for (uint32_t e = 0; e < fn->nedges; e++)
      for (uint32_t k = 0; k < fn->edges[e].nmoves; k++) {
        const ir_move *mv = &fn->moves[fn->edges[e].moves + k];
        if (merge_reg_in(s, mv->dst)) changed |= mark_operand(s, &mv->src);
      }
  }
  return s;
}

/* Do a's and b's top frames (the region's function) differ in a live register that an
 * address is computed from? Joined, it would become an ite, and every later access through
 * it a read at a symbolic index whose conditions hold the earlier reads (apr_unescape_url's
 * `s += 2` after a %XX escape: the joined states' queries cost Z3 hundreds of times a forked
 * state's). Such sides are not joined: they go on forked. */
static bool address_differs(merge_ctx *m, merge_region *r, const state *a, const state *b) {
  const state_frame *fa = &a->frames[a->nframes - 1], *fb = &b->frames[b->nframes - 1];
  const ir_function *fn = &m->prog->funcs[fa->func];
  const uint64_t *addr = address_regs(r->inc, fn);
  const merge_liveness *l = liveness_of(m, fa->func);
  for (uint32_t reg = 0; reg < fa->nregs && reg < fn->nregs; reg++)
    if (fa->regs[reg] != fb->regs[reg] && merge_reg_in(addr, reg) &&
        (reg >= l->nregs || merge_live_before(l, fa->pc, reg)))
      return true;
  return false;
}

/* Is v a constant that points into one of st's objects? */
static bool points_into_object(const state *st, const expr *v) {
  return expr_is_const(v) && v->u.value && v->u.value <= UINT64_MAX &&
         mem_space_find(st->mem, (uint64_t)v->u.value) != NULL;
}

/* Do a and b differ in a pointer they keep in memory (an aligned 8-byte word, one that
 * differs, holding an address into an object in either)? apr_fnmatch advances `pattern` and
 * `string` through their addresses (`fnmatch_ch(&pattern, &string, …)`): joined, the
 * pointer in memory became an ite and its later reads reads at a symbolic index, as with
 * an address register (address_differs) — pat-inc's Z3 effort went from 1.40× none's to
 * 4.63× at capacity 5 when the loop's header joined them. */
static bool pointer_in_memory_differs(state *a, state *b) {
  mem_space *spaces[2] = {a->mem, b->mem};
  bool *differ = NULL;
  uint64_t cap = 0;
  bool found = false;
  for (size_t i = 0; i < mem_space_count(a->mem) && !found; i++) {
    const mem_object *o = mem_space_object_at(a->mem, i);
    if (o->read_only || o->capacity < 8 || mem_shares_contents(a->mem, b->mem, o)) continue;
    if (o->capacity > cap) {
      cap = o->capacity;
      differ = xrealloc(differ, cap);
    }
    if (!mem_bytes_differing(spaces, 2, o, differ)) continue;
    for (uint64_t w = 0; w + 8 <= o->capacity && !found; w += 8) {
      bool any = false;
      for (uint64_t k = w; k < w + 8; k++) any |= differ[k];
      if (!any) continue;
      expr *at = expr_const(64, w);
      expr *va = mem_read(a->mem, o, at, 8), *vb = mem_read(b->mem, o, at, 8);
      found = va != vb && (points_into_object(a, va) || points_into_object(b, vb));
      expr_unref(at), expr_unref(va), expr_unref(vb);
    }
  }
  free(differ);
  return found;
}

/* Did the sides below lca part at a branch of the loop's function whose comparison is asked
 * again after their join — in the rest of the iteration or after the loop
 * (merge_decide_asked_again)? Joined, they would go on as one state only to be split there
 * into the two sides again, each now carrying the join's disjunction and ite: the join saves
 * no path and makes every later query dearer. libtasn1 asn1_get_tag_der's `while (punt <
 * der_len && der[punt] & 128)` joins, at the `&&`, the side that ran out of bytes with the
 * side whose byte ends the tag, and right after the loop `if (punt >= der_len)` parts them
 * again: decode_simple_der (capacity 20) made 72 such joins for 1.15 M of Z3 effort (7.63 M
 * against 6.49 M declined, 5,866 paths either way). apr_fnmatch's `for (wild = 0; (*pattern
 * == '*') || (*pattern == '?'); ++pattern)` joins at the `||` the '*' side with the others,
 * and its body asks `*pattern == '*'` at once (4.05 M against 3.93 M). Or is the byte the
 * parting comparison read compared again past the loop: busybox bb_process_escape_sequence
 * classes `*q - '0'` as a digit or not, joins the classes where `d >= base` ends the digits,
 * and past the loop looks `*q` up in its table of one-letter escapes, splitting the joined
 * break state by letter (printf_escape, capacity 10: 124,900 effort joined, 73,158
 * declined; none 57,027). */
static merge_asked parted_on_a_later_question(merge_ctx *m, const merge_region *r,
                                              const merge_node *lca, const merge_node *n,
                                              const merge_node *c) {
  const merge_branch *bn = first_branch(lca, n), *bc = first_branch(lca, c);
  if (!bn || !bc || bn->func != r->func || bc->func != r->func || bn->inst != bc->inst)
    return MERGE_ASKED_NOT;
  const state_frame *f = state_top(node_info(r->inc, n->id)->snapshot);
  uint32_t join = merge_block_of(&m->prog->funcs[f->func], f->pc);
  return merge_decide_asked_again(m, r->func, r->loop, bn->inst, join);
}

/* May the snapshots of n and c (at one position, neither an ancestor of the other) be
 * merged with ite? Only at a join of the body of an innermost loop (the iterations of a
 * nested loop are not counted: its sides would join after different numbers of them, and
 * the join would redo them), both in the iteration in which their paths parted (no header
 * entry below their common ancestor): the two sides of the body's own branches, never two
 * iterations. Or at the loop's header, both having just entered it from the iteration in
 * which their paths parted (sides that each end with `continue` meet nowhere else). */
static bool joinable(merge_ctx *m, merge_region *r, merge_node *n, merge_node *c) {
  inc_node *in = node_info(r->inc, n->id), *ic = node_info(r->inc, c->id);
  state *a = in->snapshot, *b = ic->snapshot;
  /* at the header the sides parted in the iteration that their entry ended */
  loop_place place = place_of(m, r, a);
  uint32_t parted = place == PLACE_HEADER ? in->iter - 1 : in->iter;
  if ((place != PLACE_BODY && place != PLACE_HEADER) || has_nested_loop(m, r) ||
      in->iter != ic->iter || (place == PLACE_HEADER && in->iter == 0) ||
      iteration_of(lowest_common_ancestor(n, c)) != parted)
    return false;
  if (a->lifecycle != b->lifecycle || a->manual_nesting != b->manual_nesting ||
      a->pointer_forks != b->pointer_forks || !merge_compatible(a, b) ||
      address_differs(m, r, a, b) || (place == PLACE_HEADER && pointer_in_memory_differs(a, b)))
    return false;
  merge_node *lca = lowest_common_ancestor(n, c);
  /* the fork below lca on n's side (the lca's children are one fork's sides) */
  const merge_branch *parting = first_branch(lca, n);
  if (parting && merge_decide_concretized(m, parting->func, parting->inst)) {
    merge_reasons_add(&m->stats->decisions, MERGE_INC_CONCRETIZED);
    return false;
  }
  merge_asked asked = parted_on_a_later_question(m, r, lca, n, c);
  if (asked) {
    merge_reasons_add(&m->stats->decisions,
                      asked == MERGE_ASKED_SAME ? MERGE_INC_ASKED_AGAIN : MERGE_INC_BYTE_AGAIN);
    return false;
  }
  const char *undone = site_undone(m, a);
  if (undone) {
    merge_reasons_add(&m->stats->decisions, undone);
    return false;
  }
  /* the ite needs paths that exclude each other: a reshaped tree's siblings may overlap */
  size_t cut = lca->parent ? node_info(r->inc, lca->id)->npc : r->entry_npc;
  if (cut > a->npc || cut > b->npc) return false;
  expr *tail = expr_true();
  for (size_t k = cut; k < b->npc; k++) {
    expr *next = expr_and(tail, b->pc[k]);
    expr_unref(tail);
    tail = next;
  }
  bool overlap = true;
  qs_status status = qs_may_be_true(m->solver, a->pc, a->npc, tail, &overlap);
  expr_unref(tail);
  return status != QS_UNKNOWN && !overlap;
}

/* The node to merge n with: one whose snapshot is equal to n's (closest to the root, then
 * the oldest), else one it may join with ite (likewise; *ite is set); or NULL. */
static merge_node *partner_of(merge_ctx *m, merge_region *r, merge_node *n, bool *ite) {
  merge_inc_region *ir = r->inc;
  state *sn = node_info(ir, n->id)->snapshot;
  *ite = false;
  merge_node *best = NULL, *best_join = NULL;
  uint32_t best_depth = 0, join_depth = 0;
  /* states at the loop's exits merge when the region is released; merging them here would
   * take them from under the snapshots that wait at the body's joins */
  loop_place place = place_of(m, r, sn);
  if (place == PLACE_EXIT) return NULL;
  /* equal merges in the loop's frame are split again too */
  const char *undone = place == PLACE_BODY || place == PLACE_HEADER ? site_undone(m, sn) : NULL;
  for (uint32_t id = 0; id < r->tree->count && id < ir->cap; id++) {
    merge_node *c = r->tree->nodes[id];
    inc_node *info = &ir->nodes[id];
    if (c == n || c->detached || !info->snapshot || info->ended_below || info->nests ||
        !same_position(sn, info->snapshot))
      continue;
    uint32_t d = depth_of(c);
    if ((best && d >= best_depth) || is_ancestor(c, n) || is_ancestor(n, c)) continue;
    if (snapshots_equal(m, sn, info->snapshot)) {
      if (undone) {
        merge_reasons_add(&m->stats->decisions, undone);
        continue;
      }
      best = c;
      best_depth = d;
    } else if (!best && (!best_join || d < join_depth) && joinable(m, r, n, c)) {
      best_join = c;
      join_depth = d;
    }
  }
  *ite = !best && best_join;
  return best ? best : best_join;
}

/* Discards every state below n (paused at the exit or running) and every snapshot. */
static void discard_below(merge_ctx *m, merge_region *r, merge_node *n) {
  for (merge_node *c = n->first_child; c; c = c->next_sibling) discard_below(m, r, c);
  inc_node *info = node_info(r->inc, n->id);
  state_free(info->snapshot);
  info->snapshot = NULL;
  state *st = n->state;
  if (!st) return;
  n->state = NULL;
  bool waiting = merge_inc_leaving(r, st); /* then out of the searcher already */
  if (st->paused) {
    for (size_t k = 0; k < r->npaused; k++)
      if (r->paused[k] == st) r->paused[k] = r->paused[--r->npaused];
  } else {
    r->running--;
    if (!waiting) m->host.park(m->host.ctx, st);
  }
  st->region = NULL;
  st->leaf = NULL;
  m->host.discard(m->host.ctx, st);
  m->stats->inc_discarded++;
}

/* After n's subtree was cut off below `stop`: a node left without children goes too, one
 * left with one child is spliced. */
static void tidy_up(merge_ctx *m, merge_region *r, merge_node *p, const merge_node *stop) {
  merge_tree *t = r->tree;
  while (p && p != stop && !p->state && !p->detached) {
    merge_node *grand = p->parent;
    uint32_t live = live_children(p);
    if (live == 0) {
      merge_tree_detach(t, p);
      p = grand;
      continue;
    }
    /* a node whose snapshot waits at a join of the loop's body (or at its header) for the
     * other side of its fork stays: splicing would lose the snapshot (and make that
     * iteration's word differ) */
    state *snap = node_info(r->inc, p->id)->snapshot;
    loop_place at = snap ? place_of(m, r, snap) : PLACE_ELSEWHERE;
    if (live == 1 && at != PLACE_BODY && at != PLACE_HEADER) {
      merge_node *c = p->first_child;
      while (c->dead) c = c->next_sibling;
      merge_tree_splice(t, p, c);
    }
    return;
  }
}

/* --validate-merges: the values of merged state mg with those of the constituents group[0..2)
 * — every register live at its frame's position and every writable byte. A value that is
 * the same expression in mg and in both constituents (interned: syntactically equal) is equal
 * under any condition and left out; every other one goes to the solver. A register that
 * is dead there is not part of the state's meaning (snapshots_equal ignores it too). */
static void merged_values(merge_ctx *m, state *mg, state *const *group, merge_values *values) {
  for (uint32_t k = 0; k < mg->nframes; k++) {
    const state_frame *f = &mg->frames[k];
    const merge_liveness *l = liveness_of(m, f->func);
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
      if (reg < l->nregs && !merge_live_before(l, f->pc, reg)) continue;
      expr *parts[2];
      bool same = true, unset = !f->regs[reg];
      for (size_t j = 0; j < 2; j++) {
        assert(group[j]->frames[k].nregs == f->nregs);
        parts[j] = group[j]->frames[k].regs[reg];
        same &= parts[j] == f->regs[reg];
        unset |= !parts[j];
      }
      if (same) continue;
      if (unset) values->unset++;
      else
        merge_values_add(values, f->regs[reg], parts);
    }
  }
  for (size_t i = 0; i < mem_space_count(mg->mem); i++) {
    const mem_object *o = mem_space_object_at(mg->mem, i);
    if (o->read_only || (mem_shares_contents(mg->mem, group[0]->mem, o) &&
                         mem_shares_contents(mg->mem, group[1]->mem, o)))
      continue;
    for (uint64_t byte = 0; byte < o->capacity; byte++) {
      expr *at = merge_tmp(m, expr_const(64, byte));
      expr *merged = merge_tmp(m, mem_read(mg->mem, o, at, 1)), *parts[2];
      bool same = true;
      for (size_t j = 0; j < 2; j++) {
        parts[j] = merge_tmp(m, mem_read(group[j]->mem, o, at, 1));
        same &= parts[j] == merged;
      }
      if (!same) merge_values_add(values, merged, parts);
    }
  }
}

/* Test hook (test/merge/incremental.py): with SYMQ_TEST_CORRUPT_MERGE set in the
 * environment, the first writable byte of the first merged state is changed (negated), a
 * wrong value that --validate-merges must report. Without it, nothing happens. */
static void corrupt_for_test(state *merged) {
  static int armed = -1;
  if (armed < 0) armed = getenv("SYMQ_TEST_CORRUPT_MERGE") != NULL;
  if (!armed) return;
  for (size_t i = 0; i < mem_space_count(merged->mem); i++) {
    const mem_object *o = mem_space_object_at(merged->mem, i);
    if (o->read_only || !o->capacity) continue;
    expr *at = expr_const(64, 0), *old = mem_read(merged->mem, o, at, 1), *bad = expr_not(old);
    mem_write(merged->mem, o, at, bad);
    expr_unref(at), expr_unref(old), expr_unref(bad);
    armed = 0;
    return;
  }
}

/* Does a side whose first branch below the common ancestor is a come before one whose is b
 * (function, instruction, then edge; a side without one last)? Merged nodes take the first
 * side's branch and list it first, so that the join of every iteration gives one symbol
 * whichever side was compared first. */
static bool comes_first(const merge_branch *a, const merge_branch *b) {
  if (!a || !b) return a || !b;
  if (a->func != b->func) return a->func < b->func;
  if (a->inst != b->inst) return a->inst < b->inst;
  return a->edge <= b->edge;
}

/* A join's value: the first side's where its tail holds (the tails exclude each other). */
static expr *ite_on_first(merge_ctx *m, expr *const *vals, size_t n, void *arg) {
  expr *const *tails = arg;
  assert(n == 2);
  return merge_tmp(m, expr_ite(tails[0], vals[0], vals[1]));
}

/* The nodes strictly between n and stop lose their snapshots: n's subtree is about to move
 * under stop, so theirs no longer hold every path their snapshot would redo (merging one of
 * them later would cover n's paths twice). */
static void forget_above(merge_inc_region *ir, const merge_node *n, const merge_node *stop) {
  for (const merge_node *p = n->parent; p && p != stop; p = p->parent) {
    inc_node *info = node_info(ir, p->id);
    state_free(info->snapshot);
    info->snapshot = NULL;
  }
}

/* Merges n and other (their snapshots equal, or joinable with ite when `ite`). */
static void merge_nodes(merge_ctx *m, merge_region *r, merge_node *n, merge_node *other, bool ite) {
  merge_inc_region *ir = r->inc;
  merge_node *lca = lowest_common_ancestor(n, other);
  const merge_branch *b = first_branch(lca, n), *b_other = first_branch(lca, other);
  if (!comes_first(b, b_other)) {
    merge_node *swap = n;
    n = other, other = swap;
    b = b_other;
  }
  /* the merged state resumes in the iteration of other's snapshot */
  uint32_t entries = node_info(ir, other->id)->iter - iteration_of(lca);
  size_t cut = lca->parent ? node_info(ir, lca->id)->npc : r->entry_npc;
  state *sn = node_info(ir, n->id)->snapshot, *so = node_info(ir, other->id)->snapshot;
  assert(cut <= sn->npc && cut <= so->npc && (cut == 0 || sn->pc[cut - 1] == so->pc[cut - 1]));
  state *group[2] = {sn, so};
  expr *tails[2] = {merge_tail(m, sn, cut), merge_tail(m, so, cut)};
  expr *either = merge_tmp(m, expr_or(tails[0], tails[1]));

  state *merged = state_fork(so, m->host.new_state_id(m->host.ctx));
  merged->merge_product = true;
  while (merged->npc > cut) expr_unref(merged->pc[--merged->npc]);
  state_add_constraint(merged, either);
  if (sn->depth > merged->depth) merged->depth = sn->depth;
  if (ite) { /* every register and byte on which the sides differ */
    merge_values scratch = {.nparts = 2};
    merge_each_value(m, merged, group, 2, ite_on_first, tails, &scratch);
    merge_values_free(&scratch);
  }
  uint32_t la = node_info(ir, n->id)->lineage, lb = node_info(ir, other->id)->lineage;
  if (ite) note_join(m, r, merged, so, tails, la, lb);
  else
    note_equal_merge(m, merged, la, lb);
  /* --tests-per-merge=all: a test for each side, as a release writes one per member */
  for (size_t j = 0; j < 2; j++) {
    uint32_t test_id = m->opt.tests_per_merge_all ? m->host.write_test(m->host.ctx, group[j]) : 0;
    m->stats->merge_tests += test_id != 0;
    merge_keep_member_tests(merged, group[j], test_id);
  }
  corrupt_for_test(merged);
  if (m->opt.validate) {
    merge_values values = {.nparts = 2};
    merged_values(m, merged, group, &values);
    merge_validate(m, merged, group, tails, NULL, 2, &values);
    merge_values_free(&values);
  }
  merge_branch branch;
  if (b) branch = *b;

  merge_node *pn = n->parent, *po = other->parent;
  forget_above(ir, n, lca);
  forget_above(ir, other, lca);
  discard_below(m, r, n);
  discard_below(m, r, other);
  merge_tree_detach(r->tree, n);
  merge_tree_detach(r->tree, other);
  tidy_up(m, r, pn, lca);
  tidy_up(m, r, po, lca);

  merge_node *node = merge_tree_add(r->tree, lca, either, false, b ? &branch : NULL);
  node->loop_entries = entries;
  merge_tmp_release(m);
  merged->region = r;
  merged->leaf = node;
  merged->paused = false;
  node->state = merged;
  take_snapshot(m, r, node, merged); /* a new leaf: it may merge in turn (sets its npc) */
  node_info(ir, node->id)->merged = true;
  ir->merges++;
  r->running++;
  m->stats->inc_merges++;
  m->host.resume(m->host.ctx, merged, true);
  list_push(&ir->fresh, merged);
}

/* ---- breadth-first scheduling --------------------------------------------------------------- */

/* Is leaf at or below a node that a merge of this region made? */
static bool below_merged(const merge_inc_region *ir, const merge_node *leaf) {
  for (const merge_node *n = leaf; n; n = n->parent)
    if (n->id < ir->cap && ir->nodes[n->id].merged) return true;
  return false;
}

void merge_inc_forked(merge_region *r, state *child) {
  merge_inc_region *ir = r->inc;
  if (!ir) return;
  list_push(&ir->fresh, child);
  if (ir->merges && !ir->merged_forked) ir->merged_forked = below_merged(ir, child->leaf);
}

bool merge_inc_leaving(merge_region *r, state *st) {
  merge_inc_region *ir = r->inc;
  if (!ir) return false;
  if (ir->active == st) ir->active = NULL;
  list_remove(&ir->fresh, st);
  if (!list_remove(&ir->waiting, st)) return false;
  st->paused = false; /* it was waiting for its turn, not at the exit */
  return true;
}

static void wait_turn(merge_ctx *m, merge_inc_region *ir, state *st) {
  m->host.park(m->host.ctx, st);
  st->paused = true;
  list_push(&ir->waiting, st);
}

/* The member that ran goes to the back of the queue, behind the sides forked meanwhile, and
 * the front one runs. */
static void schedule(merge_ctx *m, merge_region *r) {
  merge_inc_region *ir = r->inc;
  for (size_t k = 0; k < ir->fresh.n; k++) wait_turn(m, ir, ir->fresh.items[k]);
  ir->fresh.n = 0;
  if (ir->active) wait_turn(m, ir, ir->active);
  ir->active = NULL;
  if (!ir->waiting.n) return;
  state *next = ir->waiting.items[0];
  list_remove(&ir->waiting, next);
  next->paused = false;
  m->host.resume(m->host.ctx, next, false);
  ir->active = next;
}

/* Merged states at the exits after which a region whose merged states never forked drops its
 * incremental part. */
enum { MERGE_INC_IDLE_MERGES = 2 };

/* The states waiting at r's exits that a merge of r made (below a merged node). */
static size_t merged_at_exits(const merge_region *r) {
  size_t k = 0;
  for (size_t i = 0; i < r->npaused; i++) k += below_merged(r->inc, r->paused[i]->leaf);
  return k;
}

/* Have MERGE_INC_IDLE_MERGES of r's merged states reached its exits while none of them forked
 * inside it, in a loop that holds another loop? There such merges save nothing and the
 * breadth-first turns cost: a loop holding another one is never joined with ite (joinable),
 * so its merges are of equal snapshots, and a merged state that does not fork before it
 * leaves the loop (wget_base64_decode's `return -1` for an invalid character, reached by
 * `c == '='` or by `!IS_BASE64 (c)`) only does early what PAT's merge at the exit does
 * anyway. The turns cost Z3 by themselves: wget base64 (capacity 5) with every equal merge
 * declined explores the same paths, forks and exit merges as plain pat, breadth-first, for
 * 18.2 M of effort against plain pat's 13.6 M. Where merged states fork again (wget
 * res_parse's characters classed by c_isalnum, merged, then the next one read) the turns are
 * what lets the sides meet (depth-first there, 59 M against 21 M): they stay. */
static bool merges_idle(merge_ctx *m, merge_region *r) {
  merge_inc_region *ir = r->inc;
  if (ir->merges < MERGE_INC_IDLE_MERGES || ir->merged_forked || r->npaused == ir->idle_seen ||
      !has_nested_loop(m, r))
    return false;
  ir->idle_seen = r->npaused;
  return merged_at_exits(r) >= MERGE_INC_IDLE_MERGES;
}

/* r goes on as a plain region (not one that gave up): the states waiting for their turn run
 * on, the snapshots are dropped (merge_inc_give_up), and its exits merge on release. */
static void drop_incremental(merge_ctx *m, merge_region *r) {
  merge_reasons_add(&m->stats->decisions,
                    "incremental merging dropped: its merged states left the loop without forking");
  merge_inc_give_up(m, r);
}

void merge_inc_run(merge_ctx *m, merge_region *r) {
  merge_inc_region *ir = r->inc;
  if (!ir) return;
  /* a merge may add a pending node: the loop runs until none is left */
  for (size_t k = 0; k < ir->npending; k++) {
    merge_node *n = ir->pending[k];
    inc_node *info = node_info(ir, n->id);
    if (n->detached || !info->snapshot || info->ended_below || info->nests) continue;
    bool ite = false;
    merge_node *other = partner_of(m, r, n, &ite);
    if (other) merge_nodes(m, r, n, other, ite);
  }
  ir->npending = 0;
  if (merges_idle(m, r)) {
    drop_incremental(m, r);
    return;
  }
  schedule(m, r);
}

/* ---- nested regions (merge/region.c) -------------------------------------------------------- */

static void count_nests(merge_region *r, const merge_node *leaf, int by) {
  for (const merge_node *n = leaf; n; n = n->parent) node_info(r->inc, n->id)->nests += by;
}

uint32_t merge_inc_merges(const merge_region *r) { return r->inc ? r->inc->merges : 0; }

void merge_inc_nest_opened(merge_region *r, const merge_node *leaf, state *st) {
  if (!r->inc) return;
  merge_inc_leaving(r, st); /* running: it was the active member, or fresh */
  count_nests(r, leaf, 1);
}

void merge_inc_nest_closed(merge_region *r, const merge_node *leaf) {
  if (r->inc) count_nests(r, leaf, -1); /* splices since the open only removed nodes above */
}

void merge_inc_nest_rejoined(merge_region *r, const merge_node *leaf, const merge_node *n,
                             state *st) {
  merge_inc_region *ir = r->inc;
  if (!ir) return;
  size_t cut = leaf->parent ? node_info(ir, leaf->id)->npc : r->entry_npc;
  for (const merge_node *p = n->parent; p && p != leaf; p = p->parent)
    node_info(ir, p->id)->npc = cut;
  node_info(ir, n->id)->npc = st->npc;
  merge_inc_forked(r, st); /* back in the searcher: queued for its turn at the next slice */
}

/* ---- giving up (merge/region.c) ------------------------------------------------------------- */

size_t merge_inc_waiting(const merge_region *r) {
  const merge_inc_region *ir = r->inc;
  return ir ? ir->waiting.n + ir->fresh.n : 0;
}

void merge_inc_give_up(merge_ctx *m, merge_region *r) {
  merge_inc_region *ir = r->inc;
  if (!ir) return;
  /* the back of the queue first, so that under DFS (newest first) its front goes on first:
   * the member that has waited longest, as at a plain give-up (merge/region.c). The sides
   * forked since the last slice (fresh) and the member whose turn it was are in the searcher
   * already. */
  for (size_t k = ir->waiting.n; k-- > 0;) {
    state *st = ir->waiting.items[k];
    st->paused = false; /* it waited for its turn, not at an exit: it runs on, a member */
    m->host.resume(m->host.ctx, st, false);
  }
  ir->waiting.n = 0;
  merge_inc_region_free(ir); /* the snapshots: never merged now */
  r->inc = NULL;
}
