/* relevance.c — strongly live registers per instruction (contract in relevance.h). */
#include "prune/relevance.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

static void set_bit(uint64_t *s, uint32_t reg) { s[reg / 64] |= UINT64_C(1) << (reg % 64); }
static void clear_bit(uint64_t *s, uint32_t reg) { s[reg / 64] &= ~(UINT64_C(1) << (reg % 64)); }
static bool get_bit(const uint64_t *s, uint32_t reg) { return (s[reg / 64] >> (reg % 64)) & 1; }

bool prune_opcode_is_pure(ir_opcode op) {
  switch (op) {
  case IR_ADD:
  case IR_SUB:
  case IR_MUL:
  case IR_AND:
  case IR_OR:
  case IR_XOR:
  case IR_ICMP:
  case IR_SELECT:
  case IR_TRUNC:
  case IR_ZEXT:
  case IR_SEXT:
  case IR_PTRTOINT:
  case IR_INTTOPTR:
  case IR_MOVE:
  case IR_GEP:
  case IR_EXTRACTVALUE:
  case IR_INSERTVALUE:
  case IR_UMIN:
  case IR_UMAX:
  case IR_SMIN:
  case IR_SMAX:
  case IR_BSWAP:
  case IR_CTPOP: return true;
  default:
    return false; /* divisions, shifts (checked), floats (symbolic ends the path),
                     memory, calls, control flow, anything new */
  }
}

/* rel (in place): the set before `in` from the set after it. */
static void step_back(const ir_function *fn, const ir_inst *in, uint64_t *rel) {
  bool wanted =
      !prune_opcode_is_pure((ir_opcode)in->op) || (in->dst != IR_NONE && get_bit(rel, in->dst));
  if (in->dst != IR_NONE) clear_bit(rel, in->dst);
  if (!wanted) return;
  for (uint32_t k = 0; k < in->nops; k++) {
    const ir_operand *o = &fn->operands[in->ops + k];
    if (o->kind == IR_OPND_REG) set_bit(rel, o->index);
  }
}

/* The set after block b's terminator: over its edges, (in(target) − dsts) ∪ {src : dst ∈
 * in(target)} (parallel moves). */
static void block_out(const ir_function *fn, uint32_t b, const uint64_t *block_in, uint32_t words,
                      uint64_t *out, uint64_t *scratch) {
  memset(out, 0, words * sizeof *out);
  for (uint32_t k = 0, n = ir_block_nedges(fn, b); k < n; k++) {
    const ir_edge *e = &fn->edges[ir_block_edge(fn, b, k)];
    const uint64_t *in = &block_in[(uint64_t)e->target * words];
    memcpy(scratch, in, words * sizeof *scratch);
    for (uint32_t m = 0; m < e->nmoves; m++) clear_bit(scratch, fn->moves[e->moves + m].dst);
    for (uint32_t m = 0; m < e->nmoves; m++) {
      const ir_move *mv = &fn->moves[e->moves + m];
      if (mv->src.kind == IR_OPND_REG && get_bit(in, mv->dst)) set_bit(scratch, mv->src.index);
    }
    for (uint32_t w = 0; w < words; w++) out[w] |= scratch[w];
  }
}

prune_relevance *prune_relevance_compute(const ir_function *fn) {
  prune_relevance *r = xcalloc(1, sizeof *r);
  r->ninsts = fn->ninsts;
  r->nregs = fn->nregs;
  uint32_t words = (fn->nregs + 63) / 64;
  r->words = words ? words : 1;
  words = r->words;
  r->before = xcalloc((size_t)fn->ninsts * words + 1, sizeof *r->before);
  uint64_t *block_in = xcalloc((size_t)fn->nblocks * words + 1, sizeof *block_in);
  uint64_t *rel = xcalloc(words, sizeof *rel), *scratch = xcalloc(words, sizeof *scratch);
  /* blocks to a fixpoint (sets only grow), in reverse layout order */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t b = fn->nblocks; b-- > 0;) {
      const ir_block *blk = &fn->blocks[b];
      block_out(fn, b, block_in, words, rel, scratch);
      for (uint32_t i = blk->first + blk->count; i-- > blk->first;)
        step_back(fn, &fn->insts[i], rel);
      uint64_t *in = &block_in[(uint64_t)b * words];
      if (memcmp(in, rel, words * sizeof *rel) != 0) {
        memcpy(in, rel, words * sizeof *rel);
        changed = true;
      }
    }
  }
  for (uint32_t b = 0; b < fn->nblocks; b++) {
    const ir_block *blk = &fn->blocks[b];
    block_out(fn, b, block_in, words, rel, scratch);
    for (uint32_t i = blk->first + blk->count; i-- > blk->first;) {
      step_back(fn, &fn->insts[i], rel);
      memcpy(&r->before[(uint64_t)i * words], rel, words * sizeof *rel);
    }
  }
  free(block_in), free(rel), free(scratch);
  return r;
}

void prune_relevance_free(prune_relevance *r) {
  if (!r) return;
  free(r->before);
  free(r);
}
