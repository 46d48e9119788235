/*
 * builtins — the driver API and malloc/free built into the interpreter: the functions symq
 * implements itself rather than running a body (KLEE's SpecialFunctionHandler). Internal to
 * engine/exec.
 *
 * Contract
 *   - builtins_bind looks every function of a program up by name once, when the executor
 *     is created, and returns the array of their builtin_id by function index (the caller
 *     frees it). Calls switch on the id: no call compares names.
 *   - A function without a body is bound to its builtin, or BUILTIN_NONE (an unsupported
 *     external call). A defined function keeps its body (the libc model's malloc runs as
 *     code), except the error functions (reach_error, __VERIFIER_error), which are the
 *     property violation whatever their body.
 *   - builtins_call (executor.h) runs a call of a bound function.
 */
#ifndef SYMQ_BUILTINS_H
#define SYMQ_BUILTINS_H

#include "engine/core/ir.h"

typedef enum builtin_id {
  BUILTIN_NONE,          /* the function's body, or an unsupported external call */
  BUILTIN_REACH_ERROR,   /* reach_error, __VERIFIER_error: SV-COMP's error functions */
  BUILTIN_MAKE_SYMBOLIC, /* klee_make_symbolic, symq_make_symbolic */
  BUILTIN_ASSUME,        /* klee_assume, symq_assume: an assumption that cannot hold is an error */
  BUILTIN_VERIFIER_ASSUME, /* __VERIFIER_assume: such a path ends quietly */
  BUILTIN_INT,             /* klee_int, symq_int */
  BUILTIN_RANGE,           /* klee_range, symq_range */
  BUILTIN_ASSERT_FAIL,     /* __assert_fail */
  BUILTIN_ABORT,           /* abort, klee_abort */
  BUILTIN_REPORT_ERROR,    /* klee_report_error, symq_report_error */
  BUILTIN_EXIT,            /* exit, _exit, _Exit */
  BUILTIN_SILENT_EXIT,     /* klee_silent_exit */
  BUILTIN_MALLOC,
  BUILTIN_CALLOC,
  BUILTIN_REALLOC,
  BUILTIN_FREE,
  BUILTIN_WRITE,       /* write to fd 1 and 2 */
  BUILTIN_IS_SYMBOLIC, /* klee_is_symbolic */
  BUILTIN_IS_REPLAY,   /* klee_is_replay, symq_is_replay */
  BUILTIN_GET_VALUE,   /* klee_get_value* */
  BUILTIN_PRINT_EXPR,  /* klee_print_expr */
  BUILTIN_MERGE_BEGIN, /* klee_open_merge, symq_merge_begin */
  BUILTIN_MERGE_END,   /* klee_close_merge, symq_merge_end */
  BUILTIN_PREFER_CEX,  /* klee_prefer_cex: accepted, no effect */
  BUILTIN_COUNT
} builtin_id;

builtin_id *builtins_bind(const ir_program *prog);

#endif
