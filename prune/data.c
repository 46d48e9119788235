/* data.c — registers that only ever flow into arithmetic and branches (contract in data.h). */
#include "prune/data.h"

#include <stdlib.h>

#include "engine/core/xalloc.h"
#include "prune/relevance.h"

/* Whether a register operand of `op` passes its value on only to op's result (or, for a
 * conditional branch, to the choice of a successor): a pure integer operation
 * (prune/relevance.h's, but for addresses and aggregates), a division or a shift (their
 * checks are solver questions), a conditional branch. */
static bool passes_data(ir_opcode op) {
  switch (op) {
  case IR_GEP:
  case IR_PTRTOINT:
  case IR_INTTOPTR:
  case IR_EXTRACTVALUE:
  case IR_INSERTVALUE: return false;
  case IR_UDIV:
  case IR_SDIV:
  case IR_UREM:
  case IR_SREM:
  case IR_SHL:
  case IR_LSHR:
  case IR_ASHR:
  case IR_CONDBR: return true;
  default: return prune_opcode_is_pure(op);
  }
}

prune_data *prune_data_compute(const ir_function *fn) {
  prune_data *d = xcalloc(1, sizeof *d);
  d->nregs = fn->nregs;
  bool *not_data = xcalloc((size_t)fn->nregs + 1, sizeof *not_data);
  /* a register used anywhere else is not data; nor is an operand of an instruction (or the
   * source of a phi move) whose result is not data: to a fixpoint */
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t i = 0; i < fn->ninsts; i++) {
      const ir_inst *in = &fn->insts[i];
      bool passes = passes_data((ir_opcode)in->op);
      bool result_ok = in->op == IR_CONDBR || (in->dst != IR_NONE && !not_data[in->dst]);
      for (uint32_t k = 0; k < in->nops; k++) {
        const ir_operand *o = &fn->operands[in->ops + k];
        if (o->kind != IR_OPND_REG || not_data[o->index]) continue;
        if (!passes || !result_ok) not_data[o->index] = changed = true;
      }
    }
    for (uint32_t m = 0; m < fn->nmoves; m++) {
      const ir_move *mv = &fn->moves[m];
      if (mv->src.kind == IR_OPND_REG && !not_data[mv->src.index] && not_data[mv->dst])
        not_data[mv->src.index] = changed = true;
    }
  }
  d->bits = xcalloc((size_t)fn->nregs / 64 + 1, sizeof *d->bits);
  for (uint32_t r = 0; r < fn->nregs; r++)
    if (!not_data[r]) d->bits[r / 64] |= UINT64_C(1) << (r % 64);
  free(not_data);
  return d;
}

void prune_data_free(prune_data *d) {
  if (!d) return;
  free(d->bits);
  free(d);
}
