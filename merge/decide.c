/* decide.c — the cost estimate of a PAT merge and the decision record (contract in decide.h). */
#include "merge/decide.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/memory.h"
#include "engine/core/xalloc.h"
#include "merge/liveness.h"

/* What is reachable from one exit position, computed once per (function, instruction). */
typedef struct exit_info {
  uint32_t func, inst;
  uint8_t *reach;       /* per instruction of the function: reachable from inst */
  uint8_t *reach_block; /* per block: its terminator (and edges) reachable */
  uint32_t sites;       /* Q_t */
} exit_info;

/* How many callers of the exit's frame the estimate looks into (after their calls return). */
enum { MERGE_DECIDE_CALLERS = 8 };

struct merge_decide_cache {
  exit_info *exits;
  size_t nexits, cap;
  uint32_t **defs; /* per function, when first needed: per register, its instruction */
};

static void set_bit(uint64_t *s, uint32_t reg) { s[reg / 64] |= UINT64_C(1) << (reg % 64); }
static bool has_bit(const uint64_t *s, uint32_t reg) { return (s[reg / 64] >> (reg % 64)) & 1; }

static uint32_t block_edges(const ir_function *fn, const ir_inst *t, uint32_t k) {
  if (t->op == IR_BR) return k == 0 ? t->u.br.edge[0] : IR_NONE;
  if (t->op == IR_CONDBR) return k < 2 ? t->u.br.edge[k] : IR_NONE;
  if (t->op == IR_SWITCH) {
    if (k < t->u.sw.ngroups) return fn->groups[t->u.sw.groups + k].edge;
    return k == t->u.sw.ngroups ? t->u.sw.dflt : IR_NONE;
  }
  return IR_NONE;
}

/* The operands of a query site: a branch's condition, a memory access's address (and a
 * memory intrinsic's length); sets out[k] to operand indices, returns how many (0: no site). */
static uint32_t site_operands(const ir_inst *in, uint32_t out[3]) {
  switch (in->op) {
  case IR_CONDBR:
  case IR_SWITCH:
  case IR_LOAD: out[0] = 0; return 1;
  case IR_STORE: out[0] = 1; return 1;
  case IR_MEMCPY:
  case IR_MEMMOVE: out[0] = 0, out[1] = 1, out[2] = 2; return 3;
  case IR_MEMSET: out[0] = 0, out[1] = 2; return 2;
  default: return 0;
  }
}

static bool is_site(const ir_function *fn, const ir_inst *in) {
  uint32_t ops[3], n = site_operands(in, ops);
  for (uint32_t k = 0; k < n; k++)
    if (ops[k] < in->nops && fn->operands[in->ops + ops[k]].kind == IR_OPND_REG) return true;
  return false;
}

static exit_info *exit_of(merge_ctx *m, uint32_t func, uint32_t inst) {
  if (!m->decide) m->decide = xcalloc(1, sizeof *m->decide);
  struct merge_decide_cache *c = m->decide;
  for (size_t k = 0; k < c->nexits; k++)
    if (c->exits[k].func == func && c->exits[k].inst == inst) return &c->exits[k];
  if (c->nexits == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->exits = xrealloc(c->exits, c->cap * sizeof *c->exits);
  }
  const ir_function *fn = &m->prog->funcs[func];
  exit_info *e = &c->exits[c->nexits++];
  *e = (exit_info){func, inst, xcalloc(fn->ninsts + 1, 1), xcalloc(fn->nblocks + 1, 1), 0};
  uint32_t *work = xmalloc((fn->nblocks + 1) * sizeof *work), nwork = 0;
  uint8_t *whole = xcalloc(fn->nblocks + 1, 1); /* blocks reached by an edge: every inst */
  uint32_t start = merge_block_of(fn, inst);
  for (uint32_t i = inst; i < fn->blocks[start].first + fn->blocks[start].count; i++)
    e->reach[i] = 1;
  e->reach_block[start] = 1;
  work[nwork++] = start;
  while (nwork) {
    uint32_t b = work[--nwork];
    const ir_inst *t = &fn->insts[fn->blocks[b].first + fn->blocks[b].count - 1];
    for (uint32_t k = 0;; k++) {
      uint32_t edge = block_edges(fn, t, k);
      if (edge == IR_NONE) break;
      uint32_t to = fn->edges[edge].target;
      if (whole[to]) continue;
      whole[to] = e->reach_block[to] = 1;
      for (uint32_t i = 0; i < fn->blocks[to].count; i++) e->reach[fn->blocks[to].first + i] = 1;
      work[nwork++] = to;
    }
  }
  free(work);
  free(whole);
  for (uint32_t i = 0; i < fn->ninsts; i++) e->sites += e->reach[i] && is_site(fn, &fn->insts[i]);
  return e;
}

/* Per register of func, the instruction defining it (IR_NONE: an argument or a phi). */
static const uint32_t *defs_of(merge_ctx *m, uint32_t func) {
  if (!m->decide) m->decide = xcalloc(1, sizeof *m->decide);
  struct merge_decide_cache *c = m->decide;
  if (!c->defs) c->defs = xcalloc(m->prog->nfuncs + 1, sizeof *c->defs);
  if (!c->defs[func]) {
    const ir_function *fn = &m->prog->funcs[func];
    uint32_t *d = xmalloc((fn->nregs + 1) * sizeof *d);
    for (uint32_t r = 0; r <= fn->nregs; r++) d[r] = IR_NONE;
    for (uint32_t i = 0; i < fn->ninsts; i++)
      if (fn->insts[i].dst != IR_NONE && fn->insts[i].dst < fn->nregs) d[fn->insts[i].dst] = i;
    c->defs[func] = d;
  }
  return c->defs[func];
}

static const merge_liveness *liveness_of(merge_ctx *m, uint32_t func) {
  if (!m->liveness) m->liveness = xcalloc(m->prog->nfuncs + 1, sizeof *m->liveness);
  if (!m->liveness[func]) m->liveness[func] = merge_liveness_compute(&m->prog->funcs[func]);
  return m->liveness[func];
}

/* Forward data flow from the tainted registers (and the results of the loads and calls
 * flagged in hot_reads, NULL: none) over e's reachable code to a fixpoint; returns the query
 * sites reading a tainted value, and sets *returns_tainted when a return does. */
static uint32_t tainted_sites(const ir_function *fn, const exit_info *e, uint64_t *taint,
                              const uint8_t *hot_reads, bool *returns_tainted) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->dst == IR_NONE || has_bit(taint, in->dst)) continue;
      bool t = hot_reads && hot_reads[i];
      for (uint32_t k = 0; k < in->nops && !t; k++) {
        const ir_operand *o = &fn->operands[in->ops + k];
        t = o->kind == IR_OPND_REG && has_bit(taint, o->index);
      }
      if (t) set_bit(taint, in->dst), changed = true;
    }
    for (uint32_t b = 0; b < fn->nblocks; b++) {
      if (!e->reach_block[b]) continue;
      const ir_inst *term = &fn->insts[fn->blocks[b].first + fn->blocks[b].count - 1];
      for (uint32_t k = 0;; k++) {
        uint32_t edge = block_edges(fn, term, k);
        if (edge == IR_NONE) break;
        const ir_edge *ed = &fn->edges[edge];
        for (uint32_t mv = 0; mv < ed->nmoves; mv++) {
          const ir_move *move = &fn->moves[ed->moves + mv];
          if (move->src.kind == IR_OPND_REG && has_bit(taint, move->src.index) &&
              !has_bit(taint, move->dst))
            set_bit(taint, move->dst), changed = true;
        }
      }
    }
  }
  uint32_t hot = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    if (!e->reach[i]) continue;
    const ir_inst *in = &fn->insts[i];
    if (in->op == IR_RET && in->nops) {
      const ir_operand *o = &fn->operands[in->ops];
      *returns_tainted |= o->kind == IR_OPND_REG && has_bit(taint, o->index);
    }
    uint32_t ops[3], n = site_operands(in, ops);
    bool h = false;
    for (uint32_t k = 0; k < n && !h; k++) {
      const ir_operand *o = &fn->operands[in->ops + ops[k]];
      h = ops[k] < in->nops && o->kind == IR_OPND_REG && has_bit(taint, o->index);
    }
    hot += h;
  }
  return hot;
}

/* A small set of memory objects (the ones a merge makes costly to read). */
typedef struct obj_set {
  const mem_object **items;
  size_t n;
  bool any; /* every object (what is costly could not be told) */
} obj_set;

static void obj_add(obj_set *s, const mem_object *o) {
  for (size_t k = 0; k < s->n; k++)
    if (s->items[k] == o) return;
  s->items = xrealloc(s->items, (s->n + 1) * sizeof *s->items);
  s->items[s->n++] = o;
}

static bool obj_has(const obj_set *s, const mem_object *o) {
  if (s->any) return true;
  for (size_t k = 0; k < s->n; k++)
    if (s->items[k] == o) return true;
  return false;
}

/* The writable objects holding a byte that differs across the group with a merged value
 * that is not cheap. */
static void memory_costly(merge_ctx *m, state *const *group, size_t n, merge_cheap_fn cheap,
                          void *arg, obj_set *out) {
  expr **vals = xmalloc(n * sizeof *vals);
  const mem_space *mem = group[0]->mem;
  for (size_t i = 0; i < mem_space_count(mem); i++) {
    const mem_object *o = mem_space_object_at(mem, i);
    bool shared = true;
    for (size_t j = 1; j < n && shared; j++)
      shared = mem_shares_contents(group[0]->mem, group[j]->mem, o);
    if (shared || o->read_only) continue;
    bool costly = false;
    for (uint64_t b = 0; b < o->capacity && !costly; b++) {
      expr *at = merge_tmp(m, expr_const(64, b));
      bool same = true;
      for (size_t j = 0; j < n; j++) {
        vals[j] = merge_tmp(m, mem_read(group[j]->mem, o, at, 1));
        same &= vals[j] == vals[0];
      }
      costly = !same && !(cheap && cheap(m, vals, n, arg));
    }
    if (costly) obj_add(out, o);
  }
  free(vals);
}

/* The arrays e reads, walking at most *budget nodes (shared ones again: no memo, hence the
 * budget); false when it is exceeded (then any array may be read). */
static bool arrays_read(const expr *e, const expr_array ***arrays, size_t *n, uint32_t *budget) {
  if (!e) return true;
  if (*budget == 0) return false;
  (*budget)--;
  if (e->kind == EXPR_READ) {
    bool known = false;
    for (size_t k = 0; k < *n && !known; k++) known = (*arrays)[k] == e->u.read.array;
    if (!known) {
      *arrays = xrealloc(*arrays, (*n + 1) * sizeof **arrays);
      (*arrays)[(*n)++] = e->u.read.array;
    }
  }
  for (uint8_t k = 0; k < e->nkids; k++)
    if (!arrays_read(e->kid[k], arrays, n, budget)) return false;
  return true;
}

/* The objects bound to the symbolic arrays the ∀ body reads (any, when they cannot be told). */
static void forall_objects(const state *st, const expr *body, obj_set *out) {
  const expr_array **arrays = NULL;
  size_t n = 0;
  uint32_t budget = 4096;
  if (!arrays_read(body, &arrays, &n, &budget)) out->any = true;
  for (size_t k = 0; k < st->nsymbolics; k++)
    for (size_t a = 0; a < n; a++)
      if (st->symbolics[k].array == arrays[a]) obj_add(out, st->symbolics[k].object);
  free(arrays);
}

/* The object a pointer operand points into, read off the state where the pointer (or the
 * base it is computed from by GEPs and moves) is known at the frame's position: a constant
 * operand, a global, or a register live there holding a constant address. NULL: unknown. */
static const mem_object *pointee(const ir_program *prog, const ir_function *fn, const uint32_t *def,
                                 const merge_liveness *live, uint32_t pc, const state *st,
                                 const state_frame *f, const ir_operand *o, int depth) {
  if (o->kind == IR_OPND_GLOBAL) {
    const char *name = o->index < prog->nglobals ? prog->globals[o->index].name : NULL;
    const mem_space *mem = st->mem;
    for (size_t i = 0; name && i < mem_space_count(mem); i++) {
      const mem_object *g = mem_space_object_at(mem, i);
      if (g->kind == MEM_GLOBAL && g->name && strcmp(g->name, name) == 0) return g;
    }
    return NULL;
  }
  if (o->kind == IR_OPND_CONST) return NULL;
  if (o->kind != IR_OPND_REG || depth > 16) return NULL;
  uint32_t reg = o->index;
  if (reg < f->nregs && f->regs[reg] && merge_live_before(live, pc, reg) &&
      expr_is_const(f->regs[reg]))
    return mem_space_find(st->mem, (uint64_t)f->regs[reg]->u.value);
  uint32_t d = def[reg];
  if (d == IR_NONE) return NULL;
  const ir_inst *in = &fn->insts[d];
  if ((in->op != IR_GEP && in->op != IR_MOVE) || !in->nops) return NULL;
  return pointee(prog, fn, def, live, pc, st, f, &fn->operands[in->ops], depth + 1);
}

/* Per reachable load of frame f from pc: does it read a hot object (one whose object is
 * unknown does)? NULL when no object is hot. Calls are not looked into: what a callee reads
 * is its own loops' business (their regions decide for themselves). */
static uint8_t *hot_reads(merge_ctx *m, const exit_info *e, const state *st, const state_frame *f,
                          uint32_t pc, const obj_set *hot) {
  if (!hot->any && !hot->n) return NULL;
  const ir_function *fn = &m->prog->funcs[f->func];
  const uint32_t *def = defs_of(m, f->func);
  const merge_liveness *live = liveness_of(m, f->func);
  uint8_t *flags = xcalloc(fn->ninsts + 1, 1);
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i]) continue;
    if (in->op != IR_LOAD || !in->nops) continue;
    const mem_object *o = pointee(m->prog, fn, def, live, pc, st, f, &fn->operands[in->ops], 0);
    flags[i] = !o || obj_has(hot, o);
  }
  return flags;
}

/* The frame at `depth` of the group, from its position (the exit, or just after the call
 * that made the frame above) on: adds its query sites and those reading what the merge makes
 * costly to est; *returned (in: the callee returns a costly value, out: this frame does) —
 * a costly return value taints the call's result. */
static void estimate_frame(merge_ctx *m, state *const *group, size_t n, uint32_t depth,
                           const obj_set *mem_hot, const obj_set *all_hot, merge_cheap_fn cheap,
                           void *arg, merge_estimate *est, bool *returned) {
  const state_frame *f = &group[0]->frames[depth];
  const ir_function *fn = &m->prog->funcs[f->func];
  bool top = depth + 1 == group[0]->nframes;
  uint32_t pc = top ? f->pc : f->pc + 1;
  if (pc >= fn->ninsts) return;
  const exit_info *e = exit_of(m, f->func, pc);
  const merge_liveness *live = liveness_of(m, f->func);
  size_t words = (fn->nregs + 63) / 64 + 1;
  uint64_t *taint = xcalloc(words, sizeof *taint), *taint2 = xcalloc(words, sizeof *taint2);
  if (!top && *returned && fn->insts[f->pc].dst != IR_NONE) set_bit(taint, fn->insts[f->pc].dst);
  expr **vals = xmalloc(n * sizeof *vals);
  for (uint32_t reg = 0; reg < f->nregs && reg < fn->nregs; reg++) {
    bool same = true, missing = false;
    for (size_t j = 0; j < n; j++) {
      vals[j] = group[j]->frames[depth].regs[reg];
      same &= vals[j] == vals[0];
      missing |= !vals[j];
    }
    if (same || missing || !merge_live_before(live, pc, reg)) continue;
    if (cheap && cheap(m, vals, n, arg)) continue;
    set_bit(taint, reg);
    est->costly_regs++;
  }
  free(vals);
  memcpy(taint2, taint, words * sizeof *taint);
  bool ret_values = false, ret_all = false;
  uint8_t *reads = hot_reads(m, e, group[0], f, pc, mem_hot);
  est->value_sites += tainted_sites(fn, e, taint, reads, &ret_values);
  free(reads);
  reads = hot_reads(m, e, group[0], f, pc, all_hot);
  est->hot_sites += tainted_sites(fn, e, taint2, reads, &ret_all);
  free(reads);
  free(taint);
  free(taint2);
  est->sites += e->sites;
  *returned = ret_all;
}

const char *merge_decide(merge_ctx *m, state *const *group, size_t n, const expr *forall_body,
                         merge_cheap_fn cheap, void *arg, merge_estimate *est) {
  merge_estimate local;
  if (!est) est = &local;
  *est = (merge_estimate){0};
  obj_set mem_hot = {0}, all_hot = {0};
  memory_costly(m, group, n, cheap, arg, &mem_hot);
  est->memory = mem_hot.n > 0;
  for (size_t k = 0; k < mem_hot.n; k++) obj_add(&all_hot, mem_hot.items[k]);
  if (forall_body) forall_objects(group[0], forall_body, &all_hot);
  bool returned = false;
  uint32_t depth = group[0]->nframes;
  for (uint32_t k = 0; k <= MERGE_DECIDE_CALLERS && depth-- > 0; k++)
    estimate_frame(m, group, n, depth, &mem_hot, &all_hot, cheap, arg, est, &returned);
  free(mem_hot.items);
  free(all_hot.items);
  est->ratio_x100 = 100;
  if (forall_body) {
    const qs_quant_stats *q = qs_quant_stats_of(m->solver);
    est->ratio_x100 = 200;
    if (q->asked >= 8) {
      uint64_t own = q->queries > q->rechecked ? q->queries - q->rechecked : 0;
      est->ratio_x100 = own * 100 / q->asked;
      if (est->ratio_x100 < 100) est->ratio_x100 = 100;
    }
  }
  /* Q_add · r > α · Q_t with α = 1/2, a site reading an ite weighing at least 2 */
  uint64_t r_values = est->ratio_x100 > 200 ? est->ratio_x100 : 200;
  uint64_t values = (uint64_t)est->value_sites * r_values;
  uint64_t cost = values + (uint64_t)(est->hot_sites - est->value_sites) * est->ratio_x100;
  if (2 * cost <= (uint64_t)est->sites * 100) return NULL;
  if (2 * values > (uint64_t)est->sites * 100)
    return "declined: merged values read by later queries";
  return "declined: quantified array read by later queries";
}

void merge_decision(merge_ctx *m, const merge_region *r, state *const *members, size_t n,
                    const char *outcome) {
  merge_reasons_add(&m->stats->decisions, outcome);
  if (!m->opt.dump_tree) return;
  char *line = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&line, &len);
  fprintf(f, "exit block %" PRIu32 ", %zu state%s (", members[0]->prev_block, n, n == 1 ? "" : "s");
  for (size_t j = 0; j < n && j < 6; j++) fprintf(f, "%s%" PRIu64, j ? " " : "", members[j]->id);
  fprintf(f, "%s): %s\n", n > 6 ? " …" : "", outcome);
  fclose(f);
  (void)r;
  size_t have = m->decision_log ? strlen(m->decision_log) : 0;
  m->decision_log = xrealloc(m->decision_log, have + len + 1);
  memcpy(m->decision_log + have, line, len + 1);
  free(line);
}

char *merge_decisions_take(merge_ctx *m) {
  char *log = m->decision_log ? m->decision_log : xstrdup("");
  m->decision_log = NULL;
  return log;
}

void merge_decide_free(merge_ctx *m) {
  struct merge_decide_cache *c = m->decide;
  if (c) {
    for (size_t k = 0; k < c->nexits; k++) {
      free(c->exits[k].reach);
      free(c->exits[k].reach_block);
    }
    free(c->exits);
    for (uint32_t f = 0; c->defs && f < m->prog->nfuncs; f++) free(c->defs[f]);
    free(c->defs);
    free(c);
  }
  free(m->decision_log);
  m->decide = NULL;
  m->decision_log = NULL;
}
