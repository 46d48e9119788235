/* decide.c — the cost estimate of a PAT merge and the decision record (contract in decide.h). */
#include "merge/decide.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/memory.h"
#include "engine/core/xalloc.h"
#include "merge/liveness.h"
#include "merge/loops.h"

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
  exit_info **exits; /* stable: an analysis holds one while it adds others */
  size_t nexits, cap;
  uint32_t **defs;      /* per function, when first needed: per register, its instruction */
  uint32_t *func_sites; /* per function: 1 + its sites with its callees', 0: not yet */
  struct callee_memo *memos;
  size_t nmemos, cap_memos;
  hmap pin_index; /* state id + 1 -> its entry in pin_memos */
  struct pin_memo **pin_memos;
  size_t npin_memos, cap_pin_memos;
  uint8_t **joins_declined; /* per function, per loop: 0 not known, 1 no, 2 yes */
};

static struct merge_decide_cache *cache_of(merge_ctx *m) {
  if (!m->decide) {
    m->decide = xcalloc(1, sizeof *m->decide);
    m->decide->func_sites = xcalloc(m->prog->nfuncs + 1, sizeof *m->decide->func_sites);
  }
  return m->decide;
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
  struct merge_decide_cache *c = cache_of(m);
  for (size_t k = 0; k < c->nexits; k++)
    if (c->exits[k]->func == func && c->exits[k]->inst == inst) return c->exits[k];
  if (c->nexits == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 16;
    c->exits = xrealloc(c->exits, c->cap * sizeof *c->exits);
  }
  const ir_function *fn = &m->prog->funcs[func];
  exit_info *e = c->exits[c->nexits++] = xmalloc(sizeof *e);
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
    for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n; k++) {
      uint32_t to = fn->edges[ir_block_edge(fn, b, k)].target;
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
  struct merge_decide_cache *c = cache_of(m);
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

/* Phi moves on e's reachable edges (but those flagged in skip, per edge; NULL: none) from a
 * register in set to one not in it: adds it; true when the set grew. */
static bool flow_phi_moves(const ir_function *fn, const exit_info *e, uint64_t *set,
                           const uint8_t *skip) {
  bool changed = false;
  for (uint32_t b = 0; b < fn->nblocks; b++) {
    if (!e->reach_block[b]) continue;
    for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n; k++) {
      if (skip && skip[ir_block_edge(fn, b, k)]) continue;
      const ir_edge *ed = &fn->edges[ir_block_edge(fn, b, k)];
      for (uint32_t mv = 0; mv < ed->nmoves; mv++) {
        const ir_move *move = &fn->moves[ed->moves + mv];
        if (move->src.kind == IR_OPND_REG && merge_reg_in(set, move->src.index) &&
            !merge_reg_in(set, move->dst))
          merge_reg_add(set, move->dst), changed = true;
      }
    }
  }
  return changed;
}

/* Forward data flow over e's reachable code to a fixpoint: from the registers in set, and the
 * results of the loads flagged in hot_reads (NULL: none), to every result computed from them;
 * or, pointers_only, to the pointers computed from them (GEPs, moves and phi moves). Phi moves
 * on the edges flagged in skip (NULL: none) are not followed. */
static void propagate_skip(const ir_function *fn, const exit_info *e, uint64_t *set,
                           const uint8_t *hot_reads, bool pointers_only, const uint8_t *skip) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->dst == IR_NONE || merge_reg_in(set, in->dst)) continue;
      if (pointers_only && ((in->op != IR_GEP && in->op != IR_MOVE) || !in->nops)) continue;
      bool t = hot_reads && hot_reads[i];
      for (uint32_t k = 0; k < (pointers_only ? 1 : in->nops) && !t; k++) {
        const ir_operand *o = &fn->operands[in->ops + k];
        t = o->kind == IR_OPND_REG && merge_reg_in(set, o->index);
      }
      if (t) merge_reg_add(set, in->dst), changed = true;
    }
    changed |= flow_phi_moves(fn, e, set, skip);
  }
}

static void propagate(const ir_function *fn, const exit_info *e, uint64_t *set,
                      const uint8_t *hot_reads, bool pointers_only) {
  propagate_skip(fn, e, set, hot_reads, pointers_only, NULL);
}

/* Does query site `in` read a tainted operand? */
static bool site_reads(const ir_function *fn, const ir_inst *in, const uint64_t *taint) {
  uint32_t ops[3], n = site_operands(in, ops);
  for (uint32_t k = 0; k < n; k++) {
    if (ops[k] >= in->nops) continue;
    const ir_operand *o = &fn->operands[in->ops + ops[k]];
    if (o->kind == IR_OPND_REG && merge_reg_in(taint, o->index)) return true;
  }
  return false;
}

/* The five taints of one analysis: K, the values computed from the merge's template values
 * (K itself, a·K + b: free to merge, but not to use — see k_loads and k_walks); L, the values
 * computed from loads at an address computed from K; V, the values the merge makes costly
 * (ite registers, loads from merged memory, and L); A, those and the loads from the ∀'s
 * objects; S, the part of V that is symbolic in some member (a register holding a constant
 * in every member is not: a query over it alone is no query for a forked state). K is
 * propagated first: L, V, A and S start from its loads. */
enum { TAINT_K, TAINT_L, TAINT_V, TAINT_A, TAINT_S, NTAINTS };

/* What the sites of one analysed stretch of code add to the estimate. */
typedef struct site_counts {
  uint32_t sites, v, a, c; /* all, reading V, reading A, reading V but not S */
  uint32_t k, l;           /* sites reading K, reading L */
  uint32_t kloads;         /* loads at an address computed from K */
  uint32_t walks;          /* loops walking the ∀'s range by K (k_walks) */
  uint32_t vreads;         /* reads of objects stored into at an address computed from V */
} site_counts;

static void counts_add(site_counts *to, const site_counts *c) {
  to->sites += c->sites, to->v += c->v, to->a += c->a, to->c += c->c;
  to->k += c->k, to->l += c->l, to->kloads += c->kloads, to->walks += c->walks;
  to->vreads += c->vreads;
}

/* The loads of e's reachable code in fn at an address computed from K (flags per
 * instruction; NULL when none, *count receives how many): where each member reads one cell
 * — a plain query — the merged state reads at a symbolic index, an ite over as many cells
 * as K has values, and every query over the loaded value pays for it. */
static uint8_t *k_loads(const ir_function *fn, const exit_info *e, const uint64_t *k,
                        uint32_t *count) {
  uint8_t *flags = NULL;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i] || in->op != IR_LOAD || !site_reads(fn, in, k)) continue;
    if (!flags) flags = xcalloc(fn->ninsts + 1, 1);
    flags[i] = 1;
    (*count)++;
  }
  return flags;
}

/* The loops of fn reachable in e that walk the range a ∀ summarized again, one value of K
 * at a time: a branch or switch of the loop reads K (the loop is bounded by it; in a callee
 * also one that reads the ∀'s bytes, a scan to the terminator the ∀ ruled out) and a load
 * of the loop reads one of the ∀'s objects (forall_loads[i], NULL: none) at an address not
 * computed from K (so inside the range the ∀ covers, from its start: a copy, a second scan
 * of the same string — not the next scan from K on, as chained memspn's). Each iteration's
 * bound check then splits the merged state into one state per value of K, each carrying the
 * ∀ (docs/merging.md "Merge decisions"). A loop counts with its enclosing loops. */
static uint32_t k_walks(merge_ctx *m, uint32_t func, const exit_info *e,
                        uint64_t *const taint[NTAINTS], const uint64_t *k_addr,
                        const uint8_t *forall_loads) {
  if (!forall_loads) return 0;
  const ir_function *fn = &m->prog->funcs[func];
  const merge_loops *l = merge_loops_of(m, func);
  if (!l || !l->nloops) return 0;
  uint8_t *bounded = xcalloc(l->nloops, 1), *loads = xcalloc(l->nloops, 1);
  for (uint32_t b = 0; b < fn->nblocks && b < l->nblocks; b++) {
    if (l->innermost[b] == MERGE_NO_LOOP) continue;
    bool branch = false, load = false;
    for (uint32_t i = fn->blocks[b].first; i < fn->blocks[b].first + fn->blocks[b].count; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i]) continue;
      /* in a callee (k_addr NULL) a loop bounded by the ∀'s bytes themselves walks the range
       * too: apr_fnmatch_test's scan to the terminator after strpbrk's ∀ (scanwalk) */
      if (in->op == IR_CONDBR || in->op == IR_SWITCH)
        branch |=
            site_reads(fn, in, taint[TAINT_K]) || (!k_addr && site_reads(fn, in, taint[TAINT_A]));
      if (in->op == IR_LOAD && forall_loads[i])
        load |= !site_reads(fn, in, k_addr ? k_addr : taint[TAINT_K]);
    }
    for (uint32_t lp = l->innermost[b]; lp != MERGE_NO_LOOP; lp = l->loops[lp].parent)
      bounded[lp] |= branch, loads[lp] |= load;
  }
  uint32_t walks = 0;
  for (uint32_t lp = 0; lp < l->nloops; lp++) walks += bounded[lp] && loads[lp];
  free(bounded);
  free(loads);
  return walks;
}

/* A callee analysed for one set of tainted parameters (memoized in the cache). */
typedef struct callee_memo {
  uint32_t func;
  uint64_t masks[2 * NTAINTS]; /* per taint: tainted parameters, parameters pointing to a hot
                                  object (the first 64 parameters) */
  site_counts counts;
} callee_memo;

/* How deep into callees the estimate looks, and how many callee analyses one decision makes
 * at most (past them a call reading a costly value counts its callee's sites as costly). */
enum { MERGE_DECIDE_CALL_DEPTH = 4, MERGE_DECIDE_CALLEE_BUDGET = 64 };

/* The query sites of function func and (to MERGE_DECIDE_CALL_DEPTH) of its direct callees,
 * each once (a function on the current chain counts nothing). */
static uint32_t function_sites(merge_ctx *m, uint32_t func, uint32_t depth, uint8_t *on_chain) {
  const ir_function *fn = &m->prog->funcs[func];
  if (fn->is_decl || !fn->ninsts || on_chain[func]) return 0;
  struct merge_decide_cache *c = m->decide;
  if (depth == 0 && c->func_sites[func]) return c->func_sites[func] - 1;
  on_chain[func] = 1;
  uint32_t sites = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    sites += is_site(fn, in);
    if (in->op == IR_CALL && in->u.call.func != IR_NONE && depth < MERGE_DECIDE_CALL_DEPTH)
      sites += function_sites(m, in->u.call.func, depth + 1, on_chain);
  }
  on_chain[func] = 0;
  if (depth == 0) c->func_sites[func] = sites + 1;
  return sites;
}

typedef struct callee_walk {
  merge_ctx *m;
  uint32_t budget;
  uint8_t *on_chain; /* per function */
} callee_walk;

/* Does argument o of a call point to an object hot for taint t? */
typedef bool (*arg_hot_fn)(const void *ctx, const ir_operand *o, int t);

static void frame_calls(callee_walk *w, const ir_function *fn, const exit_info *e,
                        uint64_t *const taint[NTAINTS], arg_hot_fn arg_hot, const void *ctx,
                        uint32_t depth, site_counts *out);

/* A callee's argument hotness: a pointer computed from a parameter that points to a hot
 * object (the registers in hot_ptr[t]). */
static bool param_arg_hot(const void *ctx, const ir_operand *o, int t) {
  uint64_t *const *hot_ptr = ctx;
  return o->kind == IR_OPND_REG && merge_reg_in(hot_ptr[t], o->index);
}

/* The sites of callee func entered with masks (see callee_memo), its callees' included. */
static site_counts callee_counts(callee_walk *w, uint32_t func, const uint64_t *masks,
                                 uint32_t depth) {
  merge_ctx *m = w->m;
  struct merge_decide_cache *c = m->decide;
  for (size_t k = 0; k < c->nmemos; k++)
    if (c->memos[k].func == func && !memcmp(c->memos[k].masks, masks, sizeof c->memos[k].masks))
      return c->memos[k].counts;
  site_counts out = {0};
  const ir_function *fn = &m->prog->funcs[func];
  if (fn->is_decl || !fn->ninsts || w->on_chain[func]) return out;
  if (!w->budget || depth > MERGE_DECIDE_CALL_DEPTH) { /* not looked into */
    uint32_t all = function_sites(m, func, 0, w->on_chain);
    bool tainted[NTAINTS];
    for (int t = 0; t < NTAINTS; t++) tainted[t] = masks[t] || masks[NTAINTS + t];
    /* every site reads what a taint reaches it with (a ∀'s pointer alone taints A, not V) */
    return (site_counts){all,
                         tainted[TAINT_V] ? all : 0,
                         tainted[TAINT_V] || tainted[TAINT_A] ? all : 0,
                         0,
                         tainted[TAINT_K] ? all : 0,
                         0,
                         0,
                         0,
                         0};
  }
  w->budget--;
  w->on_chain[func] = 1;
  const exit_info *e = exit_of(m, func, 0);
  size_t words = (fn->nregs + 63) / 64 + 1;
  uint64_t *taint[NTAINTS], *hot_ptr[NTAINTS];
  uint8_t *reads = xcalloc(fn->ninsts + 1, 1), *forall_loads = NULL, *kl = NULL;
  for (int t = 0; t < NTAINTS; t++) {
    taint[t] = xcalloc(words, sizeof **taint);
    hot_ptr[t] = xcalloc(words, sizeof **hot_ptr);
    for (uint32_t p = 0; p < fn->nargs && p < 64; p++) {
      if ((masks[t] >> p) & 1) merge_reg_add(taint[t], p);
      if ((masks[NTAINTS + t] >> p) & 1) merge_reg_add(hot_ptr[t], p);
    }
    propagate(fn, e, hot_ptr[t], NULL, true);
    bool any = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      reads[i] = 0;
      if (in->op != IR_LOAD || !in->nops) continue;
      const ir_operand *o = &fn->operands[in->ops];
      reads[i] = (o->kind == IR_OPND_REG && merge_reg_in(hot_ptr[t], o->index)) || (kl && kl[i]);
      any |= reads[i];
    }
    propagate(fn, e, taint[t], any ? reads : NULL, false);
    if (t == TAINT_K) kl = k_loads(fn, e, taint[TAINT_K], &out.kloads);
    if (t == TAINT_A && any) {
      forall_loads = xmalloc(fn->ninsts + 1);
      memcpy(forall_loads, reads, fn->ninsts + 1);
    }
  }
  free(reads);
  free(kl);
  frame_calls(w, fn, e, taint, param_arg_hot, hot_ptr, depth, &out);
  out.walks += k_walks(m, func, e, taint, NULL, forall_loads);
  free(forall_loads);
  for (int t = 0; t < NTAINTS; t++) free(taint[t]), free(hot_ptr[t]);
  w->on_chain[func] = 0;
  if (c->nmemos == c->cap_memos) {
    c->cap_memos = c->cap_memos ? 2 * c->cap_memos : 16;
    c->memos = xrealloc(c->memos, c->cap_memos * sizeof *c->memos);
  }
  callee_memo *memo = &c->memos[c->nmemos++];
  memo->func = func;
  memcpy(memo->masks, masks, sizeof memo->masks);
  memo->counts = out;
  return out;
}

/* The sites of e's reachable code in fn under the taints, and those of the functions its
 * direct calls enter (a callee's parameter is tainted when its argument is, and points to a
 * hot object when the argument is computed from a parameter that does). */
static void frame_calls(callee_walk *w, const ir_function *fn, const exit_info *e,
                        uint64_t *const taint[NTAINTS], arg_hot_fn arg_hot, const void *ctx,
                        uint32_t depth, site_counts *out) {
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    if (!e->reach[i]) continue;
    const ir_inst *in = &fn->insts[i];
    if (is_site(fn, in)) {
      bool v = site_reads(fn, in, taint[TAINT_V]);
      out->sites++;
      out->v += v;
      out->a += site_reads(fn, in, taint[TAINT_A]);
      out->c += v && !site_reads(fn, in, taint[TAINT_S]);
      out->k += site_reads(fn, in, taint[TAINT_K]);
      out->l += site_reads(fn, in, taint[TAINT_L]);
    }
    if (in->op != IR_CALL || in->u.call.func == IR_NONE) continue;
    uint64_t masks[2 * NTAINTS] = {0};
    for (uint32_t k = 1; k < in->nops && k <= 64; k++) {
      const ir_operand *o = &fn->operands[in->ops + k];
      for (int t = 0; t < NTAINTS; t++) {
        if (o->kind == IR_OPND_REG && merge_reg_in(taint[t], o->index))
          masks[t] |= UINT64_C(1) << (k - 1);
        if (arg_hot(ctx, o, t)) masks[NTAINTS + t] |= UINT64_C(1) << (k - 1);
      }
    }
    site_counts cc = callee_counts(w, in->u.call.func, masks, depth + 1);
    counts_add(out, &cc);
  }
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

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

/* How many distinct values vals[0..n) has (by structural hash; scratch: room for n). */
static size_t distinct_values(expr *const *vals, size_t n, uint64_t *scratch) {
  for (size_t j = 0; j < n; j++) scratch[j] = vals[j]->hash;
  qsort(scratch, n, sizeof *scratch, cmp_u64);
  size_t d = n ? 1 : 0;
  for (size_t j = 1; j < n; j++) d += scratch[j] != scratch[j - 1];
  return d;
}

/* Member bytes memory_costly reads at most (past them an object's other bytes are not
 * looked at for their number of distinct values). */
enum { MERGE_DECIDE_READS = 1 << 16 };

/* The writable objects holding a byte that differs across the group with a merged value
 * that is not cheap (out), and those of them where some such byte is symbolic in a member
 * (sym; an object whose costly bytes are constants in every member — a pointer or an index
 * kept in memory — is read by a forked state without a query); *arms receives the most
 * distinct values such a byte has (the arms of the ite a query over it reads), and tuple[j]
 * is mixed with member j's constant costly bytes. kobj receives the objects holding a byte
 * that differs with a cheap merged value (a template kept in memory: loads from them read
 * K). */
static void memory_costly(merge_ctx *m, state *const *group, size_t n, merge_cheap_fn cheap,
                          void *arg, obj_set *out, obj_set *sym, obj_set *kobj, size_t *arms,
                          uint64_t *tuple) {
  expr **vals = xmalloc(n * sizeof *vals);
  uint64_t *scratch = xmalloc(n * sizeof *scratch);
  const mem_space *mem = group[0]->mem;
  mem_space **spaces = xmalloc(n * sizeof *spaces);
  for (size_t j = 0; j < n; j++) spaces[j] = group[j]->mem;
  bool *differ = NULL;
  uint64_t reads = 0, cap_differ = 0;
  for (size_t i = 0; i < mem_space_count(mem); i++) {
    const mem_object *o = mem_space_object_at(mem, i);
    if (o->read_only) continue;
    bool shared = true;
    for (size_t j = 1; j < n && shared; j++)
      shared = mem_shares_contents(group[0]->mem, group[j]->mem, o);
    if (shared) continue;
    if (o->capacity > cap_differ) differ = xrealloc(differ, cap_differ = o->capacity);
    mem_bytes_differing(spaces, n, o, differ); /* the bytes read below: those that may differ */
    bool costly = false, symbolic = false;
    for (uint64_t b = 0; b < o->capacity && (!costly || reads < MERGE_DECIDE_READS); b++) {
      if (!differ[b]) { /* the same in every member: counted as read, as before */
        reads += n;
        continue;
      }
      expr *at = merge_tmp(m, expr_const(64, b));
      bool same = true;
      for (size_t j = 0; j < n; j++) {
        vals[j] = merge_tmp(m, mem_read(group[j]->mem, o, at, 1));
        same &= vals[j] == vals[0];
      }
      reads += n;
      if (same) continue;
      if (cheap && cheap(m, vals, n, arg)) { /* a template: K kept in memory (a local) */
        obj_add(kobj, o);
        continue;
      }
      costly = true;
      size_t d = distinct_values(vals, n, scratch);
      if (d > *arms) *arms = d;
      bool constant = true;
      for (size_t j = 0; j < n && constant; j++) constant = expr_is_const(vals[j]);
      symbolic |= !constant;
      for (size_t j = 0; j < n && constant; j++)
        tuple[j] = (tuple[j] ^ vals[j]->hash) * 0x100000001b3ULL;
    }
    if (costly) obj_add(out, o);
    if (costly && symbolic) obj_add(sym, o);
  }
  free(differ);
  free(spaces);
  free(vals);
  free(scratch);
}

/* The terms a member's path condition pins to one constant (issue 26: memcpy(copy, s, n + 1)
 * merged by pattern — each forked state's path condition fixes n, the merged one does not,
 * and every later read of s goes through the store s[n] = 0 at a symbolic index). A term is
 * pinned when the path's bounds on it (c <u x, x <u c, c ≤u x, x ≤u c, c = x and the
 * negations of the orderings, c a constant) meet in one value; c + y pinned pins y. */
enum { MERGE_PIN_TERMS = 64, MERGE_PIN_WALK = 4096 };

typedef struct pin_bound {
  const expr *term;
  u128 lo, hi;
} pin_bound;

static void pin_narrow(pin_bound *b, size_t *nb, const expr *x, u128 lo, u128 hi) {
  if (expr_is_const(x) || x->width > 64) return;
  size_t k = 0;
  while (k < *nb && b[k].term != x) k++;
  if (k == *nb) {
    if (*nb == MERGE_PIN_TERMS) return;
    b[(*nb)++] = (pin_bound){x, 0, expr_mask(x->width)};
  }
  if (lo > b[k].lo) b[k].lo = lo;
  if (hi < b[k].hi) b[k].hi = hi;
}

/* Narrows b[0..*nb) by the bounds the path formulas pc[from..to) put on terms. */
static void pc_bounds(expr *const *pc, size_t from, size_t to, pin_bound *b, size_t *nbp) {
  size_t nb = *nbp;
  for (size_t i = from; i < to; i++) {
    const expr *c = pc[i];
    bool neg = c->kind == EXPR_NOT;
    if (neg) c = c->kid[0];
    if (c->kind != EXPR_EQ && c->kind != EXPR_ULT && c->kind != EXPR_ULE) continue;
    const expr *a = c->kid[0], *x = c->kid[1];
    bool const_first = expr_is_const(a);
    if (!const_first && !expr_is_const(x)) continue;
    u128 v = const_first ? a->u.value : x->u.value;
    const expr *t = const_first ? x : a;
    if (t->width > 64) continue;
    u128 max = expr_mask(t->width);
    if (c->kind == EXPR_EQ) {
      if (!neg) pin_narrow(b, &nb, t, v, v);
      continue;
    }
    bool strict = c->kind == EXPR_ULT;
    if (neg) strict = !strict, const_first = !const_first; /* ¬(c < x) is x ≤ c */
    if (const_first) {                                     /* c < x or c ≤ x */
      if (strict && v == max) continue;
      pin_narrow(b, &nb, t, strict ? v + 1 : v, max);
    } else { /* x < c or x ≤ c */
      if (strict && v == 0) continue;
      pin_narrow(b, &nb, t, 0, strict ? v - 1 : v);
    }
  }
  *nbp = nb;
}

/* The pinned terms of b[0..nb), the bounds of a path condition (pc_bounds): b[0..return)
 * with lo == hi, the others dropped. */
static size_t pinned_terms(pin_bound *b, size_t nb) {
  /* t = c + y: y's interval bounds t's where no value of it wraps, and t's bounds y's where
   * none of t's does (n ≤ 10 and ¬(1 < n + 1) pin n + 1 to 1, then n to 0) */
  for (size_t k = 0, n0 = nb; k < n0; k++) {
    const expr *t = b[k].term;
    if (t->kind == EXPR_ADD && expr_is_const(t->kid[0]) && !expr_is_const(t->kid[1]))
      pin_narrow(b, &nb, t->kid[1], 0, expr_mask(t->width));
  }
  for (int round = 0; round < 2; round++)
    for (size_t k = 0; k < nb; k++) {
      const expr *t = b[k].term;
      if (t->kind != EXPR_ADD || !expr_is_const(t->kid[0]) || expr_is_const(t->kid[1])) continue;
      u128 c = t->kid[0]->u.value, max = expr_mask(t->width);
      size_t y = 0;
      while (y < nb && b[y].term != t->kid[1]) y++;
      if (y == nb || b[k].lo > b[k].hi || b[y].lo > b[y].hi) continue;
      if (b[y].hi <= max - c) pin_narrow(b, &nb, t, b[y].lo + c, b[y].hi + c);
      if (b[k].lo >= c) pin_narrow(b, &nb, t->kid[1], b[k].lo - c, b[k].hi - c);
    }
  size_t np = 0;
  for (size_t k = 0; k < nb; k++)
    if (b[k].lo == b[k].hi) b[np++] = b[k];
  return np;
}

/* The terms pinned to a constant in every member, to different ones among them: what a merge
 * turns from a constant of each forked state into a symbol (values[k * n + j]: term k's in
 * member j). */
typedef struct pin_set {
  const expr **terms;
  u128 *values;
  size_t n;
  obj_set objs; /* the objects holding a byte that mentions one (pinned_objects) */
} pin_set;

/* The bounds of the path conditions read last (pc_bounds is a left fold over a path's
 * formulas), kept every MERGE_PIN_CHECK formulas: a member's bounds start from the last
 * checkpoint inside the prefix its path shares with the path read before it, so a group
 * whose members extend one another's paths (a loop's exits: member j's path is the loop's
 * first j trips and its exit) reads each member's own formulas and at most MERGE_PIN_CHECK
 * shared ones, not its whole path (memspn at 1,024 bytes: 800,000 formulas read per run,
 * quadratic in the members). Same bounds as one pass over the path: the fold restarts from
 * its own value on an identical prefix. Lives for one pins_of: the path read last belongs to
 * a member of the group, alive throughout. */
enum { MERGE_PIN_CHECK = 64 };

typedef struct pin_trunk {
  expr *const *pc; /* the path read last, */
  size_t npc;      /* its length */
  pin_bound *b; /* checkpoint k: the bounds of pc[0..k * MERGE_PIN_CHECK), MERGE_PIN_TERMS each */
  size_t *nb;   /* checkpoint k's number of bounds */
  size_t nchecks, cap;
} pin_trunk;

static void pin_trunk_free(pin_trunk *t) {
  free(t->b);
  free(t->nb);
}

/* The bounds of st's whole path condition into b (MERGE_PIN_TERMS entries): their number. */
static size_t trunk_bounds(pin_trunk *t, const state *st, pin_bound *b) {
  size_t shared = 0, most = t->npc < st->npc ? t->npc : st->npc;
  while (shared < most && t->pc[shared] == st->pc[shared]) shared++;
  size_t c = t->nchecks ? shared / MERGE_PIN_CHECK : 0;
  if (c >= t->nchecks) c = t->nchecks ? t->nchecks - 1 : 0;
  size_t nb = 0;
  if (t->nchecks) {
    nb = t->nb[c];
    memcpy(b, t->b + c * MERGE_PIN_TERMS, nb * sizeof *b);
  }
  t->nchecks = c; /* checkpoint c is rewritten below, equal */
  t->pc = st->pc, t->npc = st->npc;
  for (size_t i = c * MERGE_PIN_CHECK;; i += MERGE_PIN_CHECK) {
    if (t->nchecks == t->cap) {
      t->cap = t->cap ? 2 * t->cap : 16;
      t->b = xrealloc(t->b, t->cap * MERGE_PIN_TERMS * sizeof *t->b);
      t->nb = xrealloc(t->nb, t->cap * sizeof *t->nb);
    }
    memcpy(t->b + t->nchecks * MERGE_PIN_TERMS, b, nb * sizeof *b);
    t->nb[t->nchecks++] = nb;
    if (i >= st->npc) break;
    size_t to = st->npc - i < MERGE_PIN_CHECK ? st->npc : i + MERGE_PIN_CHECK;
    pc_bounds(st->pc, i, to, b, &nb);
    if (to == st->npc) break;
  }
  return nb;
}

/* A member's pinned terms kept with its state's id: they depend on its path condition alone
 * (the trunk's checkpoint it starts from is a prefix of its own path), and one release decides over
 * the same members many times (memspn at 1,024 bytes: each member's path of ~1,000 formulas
 * read 6 times). The path condition is recognised by its array, length and last formula; a
 * stale entry could only change a decision, never an answer. At most MERGE_PIN_MEMOS kept:
 * the table is emptied when full. */
enum { MERGE_PIN_MEMOS = 1 << 14 };

typedef struct pin_memo {
  uint64_t id;
  expr *const *pc;
  size_t npc;
  const expr *last;
  size_t n;
  pin_bound b[];
} pin_memo;

static void pin_memos_clear(struct merge_decide_cache *c) {
  for (size_t k = 0; k < c->npin_memos; k++) free(c->pin_memos[k]);
  c->npin_memos = 0;
  hmap_clear(&c->pin_index);
}

static const pin_memo *pin_memo_of(struct merge_decide_cache *c, const state *st) {
  uint64_t at;
  if (!hmap_get(&c->pin_index, st->id + 1, &at)) return NULL;
  const pin_memo *p = c->pin_memos[at];
  bool same = p->id == st->id && p->pc == st->pc && p->npc == st->npc &&
              p->last == (st->npc ? st->pc[st->npc - 1] : NULL);
  return same ? p : NULL;
}

static void pin_memo_put(struct merge_decide_cache *c, const state *st, const pin_bound *b,
                         size_t n) {
  if (c->npin_memos == MERGE_PIN_MEMOS) pin_memos_clear(c);
  pin_memo *p = xmalloc(sizeof *p + n * sizeof *b);
  *p = (pin_memo){st->id, st->pc, st->npc, st->npc ? st->pc[st->npc - 1] : NULL, n};
  memcpy(p->b, b, n * sizeof *b);
  if (c->npin_memos == c->cap_pin_memos) {
    c->cap_pin_memos = c->cap_pin_memos ? 2 * c->cap_pin_memos : 256;
    c->pin_memos = xrealloc(c->pin_memos, c->cap_pin_memos * sizeof *c->pin_memos);
  }
  uint64_t at;
  if (hmap_get(&c->pin_index, st->id + 1, &at)) { /* a stale entry of the same state */
    free(c->pin_memos[at]);
    c->pin_memos[at] = p;
    return;
  }
  hmap_put(&c->pin_index, st->id + 1, c->npin_memos);
  c->pin_memos[c->npin_memos++] = p;
}

/* st's pinned terms (pinned_terms of its path's bounds) into b, through the memo. */
static size_t member_pins_memo(struct merge_decide_cache *c, const state *st, pin_trunk *t,
                               pin_bound *b) {
  const pin_memo *p = pin_memo_of(c, st);
  if (p) {
    memcpy(b, p->b, p->n * sizeof *b);
    return p->n;
  }
  size_t n = pinned_terms(b, trunk_bounds(t, st, b));
  pin_memo_put(c, st, b, n);
  return n;
}

static pin_set pins_of(merge_ctx *m, state *const *group, size_t n) {
  struct merge_decide_cache *c = cache_of(m);
  pin_set ps = {0};
  pin_trunk trunk = {0};
  pin_bound *first = xmalloc(2 * MERGE_PIN_TERMS * sizeof *first);
  pin_bound *other = xmalloc(2 * MERGE_PIN_TERMS * sizeof *other);
  size_t nf = member_pins_memo(c, group[0], &trunk, first);
  if (!nf) goto done;
  u128 *vals = xmalloc(nf * n * sizeof *vals);
  bool *keep = xmalloc(nf * sizeof *keep);
  for (size_t k = 0; k < nf; k++) keep[k] = true, vals[k * n] = first[k].lo;
  for (size_t j = 1; j < n; j++) {
    size_t no = member_pins_memo(c, group[j], &trunk, other);
    /* a member's terms are distinct and mostly in the first's order: each search starts
     * after the last one found and wraps around */
    for (size_t k = 0, from = 0; k < nf; k++) {
      size_t o = from, tried = 0;
      while (tried < no && other[o].term != first[k].term) o = o + 1 == no ? 0 : o + 1, tried++;
      if (tried == no) keep[k] = false;
      else
        vals[k * n + j] = other[o].lo, from = o + 1 == no ? 0 : o + 1;
    }
  }
  ps.terms = xmalloc(nf * sizeof *ps.terms);
  ps.values = xmalloc(nf * n * sizeof *ps.values);
  for (size_t k = 0; k < nf; k++) {
    bool differ = false;
    for (size_t j = 1; j < n && keep[k] && !differ; j++) differ = vals[k * n + j] != vals[k * n];
    if (!keep[k] || !differ) continue;
    ps.terms[ps.n] = first[k].term;
    memcpy(ps.values + ps.n * n, vals + k * n, n * sizeof *vals);
    ps.n++;
  }
  free(vals);
  free(keep);
done:
  pin_trunk_free(&trunk);
  free(first);
  free(other);
  return ps;
}

/* Does e (its update lists' indices and values too) mention one of ps's terms? Walks at most
 * *budget nodes (then: it does, to be safe). */
static bool mentions_pin(const expr *e, const pin_set *ps, uint32_t *budget) {
  if (!e || expr_is_const(e)) return false;
  if (*budget == 0) return true;
  (*budget)--;
  for (size_t k = 0; k < ps->n; k++)
    if (ps->terms[k] == e) return true;
  if (e->kind == EXPR_READ)
    for (const expr_update *u = e->u.read.updates; u; u = u->next) {
      if (mentions_pin(u->index, ps, budget) || mentions_pin(u->value, ps, budget)) return true;
    }
  for (uint8_t k = 0; k < e->nkids; k++)
    if (mentions_pin(e->kid[k], ps, budget)) return true;
  return false;
}

/* The writable objects of the group's first state holding, among their first 64 bytes, one
 * that mentions a pinned term (an array written at an index each member pins: its later
 * loads read a store at a symbolic index in the merged state), added to out and sym. */
static void pinned_objects(merge_ctx *m, const state *st, pin_set *ps, obj_set *out, obj_set *sym) {
  const mem_space *mem = st->mem;
  for (size_t i = 0; i < mem_space_count(mem); i++) {
    const mem_object *o = mem_space_object_at(mem, i);
    if (o->read_only) continue;
    for (uint64_t b = 0; b < o->capacity && b < 64; b++) {
      uint32_t budget = MERGE_PIN_WALK;
      if (!mentions_pin(merge_tmp(m, mem_read(st->mem, o, merge_tmp(m, expr_const(64, b)), 1)), ps,
                        &budget))
        continue;
      obj_add(out, o);
      obj_add(sym, o);
      obj_add(&ps->objs, o);
      break;
    }
  }
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

/* Bytes of the state's other objects forall_objects reads at most looking for copies, in all
 * and of one object (its first ones: a copy of a string starts with a byte of it). */
enum { MERGE_DECIDE_COPY_READS = 1 << 16, MERGE_DECIDE_COPY_OBJECT_READS = 64 };

/* Does byte expression e read one of arrays[0..n) (false past a budget of nodes)? */
static bool reads_any(const expr *e, const expr_array *const *arrays, size_t n) {
  const expr_array **found = NULL;
  size_t nfound = 0;
  uint32_t budget = 256;
  bool hit = false;
  arrays_read(e, &found, &nfound, &budget);
  for (size_t k = 0; k < nfound && !hit; k++)
    for (size_t a = 0; a < n && !hit; a++) hit = found[k] == arrays[a];
  free(found);
  return hit;
}

/* The objects bound to the symbolic arrays the ∀ body reads (any, when they cannot be told),
 * and the writable objects of st holding a byte that reads one of those arrays: a copy of the
 * ∀'s buffer (strdup, memcpy) — a later load from it reads the cells the ∀ constrains, as a
 * load from the buffer itself does (json-c's json_pointer_get scans a strdup copy). */
static void forall_objects(merge_ctx *m, const state *st, const expr *body, obj_set *out) {
  const expr_array **arrays = NULL;
  size_t n = 0;
  uint32_t budget = 4096;
  if (!arrays_read(body, &arrays, &n, &budget)) out->any = true;
  for (size_t k = 0; k < st->nsymbolics; k++)
    for (size_t a = 0; a < n; a++)
      if (st->symbolics[k].array == arrays[a]) obj_add(out, st->symbolics[k].object);
  uint64_t reads = 0;
  for (size_t i = 0; n && !out->any && i < mem_space_count(st->mem); i++) {
    const mem_object *o = mem_space_object_at(st->mem, i);
    if (o->read_only || obj_has(out, o)) continue;
    bool copy = false;
    for (uint64_t b = 0; b < o->capacity && b < MERGE_DECIDE_COPY_OBJECT_READS && !copy &&
                         reads < MERGE_DECIDE_COPY_READS;
         b++, reads++)
      copy = reads_any(merge_tmp(m, mem_read(st->mem, o, merge_tmp(m, expr_const(64, b)), 1)),
                       arrays, n);
    if (copy) obj_add(out, o);
  }
  free(arrays);
}

/* The object a pointer operand points into, read off the state where the pointer (or the
 * base it is computed from by GEPs and moves) is known at the frame's position: a constant
 * operand, a global, or a register live there holding a constant address; a phi (a pointer
 * a loop steps, `for (q = p; q < end; q++)`) points where every value it receives points,
 * those computed from the phi itself (the steps) and null pointers left out; the result of
 * the call a frame below the top is in points where the callee's returns point (frame_at's
 * call_obj). NULL: unknown. */
typedef struct frame_at { /* a frame of the group's first state at its position */
  const ir_program *prog;
  const ir_function *fn;
  const uint32_t *def;
  const merge_liveness *live;
  uint32_t pc;
  const state *st;
  const state_frame *f;
  uint32_t call_dst;          /* below the top frame: the result of the call the frame is in */
  const mem_object *call_obj; /* the object that result points into (NULL: unknown) */
} frame_at;

static frame_at frame_at_of(merge_ctx *m, const state *st, const state_frame *f, uint32_t pc) {
  return (frame_at){m->prog,
                    &m->prog->funcs[f->func],
                    defs_of(m, f->func),
                    liveness_of(m, f->func),
                    pc,
                    st,
                    f,
                    IR_NONE,
                    NULL};
}

typedef struct pointee_ctx {
  frame_at at;
  uint32_t phis[8]; /* the phis being resolved, innermost last */
  uint32_t nphis;
  uint32_t budget; /* phi moves it may still follow (a phi of many incoming values, of phis
                      of many, …: past it the object is unknown) */
} pointee_ctx;

enum { MERGE_POINTEE_MOVES = 64 };

/* What pointee_at returns for a value computed from a phi being resolved. */
static const mem_object pointee_self;

static const mem_object *pointee_at(pointee_ctx *c, const ir_operand *o, int depth) {
  if (o->kind == IR_OPND_GLOBAL) {
    const char *name = o->index < c->at.prog->nglobals ? c->at.prog->globals[o->index].name : NULL;
    const mem_space *mem = c->at.st->mem;
    for (size_t i = 0; name && i < mem_space_count(mem); i++) {
      const mem_object *g = mem_space_object_at(mem, i);
      if (g->kind == MEM_GLOBAL && g->name && strcmp(g->name, name) == 0) return g;
    }
    return NULL;
  }
  if (o->kind == IR_OPND_CONST) return NULL;
  if (o->kind != IR_OPND_REG || depth > 16) return NULL;
  uint32_t reg = o->index;
  const state_frame *f = c->at.f;
  if (reg == c->at.call_dst) return c->at.call_obj; /* what the callee returns into */
  if (reg < f->nregs && f->regs[reg] && merge_live_before(c->at.live, c->at.pc, reg) &&
      expr_is_const(f->regs[reg]))
    return mem_space_find(c->at.st->mem, (uint64_t)f->regs[reg]->u.value);
  uint32_t d = c->at.def[reg];
  if (d != IR_NONE) {
    const ir_inst *in = &c->at.fn->insts[d];
    if ((in->op != IR_GEP && in->op != IR_MOVE) || !in->nops) return NULL;
    return pointee_at(c, &c->at.fn->operands[in->ops], depth + 1);
  }
  /* an argument (no move sets it) or a phi */
  for (uint32_t k = 0; k < c->nphis; k++)
    if (c->phis[k] == reg) return &pointee_self;
  if (c->nphis == sizeof c->phis / sizeof *c->phis) return NULL;
  c->phis[c->nphis++] = reg;
  const mem_object *found = NULL;
  bool unknown = false;
  for (uint32_t mv = 0; mv < c->at.fn->nmoves && !unknown; mv++) {
    const ir_move *move = &c->at.fn->moves[mv];
    if (move->dst != reg) continue;
    if (!c->budget) {
      unknown = true;
      break;
    }
    c->budget--;
    if (move->src.kind == IR_OPND_CONST && ir_const_value(c->at.prog, &move->src) == 0)
      continue; /* a null pointer (`return NULL`): a load through it reads no object */
    const mem_object *obj = pointee_at(c, &move->src, depth + 1);
    if (obj == &pointee_self) continue;
    unknown = !obj || (found && found != obj);
    found = obj;
  }
  c->nphis--;
  return unknown ? NULL : found;
}

static const mem_object *pointee(const frame_at *at, const ir_operand *o) {
  pointee_ctx c = {*at, {0}, 0, MERGE_POINTEE_MOVES};
  const mem_object *obj = pointee_at(&c, o, 0);
  return obj == &pointee_self ? NULL : obj;
}

/* Per reachable load of frame f from pc: does it read a hot object (one whose object is
 * unknown does)? NULL when no object is hot. Calls are not looked into: what a callee reads
 * is its own loops' business (their regions decide for themselves). */
static uint8_t *hot_reads(const exit_info *e, const frame_at *at, const obj_set *hot,
                          bool unknown_hot) {
  if (!hot->any && !hot->n && !unknown_hot) return NULL;
  const ir_function *fn = at->fn;
  uint8_t *flags = xcalloc(fn->ninsts + 1, 1);
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i]) continue;
    if (in->op != IR_LOAD || !in->nops) continue;
    const mem_object *o = pointee(at, &fn->operands[in->ops]);
    flags[i] = o ? obj_has(hot, o) : unknown_hot;
  }
  return flags;
}

/* A group frame's argument hotness: the object an argument points to, read off the group's
 * first state (an object that cannot be told is not hot: see decide.h). */
typedef struct frame_hot {
  frame_at at;
  const obj_set *hot[NTAINTS];
} frame_hot;

static bool frame_arg_hot(const void *ctx, const ir_operand *o, int t) {
  const frame_hot *fh = ctx;
  if (!fh->hot[t]->n) return false;
  const mem_object *obj = pointee(&fh->at, o);
  return obj && obj_has(fh->hot[t], obj);
}

/* The back edges of the loops holding position pc of func (flags per edge; NULL: none): a
 * value that K reaches only over them is K in a later pass of those loops, not in the pass
 * the frame is in. A loop after the exit that walks the ∀'s range from a pointer the frame
 * holds now (wget's res_parse: memchr's line end bounds a scan from p, and p becomes the line
 * end only in the outer loop's next pass) reads the range again by K, although its pointer is
 * computed from K over the outer loop's back edge (k_walks' address test reads this pass's
 * K). */
static uint8_t *this_pass_edges(merge_ctx *m, uint32_t func, uint32_t pc) {
  const ir_function *fn = &m->prog->funcs[func];
  const merge_loops *l = merge_loops_of(m, func);
  uint32_t at = merge_block_of(fn, pc);
  if (!l || at >= l->nblocks || l->innermost[at] == MERGE_NO_LOOP) return NULL;
  uint8_t *skip = xcalloc(fn->nedges + 1, 1);
  for (uint32_t lp = l->innermost[at]; lp != MERGE_NO_LOOP; lp = l->loops[lp].parent)
    for (uint32_t b = 0; b < fn->nblocks && b < l->nblocks; b++) {
      if (!l->loops[lp].body[b]) continue;
      for (uint32_t k = 0, ne = ir_block_nedges(fn, b); k < ne; k++) {
        uint32_t edge = ir_block_edge(fn, b, k);
        skip[edge] |= fn->edges[edge].target == l->loops[lp].header;
      }
    }
  return skip;
}

/* The object every pointer the reachable returns of fh's frame return points into (a constant,
 * NULL, left out): json-c's strchr returns a pointer into the string it scanned. NULL: none or
 * unknown. */
static const mem_object *returned_object(const exit_info *e, const frame_at *at) {
  const ir_function *fn = at->fn;
  const mem_object *obj = NULL;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i] || in->op != IR_RET || !in->nops) continue;
    const ir_operand *o = &fn->operands[in->ops];
    if (o->kind != IR_OPND_REG) continue;
    const mem_object *p = pointee(at, o);
    if (!p || (obj && p != obj)) return NULL;
    obj = p;
  }
  return obj;
}

/* The loads of e's reachable code that read K (the flags hot_reads gives for k_hot, NULL when
 * none), after propagating K over the frame's registers (into k, from k_hot's loads): a store at
 * an address computed from K (json_pointer_get's `*endp = '\0'` after strchr) writes a cell K
 * selects, so the object it writes (when known) joins k_hot — its later loads read K, as loads
 * of a local holding K do — and K is propagated again from its loads. */
static uint8_t *k_reads(const exit_info *e, const frame_at *at, const ir_function *fn, uint64_t *k,
                        obj_set *k_hot) {
  for (;;) {
    uint8_t *reads = hot_reads(e, at, k_hot, false);
    propagate(fn, e, k, reads, false);
    bool grew = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->op != IR_STORE || in->nops < 2 || !site_reads(fn, in, k)) continue;
      const mem_object *o = pointee(at, &fn->operands[in->ops + 1]);
      if (!o || o->read_only || obj_has(k_hot, o)) continue;
      obj_add(k_hot, o);
      grew = true;
    }
    if (!grew) return reads;
    free(reads);
  }
}

/* The objects written by the stores of e's reachable code at an address computed from a
 * merged value (taint v; the object known, writable, not yet in v_hot): `str[len] = '\0'`
 * after a merged strspn. Each member writes the cell its own value selects; the merged state
 * writes at an ite, so every later load of the object reads an ite over the cells the value may
 * select, guarded by the members' conditions — merged memory, as a store at K's address makes
 * the object hold K (k_reads). Each is added to every set of v_hot (NULL ends it); returns how
 * many were added. */
static uint32_t v_stores(const exit_info *e, const frame_at *at, const uint64_t *v,
                         obj_set *const *v_hot, obj_set *stored) {
  const ir_function *fn = at->fn;
  uint32_t added = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i] || in->op != IR_STORE || in->nops < 2 || !site_reads(fn, in, v)) continue;
    const mem_object *o = pointee(at, &fn->operands[in->ops + 1]);
    if (!o || o->read_only || obj_has(v_hot[0], o)) continue;
    for (size_t k = 0; v_hot[k]; k++) obj_add(v_hot[k], o);
    obj_add(stored, o);
    added++;
  }
  return added;
}

/* The reads of e's reachable code in the frame at `at` of an object in stored (v_stores):
 * its loads, and its calls passing a pointer to one (the callee reads it: strtod(str) after
 * `str[len] = '\0'`). */
static uint32_t v_reads(const exit_info *e, const frame_at *at, const obj_set *stored) {
  if (!stored->n) return 0;
  const ir_function *fn = at->fn;
  uint32_t found = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i]) continue;
    if (in->op == IR_LOAD && in->nops) {
      const mem_object *o = pointee(at, &fn->operands[in->ops]);
      found += o && obj_has(stored, o);
    } else if (in->op == IR_CALL) {
      for (uint32_t k = 1; k < in->nops; k++) {
        const ir_operand *a = &fn->operands[in->ops + k];
        const mem_object *o = a->kind == IR_OPND_REG ? pointee(at, a) : NULL;
        if (o && obj_has(stored, o)) {
          found++;
          break;
        }
      }
    }
  }
  return found;
}

/* A value every member holds as the same constant (known), for folding a frame's branches. */
typedef struct known_value {
  bool known;
  u128 value;
} known_value;

/* The value of operand o, when constant: an immediate or a known register. */
static known_value operand_known(const ir_program *p, const ir_operand *o, const known_value *k) {
  if (o->kind == IR_OPND_CONST) return (known_value){true, ir_const_value(p, o)};
  if (o->kind == IR_OPND_REG) return k[o->index];
  return (known_value){false, 0};
}

static bool icmp_holds(uint8_t pred, u128 a, u128 b, unsigned width) {
  u128 sign = (u128)1 << (width - 1);
  bool slt = (a ^ sign) < (b ^ sign), sle = (a ^ sign) <= (b ^ sign);
  switch (pred) {
  case IR_ICMP_EQ: return a == b;
  case IR_ICMP_NE: return a != b;
  case IR_ICMP_UGT: return a > b;
  case IR_ICMP_UGE: return a >= b;
  case IR_ICMP_ULT: return a < b;
  case IR_ICMP_ULE: return a <= b;
  case IR_ICMP_SGT: return !sle;
  case IR_ICMP_SGE: return !slt;
  case IR_ICMP_SLT: return slt;
  default: return sle;
  }
}

/* e's reachable code with the branches folded whose condition every member computes to the
 * same constant (issue 26: libtasn1's `if (asn1_get_tag_der(...) == ASN1_SUCCESS)` after a
 * group that returns ASN1_DER_ERROR in every member: the body's sites are no query for any
 * of them, merged or forked). k holds, per register, the value known at the position (the
 * same constant in every member, its definition not reached again; the call's result when
 * the callee returns one constant); comparisons of known values are folded (to a fixpoint),
 * and a conditional branch on a known condition reaches its one side only. Returns a new
 * exit_info (the caller frees it and its arrays) when folding removed code, else NULL.
 * *ret receives the one constant the reachable returns give (not known: none or several). */
static exit_info *exit_folded(const ir_program *p, const ir_function *fn, const exit_info *e,
                              known_value *k, known_value *ret) {
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->dst == IR_NONE || k[in->dst].known || in->nops < 1) continue;
      const ir_operand *o = &fn->operands[in->ops];
      known_value a = operand_known(p, o, k), b = {false, 0};
      if (!a.known) continue;
      if (in->op == IR_ICMP && in->nops == 2 && o->width >= 1 && o->width <= 128) {
        b = operand_known(p, o + 1, k);
        if (!b.known) continue;
        u128 mask = expr_mask(o->width);
        k[in->dst] =
            (known_value){true, icmp_holds(in->aux, a.value & mask, b.value & mask, o->width)};
        changed = true;
      } else if ((in->op == IR_ZEXT || in->op == IR_TRUNC || in->op == IR_MOVE) && in->width >= 1 &&
                 in->width <= 128 && o->width <= 128) {
        k[in->dst] = (known_value){true, a.value & expr_mask(o->width) & expr_mask(in->width)};
        changed = true;
      }
    }
  }
  uint8_t *reach = xcalloc(fn->ninsts + 1, 1), *reach_block = xcalloc(fn->nblocks + 1, 1);
  uint8_t *whole = xcalloc(fn->nblocks + 1, 1);
  uint32_t *work = xmalloc((fn->nblocks + 1) * sizeof *work), nwork = 0;
  uint32_t start = merge_block_of(fn, e->inst);
  for (uint32_t i = e->inst; i < fn->blocks[start].first + fn->blocks[start].count; i++)
    reach[i] = 1;
  reach_block[start] = 1;
  work[nwork++] = start;
  while (nwork) {
    uint32_t b = work[--nwork];
    const ir_inst *t = &fn->insts[fn->blocks[b].first + fn->blocks[b].count - 1];
    known_value c = {false, 0};
    if (t->op == IR_CONDBR && t->nops) c = operand_known(p, &fn->operands[t->ops], k);
    for (uint32_t j = 0, n = ir_block_nedges(fn, b); j < n; j++) {
      if (c.known && j != ((c.value & 1) ? 0u : 1u)) continue; /* the true side first */
      uint32_t to = fn->edges[ir_block_edge(fn, b, j)].target;
      if (whole[to]) continue;
      whole[to] = reach_block[to] = 1;
      for (uint32_t i = 0; i < fn->blocks[to].count; i++) reach[fn->blocks[to].first + i] = 1;
      work[nwork++] = to;
    }
  }
  free(work);
  free(whole);
  *ret = (known_value){false, 0};
  bool any_ret = false, one = true;
  for (uint32_t i = 0; i < fn->ninsts && one; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!reach[i] || in->op != IR_RET) continue;
    known_value v =
        in->nops ? operand_known(p, &fn->operands[in->ops], k) : (known_value){false, 0};
    if (in->nops && !v.known && fn->operands[in->ops].kind == IR_OPND_REG) {
      /* a phi: the one constant its reachable incoming moves carry */
      uint32_t r = fn->operands[in->ops].index;
      bool seen = false;
      v = (known_value){true, 0};
      for (uint32_t b = 0; b < fn->nblocks && v.known; b++)
        for (uint32_t j = 0, n = reach_block[b] ? ir_block_nedges(fn, b) : 0; j < n; j++) {
          const ir_edge *ed = &fn->edges[ir_block_edge(fn, b, j)];
          for (uint32_t mv = 0; mv < ed->nmoves; mv++) {
            const ir_move *move = &fn->moves[ed->moves + mv];
            if (move->dst != r) continue;
            known_value s = operand_known(p, &move->src, k);
            if (!s.known || (seen && s.value != v.value)) v.known = false;
            else
              v.value = s.value, seen = true;
          }
        }
      v.known &= seen;
    }
    one = v.known && (!any_ret || v.value == ret->value);
    *ret = v, any_ret = true;
  }
  if (!one || !any_ret) *ret = (known_value){false, 0};
  bool same = true;
  for (uint32_t i = 0; i < fn->ninsts && same; i++) same = reach[i] == e->reach[i];
  if (same) {
    free(reach);
    free(reach_block);
    return NULL;
  }
  exit_info *f = xmalloc(sizeof *f);
  *f = (exit_info){e->func, e->inst, reach, reach_block, 0};
  for (uint32_t i = 0; i < fn->ninsts; i++) f->sites += reach[i] && is_site(fn, &fn->insts[i]);
  return f;
}

/* The loads flagged in reads (NULL: none) that read a pinned object (pins->objs): one at an
 * address computed from K (taint k) is unflagged — it reads the cells K selects, priced as a
 * read at K, and a pinned term tied to K is no more costly there (chained memspn's second scan
 * from s + K, n pinned to K in every member); returns how many others there are (counted only
 * if count). */
static uint32_t pinned_reads(const frame_at *at, const pin_set *pins, const uint64_t *k,
                             uint8_t *reads, bool count) {
  if (!reads || !pins->objs.n) return 0;
  const ir_function *fn = at->fn;
  uint32_t found = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (!reads[i] || in->op != IR_LOAD || !in->nops) continue;
    const ir_operand *addr = &fn->operands[in->ops];
    const mem_object *o = pointee(at, addr);
    if (!o || !obj_has(&pins->objs, o)) continue;
    if (addr->kind == IR_OPND_REG && merge_reg_in(k, addr->index)) reads[i] = 0;
    else
      found += count;
  }
  return found;
}

/* The frame at `depth` of the group, from its position (the exit, or just after the call
 * that made the frame above) on, callees included: adds its query sites and those reading
 * what the merge makes costly to *counts; returned[t] (in: the callee returns a value of
 * taint t, out: this frame does) — a costly return value taints the call's result; *ret_obj
 * likewise the object the returned pointer points into (NULL: unknown). forall: the merge
 * adds a ∀ over forall_objs (its known objects: the loads that may make a walk). k_hot is
 * hot[TAINT_K], grown by the objects this frame stores into at an address computed from K
 * (k_reads); v_hot (NULL-ended: the merged-memory sets) and v_stored grown by those it stores
 * into at an address computed from a merged value (v_stores). */
static void estimate_frame(merge_ctx *m, callee_walk *w, state *const *group, size_t n,
                           uint32_t depth, const obj_set *hot[NTAINTS], obj_set *k_hot,
                           obj_set *const *v_hot, obj_set *v_stored, merge_cheap_fn cheap,
                           void *arg, bool forall, const obj_set *forall_objs, const pin_set *pins,
                           merge_estimate *est, site_counts *counts, bool returned[NTAINTS],
                           const mem_object **ret_obj, known_value *ret_const, uint64_t *tuple) {
  const state_frame *f = &group[0]->frames[depth];
  const ir_function *fn = &m->prog->funcs[f->func];
  bool top = depth + 1 == group[0]->nframes;
  uint32_t pc = top ? f->pc : f->pc + 1;
  if (pc >= fn->ninsts) {
    *ret_const = (known_value){false, 0};
    return;
  }
  const exit_info *e = exit_of(m, f->func, pc);
  /* the registers the frame's code from pc defines again (a loop's): not known there */
  uint8_t *redefined = xcalloc(fn->nregs + 1, 1);
  for (uint32_t i = 0; i < fn->ninsts; i++)
    if (e->reach[i] && fn->insts[i].dst < fn->nregs) redefined[fn->insts[i].dst] = 1;
  for (uint32_t b = 0; b < fn->nblocks; b++)
    for (uint32_t j = 0, nb = e->reach_block[b] ? ir_block_nedges(fn, b) : 0; j < nb; j++) {
      const ir_edge *ed = &fn->edges[ir_block_edge(fn, b, j)];
      for (uint32_t mv = 0; mv < ed->nmoves; mv++)
        if (fn->moves[ed->moves + mv].dst < fn->nregs) redefined[fn->moves[ed->moves + mv].dst] = 1;
    }
  known_value *known = xcalloc(fn->nregs + 1, sizeof *known);
  if (!top && fn->insts[f->pc].dst < fn->nregs) known[fn->insts[f->pc].dst] = *ret_const;
  const merge_liveness *live = liveness_of(m, f->func);
  size_t words = (fn->nregs + 63) / 64 + 1;
  uint64_t *taint[NTAINTS];
  for (int t = 0; t < NTAINTS; t++) {
    taint[t] = xcalloc(words, sizeof **taint);
    if (!top && returned[t] && fn->insts[f->pc].dst != IR_NONE)
      merge_reg_add(taint[t], fn->insts[f->pc].dst);
  }
  expr **vals = xmalloc(n * sizeof *vals);
  uint64_t *scratch = xmalloc(n * sizeof *scratch);
  for (uint32_t reg = 0; reg < f->nregs && reg < fn->nregs; reg++) {
    bool same = true, missing = false, concrete = true;
    for (size_t j = 0; j < n; j++) {
      vals[j] = group[j]->frames[depth].regs[reg];
      same &= vals[j] == vals[0];
      missing |= !vals[j];
      concrete &= vals[j] && expr_is_const(vals[j]);
    }
    if (same && concrete && !redefined[reg]) known[reg] = (known_value){true, vals[0]->u.value};
    if (same || missing || !merge_live_before(live, pc, reg)) continue;
    if (cheap && cheap(m, vals, n, arg)) { /* a template: free, but it may split the state */
      merge_reg_add(taint[TAINT_K], reg);
      continue;
    }
    merge_reg_add(taint[TAINT_V], reg);
    merge_reg_add(taint[TAINT_A], reg);
    if (!concrete) merge_reg_add(taint[TAINT_S], reg);
    est->costly_regs++;
    size_t d = distinct_values(vals, n, scratch);
    if (d > est->arms) est->arms = d;
    for (size_t j = 0; j < n && concrete; j++)
      tuple[j] = (tuple[j] ^ vals[j]->hash) * 0x100000001b3ULL;
  }
  free(vals);
  free(scratch);
  free(redefined);
  exit_info *folded = exit_folded(m->prog, fn, e, known, ret_const);
  if (folded) e = folded;
  frame_hot fh = {frame_at_of(m, group[0], f, pc), {0}};
  if (!top) fh.at.call_dst = fn->insts[f->pc].dst, fh.at.call_obj = *ret_obj;
  uint8_t *forall_loads = NULL, *kl = NULL;
  uint64_t *k_pass = xmalloc(words * sizeof *k_pass); /* see this_pass_edges */
  memcpy(k_pass, taint[TAINT_K], words * sizeof *k_pass);
  site_counts here = {0};
  for (int t = 0; t < NTAINTS; t++) {
    fh.hot[t] = hot[t];
    uint8_t *reads = t == TAINT_L   ? NULL /* from K's loads only */
                     : t == TAINT_K ? k_reads(e, &fh.at, fn, taint[TAINT_K], k_hot)
                                    : hot_reads(e, &fh.at, hot[t], hot[t]->n || hot[TAINT_V]->n);
    if (t == TAINT_V || t == TAINT_A || t == TAINT_S)
      est->pinned += pinned_reads(&fh.at, pins, taint[TAINT_K], reads, t == TAINT_V);
    if (kl && !reads) reads = xcalloc(fn->ninsts + 1, 1);
    for (uint32_t i = 0; kl && i < fn->ninsts; i++) reads[i] |= kl[i];
    propagate(fn, e, taint[t], reads, false);
    /* a store at a merged address makes its object merged memory: its loads read V too */
    while (t == TAINT_V && v_stores(e, &fh.at, taint[TAINT_V], v_hot, v_stored)) {
      free(reads);
      reads = hot_reads(e, &fh.at, hot[t], true);
      pinned_reads(&fh.at, pins, taint[TAINT_K], reads, false);
      for (uint32_t i = 0; kl && i < fn->ninsts; i++) reads[i] |= kl[i];
      propagate(fn, e, taint[t], reads, false);
    }
    if (t == TAINT_V) here.vreads += v_reads(e, &fh.at, v_stored);
    if (t == TAINT_K) {
      uint8_t *skip = this_pass_edges(m, f->func, pc);
      propagate_skip(fn, e, k_pass, reads, false, skip);
      free(skip);
      kl = k_loads(fn, e, taint[TAINT_K], &here.kloads);
    }
    if (t == TAINT_A) forall_loads = reads;
    else
      free(reads);
    returned[t] = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      if (!e->reach[i] || in->op != IR_RET || !in->nops) continue;
      const ir_operand *o = &fn->operands[in->ops];
      returned[t] |= o->kind == IR_OPND_REG && merge_reg_in(taint[t], o->index);
    }
  }
  for (uint32_t i = 0; i < fn->ninsts; i++) { /* the frames' own sites, for the ∀'s test */
    const ir_inst *in = &fn->insts[i];
    if (!e->reach[i] || !is_site(fn, in)) continue;
    bool v = site_reads(fn, in, taint[TAINT_V]),
         at_k = forall && site_reads(fn, in, taint[TAINT_L]);
    est->frame_sites++;
    est->frame_forall += (!v || at_k) && site_reads(fn, in, taint[TAINT_A]);
  }
  free(known);
  free(kl);
  frame_calls(w, fn, e, taint, frame_arg_hot, &fh, 0, &here);
  /* the ∀'s loads of this frame: those whose object is known to be one of the ∀'s (an
   * unknown one counts as costly above, but does not make a walk) */
  for (uint32_t i = 0; forall_loads && i < fn->ninsts; i++) {
    const mem_object *o = forall_loads[i] && fn->insts[i].op == IR_LOAD
                              ? pointee(&fh.at, &fn->operands[fn->insts[i].ops])
                              : NULL;
    forall_loads[i] = o && obj_has(forall_objs, o);
  }
  here.walks += forall_objs->n ? k_walks(m, f->func, e, taint, k_pass, forall_loads) : 0;
  *ret_obj = returned_object(e, &fh.at);
  free(k_pass);
  free(forall_loads);
  est->callee_sites += here.sites - e->sites;
  counts_add(counts, &here);
  for (int t = 0; t < NTAINTS; t++) free(taint[t]);
  if (folded) free(folded->reach), free(folded->reach_block), free(folded);
}

/* What a query reading the ∀'s objects weighs against a plain one, per solver request (r).
 * A calibration, not a measurement: the campaign's runs before the ∀ slice (RESULTS.md) spent
 * ~10 ms per ∀ query against < 0.5 ms per plain Z3 call, i.e. far more; 5 is the weight at
 * which test/merge's drivers decide as they should (forall_read.c declined — three of its
 * eleven later sites read the ∀'s buffer — memspn_props.c and chained memspn merged). */
enum { MERGE_FORALL_WEIGHT = 5 };

/* The queries of each kind (∀ or CFG-merged states' ones, and the plain ones) the run must
 * have asked before their cost is reported as measured, and the largest weight reported
 * (×100). */
enum { MERGE_MEASURED_MIN = 8 };
#define MERGE_MEASURED_MAX_X100 ((uint64_t)1000000)

/* The mean effort of one kind of query (effort_a over queries_a) over another's, in
 * hundredths, at least floor_x100 and at most MERGE_MEASURED_MAX_X100; 0 while fewer than
 * MERGE_MEASURED_MIN of either were asked. The other kind's mean counts as at least 1. */
static uint64_t mean_ratio_x100(uint64_t effort_a, uint64_t queries_a, uint64_t effort_b,
                                uint64_t queries_b, uint64_t floor_x100) {
  if (queries_a < MERGE_MEASURED_MIN || queries_b < MERGE_MEASURED_MIN) return 0;
  double mean_a = (double)effort_a / (double)queries_a;
  double mean_b = (double)effort_b / (double)queries_b;
  if (mean_b < 1) mean_b = 1;
  double x100 = 100 * mean_a / mean_b;
  if (x100 > (double)MERGE_MEASURED_MAX_X100) return MERGE_MEASURED_MAX_X100;
  return x100 < (double)floor_x100 ? floor_x100 : (uint64_t)x100;
}

/* From the run: the mean solver effort (qs_effort_split: Z3's resource count, deterministic)
 * of the ∀ queries the engine asked so far over that of its plain queries, in hundredths; 0
 * while fewer than MERGE_MEASURED_MIN of either were asked. A plain query answered without
 * Z3 (a cache, independence) costs 0: the mean is what a query of the run costs. Reported
 * with the estimate (--dump-tree), not weighed: it depends on the solver's configuration as
 * much as on the program (chained memspn at 16: 2.8 with the relaxed stage, 27.7 without it,
 * which would decline its second merge), and on json-c pointer_get and wget res_parse, where
 * ∀ queries cost 13–64× plain ones, the merges that mattered were taken before any ∀ query
 * was asked (docs/merging.md). */
static uint64_t measured_forall_x100(const qsolver *s) {
  qs_effort_split e = qs_effort_split_of(s);
  return mean_ratio_x100(e.forall_effort, e.forall_queries, e.effort - e.forall_effort,
                         e.queries - e.forall_queries, 100);
}

/* From the run: the mean solver effort of the plain queries asked by states descending from a
 * CFG merge (qs_effort_split's tagged queries: the interpreter tags the queries of a state
 * whose merge_cfg_descendant is set) over that of the other plain queries, in hundredths; 0
 * while fewer than MERGE_MEASURED_MIN of either were asked. Reported with a CFG fallback's
 * estimate (--dump-tree), not weighed: the merged states' queries come later on their paths
 * than the average query, and the weight does not tell a merge that pays from one that does
 * not — on wget html_tags (capacity 5) it is 3.05, on APR strtoi64 37–69, on collapse_spaces
 * 33–40, and every fallback merge there pays (html_tags and strtoi64 forked: 15% and 5% more
 * effort); multiplied into M it declined merges that pay on html_tags, base64 and
 * unescape_url (docs/merging.md "Merge decisions"). */
static uint64_t measured_cfg_x100(const qsolver *s) {
  qs_effort_split e = qs_effort_split_of(s);
  return mean_ratio_x100(e.tagged_effort, e.tagged_queries,
                         e.effort - e.forall_effort - e.tagged_effort,
                         e.queries - e.forall_queries - e.tagged_queries, 1);
}

const char *merge_decide(merge_ctx *m, state *const *group, size_t n, const expr *forall_body,
                         merge_cheap_fn cheap, void *arg, merge_estimate *est) {
  merge_estimate local;
  if (!est) est = &local;
  *est = (merge_estimate){.group = n};
  obj_set mem_hot = {0}, all_hot = {0}, sym_hot = {0};
  uint64_t *tuple = xcalloc(n, sizeof *tuple); /* per member: a hash of its constant costly
                                                  values (registers and bytes) */
  obj_set k_hot = {0};                         /* objects holding a differing template byte */
  memory_costly(m, group, n, cheap, arg, &mem_hot, &sym_hot, &k_hot, &est->arms, tuple);
  pin_set pins = pins_of(m, group, n);
  if (pins.n) {
    pinned_objects(m, group[0], &pins, &mem_hot, &sym_hot);
  }
  est->memory = mem_hot.n > 0;
  for (size_t k = 0; k < mem_hot.n; k++) obj_add(&all_hot, mem_hot.items[k]);
  obj_set forall_objs = {0}, none = {0};
  if (forall_body) forall_objects(m, group[0], forall_body, &forall_objs);
  for (size_t k = 0; k < forall_objs.n; k++) obj_add(&all_hot, forall_objs.items[k]);
  all_hot.any |= forall_objs.any;
  if (forall_objs.any) forall_objs.n = 0, forall_objs.any = false; /* not told: no walk */
  const obj_set *hot[NTAINTS] = {&k_hot, &none, &mem_hot, &all_hot, &sym_hot};
  obj_set *const v_hot[] = {&mem_hot, &all_hot, &sym_hot, NULL}; /* grown by v_stores */
  obj_set v_stored = {0};                                        /* the objects v_stores added */
  bool returned[NTAINTS] = {false};
  const mem_object *ret_obj = NULL;
  known_value ret_const = {false, 0}; /* what the frame above returns, when one constant */
  callee_walk w = {m, MERGE_DECIDE_CALLEE_BUDGET, xcalloc(m->prog->nfuncs + 1, 1)};
  site_counts counts = {0};
  uint32_t depth = group[0]->nframes;
  for (uint32_t k = 0; k <= MERGE_DECIDE_CALLERS && depth-- > 0; k++)
    estimate_frame(m, &w, group, n, depth, hot, &k_hot, v_hot, &v_stored, cheap, arg,
                   forall_body != NULL, &forall_objs, &pins, est, &counts, returned, &ret_obj,
                   &ret_const, tuple);
  if (est->pinned) { /* the pinned terms are read later: merged values, one per member */
    uint64_t *sorted = xmalloc(n * sizeof *sorted);
    for (size_t k = 0; k < pins.n; k++) {
      for (size_t j = 0; j < n; j++) {
        sorted[j] = (uint64_t)pins.values[k * n + j];
        tuple[j] = (tuple[j] ^ (sorted[j] + 0x9e3779b97f4a7c15ULL * (k + 1))) * 0x100000001b3ULL;
      }
      qsort(sorted, n, sizeof *sorted, cmp_u64);
      size_t d = 1;
      for (size_t j = 1; j < n; j++) d += sorted[j] != sorted[j - 1];
      if (d > est->arms) est->arms = d;
    }
    free(sorted);
  }
  free(pins.terms);
  free(pins.values);
  free(pins.objs.items);
  free(w.on_chain);
  qsort(tuple, n, sizeof *tuple, cmp_u64);
  est->distinct = 1;
  for (size_t j = 1; j < n; j++) est->distinct += tuple[j] != tuple[j - 1];
  free(tuple);
  free(mem_hot.items);
  free(all_hot.items);
  free(sym_hot.items);
  free(forall_objs.items);
  free(k_hot.items);
  free(v_stored.items);
  est->sites = counts.sites;
  est->value_sites = counts.v;
  est->hot_sites = counts.a > counts.v ? counts.a : counts.v;
  est->concrete_sites = counts.c;
  est->k_sites = counts.k;
  if (counts.kloads && est->arms < n) est->arms = n; /* a read at K: one cell per value */
  /* a read of an object stored into at a merged index: the cell is selected by an ite whose
   * guards are the members' own conditions (the CFG merge's ite follows the execution tree,
   * one leaf per member, whatever the members' distinct values), so each load reads an ite
   * over up to n guarded cells where a forked state reads one */
  if (counts.vreads && est->arms < n) est->arms = n;
  est->k_walks = forall_body ? counts.walks : 0;
  est->ratio_x100 = 100;
  if (forall_body) {
    const qs_quant_stats *q = qs_quant_stats_of(m->solver);
    est->ratio_x100 = 200;
    if (q->asked >= 8) {
      /* procedure runs per ∀ query asked; --validate-qsolver's re-checks go to Z3, not
       * through the procedure, so the ratio is the same with validation on or off */
      est->ratio_x100 = q->queries * 100 / q->asked;
      if (est->ratio_x100 < 100) est->ratio_x100 = 100;
    }
  }
  /* in hundredths of a plain query: forked, each of the n states asks every later query but
   * those reading only values constant in it; merged, one state asks each once, a query
   * over an ite weighing max(r, 2), one reading the ∀'s objects r · MERGE_FORALL_WEIGHT —
   * and when a later query reads a costly register, the merged state is split again by it,
   * into as many states as the members have distinct costly register values, each asking
   * them all */
  uint64_t total = counts.sites, values = counts.v, forall = est->hot_sites - counts.v;
  uint64_t w_values = est->ratio_x100 > 200 ? est->ratio_x100 : 200;
  if (w_values < est->arms * 100) w_values = est->arms * 100;
  est->measured_x100 = forall_body ? measured_forall_x100(m->solver) : 0;
  est->measured_cfg_x100 = forall_body ? 0 : measured_cfg_x100(m->solver);
  uint64_t w_forall = est->ratio_x100 * MERGE_FORALL_WEIGHT;
  uint64_t split = values ? est->distinct : 1;
  est->forked_cost = (uint64_t)n * (total - counts.c) * 100;
  uint64_t plain = (total - values - forall) * 100;
  /* a value read at K in a state that carries a ∀ is both: an ite over the cells K may
   * select, and (when they are the ∀'s) a read the ∀ constrains */
  uint64_t at_k = forall_body && counts.l < values ? counts.l : forall_body ? values : 0;
  uint64_t w_at_k = w_forall > w_values ? w_forall : w_values;
  est->merged_cost =
      split * (plain + (values - at_k) * w_values + at_k * w_at_k + forall * w_forall);
  /* the ∀ is paid by every query reading its objects in every state the merged one becomes,
   * which no group size amortizes: Kuznetsov's test for a hot variable, Q_∀ · r > α · Q_t,
   * over the group's frames' own sites (those right after the exit) */
  if (2 * (uint64_t)est->frame_forall * est->ratio_x100 > (uint64_t)est->frame_sites * 100)
    return "declined: quantified array read by later queries";
  /* declined when merged > α · forked, α = 1/2 (Kuznetsov's threshold) */
  if (2 * est->merged_cost > est->forked_cost) {
    if (2 * split * (plain + forall * 100 + values * w_values) > est->forked_cost)
      return "declined: merged values read by later queries";
    return "declined: quantified array read by later queries";
  }
  /* a later loop bounded by K that reads the ∀'s range again splits the merged state into
   * one state per value of K — n of them (the members' counts are distinct) — each asking
   * every later query with the ∀: the template value K is not free then */
  if (est->k_walks && split < n) {
    est->merged_cost = est->merged_cost / split * n;
    if (2 * est->merged_cost > est->forked_cost)
      return "declined: a later loop walks the quantified range again by K";
  }
  return NULL;
}

/* A CFG merge's states carry the disjunction of the members' paths into every later query
 * and into the model of their test; what the merge saves is the forked members' own later
 * queries. When each member has one to MERGE_CFG_BARREN_SITES query sites left (Q_t − Q_c:
 * an error exit returning to a caller that only tests the result), the merge saves at most
 * n − 1 such queries, each of which a forked state answers on a conjunction of literals its
 * caches mostly know, while the merged state asks its query over the n paths' disjunction.
 * wget base64 (capacity 5): 18 such fallbacks merged (1 later site each), their merged states'
 * 18 queries cost 0.63 M of Z3 effort (35,000 each, the run's plain query 11,000); declined,
 * the run's effort went 16.44 M -> 14.89 M (forking: 14.86 M); test/merge/early/length.c's
 * exit returning -2 (libtasn1's shape, 5 states): 110,652 -> 100,152 (forking: 98,392). */
enum { MERGE_CFG_BARREN_SITES = 1 };

/* Does func reach a call of target within depth calls (func itself counting as a call of
 * it)? */
static bool reaches_call(const ir_program *p, uint32_t func, uint32_t target, uint32_t depth,
                         uint8_t *on_chain) {
  if (func == target) return true;
  const ir_function *fn = &p->funcs[func];
  if (fn->is_decl || on_chain[func] || depth == 0) return false;
  on_chain[func] = 1;
  bool found = false;
  for (uint32_t i = 0; i < fn->ninsts && !found; i++) {
    const ir_inst *in = &fn->insts[i];
    found = in->op == IR_CALL && in->u.call.func != IR_NONE &&
            reaches_call(p, in->u.call.func, target, depth - 1, on_chain);
  }
  on_chain[func] = 0;
  return found;
}

/* Does the frame's register reg hold, at its position, a value every member has: live there
 * and set before the call the frame is in (the members forked below it), not that call's
 * result? */
static bool before_the_call(const frame_at *at, uint32_t reg) {
  const state_frame *f = at->f;
  return reg != at->fn->insts[f->pc].dst && reg < f->nregs && f->regs[reg] &&
         merge_live_before(at->live, at->pc, reg);
}

/* Does o hold, at the frame's position, an address the same in every member: a base set
 * before the call, moved or offset by constants or by values set before it? Not `s + count`
 * or `p`, count or p the result of the call the members are in (or of a later one): a later
 * call there starts where each member's walk ended (chained memspn's second scan,
 * drivers/memspn_twice.c), on bytes their paths did not all decide. What is not followed (a
 * phi, a load) counts as the same. */
static bool same_start(const frame_at *at, const ir_operand *o, int depth) {
  if (o->kind != IR_OPND_REG || before_the_call(at, o->index)) return true;
  uint32_t d = at->def[o->index];
  if (o->index == at->fn->insts[at->f->pc].dst) return false;
  if (d == IR_NONE || depth > 16) return true;
  const ir_inst *in = &at->fn->insts[d];
  if (in->op == IR_CALL) return false;
  if ((in->op != IR_GEP && in->op != IR_MOVE) || !in->nops) return true;
  for (uint32_t i = 1; in->op == IR_GEP && i < in->nops; i++) {
    const ir_operand *idx = &at->fn->operands[in->ops + i];
    if (idx->kind == IR_OPND_REG && !before_the_call(at, idx->index)) return false;
  }
  return same_start(at, &at->fn->operands[in->ops], depth + 1);
}

/* The calls after the exit, in the group's callers (from just after their call on), that
 * run the exit's function again on an object the members' own paths constrain: the pointer
 * an argument holds points into an object bound to a symbolic array that a conjunct of some
 * member's path condition after the group's common prefix reads, and the callee is the exit's
 * function or calls it (MERGE_DECIDE_CALL_DEPTH calls deep). A CFG merge's members are the
 * paths of a loop of that function over those bytes, each deciding the loop's branches its
 * own way; the second run takes the same branches on the same bytes, so the merged state,
 * which holds only their disjunction, asks each of them again over the whole disjunction and
 * is split by them into the members' paths again, each carrying it, where a forked member's
 * path already decides them. APR unescape_url (capacity 5): the first apr_unescape_url
 * call's fallbacks (512 and 184 states) declined, pat's Z3 effort 1.74 M -> 1.35 M (none
 * 1.14 M), --merge=none's 696 paths. Where the second run's own exit merges the paths again
 * cheaply (its values equal: a bool), the merge would have paid: test/merge/decide/
 * rewalk_call.c returning only `*p == ':'` costs 0.27 M declined against 0.21 M merged at
 * capacity 4 (docs/merging.md "Merge decisions"). */
static uint32_t cfg_rewalks(merge_ctx *m, state *const *group, size_t n) {
  const state *st = group[0];
  if (st->nframes < 2) return 0;
  size_t common = st->npc;
  for (size_t j = 1; j < n; j++) {
    size_t k = 0;
    while (k < common && k < group[j]->npc && group[j]->pc[k] == st->pc[k]) k++;
    common = k;
  }
  /* one walk over every member's constraints past the common prefix: a walk per constraint
   * paid a fresh visited map each (13% of chained memspn's instructions under pat) */
  size_t nroots = 0;
  for (size_t j = 0; j < n; j++) nroots += group[j]->npc - common;
  expr **roots = xmalloc((nroots + 1) * sizeof *roots);
  nroots = 0;
  for (size_t j = 0; j < n; j++)
    for (size_t k = common; k < group[j]->npc; k++) roots[nroots++] = group[j]->pc[k];
  expr_array **arrays = NULL;
  size_t narrays = 0, cap = 0;
  expr_collect_arrays_of(roots, nroots, &arrays, &narrays, &cap);
  free(roots);
  obj_set objs = {0};
  for (size_t k = 0; k < st->nsymbolics; k++)
    for (size_t a = 0; a < narrays; a++)
      if (st->symbolics[k].array == arrays[a]) obj_add(&objs, st->symbolics[k].object);
  free(arrays);
  uint32_t loop_func = st->frames[st->nframes - 1].func, walks = 0;
  uint8_t *on_chain = xcalloc(m->prog->nfuncs + 1, 1);
  for (uint32_t depth = st->nframes - 1, k = 0; objs.n && k < MERGE_DECIDE_CALLERS && depth-- > 0;
       k++) {
    const state_frame *f = &st->frames[depth];
    const ir_function *fn = &m->prog->funcs[f->func];
    uint32_t pc = f->pc + 1;
    if (pc >= fn->ninsts) continue;
    const exit_info *e = exit_of(m, f->func, pc);
    frame_at at = frame_at_of(m, st, f, pc);
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      /* the frame's own call again (a loop around it) runs on the next part of the input */
      if (!e->reach[i] || i == f->pc || in->op != IR_CALL || in->u.call.func == IR_NONE) continue;
      bool on_objs = false;
      for (uint32_t a = 1; a < in->nops && !on_objs; a++) {
        const mem_object *o = pointee(&at, &fn->operands[in->ops + a]);
        on_objs = o && obj_has(&objs, o) && same_start(&at, &fn->operands[in->ops + a], 0);
      }
      walks += on_objs &&
               reaches_call(m->prog, in->u.call.func, loop_func, MERGE_DECIDE_CALL_DEPTH, on_chain);
    }
  }
  free(on_chain);
  free(objs.items);
  return walks;
}

const char *merge_decide_cfg(merge_ctx *m, state *const *group, size_t n, merge_estimate *est) {
  merge_estimate local;
  if (!est) est = &local;
  const char *declined = merge_decide(m, group, n, NULL, NULL, NULL, est);
  if (!declined && (est->rewalks = cfg_rewalks(m, group, n)) > 0) {
    /* the merged state becomes the members again, each asking over the disjunction: the
     * forked cost n times over (reported; the decline does not weigh it) */
    est->merged_cost = est->merged_cost / (est->value_sites ? est->distinct : 1) * n;
    declined = "declined: a later call walks the merged paths' bytes again";
  }
  /* with no site left the merged state asks nothing over the disjunction (its members'
   * tests come from their pause models): that merge costs nothing, and is taken */
  uint32_t left = est->sites - est->concrete_sites;
  if (!declined && left >= 1 && left <= MERGE_CFG_BARREN_SITES)
    declined = "declined: nothing left to ask after the exit";
  return declined;
}

uint32_t merge_decide_rewalks(merge_ctx *m, state *const *group, size_t n) {
  return n >= 2 ? cfg_rewalks(m, group, n) : 0;
}

/* Do operands a and b name the same value: one register, one constant, or one global or
 * function at one offset? */
static bool same_operand(const ir_program *prog, const ir_operand *a, const ir_operand *b) {
  if (a->kind != b->kind || a->width != b->width) return false;
  if (a->kind == IR_OPND_CONST) return prog->consts[a->index].value == prog->consts[b->index].value;
  return a->index == b->index && a->offset == b->offset;
}

/* Do operands a and b of func compare as one value: the same operand, or the results of two
 * loads of one width from addresses that are, or of two like casts of values that are (depth
 * such steps deep) — a byte read again: apr_fnmatch's `*pattern == '*'` in a loop's condition
 * and again in its body, `pattern` in memory (its address is passed on) and loaded anew for
 * each read, the byte sign-extended? */
static bool same_comparand(merge_ctx *m, uint32_t func, const ir_operand *a, const ir_operand *b,
                           int depth) {
  if (same_operand(m->prog, a, b)) return true;
  if (depth == 0 || a->kind != IR_OPND_REG || b->kind != IR_OPND_REG) return false;
  const ir_function *fn = &m->prog->funcs[func];
  const uint32_t *def = defs_of(m, func);
  uint32_t da = def[a->index], db = def[b->index];
  if (da == IR_NONE || db == IR_NONE) return false;
  const ir_inst *la = &fn->insts[da], *lb = &fn->insts[db];
  bool follow = la->op == IR_LOAD || la->op == IR_SEXT || la->op == IR_ZEXT || la->op == IR_TRUNC;
  return follow && la->op == lb->op && la->width == lb->width && la->nops && lb->nops &&
         same_comparand(m, func, &fn->operands[la->ops], &fn->operands[lb->ops], depth - 1);
}

/* The comparison (an ICMP of two operands) a conditional branch of func tests, or NULL. */
static const ir_inst *branch_compare(merge_ctx *m, uint32_t func, const ir_inst *br) {
  const ir_function *fn = &m->prog->funcs[func];
  if (br->op != IR_CONDBR || !br->nops) return NULL;
  const ir_operand *c = &fn->operands[br->ops];
  if (c->kind != IR_OPND_REG) return NULL;
  uint32_t d = defs_of(m, func)[c->index];
  if (d == IR_NONE || fn->insts[d].op != IR_ICMP || fn->insts[d].nops != 2) return NULL;
  return &fn->insts[d];
}

/* Is operand o of func the result of a call of klee_get_value* (through casts)? */
static bool from_get_value(merge_ctx *m, uint32_t func, const ir_operand *o) {
  static const char prefix[] = "klee_get_value";
  const ir_function *fn = &m->prog->funcs[func];
  for (int casts = 0; o->kind == IR_OPND_REG && casts < 4; casts++) {
    uint32_t d = defs_of(m, func)[o->index];
    if (d == IR_NONE) return false;
    const ir_inst *in = &fn->insts[d];
    if (in->op == IR_CALL) {
      if (in->u.call.func == IR_NONE) return false;
      const ir_function *callee = &m->prog->funcs[in->u.call.func];
      return callee->is_decl && strncmp(callee->name, prefix, sizeof prefix - 1) == 0;
    }
    if (in->op != IR_TRUNC && in->op != IR_ZEXT && in->op != IR_SEXT && in->op != IR_MOVE)
      return false;
    o = &fn->operands[in->ops];
  }
  return false;
}

bool merge_decide_concretized(merge_ctx *m, uint32_t func, uint32_t branch) {
  const ir_function *fn = &m->prog->funcs[func];
  if (branch >= fn->ninsts) return false;
  const ir_inst *cmp = branch_compare(m, func, &fn->insts[branch]);
  if (!cmp) return false;
  const ir_operand *o = &fn->operands[cmp->ops];
  return from_get_value(m, func, &o[0]) || from_get_value(m, func, &o[1]);
}

/* Do comparisons a and b of func compare the same two values (either order, any
 * predicate)? */
static bool same_comparands(merge_ctx *m, uint32_t func, const ir_inst *a, const ir_inst *b) {
  const ir_function *fn = &m->prog->funcs[func];
  const ir_operand *x = &fn->operands[a->ops], *y = &fn->operands[b->ops];
  enum { LOADS = 4 }; /* sext(load(load(&pattern))) */
  return (same_comparand(m, func, &x[0], &y[0], LOADS) &&
          same_comparand(m, func, &x[1], &y[1], LOADS)) ||
         (same_comparand(m, func, &x[0], &y[1], LOADS) &&
          same_comparand(m, func, &x[1], &y[0], LOADS));
}

/* Does operand phi of fn name a register an edge's move (a phi) sets to src on some edge? */
static bool phi_takes(const ir_program *prog, const ir_function *fn, const ir_operand *phi,
                      const ir_operand *src) {
  if (phi->kind != IR_OPND_REG) return false;
  for (uint32_t e = 0; e < fn->nedges; e++)
    for (uint32_t k = 0; k < fn->edges[e].nmoves; k++) {
      const ir_move *mv = &fn->moves[fn->edges[e].moves + k];
      if (mv->dst == phi->index && same_operand(prog, &mv->src, src)) return true;
    }
  return false;
}

/* The address operand of the one-byte load operand o of func is computed from, through casts
 * and arithmetic with a constant (depth such steps deep) — `(unsigned char)*q - '0'`'s q — or
 * NULL. A byte: a wider load is a count or a length (`i < n` in a loop's condition and `hi +
 * lo <= n` after it compare n, but never split its sides by n again). */
static const ir_operand *loaded_from(merge_ctx *m, uint32_t func, const ir_operand *o, int depth) {
  if (o->kind != IR_OPND_REG || depth == 0) return NULL;
  const ir_function *fn = &m->prog->funcs[func];
  uint32_t d = defs_of(m, func)[o->index];
  if (d == IR_NONE || !fn->insts[d].nops) return NULL;
  const ir_inst *in = &fn->insts[d];
  const ir_operand *x = &fn->operands[in->ops];
  switch (in->op) {
  case IR_LOAD: return in->width <= 8 ? x : NULL;
  case IR_SEXT:
  case IR_ZEXT:
  case IR_TRUNC: return loaded_from(m, func, x, depth - 1);
  case IR_ADD:
  case IR_SUB:
  case IR_AND:
  case IR_OR:
  case IR_XOR:
    if (in->nops != 2) return NULL;
    if (x[1].kind == IR_OPND_CONST) return loaded_from(m, func, &x[0], depth - 1);
    return x[0].kind == IR_OPND_CONST ? loaded_from(m, func, &x[1], depth - 1) : NULL;
  default: return NULL;
  }
}

/* Do comparisons a and b of func each read a value loaded from one address (the same
 * operand, loaded the same way, or a phi that takes the other's on some edge — the pointer
 * as the loop left it)? */
static bool same_byte(merge_ctx *m, uint32_t func, const ir_inst *a, const ir_inst *b) {
  const ir_function *fn = &m->prog->funcs[func];
  enum { STEPS = 6, LOADS = 4 };
  for (uint32_t i = 0; i < 2; i++) {
    const ir_operand *x = loaded_from(m, func, &fn->operands[a->ops + i], STEPS);
    for (uint32_t j = 0; x && j < 2; j++) {
      const ir_operand *y = loaded_from(m, func, &fn->operands[b->ops + j], STEPS);
      if (y && (same_comparand(m, func, x, y, LOADS) || phi_takes(m->prog, fn, x, y) ||
                phi_takes(m->prog, fn, y, x)))
        return true;
    }
  }
  return false;
}

merge_asked merge_decide_asked_again(merge_ctx *m, uint32_t func, uint32_t loop, uint32_t branch,
                                     uint32_t join) {
  const ir_function *fn = &m->prog->funcs[func];
  if (branch >= fn->ninsts || join >= fn->nblocks) return MERGE_ASKED_NOT;
  const ir_inst *cmp = branch_compare(m, func, &fn->insts[branch]);
  if (!cmp) return MERGE_ASKED_NOT;
  const merge_loops *l = merge_loops_of(m, func);
  uint32_t header = l->loops[loop].header;
  /* breadth-first from the join: marked 1, never walked, the loop's header — past it the
   * same registers hold the next iteration's values — and, for a join at the header, the
   * whole loop; marked 2 what is walked and whose branch is looked at */
  uint8_t *seen = xcalloc(fn->nblocks + 1, 1);
  uint32_t *work = xmalloc((fn->nblocks + 1) * sizeof *work), nwork = 0;
  seen[header] = 1;
  if (join == header) {
    for (uint32_t b = 0; b < fn->nblocks; b++)
      if (merge_loop_contains(l, loop, b)) seen[b] = 1, work[nwork++] = b;
  } else {
    seen[join] = 2, work[nwork++] = join;
  }
  merge_asked again = MERGE_ASKED_NOT;
  for (uint32_t k = 0; k < nwork && again != MERGE_ASKED_SAME; k++) {
    const ir_block *blk = &fn->blocks[work[k]];
    uint32_t last = blk->first + blk->count - 1;
    const ir_inst *c = seen[work[k]] == 2 && blk->count && last != branch
                           ? branch_compare(m, func, &fn->insts[last])
                           : NULL;
    if (c && same_comparands(m, func, cmp, c)) again = MERGE_ASKED_SAME;
    else if (c && !again && !merge_loop_contains(l, loop, work[k]) && same_byte(m, func, cmp, c))
      again = MERGE_ASKED_BYTE;
    for (uint32_t e = 0, n = ir_block_nedges(fn, work[k]); e < n; e++) {
      uint32_t to = fn->edges[ir_block_edge(fn, work[k], e)].target;
      if (!seen[to]) seen[to] = 2, work[nwork++] = to;
    }
  }
  free(seen);
  free(work);
  return again;
}

/* The edge of block `to`'s conditional branch that a path entering `to` by edge e takes for
 * sure — e's phi move sets the branch's condition to a constant (a `&&`'s false on the way
 * around its right side) — or UINT32_MAX. */
static uint32_t edge_decided(const ir_program *prog, const ir_function *fn, uint32_t e,
                             uint32_t to) {
  const ir_block *bl = &fn->blocks[to];
  if (!bl->count || fn->insts[bl->first + bl->count - 1].op != IR_CONDBR) return UINT32_MAX;
  const ir_operand *c = &fn->operands[fn->insts[bl->first + bl->count - 1].ops];
  if (c->kind != IR_OPND_REG) return UINT32_MAX;
  for (uint32_t k = 0; k < fn->edges[e].nmoves; k++) {
    const ir_move *mv = &fn->moves[fn->edges[e].moves + k];
    if (mv->dst == c->index && mv->src.kind == IR_OPND_CONST)
      return ir_block_edge(fn, to, ir_const_value(prog, &mv->src) ? 0 : 1);
  }
  return UINT32_MAX;
}

/* Marks in seen the blocks of loop's body (an innermost one) a path reaches by edge `from`
 * and on, without passing the loop's header (the header itself is marked when reached): 1
 * reached, 3 with every edge walked. */
static void reach_in_iteration(const ir_program *prog, const ir_function *fn, const merge_loops *l,
                               uint32_t loop, uint32_t from, uint8_t *seen, uint32_t *work) {
  uint32_t header = l->loops[loop].header, nwork = 0;
  /* work: a block to walk every edge of, or (with the top bit) one edge to take */
  enum { ONE_EDGE = 0x80000000u };
  work[nwork++] = from | ONE_EDGE;
  for (uint32_t k = 0; k < nwork; k++) {
    uint32_t b = work[k], n = 1, only = UINT32_MAX;
    if (b & ONE_EDGE) only = b & ~ONE_EDGE, b = IR_NONE;
    else if (b == header)
      continue;
    else
      n = ir_block_nedges(fn, b);
    for (uint32_t i = 0; i < n; i++) {
      uint32_t e = b == IR_NONE ? only : ir_block_edge(fn, b, i), to = fn->edges[e].target;
      if (!merge_loop_contains(l, loop, to) || seen[to] == 3) continue;
      uint32_t decided = to == header ? UINT32_MAX : edge_decided(prog, fn, e, to);
      if (decided == UINT32_MAX) seen[to] = 3, work[nwork++] = to;
      else if (!seen[to])
        seen[to] = 1, work[nwork++] = decided | ONE_EDGE;
    }
  }
}

/* Does the conditional branch br of func never fork: a constant condition, or an unsigned
 * comparison with 0 that holds or fails for every value (`x < 0`, `0 <= x`)? gnulib's
 * INT_ADD_OVERFLOW and INT_MULTIPLY_OVERFLOW at -O0 leave such branches in libtasn1's loops. */
static bool never_forks(merge_ctx *m, uint32_t func, const ir_inst *br) {
  const ir_function *fn = &m->prog->funcs[func];
  const ir_operand *c = &fn->operands[br->ops];
  if (c->kind == IR_OPND_CONST) return true;
  if (c->kind != IR_OPND_REG) return false;
  uint32_t d = defs_of(m, func)[c->index];
  if (d == IR_NONE || fn->insts[d].op != IR_ICMP || fn->insts[d].nops != 2) return false;
  const ir_inst *cmp = &fn->insts[d];
  const ir_operand *x = &fn->operands[cmp->ops];
  bool zero_right = x[1].kind == IR_OPND_CONST && ir_const_value(m->prog, &x[1]) == 0;
  bool zero_left = x[0].kind == IR_OPND_CONST && ir_const_value(m->prog, &x[0]) == 0;
  switch (cmp->aux) {
  case IR_ICMP_ULT:
  case IR_ICMP_UGE: return zero_right;
  case IR_ICMP_UGT:
  case IR_ICMP_ULE: return zero_left;
  default: return false;
  }
}

/* Do edges e1 and e2 of fn set the phis of their target alike (each to the same operand)? */
static bool same_moves(const ir_program *prog, const ir_function *fn, uint32_t e1, uint32_t e2) {
  const ir_edge *x = &fn->edges[e1], *y = &fn->edges[e2];
  if (x->nmoves != y->nmoves) return false;
  for (uint32_t k = 0; k < x->nmoves; k++) {
    const ir_move *a = &fn->moves[x->moves + k], *b = &fn->moves[y->moves + k];
    if (a->dst != b->dst || !same_operand(prog, &a->src, &b->src)) return false;
  }
  return true;
}

/* Does a side that left by edge `from` and reached the blocks marked in seen enter block j
 * of loop by edge e (the header's edges belong to the next iteration)? */
static bool enters_by(const ir_function *fn, const merge_loops *l, uint32_t loop, uint32_t from,
                      const uint8_t *seen, uint32_t s, uint32_t e) {
  if (e == from) return true;
  return s != l->loops[loop].header && seen[s] && merge_loop_contains(l, loop, s);
}

/* May the two sides that leave the block `blk` by edges ea and eb (reaching the blocks marked
 * in a and in b) enter block j of loop by two edges that set its phis alike — so that their
 * snapshots there may be equal, and merged whatever the rules say of ite joins? wget
 * map_html_tags' `while (NAME_CHAR_P (*p))` tests a byte against six bounds, and every one
 * that fails enters the `&&`'s end with false. */
static bool alike_entries(const ir_program *prog, const ir_function *fn, const merge_loops *l,
                          uint32_t loop, uint32_t blk, uint32_t j, const uint8_t *a,
                          const uint8_t *b) {
  uint32_t ea = ir_block_edge(fn, blk, 0), eb = ir_block_edge(fn, blk, 1);
  for (uint32_t s1 = 0; s1 < fn->nblocks; s1++)
    for (uint32_t i = 0, n1 = ir_block_nedges(fn, s1); i < n1; i++) {
      uint32_t e1 = ir_block_edge(fn, s1, i);
      if (fn->edges[e1].target != j || !enters_by(fn, l, loop, ea, a, s1, e1)) continue;
      for (uint32_t s2 = 0; s2 < fn->nblocks; s2++)
        for (uint32_t k = 0, n2 = ir_block_nedges(fn, s2); k < n2; k++) {
          uint32_t e2 = ir_block_edge(fn, s2, k);
          if (e2 != e1 && fn->edges[e2].target == j && enters_by(fn, l, loop, eb, b, s2, e2) &&
              same_moves(prog, fn, e1, e2))
            return true;
        }
    }
  return false;
}

/* The walk of merge_decide_joins_declined, uncached. */
static bool every_join_declined(merge_ctx *m, uint32_t func, uint32_t loop) {
  const ir_function *fn = &m->prog->funcs[func];
  const merge_loops *l = merge_loops_of(m, func);
  for (uint32_t k = 0; k < l->nloops; k++)
    if (l->loops[k].parent == loop) return false;
  uint32_t header = l->loops[loop].header;
  uint8_t *preds = xcalloc(fn->nblocks + 1, 1);
  for (uint32_t e = 0; e < fn->nedges; e++)
    if (fn->edges[e].target < fn->nblocks && preds[fn->edges[e].target] < 2)
      preds[fn->edges[e].target]++;
  uint8_t *a = xcalloc(fn->nblocks + 1, 1), *b = xcalloc(fn->nblocks + 1, 1);
  /* a block is walked once by one edge, once by all */
  uint32_t *work = xmalloc(2 * (fn->nblocks + 1) * sizeof *work), pairs = 0;
  bool declined = true;
  for (uint32_t blk = 0; blk < fn->nblocks && declined; blk++) {
    if (!merge_loop_contains(l, loop, blk) || !fn->blocks[blk].count) continue;
    for (uint32_t i = 0; i < fn->blocks[blk].count && declined; i++) {
      const ir_inst *in = &fn->insts[fn->blocks[blk].first + i];
      /* a branch in a callee (any, through a pointer) parts sides the rules do not look at */
      declined = in->op != IR_CALL ||
                 (in->u.call.func != IR_NONE && m->prog->funcs[in->u.call.func].is_decl);
    }
    uint32_t last = fn->blocks[blk].first + fn->blocks[blk].count - 1;
    uint32_t nedges = ir_block_nedges(fn, blk);
    if (!declined || nedges < 2) continue;
    if (fn->insts[last].op != IR_CONDBR || nedges != 2) {
      declined = false; /* a switch's sides: the rules read comparisons only */
      break;
    }
    if (never_forks(m, func, &fn->insts[last])) continue;
    memset(a, 0, fn->nblocks + 1), memset(b, 0, fn->nblocks + 1);
    reach_in_iteration(m->prog, fn, l, loop, ir_block_edge(fn, blk, 0), a, work);
    reach_in_iteration(m->prog, fn, l, loop, ir_block_edge(fn, blk, 1), b, work);
    for (uint32_t j = 0; j < fn->nblocks && declined; j++)
      if (a[j] && b[j] && (j == header || preds[j] >= 2)) {
        declined = merge_decide_asked_again(m, func, loop, last, j) != MERGE_ASKED_NOT &&
                   !alike_entries(m->prog, fn, l, loop, blk, j, a, b);
        pairs++;
      }
  }
  free(preds), free(a), free(b), free(work);
  return declined && pairs;
}

bool merge_decide_joins_declined(merge_ctx *m, uint32_t func, uint32_t loop) {
  struct merge_decide_cache *c = cache_of(m);
  if (!c->joins_declined) c->joins_declined = xcalloc(m->prog->nfuncs + 1, sizeof(uint8_t *));
  const merge_loops *l = merge_loops_of(m, func);
  if (loop >= l->nloops) return false;
  if (!c->joins_declined[func]) c->joins_declined[func] = xcalloc(l->nloops + 1, 1);
  uint8_t *k = &c->joins_declined[func][loop];
  if (!*k) *k = every_join_declined(m, func, loop) ? 2 : 1;
  return *k == 2;
}

const char *merge_decide_values(merge_ctx *m, state *const *group, size_t n, merge_cheap_fn cheap,
                                void *arg, merge_estimate *est) {
  return merge_decide(m, group, n, NULL, cheap, arg, est);
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

bool merge_decline_stands(const merge_estimate *est) {
  if (!est->value_sites || est->hot_sites != est->value_sites || est->group < 2 ||
      est->distinct < 1)
    return false;
  /* merged_cost = d · (the cost per distinct tuple) when Q_v > 0 (merge_decide) */
  return 2 * est->merged_cost > (uint64_t)est->group * est->sites * 100;
}

void merge_decision_early(merge_ctx *m, merge_region *r, state *const *members, size_t n,
                          const char *outcome) {
  char *others = m->decision_log;
  m->decision_log = r->early_log;
  merge_decision(m, r, members, n, outcome);
  r->early_log = m->decision_log;
  m->decision_log = others;
}

char *merge_decisions_take(merge_ctx *m, merge_region *r) {
  char *log =
      xasprintf("%s%s", r->early_log ? r->early_log : "", m->decision_log ? m->decision_log : "");
  free(r->early_log);
  free(m->decision_log);
  r->early_log = NULL;
  m->decision_log = NULL;
  return log;
}

void merge_decide_free(merge_ctx *m) {
  struct merge_decide_cache *c = m->decide;
  if (c) {
    for (size_t k = 0; k < c->nexits; k++) {
      free(c->exits[k]->reach);
      free(c->exits[k]->reach_block);
      free(c->exits[k]);
    }
    free(c->exits);
    for (uint32_t f = 0; c->defs && f < m->prog->nfuncs; f++) free(c->defs[f]);
    free(c->defs);
    for (uint32_t f = 0; c->joins_declined && f < m->prog->nfuncs; f++) free(c->joins_declined[f]);
    free(c->joins_declined);
    free(c->func_sites);
    free(c->memos);
    pin_memos_clear(c);
    free(c->pin_memos);
    hmap_free(&c->pin_index);
    free(c);
  }
  free(m->decision_log);
  m->decide = NULL;
  m->decision_log = NULL;
}
