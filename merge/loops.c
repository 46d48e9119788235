/*
 * loops.c — natural loops (contract in loops.h). Dominators by the iterative algorithm of
 * Cooper, Harvey and Kennedy over the reverse postorder; loop bodies by a backward walk from
 * each back edge's tail.
 */
#include "merge/loops.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

#define NONE UINT32_MAX

typedef struct graph {
  uint32_t n;
  uint32_t **succ, *nsucc;
  uint32_t **pred, *npred;
} graph;

static void add_edge(graph *g, uint32_t from, uint32_t to) {
  g->succ[from] = xrealloc(g->succ[from], (g->nsucc[from] + 1) * sizeof **g->succ);
  g->succ[from][g->nsucc[from]++] = to;
  g->pred[to] = xrealloc(g->pred[to], (g->npred[to] + 1) * sizeof **g->pred);
  g->pred[to][g->npred[to]++] = from;
}

static graph build_graph(const ir_function *fn) {
  graph g = {.n = fn->nblocks};
  g.succ = xcalloc(g.n, sizeof *g.succ);
  g.pred = xcalloc(g.n, sizeof *g.pred);
  g.nsucc = xcalloc(g.n, sizeof *g.nsucc);
  g.npred = xcalloc(g.n, sizeof *g.npred);
  for (uint32_t b = 0; b < g.n; b++) {
    const ir_block *blk = &fn->blocks[b];
    if (!blk->count) continue;
    const ir_inst *t = &fn->insts[blk->first + blk->count - 1];
    switch (t->op) {
    case IR_BR: add_edge(&g, b, fn->edges[t->u.br.edge[0]].target); break;
    case IR_CONDBR:
      add_edge(&g, b, fn->edges[t->u.br.edge[0]].target);
      add_edge(&g, b, fn->edges[t->u.br.edge[1]].target);
      break;
    case IR_SWITCH:
      add_edge(&g, b, fn->edges[t->u.sw.dflt].target);
      for (uint32_t k = 0; k < t->u.sw.ngroups; k++)
        add_edge(&g, b, fn->edges[fn->groups[t->u.sw.groups + k].edge].target);
      break;
    default: break;
    }
  }
  return g;
}

static void free_graph(graph *g) {
  for (uint32_t b = 0; b < g->n; b++) {
    free(g->succ[b]);
    free(g->pred[b]);
  }
  free(g->succ), free(g->pred), free(g->nsucc), free(g->npred);
}

/* Reverse postorder from block 0, iteratively; *count = blocks reached. */
static uint32_t *reverse_postorder(const graph *g, uint32_t *count) {
  uint32_t *order = xcalloc(g->n, sizeof *order);
  uint32_t *stack = xcalloc(g->n, sizeof *stack), *next = xcalloc(g->n, sizeof *next);
  uint8_t *seen = xcalloc(g->n, 1);
  uint32_t depth = 0, done = 0;
  if (g->n) {
    stack[depth++] = 0;
    seen[0] = 1;
  }
  while (depth) {
    uint32_t b = stack[depth - 1];
    if (next[b] < g->nsucc[b]) {
      uint32_t s = g->succ[b][next[b]++];
      if (!seen[s]) {
        seen[s] = 1;
        stack[depth++] = s;
      }
    } else {
      order[done++] = b;
      depth--;
    }
  }
  for (uint32_t i = 0; i < done / 2; i++) { /* postorder → reverse postorder */
    uint32_t t = order[i];
    order[i] = order[done - 1 - i];
    order[done - 1 - i] = t;
  }
  free(stack), free(next), free(seen);
  *count = done;
  return order;
}

static uint32_t *dominators(const graph *g, const uint32_t *rpo, uint32_t count) {
  uint32_t *idom = xcalloc(g->n ? g->n : 1, sizeof *idom),
           *index = xcalloc(g->n ? g->n : 1, sizeof *index);
  for (uint32_t b = 0; b < g->n; b++) idom[b] = NONE, index[b] = NONE;
  for (uint32_t i = 0; i < count; i++) index[rpo[i]] = i;
  if (count) idom[rpo[0]] = rpo[0];
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 1; i < count; i++) {
      uint32_t b = rpo[i], best = NONE;
      for (uint32_t k = 0; k < g->npred[b]; k++) {
        uint32_t p = g->pred[b][k];
        if (idom[p] == NONE) continue;
        if (best == NONE) {
          best = p;
          continue;
        }
        uint32_t x = p, y = best; /* intersect, walking up by rpo index */
        while (x != y) {
          while (index[x] > index[y]) x = idom[x];
          while (index[y] > index[x]) y = idom[y];
        }
        best = x;
      }
      if (best != NONE && idom[b] != best) {
        idom[b] = best;
        changed = true;
      }
    }
  }
  free(index);
  return idom;
}

static bool dominates(const uint32_t *idom, uint32_t h, uint32_t b) {
  for (;;) {
    if (b == h) return true;
    if (idom[b] == NONE || idom[b] == b) return false;
    b = idom[b];
  }
}

merge_loops *merge_loops_find(const ir_function *fn) {
  merge_loops *l = xcalloc(1, sizeof *l);
  l->nblocks = fn->nblocks;
  l->innermost = xcalloc(fn->nblocks ? fn->nblocks : 1, sizeof *l->innermost);
  for (uint32_t b = 0; b < fn->nblocks; b++) l->innermost[b] = MERGE_NO_LOOP;
  if (fn->is_decl || !fn->nblocks) return l;
  graph g = build_graph(fn);
  uint32_t count;
  uint32_t *rpo = reverse_postorder(&g, &count);
  uint32_t *idom = dominators(&g, rpo, count);
  uint32_t *loop_of_header = xcalloc(g.n, sizeof *loop_of_header);
  for (uint32_t b = 0; b < g.n; b++) loop_of_header[b] = NONE;
  uint32_t *stack = xcalloc(g.n, sizeof *stack);
  /* headers in block order, so loops come out ordered by header */
  for (uint32_t h = 0; h < g.n; h++) {
    for (uint32_t k = 0; k < g.npred[h]; k++) {
      uint32_t t = g.pred[h][k];
      if (idom[t] == NONE || !dominates(idom, h, t)) continue; /* not a back edge */
      if (loop_of_header[h] == NONE) {
        l->loops = xrealloc(l->loops, (l->nloops + 1) * sizeof *l->loops);
        l->loops[l->nloops] = (merge_loop){
            .header = h, .parent = MERGE_NO_LOOP, .size = 1, .body = xcalloc(g.n, 1), .calls = -1};
        l->loops[l->nloops].body[h] = 1;
        loop_of_header[h] = l->nloops++;
      }
      merge_loop *lp = &l->loops[loop_of_header[h]];
      uint32_t depth = 0;
      if (!lp->body[t]) {
        lp->body[t] = 1;
        lp->size++;
        stack[depth++] = t;
      }
      while (depth) {
        uint32_t b = stack[--depth];
        for (uint32_t q = 0; q < g.npred[b]; q++) {
          uint32_t p = g.pred[b][q];
          if (lp->body[p] || idom[p] == NONE) continue;
          lp->body[p] = 1;
          lp->size++;
          stack[depth++] = p;
        }
      }
    }
  }
  /* nesting: a block's innermost loop is the smallest one holding it; a loop's parent is the
   * smallest other loop holding its header */
  for (uint32_t b = 0; b < g.n; b++)
    for (uint32_t i = 0; i < l->nloops; i++)
      if (l->loops[i].body[b] &&
          (l->innermost[b] == NONE || l->loops[i].size < l->loops[l->innermost[b]].size))
        l->innermost[b] = i;
  for (uint32_t i = 0; i < l->nloops; i++)
    for (uint32_t j = 0; j < l->nloops; j++)
      if (j != i && l->loops[j].body[l->loops[i].header] && l->loops[j].size > l->loops[i].size &&
          (l->loops[i].parent == NONE || l->loops[j].size < l->loops[l->loops[i].parent].size))
        l->loops[i].parent = j;
  free(stack), free(loop_of_header), free(idom), free(rpo);
  free_graph(&g);
  return l;
}

void merge_loops_free(merge_loops *l) {
  if (!l) return;
  for (uint32_t i = 0; i < l->nloops; i++) free(l->loops[i].body);
  free(l->loops);
  free(l->innermost);
  free(l);
}

uint32_t merge_block_of(const ir_function *fn, uint32_t pc) {
  uint32_t lo = 0, hi = fn->nblocks;
  while (hi - lo > 1) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (fn->blocks[mid].first <= pc) lo = mid;
    else
      hi = mid;
  }
  return lo;
}
