/* prune.c — nodes, facts, subsumption and the verdict (contract in prune.h). */
#include "prune/prune.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"
#include "prune/core.h"
#include "prune/data.h"
#include "prune/relevance.h"
#include "prune/rename.h"
#include "prune/slots.h"
#include "prune/table.h"
#include "prune/wp.h"

/* A node of the execution tree: a state at a symbolic branch that was not subsumed. */
typedef struct prune_node {
  struct prune_node *parent;
  size_t npc;     /* the node's path condition is every state's pc[0..npc) below it */
  uint32_t open;  /* states whose innermost node this is, plus unfinished child nodes */
  bool tainted;   /* no interpolant: an error, an early end, an allocation, an unheard request */
  bool partial;   /* part of its subtree continued in a merged state counted at an ancestor:
                     not stored, but what its subtree relied on still goes up */
  bool allocated; /* a state below it allocated an object (not a private slot): no covering */
  prune_snapshot snap;
  expr **need; /* pc conjuncts (index < npc, owned references) the subtree's questions needed */
  size_t *need_at;
  size_t nneed, cap_need;
  /* wp: the formulas at the node's point (owned references) and its path condition */
  expr **psi;
  size_t npsi, cap_psi;
  expr **pc; /* npc owned references */
  /* wp: the variables the node's data registers were given (prune/data.h), each defined by
   * the conjunct vars[k] = values[k], the last ndefs of its path condition (owned) */
  expr **vars, **values;
  size_t ndefs;
} prune_node;

/* --validate-interpolation's obligation: σ(Ψ) of the entry that subsumed a state, which
 * every path of its subtree must imply (its path condition implied it when it was subsumed):
 * a path that does not is one the interpolant excludes. Shared by the subtree's states. */
typedef struct prune_obligation {
  uint32_t refs;
  expr **psi; /* owned references */
  size_t n;
  bool covering; /* below a covered state (no interpolant: see covered) */
} prune_obligation;

static prune_obligation *obligation_ref(prune_obligation *o) {
  if (o) o->refs++;
  return o;
}

/* A covered state's obligation under validation: none to check, and an error below it is
 * not an unsound subsumption (it is reachable: covering only says a shorter run reaches
 * one too). */
static prune_obligation *covering_obligation(void) {
  prune_obligation *o = xcalloc(1, sizeof *o);
  o->refs = 1;
  o->covering = true;
  return o;
}

static void obligation_unref(prune_obligation *o) {
  if (!o || --o->refs) return;
  for (size_t k = 0; k < o->n; k++) expr_unref(o->psi[k]);
  free(o->psi);
  free(o);
}

/* A state merged away (a constituent of a merge), kept until the states the merge made are
 * known (prune_merged) and then settled (settle). */
typedef struct prune_pending {
  state *copy;      /* a fork of it: its path condition, registers and memory */
  prune_node *node; /* its innermost node, whose count it still holds */
  bool validating;
  prune_obligation *obligation; /* its reference */
} prune_pending;

struct prune_ctx {
  const ir_program *prog;
  const prune_options *opt;
  qsolver *solver;
  prune_stats *stats;
  prune_relevance **relevance; /* by function, computed on first use */
  prune_slots **slots;         /* by function, computed on first use */
  prune_data **data;           /* by function, computed on first use */
  bool merging;                /* prune_with_merging: no variables */
  hmap vars;                   /* array id + 1 of every variable made (rename.h) */
  uint64_t nvars;
  prune_table table;
  state *running;          /* the state whose requests the counter is counting, or NULL */
  uint64_t seen;           /* the solver's request counter when last accounted for */
  bool validation_reached; /* validation_error names an error a pruned subtree reached */
  bool fault;              /* SYMQ_PRUNE_FAULT=skip-implication: subsume (and cover) without
                              asking (tests only: it makes the pruning unsound) */
  /* the latest run of states merged away (one release's group) and what was made of it */
  prune_pending *pending;
  size_t npending, cap_pending;
  bool made;          /* a merged state resumed since the run's last constituent */
  bool rooted;        /* one of them began a tree of its own */
  prune_node *joined; /* the highest node one of them was counted at (made && !rooted) */
  bool restart;       /* merged states restart from snapshots (prune_merges_restart) */
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
  p->data = xcalloc(prog->nfuncs + 1, sizeof *p->data);
  hmap_reset(&p->vars, 64);
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
  for (size_t k = 0; k < n->ndefs; k++) expr_unref(n->vars[k]), expr_unref(n->values[k]);
  free(n->vars), free(n->values);
  prune_snapshot_free(&n->snap);
  free(n);
}

static void settle(prune_ctx *p);

void prune_free(prune_ctx *p) {
  if (!p) return;
  settle(p);
  free(p->pending);
  for (uint32_t f = 0; f < p->prog->nfuncs; f++) {
    prune_relevance_free(p->relevance[f]);
    prune_slots_free(p->slots[f]);
    prune_data_free(p->data[f]);
  }
  free(p->relevance), free(p->slots), free(p->data);
  hmap_free(&p->vars);
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

/* Whether nodes give their data registers variables (prune/data.h): wp without merging (a
 * merge compares its members' registers and path conditions, which variables would make
 * differ). */
static bool variables(const prune_ctx *p) { return wp(p) && !p->merging; }

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
  s->wp_quantified += ws.quantified;
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

/* wp: n's interpolant pushed back to parent: over n's definitions V = e first (an
 * assignment: BackProp substitutes e for V, 000 Fig. 6 rule (2b)), then over the conjuncts
 * between parent and n by abduction. A variable the substitution could not remove (a read
 * of it at a symbolic index, none in practice) leaves parent without an interpolant. */
static void up_over_defs(prune_ctx *p, prune_node *n, prune_node *parent) {
  if (!n->ndefs) {
    wp_up(p, parent, n->pc, n->npc, n->psi, n->npsi);
    return;
  }
  prune_rename r;
  prune_rename_begin(&r, NULL, NULL, 0);
  r.vars = &p->vars;
  for (size_t k = 0; k < n->ndefs; k++) prune_rename_bind(&r, n->vars[k], n->values[k]);
  expr **psi = xcalloc(n->npsi + 1, sizeof *psi);
  bool left = false;
  for (size_t k = 0; k < n->npsi; k++) {
    psi[k] = prune_rename_apply(&r, n->psi[k]);
    expr_array **arrays = NULL;
    size_t na = 0, cap = 0;
    expr_collect_arrays(psi[k], &arrays, &na, &cap);
    for (size_t a = 0; a < na; a++)
      for (size_t d = 0; d < n->ndefs; d++) left |= arrays[a] == n->vars[d]->u.read.array;
    free(arrays);
  }
  prune_rename_end(&r);
  if (left) taint_node(parent);
  else
    wp_up(p, parent, n->pc, n->npc - n->ndefs, psi, n->npsi);
  for (size_t k = 0; k < n->npsi; k++) expr_unref(psi[k]);
  free(psi);
}

/* Every state below n is gone: its interpolant joins the table, its needs go up. Returns
 * the parent (NULL at the root), which has one unfinished child less to wait for. */
static prune_node *node_finish(prune_ctx *p, prune_node *n) {
  prune_node *parent = n->parent;
  if (parent && !n->tainted && !wp(p))
    for (size_t k = 0; k < n->nneed; k++) need(parent, n->need_at[k], n->need[k]);
  if (parent && !n->tainted && wp(p)) up_over_defs(p, n, parent);
  if (!n->tainted && n->partial) {
    p->stats->partial++;
  } else if (!n->tainted) {
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
static bool relevant_reg(prune_ctx *p, const state *st, uint32_t frame, uint32_t reg) {
  const state_frame *f = &st->frames[frame];
  const prune_relevance *r = relevance_of(p, f->func);
  if (frame + 1 == st->nframes) return prune_relevant_before(r, f->pc, reg);
  const ir_inst *call = &p->prog->funcs[f->func].insts[f->pc];
  assert(f->pc + 1 < r->ninsts);
  return reg != call->dst && prune_relevant_before(r, f->pc + 1, reg);
}

enum { PRUNE_VAR_WIDTH_MAX = 64 }; /* widest register given a variable */

/* A relevant register counts as a variable where nodes give it one: a data register (of a
 * whole number of bytes) when variables are on; by its value otherwise. */
static prune_reg_kind reg_kind(void *ctx, const state *st, uint32_t frame, uint32_t reg) {
  prune_ctx *p = ctx;
  if (!relevant_reg(p, st, frame, reg)) return PRUNE_REG_IGNORED;
  const state_frame *f = &st->frames[frame];
  const expr *v = f->regs[reg];
  if (!variables(p) || !v || v->width % 8 || v->width > PRUNE_VAR_WIDTH_MAX) return PRUNE_REG_EXACT;
  if (!p->data[f->func]) p->data[f->func] = prune_data_compute(&p->prog->funcs[f->func]);
  return prune_is_data(p->data[f->func], reg) ? PRUNE_REG_VARIABLE : PRUNE_REG_EXACT;
}

/* Whether e is a variable (a whole read of one of the arrays give_variables made). */
static bool is_variable(const prune_ctx *p, const expr *e) {
  return e->kind == EXPR_READ && !e->u.read.updates && expr_is_const(e->kid[0]) &&
         e->kid[0]->u.value == 0 && e->width == 8 * e->u.read.array->capacity &&
         hmap_get(&p->vars, (uint64_t)e->u.read.array->id + 1, NULL);
}

/* A new node's data registers get variables: each value e is replaced by a fresh variable V
 * (a whole read of a new array, not an input) and V = e joins st's path condition. A
 * register that already holds a variable (an ancestor's, unchanged since) keeps it: the
 * node's interpolant speaks of it as of its own, and its definition is substituted where it
 * was made (a new one per node would only lengthen every query's chain of equalities). */
static void give_variables(prune_ctx *p, state *st, prune_node *node) {
  size_t cap = 0;
  for (uint32_t k = 0; k < st->nframes; k++) {
    state_frame *f = &st->frames[k];
    for (uint32_t r = 0; r < f->nregs; r++) {
      if (reg_kind(p, st, k, r) != PRUNE_REG_VARIABLE || is_variable(p, f->regs[r])) continue;
      expr *e = f->regs[r];
      char name[48];
      snprintf(name, sizeof name, "prune.v%" PRIu64, p->nvars++);
      unsigned bytes = e->width / 8;
      expr *size = expr_const(64, bytes), *zero = expr_const(64, 0);
      expr_array *a = expr_array_new(name, size, bytes, false, NULL);
      expr *v = expr_read_le(a, NULL, zero, bytes);
      expr_unref(size), expr_unref(zero);
      hmap_put(&p->vars, (uint64_t)a->id + 1, 1);
      expr_array_unref(a);
      expr *def = expr_eq(v, e);
      state_add_constraint(st, def);
      expr_unref(def);
      if (node->ndefs == cap) {
        cap = cap ? 2 * cap : 8;
        node->vars = xrealloc(node->vars, cap * sizeof *node->vars);
        node->values = xrealloc(node->values, cap * sizeof *node->values);
      }
      node->vars[node->ndefs] = v; /* its reference */
      node->values[node->ndefs++] = expr_ref(e);
      state_set_reg(f, r, v);
      p->stats->variables++;
    }
  }
}

/* ---- events ------------------------------------------------------------------------------- */

void prune_running(prune_ctx *p, state *st) {
  if (!active(p)) return;
  settle(p);
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
static bool implies(prune_ctx *p, state *st, const prune_entry *e, prune_rename *r,
                    prune_obligation **keep) {
  if (!e->ninterpolant) return true;
  expr **renamed = xcalloc(e->ninterpolant, sizeof *renamed);
  for (size_t k = 0; k < e->ninterpolant; k++)
    renamed[k] = prune_rename_apply(r, e->interpolant[k]);
  if (p->opt->validate) { /* kept whether or not it holds: validation checks it below */
    *keep = xcalloc(1, sizeof **keep);
    (*keep)->refs = 1;
    (*keep)->psi = xcalloc(e->ninterpolant, sizeof *(*keep)->psi);
    (*keep)->n = e->ninterpolant;
    for (size_t k = 0; k < e->ninterpolant; k++) (*keep)->psi[k] = expr_ref(renamed[k]);
  }
  if (p->fault) {
    for (size_t k = 0; k < e->ninterpolant; k++) expr_unref(renamed[k]);
    free(renamed);
    return true;
  }
  /* a conjunct of st's own path condition needs no question (a ∀ a merged state and the
   * node share, most often: a query about it would reach Z3) */
  hmap own = {0};
  hmap_reset(&own, 2 * st->npc + 16);
  for (size_t k = 0; k < st->npc; k++) hmap_put(&own, (uint64_t)(uintptr_t)st->pc[k], 1);
  expr **asked = xcalloc(e->ninterpolant, sizeof *asked);
  size_t nasked = 0;
  for (size_t k = 0; k < e->ninterpolant; k++)
    if (!hmap_get(&own, (uint64_t)(uintptr_t)renamed[k], NULL)) asked[nasked++] = renamed[k];
  hmap_free(&own);
  bool subsumed = true;
  if (nasked) {
    expr *all = conjunction(asked, nasked);
    bool must = false;
    qs_status status = qs_must_be_true(p->solver, st->pc, st->npc, all, &must);
    expr_unref(all);
    p->seen = requests(p); /* this module's own request */
    p->stats->subsumption_queries++;
    subsumed = status == QS_UNSAT && must;
  }
  free(asked);
  if (subsumed && !wp(p)) need_core(p, st, renamed, e->ninterpolant);
  if (subsumed && wp(p)) wp_up(p, st->prune_node, st->pc, st->npc, renamed, e->ninterpolant);
  for (size_t k = 0; k < e->ninterpolant; k++) expr_unref(renamed[k]);
  free(renamed);
  return subsumed;
}

/* Whether an entry at st's call stack subsumes st: its snapshot matches up to σ and st's pc
 * implies σ of its interpolant. */
static bool subsumes(prune_ctx *p, state *st, const prune_entry *e, prune_obligation **keep) {
  prune_rename r;
  prune_rename_begin(&r, st, e->snap.inputs, e->snap.ninputs);
  r.vars = &p->vars;
  bool yes = prune_snapshot_matches(&e->snap, st, &r) && implies(p, st, e, &r, keep);
  if (yes && r.npairs) p->stats->renamed++;
  if (!yes) obligation_unref(*keep), *keep = NULL;
  prune_rename_end(&r);
  return yes;
}

/* Covering by an ancestor (docs/interpolation.md "Loops: covering"): an ancestor node a at
 * st's point whose snapshot matches st up to σ (any input renamed, a's variables mapped to
 * st's values) and whose path condition, renamed, st's implies: then every concrete state
 * st stands for is one a stands for, reached by a shorter path, so any error below st is
 * reachable by a shorter run through a — whose subtree is being explored. Not past an
 * allocation (a later address would differ) nor with merging. Only the nearest
 * PRUNE_COVER_CANDIDATES ancestors with st's print are compared, and the solver asked about
 * PRUNE_COVER_QUERIES of them (under wp a counter's print is its width, so every round's
 * head has it; an ancestor whose variable's definition σ makes false needs no question). */
static uint64_t key_of(const expr_array *a) { return (uint64_t)(uintptr_t)a; }

static void add_arrays(hmap *m, expr *e) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(e, &arrays, &n, &cap);
  for (size_t k = 0; k < n; k++) hmap_put(m, key_of(arrays[k]), 1);
  free(arrays);
}

/* The arrays mem's bytes read, into *out; *ok false when an object too large to read byte
 * by byte is not all concrete. Returns true (it is known now). */
static bool arrays_in_memory(mem_space *mem, hmap *out, bool *ok) {
  hmap_reset(out, 64);
  *ok = true;
  for (size_t k = 0; k < mem_space_count(mem) && *ok; k++) {
    const mem_object *o = mem_space_object_at(mem, k);
    if (o->capacity > PRUNE_MEM_COMPARE_MAX) { /* a large object: only if all concrete */
      uint8_t *bytes = xcalloc(o->capacity, 1);
      *ok = mem_read_concrete(mem, o, 0, bytes, o->capacity);
      free(bytes);
      continue;
    }
    for (uint64_t b = 0; b < o->capacity && *ok; b++) {
      expr *at = expr_const(64, b);
      expr *x = mem_read(mem, o, at, 1);
      if (!expr_is_const(x)) add_arrays(out, x);
      expr_unref(x), expr_unref(at);
    }
  }
  return true;
}

/* The variable c defines (c is V = e, as give_variables makes it), or NULL. */
static expr *defined_variable(const prune_ctx *p, expr *c) {
  if (c->kind != EXPR_EQ) return NULL;
  if (is_variable(p, c->kid[0])) return c->kid[0];
  return is_variable(p, c->kid[1]) ? c->kid[1] : NULL;
}

/* the nearest ancestors with st's print compared, and of those asked the solver about */
enum { PRUNE_COVER_CANDIDATES = 64, PRUNE_COVER_QUERIES = 4 };

static bool covered(prune_ctx *p, state *st) {
  if (p->merging || !st->prune_node) return false;
  uint64_t key = prune_state_key(st, reg_kind, p);
  unsigned candidates = 0, queries = 0;
  for (prune_node *a = st->prune_node;
       a && !a->allocated && candidates < PRUNE_COVER_CANDIDATES && queries < PRUNE_COVER_QUERIES;
       a = a->parent) {
    if (a->snap.key != key || a->npc > st->npc) continue;
    candidates++;
    prune_rename r;
    prune_rename_begin(&r, st, a->snap.inputs, a->snap.ninputs);
    r.vars = &p->vars;
    r.ancestor = true;
    bool yes = prune_snapshot_matches(&a->snap, st, &r);
    hmap own = {0};
    hmap_reset(&own, 2 * st->npc + 16);
    for (size_t k = 0; k < st->npc; k++) hmap_put(&own, (uint64_t)(uintptr_t)st->pc[k], 1);
    expr *all = expr_true();
    expr **images = xcalloc(a->npc + 1, sizeof *images); /* what unseen variables map to */
    size_t nimages = 0;
    hmap seen = {0}, in_mem = {0}; /* arrays of the conjuncts so far; of a's memory */
    hmap_reset(&seen, 64);
    bool mem_known = false, mem_ok = false;
    for (size_t k = 0; k < a->npc && yes; k++) {
      expr *v = defined_variable(p, st->pc[k]);
      expr *value = !v ? NULL : st->pc[k]->kid[0] == v ? st->pc[k]->kid[1] : st->pc[k]->kid[0];
      if (v && !prune_rename_binds(&r, v)) {
        /* a variable a's snapshot does not hold: σ may map it to anything, so to its
         * definition's image, which makes the definition hold */
        images[nimages] = prune_rename_apply(&r, value);
        prune_rename_bind(&r, v, images[nimages++]);
      } else if (v && value->kind == EXPR_READ &&
                 !hmap_get(&seen, key_of(value->u.read.array), NULL) &&
                 (mem_known || (mem_known = arrays_in_memory(a->snap.mem, &in_mem, &mem_ok))) &&
                 mem_ok && !hmap_get(&in_mem, key_of(value->u.read.array), NULL)) {
        /* V = X, X an input nothing mapped yet, in no conjunct before and not in memory (a
         * nondet value the snapshot holds only as V): σ may map X to σ(V), which makes the
         * definition hold */
        images[nimages] = prune_rename_apply(&r, v);
        if (!prune_rename_bind_input(&r, value, images[nimages++])) expr_unref(images[--nimages]);
      }
      add_arrays(&seen, st->pc[k]);
      expr *c = prune_rename_apply(&r, st->pc[k]); /* a's pc is st's prefix */
      yes = !expr_is_false(c) && !prune_rename_moves(&r, c);

      if (yes && !hmap_get(&own, (uint64_t)(uintptr_t)c, NULL)) {
        expr *next = expr_and(all, c);
        expr_unref(all);
        all = next;
      }
      expr_unref(c);
    }
    hmap_free(&own);
    if (yes && !expr_is_true(all) && !p->fault) {
      bool must = false;
      qs_status status = qs_must_be_true(p->solver, st->pc, st->npc, all, &must);
      p->seen = requests(p); /* this module's own request */
      p->stats->subsumption_queries++;
      queries++;
      yes = status == QS_UNSAT && must;
    }
    expr_unref(all);
    prune_rename_end(&r);
    for (size_t k = 0; k < nimages; k++) expr_unref(images[k]);
    free(images);
    hmap_free(&seen), hmap_free(&in_mem);
    if (yes) return true;
  }
  return false;
}

bool prune_at_branch(prune_ctx *p, state *st) {
  if (!active(p)) return false;
  settle(p);
  if (st->prune_validating) return false;
  account(p);
  size_t n;
  prune_entry *const *entries = prune_table_at(&p->table, st, reg_kind, p, &n);
  bool subsumed = false;
  prune_obligation *obligation = NULL;
  for (size_t k = 0; k < n && !subsumed; k++, p->stats->compared++)
    subsumed = subsumes(p, st, entries[k], &obligation);
  bool cover = !subsumed && covered(p, st);
  if (cover) {
    /* its ancestors' subtrees now rely on a's: none of them gets an interpolant */
    taint(st);
    p->stats->covered++;
    if (p->opt->validate) obligation = covering_obligation();
  }
  if (subsumed || cover) {
    p->stats->subsumed += subsumed;
    prune_node *node = st->prune_node;
    st->prune_node = NULL;
    if (node) node_release(p, node);
    if (!p->opt->validate) {
      st->prune_end = PRUNE_END_SUBSUMED;
      return true;
    }
    st->prune_validating = true; /* explored anyway, outside the tree */
    st->prune_obligation = obligation;
    return false;
  }
  prune_node *node = xcalloc(1, sizeof *node);
  node->parent = st->prune_node; /* its count keeps st's place: node replaces st there */
  node->open = 1;
  if (variables(p)) give_variables(p, st, node);
  node->npc = st->npc;
  prune_snapshot_take(&node->snap, st, reg_kind, p);
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
  settle(p);
  child->prune_node = parent->prune_node;
  child->prune_validating = parent->prune_validating;
  child->prune_obligation = obligation_ref(parent->prune_obligation);
  child->prune_end = PRUNE_END_NONE;
  if (child->prune_node) ((prune_node *)child->prune_node)->open++;
  if (child->prune_validating) p->stats->validation_forks++;
}

void prune_answered(prune_ctx *p, state *st, expr *q, bool unsat) {
  if (!active(p)) return;
  settle(p);
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
  settle(p);
  if (at_private_slot(p, st)) {
    p->stats->private_slots++;
    return;
  }
  taint(st);
  for (prune_node *n = st->prune_node; n && !n->allocated; n = n->parent) n->allocated = true;
}

void prune_dropped(prune_ctx *p, state *st) {
  if (!active(p)) return;
  settle(p);
  taint(st);
}

/* A validated path that ended normally: its path condition must imply the obligation (one
 * query; unknown is no failure). */
static void check_obligation(prune_ctx *p, state *st) {
  const prune_obligation *o = st->prune_obligation;
  if (!o || !o->n) return;
  expr *all = conjunction(o->psi, o->n);
  bool must = true;
  qs_status status = qs_must_be_true(p->solver, st->pc, st->npc, all, &must);
  expr_unref(all);
  p->seen = requests(p); /* this module's own request */
  p->stats->validation_checks++;
  if (status == QS_UNKNOWN || must || p->stats->validation_failures++) return;
  const char *file = "?";
  uint32_t line = 0;
  if (st->nframes) {
    const state_frame *f = &st->frames[st->nframes - 1];
    const ir_function *fn = &p->prog->funcs[f->func];
    file = fn->file ? fn->file : "?";
    line = fn->insts[f->pc].line;
  }
  snprintf(p->stats->validation_error, sizeof p->stats->validation_error,
           "unsound subsumption: a pruned subtree has a path its interpolant excludes, ending "
           "at %s:%" PRIu32,
           file, line);
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
  settle(p);
  account(p);
  st->prune_end = (uint8_t)how;
  if (how != PRUNE_END_NORMAL) taint(st);
  if (!st->prune_validating) return;
  p->stats->validation_paths++;
  const prune_obligation *o = st->prune_obligation;
  if (o && o->covering) return;
  /* the first error a pruned subtree reaches is the message, before any excluded path */
  if (how == PRUNE_END_ERROR && !p->validation_reached) {
    p->validation_reached = true;
    p->stats->validation_failures++;
    snprintf(p->stats->validation_error, sizeof p->stats->validation_error,
             "unsound subsumption: a pruned subtree reaches %s at %s", kind, where ? where : "?");
  } else if (how == PRUNE_END_ERROR) {
    p->stats->validation_failures++;
  }
  if (how == PRUNE_END_NORMAL) check_obligation(p, st);
}

void prune_gone(prune_ctx *p, state *st) {
  if (!active(p)) return;
  settle(p);
  if (st->prune_end == PRUNE_END_NONE) taint(st); /* an end nobody reported: be safe */
  p->seen = requests(p); /* its test's model is no question its subtree relied on */
  if (p->running == st) p->running = NULL;
  obligation_unref(st->prune_obligation);
  st->prune_obligation = NULL;
  prune_node *node = st->prune_node;
  st->prune_node = NULL;
  if (node) node_release(p, node);
}

/* ---- merging ------------------------------------------------------------------------------

   A merge region's members that join a merge are merged away (prune_merged_away) and the
   merged states resume (prune_merged), all within one release and before any other event.
   A merged state m stands for its constituents' paths: their nodes' subtrees go on in m.
   So m is counted at a node J that is an ancestor of every constituent (the lowest common
   one, raised until m's path condition begins with J's: a merge keeps the conjuncts before
   its region's entry and replaces the rest), and the nodes strictly between a constituent
   and J are *partial*: not stored (their subtree's rest is m's, counted at J), but what
   their subtree relied on still goes up to J. Why J's interpolant then covers m's paths:
   docs/interpolation.md ("With merging"); in short, an input that satisfies J's
   interpolant and follows a constituent's path c through the region satisfies m's path
   condition and gets m's values — by the merge's correctness (Theorem 3.8: pc_J ∧ T_c ⊨
   S_m ∧ values(m) = values(c)), *given* the conjuncts of pc_J that correctness needs. Those
   are taken as a fact of J's subtree: the conjuncts of pc_J connected through shared cells
   to T_c, S_m and the values where m and c differ (prune/core.h's argument), which go into
   J's interpolant. When that cannot be computed (a constituent without a node, frames or
   objects that differ, an object too large to compare, a validating constituent, or under
   --incremental-merge, whose merged states restart from snapshots and redo paths), m begins
   a tree of its own and every constituent's ancestors get no interpolant (tainted). A
   release group's constituents are known only as the run of prune_merged_away before its
   prune_merged calls, so each merged state of a group is counted above all of them (sound:
   a higher J only makes more nodes partial). */

static void pending_free(prune_ctx *p) {
  for (size_t k = 0; k < p->npending; k++) {
    state_free(p->pending[k].copy);
    obligation_unref(p->pending[k].obligation);
  }
  p->npending = 0;
  p->made = p->rooted = false;
  p->joined = NULL;
}

/* Whether a is b or an ancestor of b. */
static bool at_or_above(const prune_node *a, const prune_node *b) {
  for (; b; b = b->parent)
    if (a == b) return true;
  return false;
}

/* The run is over: each constituent's nodes below the node its merged state was counted at
 * become partial (or all of them tainted when none was, or one began its own tree), and its
 * count goes. */
static void settle(prune_ctx *p) {
  if (!p->npending && !p->made) return;
  for (size_t k = 0; k < p->npending; k++) {
    prune_node *n = p->pending[k].node;
    if (!n) continue;
    if (!p->made || p->rooted || !at_or_above(p->joined, n)) taint_node(n);
    else
      for (prune_node *a = n; a != p->joined; a = a->parent) a->partial = true;
  }
  for (size_t k = 0; k < p->npending; k++) {
    prune_node *n = p->pending[k].node;
    p->pending[k].node = NULL;
    if (n) node_release(p, n);
  }
  pending_free(p);
}

void prune_merged_away(prune_ctx *p, state *st) {
  if (!active(p)) return;
  if (p->made) settle(p); /* a new release group */
  account(p);
  if (p->running == st) p->running = NULL;
  if (p->npending == p->cap_pending) {
    p->cap_pending = p->cap_pending ? 2 * p->cap_pending : 16;
    p->pending = xrealloc(p->pending, p->cap_pending * sizeof *p->pending);
  }
  p->pending[p->npending++] = (prune_pending){state_fork(st, 0), st->prune_node,
                                              st->prune_validating, st->prune_obligation};
  st->prune_node = NULL; /* the pending entry holds its count and its obligation now */
  st->prune_obligation = NULL;
}

/* The length of the common prefix of a's and b's path conditions. */
static size_t common_prefix(const state *a, const state *b) {
  size_t k = 0;
  while (k < a->npc && k < b->npc && a->pc[k] == b->pc[k]) k++;
  return k;
}

static void add_value(expr ***out, size_t *n, size_t *cap, expr *e) {
  if (!e) return;
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 32;
    *out = xrealloc(*out, *cap * sizeof **out);
  }
  (*out)[(*n)++] = expr_ref(e);
}

/* What the merge's correctness for c is about, beyond J (npc conjuncts): c's and m's
 * conjuncts from there, and every register and memory byte where m and c differ. False when
 * c's frames or objects are not m's, or an object differing is too large to compare. */
static bool merge_question(state *m, state *c, size_t npc, expr ***out, size_t *n, size_t *cap) {
  for (size_t k = npc; k < c->npc; k++) add_value(out, n, cap, c->pc[k]);
  if (c->nframes != m->nframes || !mem_same_objects(c->mem, m->mem)) return false;
  for (uint32_t f = 0; f < m->nframes; f++) {
    const state_frame *fm = &m->frames[f], *fc = &c->frames[f];
    if (fm->func != fc->func || fm->nregs != fc->nregs) return false;
    for (uint32_t r = 0; r < fm->nregs; r++)
      if (fm->regs[r] != fc->regs[r]) {
        add_value(out, n, cap, fm->regs[r]);
        add_value(out, n, cap, fc->regs[r]);
      }
  }
  for (size_t k = 0; k < mem_space_count(m->mem); k++) {
    const mem_object *o = mem_space_object_at(m->mem, k);
    if (mem_shares_contents(m->mem, c->mem, o)) continue;
    if (o->capacity > PRUNE_MEM_COMPARE_MAX) return false;
    for (uint64_t b = 0; b < o->capacity; b++) {
      expr *at = expr_const(64, b);
      expr *x = mem_read(m->mem, o, at, 1), *y = mem_read(c->mem, o, at, 1);
      if (x != y) add_value(out, n, cap, x), add_value(out, n, cap, y);
      expr_unref(x), expr_unref(y), expr_unref(at);
    }
  }
  return true;
}

/* The node m is counted at (see above), its interpolant given what the merge's correctness
 * needs of its path condition; NULL when m begins a tree of its own. */
static prune_node *merge_join(prune_ctx *p, state *m) {
  prune_node *j = p->pending[0].node;
  for (size_t k = 0; k < p->npending && j; k++) {
    if (p->pending[k].validating || !p->pending[k].node) return NULL;
    while (j && !at_or_above(j, p->pending[k].node)) j = j->parent;
  }
  size_t prefix = m->npc;
  for (size_t k = 0; k < p->npending; k++) {
    size_t c = common_prefix(m, p->pending[k].copy);
    if (c < prefix) prefix = c;
  }
  while (j && j->npc > prefix) j = j->parent;
  if (!j) return NULL;
  expr **question = NULL;
  size_t nquestion = 0, cap = 0;
  bool ok = true;
  for (size_t k = j->npc; k < m->npc; k++) add_value(&question, &nquestion, &cap, m->pc[k]);
  for (size_t k = 0; k < p->npending && ok; k++)
    ok = merge_question(m, p->pending[k].copy, j->npc, &question, &nquestion, &cap);
  if (ok && !j->tainted) {
    size_t *core = xcalloc(j->npc + 1, sizeof *core);
    size_t count = prune_core_slice(m->pc, j->npc, question, nquestion, core);
    for (size_t k = 0; k < count; k++) {
      if (wp(p)) psi_add(j, m->pc[core[k]]);
      else
        need(j, core[k], m->pc[core[k]]);
    }
    p->stats->merge_conjuncts += count;
    free(core);
  }
  for (size_t k = 0; k < nquestion; k++) expr_unref(question[k]);
  free(question);
  return ok ? j : NULL;
}

void prune_merged(prune_ctx *p, state *m) {
  if (!active(p)) return;
  account(p);
  /* its fields were copied from a constituent or a snapshot by the merge: not its own */
  m->prune_node = NULL;
  m->prune_end = PRUNE_END_NONE;
  m->prune_validating = false;
  for (size_t k = 0; k < p->npending; k++) m->prune_validating |= p->pending[k].validating;
  /* validated paths merged: an obligation all of them share is the merged state's */
  m->prune_obligation = NULL;
  bool same = p->npending > 0;
  for (size_t k = 1; k < p->npending && same; k++)
    same = p->pending[k].obligation == p->pending[0].obligation;
  if (same) m->prune_obligation = obligation_ref(p->pending[0].obligation);
  prune_node *j = p->npending && !p->restart ? merge_join(p, m) : NULL;
  p->made = true;
  if (!j) {
    p->rooted = true;
    p->stats->merged_roots++;
    return;
  }
  m->prune_node = j;
  j->open++;
  if (!p->joined || at_or_above(j, p->joined)) p->joined = j;
  p->stats->merged_joined++;
}

void prune_merges_restart(prune_ctx *p) { p->restart = true; }

void prune_with_merging(prune_ctx *p) { p->merging = true; }

void prune_merge_requests(prune_ctx *p) {
  if (active(p)) p->seen = requests(p);
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
      {"validation_failures", s->validation_failures}, {"validation_checks", s->validation_checks},
      {"renamed", s->renamed}, {"private_slots", s->private_slots}, {"compared", s->compared},
      {"wp_steps", s->wp_steps}, {"wp_passed", s->wp_passed}, {"wp_abduced", s->wp_abduced},
      {"wp_fallbacks", s->wp_fallbacks}, {"wp_queries", s->wp_queries},
      {"merged_joined", s->merged_joined}, {"merged_roots", s->merged_roots},
      {"wp_quantified", s->wp_quantified}, {"partial", s->partial},
      {"merge_conjuncts", s->merge_conjuncts}, {"variables", s->variables},
      {"covered", s->covered});
  json_object_end(j);
}
