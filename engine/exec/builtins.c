/*
 * builtins.c — the driver API and malloc/free built into the interpreter (contract in
 * builtins.h): a name table consulted once per function when the executor is created, and
 * the builtins themselves, which end, fork and constrain states through interp.c's
 * services (executor.h).
 */
#include "engine/exec/builtins.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/exec/executor.h"
#include "qsolver/qsolver.h"

/* ---- binding, once per program -------------------------------------------------------- */

static const struct {
  const char *name;
  builtin_id id;
} named[] = {
    /* SV-COMP's error functions: a call is the property violation, whatever their body
     * (tasks define them empty, or calling __assert_fail, and then call abort()) */
    {"reach_error", BUILTIN_REACH_ERROR},
    {"__VERIFIER_error", BUILTIN_REACH_ERROR},
    {"klee_make_symbolic", BUILTIN_MAKE_SYMBOLIC},
    {"symq_make_symbolic", BUILTIN_MAKE_SYMBOLIC},
    {"klee_assume", BUILTIN_ASSUME},
    {"symq_assume", BUILTIN_ASSUME},
    {"__VERIFIER_assume", BUILTIN_VERIFIER_ASSUME},
    {"klee_int", BUILTIN_INT},
    {"symq_int", BUILTIN_INT},
    {"klee_range", BUILTIN_RANGE},
    {"symq_range", BUILTIN_RANGE},
    {"__assert_fail", BUILTIN_ASSERT_FAIL},
    {"abort", BUILTIN_ABORT},
    {"klee_abort", BUILTIN_ABORT},
    {"klee_report_error", BUILTIN_REPORT_ERROR},
    {"symq_report_error", BUILTIN_REPORT_ERROR},
    {"exit", BUILTIN_EXIT},
    {"_exit", BUILTIN_EXIT},
    {"_Exit", BUILTIN_EXIT},
    {"klee_silent_exit", BUILTIN_SILENT_EXIT},
    {"malloc", BUILTIN_MALLOC},
    {"calloc", BUILTIN_CALLOC},
    {"realloc", BUILTIN_REALLOC},
    {"free", BUILTIN_FREE},
    {"write", BUILTIN_WRITE},
    {"klee_is_symbolic", BUILTIN_IS_SYMBOLIC},
    {"klee_is_replay", BUILTIN_IS_REPLAY},
    {"symq_is_replay", BUILTIN_IS_REPLAY},
    {"klee_print_expr", BUILTIN_PRINT_EXPR},
    {"klee_open_merge", BUILTIN_MERGE_BEGIN},
    {"symq_merge_begin", BUILTIN_MERGE_BEGIN},
    {"klee_close_merge", BUILTIN_MERGE_END},
    {"symq_merge_end", BUILTIN_MERGE_END},
    {"klee_prefer_cex", BUILTIN_PREFER_CEX},
};

/* klee_get_value_i32, _i64, … (KLEE has one per type): every name with this prefix */
static const char get_value_prefix[] = "klee_get_value";

builtin_id *builtins_bind(const ir_program *prog) {
  builtin_id *ids = xcalloc((size_t)prog->nfuncs + 1, sizeof *ids); /* BUILTIN_NONE */
  for (size_t k = 0; k < sizeof named / sizeof *named; k++) {
    uint32_t f = ir_find_function(prog, named[k].name);
    if (f == IR_NONE) continue;
    if (prog->funcs[f].is_decl || named[k].id == BUILTIN_REACH_ERROR) ids[f] = named[k].id;
  }
  for (uint32_t f = 0; f < prog->nfuncs; f++) {
    const ir_function *fn = &prog->funcs[f];
    if (fn->is_decl && strncmp(fn->name, get_value_prefix, sizeof get_value_prefix - 1) == 0)
      ids[f] = BUILTIN_GET_VALUE;
  }
  return ids;
}

/* ---- the builtins ----------------------------------------------------------------------- */

/* The call's result width (0 for void). */
static unsigned result_width(const ir_inst *in) { return in->dst == IR_NONE ? 0 : in->width; }

/* Reads a NUL-terminated string at a concrete pointer into an xalloc'd buffer (at most
 * `max` bytes). NULL when the pointer is symbolic or the bytes are not all concrete. */
static char *read_string(executor *ex, state *st, expr *ptr, size_t max) {
  if (!expr_is_const(ptr)) return NULL;
  uint64_t addr = (uint64_t)ptr->u.value;
  const mem_object *o = mem_space_find(st->mem, addr);
  if (!o) return NULL;
  size_t room = (size_t)(o->capacity - (addr - o->address));
  if (room > max) room = max;
  char *s = xrealloc(NULL, room + 1);
  for (size_t k = 0; k < room; k++) {
    uint8_t byte;
    if (!mem_read_concrete(st->mem, o, addr - o->address + k, &byte, 1)) {
      free(s);
      return NULL;
    }
    s[k] = (char)byte;
    if (!byte) return s;
  }
  s[room] = 0;
  return s;
}

static void return_value(executor *ex, state *st, const ir_inst *in, u128 value) {
  unsigned w = result_width(in);
  if (w) set_result(st, in, C(ex, w, value));
}

/* malloc/calloc/realloc: a fresh heap object; NULL for a size over 1 GiB (as KLEE). */
static bool heap_allocate(executor *ex, state *st, expr *size, uint64_t *address) {
  mem_object *o;
  if (!interp_allocate(ex, st, MEM_HEAP, size, 16, "malloc", &o)) return false;
  if (!o) interp_warn_once(ex, "a heap allocation larger than 1 GiB", "returning NULL for");
  *address = o ? o->address : 0;
  mem_object_unref(o);
  return true;
}

static step builtin_free(executor *ex, state *st, expr *p) {
  uint64_t addr;
  if (!interp_single_value(ex, st, p, &addr)) return STEP_ENDED;
  if (addr == 0) return STEP_CONTINUE;
  const mem_object *o = mem_space_find(st->mem, addr);
  if (!o) {
    const mem_object *dead = interp_dead_object_at(ex, addr);
    if (dead && dead->address == addr && dead->kind == MEM_HEAP)
      interp_end_error(ex, st, "free", "memory error: double free", NULL);
    else
      interp_end_error(ex, st, "free", "memory error: invalid pointer: free", NULL);
    return STEP_ENDED;
  }
  if (o->kind == MEM_STACK) {
    interp_end_error(ex, st, "free", "free of alloca", NULL);
    return STEP_ENDED;
  }
  if (o->kind != MEM_HEAP) {
    interp_end_error(ex, st, "free", "free of global", NULL);
    return STEP_ENDED;
  }
  if (o->address != addr) {
    interp_end_error(ex, st, "free", "memory error: invalid pointer: free", NULL);
    return STEP_ENDED;
  }
  mem_object *object = mem_object_ref((mem_object *)o);
  mem_space_unbind(st->mem, object);
  interp_remember_dead(ex, object);
  mem_object_unref(object);
  return STEP_CONTINUE;
}

/* calloc(n, size): NULL when n * size overflows size_t, as glibc; else zeroed memory. */
static step builtin_calloc(executor *ex, state *st, const ir_inst *in, expr *n, expr *size) {
  expr *wide = T(ex, expr_mul(T(ex, expr_zext(n, 128)), T(ex, expr_zext(size, 128))));
  expr *fits = T(ex, expr_ule(wide, C(ex, 128, UINT64_MAX)));
  state *ok, *overflow;
  if (!interp_branch(ex, st, fits, &ok, &overflow)) return STEP_ENDED;
  if (overflow) return_value(ex, overflow, in, 0);
  if (!ok) return STEP_CONTINUE;           /* overflow is st */
  if (overflow) state_top(overflow)->pc++; /* a forked state, past the call */
  uint64_t addr;
  if (!heap_allocate(ex, st, T(ex, expr_mul(n, size)), &addr)) return STEP_ENDED;
  return_value(ex, st, in, addr);
  return overflow ? STEP_YIELD : STEP_CONTINUE;
}

static step builtin_realloc(executor *ex, state *st, const ir_inst *in, expr *p, expr *size) {
  uint64_t old_addr;
  if (!interp_single_value(ex, st, p, &old_addr)) return STEP_ENDED;
  const mem_object *old = old_addr ? mem_space_find(st->mem, old_addr) : NULL;
  if (old_addr && (!old || old->address != old_addr || old->kind != MEM_HEAP)) {
    interp_end_error(ex, st, "free", "memory error: invalid pointer: realloc", NULL);
    return STEP_ENDED;
  }
  uint64_t addr;
  if (!heap_allocate(ex, st, size, &addr)) return STEP_ENDED;
  if (addr && old) {
    const mem_object *fresh = mem_space_find(st->mem, addr);
    uint64_t n = old->capacity < fresh->capacity ? old->capacity : fresh->capacity;
    for (uint64_t k = 0; k < n; k++) {
      expr *at = C(ex, 64, k);
      mem_write(st->mem, fresh, at, T(ex, mem_read(st->mem, old, at, 1)));
    }
  }
  if (addr && old && builtin_free(ex, st, p) == STEP_ENDED) return STEP_ENDED;
  return_value(ex, st, in, addr);
  return STEP_CONTINUE;
}

/* klee_make_symbolic(p, size, name): the whole object at p becomes a fresh input array.
 * size must be the object's size: a constant, or — for a symbolic-size object — an
 * expression the path forces equal to it (the paper's `malloc(n + 1)` then
 * `klee_make_symbolic(s, n + 1, "s")`). */
static step builtin_make_symbolic(executor *ex, state *st, expr *ptr, expr *size, expr *name_ptr) {
  u128 addr;
  if (!interp_concretize(ex, st, ptr, "klee_make_symbolic's pointer", &addr)) return STEP_ENDED;
  const mem_object *o = mem_space_find(st->mem, (uint64_t)addr);
  bool size_ok = false;
  if (o && o->address == addr) {
    expr *same = T(ex, expr_eq(T(ex, expr_resize(size, 64, false)), o->size));
    /* a constant answer asks no solver (a request prune/ would not know of: it would leave
     * every __VERIFIER_nondet_X's subtree without an interpolant) */
    if (expr_is_const(same)) size_ok = expr_is_true(same);
    else if (qs_must_be_true(ex->solver, st->pc, st->npc, same, &size_ok) == QS_UNKNOWN) {
      interp_end_solver_unknown(ex, st);
      return STEP_ENDED;
    }
  }
  if (!size_ok) {
    interp_end_error(ex, st, "user", "wrong size given to klee_make_symbolic", NULL);
    return STEP_ENDED;
  }
  char *name = read_string(ex, st, name_ptr, 256);
  if (!name) name = xstrdup("unnamed");
  /* the array's name must be unique in the state (name, name_1, …: symnames.h); the ktest
   * keeps the driver's name */
  char *unique = state_claim_name(st, name);
  expr_array *a = expr_array_new(unique, o->size, o->capacity, true, NULL);
  mem_object *object = mem_object_ref((mem_object *)o);
  mem_space_unbind(st->mem, object);
  mem_space_bind_symbolic(st->mem, object, a);
  state_add_symbolic(st, object, a, name);
  mem_object_unref(object);
  expr_array_unref(a);
  free(unique);
  free(name);
  return STEP_CONTINUE;
}

/* A fresh symbolic 32-bit value (klee_int, klee_range): an input object of its own. */
static expr *fresh_int(executor *ex, state *st, expr *name_ptr) {
  mem_object *o = interp_new_object(ex, st, MEM_GLOBAL, 4, 4, "klee_int", NULL);
  expr *addr = C(ex, 64, o->address);
  expr *size = C(ex, 64, 4);
  builtin_make_symbolic(ex, st, addr, size, name_ptr);
  expr *v = T(ex, mem_read(st->mem, o, C(ex, 64, 0), 4));
  mem_object_unref(o);
  return v;
}

/* klee_assume(c): c joins the path; a c that cannot hold is an error (user), as in KLEE.
 * __VERIFIER_assume(c) (silent): the SV-COMP rules say assume(false) never returns, so such
 * a path just ends, with no test and no error (KLEE's Test-Comp runtime: klee_silent_exit). */
static step builtin_assume(executor *ex, state *st, expr *value, bool silent) {
  expr *cond = T(ex, expr_ne(value, C(ex, value->width, 0)));
  bool may_true, may_false;
  if (!interp_feasible_sides(ex, st, cond, &may_true, &may_false)) {
    interp_end_solver_unknown(ex, st);
    return STEP_ENDED;
  }
  if (!may_true && silent) {
    /* a normal end for interpolation: no error, no further behaviour; the unsat question
     * (pc ∧ cond) that ended it was reported by interp_feasible_sides, so its core joins
     * the interpolant (a constant false needs none) */
    prune_ended(ex->prune, st, PRUNE_END_NORMAL, NULL, NULL);
    ex->result->quiet_paths++;
    interp_end_state(ex, st);
    return STEP_ENDED;
  }
  if (!may_true) {
    interp_end_error(ex, st, "user", "invalid klee_assume call (provably false)", NULL);
    return STEP_ENDED;
  }
  if (may_false) interp_add_constraint(ex, st, cond);
  merge_note_assume(ex->merge, cond);
  return STEP_CONTINUE;
}

/* write(fd, buf, n) for fd 1 and 2: the program's output, on symq's stdout and stderr.
 * Symbolic bytes are printed as one value the path allows (not added to the path). */
static step builtin_write(executor *ex, state *st, const ir_inst *in, expr *fd, expr *buf,
                          expr *count) {
  u128 n, f;
  if (!interp_concretize(ex, st, count, "write's length", &n) ||
      !interp_concretize(ex, st, fd, "write's file descriptor", &f))
    return STEP_ENDED;
  if (f != 1 && f != 2) {
    return_value(ex, st, in, (u128)-1);
    return STEP_CONTINUE;
  }
  if (n == 0) {
    return_value(ex, st, in, 0);
    return STEP_CONTINUE;
  }
  const mem_object *o;
  expr *offset;
  if (!interp_resolve(ex, st, buf, (uint64_t)n, &o, &offset)) return STEP_ENDED;
  FILE *stream = f == 1 ? stdout : stderr;
  for (uint64_t k = 0; k < n; k++) {
    expr *byte = T(ex, mem_read(st->mem, o, T(ex, expr_add(offset, C(ex, 64, k))), 1));
    u128 v;
    if (!interp_example_value(ex, st, byte, &v)) return STEP_ENDED;
    fputc((int)v, stream);
  }
  return_value(ex, st, in, n);
  return STEP_CONTINUE;
}

static bool valid_kind(const char *kind) {
  if (!kind[0] || kind[0] == '.') return false;
  for (const char *c = kind; *c; c++)
    if (!(((*c | 32) >= 'a' && (*c | 32) <= 'z') || (*c >= '0' && *c <= '9') || *c == '_' ||
          *c == '-' || *c == '.'))
      return false;
  return true;
}

/* Whether builtin id takes a call with nargs arguments: one with another number is not
 * the builtin's (an unsupported external call, as before symq knew the name). */
static bool takes(builtin_id id, unsigned nargs) {
  switch (id) {
  case BUILTIN_MAKE_SYMBOLIC:
  case BUILTIN_RANGE:
  case BUILTIN_WRITE: return nargs == 3;
  case BUILTIN_ASSUME:
  case BUILTIN_VERIFIER_ASSUME:
  case BUILTIN_INT:
  case BUILTIN_MALLOC:
  case BUILTIN_FREE:
  case BUILTIN_IS_SYMBOLIC:
  case BUILTIN_GET_VALUE: return nargs == 1;
  case BUILTIN_CALLOC:
  case BUILTIN_REALLOC: return nargs == 2;
  case BUILTIN_REPORT_ERROR: return nargs == 4;
  case BUILTIN_PRINT_EXPR: return nargs >= 1;
  default: return true;
  }
}

bool builtins_call(executor *ex, state *st, const ir_inst *in, builtin_id id, step *result) {
  unsigned nargs = in->nops - 1u;
  if (!takes(id, nargs)) return false;
#define A(k) arg(ex, st, in, (k) + 1)
/* a size_t argument: 64 bits, whatever width the program declared it with (verification
 * tasks declare `void *calloc(unsigned, unsigned)`) */
#define SIZE(k) T(ex, expr_resize(A(k), 64, false))
  *result = STEP_CONTINUE;
  switch (id) {
  case BUILTIN_REACH_ERROR:
    interp_end_error(ex, st, "reach_error", "reach_error() called", NULL);
    *result = STEP_ENDED;
    break;
  case BUILTIN_MAKE_SYMBOLIC: *result = builtin_make_symbolic(ex, st, A(0), A(1), A(2)); break;
  case BUILTIN_ASSUME: *result = builtin_assume(ex, st, A(0), false); break;
  case BUILTIN_VERIFIER_ASSUME: *result = builtin_assume(ex, st, A(0), true); break;
  case BUILTIN_INT: set_result(st, in, fresh_int(ex, st, A(0))); break;
  case BUILTIN_RANGE: {
    expr *v = fresh_int(ex, st, A(2));
    interp_add_constraint(ex, st, T(ex, expr_sle(T(ex, expr_resize(A(0), 32, true)), v)));
    interp_add_constraint(ex, st, T(ex, expr_slt(v, T(ex, expr_resize(A(1), 32, true)))));
    if (qs_check_sat(ex->solver, st->pc, st->npc) != QS_SAT) {
      interp_end_error(ex, st, "user", "invalid klee_range call (empty range)", NULL);
      *result = STEP_ENDED;
    } else {
      set_result(st, in, v);
    }
    break;
  }
  case BUILTIN_ASSERT_FAIL: {
    char *what = nargs >= 1 ? read_string(ex, st, A(0), 4096) : NULL;
    char *message = interp_format("ASSERTION FAIL: %s", what ? what : "(unknown)");
    interp_end_error(ex, st, "assert", message, NULL);
    free(message);
    free(what);
    *result = STEP_ENDED;
    break;
  }
  case BUILTIN_ABORT:
    interp_end_error(ex, st, "abort", "abort failure", NULL);
    *result = STEP_ENDED;
    break;
  case BUILTIN_REPORT_ERROR: {
    char *message = read_string(ex, st, A(2), 4096);
    char *kind = read_string(ex, st, A(3), 64);
    if (kind) {
      size_t n = strlen(kind);
      if (n > 4 && strcmp(kind + n - 4, ".err") == 0) kind[n - 4] = 0;
    }
    interp_end_error(ex, st, kind && valid_kind(kind) ? kind : "user", message ? message : "error",
                     NULL);
    free(message);
    free(kind);
    *result = STEP_ENDED;
    break;
  }
  case BUILTIN_EXIT:
    interp_complete_path(ex, st);
    *result = STEP_ENDED;
    break;
  case BUILTIN_SILENT_EXIT:
    ex->result->quiet_paths++;
    interp_end_state(ex, st);
    *result = STEP_ENDED;
    break;
  case BUILTIN_MALLOC: {
    uint64_t addr;
    if (!heap_allocate(ex, st, SIZE(0), &addr)) *result = STEP_ENDED;
    else
      return_value(ex, st, in, addr);
    break;
  }
  case BUILTIN_CALLOC: *result = builtin_calloc(ex, st, in, SIZE(0), SIZE(1)); break;
  case BUILTIN_REALLOC: *result = builtin_realloc(ex, st, in, A(0), SIZE(1)); break;
  case BUILTIN_FREE: *result = builtin_free(ex, st, A(0)); break;
  case BUILTIN_WRITE: *result = builtin_write(ex, st, in, A(0), A(1), A(2)); break;
  case BUILTIN_IS_SYMBOLIC: return_value(ex, st, in, !expr_is_const(A(0))); break;
  case BUILTIN_IS_REPLAY: return_value(ex, st, in, 0); break;
  case BUILTIN_GET_VALUE: {
    u128 v;
    if (!interp_example_value(ex, st, A(0), &v)) *result = STEP_ENDED;
    else
      return_value(ex, st, in, v);
    break;
  }
  case BUILTIN_PRINT_EXPR: {
    char *message = read_string(ex, st, A(0), 4096);
    char *text = nargs >= 2 ? expr_to_string(A(1)) : xstrdup("");
    printf("symq: klee_print_expr: %s: %s\n", message ? message : "", text);
    free(message);
    free(text);
    break;
  }
  case BUILTIN_MERGE_BEGIN:
    /* a manual region; nested begins are counted, not opened (plain forking ignores them) */
    merge_manual_begin(ex->merge, st);
    break;
  case BUILTIN_MERGE_END:
    if (merge_manual_end(ex->merge, st)) { /* it waits after the call for the others */
      state_top(st)->pc++;
      *result = STEP_PAUSED;
    }
    break;
  case BUILTIN_PREFER_CEX: /* accepted: symq's models are the solver's */ break;
  case BUILTIN_NONE:
  case BUILTIN_COUNT: assert(!"a call of a function bound to no builtin"); return false;
  }
#undef A
#undef SIZE
  if (*result == STEP_CONTINUE || *result == STEP_YIELD) state_top(st)->pc++;
  return true;
}
