/*
 * executor.h — internal to engine/exec: nothing outside this folder includes it. It holds
 * the executor, the one run's state that interp.c (the loop and the instructions),
 * builtins.c (the functions symq implements itself) and coverage.c share, and the services
 * interp.c gives the other two: ending a path, branching, resolving memory, allocating.
 *
 * Contract
 *   - One executor per interp_run; every pointer in it is owned by the run (prog, opt,
 *     solver, out and result are the caller's).
 *   - Expressions an instruction handler makes go through T (or C), which registers them
 *     for release at the end of the step: what these functions take or return is borrowed
 *     until then, unless they say otherwise.
 *   - A function that returns false or STEP_ENDED has ended the state (its test written);
 *     the caller must not touch it again.
 */
#ifndef SYMQ_EXECUTOR_H
#define SYMQ_EXECUTOR_H

#include <assert.h>
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "engine/core/expr.h"
#include "engine/core/ir.h"
#include "engine/core/memory.h"
#include "engine/core/state.h"
#include "engine/core/xalloc.h"
#include "engine/exec/builtins.h"
#include "engine/exec/coverage.h"
#include "engine/exec/interp.h"
#include "engine/exec/search.h"
#include "engine/out/testmodel.h"
#include "merge/region.h"

enum { FUNCTION_BASE = 0x10000, FUNCTION_STRIDE = 32 };

/* ENDED: the state is gone; PAUSED: it waits at a merge region's exit, out of the searcher. */
typedef enum step { STEP_CONTINUE, STEP_YIELD, STEP_ENDED, STEP_PAUSED } step;

/* One call the program's life cycle makes with the stack empty: function(arg). */
typedef struct lifecycle_step {
  uint32_t func;
  bool has_arg;
  uint64_t arg;
} lifecycle_step;

typedef struct reported_error {
  uint32_t func, inst;
  char *message;
} reported_error;

typedef struct executor {
  const ir_program *prog;
  const interp_options *opt;
  qsolver *solver;
  search *searcher;
  out_dir *out;
  interp_result *result;
  mem_allocator alloc;
  uint64_t next_state_id, next_object_id, next_array_id;
  expr **consts;        /* prog->consts as expressions */
  mem_object **globals; /* by global index */
  builtin_id *builtins; /* by function index: what a call to it runs (builtins.h) */
  mem_object **dead;    /* every object ever unbound: to tell use-after-free */
  size_t ndead, cap_dead;
  reported_error *reported;
  size_t nreported, cap_reported;
  char **warned; /* externals already warned about */
  size_t nwarned, cap_warned;
  coverage cov; /* executed instructions and nurs:covnew's distances */
  struct timespec start;
  bool halted; /* a limit or a signal: states left are ended early */
  const char *halt_reason;
  double halt_deadline; /* elapsed seconds when the halt's budget is spent */
  bool halt_signalled;  /* the halt's deadline already accounts for a signal */
  double run_deadline;  /* elapsed seconds at --max-time (INFINITY: none) */
  uint64_t memory_mb;   /* resident memory when last read (only under --max-memory) */
  char *lost;           /* states ended without a test (the budget was spent): one line
                           each, written as lost.early at the end of the halt */
  size_t lost_len, cap_lost;
  expr **scratch;
  size_t nscratch, cap_scratch;
  state **live; /* every live state, for cleanup */
  size_t nlive, cap_live;
  double next_progress;
  merge_ctx *merge; /* merge regions (merge/region.h) */
  /* the program's life cycle, as natively: each step runs when the stack empties */
  lifecycle_step *steps; /* atexit(dtor)…, ctor…, main, exit(main's value) */
  uint32_t nsteps, main_step;
  uint64_t argv_address, envp_address;
  uint32_t env_step; /* the symbolic environment's step (symenv.h) before main, or UINT32_MAX */
  bool bad_globals;  /* some global's initializer could not be decoded */
  /* --only-output-states-covering-new: by state id, whether the state covered a new
   * instruction since it was made (a fork's new state starts without, as in KLEE) */
  uint8_t *covered_new;
  size_t cap_covered_new;
  prune_ctx *prune;              /* pruning by interpolation (prune/prune.h) */
  struct external_ctx *external; /* native calls (external.h), or NULL */
  out_canon *canon;              /* the tests' models made canonical (engine/out/testmodel.h) */
} executor;

/* ---- the instruction handlers' vocabulary: every instruction uses it, hence inline ---- */

/* Registers a new reference for release at the end of the current step; returns it. */
static inline expr *T(executor *ex, expr *e) {
  if (ex->nscratch == ex->cap_scratch) {
    ex->cap_scratch = ex->cap_scratch ? 2 * ex->cap_scratch : 64;
    ex->scratch = xrealloc(ex->scratch, ex->cap_scratch * sizeof *ex->scratch);
  }
  ex->scratch[ex->nscratch++] = e;
  return e;
}

static inline expr *C(executor *ex, unsigned width, u128 value) {
  return T(ex, expr_const(width, value));
}

static inline const ir_function *fn_of(const executor *ex, const state_frame *f) {
  return &ex->prog->funcs[f->func];
}

static inline uint64_t function_address(uint32_t index) {
  return FUNCTION_BASE + (uint64_t)index * FUNCTION_STRIDE;
}

/* The value of an operand: a borrowed reference valid until the end of the step. */
static inline expr *operand(executor *ex, state *st, const ir_operand *o) {
  switch (o->kind) {
  case IR_OPND_REG: {
    expr *v = state_top(st)->regs[o->index];
    assert(v && "register read before it was written");
    return v;
  }
  case IR_OPND_CONST: return ex->consts[o->index];
  case IR_OPND_GLOBAL: return C(ex, 64, ex->globals[o->index]->address + (uint64_t)o->offset);
  default: return C(ex, 64, function_address(o->index) + (uint64_t)o->offset);
  }
}

/* Operand k of in (for a call, 0 is the callee and k + 1 its argument k). */
static inline expr *arg(executor *ex, state *st, const ir_inst *in, unsigned k) {
  const ir_function *fn = fn_of(ex, state_top(st));
  assert(k < in->nops);
  return operand(ex, st, &ir_operands(fn, in)[k]);
}

static inline void set_result(state *st, const ir_inst *in, expr *v) {
  if (in->dst != IR_NONE && v) state_set_reg(state_top(st), in->dst, v);
}

/* ---- interp.c's services to builtins.c ------------------------------------------------ */

/* A malloc'd (through xalloc) formatted string. */
char *interp_format(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "symq: warning: <what> <name>", once per name in the run. */
void interp_warn_once(executor *ex, const char *name, const char *what);

/* Ending st: a completed path (its test), an early end (test and .early file, `reason`
 * counted), an error of `kind` (test and .err file, once per instruction and message
 * unless --emit-all-errors), the solver's giving up, or no trace at all (a quiet end). */
void interp_complete_path(executor *ex, state *st);
void interp_end_early(executor *ex, state *st, const char *reason);
void interp_end_error(executor *ex, state *st, const char *kind, const char *message,
                      const char *info);
void interp_end_solver_unknown(executor *ex, state *st);
void interp_end_state(executor *ex, state *st);

/* A feasible alternative given up without its path ending (in dropped_reasons). */
void interp_remember_dropped(executor *ex, const char *reason);
/* Adds c to st's path (a rider in a merge region's tree). */
void interp_add_constraint(executor *ex, state *st, expr *c);
/* Which sides of cond are feasible on st; false when the solver could not tell. */
bool interp_feasible_sides(executor *ex, state *st, expr *cond, bool *may_true, bool *may_false);
/* Splits st on cond: st is one of *on_true, *on_false (NULL: that side is infeasible or was
 * cut by a limit), a fork the other. False when st ended (the solver could not decide). */
bool interp_branch(executor *ex, state *st, expr *cond, state **on_true, state **on_false);
/* A value of e on st (the solver's choice); false when st ended. */
bool interp_example_value(executor *ex, state *st, expr *e, u128 *out);
/* Makes e concrete on st (counted; `what` names it in dropped_reasons when other values
 * were possible); false when st ended. */
bool interp_concretize(executor *ex, state *st, expr *e, const char *what, u128 *out);
/* p as exactly one value on st, forking a state per further value (which re-executes the
 * instruction with that value excluded); false when st ended. */
bool interp_single_value(executor *ex, state *st, expr *p, uint64_t *out);

/* The live object holding [address, address + n) and the offset there, forking when the
 * address may lie elsewhere; false when st ended (a memory error or the solver). */
bool interp_resolve(executor *ex, state *st, expr *address, uint64_t n, const mem_object **out,
                    expr **offset);
/* The unbound object that held addr (a use after free or return), or NULL. */
const mem_object *interp_dead_object_at(const executor *ex, uint64_t addr);
/* Keeps o (a reference) for interp_dead_object_at. */
void interp_remember_dead(executor *ex, mem_object *o);
/* A new zeroed (or `init`) object of a constant capacity, bound in st; the caller owns the
 * returned reference. */
mem_object *interp_new_object(executor *ex, state *st, mem_kind kind, uint64_t capacity,
                              uint64_t align, const char *name, const uint8_t *init);
/* A new object of `size` bytes (a 64-bit expression, symbolic or not), bound in st; *out
 * (owned by the caller) is NULL for a size over 1 GiB. False when st ended. */
bool interp_allocate(executor *ex, state *st, mem_kind kind, expr *size, uint64_t align,
                     const char *name, mem_object **out);

/* ---- builtins.c ----------------------------------------------------------------------- */

/* Runs the call `in` of a function bound to builtin `id` (not BUILTIN_NONE): *result says
 * how st goes on (past the call when it continues). False, with st untouched, when the
 * builtin does not take the call's number of arguments: the call is then the external
 * function's (unsupported). */
bool builtins_call(executor *ex, state *st, const ir_inst *in, builtin_id id, step *result);

#endif
