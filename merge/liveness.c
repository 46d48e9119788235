/* liveness.c — live registers per instruction (contract in liveness.h). */
#include "merge/liveness.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

static void clear_bit(uint64_t *s, uint32_t reg) { s[reg / 64] &= ~(UINT64_C(1) << (reg % 64)); }

/* live (in place): the set before `in` from the set after it. */
static void step_back(const ir_function *fn, const ir_inst *in, uint64_t *live) {
  if (in->dst != IR_NONE) clear_bit(live, in->dst);
  for (uint32_t k = 0; k < in->nops; k++) {
    const ir_operand *o = &fn->operands[in->ops + k];
    if (o->kind == IR_OPND_REG) merge_reg_add(live, o->index);
  }
}

/* The set live after block b: over its edges, (live_in(target) − dsts) ∪ srcs. */
static void block_out(const ir_function *fn, uint32_t b, const uint64_t *block_in, uint32_t words,
                      uint64_t *out, uint64_t *scratch) {
  memset(out, 0, words * sizeof *out);
  for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n; k++) {
    const ir_edge *e = &fn->edges[ir_block_edge(fn, b, k)];
    memcpy(scratch, &block_in[(uint64_t)e->target * words], words * sizeof *scratch);
    for (uint32_t m = 0; m < e->nmoves; m++) clear_bit(scratch, fn->moves[e->moves + m].dst);
    for (uint32_t m = 0; m < e->nmoves; m++) {
      const ir_operand *src = &fn->moves[e->moves + m].src;
      if (src->kind == IR_OPND_REG) merge_reg_add(scratch, src->index);
    }
    for (uint32_t w = 0; w < words; w++) out[w] |= scratch[w];
  }
}

merge_liveness *merge_liveness_compute(const ir_function *fn) {
  merge_liveness *l = xcalloc(1, sizeof *l);
  l->ninsts = fn->ninsts;
  l->nregs = fn->nregs;
  l->nblocks = fn->nblocks;
  l->words = (fn->nregs + 63) / 64;
  uint32_t words = l->words ? l->words : 1;
  l->words = words;
  l->before = xcalloc((size_t)fn->ninsts * words + 1, sizeof *l->before);
  l->block_out = xcalloc((size_t)fn->nblocks * words + 1, sizeof *l->block_out);
  uint64_t *block_in = xcalloc((size_t)fn->nblocks * words + 1, sizeof *block_in);
  uint64_t *live = xcalloc(words, sizeof *live), *scratch = xcalloc(words, sizeof *scratch);

  /* blocks to a fixpoint, in reverse layout order (mostly backward already) */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = fn->nblocks; b-- > 0;) {
      const ir_block *blk = &fn->blocks[b];
      block_out(fn, b, block_in, words, live, scratch);
      memcpy(&l->block_out[(uint64_t)b * words], live, words * sizeof *live);
      for (uint32_t i = blk->first + blk->count; i-- > blk->first;)
        step_back(fn, &fn->insts[i], live);
      uint64_t *in = &block_in[(uint64_t)b * words];
      if (memcmp(in, live, words * sizeof *live) != 0) {
        memcpy(in, live, words * sizeof *live);
        changed = true;
      }
    }
  }
  /* then every instruction, once */
  for (uint32_t b = 0; b < fn->nblocks; b++) {
    const ir_block *blk = &fn->blocks[b];
    memcpy(live, &l->block_out[(uint64_t)b * words], words * sizeof *live);
    for (uint32_t i = blk->first + blk->count; i-- > blk->first;) {
      step_back(fn, &fn->insts[i], live);
      memcpy(&l->before[(uint64_t)i * words], live, words * sizeof *live);
    }
  }
  free(block_in), free(live), free(scratch);
  return l;
}

uint32_t merge_live_count(const merge_liveness *l, uint32_t inst) {
  uint32_t n = 0;
  for (uint32_t w = 0; w < l->words; w++)
    n += (uint32_t)__builtin_popcountll(l->before[(uint64_t)inst * l->words + w]);
  return n;
}

void merge_liveness_free(merge_liveness *l) {
  if (!l) return;
  free(l->before);
  free(l->block_out);
  free(l);
}
