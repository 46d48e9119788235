/* region.c — merge regions and the interpreter's events (contract in region.h). */
#include "merge/region.h"

#include <assert.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/core/memory.h"
#include "engine/core/xalloc.h"
#include "merge/decide.h"
#include "merge/incremental.h"
#include "merge/strategy.h"

/* A paused state's model, for its test if it is merged away (pause_model_take). */
typedef struct pause_model {
  expr_assignment *model;
  size_t npc;
} pause_model;

/* ---- reasons and statistics ---------------------------------------------------------- */

void merge_reasons_add(merge_reasons *r, const char *text) {
  size_t lo = 0, hi = r->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(r->items[mid].text, text);
    if (c == 0) {
      r->items[mid].count++;
      return;
    }
    if (c < 0) lo = mid + 1;
    else
      hi = mid;
  }
  r->items = xrealloc(r->items, (r->n + 1) * sizeof *r->items);
  memmove(&r->items[lo + 1], &r->items[lo], (r->n - lo) * sizeof *r->items);
  r->items[lo] = (merge_reason){xstrdup(text), 1};
  r->n++;
}

void merge_reasons_free(merge_reasons *r) {
  for (size_t k = 0; k < r->n; k++) free(r->items[k].text);
  free(r->items);
  *r = (merge_reasons){0};
}

void merge_reasons_json(json_writer *j, const merge_reason *items, size_t n) {
  json_object_begin(j);
  for (size_t k = 0; k < n; k++) json_key_uint(j, items[k].text, items[k].count);
  json_object_end(j);
}

static void reasons_member(json_writer *j, const char *key, const merge_reasons *r) {
  json_key(j, key);
  merge_reasons_json(j, r->items, r->n);
}

void merge_stats_json(json_writer *j, const merge_stats *s) {
  json_object_begin(j);
  JSON_COUNTERS(j, {"regions_opened", s->regions_opened}, {"regions_released", s->regions_released},
                {"regions_nested", s->regions_nested});
  reasons_member(j, "regions_skipped", &s->skipped);
  reasons_member(j, "regions_hash_invalid", &s->hash_invalid);
  reasons_member(j, "decisions", &s->decisions);
  JSON_COUNTERS(j, {"merges", s->merges}, {"merged_states", s->merged_states},
                {"merges_along_tree", s->merges_along_tree}, {"merge_tests", s->merge_tests},
                {"validation_failures", s->validation_failures},
                {"validation_unchecked", s->validation_unchecked},
                {"merged_pc_nodes", s->merged_pc_nodes}, {"states_at_exits", s->states_at_exits},
                {"tree_nodes", s->tree_nodes}, {"batches", s->batches},
                {"covered_paths", s->covered_paths}, {"tests_completed", s->tests_completed});
  json_key(j, "pat");
  json_object_begin(j);
  JSON_COUNTERS(j, {"regions_merged", s->pat_regions}, {"merges", s->pat_merges},
                {"merged_states", s->pat_merged_states},
                {"quantified_constraints", s->pat_quantified}, {"syntheses", s->pat_syntheses});
  reasons_member(j, "fallbacks", &s->pat_fallbacks);
  json_object_end(j);
  json_key(j, "incremental");
  json_object_begin(j);
  JSON_COUNTERS(j, {"nodes_merged", s->inc_merges}, {"states_discarded", s->inc_discarded},
                {"snapshots", s->inc_snapshots}, {"snapshot_bytes", s->inc_snapshot_bytes});
  json_object_end(j);
  json_object_end(j);
}

void merge_stats_free(merge_stats *s) {
  merge_reasons_free(&s->skipped);
  merge_reasons_free(&s->hash_invalid);
  merge_reasons_free(&s->pat_fallbacks);
  merge_reasons_free(&s->decisions);
}

/* ---- the context ----------------------------------------------------------------------- */

merge_ctx *merge_ctx_new(const ir_program *prog, const merge_options *opt, qsolver *solver,
                         const char *out_dir, merge_stats *stats, const merge_host *host) {
  merge_ctx *m = xcalloc(1, sizeof *m);
  m->prog = prog;
  m->opt = *opt;
  m->solver = solver;
  m->out_dir = out_dir;
  m->stats = stats;
  m->host = *host;
  m->loops = xcalloc(prog->nfuncs + 1, sizeof *m->loops);
  return m;
}

static void region_free(merge_region *r) {
  if (r->grafted) hmap_free(r->grafted);
  free(r->grafted);
  merge_inc_region_free(r->inc);
  merge_tree_free(r->tree);
  free(r->paused);
  free(r->forked_exits);
  free(r->early_log);
  free(r->batches);
  free(r);
}

void merge_tmp_release(merge_ctx *m) {
  while (m->ntmp) expr_unref(m->tmp[--m->ntmp]);
}

void merge_ctx_free(merge_ctx *m) {
  if (!m) return;
  while (m->regions) { /* left open by a halt: their states have already ended */
    merge_region *r = m->regions;
    m->regions = r->next;
    region_free(r);
  }
  for (uint32_t k = 0; k < m->prog->nfuncs; k++) merge_loops_free(m->loops[k]);
  free(m->loops);
  merge_sizes_free(&m->sizes);
  merge_tmp_release(m);
  free(m->tmp);
  if (m->strategy_free) m->strategy_free(m->strategy_arg);
  merge_decide_free(m);
  merge_inc_liveness_free(m);
  merge_inc_undone_free(m);
  for (size_t k = 0; k < m->pause_models.cap; k++) /* states a halt left paused */
    if (m->pause_models.keys[k]) {
      pause_model *p = (pause_model *)(uintptr_t)m->pause_models.vals[k];
      expr_assignment_free(p->model);
      free(p);
    }
  hmap_free(&m->pause_models);
  free(m->models_due);
  free(m);
}

void merge_set_strategy(merge_ctx *m, merge_strategy strategy, void *arg,
                        void (*free_arg)(void *arg)) {
  if (m->strategy_free) m->strategy_free(m->strategy_arg);
  m->strategy = strategy;
  m->strategy_arg = arg;
  m->strategy_free = free_arg;
}

expr *merge_tmp(merge_ctx *m, expr *e) {
  if (m->ntmp == m->cap_tmp) {
    m->cap_tmp = m->cap_tmp ? 2 * m->cap_tmp : 64;
    m->tmp = xrealloc(m->tmp, m->cap_tmp * sizeof *m->tmp);
  }
  m->tmp[m->ntmp++] = e;
  return e;
}

void merge_keep_member_tests(state *merged, const state *member, uint32_t test_id) {
  member_tests_take(&merged->member_tests, member->member_tests);
  if (test_id)
    member_tests_add(&merged->member_tests, test_id, member->pc, member->npc, member->nsymbolics);
}

expr *merge_tail(merge_ctx *m, const state *st, size_t from) {
  expr *tail = merge_tmp(m, expr_true());
  for (size_t k = from; k < st->npc; k++) tail = merge_tmp(m, expr_and(tail, st->pc[k]));
  return tail;
}

merge_loops *merge_loops_of(merge_ctx *m, uint32_t func) {
  if (!m->loops[func]) m->loops[func] = merge_loops_find(&m->prog->funcs[func]);
  return m->loops[func];
}

/* The solver effort the paths' own queries have cost so far: --validate-qsolver's re-checks
   and --validate-merges' checks left out (qs_effort_split), so that validation watches the
   give-up without moving it. */
static uint64_t path_effort(merge_ctx *m) { return qs_effort_split_of(m->solver).effort; }

/* ---- opening ----------------------------------------------------------------------------- */

/* nested regions (issue 26, item 3c), at the end of this file */
static bool nest_possible(const state *st);
static bool nest_inside(merge_ctx *m, const state *st, const merge_loops *l, uint32_t loop);
static void nest_opened(merge_ctx *m, merge_region *inner, state *st);
static void nest_rejoin(const merge_region *inner, state *st, bool merged);
static void nest_closed(merge_region *inner);

/* Would every join r's incremental part could make be declined (merge_decide_joins_declined)?
 * Then r opens as a plain region: the breadth-first turns and snapshots would buy nothing. */
static bool inc_part_declined(merge_ctx *m, const merge_region *r) {
  if (!merge_decide_joins_declined(m, r->func, r->loop)) return false;
  merge_reasons_add(&m->stats->decisions,
                    "incremental part not opened: every join in its loop would be declined");
  return true;
}

static void region_open(merge_ctx *m, state *st, bool manual, uint32_t loop) {
  merge_region *r = xcalloc(1, sizeof *r);
  if (st->region) nest_opened(m, r, st); /* before st moves to r */
  r->id = m->next_region_id++;
  r->manual = manual;
  r->func = state_top(st)->func;
  r->depth = st->nframes;
  r->loop = loop;
  r->entry_npc = st->npc;
  r->work.effort_at_open = path_effort(m);
  r->work.inc_merges_at_open = m->stats->inc_merges;
  r->tree = merge_tree_new(st);
  if (m->opt.incremental && !r->parent) { /* nested: plain */
    r->joins_declined = !manual && inc_part_declined(m, r);
    if (!r->joins_declined) r->inc = merge_inc_region_new();
  }
  r->running = 1;
  r->next = m->regions;
  m->regions = r;
  st->region = r;
  st->leaf = r->tree->root;
  st->manual_nesting = 0;
  m->stats->regions_opened++;
}

/* A loop whose regions twice had states to merge at an exit and merged none (every group
 * declined or left forked: nothing repeats there, or merging would not pay) opens no more
 * regions: its states then run as forked ones do, without waiting at the exits. An exit
 * declined early (region_decided_early) had states to merge too: its sample was declined and
 * its later arrivals went on forked, so a region whose only exit with states was declined
 * early merged nothing as well (runtime/lib/strtod.c's digit_value, a loop that concretizes
 * a digit one value per turn, opened 345 regions on busybox sleep_duration in 2,000,000
 * instructions, each sampling 8 states and declining them early). */
enum { MERGE_BARREN_LIMIT = 2 };

/* Does the loop's body call a function with a body? (Cached in the loop.) */
static bool loop_calls(const ir_program *prog, const ir_function *fn, merge_loop *lp,
                       uint32_t nblocks) {
  if (lp->calls < 0) {
    lp->calls = 0;
    for (uint32_t b = 0; b < nblocks && !lp->calls; b++) {
      if (!lp->body[b]) continue;
      for (uint32_t i = 0; i < fn->blocks[b].count && !lp->calls; i++) {
        const ir_inst *in = &fn->insts[fn->blocks[b].first + i];
        lp->calls = in->op == IR_CALL && in->u.call.func != IR_NONE &&
                    !prog->funcs[in->u.call.func].is_decl;
      }
    }
  }
  return lp->calls;
}

void merge_at_branch(merge_ctx *m, state *st, expr *cond) {
  if (m->opt.mode == MERGE_MODE_NONE || expr_is_const(cond)) return;
  merge_inc_at_branch(m, st, cond);
  if (st->region && !nest_possible(st)) return;
  state_frame *f = state_top(st);
  const ir_function *fn = &m->prog->funcs[f->func];
  merge_loops *l = merge_loops_of(m, f->func);
  uint32_t loop = l->innermost[merge_block_of(fn, f->pc)];
  if (loop == MERGE_NO_LOOP) return;
  if (st->region && !nest_inside(m, st, l, loop)) return; /* e.g. its own region's loop */
  if (l->loops[loop].barren >= MERGE_BARREN_LIMIT) {
    merge_reasons_add(&m->stats->skipped, "the loop's earlier regions merged nothing");
    return;
  }
  if (m->opt.loops != MERGE_LOOPS_SYMBOLIC) {
    merge_size_kind kind = merge_sizes_reads_kind(&m->sizes, cond);
    if (kind == MERGE_SIZE_NONE) {
      merge_reasons_add(&m->stats->skipped, "loop branch does not depend on a symbolic size");
      return;
    }
    if (kind == MERGE_SIZE_WEAK && loop_calls(m->prog, fn, &l->loops[loop], l->nblocks)) {
      merge_reasons_add(&m->stats->skipped, "loop over a decoded length calls functions");
      return;
    }
  }
  /* Opened when the branch forks (merge_forked), not here: the interpreter asks the solver
   * which sides are feasible right after, and asking first here doubled those questions —
   * the solver's caches did not catch the repeats (on busybox's sleep_duration, capacity 10,
   * DFS, 200,000 instructions, no merge taken: 3,690 more Z3 queries than forking, 45% more
   * solver effort for the same paths). A branch with one feasible side opens nothing, as
   * before. */
  m->open_on = st->id + 1;
  m->open_at = st->instructions;
  m->open_loop = loop;
}

void merge_manual_begin(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  if (m->opt.mode != MERGE_MODE_NONE && !r) region_open(m, st, true, MERGE_NO_LOOP);
  else if (r && r->manual)
    st->manual_nesting++;
}

/* ---- members ------------------------------------------------------------------------------ */

static void resume(merge_ctx *m, state *st, bool fresh);
static bool is_member(state *const *group, size_t n, const state *st);
static void region_resume(merge_ctx *m, const merge_region *r, state *st, bool fresh);

/* st's leaf no longer holds st (it ended, or left the region). */
static void leaf_release(state *st) {
  merge_node *leaf = st->leaf;
  if (leaf && leaf->state == st) leaf->state = NULL;
}

/* ---- batches ---------------------------------------------------------------------------

   A loop's region holds every state that reaches one of its exits until no member runs inside
   it. When the loop has many paths and each costs solver time (wget's base64 and url decoders,
   json-c's tokener: thousands of states at ~5–10 ms each), that wait outlasts the run: the
   states parked at the exits end at --max-time without completing a path, where forking
   completes thousands. Any subset of the states waiting at one exit may be merged soundly
   (each merge is the disjunction of its members, whatever else arrives later), so an exit
   releases its waiting states in batches: when MERGE_BATCH_FIRST have arrived there, they are
   merged (by the strategy, as at the release) and go on; then when twice as many more have
   arrived, and so on. A loop whose exits see fewer than MERGE_BATCH_FIRST states each (the
   memspn family up to a capacity of 510) merges once per exit as before; one whose exits see
   n states makes at most log2(n / MERGE_BATCH_FIRST) + 2 merged states per exit. (A first
   batch of 128 split apr_collapse_spaces' 2,047 states, whose one merge pays, into 30 merges
   and took it from 5 to 9 s; at 512, 18 merges, 7 s.) Not for
   manual regions nor --incremental-merge's (their states wait where the strategy's snapshots
   or the user's section say). Deterministic: batches follow the arrivals' order. */

enum { MERGE_BATCH_FIRST = 512 };

typedef struct merge_exit_batch {
  uint32_t block;   /* the exit edge's source */
  uint32_t arrived; /* states that arrived since the exit's last batch */
  uint32_t size;    /* the arrivals that release the next batch */
} merge_exit_batch;

/* st has just paused at its exit: counted towards the exit's next batch. */
static void batch_arrived(merge_region *r, const state *st) {
  if (r->manual || r->inc) return;
  merge_exit_batch *e = NULL;
  for (size_t k = 0; k < r->nbatches && !e; k++)
    if (r->batches[k].block == st->prev_block) e = &r->batches[k];
  if (!e) {
    r->batches = xrealloc(r->batches, (r->nbatches + 1) * sizeof *r->batches);
    e = &r->batches[r->nbatches++];
    *e = (merge_exit_batch){st->prev_block, 0, MERGE_BATCH_FIRST};
  }
  if (++e->arrived >= e->size) r->batch_due = true;
}

/* Frees st's model from its pause, if one is kept. */
static void pause_model_drop(merge_ctx *m, const state *st) {
  uint64_t v;
  if (!hmap_get(&m->pause_models, st->id, &v)) return;
  pause_model *p = (pause_model *)(uintptr_t)v;
  expr_assignment_free(p->model);
  free(p);
  hmap_erase(&m->pause_models, st->id);
}

/* The model of a paused state's path, asked when it pauses (--tests-per-merge=all), for the
 * test written if it is merged away. Asked at the release instead, after the other members
 * and whatever ran meanwhile, it has left the counterexample cache (its 256 newest models)
 * and goes to Z3: on APR's fnmatch (capacity 10, DFS, 3,566,271 instructions) the 5,300 such
 * tests cost ~1,200 Z3 effort each, 7.0 M of pat's 55.4 M, where a path's own test, written
 * right after its last query, costs ~11; asked at the pause, nearly every one is a cache hit.
 * Kept by state id with the length of the path condition it models. Asked from
 * merge_release_finished (pause_models_take), not inside the state's step: a question asked
 * while the state runs is one its path relied on for the interpreter's other listeners
 * (prune/ taints the state's interpolant with any it was not told of), and this one is not. */
static void pause_model_take(merge_ctx *m, state *st) {
  pause_model_drop(m, st); /* a nested region's earlier pause */
  if (!m->opt.tests_per_merge_all || merge_region_of(st)->inc || !m->host.write_test_model) return;
  expr_array **arrays = state_symbolic_arrays(st);
  expr_assignment *model = NULL;
  qs_status status = qs_get_model(m->solver, st->pc, st->npc, arrays, st->nsymbolics, &model);
  free(arrays);
  if (status != QS_SAT) { /* the test asks again at the release, as it did */
    expr_assignment_free(model);
    return;
  }
  pause_model *p = xmalloc(sizeof *p);
  *p = (pause_model){.model = model, .npc = st->npc};
  hmap_put(&m->pause_models, st->id, (uint64_t)(uintptr_t)p);
}

/* st's model from its pause, taken over by the caller, if its path is still the one paused;
 * else NULL. */
static expr_assignment *pause_model_claim(merge_ctx *m, const state *st) {
  uint64_t v;
  if (!hmap_get(&m->pause_models, st->id, &v)) return NULL;
  pause_model *p = (pause_model *)(uintptr_t)v;
  expr_assignment *model = NULL;
  if (p->npc == st->npc) {
    model = p->model;
    p->model = NULL;
  }
  pause_model_drop(m, st);
  return model;
}

static void region_pause(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  merge_inc_leaving(r, st); /* it was running: it is not waiting for its turn */
  m->host.park(m->host.ctx, st);
  st->paused = true;
  r->running--;
  if (r->npaused == r->cap_paused) {
    r->cap_paused = r->cap_paused ? 2 * r->cap_paused : 16;
    r->paused = xrealloc(r->paused, r->cap_paused * sizeof *r->paused);
  }
  r->paused[r->npaused++] = st;
  batch_arrived(r, st);
  if (m->opt.tests_per_merge_all) { /* its model, asked once its step is over */
    if (m->nmodels_due == m->cap_models_due) {
      m->cap_models_due = m->cap_models_due ? 2 * m->cap_models_due : 4;
      m->models_due = xrealloc(m->models_due, m->cap_models_due * sizeof *m->models_due);
    }
    m->models_due[m->nmodels_due++] = st;
  }
}

/* The models of the states that paused since the last call (pause_model_take). */
static void pause_models_take(merge_ctx *m) {
  for (size_t k = 0; k < m->nmodels_due; k++) pause_model_take(m, m->models_due[k]);
  m->nmodels_due = 0;
}

/* st leaves its region without waiting (the region gave up): it runs on as a forked state
 * (in the region around it, if nested). */
static void region_leave(state *st) {
  merge_region *r = st->region;
  leaf_release(st);
  r->running--;
  st->region = NULL;
  if (r->parent) nest_rejoin(r, st, false); /* with its path: st->leaf */
  else
    st->leaf = NULL;
}

/* ---- give-up ------------------------------------------------------------------------------

   A region gives up when it will not converge in useful time: its waiting states resume
   forked, the members still inside leave without waiting, and its loop opens no more regions
   (merge_at_branch). A region with an incremental part gives up too (below).

   Every member of a loop's region waits at an exit until every path through the loop has
   reached one. A loop whose body forks with both sides going on (APR's escape test on every
   byte) has 2^k paths through k iterations, so under DFS a region at a capacity of 50
   holds every state until --max-time and completes no path, where forking completes
   thousands. Waiting for --max-region-states states to arrive before giving up comes too
   late when each one costs solver time. So the region's tree is also sized up as it grows
   (every so many forks, region_estimate): the states it will end with are estimated from what
   is explored, and a region estimated to end with more than --max-region-states gives up at
   once — the give-up the count would make later, anticipated. Deterministic: the estimate
   reads only the tree and the members' positions. */

/* The block b always goes on to, or UINT32_MAX. */
static uint32_t sole_successor(const ir_function *fn, uint32_t b) {
  return ir_block_nedges(fn, b) == 1 ? fn->edges[ir_block_edge(fn, b, 0)].target : UINT32_MAX;
}

/* Did the branch that made symbol n fork a diamond — do its two sides meet again at once (an
   `if` whose block falls through to the other side, or both sides going on to one block)?
   Then both go on with the same code after the join: what one side's subtree grew to, the
   other's will. */
static bool branch_is_diamond(const merge_ctx *m, const merge_node *n) {
  if (!n->symbol || n->nested || n->branch.func >= m->prog->nfuncs) return false;
  const ir_function *fn = &m->prog->funcs[n->branch.func];
  if (n->branch.inst >= fn->ninsts || fn->insts[n->branch.inst].op != IR_CONDBR) return false;
  uint32_t b = merge_block_of(fn, n->branch.inst);
  uint32_t t0 = fn->edges[ir_block_edge(fn, b, 0)].target;
  uint32_t t1 = fn->edges[ir_block_edge(fn, b, 1)].target;
  uint32_t s0 = sole_successor(fn, t0), s1 = sole_successor(fn, t1);
  return t0 != t1 && (s0 == t1 || s1 == t0 || (s0 != UINT32_MAX && s0 == s1));
}

/* Can block `from` of fn reach the header of loop `within` (of l) through the loop's blocks —
   or, when `within` is MERGE_NO_LOOP, a block that returns from fn, through any? */
static bool block_reaches(const ir_function *fn, uint32_t from, const merge_loops *l,
                          uint32_t within, uint32_t header) {
  uint8_t *seen = xcalloc(fn->nblocks + 1, 1);
  uint32_t *todo = xmalloc((fn->nblocks + 1) * sizeof *todo), ntodo = 0;
  bool found = false;
  todo[ntodo++] = from;
  seen[from] = 1;
  while (ntodo && !found) {
    uint32_t b = todo[--ntodo];
    const ir_inst *t = &fn->insts[fn->blocks[b].first + fn->blocks[b].count - 1];
    /* the goal: the loop's header, or with no loop given a return of the function */
    found = within == MERGE_NO_LOOP ? t->op == IR_RET : b == header;
    for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n && !found; k++) {
      uint32_t s = fn->edges[ir_block_edge(fn, b, k)].target;
      if (!seen[s] &&
          (within == MERGE_NO_LOOP || merge_loop_contains(l, within, s) || s == header)) {
        seen[s] = 1;
        todo[ntodo++] = s;
      }
    }
  }
  free(seen);
  free(todo);
  return found;
}

/* Does the side of a branch that made symbol n go on iterating r's loop, as the sides beside it
   may — so that the subtree explored beside it is a fair sample of its own? Not a side that
   leaves the innermost loop around its branch (a loop's exit: `break`, `return -1`, the end of
   a scan — a comb's tooth, one state); in the loop's own frame a side from which the loop's
   header is reachable inside the loop; in a function the loop calls, a side that can return
   (the cases of a switch that classifies a character: each goes back to the loop). */
static bool side_goes_on(merge_ctx *m, const merge_region *r, const merge_node *n) {
  if (!n->symbol || n->nested || r->manual || n->branch.func >= m->prog->nfuncs) return false;
  const ir_function *fn = &m->prog->funcs[n->branch.func];
  if (n->branch.inst >= fn->ninsts || n->branch.edge >= fn->nedges) return false;
  merge_loops *l = merge_loops_of(m, n->branch.func);
  uint32_t b = merge_block_of(fn, n->branch.inst), t = fn->edges[n->branch.edge].target;
  uint32_t inner = l->innermost[b];
  if (inner != MERGE_NO_LOOP && !merge_loop_contains(l, inner, t)) return false;
  if (n->branch.func == r->func)
    return merge_loop_contains(l, r->loop, t) &&
           block_reaches(fn, t, l, r->loop, l->loops[r->loop].header);
  return block_reaches(fn, t, l, MERGE_NO_LOOP, UINT32_MAX);
}

/* The number of states r's tree is estimated to end with — one per leaf. A subtree already
   explored counts its leaves. A member that has not run since it forked at a diamond (a
   sibling DFS left for later: its `instructions` are those of the fork) is estimated as large
   as the explored subtree beside it — Knuth's estimate of a backtrack tree, its twin the
   sample, taken only where the twin is a fair sample: after a diamond both sides run the same
   code, and a side that goes on with the loop (side_goes_on: a case of a switch, in the loop or
   in a function it calls) iterates as its twin may; any other sibling not yet run (a side that
   leaves its loop) counts as one. A loop whose body forks a diamond every iteration is so
   estimated at 2^k after a first dive of k iterations, one whose bytes are sorted c ways at
   c^k; one whose continuing iterations take one path, at the number of its iterations.
   Counting a switch's cases as one each kept wget's base64 decoder (7 ways a byte) estimated
   at its exits' count while its states waited until --max-time. Linear in the tree's nodes
   (with a search of the function's blocks per side not yet run). *unrun_out gets the part of
   the estimate still to be explored: the subtrees guessed for siblings not yet run (0 for a
   loop whose continuing iterations take one path: its dive is all the estimate sees). */
static double region_estimate(merge_ctx *m, const merge_region *r, double *unrun_out) {
  const merge_tree *t = r->tree;
  double *est = xcalloc(t->count + 1, sizeof *est);
  double *unrun = xcalloc(t->count + 1, sizeof *unrun); /* est's part from siblings not yet run */
  for (uint32_t id = t->count; id-- > 0;) {
    const merge_node *x = t->nodes[id];
    double twin = 0, sum = 0, below = 0;
    uint32_t pending = 0, live = 0;
    for (const merge_node *c = x->first_child; c; c = c->next_sibling) {
      if (c->dead || c->detached) continue;
      assert(c->id > x->id && "a child is made after its parent");
      live++;
      bool leaf = est[c->id] == 0; /* no live child of its own: not summed yet */
      const state *st = c->state;
      if (leaf && st && !st->paused && !c->ended && st->instructions == st->merge_forked_at &&
          (branch_is_diamond(m, c) || side_goes_on(m, r, c))) {
        pending++;
        continue;
      }
      double e = leaf ? 1 : est[c->id];
      sum += e;
      below += unrun[c->id];
      if (e > twin) twin = e;
    }
    /* est[id] stays 0 for a node with no live child: its parent counts it as one leaf */
    double guessed = pending * (twin > 1 ? twin : 1);
    if (live) {
      est[id] = sum + guessed;
      unrun[id] = below + guessed;
    }
  }
  double root = est[0] ? est[0] : 1;
  *unrun_out = unrun[0];
  free(est);
  free(unrun);
  return root;
}

/* The forks a region makes before its estimate may give it up: Knuth's estimate from one dive
   is a single sample, and with every side that goes on counted as its twin a loop that sorts
   bytes many ways passes the limit after a handful of forks. Trusted at once, it gave json-c's
   tokener loop up after 17 forks where it had waited for 91, and pat's run at capacity 10 (60
   s) covered 490 lines instead of 758 (forking: 487); from 64 forks on, 758 again. */
enum { MERGE_ESTIMATE_MIN_FORKS = 64 };

/* The solver effort (qs_effort: Z3's resource count) a region may spend per state of
   --max-region-states before it gives up: a region whose states still to be explored (the
   estimate's unrun part, region_estimate), at the effort its forks have cost so far, would
   cost more than --max-region-states states at this much each gives up as on the estimate —
   the states waiting at its exits would wait for that work until --max-time. The effort of
   the states already explored is spent whether the region gives up or not (its members go on
   forked and ask the same questions), so it does not count. Counted, it gave the second loop
   of chained memspn up under --merge=cfg after 81 of its ~128 forks, each costing ~650,000
   under the first loop's merged disjunction, and its 40 waiting states went on forked under
   that disjunction: at capacity 64 Z3 effort 96.5 M → 183.6 M (eval/real/RESULTS.md).
   Calibrated on the first loop of wget's url_escape_1 under url_unescape (capacity 10, DFS):
   2,047 states estimated, ~200,000 per fork (Z3 ~40 ms a query), projected ~4·10^8 (it gives
   up at its 64th fork, where 1,862 of the 1,919 states then estimated are unrun); and APR's
   collapse_spaces, ~2,200 per fork at capacity 50 (~1.3 ms a query; its estimate gives it up
   there anyway), and at capacity 10, where its region of 2,047 states merges and pays,
   1.2·10^7 for the whole run (~5,300 per fork): it stays open. At 12,000 per state the limit
   (4.9·10^7 with the default 4,096) lies 8x below the one and 4x above the other's whole run.
   Deterministic, as the count is: no clock is read. */
enum { MERGE_EFFORT_PER_STATE = 12000 };

/* An incremental region (--incremental-merge) runs its members breadth-first: all but one
   wait for their turn in its queue (merge/incremental.h), parked as surely as the states at
   its exits, and no path leaves the loop before the whole frontier has reached an exit. A
   loop whose sides cannot be joined (they differ in an address: busybox's chmod_parse_mode,
   capacity 10) doubles that frontier every iteration, and the region held 11,118 states
   until --max-time with no path completed, where plain pat gave up and completed 12,185. So
   the give-up applies, with what waits counted where it waits:
   - the count: the states waiting for their turn and those at the exits together, against
     --max-region-states (checked after each slice's merges, which may collapse many);
   - the effort: the queue is what is still to be explored, at the effort each fork cost so
     far — read only once the queue holds --max-region-states / MERGE_INC_EFFORT_QUEUE
     states. A region whose joins pay keeps its queue short (the finishing decoders under
     pat-inc: 5–110 at most), and reading Z3's statistics is not free: each read changes Z3's
     later work a little (apr unescape_url at 5, effort 238,076 → 237,166 when read at
     every check), so a region merging as it should is left alone;
   - not the tree's estimate: Knuth's estimate samples a depth-first dive (the unrun twin of
     an explored subtree), and breadth-first there is none — the estimate comes to the
     frontier that the count already counts — while merges reshape the tree under it.
   The give-up resumes the queue (merge_inc_give_up: the states keep running, forked) and
   then the exits' states, so that DFS runs those first, and drops every snapshot: merged
   after the give-up, a snapshot would redo paths now explored by forked states. Nor is an
   incremental region's exit declined early (region_decided_early): its states would leave
   forked while the snapshots above them stay, and a later merge there would redo them. */
enum { MERGE_INC_EFFORT_QUEUE = 16 };

/* An incremental region whose merges do not keep its frontier down gives up as soon as its
   queue is long (--max-region-states / MERGE_INC_EFFORT_QUEUE states), rather than when the
   count reaches --max-region-states. Each fork adds a state to the frontier and each merge
   takes at least one away, so the queue's share of the forks made says how much the merges
   collapse: where they cannot join the sides (chmod_parse_mode, capacity 10: the sides differ
   in an address), a fork's sides wait in the queue and at the exits breadth-first, and the
   queue holds 0.43–0.47 of the forks at every check from the 229th fork to the 1,000th and
   beyond (the exits another 0.2); the count gave it up only after ~7,700 forks, its snapshots,
   join questions and merges paid for until then. The states at the exits are frontier too:
   breadth-first they wait there until the whole region has, and a loop that may end at every
   byte parks half its frontier there. json-c's json_tokener_parse_ex at capacity 20 merges a
   node per two forks and its queue holds 0.24–0.34 of them, yet queue and exits hold 0.38 at
   the 1,175th fork and 0.47 at the 6,916th: counting the queue alone, its region held every
   state until --max-time and completed no path (pat 2 lines under none at 120 s); counting
   both, it gives up at the 1,175th and pat covers a third more lines than none. Where the
   joins pay, the frontier stays a loop body's width while the forks grow with the input, and
   its queue never reaches 256 (wget's res_parse at capacity 5 holds 110 at most, busybox's
   httpd_percent_decode at capacity 10 with its exits 358). So a frontier — the queue and the
   exits — of MERGE_INC_FRONTIER_NUM / MERGE_INC_FRONTIER_DEN (3/8) of the forks or more, once
   the queue is long, gives the region up ("its merges do not keep its frontier down"). Short
   queues are left alone: early in a region the share says nothing yet (res_parse starts at
   0.5, as chmod does), and a loop whose switch sorts a byte many ways holds that many sides
   for a while whatever its joins do. Counts only: deterministic, Z3's statistics not read. */
enum { MERGE_INC_FRONTIER_NUM = 3, MERGE_INC_FRONTIER_DEN = 8 };
/* ... but only a region that merges, at least one node per MERGE_INC_MERGING_DEN forks:
   one whose incremental part merges nothing is a plain region run breadth-first, whose
   release may still pay, and the count bounds it as it bounds a plain one. APR's
   collapse_spaces at capacity 10 doubles its frontier (the queue 0.50–0.65 of the forks)
   with no node merged, and PAT merges its 2,047 states at the exit: Z3 effort 10.8 M,
   given up on the share 21.7 M. chmod_parse_mode merges 0.26 nodes a fork at its 582nd. */
enum { MERGE_INC_MERGING_DEN = 8 };

/* Sizes r's tree up every so many forks (each estimate costs the tree's size, so the forks
   between two grow with it: linear in all). */
static void region_check_work(merge_ctx *m, merge_region *r) {
  merge_work *w = &r->work;
  if (++w->forks < w->next_check || !m->opt.max_waiting || r->gave_up) return;
  w->next_check = w->forks + (w->forks / 8 > 4 ? w->forks / 8 : 4);
  if (w->forks < MERGE_ESTIMATE_MIN_FORKS) return;
  double unrun;
  if (r->inc) /* breadth-first: no dive to sample (see "an incremental region" above) */
    unrun = (double)merge_inc_waiting(r);
  else if (region_estimate(m, r, &unrun) - (double)w->collapsed > (double)m->opt.max_waiting)
    w->over_budget = true; /* the states its batches merged wait no more: not counted */
  /* an incremental region's queue stays short where its merges pay: see above */
  if (r->inc && unrun < (double)m->opt.max_waiting / MERGE_INC_EFFORT_QUEUE) return;
  /* what the states still to come will cost the solver, at the effort its forks cost so far */
  double spent = (double)(path_effort(m) - w->effort_at_open);
  if (spent / (double)w->forks * unrun > (double)m->opt.max_waiting * MERGE_EFFORT_PER_STATE)
    w->over_effort = true;
  else if (r->inc &&
           (unrun + (double)r->npaused) * MERGE_INC_FRONTIER_DEN >=
               (double)w->forks * MERGE_INC_FRONTIER_NUM &&
           (m->stats->inc_merges - w->inc_merges_at_open) * MERGE_INC_MERGING_DEN >= w->forks)
    w->frontier_grows = true; /* see MERGE_INC_FRONTIER_NUM and MERGE_INC_MERGING_DEN */
}

/* Gives r up when too many states wait at its exits (or, in an incremental region, for
 * their turn and at its exits), or its tree is estimated to end with too many or to cost the
 * solver too much (region_check_work): each path of the loop would wait for every other, so
 * the exploration stalls (DFS completes no path) before any merge could pay. */
static bool region_give_up(merge_ctx *m, merge_region *r) {
  if (r->gave_up) return true;
  if (!m->opt.max_waiting) return false;
  const char *why = NULL;
  if (r->inc && r->npaused + merge_inc_waiting(r) >= m->opt.max_waiting)
    why = "gave up: more states waiting for their turn and at the exits than --max-region-states";
  else if (r->npaused >= m->opt.max_waiting)
    why = "gave up: more states waiting at the exits than --max-region-states";
  else if (r->work.over_budget)
    why =
        "gave up: the region's tree is estimated to end with more states than "
        "--max-region-states";
  else if (r->work.over_effort)
    why = "gave up: the region's states would cost more solver effort than its budget";
  else if (r->work.frontier_grows)
    why =
        "gave up: its merges do not keep its frontier down (3/8 of its forks wait, for their "
        "turn or at the exits)";
  if (!why) return false;
  r->gave_up = true;
  merge_reasons_add(&m->stats->decisions, why);
  merge_inc_give_up(m, r); /* first: the states at the exits, resumed after, run first */
  for (size_t k = r->npaused; k-- > 0;) { /* the last to arrive first: see release_groups */
    leaf_release(r->paused[k]);
    region_resume(m, r, r->paused[k], false);
  }
  r->npaused = 0;
  if (!r->manual) merge_loops_of(m, r->func)->loops[r->loop].barren = MERGE_BARREN_LIMIT;
  return true;
}

/* r's exit block is declined: the states that reach it continue forked, unpaused. */
static void exit_forked(merge_region *r, uint32_t block) {
  r->forked_exits = xrealloc(r->forked_exits, (r->nforked_exits + 1) * sizeof *r->forked_exits);
  r->forked_exits[r->nforked_exits++] = block;
}

/* Has st's exit (of a loop's region, not --incremental-merge's: see the give-up) been declined
 * early, now or before (merge_early_fn, merge/strategy.h)? Asked when MERGE_EARLY_SAMPLE states,
 * then twice as many, and so on, would wait there with st; when declined, the states waiting there
 * resume forked, as a declined group's do at the release, and st and the later arrivals continue
 * forked without waiting. */
static bool region_decided_early(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  if (!m->early || r->manual || r->inc) return false;
  for (size_t k = 0; k < r->nforked_exits; k++)
    if (r->forked_exits[k] == st->prev_block) return true;
  size_t n = 1;
  for (size_t k = 0; k < r->npaused; k++) n += r->paused[k]->prev_block == st->prev_block;
  if (n < MERGE_EARLY_SAMPLE || (n & (n - 1))) return false;
  state **group = xmalloc(n * sizeof *group);
  size_t g = 0;
  for (size_t k = 0; k < r->npaused; k++)
    if (r->paused[k]->prev_block == st->prev_block && merge_compatible(r->paused[k], st))
      group[g++] = r->paused[k];
  group[g++] = st;
  bool declined = g >= 2 && m->early(m, r, group, g, m->strategy_arg);
  if (declined) {
    exit_forked(r, st->prev_block);
    size_t kept = 0; /* the others keep their order */
    for (size_t k = 0; k < r->npaused; k++)
      if (!is_member(group, g, r->paused[k])) r->paused[kept++] = r->paused[k];
    r->npaused = kept;
    for (size_t k = g - 1; k-- > 0;) { /* st, group[g − 1], still runs; see release_groups */
      leaf_release(group[k]);
      region_resume(m, r, group[k], false);
    }
  }
  free(group);
  return declined;
}

/* ---- exits of a region whose joins are all declined ---------------------------------------

   A loop's region opened plain because every join in its loop would be declined (r->
   joins_declined, under --incremental-merge) does not pause its states at its exits: each goes
   on at once, forked ("not paused: ..."), as under --merge=none. Waiting there costs the solver
   even when the group is merged or declined: the paused states resume after the members still
   in the loop ran on the same solver lanes, and each pushes its path's formulas again, and a
   merge at such an exit rarely pays (its values are those the joins would have read). busybox
   printf_escape (capacity 10): bb_process_escape_sequence's digit loop, entered for octal then
   for hex escapes, paused and declined its exits' groups; not paused, pat explores none's 35
   paths in none's 1,958 instructions, Z3 effort 1.10-1.13x none's over seeds 0-4 -> 1.01-1.04x
   (eval/real/RESULTS.md, helper qcost's section). It replaces the exits "declined at arrival"
   (remembered from a declined release for the loop's later regions), which only such regions
   had. Not under plain PAT, whose regions do not open plain for their joins. */

/* Does st go on at its region's exit without waiting, its region opened plain for its declined
 * joins (see "exits of a region whose joins are all declined")? */
static bool exit_open(merge_ctx *m, const state *st) {
  const merge_region *r = st->region;
  if (!r->joins_declined) return false;
  merge_reasons_add(&m->stats->decisions,
                    "not paused: its region opened plain, every join in its loop declined");
  return true;
}

bool merge_manual_end(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  if (!r || !r->manual) return false;
  if (st->manual_nesting) {
    st->manual_nesting--;
    return false;
  }
  if (region_give_up(m, r)) {
    region_leave(st);
    return false;
  }
  region_pause(m, st); /* wait after the call for the region's other states */
  return true;
}

void merge_forked(merge_ctx *m, state *parent, state *child) {
  if (m->open_on == parent->id + 1 && m->open_at == parent->instructions) {
    /* the branch merge_at_branch saw forks: its region opens on parent, child shares it as
     * a state forked in it does (state_fork copied what parent had before) */
    m->open_on = 0;
    region_open(m, parent, false, m->open_loop);
    child->region = parent->region;
    child->leaf = parent->leaf;
    child->manual_nesting = parent->manual_nesting;
  }
  merge_inc_state_forked(m, parent, child);
  if (!parent->region) return;
  merge_region *r = parent->region;
  r->running++;
  merge_inc_forked(r, child);
  parent->merge_forked_at = child->merge_forked_at = parent->instructions;
  region_check_work(m, r);
}

/* Moves st to a new child of its leaf. */
static void tree_step(state *st, expr *cond, const merge_branch *b) {
  merge_region *r = st->region;
  merge_node *leaf = st->leaf;
  merge_node *child = merge_tree_add(r->tree, leaf, cond, false, b);
  leaf->state = NULL;
  child->state = st;
  st->leaf = child;
  merge_inc_node_added(r, child, st);
}

void merge_constrained(merge_ctx *m, state *st, expr *c) {
  if (m->opt.mode != MERGE_MODE_NONE && m->opt.loops == MERGE_LOOPS_DECODED)
    merge_sizes_note_bound(&m->sizes, c);
  if (st->region && !expr_is_true(c)) tree_step(st, c, NULL);
}

void merge_branched(merge_ctx *m, state *st, expr *cond, const merge_branch *b,
                    expr *const *dead_conds, const uint32_t *dead_edges, size_t ndead) {
  if (m->opt.mode != MERGE_MODE_NONE && m->opt.loops == MERGE_LOOPS_DECODED)
    merge_sizes_note_bound(&m->sizes, cond);
  merge_region *r = st->region;
  if (!r || expr_is_const(cond)) return;
  for (size_t k = 0; k < ndead; k++) {
    merge_branch dead = {b->func, b->inst, dead_edges[k]};
    merge_tree_add(r->tree, st->leaf, dead_conds[k], true, &dead);
  }
  tree_step(st, cond, b);
}

void merge_entered_block(merge_ctx *m, state *st) {
  if (st->region) merge_inc_entered_block(m, st);
}

void merge_took_edge(merge_ctx *m, state *st, uint32_t from_block) {
  (void)m;
  if (st->region) st->prev_block = from_block;
}

/* Has st left its (loop) region: returned from the loop's frame, or reached a block of the
 * loop's frame outside the loop? */
static bool region_exited(merge_ctx *m, state *st) {
  merge_region *r = st->region;
  if (r->manual) return false;
  if (st->nframes < r->depth) return true;
  if (st->nframes > r->depth) return false;
  state_frame *f = state_top(st);
  if (f->func != r->func) return true;
  uint32_t block = merge_block_of(&m->prog->funcs[f->func], f->pc);
  return !merge_loop_contains(merge_loops_of(m, f->func), r->loop, block);
}

bool merge_should_pause(merge_ctx *m, state *st) {
  if (!st->region || !region_exited(m, st)) return false;
  if (region_give_up(m, st->region) || exit_open(m, st) || region_decided_early(m, st)) {
    region_leave(st);
    return false;
  }
  region_pause(m, st);
  return true;
}

void merge_note_size(merge_ctx *m, expr *size) { merge_sizes_note(&m->sizes, size); }
void merge_note_store(merge_ctx *m, expr *offset, expr *value) {
  merge_sizes_note_store(&m->sizes, offset, value);
}
void merge_note_assume(merge_ctx *m, expr *cond) { merge_sizes_note_assume(&m->sizes, cond); }

void merge_symbolic_float(merge_ctx *m, const state *st) { merge_inc_state_unsupported(m, st); }

void merge_gone(merge_ctx *m, state *st) {
  merge_inc_state_gone(m, st);
  merge_region *r = st->region;
  if (!r) return;
  for (size_t k = m->nmodels_due; k-- > 0;) /* it will not be merged: no model wanted */
    if (m->models_due[k] == st) m->models_due[k] = m->models_due[--m->nmodels_due];
  pause_model_drop(m, st); /* nor the one asked when it paused (held until the run's end) */
  merge_node *leaf = st->leaf;
  if (leaf) merge_inc_member_ended(r, leaf);
  for (const merge_region *in = r; in->parent; in = in->parent) /* and where its nests opened */
    merge_inc_member_ended(in->parent, in->outer_leaf);
  merge_inc_leaving(r, st); /* a member waiting for its turn counts as running */
  leaf_release(st);
  if (st->paused) {
    for (size_t k = 0; k < r->npaused; k++)
      if (r->paused[k] == st) r->paused[k] = r->paused[--r->npaused];
  } else {
    r->running--;
  }
  st->region = NULL;
}

/* ---- release ------------------------------------------------------------------------------ */

bool merge_compatible(const state *a, const state *b) {
  if (a->nframes != b->nframes || a->nsymbolics != b->nsymbolics) return false;
  for (uint32_t k = 0; k < a->nframes; k++) {
    const state_frame *fa = &a->frames[k], *fb = &b->frames[k];
    if (fa->func != fb->func || fa->pc != fb->pc || fa->nallocas != fb->nallocas ||
        fa->varargs != fb->varargs)
      return false;
    for (uint32_t i = 0; i < fa->nallocas; i++)
      if (fa->allocas[i] != fb->allocas[i]) return false;
  }
  for (size_t k = 0; k < a->nsymbolics; k++)
    if (a->symbolics[k].array != b->symbolics[k].array) return false;
  return mem_same_objects(a->mem, b->mem);
}

static const char *leaf_label(void *state_ptr, void *ctx) {
  static char text[32];
  (void)ctx;
  snprintf(text, sizeof text, "state %" PRIu64, ((const state *)state_ptr)->id);
  return text;
}

/* The region's tree as DOT, made before its groups are released (the leaves' states). */
static char *tree_dot(merge_ctx *m, const merge_region *r) {
  char *dot = NULL, title[128];
  size_t len = 0;
  FILE *f = xopen_memstream(&dot, &len);
  snprintf(title, sizeof title, "region %u: %s in %s", r->id, r->manual ? "manual" : "loop",
           m->prog->funcs[r->func].name);
  merge_tree_dot(f, r->tree, title, leaf_label, m);
  fclose(f);
  return dot;
}

/* Writes the tree made by tree_dot with a note of the decisions taken at the release (a
 * node "decisions" before the graph's closing brace), and renders it with dot. */
static void dump_tree(merge_ctx *m, const merge_region *r, char *tree) {
  char name[64], *decisions = merge_decisions_take(m, (merge_region *)r);
  size_t cut = strlen(tree);
  while (cut && tree[cut - 1] != '}') cut--;
  if (cut) cut--; /* the graph's closing brace */
  char *dot = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&dot, &len);
  fwrite(tree, 1, cut, f);
  fputs("  decisions [shape=note, label=\"decisions:\\l", f);
  for (const char *c = decisions; *c; c++) {
    if (*c == '"' || *c == '\\') fputc('\\', f);
    if (*c == '\n') fputs("\\l", f);
    else
      fputc(*c, f);
  }
  fputs("\"];\n}\n", f);
  fclose(f);
  free(decisions);
  free(tree);
  snprintf(name, sizeof name, "region%06u.dot", r->id);
  if (m->host.write_file(m->host.ctx, name, dot, len) && access("/usr/bin/dot", X_OK) == 0) {
    char *cmd = xasprintf("/usr/bin/dot -Tsvg -o '%s/region%06u.svg' '%s/%s'", m->out_dir, r->id,
                          m->out_dir, name);
    if (system(cmd) != 0) fprintf(stderr, "symq: warning: dot could not render %s\n", name);
    free(cmd);
  }
  free(dot);
}

static bool is_member(state *const *group, size_t n, const state *st) {
  for (size_t k = 0; k < n; k++)
    if (group[k] == st) return true;
  return false;
}

static void resume(merge_ctx *m, state *st, bool fresh) {
  st->region = NULL;
  st->leaf = NULL;
  st->paused = false;
  m->host.resume(m->host.ctx, st, fresh);
}

/* st resumes after r: forked, or back in the region around r as a member. */
static void region_resume(merge_ctx *m, const merge_region *r, state *st, bool fresh) {
  pause_model_drop(m, st);
  if (!r->parent) {
    resume(m, st, fresh);
    return;
  }
  nest_rejoin(r, st, fresh);
  m->host.resume(m->host.ctx, st, fresh);
}

/* One group of states paused at one exit: the strategy's merge, the tests of the members
 * merged away (--tests-per-merge=all; a member that resumes as it is writes its own test
 * when it ends), and what resumes. */
static void release_group(merge_ctx *m, merge_region *r, state **group, size_t n) {
  if (n == 1) {
    region_resume(m, r, group[0], false);
    return;
  }
  r->groups++;
  state **out = xrealloc(NULL, n * sizeof *out);
  size_t nout = m->strategy(m, r, group, n, out, m->strategy_arg);
  /* every member merged away was one path (incremental merging's snapshots are not) and
   * wrote its test */
  bool all_tested = m->opt.tests_per_merge_all && !r->inc;
  for (size_t k = 0; k < n; k++)
    if (!is_member(out, nout, group[k])) {
      uint32_t test_id = 0;
      if (m->opt.tests_per_merge_all) {
        expr_assignment *model = pause_model_claim(m, group[k]);
        test_id = model ? m->host.write_test_model(m->host.ctx, group[k], model)
                        : m->host.write_test(m->host.ctx, group[k]);
        m->stats->merge_tests += test_id != 0;
      }
      bool tested = test_id != 0;
      for (size_t j = 0; j < nout; j++) /* the merged states go on for its path */
        if (!is_member(group, n, out[j])) merge_keep_member_tests(out[j], group[k], test_id);
      all_tested &= tested && !group[k]->merge_product;
      group[k]->region = NULL; /* merged away: not a path of its own */
      m->host.discard(m->host.ctx, group[k]);
    }
  for (size_t k = nout; k-- > 0;) { /* the first to arrive resumes last: see release_groups */
    bool fresh = !is_member(group, n, out[k]);
    if (fresh) {
      m->stats->merged_pc_nodes +=
          expr_dag_size(out[k]->pc + r->entry_npc, out[k]->npc - r->entry_npc);
      /* made of members merged away only: their tests are its paths' */
      out[k]->merge_covered_npc = all_tested ? out[k]->npc : 0;
      out[k]->merge_product = true;
    }
    region_resume(m, r, out[k], fresh);
  }
  free(out);
  merge_tmp_release(m);
}

/* states[0..n), paused at r's exits, are grouped by exit (the position they wait at and the
 * edge they came by) and each group is released. True when a group had two states or more.
 * What resumes goes back to the searcher in the reverse of the order the states arrived in
 * (the last group first, each group's states last to first; the same at a give-up and an
 * early decline), so that under DFS, whose newest state runs next, the state that reached an
 * exit first goes on first — as it would have at once without the region — and forking's
 * order of exploration is kept. Resumed in arrival order, DFS ran the last arrival first: on
 * wget's html_tags the inner loop over a tag's name released names of 9 bytes before names of
 * 1, and DFS spent the run on tags with no room left for attributes (lines covered in 200,000
 * instructions, pat: 138 before, 232 after; none 224). */
static bool release_groups(merge_ctx *m, merge_region *r, state *const *states, size_t n) {
  bool to_merge = false;
  bool *done = xcalloc(n + 1, sizeof *done);
  state **order = xrealloc(NULL, (n + 1) * sizeof *order); /* the groups one after another */
  size_t *start = xrealloc(NULL, (n + 2) * sizeof *start), ngroups = 0, len = 0;
  for (size_t i = 0; i < n; i++) {
    if (done[i]) continue;
    start[ngroups++] = len;
    state *a = states[i];
    for (size_t k = i; k < n; k++) {
      state *b = states[k];
      /* a loop's states are grouped by exit edge; a manual region's by where they wait */
      if (done[k] || (!r->manual && b->prev_block != a->prev_block) || !merge_compatible(a, b))
        continue;
      done[k] = true;
      order[len++] = b;
    }
  }
  start[ngroups] = len;
  for (size_t k = ngroups; k-- > 0;) { /* the last group first (above) */
    to_merge |= start[k + 1] - start[k] >= 2;
    release_group(m, r, order + start[k], start[k + 1] - start[k]);
  }
  free(done);
  free(order);
  free(start);
  return to_merge;
}

/* The exits of r whose batch is due release the states waiting there (see batches): each
 * leaves the tree (its leaf stays, holding no state) and its group is released as at the
 * region's release; the decisions go to r's --dump-tree note. */
static void region_release_batches(merge_ctx *m, merge_region *r) {
  r->batch_due = false;
  char *others = m->decision_log;
  m->decision_log = r->early_log;
  uint64_t merges_before = m->stats->merges;
  state **batch = xrealloc(NULL, (r->npaused + 1) * sizeof *batch);
  for (size_t k = 0; k < r->nbatches; k++) {
    merge_exit_batch *e = &r->batches[k];
    if (e->arrived < e->size) continue;
    e->arrived = 0;
    e->size = e->size <= UINT32_MAX / 2 ? 2 * e->size : UINT32_MAX;
    size_t n = 0, kept = 0; /* the others keep their order */
    for (size_t i = 0; i < r->npaused; i++) {
      state *st = r->paused[i];
      if (st->prev_block == e->block) batch[n++] = st;
      else
        r->paused[kept++] = st;
    }
    r->npaused = kept;
    if (!n) continue;
    m->stats->batches++;
    m->stats->states_at_exits += n;
    for (size_t i = 0; i < n; i++) leaf_release(batch[i]);
    uint64_t merges = m->stats->merges;
    release_groups(m, r, batch, n);
    if (m->stats->merges > merges) r->work.collapsed += n;
  }
  free(batch);
  r->batch_merged |= m->stats->merges > merges_before;
  r->early_log = m->decision_log;
  m->decision_log = others;
}

/* Did r's incremental part merge in r's loop where its exits merged nothing — join sides in an
 * innermost loop of its function (the loops whose sides join with ite), so that at most a
 * third of the paths its forks made (forks + 1) reached its exits? Then r's loop is not
 * barren. wget url_parse's url_has_scheme joins the sides of c_isalnum's switch (55 forks, 5
 * states at the exits), while its exits, holding joined members, continue forked
 * (merge/strategy_pat.c); counted barren, the loop opened no region after its second and
 * its later entries ran forked, unjoined: pat-inc's Z3 effort 243.1 M, 97.5 M now (none
 * 246.7 M). Joins that collapse less are no evidence: counted, apr_escape_shell's (31 forks,
 * 12 states) and apr_fnmatch's kept opening regions whose joins the code after them parts again
 * (1.98 M -> 2.89 M, 3.93 M -> 6.46 M). A loop holding another loop makes equal merges only,
 * which merges_idle (merge/incremental.c) weighs: counted, wget html_tags' outer loop kept
 * opening regions (4.01 M -> 10.35 M). (The joins since r opened, as the frontier check counts
 * them: a region nested in r is a plain one and joins nothing.) */
enum { MERGE_JOINED_COLLAPSE = 3 };
static bool joined_innermost(merge_ctx *m, const merge_region *r, size_t at_exits) {
  if (m->stats->inc_merges == r->work.inc_merges_at_open ||
      at_exits * MERGE_JOINED_COLLAPSE > r->work.forks + 1)
    return false;
  const merge_loops *l = merge_loops_of(m, r->func);
  for (uint32_t k = 0; k < l->nloops; k++)
    if (l->loops[k].parent == r->loop) return false;
  return true;
}

/* Every member has left or died: the paused states are grouped by exit and released. */
static void region_release(merge_ctx *m, merge_region *r) {
  for (merge_region **p = &m->regions; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      break;
    }
  m->stats->regions_released++;
  m->stats->states_at_exits += r->npaused;
  m->stats->tree_nodes += r->tree->count;
  if (r->tree->invalid) merge_reasons_add(&m->stats->hash_invalid, r->tree->invalid);
  char *tree = m->opt.dump_tree ? tree_dot(m, r) : NULL;
  uint64_t merges_before = m->stats->merges + m->stats->inc_merges;
  size_t at_exits = r->npaused;                                /* before the release groups them */
  bool to_merge = release_groups(m, r, r->paused, r->npaused); /* some exit had two or more */
  to_merge |= r->nforked_exits > 0;                            /* or an exit was declined early */
  if (!r->manual && to_merge && !r->batch_merged &&
      m->stats->merges + m->stats->inc_merges == merges_before && !joined_innermost(m, r, at_exits))
    merge_loops_of(m, r->func)->loops[r->loop].barren++;
  if (tree) dump_tree(m, r, tree);
  if (r->parent) nest_closed(r);
  region_free(r);
}

void merge_release_finished(merge_ctx *m) {
  pause_models_take(m); /* before any release: still the counterexample cache's newest */
  for (merge_region *r = m->regions; r; r = r->next) {
    if (r->work.over_budget || r->work.over_effort)
      region_give_up(m, r); /* its waiting states resume now */
    if (r->batch_due && r->running && !r->gave_up) region_release_batches(m, r);
    merge_inc_run(m, r);
    if (r->inc) region_give_up(m, r); /* counted after the merges, which may collapse many */
  }
  for (bool again = true; again;) {
    again = false;
    for (merge_region *r = m->regions; r; r = r->next)
      if (r->running == 0) {
        region_release(m, r);
        again = true;
        break;
      }
  }
}

/* ---- appended (issue 26, item 3a) ---------------------------------------------------------- */

void merge_path_ended(merge_ctx *m, state *st) {
  (void)m;
  merge_region *r = st->region;
  merge_node *leaf = st->leaf;
  if (r && leaf && leaf->state == st && !leaf->first_child && !leaf->detached)
    merge_tree_leaf_ended(r->tree, leaf);
}

bool merge_path_covered(merge_ctx *m, const state *st) {
  bool covered = st->merge_covered_npc && st->merge_covered_npc == st->npc;
  m->stats->covered_paths += covered;
  return covered;
}

/* ---- appended (issue 26, item 4: dynamic state merging) ------------------------------------ */

uint64_t merge_fast_forward(const merge_ctx *m, const state *st) {
  const merge_region *r = st->region;
  return m->opt.mode != MERGE_MODE_NONE && r && !st->paused && !r->gave_up ? (uint64_t)r->id + 1
                                                                           : 0;
}

/* ---- nested regions (issue 26, item 3c) ------------------------------------------------------

   A member of a loop's region that forks at a branch of a loop inside it (in the same frame,
   or in a function the member called) opens that inner loop's region, nested: while it is
   open it counts as one running member of the outer region (its slot), the outer tree's leaf
   where it opened waits for what comes back, and when it is released every state that
   resumes — merged by its strategy or not — goes back to the outer region as a member, one
   node under that leaf carrying what the state added inside (merge_tree_add_nested). So the
   inner loop is merged first, and each outer iteration adds one symbol for it to the outer
   words. Not in a manual region or one that gave up.

   Under --incremental-merge a nested region is a plain one: the outer region's snapshots,
   joins and turns stay its own, and while the nested region is open the outer one merges
   nothing at or above its leaf (merge_inc_nest_opened); what comes back takes its turns in
   the outer region. An incremental region nests only a loop of a function its loop calls,
   and only until it has merged a node. A loop in its own frame its incremental part merges
   already (equal snapshots of the inner loop's sides, breadth-first): nested, that loop ran
   depth-first and PAT merged it at its exits only — wget res_parse (capacity 5) 21.2 M of Z3
   effort → 183.4 M, html_tags 4.0 → 6.8 M. Once the region merges, its turns are what lets
   its sides meet: nesting after a merge took html_tags to 10.4 M (eval/real/RESULTS.md,
   "Nested regions under incremental merging"). */

static bool nest_possible(const state *st) {
  const merge_region *r = st->region;
  if (r->inc && (st->nframes == r->depth || merge_inc_merges(r))) return false;
  return !r->manual && !r->gave_up && !st->paused;
}

/* Can the conditional branch at st's position end `loop`'s iteration by leaving the loop —
 * does a block outside it follow one of its sides without passing the loop's header? (The
 * first test of `while (j < len && s[j] != c)` does; a test in the body whose sides meet
 * again before the header does not.) */
static bool branch_exits(merge_ctx *m, const state *st, const merge_loops *l, uint32_t loop) {
  const state_frame *f = &st->frames[st->nframes - 1];
  const ir_function *fn = &m->prog->funcs[f->func];
  if (fn->insts[f->pc].op != IR_CONDBR) return false;
  uint32_t header = l->loops[loop].header;
  uint8_t *seen = xcalloc(fn->nblocks + 1, 1);
  uint32_t *todo = xmalloc((fn->nblocks + 1) * sizeof *todo), ntodo = 0;
  bool exits = false;
  todo[ntodo++] = merge_block_of(fn, f->pc);
  seen[todo[0]] = 1;
  while (ntodo && !exits) {
    uint32_t b = todo[--ntodo];
    for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n && !exits; k++) {
      uint32_t s = fn->edges[ir_block_edge(fn, b, k)].target;
      exits = !merge_loop_contains(l, loop, s);
      if (!exits && s != header && !seen[s]) {
        seen[s] = 1;
        todo[ntodo++] = s;
      }
    }
  }
  free(seen);
  free(todo);
  return exits;
}

/* Is loop (of st's top frame) inside st's region's loop — a loop nested in it in the same
 * frame, or any loop of a function called from it — and does the branch decide whether it
 * goes on (its iteration count varies)? A fork in an inner loop's body that does not leave
 * it (a loop over a constant table inside the iteration, memspn's `chars`) opens nothing: it
 * is the outer iteration's. */
static bool nest_inside(merge_ctx *m, const state *st, const merge_loops *l, uint32_t loop) {
  const merge_region *r = st->region;
  bool inside = st->nframes > r->depth;
  if (!inside && st->nframes == r->depth && st->frames[st->nframes - 1].func == r->func)
    for (uint32_t p = l->loops[loop].parent; p != MERGE_NO_LOOP && !inside; p = l->loops[p].parent)
      inside = p == r->loop;
  return inside && branch_exits(m, st, l, loop);
}

static void nest_opened(merge_ctx *m, merge_region *inner, state *st) {
  inner->parent = st->region;
  inner->outer_leaf = st->leaf;
  inner->grafted = xcalloc(1, sizeof *inner->grafted);
  leaf_release(st); /* the outer leaf waits for the states the inner region hands back */
  merge_inc_nest_opened(inner->parent, inner->outer_leaf, st);
  m->stats->regions_nested++;
}

/* st goes back to the outer region: merged (a new state), as one node for what the inner
 * region's merge made; unmerged, with its path in the inner tree, so that an inner loop that
 * merged nothing leaves the outer words as they would be without it. */
static void nest_rejoin(const merge_region *inner, state *st, bool merged) {
  merge_region *outer = inner->parent;
  merge_node *leaf = st->leaf, *n;
  if (!merged && leaf && !leaf->detached) {
    n = merge_tree_graft(outer->tree, inner->outer_leaf, leaf, inner->grafted);
  } else {
    expr *tail = expr_true();
    for (size_t k = inner->entry_npc; k < st->npc; k++) {
      expr *next = expr_and(tail, st->pc[k]);
      expr_unref(tail);
      tail = next;
    }
    /* salted by the inner loop and the edge the state left it by */
    merge_branch b = {inner->func, UINT32_MAX - inner->loop, st->prev_block};
    n = merge_tree_add_nested(outer->tree, inner->outer_leaf, tail, &b);
    expr_unref(tail);
  }
  n->state = st;
  st->region = outer;
  st->leaf = n;
  st->paused = false;
  st->merge_forked_at = UINT64_MAX; /* it ran (to the inner exit): not an unexplored sibling */
  outer->running++;
  merge_inc_nest_rejoined(outer, inner->outer_leaf, n, st);
}

/* The inner region is released: its slot in the outer one is freed; when no state came back
 * (all ended inside), the outer leaf's path ended there. */
static void nest_closed(merge_region *inner) {
  merge_region *outer = inner->parent;
  merge_node *leaf = inner->outer_leaf;
  if (!leaf->first_child && !leaf->detached) merge_tree_leaf_ended(outer->tree, leaf);
  merge_inc_nest_closed(outer, leaf);
  outer->running--;
}
