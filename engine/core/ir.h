/*
 * ir — the program as the interpreter runs it: every LLVM function decoded ONCE into a
 * dense instruction array, so the hot loop never calls the LLVM C API (Lua's "decode once").
 *
 * Contract
 *   - ir_decode reads a prepared module (bitcode.h) and returns a self-contained program:
 *     every string, initializer and table is owned by the ir_program, so the LLVM module and
 *     context may be disposed right after. ir_free releases everything.
 *   - ir_decode fails (NULL, *err = malloc'd one-line message) only for conditions that make
 *     the whole module unusable: a pointer size other than 8, or out of memory. Anything it
 *     cannot express in one instruction becomes IR_UNSUPPORTED with a reason; the
 *     interpreter ends the path there. Decoding never crashes on valid IR.
 *   - Everything is indexed by dense uint32_t indices, never by pointers: functions and
 *     globals in module order; blocks, instructions, registers, edges per function.
 *     IR_NONE marks "no index" (no result register, an indirect callee, ...).
 *   - Data layout: x86-64, pointers are 8 bytes and little-endian; sizes, alignments and
 *     field offsets come from the module's data layout (never guessed).
 *
 * Values
 *   Every value is a bit-vector of `width` bits (1..128): integers at their width, pointers
 *   64, float 32 and double 64 (as their IEEE bits; the interpreter runs floating point
 *   concretely), and aggregates (structs, arrays) as their in-memory layout of
 *   8 * alloc-size bits, little-endian, padding included. Types that fit none of these
 *   (vectors, x86_fp80, half, aggregates over 128 bits) make an instruction unsupported.
 *
 * Registers
 *   Per function: arguments are registers 0 .. nargs-1, then every value-producing
 *   instruction (phis included) gets the next index in block layout order. `reg_width`
 *   gives every register's width (0 for a register of an unsupported type, which only
 *   unsupported instructions can write).
 *
 * Control flow
 *   Blocks are [first, first+count) ranges of the instruction array, in layout order; block
 *   0 is the entry. Each ends with its terminator. Phi nodes do not appear as instructions:
 *   each edge (br, switch) carries the PARALLEL moves of the target's phis for that
 *   predecessor — read every source, then write every destination. An edge whose move
 *   cannot be decoded carries `unsupported` (the path ends when it takes that edge).
 *   A switch's cases are grouped by target block (cases that target the default block are
 *   dropped: they go there anyway), so the interpreter forks once per distinct target, as
 *   KLEE does.
 *
 * Operands of each opcode (fn->operands[inst->ops .. inst->ops + inst->nops)):
 *   ADD..XOR               a, b (all of the result's width; shifts: b of the same width)
 *   ICMP  (aux: pred)      a, b                       FCMP (aux: pred)  a, b
 *   SELECT                 cond (width 1), a, b
 *   TRUNC..SITOFP, MOVE    x       (source width = operand width; MOVE copies the bits:
 *                                   bitcast, addrspacecast, freeze, llvm.expect, objectsize)
 *   FADD..FREM  a, b;  FNEG  a     (width 32 = float, 64 = double)
 *   FMA  a, b, c (a*b+c rounded once: llvm.fma and llvm.fmuladd)     FABS  x
 *   ALLOCA  (u.alloca)     count   (u.alloca.size bytes per element)
 *   LOAD    (u.mem, aux: ir_value_kind)   ptr
 *   STORE   (u.mem, aux: ir_value_kind)   value, ptr
 *   GEP     (u.gep)        base, idx_1..idx_n: result = base + u.gep.offset
 *                          + Σ sext64(idx_i) * fn->scales[u.gep.scales + i - 1]
 *                          (an index wider than 64 bits is truncated to 64)
 *   EXTRACTVALUE (u.agg)   agg: result = bits [8*offset, 8*offset + width) of agg
 *   INSERTVALUE  (u.agg)   agg, v: result = agg with bits [8*offset, 8*offset + v.width) = v
 *   CALL    (u.call)       callee, args...: callee is an IR_OPND_FUNC operand for a direct
 *                          call (then u.call.func is its index), any pointer otherwise.
 *                          u.call.nfixed = parameters of the call site's function type;
 *                          arguments past it are variadic.
 *   RET                    [value]
 *   BR      (u.br)         — ; edge u.br.edge[0]
 *   CONDBR  (u.br)         cond (width 1); edge[0] when true, edge[1] when false
 *   SWITCH  (u.sw)         cond; groups fn->groups[u.sw.groups .. +u.sw.ngroups), default
 *                          edge u.sw.dflt
 *   UNREACHABLE, TRAP      —
 *   UNSUPPORTED (u.reason) —  (dst/width kept, so register numbering is unchanged)
 *   VAARG   (u.mem, aux)   va_list pointer
 *   MEMCPY, MEMMOVE        dst, src, len          MEMSET  dst, byte (width 8), len
 *                          (len is i32 or i64; the volatile flag is not kept)
 *   UADDO..SMULO (u.ovf)   a, b: result = aggregate { a.width bits result at bit 0, i1 flag
 *                          at byte u.ovf.flag_offset }, of `width` bits
 *   UMIN UMAX SMIN SMAX    a, b                   ABS  x, int_min_is_poison (width 1)
 *   BSWAP CTPOP            x                      CTLZ CTTZ  x, zero_is_poison (width 1)
 *   FSHL FSHR              a, b, shift
 *   STACKSAVE              — (result: pointer)    STACKRESTORE  ptr
 *   VASTART VAEND          va_list pointer        VACOPY  dst, src
 *   Dropped entirely (no instruction): llvm.dbg.*, llvm.lifetime.*, llvm.assume,
 *   llvm.donothing, llvm.sideeffect, llvm.prefetch, llvm.experimental.noalias.scope.decl,
 *   llvm.var.annotation, and `fence` (one thread). Every other llvm.* call is UNSUPPORTED
 *   "unsupported intrinsic NAME". Atomic loads and stores decode as plain ones; atomicrmw,
 *   cmpxchg, vector instructions, invoke/landingpad and indirectbr are UNSUPPORTED.
 */
#ifndef SYMQ_IR_H
#define SYMQ_IR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <llvm-c/Core.h>

#include "engine/core/json.h"

typedef unsigned __int128 u128; /* same definition as expr.h (C11 allows the repeat) */

#define IR_NONE UINT32_MAX

typedef enum ir_opcode {
  IR_NOP, /* never emitted: a zeroed ir_inst is harmless */
  /* integer binary */
  IR_ADD,
  IR_SUB,
  IR_MUL,
  IR_UDIV,
  IR_SDIV,
  IR_UREM,
  IR_SREM,
  IR_SHL,
  IR_LSHR,
  IR_ASHR,
  IR_AND,
  IR_OR,
  IR_XOR,
  IR_ICMP,
  IR_SELECT,
  /* casts */
  IR_TRUNC,
  IR_ZEXT,
  IR_SEXT,
  IR_PTRTOINT,
  IR_INTTOPTR,
  IR_MOVE,
  IR_FPTRUNC,
  IR_FPEXT,
  IR_FPTOUI,
  IR_FPTOSI,
  IR_UITOFP,
  IR_SITOFP,
  /* floating point (concrete) */
  IR_FADD,
  IR_FSUB,
  IR_FMUL,
  IR_FDIV,
  IR_FREM,
  IR_FNEG,
  IR_FCMP,
  IR_FMA,
  IR_FABS, /* llvm.fma, llvm.fmuladd (fusing is allowed), llvm.fabs */
  /* memory */
  IR_ALLOCA,
  IR_LOAD,
  IR_STORE,
  IR_GEP,
  IR_EXTRACTVALUE,
  IR_INSERTVALUE,
  /* calls and control flow */
  IR_CALL,
  IR_RET,
  IR_BR,
  IR_CONDBR,
  IR_SWITCH,
  IR_UNREACHABLE,
  IR_VAARG,
  /* intrinsics */
  IR_MEMCPY,
  IR_MEMMOVE,
  IR_MEMSET,
  IR_UADDO,
  IR_SADDO,
  IR_USUBO,
  IR_SSUBO,
  IR_UMULO,
  IR_SMULO,
  IR_UMIN,
  IR_UMAX,
  IR_SMIN,
  IR_SMAX,
  IR_ABS,
  IR_BSWAP,
  IR_CTPOP,
  IR_CTLZ,
  IR_CTTZ,
  IR_FSHL,
  IR_FSHR,
  IR_STACKSAVE,
  IR_STACKRESTORE,
  IR_TRAP,
  IR_VASTART,
  IR_VAEND,
  IR_VACOPY,
  IR_UNSUPPORTED,
  IR_OPCODE_COUNT
} ir_opcode;

typedef enum ir_icmp_pred {
  IR_ICMP_EQ,
  IR_ICMP_NE,
  IR_ICMP_UGT,
  IR_ICMP_UGE,
  IR_ICMP_ULT,
  IR_ICMP_ULE,
  IR_ICMP_SGT,
  IR_ICMP_SGE,
  IR_ICMP_SLT,
  IR_ICMP_SLE
} ir_icmp_pred;

/* In LLVMRealPredicate's order: O* are false when either side is NaN, U* true. */
typedef enum ir_fcmp_pred {
  IR_FCMP_FALSE,
  IR_FCMP_OEQ,
  IR_FCMP_OGT,
  IR_FCMP_OGE,
  IR_FCMP_OLT,
  IR_FCMP_OLE,
  IR_FCMP_ONE,
  IR_FCMP_ORD,
  IR_FCMP_UNO,
  IR_FCMP_UEQ,
  IR_FCMP_UGT,
  IR_FCMP_UGE,
  IR_FCMP_ULT,
  IR_FCMP_ULE,
  IR_FCMP_UNE,
  IR_FCMP_TRUE
} ir_fcmp_pred;

/* What a load, store or va_arg moves (aggregates move as IR_VK_INT of their size). */
typedef enum ir_value_kind {
  IR_VK_INT,
  IR_VK_PTR,
  IR_VK_FLOAT,
  IR_VK_DOUBLE,
  IR_VK_OTHER /* only in ir_function.arg_kind/ret_kind */
} ir_value_kind;

typedef enum ir_operand_kind {
  IR_OPND_REG,    /* index: register */
  IR_OPND_CONST,  /* index: prog->consts (undef and poison decode as constant 0) */
  IR_OPND_GLOBAL, /* index: global; value = its address + offset */
  IR_OPND_FUNC    /* index: function; value = its address + offset */
} ir_operand_kind;

typedef struct ir_operand {
  uint8_t kind; /* ir_operand_kind */
  uint8_t pad_;
  uint16_t width; /* bits */
  uint32_t index;
  int64_t offset; /* GLOBAL, FUNC: byte offset */
} ir_operand;

typedef struct ir_const {
  u128 value; /* truncated to width */
  uint32_t width;
} ir_const;

typedef struct ir_move {
  uint32_t dst; /* register */
  ir_operand src;
} ir_move;

typedef struct ir_edge {
  uint32_t target;         /* block */
  uint32_t moves, nmoves;  /* fn->moves[moves .. moves + nmoves): parallel */
  const char *unsupported; /* non-NULL: taking this edge ends the path with this reason */
} ir_edge;

typedef struct ir_case_group {
  uint32_t edge;            /* fn->edges */
  uint32_t values, nvalues; /* fn->case_values[values .. values + nvalues), cond's width */
} ir_case_group;

typedef struct ir_inst {
  uint8_t op;     /* ir_opcode */
  uint8_t aux;    /* ICMP/FCMP predicate; LOAD/STORE/VAARG ir_value_kind */
  uint16_t width; /* result width in bits; 0 when there is no result */
  uint32_t dst;   /* result register or IR_NONE */
  uint32_t ops;   /* first operand in fn->operands */
  uint16_t nops;
  uint16_t col;  /* source column, 0 when unknown */
  uint32_t line; /* source line, 0 when unknown */
  union {
    struct {
      uint64_t size;
      uint32_t align;
    } alloca; /* size of one element */
    struct {
      uint32_t bytes, align;
    } mem; /* store size, alignment */
    struct {
      int64_t offset;
      uint32_t scales;
    } gep;
    struct {
      uint32_t offset;
    } agg; /* byte offset in the aggregate */
    struct {
      uint32_t func, nfixed;
    } call; /* func: IR_NONE when indirect */
    struct {
      uint32_t edge[2];
    } br;
    struct {
      uint32_t groups, ngroups, dflt;
    } sw;
    struct {
      uint32_t flag_offset;
    } ovf;
    const char *reason; /* UNSUPPORTED */
  } u;
} ir_inst;

typedef struct ir_block {
  uint32_t first, count; /* instructions; the last one is the terminator */
} ir_block;

typedef struct ir_function {
  const char *name;
  const char *file;      /* source file from debug info (joined with its directory when
                            relative), or NULL */
  uint32_t line;         /* line of the definition, 0 when unknown */
  uint32_t nargs, nregs; /* registers 0..nargs-1 are the arguments */
  uint16_t ret_width;    /* 0 for void */
  bool is_vararg;
  bool is_decl;            /* no body: blocks, insts, ... are empty */
  bool is_intrinsic;       /* an llvm.* declaration; calls to it decode to their own opcode */
  const char *unsupported; /* an argument or the return has an unsupported type, or NULL */
  uint16_t *reg_width;     /* nregs */
  uint64_t *byval;         /* NULL, or nargs sizes: argument k is a pointer to a `byval`
                              copy of byval[k] bytes that the callee owns (0: not byval) */
  /* declarations only (NULL otherwise): the C-level kind of argument k and of the return,
   * for calls made natively (engine/exec/external.h); IR_VK_OTHER: an aggregate, a vector,
   * a byval/sret-less struct or any type a native call cannot pass as a scalar */
  uint8_t *arg_kind;
  uint8_t ret_kind;
  ir_block *blocks;
  uint32_t nblocks;
  ir_inst *insts;
  uint32_t ninsts;
  ir_operand *operands;
  uint32_t noperands;
  ir_edge *edges;
  uint32_t nedges;
  ir_move *moves;
  uint32_t nmoves;
  ir_case_group *groups;
  uint32_t ngroups;
  u128 *case_values;
  uint32_t ncase_values;
  int64_t *scales;
  uint32_t nscales;
} ir_function;

/* A pointer-sized (8-byte) slot in a global's initializer holding another global's or a
 * function's address plus an addend. */
typedef struct ir_reloc {
  uint64_t offset; /* in the initializer */
  uint32_t target; /* global or function index */
  bool is_function;
  int64_t addend;
} ir_reloc;

typedef struct ir_global {
  const char *name;
  uint64_t size;  /* alloc size of the value type (0 for an unsized declaration) */
  uint32_t align; /* declared alignment, else the type's ABI alignment */
  bool is_const;
  bool is_decl;  /* declared only (extern): init is NULL */
  uint8_t *init; /* size bytes, relocations' slots hold zero */
  ir_reloc *relocs;
  uint32_t nrelocs;        /* by increasing offset */
  const char *unsupported; /* part of the initializer could not be decoded (it reads as 0) */
} ir_global;

typedef struct ir_stats {
  uint64_t functions, definitions, blocks, instructions, registers, globals;
  uint64_t unsupported;    /* instructions decoded as IR_UNSUPPORTED */
  uint64_t undef_operands; /* undef/poison operands decoded as 0 */
  uint64_t edges, phi_moves, switch_groups, switch_cases_to_default;
  uint64_t constexprs_folded, intrinsics, dropped; /* dropped: dbg, lifetime, ... */
} ir_stats;
/* The "decoded" object of stats.json: "instructions", "unsupported_instructions". */
void ir_stats_json(json_writer *j, const ir_stats *s);

typedef struct ir_program {
  ir_function *funcs;
  uint32_t nfuncs;
  ir_global *globals;
  uint32_t nglobals;
  ir_const *consts;
  uint32_t nconsts;
  uint32_t pointer_size; /* 8 */
  ir_stats stats;
  struct ir_private *priv; /* name index and string storage */
} ir_program;

/* Decodes the module. Returns NULL on failure with *err set to a malloc'd message (err may
 * be NULL). The module is only read. */
ir_program *ir_decode(LLVMModuleRef m, char **err);
void ir_free(ir_program *p); /* NULL is allowed */

/* Index of the function or global with that name, or IR_NONE. */
uint32_t ir_find_function(const ir_program *p, const char *name);
uint32_t ir_find_global(const ir_program *p, const char *name);

/* The edges leaving block b are its terminator's: br's one, condbr's two (the true side
 * first), a switch's case groups in order and then its default; ret and unreachable have
 * none. ir_block_nedges counts them; ir_block_edge(f, b, k) is the k-th, k < that count. */
static inline uint32_t ir_block_nedges(const ir_function *f, uint32_t b) {
  const ir_block *bl = &f->blocks[b];
  if (!bl->count) return 0;
  const ir_inst *t = &f->insts[bl->first + bl->count - 1];
  return t->op == IR_BR ? 1 : t->op == IR_CONDBR ? 2 : t->op == IR_SWITCH ? t->u.sw.ngroups + 1 : 0;
}
static inline uint32_t ir_block_edge(const ir_function *f, uint32_t b, uint32_t k) {
  const ir_inst *t = &f->insts[f->blocks[b].first + f->blocks[b].count - 1];
  if (t->op != IR_SWITCH) return t->u.br.edge[k];
  return k < t->u.sw.ngroups ? f->groups[t->u.sw.groups + k].edge : t->u.sw.dflt;
}

static inline const ir_operand *ir_operands(const ir_function *f, const ir_inst *i) {
  return f->operands + i->ops;
}
static inline u128 ir_const_value(const ir_program *p, const ir_operand *o) {
  return p->consts[o->index].value;
}

const char *ir_opcode_name(ir_opcode op);
const char *ir_icmp_name(ir_icmp_pred p);
const char *ir_fcmp_name(ir_fcmp_pred p);
void ir_dump(FILE *f, const ir_program *p);
void ir_dump_function(FILE *f, const ir_program *p, const ir_function *fn);

#endif
