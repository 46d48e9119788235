/* prune.c — nodes, facts, subsumption and the verdict (contract in prune.h). */
#include "prune/prune.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"
#include "prune/core.h"
#include "prune/relevance.h"
#include "prune/rename.h"
#include "prune/slots.h"
#include "prune/table.h"
#include "prune/wp.h"

/* A node of the execution tree: a state at a symbolic branch that was not subsumed. */
typedef struct prune_node {
  struct prune_node *parent;
  size_t npc;    /* the node's path condition is every state's pc[0..npc) below it */
  uint32_t open; /* states whose innermost node this is, plus unfinished child nodes */
  bool tainted;  /* no interpolant: an error, an early end, an allocation, an unheard request */
  prune_snapshot snap;
  expr **need; /* pc conjuncts (index < npc, owned references) the subtree's questions needed */
  size_t *need_at;
  size_t nneed, cap_need;
  /* wp: the formulas at the node's point (owned references) and its path condition */
  expr **psi;
  size_t npsi, cap_psi;
  expr **pc; /* npc owned references */
} prune_node;

struct prune_ctx {
  const ir_program *prog;
  const prune_options *opt;
  qsolver *solver;
  prune_stats *stats;
  prune_relevance **relevance; /* by function, computed on first use */
  prune_slots **slots;         /* by function, computed on first use */
  prune_table table;
  state *running; /* the state whose requests the counter is counting, or NULL */
  uint64_t seen;  /* the solver's request counter when last accounted for */
  bool fault;     /* SYMQ_PRUNE_FAULT=skip-implication: subsume without asking (tests of
                     --validate-interpolation only: it makes the pruning unsound) */
};

static uint64_t requests(const prune_ctx *p) {
  return qs_stage_count(p->solver) ? qs_stage_at(p->solver, 0)->queries : 0;
}

prune_ctx *prune_new(const ir_program *prog, const prune_options *opt, qsolver *solver,
                     prune_stats *stats) {
  assert(qs_stage_count(solver) > 0 && "the request counter is stage 0's");
  prune_ctx *p = xcalloc(1, sizeof *p);
  p->prog = prog, p->opt = opt, p->solver = solver, p->stats = stats;
  p->relevance = xcalloc(prog->nfuncs + 1, sizeof *p->relevance);
  p->slots = xcalloc(prog->nfuncs + 1, sizeof *p->slots);
  prune_table_init(&p->table);
  p->seen = requests(p);
  stats->unreach_call = opt->svcomp != NULL;
  const char *fault = getenv("SYMQ_PRUNE_FAULT");
  p->fault = fault && strcmp(fault, "skip-implication") == 0;
  return p;
}

static void node_free(prune_node *n) {
  for (size_t k = 0; k < n->nneed; k++) expr_unref(n->need[k]);
  free(n->need), free(n->need_at);
  for (size_t k = 0; k < n->npsi; k++) expr_unref(n->psi[k]);
  free(n->psi);
  if (n->pc)
    for (size_t k = 0; k < n->npc; k++) expr_unref(n->pc[k]);
  free(n->pc);
  prune_snapshot_free(&n->snap);
  free(n);
}

void prune_free(prune_ctx *p) {
  if (!p) return;
  for (uint32_t f = 0; f < p->prog->nfuncs; f++) {
    prune_relevance_free(p->relevance[f]);
    prune_slots_free(p->slots[f]);
  }
  free(p->relevance), free(p->slots);
  prune_table_free(&p->table);
  free(p);
}

static bool active(const prune_ctx *p) { return p && p->opt->mode != PRUNE_MODE_NONE; }

/* ---- the tree ---------------------------------------------------------------------------- */

static void taint_node(prune_node *n) {
  for (; n && !n->tainted; n = n->parent) n->tainted = true;
}

static void taint(state *st) { taint_node(st->prune_node); }

/* Requests the solver counted since the last account belong to the running state; any not
 * heard of (a concretization, a pointer resolved, a switch, …) leave its subtree without an
 * interpolant. */
static void account(prune_ctx *p) {
  uint64_t now = requests(p);
  if (now != p->seen && p->running) taint(p->running);
  p->seen = now;
}

static void need(prune_node *n, size_t at, expr *c) {
  if (at >= n->npc) return; /* below the node: its subtree makes it again */
  for (size_t k = 0; k < n->nneed; k++)
    if (n->need_at[k] == at) return; /* the prefix below n is shared: same index, same c */
  if (n->nneed == n->cap_need) {
    n->cap_need = n->cap_need ? 2 * n->cap_need : 8;
    n->need = xrealloc(n->need, n->cap_need * sizeof *n->need);
    n->need_at = xrealloc(n->need_at, n->cap_need * sizeof *n->need_at);
  }
  n->need[n->nneed] = expr_ref(c);
  n->need_at[n->nneed++] = at;
}

/* The conjuncts of st's pc that the unsat question(s) qs need, into st's node. */
static void need_core(prune_ctx *p, state *st, expr *const *qs, size_t nq) {
  prune_node *n = st->prune_node;
  if (!n || n->tainted) return;
  size_t *core = xcalloc(st->npc + 1, sizeof *core);
  size_t count = prune_core_slice(st->pc, st->npc, qs, nq, core);
  for (size_t k = 0; k < count; k++) need(n, core[k], st->pc[core[k]]);
  free(core);
  p->stats->facts++;
}

static bool wp(const prune_ctx *p) { return p->opt->mode == PRUNE_MODE_WP; }

static void psi_add(prune_node *n, expr *f) {
  for (size_t k = 0; k < n->npsi; k++)
    if (n->psi[k] == f) return;
  if (n->npsi == n->cap_psi) {
    n->cap_psi = n->cap_psi ? 2 * n->cap_psi : 8;
    n->psi = xrealloc(n->psi, n->cap_psi * sizeof *n->psi);
  }
  n->psi[n->npsi++] = expr_ref(f);
}

/* wp: Ψ (holding at a point whose path condition is pc[0 .. npc)) pushed back to node n's
 * point, into n's formulas. */
static void wp_up(prune_ctx *p, prune_node *n, expr *const *pc, size_t npc, expr *const *psi,
                  size_t npsi) {
  if (!n || n->tainted || !npsi) return;
  prune_wp_stats ws = {0};
  size_t count;
  expr **w = prune_wp_backprop(p->solver, pc, n->npc, npc, psi, npsi, &count, &ws);
  p->seen = requests(p); /* this module's own requests */
  for (size_t k = 0; k < count; k++) {
    psi_add(n, w[k]);
    expr_unref(w[k]);
  }
  free(w);
  prune_stats *s = p->stats;
  s->wp_steps += ws.steps, s->wp_passed += ws.passed, s->wp_abduced += ws.abduced;
  s->wp_fallbacks += ws.fallbacks, s->wp_queries += ws.queries;
}

/* A fact of st: q cannot hold on its path (pc ∧ q unsat). */
static void fact(prune_ctx *p, state *st, expr *q) {
  if (!wp(p)) {
    need_core(p, st, &q, 1);
    return;
  }
  prune_node *n = st->prune_node;
  if (!n || n->tainted) return;
  expr *not_q = expr_not(q);
  wp_up(p, n, st->pc, st->npc, &not_q, 1);
  expr_unref(not_q);
  p->stats->facts++;
}

/* Every state below n is gone: its interpolant joins the table, its needs go up. Returns
 * the parent (NULL at the root), which has one unfinished child less to wait for. */
static prune_node *node_finish(prune_ctx *p, prune_node *n) {
  prune_node *parent = n->parent;
  if (parent && !n->tainted && !wp(p))
    for (size_t k = 0; k < n->nneed; k++) need(parent, n->need_at[k], n->need[k]);
  if (parent && !n->tainted && wp(p)) wp_up(p, parent, n->pc, n->npc, n->psi, n->npsi);
  if (!n->tainted) {
    expr **from = wp(p) ? n->psi : n->need;
    size_t count = wp(p) ? n->npsi : n->nneed;
    expr **interpolant = xcalloc(count + 1, sizeof *interpolant);
    for (size_t k = 0; k < count; k++) interpolant[k] = expr_ref(from[k]);
    prune_table_add(&p->table, &n->snap, interpolant, count);
    p->stats->interpolants++;
  } else {
    p->stats->uninterpolable++;
  }
  node_free(n);
  return parent;
}

/* One state or child less below n (and so on up: a loop, however deep the tree). */
static void node_release(prune_ctx *p, prune_node *n) {
  while (n && --n->open == 0) n = node_finish(p, n);
}

/* ---- relevance ---------------------------------------------------------------------------- */

static const prune_relevance *relevance_of(prune_ctx *p, uint32_t func) {
  if (!p->relevance[func]) p->relevance[func] = prune_relevance_compute(&p->prog->funcs[func]);
  return p->relevance[func];
}

/* The top frame: before its instruction. A caller: after its call returns (the call's own
 * result is overwritten then). */
static bool relevant_reg(void *ctx, const state *st, uint32_t frame, uint32_t reg) {
  prune_ctx *p = ctx;
  const state_frame *f = &st->frames[frame];
  const prune_relevance *r = relevance_of(p, f->func);
  if (frame + 1 == st->nframes) return prune_relevant_before(r, f->pc, reg);
  const ir_inst *call = &p->prog->funcs[f->func].insts[f->pc];
  assert(f->pc + 1 < r->ninsts);
  return reg != call->dst && prune_relevant_before(r, f->pc + 1, reg);
}

/* ---- events ------------------------------------------------------------------------------- */

void prune_running(prune_ctx *p, state *st) {
  if (!active(p)) return;
  account(p);
  p->running = st;
}

static expr *conjunction(expr *const *c, size_t n) {
  expr *all = expr_const(1, 1);
  for (size_t k = 0; k < n; k++) {
    expr *next = expr_and(all, c[k]);
    expr_unref(all);
    all = next;
  }
  return all;
}

/* Whether st's pc implies σ of the entry's interpolant; its needs go to st's node then. */
static bool implies(prune_ctx *p, state *st, const prune_entry *e, prune_rename *r) {
  if (!e->ninterpolant || p->fault) return true;
  expr **renamed = xcalloc(e->ninterpolant, sizeof *renamed);
  for (size_t k = 0; k < e->ninterpolant; k++)
    renamed[k] = prune_rename_apply(r, e->interpolant[k]);
  expr *all = conjunction(renamed, e->ninterpolant);
  bool must = false;
  qs_status status = qs_must_be_true(p->solver, st->pc, st->npc, all, &must);
  expr_unref(all);
  p->seen = requests(p); /* this module's own request */
  p->stats->subsumption_queries++;
  bool subsumed = status == QS_UNSAT && must;
  if (subsumed && !wp(p)) need_core(p, st, renamed, e->ninterpolant);
  if (subsumed && wp(p)) wp_up(p, st->prune_node, st->pc, st->npc, renamed, e->ninterpolant);
  for (size_t k = 0; k < e->ninterpolant; k++) expr_unref(renamed[k]);
  free(renamed);
  return subsumed;
}

/* Whether an entry at st's call stack subsumes st: its snapshot matches up to σ and st's pc
 * implies σ of its interpolant. */
static bool subsumes(prune_ctx *p, state *st, const prune_entry *e) {
  prune_rename r;
  prune_rename_begin(&r, st, e->snap.inputs, e->snap.ninputs);
  bool yes = prune_snapshot_matches(&e->snap, st, &r) && implies(p, st, e, &r);
  if (yes && r.npairs) p->stats->renamed++;
  prune_rename_end(&r);
  return yes;
}

bool prune_at_branch(prune_ctx *p, state *st) {
  if (!active(p) || st->prune_validating) return false;
  account(p);
  size_t n;
  prune_entry *const *entries = prune_table_at(&p->table, st, relevant_reg, p, &n);
  bool subsumed = false;
  for (size_t k = 0; k < n && !subsumed; k++, p->stats->compared++)
    subsumed = subsumes(p, st, entries[k]);
  if (subsumed) {
    p->stats->subsumed++;
    prune_node *node = st->prune_node;
    st->prune_node = NULL;
    if (node) node_release(p, node);
    if (!p->opt->validate) {
      st->prune_end = PRUNE_END_SUBSUMED;
      return true;
    }
    st->prune_validating = true; /* explored anyway, outside the tree */
    return false;
  }
  prune_node *node = xcalloc(1, sizeof *node);
  node->parent = st->prune_node; /* its count keeps st's place: node replaces st there */
  node->npc = st->npc;
  node->open = 1;
  prune_snapshot_take(&node->snap, st, relevant_reg, p);
  if (wp(p)) {
    node->pc = xcalloc(st->npc + 1, sizeof *node->pc);
    for (size_t k = 0; k < st->npc; k++) node->pc[k] = expr_ref(st->pc[k]);
  }
  st->prune_node = node;
  p->stats->nodes++;
  return false;
}

void prune_forked(prune_ctx *p, state *parent, state *child) {
  if (!active(p)) return;
  child->prune_node = parent->prune_node;
  child->prune_validating = parent->prune_validating;
  child->prune_end = PRUNE_END_NONE;
  if (child->prune_node) ((prune_node *)child->prune_node)->open++;
  if (child->prune_validating) p->stats->validation_forks++;
}

void prune_answered(prune_ctx *p, state *st, expr *q, bool unsat) {
  if (!active(p)) return;
  uint64_t now = requests(p);
  if (now - p->seen != 1) taint(st); /* requests before this one that nobody reported */
  p->seen = now;
  if (unsat && !st->prune_validating) fact(p, st, q);
}

/* Whether st is at an alloca that is a private slot (prune/slots.h). */
static bool at_private_slot(prune_ctx *p, const state *st) {
  if (!st->nframes) return false;
  const state_frame *f = &st->frames[st->nframes - 1];
  if (!p->slots[f->func])
    p->slots[f->func] = prune_slots_compute(p->prog, &p->prog->funcs[f->func]);
  return prune_slot_is_private(p->slots[f->func], f->pc);
}

void prune_allocated(prune_ctx *p, state *st) {
  /* a new object's address differs from the one the same allocation had in the node's
   * subtree: expressions would no longer be the same below — unless the address can never
   * be observed (a private slot, such as __VERIFIER_nondet_X's local) */
  if (!active(p)) return;
  if (at_private_slot(p, st)) {
    p->stats->private_slots++;
    return;
  }
  taint(st);
}

void prune_dropped(prune_ctx *p, state *st) {
  if (active(p)) taint(st);
}

void prune_ended(prune_ctx *p, state *st, prune_end how, const char *kind, const char *where) {
  if (!p) return;
  if (how == PRUNE_END_ERROR && !p->stats->first_error[0])
    snprintf(p->stats->first_error, sizeof p->stats->first_error, "%s at %s", kind,
             where ? where : "?");
  if (how == PRUNE_END_ERROR && kind && strcmp(kind, "reach_error") == 0 &&
      !p->stats->first_reach[0])
    snprintf(p->stats->first_reach, sizeof p->stats->first_reach, "%s at %s", kind,
             where ? where : "?");
  if (!active(p)) return;
  account(p);
  st->prune_end = (uint8_t)how;
  if (how != PRUNE_END_NORMAL) taint(st);
  if (!st->prune_validating) return;
  p->stats->validation_paths++;
  if (how == PRUNE_END_ERROR && !p->stats->validation_failures++)
    snprintf(p->stats->validation_error, sizeof p->stats->validation_error,
             "unsound subsumption: a pruned subtree reaches %s at %s", kind, where ? where : "?");
}

void prune_gone(prune_ctx *p, state *st) {
  if (!active(p)) return;
  if (st->prune_end == PRUNE_END_NONE) taint(st); /* an end nobody reported: be safe */
  p->seen = requests(p); /* its test's model is no question its subtree relied on */
  if (p->running == st) p->running = NULL;
  prune_node *node = st->prune_node;
  st->prune_node = NULL;
  if (node) node_release(p, node);
}

/* ---- the verdict -------------------------------------------------------------------------- */

void prune_decide(prune_stats *s, const prune_run_facts *f) {
  const char *why = NULL;
  if (s->unreach_call && f->error_paths && !s->first_reach[0]) {
    /* another error ended a path: the property says nothing of it, and the path's rest was
     * not explored */
    s->verdict = PRUNE_VERDICT_UNKNOWN;
    snprintf(s->verdict_reason, sizeof s->verdict_reason,
             "a path ended in %.400s, not in reach_error",
             s->first_error[0] ? s->first_error : "an error");
    return;
  }
  if (s->unreach_call && f->error_paths) {
    s->verdict = PRUNE_VERDICT_FALSE;
    snprintf(s->verdict_reason, sizeof s->verdict_reason, "%.500s", s->first_reach);
    return;
  }
  if (f->error_paths) {
    s->verdict = PRUNE_VERDICT_FALSE;
    snprintf(s->verdict_reason, sizeof s->verdict_reason, "%s",
             s->first_error[0] ? s->first_error : "an error path");
    return;
  }
  if (f->output_failed) why = "an output file could not be written";
  else if (s->validation_failures)
    why = "unsound subsumption";
  else if (!f->exhausted)
    why = f->early_reason     ? f->early_reason
          : f->dropped_reason ? f->dropped_reason
                              : "the exploration was not complete";
  else if (f->concretized)
    why = "values were concretized";
  else if (f->capacity_bounded)
    why = "symbolic sizes were bounded by --capacity";
  else if (f->tests_lost)
    why = "tests were lost";
  s->verdict = why ? PRUNE_VERDICT_UNKNOWN : PRUNE_VERDICT_TRUE;
  snprintf(s->verdict_reason, sizeof s->verdict_reason, "%s",
           why ? why : "every path explored or subsumed");
}

const char *prune_verdict_text(const prune_stats *s, char *buf, size_t n) {
  const char *word = s->verdict == PRUNE_VERDICT_TRUE    ? "true"
                     : s->verdict == PRUNE_VERDICT_FALSE ? "false"
                                                         : "unknown";
  snprintf(buf, n, "%s (%s)", word, s->verdict_reason);
  return buf;
}

void prune_stats_json(json_writer *j, const prune_stats *s) {
  char text[600];
  json_key(j, "verdict");
  json_string(j, prune_verdict_text(s, text, sizeof text));
  json_key(j, "subsumed");
  json_uint(j, s->subsumed);
  json_key(j, "interpolation");
  json_object_begin(j);
  JSON_COUNTERS(
      j, {"nodes", s->nodes}, {"interpolants", s->interpolants},
      {"uninterpolable", s->uninterpolable}, {"subsumed", s->subsumed},
      {"subsumption_queries", s->subsumption_queries}, {"facts", s->facts},
      {"validation_forks", s->validation_forks}, {"validation_paths", s->validation_paths},
      {"validation_failures", s->validation_failures}, {"renamed", s->renamed},
      {"private_slots", s->private_slots}, {"compared", s->compared}, {"wp_steps", s->wp_steps},
      {"wp_passed", s->wp_passed}, {"wp_abduced", s->wp_abduced}, {"wp_fallbacks", s->wp_fallbacks},
      {"wp_queries", s->wp_queries});
  json_object_end(j);
}
