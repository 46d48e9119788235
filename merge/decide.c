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

struct merge_decide_cache {
  exit_info *exits;
  size_t nexits, cap;
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

static const merge_liveness *liveness_of(merge_ctx *m, uint32_t func) {
  if (!m->liveness) m->liveness = xcalloc(m->prog->nfuncs + 1, sizeof *m->liveness);
  if (!m->liveness[func]) m->liveness[func] = merge_liveness_compute(&m->prog->funcs[func]);
  return m->liveness[func];
}

/* Forward data flow from the tainted registers (and, when loads_tainted, every load's and
 * call's result) over e's reachable code to a fixpoint; returns the query sites reading a
 * tainted value. */
static uint32_t tainted_sites(const ir_function *fn, const exit_info *e, uint64_t *taint,
                              bool loads_tainted) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->dst == IR_NONE || has_bit(taint, in->dst)) continue;
      bool t = loads_tainted && (in->op == IR_LOAD || in->op == IR_CALL || in->op == IR_VAARG);
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

/* Does some writable byte differ across the group with a merged value that is not cheap? */
static bool memory_costly(merge_ctx *m, state *const *group, size_t n, merge_cheap_fn cheap,
                          void *arg) {
  expr **vals = xmalloc(n * sizeof *vals);
  bool costly = false;
  const mem_space *mem = group[0]->mem;
  for (size_t i = 0; i < mem_space_count(mem) && !costly; i++) {
    const mem_object *o = mem_space_object_at(mem, i);
    bool shared = true;
    for (size_t j = 1; j < n && shared; j++)
      shared = mem_shares_contents(group[0]->mem, group[j]->mem, o);
    if (shared || o->read_only) continue;
    for (uint64_t b = 0; b < o->capacity && !costly; b++) {
      expr *at = merge_tmp(m, expr_const(64, b));
      bool same = true;
      for (size_t j = 0; j < n; j++) {
        vals[j] = merge_tmp(m, mem_read(group[j]->mem, o, at, 1));
        same &= vals[j] == vals[0];
      }
      costly = !same && !(cheap && cheap(m, vals, n, arg));
    }
  }
  free(vals);
  return costly;
}

const char *merge_decide(merge_ctx *m, state *const *group, size_t n, bool forall,
                         merge_cheap_fn cheap, void *arg, merge_estimate *est) {
  merge_estimate local;
  if (!est) est = &local;
  *est = (merge_estimate){0};
  const state_frame *top = state_top(group[0]);
  const ir_function *fn = &m->prog->funcs[top->func];
  const exit_info *e = exit_of(m, top->func, top->pc);
  const merge_liveness *live = liveness_of(m, top->func);
  uint32_t words = (fn->nregs + 63) / 64 + 1;
  uint64_t *taint = xcalloc(words, sizeof *taint);
  expr **vals = xmalloc(n * sizeof *vals);
  uint32_t depth = group[0]->nframes - 1;
  for (uint32_t reg = 0; reg < top->nregs && reg < fn->nregs; reg++) {
    bool same = true, missing = false;
    for (size_t j = 0; j < n; j++) {
      vals[j] = group[j]->frames[depth].regs[reg];
      same &= vals[j] == vals[0];
      missing |= !vals[j];
    }
    if (same || missing || !merge_live_before(live, top->pc, reg)) continue;
    if (cheap && cheap(m, vals, n, arg)) continue;
    set_bit(taint, reg);
    est->costly_regs++;
  }
  free(vals);
  est->memory = memory_costly(m, group, n, cheap, arg);
  est->sites = e->sites;
  est->value_sites = tainted_sites(fn, e, taint, est->memory);
  est->hot_sites = forall && !est->memory ? tainted_sites(fn, e, taint, true) : est->value_sites;
  free(taint);
  est->ratio_x100 = 100;
  if (forall) {
    const qs_quant_stats *q = qs_quant_stats_of(m->solver);
    est->ratio_x100 = 200;
    if (q->asked >= 8) {
      uint64_t own = q->queries > q->rechecked ? q->queries - q->rechecked : 0;
      est->ratio_x100 = own * 100 / q->asked;
      if (est->ratio_x100 < 100) est->ratio_x100 = 100;
    }
  }
  /* Q_add · r > α · Q_t with α = 1/2 */
  if (2 * (uint64_t)est->hot_sites * est->ratio_x100 <= (uint64_t)est->sites * 100) return NULL;
  if (2 * (uint64_t)est->value_sites * 100 > (uint64_t)est->sites * 100)
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
    free(c);
  }
  free(m->decision_log);
  m->decide = NULL;
  m->decision_log = NULL;
}
