/* slots.c — allocas whose address never escapes (contract in slots.h). */
#include "prune/slots.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

static bool is_make_symbolic(const ir_program *prog, uint32_t func) {
  if (func == IR_NONE) return false;
  const ir_function *f = &prog->funcs[func];
  return f->is_decl &&
         (strcmp(f->name, "klee_make_symbolic") == 0 || strcmp(f->name, "symq_make_symbolic") == 0);
}

/* Whether operand k of `in` may hold a private slot's address: a load's address, a store's
 * address (not its value), a make_symbolic call's object. */
static bool harmless_use(const ir_program *prog, const ir_inst *in, uint32_t k) {
  switch ((ir_opcode)in->op) {
  case IR_LOAD: return k == 0;
  case IR_STORE: return k == 1;
  case IR_CALL: return k == 1 && is_make_symbolic(prog, in->u.call.func);
  default: return false;
  }
}

static uint32_t find(uint32_t *root, uint32_t r) {
  while (root[r] != r) r = root[r] = root[root[r]];
  return r;
}

prune_slots *prune_slots_compute(const ir_program *prog, const ir_function *fn) {
  prune_slots *s = xcalloc(1, sizeof *s);
  s->ninsts = fn->ninsts;
  s->private_at = xcalloc((size_t)fn->ninsts / 64 + 1, sizeof *s->private_at);
  /* a move (a bitcast) makes an alias: one class per address, its uses counted together */
  uint32_t *root = xcalloc((size_t)fn->nregs + 1, sizeof *root);
  for (uint32_t r = 0; r < fn->nregs; r++) root[r] = r;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (in->op != IR_MOVE || in->nops != 1 || in->dst == IR_NONE) continue;
    const ir_operand *o = &fn->operands[in->ops];
    if (o->kind == IR_OPND_REG) root[find(root, in->dst)] = find(root, o->index);
  }
  /* escaped[class]: a register of the class is used somewhere other than harmlessly */
  bool *escaped = xcalloc((size_t)fn->nregs + 1, sizeof *escaped);
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    for (uint32_t k = 0; k < in->nops; k++) {
      const ir_operand *o = &fn->operands[in->ops + k];
      if (o->kind != IR_OPND_REG) continue;
      bool alias = in->op == IR_MOVE && in->nops == 1 && in->dst != IR_NONE;
      if (!alias && !harmless_use(prog, in, k)) escaped[find(root, o->index)] = true;
    }
  }
  for (uint32_t m = 0; m < fn->nmoves; m++)
    if (fn->moves[m].src.kind == IR_OPND_REG) escaped[find(root, fn->moves[m].src.index)] = true;
  for (uint32_t i = 0; i < fn->ninsts; i++) {
    const ir_inst *in = &fn->insts[i];
    if (in->op != IR_ALLOCA || in->dst == IR_NONE || escaped[find(root, in->dst)]) continue;
    if (in->nops < 1 || fn->operands[in->ops].kind != IR_OPND_CONST) continue;
    s->private_at[i / 64] |= UINT64_C(1) << (i % 64);
  }
  free(escaped), free(root);
  return s;
}

void prune_slots_free(prune_slots *s) {
  if (!s) return;
  free(s->private_at);
  free(s);
}
