/*
 * ir.c — decodes an LLVM module once into the dense program of ir.h.
 *
 * Decoding runs in two passes per function: the first numbers the registers (arguments,
 * then every value-producing instruction in layout order) and the blocks, so that the
 * second can resolve any operand — including a phi's incoming value defined later in the
 * layout — to an index. The second pass appends to growable vectors held by the decoder
 * (`dctx`); at the end of a function the vectors are handed to the ir_function as they are.
 *
 * Failure model: an instruction the decoder cannot express becomes IR_UNSUPPORTED (its
 * side tables are rolled back to where they were). Out of memory longjmps to the single
 * boundary in ir_decode, which frees the partial program: every pointer the program owns is
 * stored in it the moment it is allocated, and ir_free accepts any partial state.
 *
 * Constants: anything LLVM gives as a constant (integers of any width up to 128, floats,
 * null, undef, aggregates that fit in 128 bits, and constant expressions over globals:
 * GEP, casts, add/sub of an address and an integer) folds to a constant, a global address
 * + offset or a function address + offset (`cval`). The same folding writes global
 * initializers as bytes plus relocations.
 */
#include "engine/core/ir.h"
#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/Target.h>

/* ---- allocation: one function, one failure boundary ---------------------------------- */

typedef struct vec {
  void *data;
  size_t len, cap; /* in elements */
} vec;

typedef struct chunk {
  struct chunk *next;
  size_t size, used;
  char data[];
} chunk;

typedef struct name_ix {
  const char *name;
  uint32_t index;
} name_ix;

struct ir_private {
  chunk *strings;      /* every string the program owns */
  name_ix *func_names; /* sorted by name */
  name_ix *glob_names;
};

typedef struct cval {
  uint8_t kind;   /* IR_OPND_CONST, IR_OPND_GLOBAL or IR_OPND_FUNC */
  uint32_t index; /* GLOBAL, FUNC */
  u128 value;     /* CONST: the value; GLOBAL, FUNC: the offset (two's complement) */
} cval;

typedef struct dctx {
  jmp_buf oom;
  ir_program *p;
  LLVMModuleRef m;
  LLVMTargetDataRef td;
  hmap funcs, globals; /* module-wide */
  hmap values, blocks; /* per function: argument/instruction → register, block → index */
  vec consts;          /* ir_const */
  vec insts, operands, edges, moves, groups, case_values, scales, bblocks, reg_width;
  vec relocs;      /* ir_reloc, per global */
  vec cases;       /* switch scratch: case_ent */
  hmap case_group; /* switch scratch: target block → group */
  vec gep_vars;    /* getelementptr scratch: gep_var */
  char *llvm_msg;  /* an LLVM-allocated string to dispose if we unwind */
  ir_function *fn;
  const char *reason; /* why the last helper failed */
} dctx;

/* Decoding recovers from out of memory (the input is refused with a message, and a fuzz
 * target goes on to the next one), so it allocates with xalloc_try_realloc, which fault
 * injection reaches as it reaches every other allocation. */
static void *decode_realloc(dctx *c, void *ptr, size_t size) {
  void *q = xalloc_try_realloc(ptr, size);
  if (!q) longjmp(c->oom, 1);
  return q;
}

static void *decode_calloc(dctx *c, size_t n, size_t size) {
  if (size && n > SIZE_MAX / size) longjmp(c->oom, 1);
  void *q = decode_realloc(c, NULL, n * size);
  memset(q, 0, n * size);
  return q;
}

/* Appends one zeroed element and returns its index (pointers into data move on growth). */
static size_t vec_push(dctx *c, vec *v, size_t elem) {
  if (v->len == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 16;
    v->data = decode_realloc(c, v->data, cap * elem);
    v->cap = cap;
  }
  memset((char *)v->data + v->len * elem, 0, elem);
  return v->len++;
}

#define VAT(v, type, i) (((type *)(v).data)[i])

/* Hands the vector's storage over (NULL when empty) and leaves the vector empty. */
static void *vec_take(vec *v, uint32_t *count) {
  void *d = v->data;
  *count = (uint32_t)v->len;
  if (!v->len) {
    free(d);
    d = NULL;
  }
  v->data = NULL;
  v->len = v->cap = 0;
  return d;
}

/* LLVMValueRef / LLVMBasicBlockRef → index maps, growing with xalloc_try_realloc (the
 * longjmp boundary). */
static void pmap_put(dctx *c, hmap *m, const void *k, uint32_t v) {
  if (!hmap_try_reserve(m, m->count + 1)) longjmp(c->oom, 1);
  hmap_put(m, (uint64_t)(uintptr_t)k, v);
}

static uint32_t pmap_get(const hmap *m, const void *k) {
  uint64_t v;
  return hmap_get(m, (uint64_t)(uintptr_t)k, &v) ? (uint32_t)v : IR_NONE;
}

/* ---- strings ----------------------------------------------------------------------- */

static const char *str_n(dctx *c, const char *s, size_t n) {
  struct ir_private *pv = c->p->priv;
  chunk *k = pv->strings;
  if (!k || k->size - k->used < n + 1) {
    size_t size = n + 1 > 8192 ? n + 1 : 8192;
    k = decode_realloc(c, NULL, sizeof *k + size);
    k->size = size;
    k->used = 0;
    k->next = pv->strings;
    pv->strings = k;
  }
  char *d = k->data + k->used;
  if (n) memcpy(d, s, n);
  d[n] = '\0';
  k->used += n + 1;
  return d;
}

static const char *str(dctx *c, const char *s) { return str_n(c, s ? s : "", s ? strlen(s) : 0); }

static const char *strf(dctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static const char *strf(dctx *c, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return str(c, buf);
}

/* Copies an LLVM-allocated message into the program and disposes it (even on unwind). */
static const char *str_llvm(dctx *c, char *msg, size_t max) {
  c->llvm_msg = msg;
  size_t n = msg ? strlen(msg) : 0;
  const char *s = str_n(c, msg ? msg : "", n > max ? max : n);
  c->llvm_msg = NULL;
  LLVMDisposeMessage(msg);
  return s;
}

static const char *type_name(dctx *c, LLVMTypeRef t) {
  return str_llvm(c, LLVMPrintTypeToString(t), 120);
}

static const char *value_text(dctx *c, LLVMValueRef v) {
  return str_llvm(c, LLVMPrintValueToString(v), 120);
}

/* A failure of the current helper: records why and returns false. */
static bool fail(dctx *c, const char *reason) {
  c->reason = reason;
  return false;
}

/* ---- types -------------------------------------------------------------------------- */

static u128 mask(unsigned width) { return width >= 128 ? ~(u128)0 : ((u128)1 << width) - 1; }

static bool is_fp(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind;
}

static uint64_t alloc_size(dctx *c, LLVMTypeRef t) {
  return LLVMTypeIsSized(t) ? LLVMABISizeOfType(c->td, t) : 0;
}

/* Width in bits of a register holding a value of type t, 0 when symq cannot hold it. */
static unsigned value_width(dctx *c, LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: {
    unsigned w = LLVMGetIntTypeWidth(t);
    return w <= 128 ? w : 0;
  }
  case LLVMPointerTypeKind: return 64;
  case LLVMFloatTypeKind: return 32;
  case LLVMDoubleTypeKind: return 64;
  case LLVMStructTypeKind:
  case LLVMArrayTypeKind: {
    uint64_t s = alloc_size(c, t);
    return s > 0 && s <= 16 ? (unsigned)s * 8 : 0;
  }
  default: return 0;
  }
}

static uint8_t value_kind(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMPointerTypeKind: return IR_VK_PTR;
  case LLVMFloatTypeKind: return IR_VK_FLOAT;
  case LLVMDoubleTypeKind: return IR_VK_DOUBLE;
  default: return IR_VK_INT;
  }
}

static bool is_void(LLVMTypeRef t) { return LLVMGetTypeKind(t) == LLVMVoidTypeKind; }

/* ---- constants ------------------------------------------------------------------------ */

static u128 const_int(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned w = LLVMGetIntTypeWidth(t);
  if (w <= 64) return (u128)LLVMConstIntGetZExtValue(v);
  /* The C API reads 64 bits at a time: fold a shift and truncations to reach the top. */
  LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetTypeContext(t));
  u128 lo = LLVMConstIntGetZExtValue(LLVMConstTrunc(v, i64));
  LLVMValueRef hi = LLVMConstTrunc(LLVMConstLShr(v, LLVMConstInt(t, 64, 0)), i64);
  return lo | (u128)LLVMConstIntGetZExtValue(hi) << 64;
}

static int64_t sext64(u128 v, unsigned width) {
  if (width >= 64) return (int64_t)(uint64_t)v;
  uint64_t x = (uint64_t)v & (((uint64_t)1 << width) - 1);
  uint64_t sign = (uint64_t)1 << (width - 1);
  return (int64_t)((x ^ sign) - sign);
}

static uint32_t add_const(dctx *c, u128 value, unsigned width) {
  size_t i = vec_push(c, &c->consts, sizeof(ir_const));
  VAT(c->consts, ir_const, i).value = value & mask(width);
  VAT(c->consts, ir_const, i).width = width;
  return (uint32_t)i;
}

static bool fold(dctx *c, LLVMValueRef v, int depth, cval *out);
static bool write_const(dctx *c, LLVMValueRef v, uint8_t *buf, uint64_t size, uint64_t off,
                        vec *relocs, int depth);

/* Byte offset of a GEP (instruction or constant expression) from its constant indices;
 * variable indices are appended as (operand index in the GEP, scale) to `vars` when given,
 * and make it fail otherwise. */
typedef struct gep_var {
  unsigned operand;
  int64_t scale;
} gep_var;

static bool gep_walk(dctx *c, LLVMValueRef gep, int64_t *offset, gep_var *vars, unsigned *nvars) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  uint64_t off = 0; /* wrapping arithmetic, as GEP without inbounds */
  if (nvars) *nvars = 0;
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(gep, i);
    if (LLVMGetTypeKind(LLVMTypeOf(idx)) != LLVMIntegerTypeKind)
      return fail(c, "getelementptr with a vector index");
    int64_t scale;
    if (i > 1) {
      switch (LLVMGetTypeKind(t)) {
      case LLVMStructTypeKind: {
        if (!LLVMIsAConstantInt(idx)) return fail(c, "getelementptr: variable struct index");
        unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
        off += LLVMOffsetOfElement(c->td, t, field);
        t = LLVMStructGetTypeAtIndex(t, field);
        continue;
      }
      case LLVMArrayTypeKind:
      case LLVMVectorTypeKind: t = LLVMGetElementType(t); break;
      default: return fail(c, strf(c, "getelementptr into %s", type_name(c, t)));
      }
    }
    if (!LLVMTypeIsSized(t)) return fail(c, "getelementptr over an unsized type");
    scale = (int64_t)LLVMABISizeOfType(c->td, t);
    if (LLVMIsAConstantInt(idx)) {
      unsigned w = LLVMGetIntTypeWidth(LLVMTypeOf(idx));
      if (w > 128) return fail(c, "getelementptr index wider than 128 bits");
      off += (uint64_t)sext64(const_int(idx), w) * (uint64_t)scale;
    } else if (vars) {
      if (scale != 0) {
        vars[*nvars].operand = i;
        vars[*nvars].scale = scale;
        (*nvars)++;
      }
    } else if (!LLVMIsUndef(idx)) {
      return fail(c, "getelementptr constant expression with a variable index");
    }
  }
  *offset = (int64_t)off;
  return true;
}

static bool is_address(const cval *v) { return v->kind != IR_OPND_CONST; }

/* Folds a constant expression over addresses and integers (see the file comment). */
static bool fold_expr(dctx *c, LLVMValueRef v, int depth, cval *out) {
  LLVMOpcode op = LLVMGetConstOpcode(v);
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned w = value_width(c, t);
  cval a, b;
  switch (op) {
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    if (!fold(c, LLVMGetOperand(v, 0), depth + 1, out)) return false;
    break;
  case LLVMIntToPtr:
  case LLVMPtrToInt:
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMSExt: {
    LLVMValueRef x = LLVMGetOperand(v, 0);
    unsigned from = value_width(c, LLVMTypeOf(x));
    if (!w || !from) return fail(c, "constant cast of an unsupported type");
    if (!fold(c, x, depth + 1, out)) return false;
    if (is_address(out)) {
      if (from < 64 || w < 64 || op == LLVMTrunc)
        return fail(c, strf(c, "address truncated to i%u in a constant expression", w));
      break;
    }
    if (op == LLVMSExt && from < 128 && (out->value >> (from - 1)) & 1) out->value |= ~mask(from);
    out->value &= mask(w);
    break;
  }
  case LLVMGetElementPtr: {
    int64_t off;
    if (!fold(c, LLVMGetOperand(v, 0), depth + 1, out)) return false;
    if (!gep_walk(c, v, &off, NULL, NULL)) return false;
    out->value = (u128)(uint64_t)((uint64_t)out->value + (uint64_t)off);
    break;
  }
  case LLVMAdd:
  case LLVMSub:
    if (!fold(c, LLVMGetOperand(v, 0), depth + 1, &a)) return false;
    if (!fold(c, LLVMGetOperand(v, 1), depth + 1, &b)) return false;
    if (!is_address(&a) && !is_address(&b)) {
      out->kind = IR_OPND_CONST;
      out->value = (op == LLVMAdd ? a.value + b.value : a.value - b.value) & mask(w);
    } else if (w != 64) {
      return fail(c, "address arithmetic below 64 bits in a constant expression");
    } else if (op == LLVMAdd && is_address(&a) != is_address(&b)) {
      *out = is_address(&a) ? a : b;
      out->value = (uint64_t)((uint64_t)a.value + (uint64_t)b.value);
    } else if (op == LLVMSub && is_address(&a) && !is_address(&b)) {
      *out = a;
      out->value = (uint64_t)((uint64_t)a.value - (uint64_t)b.value);
    } else if (op == LLVMSub && a.kind == b.kind && a.index == b.index) {
      out->kind = IR_OPND_CONST; /* &x[i] - &x[j] */
      out->value = (uint64_t)((uint64_t)a.value - (uint64_t)b.value);
    } else {
      return fail(c, "arithmetic on two addresses in a constant expression");
    }
    break;
  default: return fail(c, strf(c, "unsupported constant expression: %s", value_text(c, v)));
  }
  c->p->stats.constexprs_folded++;
  return true;
}

static bool fold(dctx *c, LLVMValueRef v, int depth, cval *out) {
  memset(out, 0, sizeof *out);
  out->kind = IR_OPND_CONST;
  if (depth > 64) return fail(c, "constant expression nested too deeply");
  if (LLVMIsUndef(v)) { /* undef and poison */
    c->p->stats.undef_operands++;
    return true;
  }
  if (LLVMIsAConstantInt(v)) {
    if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 128) return fail(c, "integer wider than 128 bits");
    out->value = const_int(v);
    return true;
  }
  if (LLVMIsAConstantPointerNull(v) || LLVMIsAConstantAggregateZero(v)) return true;
  if (LLVMIsAConstantFP(v)) {
    LLVMBool loses;
    double d = LLVMConstRealGetDouble(v, &loses);
    switch (LLVMGetTypeKind(LLVMTypeOf(v))) {
    case LLVMFloatTypeKind: {
      float f = (float)d;
      uint32_t bits;
      memcpy(&bits, &f, 4);
      out->value = bits;
      return true;
    }
    case LLVMDoubleTypeKind: {
      uint64_t bits;
      memcpy(&bits, &d, 8);
      out->value = bits;
      return true;
    }
    default:
      return fail(c, strf(c, "unsupported floating-point constant of type %s",
                          type_name(c, LLVMTypeOf(v))));
    }
  }
  if (LLVMIsAGlobalVariable(v)) {
    out->kind = IR_OPND_GLOBAL;
    out->index = pmap_get(&c->globals, v);
    assert(out->index != IR_NONE);
    return true;
  }
  if (LLVMIsAFunction(v)) {
    out->kind = IR_OPND_FUNC;
    out->index = pmap_get(&c->funcs, v);
    assert(out->index != IR_NONE);
    return true;
  }
  if (LLVMIsAGlobalAlias(v)) return fold(c, LLVMAliasGetAliasee(v), depth + 1, out);
  if (LLVMIsAConstantExpr(v)) return fold_expr(c, v, depth, out);
  if (LLVMIsABlockAddress(v)) return fail(c, "blockaddress (address of a label) is unsupported");
  LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
  if ((k == LLVMStructTypeKind || k == LLVMArrayTypeKind) && LLVMIsConstant(v)) {
    uint64_t size = alloc_size(c, LLVMTypeOf(v));
    if (size > 16) return fail(c, "aggregate constant wider than 128 bits");
    uint8_t bytes[16] = {0};
    if (!write_const(c, v, bytes, sizeof bytes, 0, NULL, depth + 1)) return false;
    u128 x = 0;
    for (int i = 15; i >= 0; i--) x = x << 8 | bytes[i];
    out->value = x;
    return true;
  }
  if (k == LLVMVectorTypeKind) return fail(c, "vector constants are unsupported");
  return fail(c, strf(c, "unsupported constant: %s", value_text(c, v)));
}

/* Writes v's in-memory image at buf[off..]. Addresses in pointer-sized slots become
 * relocations when `relocs` is given (a global's initializer) and fail otherwise. */
static bool write_const(dctx *c, LLVMValueRef v, uint8_t *buf, uint64_t size, uint64_t off,
                        vec *relocs, int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (depth > 64) return fail(c, "initializer nested too deeply");
  if (!LLVMTypeIsSized(t)) return fail(c, "initializer of an unsized type");
  uint64_t n = LLVMStoreSizeOfType(c->td, t);
  if (off > size || n > size - off) return fail(c, "initializer larger than its object");
  if (LLVMIsUndef(v) || LLVMIsAConstantAggregateZero(v) || LLVMIsAConstantPointerNull(v))
    return true; /* the buffer is zeroed */
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind && LLVMIsAConstantStruct(v)) {
    unsigned count = LLVMCountStructElementTypes(t);
    for (unsigned i = 0; i < count; i++)
      if (!write_const(c, LLVMGetOperand(v, i), buf, size, off + LLVMOffsetOfElement(c->td, t, i),
                       relocs, depth + 1))
        return false;
    return true;
  }
  if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    unsigned count = k == LLVMArrayTypeKind ? LLVMGetArrayLength(t) : LLVMGetVectorSize(t);
    uint64_t es = alloc_size(c, et);
    if (k == LLVMVectorTypeKind && LLVMSizeOfTypeInBits(c->td, et) % 8)
      return fail(c, "vector of sub-byte elements in an initializer");
    if (LLVMIsAConstantDataSequential(v)) {
      if (LLVMGetTypeKind(et) == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(et) == 8) {
        size_t len;
        const char *bytes = LLVMGetAsString(v, &len);
        if (len > count) len = count;
        memcpy(buf + off, bytes, len);
        return true;
      }
      for (unsigned i = 0; i < count; i++)
        if (!write_const(c, LLVMGetElementAsConstant(v, i), buf, size, off + i * es, relocs,
                         depth + 1))
          return false;
      return true;
    }
    if (LLVMIsAConstantArray(v) || LLVMIsAConstantVector(v)) {
      for (unsigned i = 0; i < count; i++)
        if (!write_const(c, LLVMGetOperand(v, i), buf, size, off + i * es, relocs, depth + 1))
          return false;
      return true;
    }
  }
  if (!value_width(c, t) || k == LLVMStructTypeKind || k == LLVMArrayTypeKind ||
      k == LLVMVectorTypeKind)
    return fail(c, strf(c, "unsupported initializer of type %s", type_name(c, t)));
  cval cv;
  if (!fold(c, v, depth + 1, &cv)) return false;
  if (!is_address(&cv)) {
    for (uint64_t i = 0; i < n && i < 16; i++) buf[off + i] = (uint8_t)(cv.value >> (8 * i));
    return true;
  }
  if (n != 8) return fail(c, "address stored in a field narrower than a pointer");
  if (!relocs) return fail(c, "address inside an aggregate constant operand");
  size_t r = vec_push(c, relocs, sizeof(ir_reloc));
  ir_reloc *rl = &VAT(*relocs, ir_reloc, r);
  rl->offset = off;
  rl->target = cv.index;
  rl->is_function = cv.kind == IR_OPND_FUNC;
  rl->addend = (int64_t)(uint64_t)cv.value;
  return true;
}

/* ---- operands ------------------------------------------------------------------------ */

static bool operand(dctx *c, LLVMValueRef v, ir_operand *o) {
  memset(o, 0, sizeof *o);
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned w = value_width(c, t);
  if (!w) return fail(c, strf(c, "operand of unsupported type %s", type_name(c, t)));
  o->width = (uint16_t)w;
  if (LLVMIsAArgument(v) || LLVMIsAInstruction(v)) {
    o->kind = IR_OPND_REG;
    o->index = pmap_get(&c->values, v);
    if (o->index == IR_NONE) return fail(c, "operand defined outside its function");
    return true;
  }
  if (LLVMIsAInlineAsm(v)) return fail(c, "inline assembly is unsupported");
  if (!LLVMIsConstant(v)) return fail(c, strf(c, "unsupported operand %s", value_text(c, v)));
  cval cv;
  if (!fold(c, v, 0, &cv)) return false;
  o->kind = cv.kind;
  if (cv.kind == IR_OPND_CONST) {
    o->index = add_const(c, cv.value, w);
  } else {
    if (w != 64) return fail(c, "address operand narrower than a pointer");
    o->index = cv.index;
    o->offset = (int64_t)(uint64_t)cv.value;
  }
  return true;
}

/* Appends v as the next operand of the instruction being decoded. */
static bool add_op(dctx *c, LLVMValueRef v) {
  ir_operand o;
  if (!operand(c, v, &o)) return false;
  size_t i = vec_push(c, &c->operands, sizeof(ir_operand));
  VAT(c->operands, ir_operand, i) = o;
  return true;
}

static bool add_ops(dctx *c, LLVMValueRef in, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    if (!add_op(c, LLVMGetOperand(in, i))) return false;
  return true;
}

/* ---- control flow --------------------------------------------------------------------- */

/* The edge from `from` to `to`, with the parallel moves of to's phis. */
static uint32_t make_edge(dctx *c, LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
  size_t e = vec_push(c, &c->edges, sizeof(ir_edge));
  VAT(c->edges, ir_edge, e).target = pmap_get(&c->blocks, to);
  VAT(c->edges, ir_edge, e).moves = (uint32_t)c->moves.len;
  const char *bad = NULL;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(to);
       phi && LLVMGetInstructionOpcode(phi) == LLVMPHI; phi = LLVMGetNextInstruction(phi)) {
    uint32_t dst = pmap_get(&c->values, phi);
    LLVMValueRef src = NULL;
    unsigned n = LLVMCountIncoming(phi);
    for (unsigned k = 0; k < n && !src; k++)
      if (LLVMGetIncomingBlock(phi, k) == from) src = LLVMGetIncomingValue(phi, k);
    ir_operand o;
    if (!src) {
      bad = "phi without a value for this predecessor";
    } else if (!VAT(c->reg_width, uint16_t, dst)) {
      bad = strf(c, "phi of unsupported type %s", type_name(c, LLVMTypeOf(phi)));
    } else if (!operand(c, src, &o)) {
      bad = c->reason;
    } else {
      size_t m = vec_push(c, &c->moves, sizeof(ir_move));
      VAT(c->moves, ir_move, m).dst = dst;
      VAT(c->moves, ir_move, m).src = o;
      c->p->stats.phi_moves++;
      continue;
    }
    break;
  }
  ir_edge *ed = &VAT(c->edges, ir_edge, e);
  ed->nmoves = (uint32_t)(c->moves.len - ed->moves);
  ed->unsupported = bad;
  c->p->stats.edges++;
  return (uint32_t)e;
}

typedef struct case_ent {
  LLVMBasicBlockRef dest;
  u128 value;
  uint32_t group;
} case_ent;

static bool decode_switch(dctx *c, LLVMValueRef in, ir_inst *I) {
  LLVMValueRef cond = LLVMGetOperand(in, 0); /* LLVMGetCondition is for br only */
  if (LLVMGetTypeKind(LLVMTypeOf(cond)) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(LLVMTypeOf(cond)) > 128)
    return fail(c, "switch on an unsupported type");
  if (!add_op(c, cond)) return false;
  LLVMBasicBlockRef from = LLVMGetInstructionParent(in);
  LLVMBasicBlockRef dflt = LLVMGetSwitchDefaultDest(in);
  unsigned nsucc = LLVMGetNumSuccessors(in);
  /* Group the cases by target block, in order of first appearance. */
  c->cases.len = 0;
  hmap_clear(&c->case_group);
  uint32_t ngroups = 0;
  for (unsigned k = 1; k < nsucc; k++) {
    LLVMBasicBlockRef dest = LLVMGetSuccessor(in, k);
    if (dest == dflt) {
      c->p->stats.switch_cases_to_default++;
      continue;
    }
    size_t i = vec_push(c, &c->cases, sizeof(case_ent));
    VAT(c->cases, case_ent, i).dest = dest;
    VAT(c->cases, case_ent, i).value = const_int(LLVMGetOperand(in, 2 * k));
    uint32_t g = pmap_get(&c->case_group, dest);
    if (g == IR_NONE) {
      g = ngroups++;
      pmap_put(c, &c->case_group, dest, g);
    }
    VAT(c->cases, case_ent, i).group = g;
  }
  I->u.sw.groups = (uint32_t)c->groups.len;
  I->u.sw.ngroups = ngroups;
  for (uint32_t g = 0; g < ngroups; g++) {
    size_t gi = vec_push(c, &c->groups, sizeof(ir_case_group));
    VAT(c->groups, ir_case_group, gi).values = (uint32_t)c->case_values.len;
    LLVMBasicBlockRef dest = NULL;
    for (size_t i = 0; i < c->cases.len; i++) {
      case_ent *ce = &VAT(c->cases, case_ent, i);
      if (ce->group != g) continue;
      dest = ce->dest;
      size_t vi = vec_push(c, &c->case_values, sizeof(u128));
      VAT(c->case_values, u128, vi) = VAT(c->cases, case_ent, i).value;
    }
    VAT(c->groups, ir_case_group, gi).nvalues =
        (uint32_t)(c->case_values.len - VAT(c->groups, ir_case_group, gi).values);
    uint32_t e = make_edge(c, from, dest);
    VAT(c->groups, ir_case_group, gi).edge = e;
  }
  I->u.sw.dflt = make_edge(c, from, dflt);
  c->p->stats.switch_groups += ngroups;
  return true;
}

/* ---- intrinsics ----------------------------------------------------------------------- */

enum { INTR_DROP = IR_OPCODE_COUNT, INTR_EXPECT, INTR_OBJECTSIZE };

static const struct {
  const char *name; /* a name ending in '.' matches every overload */
  unsigned op, nops;
} intrinsics[] = {
    {"llvm.dbg.", INTR_DROP, 0},
    {"llvm.lifetime.", INTR_DROP, 0},
    {"llvm.assume", INTR_DROP, 0},
    {"llvm.donothing", INTR_DROP, 0},
    {"llvm.sideeffect", INTR_DROP, 0},
    {"llvm.prefetch.", INTR_DROP, 0},
    {"llvm.experimental.noalias.scope.decl", INTR_DROP, 0},
    {"llvm.var.annotation", INTR_DROP, 0},
    {"llvm.memcpy.", IR_MEMCPY, 3},
    {"llvm.memmove.", IR_MEMMOVE, 3},
    {"llvm.memset.", IR_MEMSET, 3},
    {"llvm.uadd.with.overflow.", IR_UADDO, 2},
    {"llvm.sadd.with.overflow.", IR_SADDO, 2},
    {"llvm.usub.with.overflow.", IR_USUBO, 2},
    {"llvm.ssub.with.overflow.", IR_SSUBO, 2},
    {"llvm.umul.with.overflow.", IR_UMULO, 2},
    {"llvm.smul.with.overflow.", IR_SMULO, 2},
    {"llvm.umin.", IR_UMIN, 2},
    {"llvm.umax.", IR_UMAX, 2},
    {"llvm.smin.", IR_SMIN, 2},
    {"llvm.smax.", IR_SMAX, 2},
    {"llvm.abs.", IR_ABS, 2},
    {"llvm.bswap.", IR_BSWAP, 1},
    {"llvm.ctpop.", IR_CTPOP, 1},
    {"llvm.ctlz.", IR_CTLZ, 2},
    {"llvm.cttz.", IR_CTTZ, 2},
    {"llvm.fshl.", IR_FSHL, 3},
    {"llvm.fshr.", IR_FSHR, 3},
    {"llvm.fma.", IR_FMA, 3},
    {"llvm.fmuladd.", IR_FMA, 3}, /* clang emits it for a*b+c under -ffp-contract=on */
    {"llvm.fabs.", IR_FABS, 1},
    {"llvm.expect.", INTR_EXPECT, 1}, /* also llvm.expect.with.probability */
    {"llvm.objectsize.", INTR_OBJECTSIZE, 0},
    {"llvm.stacksave", IR_STACKSAVE, 0},
    {"llvm.stackrestore", IR_STACKRESTORE, 1},
    {"llvm.trap", IR_TRAP, 0},
    {"llvm.va_start", IR_VASTART, 1},
    {"llvm.va_end", IR_VAEND, 1},
    {"llvm.va_copy", IR_VACOPY, 2},
};

static int find_intrinsic(const char *name) {
  for (size_t i = 0; i < sizeof intrinsics / sizeof intrinsics[0]; i++) {
    const char *p = intrinsics[i].name;
    size_t n = strlen(p);
    if (p[n - 1] == '.' ? !strncmp(name, p, n) : !strcmp(name, p)) return (int)i;
  }
  return -1;
}

/* Returns false with a reason, true with I filled; sets *drop when nothing is emitted. */
static bool decode_intrinsic(dctx *c, LLVMValueRef in, const char *name, ir_inst *I, bool *drop) {
  int k = find_intrinsic(name);
  if (k < 0) return fail(c, strf(c, "unsupported intrinsic %s", name));
  unsigned op = intrinsics[k].op;
  LLVMTypeRef rt = LLVMTypeOf(in);
  c->p->stats.intrinsics++;
  if (op == INTR_DROP) {
    *drop = is_void(rt);
    if (*drop) return true;
    return fail(c, strf(c, "unsupported intrinsic %s", name));
  }
  if (op == INTR_EXPECT) {
    I->op = IR_MOVE;
    return add_op(c, LLVMGetOperand(in, 0));
  }
  if (op == INTR_OBJECTSIZE) { /* like KLEE: "unknown" — 0 for min, all ones for max */
    LLVMValueRef min = LLVMGetOperand(in, 1);
    bool is_min = LLVMIsAConstantInt(min) && LLVMConstIntGetZExtValue(min);
    I->op = IR_MOVE;
    size_t i = vec_push(c, &c->operands, sizeof(ir_operand));
    ir_operand *o = &VAT(c->operands, ir_operand, i);
    o->kind = IR_OPND_CONST;
    o->width = I->width;
    o->index = add_const(c, is_min ? 0 : ~(u128)0, I->width);
    return true;
  }
  I->op = (uint8_t)op;
  switch (op) {
  case IR_UMIN:
  case IR_UMAX:
  case IR_SMIN:
  case IR_SMAX:
  case IR_ABS:
  case IR_BSWAP:
  case IR_CTPOP:
  case IR_CTLZ:
  case IR_CTTZ:
  case IR_FSHL:
  case IR_FSHR:
    if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind)
      return fail(c, strf(c, "unsupported intrinsic %s (vector)", name));
    break;
  case IR_UADDO:
  case IR_SADDO:
  case IR_USUBO:
  case IR_SSUBO:
  case IR_UMULO:
  case IR_SMULO:
    if (LLVMGetTypeKind(LLVMStructGetTypeAtIndex(rt, 0)) != LLVMIntegerTypeKind)
      return fail(c, strf(c, "unsupported intrinsic %s (vector)", name));
    I->u.ovf.flag_offset = (uint32_t)LLVMOffsetOfElement(c->td, rt, 1);
    break;
  case IR_FMA:
  case IR_FABS:
    if (!is_fp(rt)) return fail(c, strf(c, "unsupported intrinsic %s (type)", name));
    break;
  default: break;
  }
  return add_ops(c, in, intrinsics[k].nops);
}

/* ---- instructions ---------------------------------------------------------------------- */

static const char *llvm_opcode_name(LLVMOpcode op) {
  switch (op) {
  case LLVMIndirectBr: return "indirectbr (computed goto)";
  case LLVMInvoke: return "invoke";
  case LLVMCallBr: return "callbr";
  case LLVMResume: return "resume";
  case LLVMLandingPad: return "landingpad";
  case LLVMCleanupRet: return "cleanupret";
  case LLVMCatchRet: return "catchret";
  case LLVMCatchPad: return "catchpad";
  case LLVMCleanupPad: return "cleanuppad";
  case LLVMCatchSwitch: return "catchswitch";
  case LLVMExtractElement: return "extractelement";
  case LLVMInsertElement: return "insertelement";
  case LLVMShuffleVector: return "shufflevector";
  case LLVMAtomicCmpXchg: return "cmpxchg";
  case LLVMAtomicRMW: return "atomicrmw";
  case LLVMFence: return "fence";
  case LLVMUserOp1:
  case LLVMUserOp2: return "user operator";
  default: return "instruction";
  }
}

static bool decode_cast(dctx *c, LLVMValueRef in, LLVMOpcode opc, ir_inst *I) {
  LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(in, 0)), to = LLVMTypeOf(in);
  LLVMTypeKind fk = LLVMGetTypeKind(from), tk = LLVMGetTypeKind(to);
  bool ok;
  switch (opc) {
  case LLVMTrunc:
    I->op = IR_TRUNC;
    ok = fk == LLVMIntegerTypeKind;
    break;
  case LLVMZExt:
    I->op = IR_ZEXT;
    ok = fk == LLVMIntegerTypeKind;
    break;
  case LLVMSExt:
    I->op = IR_SEXT;
    ok = fk == LLVMIntegerTypeKind;
    break;
  case LLVMPtrToInt:
    I->op = IR_PTRTOINT;
    ok = fk == LLVMPointerTypeKind;
    break;
  case LLVMIntToPtr:
    I->op = IR_INTTOPTR;
    ok = fk == LLVMIntegerTypeKind;
    break;
  case LLVMFPTrunc:
    I->op = IR_FPTRUNC;
    ok = is_fp(from) && is_fp(to);
    break;
  case LLVMFPExt:
    I->op = IR_FPEXT;
    ok = is_fp(from) && is_fp(to);
    break;
  case LLVMFPToUI:
    I->op = IR_FPTOUI;
    ok = is_fp(from) && tk == LLVMIntegerTypeKind;
    break;
  case LLVMFPToSI:
    I->op = IR_FPTOSI;
    ok = is_fp(from) && tk == LLVMIntegerTypeKind;
    break;
  case LLVMUIToFP:
    I->op = IR_UITOFP;
    ok = fk == LLVMIntegerTypeKind && is_fp(to);
    break;
  case LLVMSIToFP:
    I->op = IR_SITOFP;
    ok = fk == LLVMIntegerTypeKind && is_fp(to);
    break;
  default: /* bitcast, addrspacecast: the bits are unchanged */
    I->op = IR_MOVE;
    ok = fk != LLVMVectorTypeKind && tk != LLVMVectorTypeKind && value_width(c, from) == I->width;
  }
  if (!ok) return fail(c, strf(c, "cast from %s to %s", type_name(c, from), type_name(c, to)));
  return add_op(c, LLVMGetOperand(in, 0));
}

/* Byte offset of an extractvalue/insertvalue path inside the aggregate type t. */
static bool agg_offset(dctx *c, LLVMValueRef in, LLVMTypeRef t, uint32_t *offset) {
  unsigned n = LLVMGetNumIndices(in);
  const unsigned *idx = LLVMGetIndices(in);
  uint64_t off = 0;
  for (unsigned i = 0; i < n; i++) {
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      off += LLVMOffsetOfElement(c->td, t, idx[i]);
      t = LLVMStructGetTypeAtIndex(t, idx[i]);
    } else {
      t = LLVMGetElementType(t);
      off += (uint64_t)idx[i] * alloc_size(c, t);
    }
  }
  *offset = (uint32_t)off;
  return true;
}

/* Fills I for one instruction; false (with c->reason) makes it IR_UNSUPPORTED. */
static bool decode_body(dctx *c, LLVMValueRef in, LLVMOpcode opc, ir_inst *I, bool *drop) {
  LLVMTypeRef rt = LLVMTypeOf(in);
  if (!is_void(rt) && !I->width)
    return fail(c, strf(c, "%s of unsupported type %s", opc == LLVMCall ? "call" : "value",
                        type_name(c, rt)));
  switch (opc) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMUDiv:
  case LLVMSDiv:
  case LLVMURem:
  case LLVMSRem:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor: {
    static const uint8_t map[] = {
        [LLVMAdd] = IR_ADD,   [LLVMSub] = IR_SUB,   [LLVMMul] = IR_MUL,   [LLVMUDiv] = IR_UDIV,
        [LLVMSDiv] = IR_SDIV, [LLVMURem] = IR_UREM, [LLVMSRem] = IR_SREM, [LLVMShl] = IR_SHL,
        [LLVMLShr] = IR_LSHR, [LLVMAShr] = IR_ASHR, [LLVMAnd] = IR_AND,   [LLVMOr] = IR_OR,
        [LLVMXor] = IR_XOR,
    };
    if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind) return fail(c, "vector arithmetic");
    I->op = map[opc];
    return add_ops(c, in, 2);
  }
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem:
  case LLVMFNeg:
    if (!is_fp(rt)) return fail(c, strf(c, "floating point of type %s", type_name(c, rt)));
    I->op = opc == LLVMFAdd   ? IR_FADD
            : opc == LLVMFSub ? IR_FSUB
            : opc == LLVMFMul ? IR_FMUL
            : opc == LLVMFDiv ? IR_FDIV
            : opc == LLVMFRem ? IR_FREM
                              : IR_FNEG;
    return add_ops(c, in, opc == LLVMFNeg ? 1 : 2);
  case LLVMICmp:
    if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind) return fail(c, "vector comparison");
    I->op = IR_ICMP;
    I->aux = (uint8_t)(LLVMGetICmpPredicate(in) - LLVMIntEQ);
    return add_ops(c, in, 2);
  case LLVMFCmp:
    if (LLVMGetTypeKind(rt) != LLVMIntegerTypeKind || !is_fp(LLVMTypeOf(LLVMGetOperand(in, 0))))
      return fail(c, strf(c, "fcmp of type %s", type_name(c, LLVMTypeOf(LLVMGetOperand(in, 0)))));
    I->op = IR_FCMP;
    I->aux = (uint8_t)LLVMGetFCmpPredicate(in);
    return add_ops(c, in, 2);
  case LLVMSelect:
    if (LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(in, 0))) != LLVMIntegerTypeKind)
      return fail(c, "select on a vector condition");
    I->op = IR_SELECT;
    return add_ops(c, in, 3);
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMFPTrunc:
  case LLVMFPExt:
  case LLVMFPToUI:
  case LLVMFPToSI:
  case LLVMUIToFP:
  case LLVMSIToFP: return decode_cast(c, in, opc, I);
  case LLVMFreeze: I->op = IR_MOVE; return add_ops(c, in, 1);
  case LLVMAlloca: {
    LLVMTypeRef at = LLVMGetAllocatedType(in);
    if (!LLVMTypeIsSized(at)) return fail(c, "alloca of an unsized type");
    I->op = IR_ALLOCA;
    I->u.alloca.size = LLVMABISizeOfType(c->td, at);
    I->u.alloca.align = LLVMGetAlignment(in);
    if (!I->u.alloca.align) I->u.alloca.align = LLVMABIAlignmentOfType(c->td, at);
    return add_ops(c, in, 1);
  }
  case LLVMLoad:
  case LLVMVAArg:
    I->op = opc == LLVMLoad ? IR_LOAD : IR_VAARG;
    I->aux = value_kind(rt);
    I->u.mem.bytes = (uint32_t)LLVMStoreSizeOfType(c->td, rt);
    I->u.mem.align = opc == LLVMLoad ? LLVMGetAlignment(in) : 0;
    if (!I->u.mem.align) I->u.mem.align = LLVMABIAlignmentOfType(c->td, rt);
    return add_ops(c, in, 1);
  case LLVMStore: {
    LLVMTypeRef vt = LLVMTypeOf(LLVMGetOperand(in, 0));
    if (!value_width(c, vt))
      return fail(c, strf(c, "store of unsupported type %s", type_name(c, vt)));
    I->op = IR_STORE;
    I->aux = value_kind(vt);
    I->u.mem.bytes = (uint32_t)LLVMStoreSizeOfType(c->td, vt);
    I->u.mem.align = LLVMGetAlignment(in);
    if (!I->u.mem.align) I->u.mem.align = LLVMABIAlignmentOfType(c->td, vt);
    return add_ops(c, in, 2);
  }
  case LLVMGetElementPtr: {
    unsigned n = (unsigned)LLVMGetNumOperands(in);
    while (c->gep_vars.len < n) vec_push(c, &c->gep_vars, sizeof(gep_var));
    gep_var *vars = c->gep_vars.data;
    unsigned nvars = 0;
    int64_t off = 0;
    bool ok = LLVMGetTypeKind(rt) == LLVMPointerTypeKind ? gep_walk(c, in, &off, vars, &nvars)
                                                         : fail(c, "vector getelementptr");
    I->op = IR_GEP;
    I->u.gep.offset = off;
    I->u.gep.scales = (uint32_t)c->scales.len;
    if (ok) ok = add_op(c, LLVMGetOperand(in, 0));
    for (unsigned i = 0; ok && i < nvars; i++) {
      ok = add_op(c, LLVMGetOperand(in, vars[i].operand));
      size_t s = vec_push(c, &c->scales, sizeof(int64_t));
      VAT(c->scales, int64_t, s) = vars[i].scale;
    }
    return ok;
  }
  case LLVMExtractValue: {
    LLVMValueRef agg = LLVMGetOperand(in, 0);
    I->op = IR_EXTRACTVALUE;
    return agg_offset(c, in, LLVMTypeOf(agg), &I->u.agg.offset) && add_op(c, agg);
  }
  case LLVMInsertValue:
    I->op = IR_INSERTVALUE;
    return agg_offset(c, in, rt, &I->u.agg.offset) && add_ops(c, in, 2);
  case LLVMCall: {
    LLVMValueRef callee = LLVMGetCalledValue(in);
    if (LLVMIsAInlineAsm(callee)) return fail(c, "inline assembly is unsupported");
    LLVMValueRef target = callee;
    while (LLVMIsAConstantExpr(target) && (LLVMGetConstOpcode(target) == LLVMBitCast ||
                                           LLVMGetConstOpcode(target) == LLVMAddrSpaceCast))
      target = LLVMGetOperand(target, 0);
    while (LLVMIsAGlobalAlias(target)) target = LLVMAliasGetAliasee(target);
    if (LLVMIsAFunction(target)) {
      size_t len;
      const char *name = LLVMGetValueName2(target, &len);
      if (len > 5 && !strncmp(name, "llvm.", 5)) return decode_intrinsic(c, in, name, I, drop);
    }
    I->op = IR_CALL;
    I->u.call.nfixed = LLVMCountParamTypes(LLVMGetCalledFunctionType(in));
    if (!add_op(c, callee)) return false;
    ir_operand *co = &VAT(c->operands, ir_operand, c->operands.len - 1);
    I->u.call.func = co->kind == IR_OPND_FUNC && co->offset == 0 ? co->index : IR_NONE;
    return add_ops(c, in, LLVMGetNumArgOperands(in));
  }
  case LLVMRet: I->op = IR_RET; return add_ops(c, in, (unsigned)LLVMGetNumOperands(in));
  case LLVMBr: {
    LLVMBasicBlockRef from = LLVMGetInstructionParent(in);
    if (!LLVMIsConditional(in)) {
      I->op = IR_BR;
      I->u.br.edge[0] = make_edge(c, from, LLVMGetSuccessor(in, 0));
      I->u.br.edge[1] = IR_NONE;
      return true;
    }
    I->op = IR_CONDBR;
    if (!add_op(c, LLVMGetCondition(in))) return false;
    I->u.br.edge[0] = make_edge(c, from, LLVMGetSuccessor(in, 0));
    I->u.br.edge[1] = make_edge(c, from, LLVMGetSuccessor(in, 1));
    return true;
  }
  case LLVMSwitch: I->op = IR_SWITCH; return decode_switch(c, in, I);
  case LLVMUnreachable: I->op = IR_UNREACHABLE; return true;
  case LLVMFence: /* one thread: nothing to order */
    *drop = true;
    c->p->stats.dropped++;
    return true;
  default: return fail(c, strf(c, "unsupported instruction %s", llvm_opcode_name(opc)));
  }
}

static void decode_inst(dctx *c, LLVMValueRef in) {
  LLVMOpcode opc = LLVMGetInstructionOpcode(in);
  if (opc == LLVMPHI) return; /* lives on the edges */
  ir_inst I;
  memset(&I, 0, sizeof I);
  I.dst = pmap_get(&c->values, in);
  I.width = I.dst == IR_NONE ? 0 : VAT(c->reg_width, uint16_t, I.dst);
  I.line = LLVMGetDebugLocLine(in);
  unsigned col = LLVMGetDebugLocColumn(in);
  I.col = (uint16_t)(col > UINT16_MAX ? UINT16_MAX : col);
  /* Where the side tables stand, to roll back an instruction that turns out unsupported. */
  size_t nops = c->operands.len, nedges = c->edges.len, nmoves = c->moves.len,
         ngroups = c->groups.len, nvals = c->case_values.len, nscales = c->scales.len;
  uint64_t phi_moves = c->p->stats.phi_moves, edges = c->p->stats.edges;
  I.ops = (uint32_t)nops;
  bool drop = false;
  if (!decode_body(c, in, opc, &I, &drop)) {
    I.op = IR_UNSUPPORTED;
    I.u.reason = c->reason ? c->reason : "unsupported";
    c->operands.len = nops;
    c->edges.len = nedges;
    c->moves.len = nmoves;
    c->groups.len = ngroups;
    c->case_values.len = nvals;
    c->scales.len = nscales;
    c->p->stats.phi_moves = phi_moves;
    c->p->stats.edges = edges;
    c->p->stats.unsupported++;
  } else if (drop) {
    c->p->stats.dropped++;
    return;
  }
  c->reason = NULL;
  assert(c->operands.len - nops <= UINT16_MAX);
  I.nops = (uint16_t)(c->operands.len - nops);
  size_t i = vec_push(c, &c->insts, sizeof(ir_inst));
  VAT(c->insts, ir_inst, i) = I;
}

/* ---- functions and globals ------------------------------------------------------------- */

static const char *debug_file(dctx *c, LLVMValueRef v) {
  unsigned flen = 0, dlen = 0;
  const char *file = LLVMGetDebugLocFilename(v, &flen);
  if (!file || !flen) return NULL;
  const char *dir = LLVMGetDebugLocDirectory(v, &dlen);
  if (file[0] == '/' || !dir || !dlen) return str_n(c, file, flen);
  return strf(c, "%.*s/%.*s", (int)dlen, dir, (int)flen, file);
}

/* A declaration's argument or return kind for a native call: scalars only. */
static uint8_t native_kind(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind: return LLVMGetIntTypeWidth(t) <= 64 ? IR_VK_INT : IR_VK_OTHER;
  case LLVMPointerTypeKind: return IR_VK_PTR;
  case LLVMFloatTypeKind: return IR_VK_FLOAT;
  case LLVMDoubleTypeKind: return IR_VK_DOUBLE;
  default: return IR_VK_OTHER;
  }
}

static void decode_function(dctx *c, uint32_t fi, LLVMValueRef f) {
  ir_function *fn = &c->p->funcs[fi];
  c->fn = fn;
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  fn->nargs = LLVMCountParams(f);
  fn->is_vararg = LLVMIsFunctionVarArg(fty);
  fn->is_decl = LLVMIsDeclaration(f);
  fn->is_intrinsic = !strncmp(fn->name, "llvm.", 5);
  bool check_types = !fn->is_intrinsic; /* intrinsics take metadata, tokens, vectors */
  fn->line = fn->is_decl ? 0 : LLVMGetDebugLocLine(f);
  fn->file = fn->is_decl ? NULL : debug_file(c, f);
  LLVMTypeRef ret = LLVMGetReturnType(fty);
  if (!is_void(ret)) {
    fn->ret_width = (uint16_t)value_width(c, ret);
    if (!fn->ret_width && check_types)
      fn->unsupported = strf(c, "returns unsupported type %s", type_name(c, ret));
  }
  if (fn->is_decl && !fn->is_intrinsic) {
    fn->ret_kind = is_void(ret) ? IR_VK_INT : native_kind(ret);
    fn->arg_kind = decode_calloc(c, fn->nargs ? fn->nargs : 1, 1);
    unsigned byval_attr = LLVMGetEnumAttributeKindForName("byval", 5);
    unsigned sret_attr = LLVMGetEnumAttributeKindForName("sret", 4);
    for (unsigned i = 0; i < fn->nargs; i++) {
      fn->arg_kind[i] = native_kind(LLVMTypeOf(LLVMGetParam(f, i)));
      if (LLVMGetEnumAttributeAtIndex(f, i + 1, byval_attr) ||
          LLVMGetEnumAttributeAtIndex(f, i + 1, sret_attr))
        fn->arg_kind[i] = IR_VK_OTHER;
    }
  }
  hmap_clear(&c->values);
  hmap_clear(&c->blocks);
  c->reg_width.len = 0;
  for (unsigned i = 0; i < fn->nargs; i++) {
    LLVMValueRef a = LLVMGetParam(f, i);
    unsigned w = value_width(c, LLVMTypeOf(a));
    if (!w && !fn->unsupported && check_types)
      fn->unsupported =
          strf(c, "argument %u has unsupported type %s", i, type_name(c, LLVMTypeOf(a)));
    pmap_put(c, &c->values, a, i);
    size_t r = vec_push(c, &c->reg_width, sizeof(uint16_t));
    VAT(c->reg_width, uint16_t, r) = (uint16_t)w;
  }
  /* byval arguments: the callee gets its own copy (clang passes large structs this way) */
  unsigned byval_kind = LLVMGetEnumAttributeKindForName("byval", 5);
  for (unsigned i = 0; i < fn->nargs && !fn->is_decl; i++) {
    LLVMAttributeRef at = LLVMGetEnumAttributeAtIndex(f, i + 1, byval_kind);
    if (!at) continue;
    LLVMTypeRef t = LLVMGetTypeAttributeValue(at);
    if (!t) t = LLVMGetElementType(LLVMTypeOf(LLVMGetParam(f, i)));
    if (!fn->byval) fn->byval = decode_calloc(c, fn->nargs, sizeof *fn->byval);
    fn->byval[i] = alloc_size(c, t);
  }
  /* Pass 1: number blocks and registers. */
  uint32_t nblocks = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
    pmap_put(c, &c->blocks, b, nblocks++);
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in)) {
      LLVMTypeRef t = LLVMTypeOf(in);
      if (is_void(t)) continue;
      size_t r = vec_push(c, &c->reg_width, sizeof(uint16_t));
      VAT(c->reg_width, uint16_t, r) = (uint16_t)value_width(c, t);
      pmap_put(c, &c->values, in, (uint32_t)r);
    }
  }
  /* Pass 2: decode. */
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b)) {
    size_t bi = vec_push(c, &c->bblocks, sizeof(ir_block));
    VAT(c->bblocks, ir_block, bi).first = (uint32_t)c->insts.len;
    for (LLVMValueRef in = LLVMGetFirstInstruction(b); in; in = LLVMGetNextInstruction(in))
      decode_inst(c, in);
    VAT(c->bblocks, ir_block, bi).count =
        (uint32_t)(c->insts.len - VAT(c->bblocks, ir_block, bi).first);
  }
  c->p->stats.definitions += !fn->is_decl;
  c->p->stats.blocks += nblocks;
  c->p->stats.instructions += c->insts.len;
  c->p->stats.registers += c->reg_width.len;
  fn->reg_width = vec_take(&c->reg_width, &fn->nregs);
  fn->blocks = vec_take(&c->bblocks, &fn->nblocks);
  fn->insts = vec_take(&c->insts, &fn->ninsts);
  fn->operands = vec_take(&c->operands, &fn->noperands);
  fn->edges = vec_take(&c->edges, &fn->nedges);
  fn->moves = vec_take(&c->moves, &fn->nmoves);
  fn->groups = vec_take(&c->groups, &fn->ngroups);
  fn->case_values = vec_take(&c->case_values, &fn->ncase_values);
  fn->scales = vec_take(&c->scales, &fn->nscales);
  c->fn = NULL;
}

static void decode_global(dctx *c, uint32_t gi, LLVMValueRef g) {
  ir_global *gl = &c->p->globals[gi];
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  gl->size = alloc_size(c, t);
  gl->align = LLVMGetAlignment(g);
  if (!gl->align && LLVMTypeIsSized(t)) gl->align = LLVMABIAlignmentOfType(c->td, t);
  if (!gl->align) gl->align = 1;
  gl->is_const = LLVMIsGlobalConstant(g);
  LLVMValueRef init = LLVMGetInitializer(g);
  gl->is_decl = LLVMIsDeclaration(g) || !init;
  if (gl->is_decl) return;
  gl->init = decode_calloc(c, gl->size ? gl->size : 1, 1);
  c->relocs.len = 0;
  if (!write_const(c, init, gl->init, gl->size, 0, &c->relocs, 0)) gl->unsupported = c->reason;
  gl->relocs = vec_take(&c->relocs, &gl->nrelocs);
}

static int cmp_name(const void *a, const void *b) {
  return strcmp(((const name_ix *)a)->name, ((const name_ix *)b)->name);
}

static uint32_t find_name(const name_ix *tab, uint32_t n, const char *name) {
  if (!tab || !name) return IR_NONE;
  name_ix key = {name, 0};
  const name_ix *hit = bsearch(&key, tab, n, sizeof *tab, cmp_name);
  return hit ? hit->index : IR_NONE;
}

uint32_t ir_find_function(const ir_program *p, const char *name) {
  return find_name(p->priv->func_names, p->nfuncs, name);
}

uint32_t ir_find_global(const ir_program *p, const char *name) {
  return find_name(p->priv->glob_names, p->nglobals, name);
}

static const char *value_name(dctx *c, LLVMValueRef v, const char *anon, uint32_t index) {
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  if (name && len) return str_n(c, name, len);
  return strf(c, "%s.%u", anon, index);
}

static void decode_module(dctx *c) {
  ir_program *p = c->p;
  uint32_t nf = 0, ng = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->m); f; f = LLVMGetNextFunction(f)) nf++;
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->m); g; g = LLVMGetNextGlobal(g)) ng++;
  p->funcs = decode_calloc(c, nf, sizeof *p->funcs);
  p->nfuncs = nf;
  p->globals = decode_calloc(c, ng, sizeof *p->globals);
  p->nglobals = ng;
  p->priv->func_names = decode_calloc(c, nf, sizeof(name_ix));
  p->priv->glob_names = decode_calloc(c, ng, sizeof(name_ix));
  uint32_t i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->m); f; f = LLVMGetNextFunction(f), i++) {
    pmap_put(c, &c->funcs, f, i);
    p->funcs[i].name = value_name(c, f, "__unnamed_function", i);
    p->priv->func_names[i] = (name_ix){p->funcs[i].name, i};
  }
  i = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->m); g; g = LLVMGetNextGlobal(g), i++) {
    pmap_put(c, &c->globals, g, i);
    p->globals[i].name = value_name(c, g, "__unnamed_global", i);
    p->priv->glob_names[i] = (name_ix){p->globals[i].name, i};
  }
  qsort(p->priv->func_names, nf, sizeof(name_ix), cmp_name);
  qsort(p->priv->glob_names, ng, sizeof(name_ix), cmp_name);
  i = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(c->m); g; g = LLVMGetNextGlobal(g))
    decode_global(c, i++, g);
  i = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->m); f; f = LLVMGetNextFunction(f))
    decode_function(c, i++, f);
  p->consts = vec_take(&c->consts, &p->nconsts);
  p->stats.functions = nf;
  p->stats.globals = ng;
}

static void dctx_free(dctx *c) {
  vec *vs[] = {&c->consts, &c->insts,       &c->operands, &c->edges,   &c->moves,
               &c->groups, &c->case_values, &c->scales,   &c->bblocks, &c->reg_width,
               &c->relocs, &c->cases,       &c->gep_vars};
  for (size_t i = 0; i < sizeof vs / sizeof vs[0]; i++) free(vs[i]->data);
  hmap_free(&c->funcs);
  hmap_free(&c->globals);
  hmap_free(&c->values);
  hmap_free(&c->blocks);
  hmap_free(&c->case_group);
  if (c->llvm_msg) LLVMDisposeMessage(c->llvm_msg);
}

static void set_err(char **err, const char *msg) {
  if (!err) return;
  size_t n = strlen(msg) + 1;
  if ((*err = xalloc_try_realloc(NULL, n))) memcpy(*err, msg, n);
}

ir_program *ir_decode(LLVMModuleRef m, char **err) {
  if (err) *err = NULL;
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  if (LLVMPointerSize(td) != 8 || LLVMByteOrder(td) != LLVMLittleEndian) {
    set_err(err,
            "symq: error: unsupported data layout: symq needs 64-bit little-endian "
            "pointers (x86-64)");
    return NULL;
  }
  /* volatile: both are read after a longjmp back into this frame. */
  dctx *volatile c = xalloc_try_realloc(NULL, sizeof *c);
  ir_program *volatile p = NULL;
  if (!c) goto oom_early;
  memset(c, 0, sizeof *c);
  if (setjmp(c->oom)) goto oom;
  c->m = m;
  c->td = td;
  p = c->p = decode_calloc(c, 1, sizeof *p);
  p->priv = decode_calloc(c, 1, sizeof *p->priv);
  p->pointer_size = 8;
  decode_module(c);
  dctx_free(c);
  free(c);
  return p;
oom:
  dctx_free(c);
  free(c);
  ir_free(p);
oom_early:
  set_err(err, "symq: error: out of memory while decoding the program");
  return NULL;
}

void ir_free(ir_program *p) {
  if (!p) return;
  for (uint32_t i = 0; p->funcs && i < p->nfuncs; i++) {
    ir_function *fn = &p->funcs[i];
    free(fn->reg_width);
    free(fn->byval);
    free(fn->arg_kind);
    free(fn->blocks);
    free(fn->insts);
    free(fn->operands);
    free(fn->edges);
    free(fn->moves);
    free(fn->groups);
    free(fn->case_values);
    free(fn->scales);
  }
  for (uint32_t i = 0; p->globals && i < p->nglobals; i++) {
    free(p->globals[i].init);
    free(p->globals[i].relocs);
  }
  free(p->funcs);
  free(p->globals);
  free(p->consts);
  if (p->priv) {
    for (chunk *k = p->priv->strings, *next; k; k = next) {
      next = k->next;
      free(k);
    }
    free(p->priv->func_names);
    free(p->priv->glob_names);
    free(p->priv);
  }
  free(p);
}

/* ---- printing -------------------------------------------------------------------------- */

static const char *const opcode_names[IR_OPCODE_COUNT] = {
    [IR_NOP] = "nop",
    [IR_ADD] = "add",
    [IR_SUB] = "sub",
    [IR_MUL] = "mul",
    [IR_UDIV] = "udiv",
    [IR_SDIV] = "sdiv",
    [IR_UREM] = "urem",
    [IR_SREM] = "srem",
    [IR_SHL] = "shl",
    [IR_LSHR] = "lshr",
    [IR_ASHR] = "ashr",
    [IR_AND] = "and",
    [IR_OR] = "or",
    [IR_XOR] = "xor",
    [IR_ICMP] = "icmp",
    [IR_SELECT] = "select",
    [IR_TRUNC] = "trunc",
    [IR_ZEXT] = "zext",
    [IR_SEXT] = "sext",
    [IR_PTRTOINT] = "ptrtoint",
    [IR_INTTOPTR] = "inttoptr",
    [IR_MOVE] = "move",
    [IR_FPTRUNC] = "fptrunc",
    [IR_FPEXT] = "fpext",
    [IR_FPTOUI] = "fptoui",
    [IR_FPTOSI] = "fptosi",
    [IR_UITOFP] = "uitofp",
    [IR_SITOFP] = "sitofp",
    [IR_FADD] = "fadd",
    [IR_FSUB] = "fsub",
    [IR_FMUL] = "fmul",
    [IR_FDIV] = "fdiv",
    [IR_FREM] = "frem",
    [IR_FNEG] = "fneg",
    [IR_FCMP] = "fcmp",
    [IR_FMA] = "fma",
    [IR_FABS] = "fabs",
    [IR_ALLOCA] = "alloca",
    [IR_LOAD] = "load",
    [IR_STORE] = "store",
    [IR_GEP] = "gep",
    [IR_EXTRACTVALUE] = "extractvalue",
    [IR_INSERTVALUE] = "insertvalue",
    [IR_CALL] = "call",
    [IR_RET] = "ret",
    [IR_BR] = "br",
    [IR_CONDBR] = "condbr",
    [IR_SWITCH] = "switch",
    [IR_UNREACHABLE] = "unreachable",
    [IR_VAARG] = "va_arg",
    [IR_MEMCPY] = "memcpy",
    [IR_MEMMOVE] = "memmove",
    [IR_MEMSET] = "memset",
    [IR_UADDO] = "uadd.overflow",
    [IR_SADDO] = "sadd.overflow",
    [IR_USUBO] = "usub.overflow",
    [IR_SSUBO] = "ssub.overflow",
    [IR_UMULO] = "umul.overflow",
    [IR_SMULO] = "smul.overflow",
    [IR_UMIN] = "umin",
    [IR_UMAX] = "umax",
    [IR_SMIN] = "smin",
    [IR_SMAX] = "smax",
    [IR_ABS] = "abs",
    [IR_BSWAP] = "bswap",
    [IR_CTPOP] = "ctpop",
    [IR_CTLZ] = "ctlz",
    [IR_CTTZ] = "cttz",
    [IR_FSHL] = "fshl",
    [IR_FSHR] = "fshr",
    [IR_STACKSAVE] = "stacksave",
    [IR_STACKRESTORE] = "stackrestore",
    [IR_TRAP] = "trap",
    [IR_VASTART] = "va_start",
    [IR_VAEND] = "va_end",
    [IR_VACOPY] = "va_copy",
    [IR_UNSUPPORTED] = "unsupported",
};

const char *ir_opcode_name(ir_opcode op) {
  return op < IR_OPCODE_COUNT && opcode_names[op] ? opcode_names[op] : "?";
}

const char *ir_icmp_name(ir_icmp_pred p) {
  static const char *const n[] = {"eq",  "ne",  "ugt", "uge", "ult",
                                  "ule", "sgt", "sge", "slt", "sle"};
  return (unsigned)p < 10 ? n[p] : "?";
}

const char *ir_fcmp_name(ir_fcmp_pred p) {
  static const char *const n[] = {"false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
                                  "uno",   "ueq", "ugt", "uge", "ult", "ule", "une", "true"};
  return (unsigned)p < 16 ? n[p] : "?";
}

static void print_u128(FILE *f, u128 v) {
  if (v >> 64) {
    fprintf(f, "0x%" PRIx64 "%016" PRIx64, (uint64_t)(v >> 64), (uint64_t)v);
  } else {
    fprintf(f, "%" PRIu64, (uint64_t)v);
  }
}

static void print_operand(FILE *f, const ir_program *p, const ir_operand *o) {
  switch (o->kind) {
  case IR_OPND_REG: fprintf(f, "%%%u", o->index); break;
  case IR_OPND_CONST: {
    u128 v = p->consts[o->index].value;
    fprintf(f, "i%u ", o->width);
    if (o->width > 1 && o->width <= 64 && (v >> (o->width - 1)) & 1)
      fprintf(f, "%" PRId64, sext64(v, o->width)); /* negative: easier to read */
    else
      print_u128(f, v);
    break;
  }
  case IR_OPND_GLOBAL:
  case IR_OPND_FUNC:
    fprintf(f, "@%s",
            o->kind == IR_OPND_GLOBAL ? p->globals[o->index].name : p->funcs[o->index].name);
    if (o->offset) fprintf(f, "%+" PRId64, o->offset);
    break;
  default: fprintf(f, "?"); break;
  }
}

static void print_edge(FILE *f, const ir_program *p, const ir_function *fn, uint32_t e) {
  const ir_edge *ed = &fn->edges[e];
  fprintf(f, "bb%u", ed->target);
  if (ed->nmoves) {
    fprintf(f, " [");
    for (uint32_t k = 0; k < ed->nmoves; k++) {
      const ir_move *mv = &fn->moves[ed->moves + k];
      fprintf(f, "%s%%%u <- ", k ? ", " : "", mv->dst);
      print_operand(f, p, &mv->src);
    }
    fprintf(f, "]");
  }
  if (ed->unsupported) fprintf(f, " {unsupported: %s}", ed->unsupported);
}

void ir_dump_function(FILE *f, const ir_program *p, const ir_function *fn) {
  fprintf(f, "%s %s(", fn->is_decl ? "declare" : "define", fn->name);
  for (uint32_t a = 0; a < fn->nargs; a++)
    fprintf(f, "%s%%%u:i%u", a ? ", " : "", a, fn->reg_width ? fn->reg_width[a] : 0);
  fprintf(f, "%s) -> ", fn->is_vararg ? ", ..." : "");
  fprintf(f, fn->ret_width ? "i%u" : "void", fn->ret_width);
  if (!fn->is_decl) fprintf(f, " regs=%u", fn->nregs);
  if (fn->file) fprintf(f, " file=%s:%u", fn->file, fn->line);
  for (uint32_t a = 0; fn->byval && a < fn->nargs; a++)
    if (fn->byval[a]) fprintf(f, " byval(%%%u)=%" PRIu64, a, fn->byval[a]);
  if (fn->unsupported) fprintf(f, " {unsupported: %s}", fn->unsupported);
  fprintf(f, "\n");
  for (uint32_t b = 0; b < fn->nblocks; b++) {
    fprintf(f, " bb%u:\n", b);
    const ir_block *bl = &fn->blocks[b];
    for (uint32_t k = bl->first; k < bl->first + bl->count; k++) {
      const ir_inst *in = &fn->insts[k];
      const ir_operand *ops = ir_operands(fn, in);
      fprintf(f, "  ");
      if (in->dst != IR_NONE) fprintf(f, "%%%u:i%u = ", in->dst, in->width);
      fprintf(f, "%s", ir_opcode_name(in->op));
      switch (in->op) {
      case IR_ICMP: fprintf(f, " %s", ir_icmp_name(in->aux)); break;
      case IR_FCMP: fprintf(f, " %s", ir_fcmp_name(in->aux)); break;
      case IR_ALLOCA:
        fprintf(f, " size=%" PRIu64 " align=%u", in->u.alloca.size, in->u.alloca.align);
        break;
      case IR_LOAD:
      case IR_STORE:
      case IR_VAARG: {
        static const char *const kinds[] = {"int", "ptr", "float", "double"};
        fprintf(f, " %s%u align=%u", kinds[in->aux & 3], in->u.mem.bytes * 8, in->u.mem.align);
        break;
      }
      case IR_GEP: fprintf(f, " +%" PRId64, in->u.gep.offset); break;
      case IR_EXTRACTVALUE:
      case IR_INSERTVALUE: fprintf(f, " @%u", in->u.agg.offset); break;
      case IR_UADDO:
      case IR_SADDO:
      case IR_USUBO:
      case IR_SSUBO:
      case IR_UMULO:
      case IR_SMULO: fprintf(f, " flag@%u", in->u.ovf.flag_offset); break;
      case IR_CALL:
        if (in->u.call.nfixed + 1u != in->nops) fprintf(f, " fixed=%u", in->u.call.nfixed);
        break;
      default: break;
      }
      for (uint32_t o = 0; o < in->nops; o++) {
        fprintf(f, "%s", o ? ", " : " ");
        print_operand(f, p, &ops[o]);
        if (in->op == IR_GEP && o > 0)
          fprintf(f, " * %" PRId64, fn->scales[in->u.gep.scales + o - 1]);
      }
      switch (in->op) {
      case IR_BR:
        fprintf(f, " ");
        print_edge(f, p, fn, in->u.br.edge[0]);
        break;
      case IR_CONDBR:
        fprintf(f, " ? ");
        print_edge(f, p, fn, in->u.br.edge[0]);
        fprintf(f, " : ");
        print_edge(f, p, fn, in->u.br.edge[1]);
        break;
      case IR_SWITCH:
        for (uint32_t g = 0; g < in->u.sw.ngroups; g++) {
          const ir_case_group *gr = &fn->groups[in->u.sw.groups + g];
          fprintf(f, " {");
          for (uint32_t v = 0; v < gr->nvalues; v++) {
            fprintf(f, "%s", v ? "," : "");
            print_u128(f, fn->case_values[gr->values + v]);
          }
          fprintf(f, "}->");
          print_edge(f, p, fn, gr->edge);
        }
        fprintf(f, " default->");
        print_edge(f, p, fn, in->u.sw.dflt);
        break;
      case IR_UNSUPPORTED: fprintf(f, " \"%s\"", in->u.reason); break;
      default: break;
      }
      if (in->line) fprintf(f, "  ; %u:%u", in->line, in->col);
      fprintf(f, "\n");
    }
  }
}

void ir_dump(FILE *f, const ir_program *p) {
  for (uint32_t i = 0; i < p->nglobals; i++) {
    const ir_global *g = &p->globals[i];
    fprintf(f, "global @%s size=%" PRIu64 " align=%u%s%s", g->name, g->size, g->align,
            g->is_const ? " const" : "", g->is_decl ? " extern" : "");
    if (g->init) {
      fprintf(f, " init=");
      for (uint64_t k = 0; k < g->size && k < 64; k++) fprintf(f, "%02x", g->init[k]);
      if (g->size > 64) fprintf(f, "...");
    }
    for (uint32_t r = 0; r < g->nrelocs; r++) {
      const ir_reloc *rl = &g->relocs[r];
      fprintf(f, " [%" PRIu64 "]=@%s%+" PRId64, rl->offset,
              rl->is_function ? p->funcs[rl->target].name : p->globals[rl->target].name,
              rl->addend);
    }
    if (g->unsupported) fprintf(f, " {unsupported: %s}", g->unsupported);
    fprintf(f, "\n");
  }
  for (uint32_t i = 0; i < p->nfuncs; i++) ir_dump_function(f, p, &p->funcs[i]);
}

void ir_stats_json(json_writer *j, const ir_stats *s) {
  json_object_begin(j);
  JSON_COUNTERS(j, {"instructions", s->instructions}, {"unsupported_instructions", s->unsupported});
  json_object_end(j);
}
