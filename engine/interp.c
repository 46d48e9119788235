/*
 * interp.c — the forking interpreter (contract in interp.h).
 *
 * The loop: the searcher picks a state; the state runs instruction by instruction until it
 * forks, ends, or uses up its slice; forked and ended states are reported to the searcher.
 * Each instruction's temporary expressions go on a scratch list released after the step,
 * which keeps the reference counting of the instruction handlers readable.
 *
 * Forking follows KLEE: at a symbolic branch the current state takes the true side and a
 * new state the false side; a switch forks once per feasible target block; a symbolic
 * pointer forks once per object it may point into (the rest re-executes the access with
 * that object excluded); a symbolic function pointer forks once per feasible target.
 */
#include "engine/interp.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/memory.h"
#include "engine/search.h"
#include "engine/state.h"
#include "engine/xalloc.h"
#include "merge/loops.h"
#include "merge/tree.h"

enum { FUNCTION_BASE = 0x10000, FUNCTION_STRIDE = 32, SLICE = 10000 };
enum { NULL_PAGE = 0x10000 };

/* ENDED: the state is gone; PAUSED: it waits at a merge region's exit, out of the searcher. */
typedef enum step { STEP_CONTINUE, STEP_YIELD, STEP_ENDED, STEP_PAUSED } step;

/* A merge region (pat-merge.md §2): the states of one loop (or one manual
 * symq_merge_begin/end section) run until every one has left it or died; the ones that left
 * wait at the exit, and then they are merged per exit and resume. */
typedef struct region {
  uint32_t id;
  bool manual;
  uint32_t func, depth, loop; /* the loop's function, frame depth and index in merge_loops */
  size_t entry_npc;           /* the path condition at entry: a prefix every member shares */
  merge_tree *tree;
  struct state **paused;
  size_t npaused, cap_paused;
  uint32_t running;           /* members still running inside */
  struct region *next;        /* the executor's list of open regions */
} region;

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
  expr **consts;             /* prog->consts as expressions */
  mem_object **globals;      /* by global index */
  mem_object **dead;         /* every object ever unbound: to tell use-after-free */
  size_t ndead, cap_dead;
  reported_error *reported;
  size_t nreported, cap_reported;
  char **warned;             /* externals already warned about */
  size_t nwarned, cap_warned;
  uint8_t **covered;         /* per function, per instruction */
  uint32_t **to_uncovered;   /* nurs:covnew: per function, per instruction, the distance in
                                instructions to the nearest uncovered one (DIST_NONE: none) */
  uint32_t **to_return;      /* … and to the function's return */
  bool *distances_stale;     /* per function: its coverage changed since they were computed */
  struct timespec start;
  bool halted;               /* a limit or a signal: states left are ended early */
  const char *halt_reason;
  double halt_deadline;      /* elapsed seconds when the halt's budget is spent */
  uint64_t memory_mb;        /* resident memory when last read (only under --max-memory) */
  char *lost;                /* states ended without a test (the budget was spent): one line
                                each, written as lost.early at the end of the halt */
  size_t lost_len;
  FILE *lost_stream;
  expr **scratch;
  size_t nscratch, cap_scratch;
  state **live;              /* every live state, for cleanup */
  size_t nlive, cap_live;
  double next_progress;
  /* merging */
  merge_loops **loops;       /* per function, computed when first needed */
  region *regions;           /* open regions */
  uint32_t next_region_id;
  expr_array **size_arrays;  /* arrays a symbolic allocation size reads: "size" taint */
  size_t nsize_arrays, cap_size_arrays;
} executor;

static char *xprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *xprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = NULL;
  if (vasprintf(&s, fmt, ap) < 0) expr_oom();
  va_end(ap);
  return s;
}

/* ---- temporaries ---------------------------------------------------------------------- */

/* Registers a new reference for release at the end of the current step; returns it. */
static expr *T(executor *ex, expr *e) {
  if (ex->nscratch == ex->cap_scratch) {
    ex->cap_scratch = ex->cap_scratch ? 2 * ex->cap_scratch : 64;
    ex->scratch = xrealloc(ex->scratch, ex->cap_scratch * sizeof *ex->scratch);
  }
  ex->scratch[ex->nscratch++] = e;
  return e;
}

static void release_scratch(executor *ex) {
  while (ex->nscratch) expr_unref(ex->scratch[--ex->nscratch]);
}

static expr *C(executor *ex, unsigned width, u128 value) {
  return T(ex, expr_const(width, value));
}

/* ---- program facts ------------------------------------------------------------------- */

static const ir_function *fn_of(const executor *ex, const state_frame *f) {
  return &ex->prog->funcs[f->func];
}

static const ir_inst *current_inst(const executor *ex, state *st) {
  state_frame *f = state_top(st);
  return &fn_of(ex, f)->insts[f->pc];
}

static uint64_t function_address(uint32_t index) {
  return FUNCTION_BASE + (uint64_t)index * FUNCTION_STRIDE;
}

static uint32_t function_at(const executor *ex, uint64_t address) {
  if (address < FUNCTION_BASE || (address - FUNCTION_BASE) % FUNCTION_STRIDE) return IR_NONE;
  uint64_t index = (address - FUNCTION_BASE) / FUNCTION_STRIDE;
  return index < ex->prog->nfuncs ? (uint32_t)index : IR_NONE;
}

/* The value of an operand: a borrowed reference valid until the end of the step. */
static expr *operand(executor *ex, state *st, const ir_operand *o) {
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

static expr *arg(executor *ex, state *st, const ir_inst *in, unsigned k) {
  const ir_function *fn = fn_of(ex, state_top(st));
  assert(k < in->nops);
  return operand(ex, st, &ir_operands(fn, in)[k]);
}

static double elapsed(const executor *ex) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - ex->start.tv_sec) + (double)(now.tv_nsec - ex->start.tv_nsec) / 1e9;
}

/* Under --max-time, gives the solver's next queries at most the time left before `until`
 * (elapsed seconds; INFINITY: no cut); false when none is left. */
static bool limit_solver_time(executor *ex, double until) {
  if (ex->opt->max_time_s <= 0) return true;
  unsigned ms = ex->opt->solver_timeout_ms;
  if (until < INFINITY) {
    double left_ms = ceil((until - elapsed(ex)) * 1000);
    if (left_ms <= 0) return false;
    if (!ms || left_ms < ms) ms = (unsigned)left_ms;
  }
  qs_set_timeout(ex->solver, ms);
  return true;
}

/* The process's resident memory now (the peak, ru_maxrss, never goes down). */
static uint64_t resident_mb(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, resident = 0;
  if (f) {
    if (fscanf(f, "%llu %llu", &size, &resident) != 2) resident = 0;
    fclose(f);
  }
  if (!resident) { /* no /proc: the peak is an upper bound */
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (uint64_t)ru.ru_maxrss / 1024;
  }
  return (uint64_t)(resident * (unsigned long long)sysconf(_SC_PAGESIZE) >> 20);
}

/* Under --max-memory: reads the resident memory; true once it reaches the limit. */
static bool memory_exceeded(executor *ex) {
  if (!ex->opt->max_memory_mb) return false;
  ex->memory_mb = resident_mb();
  return ex->memory_mb >= ex->opt->max_memory_mb;
}

/* ---- live states ---------------------------------------------------------------------- */

static void live_add(executor *ex, state *st) {
  if (ex->nlive == ex->cap_live) {
    ex->cap_live = ex->cap_live ? 2 * ex->cap_live : 64;
    ex->live = xrealloc(ex->live, ex->cap_live * sizeof *ex->live);
  }
  ex->live[ex->nlive++] = st;
  if (ex->nlive > ex->result->states_max) ex->result->states_max = ex->nlive;
}

static void live_remove(executor *ex, state *st) {
  for (size_t k = ex->nlive; k-- > 0;) {
    if (ex->live[k] == st) {
      ex->live[k] = ex->live[--ex->nlive];
      return;
    }
  }
  assert(!"state not live");
}

static search_state_info info_of(const state *st) {
  return (search_state_info){.id = st->id, .depth = st->depth};
}

/* A new state forked from st: registered with the searcher and the live list. */
static state *fork_state(executor *ex, state *st) {
  state *child = state_fork(st, ex->next_state_id++);
  if (st->region) ((region *)st->region)->running++;
  st->depth++;
  child->depth = st->depth;
  ex->result->forks++;
  live_add(ex, child);
  search_fork(ex->searcher, st, child, info_of(child));
  return child;
}

static bool may_fork(const executor *ex) {
  if (ex->opt->max_forks && ex->result->forks >= ex->opt->max_forks) return false;
  /* forks stop short of the limit, so that the states can run on without reaching it */
  if (ex->opt->max_memory_mb && ex->memory_mb * 10 >= ex->opt->max_memory_mb * 9) return false;
  return !ex->halted;
}

/* ---- coverage ------------------------------------------------------------------------- */

static void cover(executor *ex, state *st) {
  state_frame *f = state_top(st);
  uint8_t *bits = ex->covered[f->func];
  if (!bits[f->pc]) {
    bits[f->pc] = 1;
    ex->distances_stale[f->func] = true;
    st->since_new_coverage = 0;
  } else {
    st->since_new_coverage++;
  }
}

/* Is fn part of symq's own runtime (whose lines are not the user's coverage)? */
static bool is_runtime_function(const ir_function *fn) {
  static const char runtime_dir[] = SYMQ_SOURCE_DIR "/runtime/";
  return fn->file && strncmp(fn->file, runtime_dir, sizeof runtime_dir - 1) == 0;
}

/* Distinct (function, line) pairs of the user's code: covered ones, or all of them. */
static uint64_t count_lines(const executor *ex, bool covered_only) {
  uint64_t total = 0;
  for (uint32_t fi = 0; fi < ex->prog->nfuncs; fi++) {
    const ir_function *fn = &ex->prog->funcs[fi];
    if (fn->is_decl || !fn->ninsts || is_runtime_function(fn)) continue;
    uint32_t max_line = 0;
    for (uint32_t k = 0; k < fn->ninsts; k++)
      if (fn->insts[k].line > max_line) max_line = fn->insts[k].line;
    uint8_t *seen = calloc((size_t)max_line + 1, 1);
    if (!seen) expr_oom();
    for (uint32_t k = 0; k < fn->ninsts; k++) {
      uint32_t line = fn->insts[k].line;
      if (!line || seen[line]) continue;
      if (covered_only && !ex->covered[fi][k]) continue;
      seen[line] = 1;
      total++;
    }
    free(seen);
  }
  return total;
}

/* ---- ending paths --------------------------------------------------------------------- */

static void remember_reason(executor *ex, const char *reason) {
  interp_result *r = ex->result;
  size_t lo = 0, hi = r->nearly_reasons;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strcmp(r->early_reasons[mid].text, reason);
    if (c == 0) {
      r->early_reasons[mid].count++;
      return;
    }
    if (c < 0) lo = mid + 1;
    else hi = mid;
  }
  r->early_reasons = xrealloc(r->early_reasons, (r->nearly_reasons + 1) * sizeof *r->early_reasons);
  memmove(&r->early_reasons[lo + 1], &r->early_reasons[lo],
          (r->nearly_reasons - lo) * sizeof *r->early_reasons);
  r->early_reasons[lo] = (interp_reason){xstrdup(reason), 1};
  r->nearly_reasons++;
}

/* Writes the state's test: one ktest object per symbolic input, bytes from a model of its
 * path condition. Returns the test id, or 0 when no model could be had. */
static uint32_t write_test(executor *ex, state *st) {
  expr_array **arrays = xrealloc(NULL, (st->nsymbolics + 1) * sizeof *arrays);
  for (size_t k = 0; k < st->nsymbolics; k++) arrays[k] = st->symbolics[k].array;
  expr_assignment *model = NULL;
  qs_status status = qs_get_model(ex->solver, st->pc, st->npc, arrays, st->nsymbolics, &model);
  free(arrays);
  if (status != QS_SAT) {
    ex->result->tests_lost++;
    fprintf(stderr, "symq: warning: no model for state %" PRIu64 " (%s): test lost\n", st->id,
            status == QS_UNSAT ? "unsatisfiable" : qs_last_reason(ex->solver));
    expr_assignment_free(model);
    return 0;
  }
  ktest_object *objects = xrealloc(NULL, (st->nsymbolics + 1) * sizeof *objects);
  for (size_t k = 0; k < st->nsymbolics; k++) {
    const state_symbolic *sym = &st->symbolics[k];
    const expr_binding *b = expr_assignment_find(model, sym->array);
    uint32_t n = (uint32_t)sym->object->capacity;
    u128 size; /* a symbolic-size object's bytes are truncated to its size in the model */
    if (!expr_is_const(sym->object->size) &&
        expr_eval(sym->object->size, model, 0, &size) == EXPR_EVAL_OK && size < n)
      n = (uint32_t)size;
    uint8_t *bytes = calloc(n ? n : 1, 1);
    if (!bytes) expr_oom();
    if (b) memcpy(bytes, b->bytes, b->len < n ? b->len : n);
    objects[k] = (ktest_object){.name = sym->name, .bytes = bytes, .num_bytes = n};
  }
  uint32_t id = out_write_test(ex->out, objects, (uint32_t)st->nsymbolics);
  for (size_t k = 0; k < st->nsymbolics; k++) free(objects[k].bytes);
  free(objects);
  expr_assignment_free(model);
  if (!id) {
    fprintf(stderr, "symq: error: %s\n", out_error(ex->out));
    ex->result->tests_lost++;
  } else {
    ex->result->tests++;
  }
  return id;
}

static void region_member_gone(executor *ex, state *st);

static void end_state(executor *ex, state *st) {
  if (!st->paused) search_remove(ex->searcher, st);
  region_member_gone(ex, st);
  live_remove(ex, st);
  state_free(st);
}

static void complete_path(executor *ex, state *st) {
  ex->result->completed_paths++;
  write_test(ex, st);
  end_state(ex, st);
}

static void end_early(executor *ex, state *st, const char *reason) {
  ex->result->early_paths++;
  remember_reason(ex, reason);
  uint32_t id = write_test(ex, st);
  if (id) out_write_test_file(ex->out, id, "early", reason);
  end_state(ex, st);
}

static bool already_reported(executor *ex, uint32_t func, uint32_t inst, const char *message) {
  for (size_t k = 0; k < ex->nreported; k++) {
    const reported_error *r = &ex->reported[k];
    if (r->func == func && r->inst == inst && strcmp(r->message, message) == 0) return true;
  }
  if (ex->nreported == ex->cap_reported) {
    ex->cap_reported = ex->cap_reported ? 2 * ex->cap_reported : 16;
    ex->reported = xrealloc(ex->reported, ex->cap_reported * sizeof *ex->reported);
  }
  ex->reported[ex->nreported++] = (reported_error){func, inst, xstrdup(message)};
  return false;
}

/* Ends st with an error of `kind` at its current instruction: a test and its .err file,
 * once per (instruction, message) unless --emit-all-errors. */
static void end_error(executor *ex, state *st, const char *kind, const char *message,
                      const char *info) {
  ex->result->error_paths++;
  state_frame *top = state_top(st);
  const ir_function *fn = fn_of(ex, top);
  const ir_inst *in = &fn->insts[top->pc];
  if (already_reported(ex, top->func, top->pc, message) && !ex->opt->emit_all_errors) {
    end_state(ex, st);
    return;
  }
  fprintf(stderr, "symq: ERROR: %s:%u: %s\n", fn->file ? fn->file : "?", in->line, message);
  uint32_t id = write_test(ex, st);
  if (id) {
    out_frame *frames = xrealloc(NULL, st->nframes * sizeof *frames);
    for (uint32_t k = 0; k < st->nframes; k++) {
      const state_frame *f = &st->frames[st->nframes - 1 - k];
      const ir_function *ffn = fn_of(ex, f);
      frames[k] = (out_frame){.func = ffn->name, .args = "", .file = ffn->file,
                              .line = ffn->insts[f->pc].line, .asm_line = 0};
    }
    out_err e = {.kind = kind, .message = message, .file = fn->file, .line = in->line,
                 .state_id = st->id, .frames = frames, .num_frames = st->nframes, .info = info};
    if (out_write_error(ex->out, id, &e) != 0)
      fprintf(stderr, "symq: error: %s\n", out_error(ex->out));
    free(frames);
  }
  end_state(ex, st);
}

double interp_halt_budget(double max_time_s) {
  double budget = 0.05 * max_time_s;
  return budget > 1.0 ? budget : 1.0;
}

static void start_halt(executor *ex, const char *reason) {
  ex->halted = true;
  ex->halt_reason = reason;
  ex->halt_deadline = INFINITY;
  if (ex->opt->max_time_s > 0)
    ex->halt_deadline = ex->opt->max_time_s + interp_halt_budget(ex->opt->max_time_s);
}

/* Ends st early without solving for a test: the halt's time budget is spent. One file
 * for them all, as a file each would cost more than the budget itself. */
static void end_lost(executor *ex, state *st) {
  ex->result->early_paths++;
  ex->result->tests_lost++;
  remember_reason(ex, ex->halt_reason);
  if (!ex->lost_stream && !(ex->lost_stream = open_memstream(&ex->lost, &ex->lost_len)))
    expr_oom();
  fprintf(ex->lost_stream, "state %" PRIu64 ": %s: no test, the halt's time budget was spent\n",
          st->id, ex->halt_reason);
  end_state(ex, st);
}

static void write_lost(executor *ex) {
  if (!ex->lost_stream) return;
  if (fclose(ex->lost_stream) != 0) expr_oom();
  ex->lost_stream = NULL;
  if (out_write_file(ex->out, "lost.early", ex->lost, ex->lost_len) != 0)
    fprintf(stderr, "symq: error: %s\n", out_error(ex->out));
  fprintf(stderr, "symq: warning: %" PRIu64 " states ended without a test (see lost.early)\n",
          ex->result->tests_lost);
  free(ex->lost);
  ex->lost = NULL;
}

/* Ends a state the halt left: with a test while the budget lasts, without one after. */
static void end_halted(executor *ex, state *st) {
  if (limit_solver_time(ex, ex->halt_deadline)) end_early(ex, st, ex->halt_reason);
  else end_lost(ex, st);
}

/* Ends st because the solver could not decide a question. */
static void end_solver_unknown(executor *ex, state *st) {
  if (ex->opt->max_time_s > 0 && elapsed(ex) >= ex->opt->max_time_s) {
    /* the query was cut at the deadline: the path did not fail, the run is over */
    if (!ex->halted) start_halt(ex, "halted: max-time");
    end_halted(ex, st);
    return;
  }
  char *reason = xprintf("solver: %s", qs_last_reason(ex->solver));
  end_early(ex, st, reason);
  free(reason);
}

/* ---- the execution tree of a region ------------------------------------------------------ */

/* Moves st to a new child of its leaf carrying cond (and, for an infeasible side, adds
 * that side as a dead sibling). */
static void tree_step(state *st, expr *cond, expr *dead_sibling) {
  region *r = st->region;
  merge_node *leaf = st->leaf;
  if (dead_sibling) merge_tree_add(r->tree, leaf, dead_sibling, true);
  merge_node *child = merge_tree_add(r->tree, leaf, cond, false);
  leaf->state = NULL;
  child->state = st;
  st->leaf = child;
}

/* Every constraint added to a path goes through here: inside a region it is also an edge
 * of the execution tree. */
static void add_constraint(executor *ex, state *st, expr *c) {
  (void)ex;
  if (expr_is_true(c)) return;
  state_add_constraint(st, c);
  if (st->region) tree_step(st, c, NULL);
}

/* ---- branching ------------------------------------------------------------------------ */

/* Which sides of cond are feasible on st. Returns false when the solver could not tell. */
static bool feasible_sides(executor *ex, state *st, expr *cond, bool *may_true,
                           bool *may_false) {
  if (expr_is_const(cond)) {
    *may_true = cond->u.value != 0;
    *may_false = !*may_true;
    return true;
  }
  bool must = false;
  if (qs_must_be_true(ex->solver, st->pc, st->npc, cond, &must) == QS_UNKNOWN) return false;
  if (must) {
    *may_true = true, *may_false = false;
    return true;
  }
  expr *negated = T(ex, expr_not(cond));
  if (qs_must_be_true(ex->solver, st->pc, st->npc, negated, &must) == QS_UNKNOWN) return false;
  *may_true = !must;
  *may_false = true;
  return true;
}

/* Splits st on cond: *on_true is the state where cond holds (NULL if none), *on_false the
 * other (NULL if none); st itself is one of them. When forking is not allowed (limits),
 * only the true side is kept and the run is no longer exhaustive. Returns false when st
 * ended because the solver could not decide. */
static bool branch(executor *ex, state *st, expr *cond, state **on_true, state **on_false) {
  bool may_true, may_false;
  *on_true = *on_false = NULL;
  if (!feasible_sides(ex, st, cond, &may_true, &may_false)) {
    end_solver_unknown(ex, st);
    return false;
  }
  bool cut = false;
  if (may_true && may_false && !may_fork(ex)) {
    ex->result->exhausted = false;
    may_false = false;
    cut = true;
  }
  if (may_true && may_false) {
    state *child = fork_state(ex, st);
    add_constraint(ex, st, cond);
    add_constraint(ex, child, T(ex, expr_not(cond)));
    *on_true = st;
    *on_false = child;
  } else if (may_true) {
    if (!expr_is_const(cond) && cut) add_constraint(ex, st, cond); /* the false side was cut */
    else if (!expr_is_const(cond) && st->region) tree_step(st, cond, T(ex, expr_not(cond)));
    *on_true = st;
  } else {
    if (!expr_is_const(cond) && st->region) tree_step(st, T(ex, expr_not(cond)), cond);
    *on_false = st;
  }
  return true;
}

/* A value of e on st (the solver's choice). Returns false (st ended) when it gave up. */
static bool example_value(executor *ex, state *st, expr *e, u128 *out) {
  if (expr_is_const(e)) {
    *out = e->u.value;
    return true;
  }
  if (qs_get_value(ex->solver, st->pc, st->npc, e, out) != QS_SAT) {
    end_solver_unknown(ex, st);
    return false;
  }
  return true;
}

/* Makes e concrete on st: picks a value and adds e == value to the path (counted). */
static bool concretize(executor *ex, state *st, expr *e, u128 *out) {
  if (!example_value(ex, st, e, out)) return false;
  if (!expr_is_const(e)) {
    ex->result->concretized++;
    add_constraint(ex, st, T(ex, expr_eq(e, C(ex, e->width, *out))));
  }
  return true;
}

/* ---- merge regions ---------------------------------------------------------------------- */

static merge_loops *loops_of(executor *ex, uint32_t func) {
  if (!ex->loops[func]) ex->loops[func] = merge_loops_find(&ex->prog->funcs[func]);
  return ex->loops[func];
}

static void remember_skip(executor *ex, const char *reason) {
  interp_result *r = ex->result;
  for (size_t k = 0; k < r->nskipped_reasons; k++) {
    if (strcmp(r->skipped_reasons[k].text, reason) == 0) {
      r->skipped_reasons[k].count++;
      return;
    }
  }
  r->skipped_reasons = xrealloc(r->skipped_reasons, (r->nskipped_reasons + 1) * sizeof *r->skipped_reasons);
  r->skipped_reasons[r->nskipped_reasons++] = (interp_reason){xstrdup(reason), 1};
}

static void remember_size_arrays(executor *ex, expr *size) {
  size_t before = ex->nsize_arrays;
  expr_collect_arrays(size, &ex->size_arrays, &ex->nsize_arrays, &ex->cap_size_arrays);
  for (size_t k = before; k < ex->nsize_arrays; k++) expr_array_ref(ex->size_arrays[k]);
}

/* Does cond read one of the arrays a symbolic size was made of? */
static bool depends_on_size(executor *ex, expr *cond) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(cond, &arrays, &n, &cap);
  bool found = false;
  for (size_t i = 0; i < n && !found; i++)
    for (size_t k = 0; k < ex->nsize_arrays && !found; k++) found = arrays[i] == ex->size_arrays[k];
  free(arrays);
  return found;
}

static void region_open(executor *ex, state *st, bool manual, uint32_t loop) {
  region *r = xcalloc(1, sizeof *r);
  r->id = ex->next_region_id++;
  r->manual = manual;
  r->func = state_top(st)->func;
  r->depth = st->nframes;
  r->loop = loop;
  r->entry_npc = st->npc;
  r->tree = merge_tree_new(st);
  r->running = 1;
  r->next = ex->regions;
  ex->regions = r;
  st->region = r;
  st->leaf = r->tree->root;
  st->manual_nesting = 0;
  ex->result->regions_opened++;
}

/* At a symbolic branch outside any region: the branch opens one on its innermost loop when
 * both sides are feasible and the condition qualifies (--merge-loops). */
static void maybe_open_region(executor *ex, state *st, expr *cond) {
  if (ex->opt->merge == INTERP_MERGE_NONE || st->region || expr_is_const(cond)) return;
  state_frame *f = state_top(st);
  merge_loops *l = loops_of(ex, f->func);
  uint32_t loop = l->innermost[merge_block_of(fn_of(ex, f), f->pc)];
  if (loop == MERGE_NO_LOOP) return;
  if (ex->opt->merge_loops == INTERP_LOOPS_SIZE && !depends_on_size(ex, cond)) {
    remember_skip(ex, "loop branch does not depend on a symbolic size");
    return;
  }
  bool may_true, may_false;
  if (!feasible_sides(ex, st, cond, &may_true, &may_false) || !may_true || !may_false) return;
  region_open(ex, st, false, loop);
}

/* Has st left its (loop) region: returned from the loop's frame, or reached a block of the
 * loop's frame outside the loop? */
static bool region_exited(executor *ex, state *st) {
  region *r = st->region;
  if (r->manual) return false;
  if (st->nframes < r->depth) return true;
  if (st->nframes > r->depth) return false;
  state_frame *f = state_top(st);
  if (f->func != r->func) return true;
  uint32_t block = merge_block_of(fn_of(ex, f), f->pc);
  return !merge_loop_contains(loops_of(ex, f->func), r->loop, block);
}

static void region_pause(executor *ex, state *st) {
  region *r = st->region;
  search_remove(ex->searcher, st);
  st->paused = true;
  r->running--;
  if (r->npaused == r->cap_paused) {
    r->cap_paused = r->cap_paused ? 2 * r->cap_paused : 16;
    r->paused = xrealloc(r->paused, r->cap_paused * sizeof *r->paused);
  }
  r->paused[r->npaused++] = st;
}

/* A member of a region ends (error, exit, limit, or merged away): it no longer counts. */
static void region_member_gone(executor *ex, state *st) {
  region *r = st->region;
  (void)ex;
  if (!r) return;
  merge_node *leaf = st->leaf;
  if (leaf && leaf->state == st) leaf->state = NULL;
  if (st->paused) {
    for (size_t k = 0; k < r->npaused; k++)
      if (r->paused[k] == st) r->paused[k] = r->paused[--r->npaused];
  } else {
    r->running--;
  }
  st->region = NULL;
}

/* The conjunction of st's constraints since region entry: its tail. */
static expr *region_tail(executor *ex, const region *r, const state *st) {
  expr *tail = C(ex, 1, 1);
  for (size_t k = r->entry_npc; k < st->npc; k++) tail = T(ex, expr_and(tail, st->pc[k]));
  return tail;
}

/* ite(g1, v1, ite(g2, v2, … vn)): the guards are mutually exclusive tails. */
static expr *ite_chain(executor *ex, expr *const *guards, expr *const *values, size_t n) {
  expr *v = values[n - 1];
  for (size_t j = n - 1; j-- > 0;) v = T(ex, expr_ite(guards[j], values[j], v));
  return v;
}

static bool merge_compatible(const state *a, const state *b) {
  if (a->nframes != b->nframes || a->nsymbolics != b->nsymbolics) return false;
  for (uint32_t k = 0; k < a->nframes; k++) {
    const state_frame *fa = &a->frames[k], *fb = &b->frames[k];
    if (fa->func != fb->func || fa->pc != fb->pc || fa->nallocas != fb->nallocas ||
        fa->varargs != fb->varargs)
      return false;
    for (uint32_t i = 0; i < fa->nallocas; i++)
      if (fa->allocas[i] != fb->allocas[i]) return false;
  }
  for (size_t k = 0; k < a->nsymbolics; k++)
    if (a->symbolics[k].array != b->symbolics[k].array) return false;
  return mem_same_objects(a->mem, b->mem);
}

/* Merging along the execution tree (pat-merge.md §1): per tree node, how many of the group's
 * states lie below it, and which state sits at it. A node's disjunction is the OR, over its
 * children that hold members, of (the child's condition ∧ the child's disjunction); its value
 * is an ite on the children's own conditions — no guard at all where only one child holds
 * members, since the merged pc already implies that child's condition. */
typedef struct tree_merge {
  const merge_tree *tree;
  uint32_t *below;   /* per node id: group members in its subtree */
  int32_t *member;   /* per node id: the group index of the state at this leaf, or -1 */
} tree_merge;

/* Prepares the tree walk for a group; false when it cannot apply (two members on one leaf,
 * or a member off the tree), and then the flat construction over the tails is used. */
static bool tree_merge_init(tree_merge *tm, const region *r, state *const *group, size_t n) {
  const merge_tree *t = r->tree;
  tm->tree = t;
  tm->below = xcalloc(t->count, sizeof *tm->below);
  tm->member = xrealloc(NULL, t->count * sizeof *tm->member);
  for (uint32_t k = 0; k < t->count; k++) tm->member[k] = -1;
  for (size_t j = 0; j < n; j++) {
    const merge_node *leaf = group[j]->leaf;
    if (!leaf || leaf->id >= t->count || t->nodes[leaf->id] != leaf || tm->member[leaf->id] >= 0 ||
        leaf->first_child)
      return false;
    tm->member[leaf->id] = (int32_t)j;
    for (; leaf; leaf = leaf->parent) tm->below[leaf->id]++;
  }
  return true;
}

static void tree_merge_free(tree_merge *tm) {
  free(tm->below);
  free(tm->member);
}

static expr *tree_disjunction(executor *ex, const tree_merge *tm, const merge_node *node) {
  if (tm->member[node->id] >= 0) return C(ex, 1, 1);
  expr *any = C(ex, 1, 0);
  for (const merge_node *c = node->first_child; c; c = c->next_sibling)
    if (tm->below[c->id])
      any = T(ex, expr_or(any, T(ex, expr_and(c->cond, tree_disjunction(ex, tm, c)))));
  return any;
}

static expr *tree_value(executor *ex, const tree_merge *tm, const merge_node *node,
                        expr *const *vals) {
  if (tm->member[node->id] >= 0) return vals[tm->member[node->id]];
  const merge_node *held[64];
  size_t nheld = 0;
  for (const merge_node *c = node->first_child; c; c = c->next_sibling)
    if (tm->below[c->id] && nheld < 64) held[nheld++] = c;
  expr *v = tree_value(ex, tm, held[nheld - 1], vals);
  for (size_t k = nheld - 1; k-- > 0;)
    v = T(ex, expr_ite(held[k]->cond, tree_value(ex, tm, held[k], vals), v));
  return v;
}

typedef struct merged_value { /* for --validate-merges */
  expr *merged;
  expr **parts;
} merged_value;

/* Records a merged value with its constituents' values, for validate_merge. */
static void keep_merged_value(merged_value **values, size_t *n, size_t *cap, expr *merged,
                              expr *const *parts, size_t nparts) {
  if (*n == *cap) *values = xrealloc(*values, (*cap = 2 * *cap + 8) * sizeof **values);
  (*values)[*n].merged = merged;
  (*values)[*n].parts = xrealloc(NULL, nparts * sizeof *parts);
  memcpy((*values)[*n].parts, parts, nparts * sizeof *parts);
  (*n)++;
}

/* Checks Theorem 3.8's statement for a merge: each constituent's pc implies the merged pc,
 * the merged pc implies some constituent's, and under constituent j every merged value
 * equals its value there. */
static void validate_merge(executor *ex, const state *m, state *const *group, expr *const *tails,
                           size_t n, const merged_value *values, size_t nvalues) {
  bool ok = true, holds;
  expr *any = C(ex, 1, 0);
  for (size_t j = 0; j < n; j++) any = T(ex, expr_or(any, tails[j]));
  for (size_t k = 0; ok && k < m->npc; k++)
    for (size_t j = 0; ok && j < n; j++)
      ok = qs_must_be_true(ex->solver, group[j]->pc, group[j]->npc, m->pc[k], &holds) != QS_UNKNOWN && holds;
  if (ok) ok = qs_must_be_true(ex->solver, m->pc, m->npc, any, &holds) != QS_UNKNOWN && holds;
  for (size_t v = 0; ok && v < nvalues; v++)
    for (size_t j = 0; ok && j < n; j++) {
      expr *same = T(ex, expr_eq(values[v].merged, values[v].parts[j]));
      ok = qs_must_be_true(ex->solver, group[j]->pc, group[j]->npc, same, &holds) != QS_UNKNOWN && holds;
    }
  if (!ok) {
    ex->result->validation_failures++;
    fprintf(stderr, "symq: error: merge validation failed for state %" PRIu64
                    " (%zu constituents)\n", m->id, n);
  }
}

/* Standard merging (pat-merge.md §1): one state with pc = pc_entry ∧ (tail1 ∨ … ∨ tailn) and
 * every register and memory byte that differs merged with ite over the tails. */
static state *merge_group(executor *ex, const region *r, state *const *group, size_t n) {
  expr **tails = xrealloc(NULL, n * sizeof *tails);
  expr **vals = xrealloc(NULL, n * sizeof *vals);
  merged_value *values = NULL;
  size_t nvalues = 0, cap_values = 0;
  expr *any = C(ex, 1, 0);
  for (size_t j = 0; j < n; j++) {
    tails[j] = region_tail(ex, r, group[j]);
    any = T(ex, expr_or(any, tails[j]));
  }
  tree_merge tm;
  bool along_tree = tree_merge_init(&tm, r, group, n);
  if (along_tree) any = tree_disjunction(ex, &tm, r->tree->root);
  state *m = state_fork(group[0], ex->next_state_id++);
  while (m->npc > r->entry_npc) expr_unref(m->pc[--m->npc]);
  state_add_constraint(m, any);

  for (uint32_t k = 0; k < m->nframes; k++) {
    state_frame *f = &m->frames[k];
    for (uint32_t reg = 0; reg < f->nregs; reg++) {
      bool same = true, missing = false;
      for (size_t j = 0; j < n; j++) {
        vals[j] = group[j]->frames[k].regs[reg];
        same &= vals[j] == vals[0];
        missing |= !vals[j];
      }
      if (same) continue;
      /* a register some path never set is dead here (SSA: every use is dominated by a def) */
      expr *merged = missing ? NULL
                     : along_tree ? tree_value(ex, &tm, r->tree->root, vals)
                                  : ite_chain(ex, tails, vals, n);
      state_set_reg(f, reg, merged);
      if (merged && ex->opt->validate_merges) {
        keep_merged_value(&values, &nvalues, &cap_values, merged, vals, n);
      }
    }
  }
  for (size_t i = 0; i < mem_space_count(m->mem); i++) {
    const mem_object *o = mem_space_object_at(m->mem, i);
    bool shared = true;
    for (size_t j = 1; j < n && shared; j++) shared = mem_shares_contents(group[0]->mem, group[j]->mem, o);
    if (shared || o->read_only) continue;
    for (uint64_t b = 0; b < o->capacity; b++) {
      expr *at = C(ex, 64, b);
      bool same = true;
      for (size_t j = 0; j < n; j++) {
        vals[j] = T(ex, mem_read(group[j]->mem, o, at, 1));
        same &= vals[j] == vals[0];
      }
      if (same) continue;
      expr *merged = along_tree ? tree_value(ex, &tm, r->tree->root, vals)
                                : ite_chain(ex, tails, vals, n);
      mem_write(m->mem, o, at, merged);
      if (ex->opt->validate_merges) {
        keep_merged_value(&values, &nvalues, &cap_values, merged, vals, n);
      }
    }
  }
  for (size_t j = 1; j < n; j++) {
    if (group[j]->depth > m->depth) m->depth = group[j]->depth;
    if (group[j]->since_new_coverage < m->since_new_coverage) m->since_new_coverage = group[j]->since_new_coverage;
  }
  m->region = NULL;
  m->leaf = NULL;
  m->paused = false;
  m->pointer_forks = 0;
  if (ex->opt->validate_merges) validate_merge(ex, m, group, tails, n, values, nvalues);
  if (along_tree) ex->result->merges_along_tree++;
  tree_merge_free(&tm);
  for (size_t v = 0; v < nvalues; v++) free(values[v].parts);
  free(values);
  free(tails);
  free(vals);
  ex->result->merges++;
  ex->result->merged_states += n;
  return m;
}

static const char *leaf_label(void *state_ptr, void *ctx) {
  static char text[32];
  (void)ctx;
  snprintf(text, sizeof text, "state %" PRIu64, ((const state *)state_ptr)->id);
  return text;
}

static void dump_tree(executor *ex, const region *r) {
  char *dot = NULL, name[64], title[128];
  size_t len = 0;
  FILE *f = open_memstream(&dot, &len);
  if (!f) expr_oom();
  snprintf(title, sizeof title, "region %u: %s in %s", r->id, r->manual ? "manual" : "loop",
           ex->prog->funcs[r->func].name);
  merge_tree_dot(f, r->tree, title, leaf_label, ex);
  fclose(f);
  snprintf(name, sizeof name, "region%06u.dot", r->id);
  if (out_write_file(ex->out, name, dot, len) != 0) fprintf(stderr, "symq: error: %s\n", out_error(ex->out));
  else if (access("/usr/bin/dot", X_OK) == 0) {
    char *cmd = xprintf("/usr/bin/dot -Tsvg -o '%s/region%06u.svg' '%s/%s'", out_path(ex->out), r->id,
                        out_path(ex->out), name);
    if (system(cmd) != 0) fprintf(stderr, "symq: warning: dot could not render %s\n", name);
    free(cmd);
  }
  free(dot);
}

/* Every member has left or died: the paused states are grouped by exit (the position they
 * wait at and the edge they came by), each group's tests are written (--tests-per-merge=all),
 * merge-compatible states of a group are merged, and the results resume. */
static void region_release(executor *ex, region *r) {
  for (region **p = &ex->regions; *p; p = &(*p)->next)
    if (*p == r) {
      *p = r->next;
      break;
    }
  ex->result->regions_released++;
  if (ex->opt->dump_tree) dump_tree(ex, r);
  bool *done = xcalloc(r->npaused + 1, sizeof *done);
  state **group = xrealloc(NULL, (r->npaused + 1) * sizeof *group);
  for (size_t i = 0; i < r->npaused; i++) {
    if (done[i]) continue;
    size_t n = 0;
    state *a = r->paused[i];
    for (size_t k = i; k < r->npaused; k++) {
      state *b = r->paused[k];
      /* a loop's states are grouped by exit edge; a manual region's by where they wait */
      if (done[k] || (!r->manual && b->prev_block != a->prev_block) || !merge_compatible(a, b))
        continue;
      done[k] = true;
      group[n++] = b;
    }
    if (n > 1 && ex->opt->tests_per_merge_all)
      for (size_t k = 0; k < n; k++)
        if (write_test(ex, group[k])) ex->result->merge_tests++;
    state *resumed = n > 1 ? merge_group(ex, r, group, n) : group[0];
    for (size_t k = 0; n > 1 && k < n; k++) {
      group[k]->region = NULL; /* merged away: not a path of its own */
      live_remove(ex, group[k]);
      state_free(group[k]);
    }
    if (n > 1) live_add(ex, resumed);
    release_scratch(ex);
    resumed->region = NULL;
    resumed->leaf = NULL;
    resumed->paused = false;
    search_add_initial(ex->searcher, resumed, info_of(resumed));
  }
  free(done);
  free(group);
  merge_tree_free(r->tree);
  free(r->paused);
  free(r);
}

/* Releases every region with no member left running. */
static void release_finished_regions(executor *ex) {
  for (bool again = true; again;) {
    again = false;
    for (region *r = ex->regions; r; r = r->next)
      if (r->running == 0) {
        region_release(ex, r);
        again = true;
        break;
      }
  }
}

/* ---- memory access -------------------------------------------------------------------- */

static void remember_dead(executor *ex, mem_object *o) {
  if (ex->ndead == ex->cap_dead) {
    ex->cap_dead = ex->cap_dead ? 2 * ex->cap_dead : 64;
    ex->dead = xrealloc(ex->dead, ex->cap_dead * sizeof *ex->dead);
  }
  ex->dead[ex->ndead++] = mem_object_ref(o);
}

static const mem_object *dead_object_at(const executor *ex, uint64_t addr) {
  for (size_t k = 0; k < ex->ndead; k++) {
    const mem_object *o = ex->dead[k];
    if (addr - o->address < (o->capacity ? o->capacity : 1)) return o;
  }
  return NULL;
}

/* Ends st with the memory error that an access to `addr` is. */
static void memory_error(executor *ex, state *st, uint64_t addr) {
  if (addr < NULL_PAGE) {
    end_error(ex, st, "ptr", "memory error: null pointer exception", NULL);
    return;
  }
  const mem_object *o = mem_space_find(st->mem, addr);
  const mem_object *dead = o ? NULL : dead_object_at(ex, addr);
  char *info;
  if (o) info = xprintf("address: 0x%" PRIx64 "\nnext: object %s of size %" PRIu64 " at 0x%"
                        PRIx64, addr, o->name, o->capacity, o->address);
  else info = xprintf("address: 0x%" PRIx64, addr);
  if (dead) {
    const char *what = dead->kind == MEM_STACK ? "memory error: use after return"
                                               : "memory error: use after free";
    end_error(ex, st, "ptr", what, info);
  } else {
    end_error(ex, st, "ptr", "memory error: out of bound pointer", info);
  }
  free(info);
}

/* Resolves an access of n bytes at address on st. On success returns true with the object
 * and the offset (a borrowed expression) — forking first, when the address may also lie
 * elsewhere, a state that re-executes the access with this object excluded. Returns false
 * when st has ended (a memory error, or the solver gave up). */
static bool resolve(executor *ex, state *st, expr *address, uint64_t n, const mem_object **out,
                    expr **offset) {
  u128 value;
  if (!example_value(ex, st, address, &value)) return false;
  uint64_t addr = (uint64_t)value;
  const mem_object *o = mem_space_find(st->mem, addr);
  bool fits = o && n <= o->capacity;
  expr *base = C(ex, 64, o ? o->address : 0);
  expr *in_bounds;
  if (!fits) {
    in_bounds = C(ex, 1, 0);
  } else if (expr_is_const(address)) {
    in_bounds = C(ex, 1, addr - o->address <= o->capacity - n);
  } else {
    expr *last = C(ex, 64, o->address + o->capacity - n);
    in_bounds = T(ex, expr_and(T(ex, expr_ule(base, address)), T(ex, expr_ule(address, last))));
  }
  if (fits && !expr_is_const(o->size)) { /* a symbolic size: offset + n ≤ size as well */
    expr *end = T(ex, expr_add(T(ex, expr_sub(address, base)), C(ex, 64, n)));
    in_bounds = T(ex, expr_and(in_bounds, T(ex, expr_ule(end, o->size))));
  }
  state *inside, *outside;
  if (!branch(ex, st, in_bounds, &inside, &outside)) return false;
  if (!inside) { /* st is out of o: report with the value that shows it */
    if (!expr_is_const(address))
      add_constraint(ex, st, T(ex, expr_eq(address, C(ex, 64, addr))));
    memory_error(ex, st, addr);
    return false;
  }
  if (outside && expr_is_const(address)) {
    /* only the symbolic size can put a constant address out of bounds: report it there */
    memory_error(ex, outside, addr);
  } else if (outside) {
    /* a forked `outside` state re-executes this access later, with o excluded */
    outside->pointer_forks = st->pointer_forks + 1;
    if (ex->opt->max_pointer_objects && outside->pointer_forks >= ex->opt->max_pointer_objects) {
      ex->result->exhausted = false;
      end_early(ex, outside, "max-pointer-objects: a pointer may point into more objects");
    }
  }
  st->pointer_forks = 0;
  *out = o;
  *offset = T(ex, expr_sub(address, base));
  return true;
}

static expr *load(executor *ex, state *st, const mem_object *o, expr *offset, unsigned bytes,
                  unsigned width) {
  expr *v = T(ex, mem_read(st->mem, o, offset, bytes));
  return width < v->width ? T(ex, expr_extract(v, 0, width)) : v;
}

static void store(executor *ex, state *st, const mem_object *o, expr *offset, expr *value,
                  unsigned bytes) {
  if (value->width < bytes * 8) value = T(ex, expr_zext(value, bytes * 8));
  mem_write(st->mem, o, offset, value);
}

/* Resolves [address, address + n) and checks it is writable; false when st ended. */
static bool resolve_write(executor *ex, state *st, expr *address, uint64_t n,
                          const mem_object **o, expr **offset) {
  if (!resolve(ex, st, address, n, o, offset)) return false;
  if ((*o)->read_only) {
    end_error(ex, st, "read_only", "memory error: object read only", NULL);
    return false;
  }
  return true;
}

static mem_object *new_object(executor *ex, state *st, mem_kind kind, uint64_t capacity,
                              uint64_t align, const char *name, const uint8_t *init) {
  uint64_t address = mem_allocator_take(&ex->alloc, kind, capacity, align);
  mem_object *o = mem_object_new(ex->next_object_id++, address, capacity, NULL, kind, name);
  mem_space_bind(st->mem, o, init);
  return o;
}

/* ---- calls: built-in functions ------------------------------------------------------- */

static void set_result(state *st, const ir_inst *in, expr *v) {
  if (in->dst != IR_NONE && v) state_set_reg(state_top(st), in->dst, v);
}

/* The call's result width (0 for void). */
static unsigned result_width(const ir_inst *in) { return in->dst == IR_NONE ? 0 : in->width; }

/* Reads a NUL-terminated string at a concrete pointer into a malloc'd buffer (at most
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

static void warn_once(executor *ex, const char *name, const char *what) {
  for (size_t k = 0; k < ex->nwarned; k++)
    if (strcmp(ex->warned[k], name) == 0) return;
  if (ex->nwarned == ex->cap_warned) {
    ex->cap_warned = ex->cap_warned ? 2 * ex->cap_warned : 16;
    ex->warned = xrealloc(ex->warned, ex->cap_warned * sizeof *ex->warned);
  }
  ex->warned[ex->nwarned++] = xstrdup(name);
  fprintf(stderr, "symq: warning: %s %s\n", what, name);
}

static void return_value(executor *ex, state *st, const ir_inst *in, u128 value) {
  unsigned w = result_width(in);
  if (w) set_result(st, in, C(ex, w, value));
}

enum { MAX_ALLOCATION = 1u << 30 };

/* The least m with size ≤ m on st, searched in [0, MAX_ALLOCATION]; false when the solver
 * gave up (st ended). *bounded is false when size may exceed MAX_ALLOCATION. */
static bool size_maximum(executor *ex, state *st, expr *size, uint64_t *out, bool *bounded) {
  uint64_t lo = 0, hi = MAX_ALLOCATION;
  bool must;
  if (qs_must_be_true(ex->solver, st->pc, st->npc, T(ex, expr_ule(size, C(ex, 64, hi))), &must) ==
      QS_UNKNOWN) {
    end_solver_unknown(ex, st);
    return false;
  }
  *bounded = must;
  if (!must) return true;
  while (lo < hi) { /* invariant: size ≤ hi on every path of st */
    uint64_t mid = lo + (hi - lo) / 2;
    expr *le = T(ex, expr_ule(size, C(ex, 64, mid)));
    if (qs_must_be_true(ex->solver, st->pc, st->npc, le, &must) == QS_UNKNOWN) {
      end_solver_unknown(ex, st);
      return false;
    }
    if (must) hi = mid;
    else lo = mid + 1;
  }
  *out = hi;
  return true;
}

/* A new object of `size` bytes (a 64-bit expression). A constant size is that object; a
 * symbolic size stays symbolic (pat-merge.md §8): the object's capacity is the largest size
 * the path allows, or, when the size is unbounded, --capacity, with size ≤ capacity added to
 * the path (counted in `capacity_bounded`). *out is NULL for a constant size over 1 GiB.
 * Returns false when st ended. Objects start zeroed, so runs stay deterministic. */
static bool allocate(executor *ex, state *st, mem_kind kind, expr *size, uint64_t align,
                     const char *name, mem_object **out) {
  *out = NULL;
  if (expr_is_const(size)) {
    if (size->u.value > MAX_ALLOCATION) return true;
    *out = new_object(ex, st, kind, (uint64_t)size->u.value, align, name, NULL);
    return true;
  }
  uint64_t capacity;
  bool bounded;
  if (!size_maximum(ex, st, size, &capacity, &bounded)) return false;
  if (!bounded) {
    capacity = ex->opt->capacity;
    expr *fits = T(ex, expr_ule(size, C(ex, 64, capacity)));
    bool may;
    if (qs_may_be_true(ex->solver, st->pc, st->npc, fits, &may) == QS_UNKNOWN) {
      end_solver_unknown(ex, st);
      return false;
    }
    if (!may) { /* larger than any capacity symq would back: as for a huge constant */
      return true;
    }
    add_constraint(ex, st, fits);
    ex->result->capacity_bounded++;
  }
  remember_size_arrays(ex, size);
  uint64_t address = mem_allocator_take(&ex->alloc, kind, capacity, align);
  *out = mem_object_new(ex->next_object_id++, address, capacity, size, kind, name);
  mem_space_bind(st->mem, *out, NULL);
  return true;
}

/* malloc/calloc/realloc: a fresh heap object; NULL for a size over 1 GiB (as KLEE). */
static bool heap_allocate(executor *ex, state *st, expr *size, uint64_t *address) {
  mem_object *o;
  if (!allocate(ex, st, MEM_HEAP, size, 16, "malloc", &o)) return false;
  if (!o) warn_once(ex, "a heap allocation larger than 1 GiB", "returning NULL for");
  *address = o ? o->address : 0;
  mem_object_unref(o);
  return true;
}

/* Resolves a pointer to exactly one concrete value on st, forking a state per further
 * value as KLEE does for free() of a symbolic pointer. False when st ended. */
static bool single_value(executor *ex, state *st, expr *p, uint64_t *out) {
  u128 v;
  if (!example_value(ex, st, p, &v)) return false;
  if (!expr_is_const(p)) {
    state *same, *other;
    if (!branch(ex, st, T(ex, expr_eq(p, C(ex, p->width, v))), &same, &other)) return false;
    (void)other; /* a forked `other` re-executes the call with this value excluded */
    if (!same) return single_value(ex, st, p, out);
  }
  *out = (uint64_t)v;
  return true;
}

static step builtin_free(executor *ex, state *st, expr *p) {
  uint64_t addr;
  if (!single_value(ex, st, p, &addr)) return STEP_ENDED;
  if (addr == 0) return STEP_CONTINUE;
  const mem_object *o = mem_space_find(st->mem, addr);
  if (!o) {
    const mem_object *dead = dead_object_at(ex, addr);
    if (dead && dead->address == addr && dead->kind == MEM_HEAP)
      end_error(ex, st, "free", "memory error: double free", NULL);
    else
      end_error(ex, st, "free", "memory error: invalid pointer: free", NULL);
    return STEP_ENDED;
  }
  if (o->kind == MEM_STACK) {
    end_error(ex, st, "free", "free of alloca", NULL);
    return STEP_ENDED;
  }
  if (o->kind != MEM_HEAP) {
    end_error(ex, st, "free", "free of global", NULL);
    return STEP_ENDED;
  }
  if (o->address != addr) {
    end_error(ex, st, "free", "memory error: invalid pointer: free", NULL);
    return STEP_ENDED;
  }
  mem_object *object = mem_object_ref((mem_object *)o);
  mem_space_unbind(st->mem, object);
  remember_dead(ex, object);
  mem_object_unref(object);
  return STEP_CONTINUE;
}

static step builtin_realloc(executor *ex, state *st, const ir_inst *in, expr *p, expr *size) {
  uint64_t old_addr;
  if (!single_value(ex, st, p, &old_addr)) return STEP_ENDED;
  const mem_object *old = old_addr ? mem_space_find(st->mem, old_addr) : NULL;
  if (old_addr && (!old || old->address != old_addr || old->kind != MEM_HEAP)) {
    end_error(ex, st, "free", "memory error: invalid pointer: realloc", NULL);
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
  if (!concretize(ex, st, ptr, &addr)) return STEP_ENDED;
  const mem_object *o = mem_space_find(st->mem, (uint64_t)addr);
  bool size_ok = false;
  if (o && o->address == addr) {
    expr *same = T(ex, expr_eq(T(ex, expr_resize(size, 64, false)), o->size));
    if (qs_must_be_true(ex->solver, st->pc, st->npc, same, &size_ok) == QS_UNKNOWN) {
      end_solver_unknown(ex, st);
      return STEP_ENDED;
    }
  }
  if (!size_ok) {
    end_error(ex, st, "user", "wrong size given to klee_make_symbolic", NULL);
    return STEP_ENDED;
  }
  char *name = read_string(ex, st, name_ptr, 256);
  if (!name) name = xstrdup("unnamed");
  /* the array's name must be unique in the state; the ktest keeps the driver's name */
  char *unique = xstrdup(name);
  for (unsigned k = 1;; k++) {
    bool taken = false;
    for (size_t s = 0; s < st->nsymbolics; s++)
      if (strcmp(st->symbolics[s].array->name, unique) == 0) taken = true;
    if (!taken) break;
    free(unique);
    unique = xprintf("%s_%u", name, k);
  }
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
  mem_object *o = new_object(ex, st, MEM_GLOBAL, 4, 4, "klee_int", NULL);
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
  if (!feasible_sides(ex, st, cond, &may_true, &may_false)) {
    end_solver_unknown(ex, st);
    return STEP_ENDED;
  }
  if (!may_true && silent) {
    ex->result->early_paths++;
    remember_reason(ex, "__VERIFIER_assume: the assumption cannot hold");
    end_state(ex, st);
    return STEP_ENDED;
  }
  if (!may_true) {
    end_error(ex, st, "user", "invalid klee_assume call (provably false)", NULL);
    return STEP_ENDED;
  }
  if (may_false) add_constraint(ex, st, cond);
  return STEP_CONTINUE;
}

/* write(fd, buf, n) for fd 1 and 2: the program's output, on symq's stdout and stderr.
 * Symbolic bytes are printed as one value the path allows (not added to the path). */
static step builtin_write(executor *ex, state *st, const ir_inst *in, expr *fd, expr *buf,
                          expr *count) {
  u128 n, f;
  if (!concretize(ex, st, count, &n) || !concretize(ex, st, fd, &f)) return STEP_ENDED;
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
  if (!resolve(ex, st, buf, (uint64_t)n, &o, &offset)) return STEP_ENDED;
  FILE *stream = f == 1 ? stdout : stderr;
  for (uint64_t k = 0; k < n; k++) {
    expr *byte = T(ex, mem_read(st->mem, o, T(ex, expr_add(offset, C(ex, 64, k))), 1));
    u128 v;
    if (!example_value(ex, st, byte, &v)) return STEP_ENDED;
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

/* Functions without a body that symq implements itself. Returns false when `name` is not
 * one of them. */
static bool call_builtin(executor *ex, state *st, const ir_inst *in, const char *name,
                         step *result) {
  unsigned nargs = in->nops - 1u;
#define A(k) arg(ex, st, in, (k) + 1)
#define IS(n) (strcmp(name, n) == 0)
  *result = STEP_CONTINUE;
  if ((IS("klee_make_symbolic") || IS("symq_make_symbolic")) && nargs == 3) {
    *result = builtin_make_symbolic(ex, st, A(0), A(1), A(2));
  } else if ((IS("klee_assume") || IS("symq_assume")) && nargs == 1) {
    *result = builtin_assume(ex, st, A(0), false);
  } else if (IS("__VERIFIER_assume") && nargs == 1) {
    *result = builtin_assume(ex, st, A(0), true);
  } else if ((IS("klee_int") || IS("symq_int")) && nargs == 1) {
    set_result(st, in, fresh_int(ex, st, A(0)));
  } else if ((IS("klee_range") || IS("symq_range")) && nargs == 3) {
    expr *v = fresh_int(ex, st, A(2));
    add_constraint(ex, st, T(ex, expr_sle(A(0), v)));
    add_constraint(ex, st, T(ex, expr_slt(v, A(1))));
    if (qs_check_sat(ex->solver, st->pc, st->npc) != QS_SAT) {
      end_error(ex, st, "user", "invalid klee_range call (empty range)", NULL);
      *result = STEP_ENDED;
    } else {
      set_result(st, in, v);
    }
  } else if (IS("__assert_fail")) {
    char *what = nargs >= 1 ? read_string(ex, st, A(0), 4096) : NULL;
    char *message = xprintf("ASSERTION FAIL: %s", what ? what : "(unknown)");
    end_error(ex, st, "assert", message, NULL);
    free(message);
    free(what);
    *result = STEP_ENDED;
  } else if (IS("abort") || IS("klee_abort")) {
    end_error(ex, st, "abort", "abort failure", NULL);
    *result = STEP_ENDED;
  } else if (IS("reach_error") || IS("__VERIFIER_error")) {
    end_error(ex, st, "reach_error", "reach_error() called", NULL);
    *result = STEP_ENDED;
  } else if ((IS("klee_report_error") || IS("symq_report_error")) && nargs == 4) {
    char *message = read_string(ex, st, A(2), 4096);
    char *kind = read_string(ex, st, A(3), 64);
    if (kind) {
      size_t n = strlen(kind);
      if (n > 4 && strcmp(kind + n - 4, ".err") == 0) kind[n - 4] = 0;
    }
    end_error(ex, st, kind && valid_kind(kind) ? kind : "user", message ? message : "error",
              NULL);
    free(message);
    free(kind);
    *result = STEP_ENDED;
  } else if (IS("exit") || IS("_exit") || IS("_Exit")) {
    complete_path(ex, st);
    *result = STEP_ENDED;
  } else if (IS("klee_silent_exit")) {
    ex->result->early_paths++;
    remember_reason(ex, "klee_silent_exit");
    end_state(ex, st);
    *result = STEP_ENDED;
  } else if (IS("malloc") && nargs == 1) {
    uint64_t addr;
    if (!heap_allocate(ex, st, A(0), &addr)) *result = STEP_ENDED;
    else return_value(ex, st, in, addr);
  } else if (IS("calloc") && nargs == 2) {
    expr *n = T(ex, expr_mul(A(0), A(1)));
    uint64_t addr;
    if (!heap_allocate(ex, st, n, &addr)) *result = STEP_ENDED;
    else return_value(ex, st, in, addr);
  } else if (IS("realloc") && nargs == 2) {
    *result = builtin_realloc(ex, st, in, A(0), A(1));
  } else if (IS("free") && nargs == 1) {
    *result = builtin_free(ex, st, A(0));
  } else if (IS("write") && nargs == 3) {
    *result = builtin_write(ex, st, in, A(0), A(1), A(2));
  } else if (IS("klee_is_symbolic") && nargs == 1) {
    return_value(ex, st, in, !expr_is_const(A(0)));
  } else if (IS("klee_is_replay") || IS("symq_is_replay")) {
    return_value(ex, st, in, 0);
  } else if (strncmp(name, "klee_get_value", 14) == 0 && nargs == 1) {
    u128 v;
    if (!example_value(ex, st, A(0), &v)) *result = STEP_ENDED;
    else return_value(ex, st, in, v);
  } else if (IS("klee_print_expr") && nargs >= 1) {
    char *message = read_string(ex, st, A(0), 4096);
    char *text = nargs >= 2 ? expr_to_string(A(1)) : xstrdup("");
    printf("symq: klee_print_expr: %s: %s\n", message ? message : "", text);
    free(message);
    free(text);
  } else if (IS("klee_open_merge") || IS("symq_merge_begin")) {
    /* a manual region; nested begins are counted, not opened (plain forking ignores them) */
    if (ex->opt->merge != INTERP_MERGE_NONE && !st->region) region_open(ex, st, true, MERGE_NO_LOOP);
    else if (st->region && ((region *)st->region)->manual) st->manual_nesting++;
  } else if (IS("klee_close_merge") || IS("symq_merge_end")) {
    if (st->region && ((region *)st->region)->manual) {
      if (st->manual_nesting) {
        st->manual_nesting--;
      } else { /* wait after the call for the region's other states */
        state_top(st)->pc++;
        region_pause(ex, st);
        *result = STEP_PAUSED;
      }
    }
  } else if (IS("klee_prefer_cex")) {
    /* accepted: symq's models are the solver's */
  } else {
    return false;
  }
#undef A
#undef IS
  if (*result == STEP_CONTINUE) state_top(st)->pc++;
  return true;
}

/* ---- control flow --------------------------------------------------------------------- */

/* Takes an edge of the current function: the phi moves (read all, then write all), then
 * the jump. Returns STEP_ENDED when the edge is unsupported (st ended). */
static step take_edge(executor *ex, state *st, uint32_t edge_index) {
  state_frame *f = state_top(st);
  const ir_function *fn = fn_of(ex, f);
  const ir_edge *e = &fn->edges[edge_index];
  if (st->region) st->prev_block = merge_block_of(fn, f->pc); /* the exit edge's source */
  if (e->unsupported) {
    char *reason = xprintf("unsupported: %s", e->unsupported);
    end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  expr *small[8];
  expr **values = e->nmoves <= 8 ? small : xrealloc(NULL, e->nmoves * sizeof *values);
  for (uint32_t k = 0; k < e->nmoves; k++)
    values[k] = expr_ref(operand(ex, st, &fn->moves[e->moves + k].src));
  for (uint32_t k = 0; k < e->nmoves; k++) {
    state_set_reg(f, fn->moves[e->moves + k].dst, values[k]);
    expr_unref(values[k]);
  }
  if (values != small) free(values);
  f->pc = fn->blocks[e->target].first;
  return STEP_CONTINUE;
}

static step exec_condbr(executor *ex, state *st, const ir_inst *in) {
  state *on_true, *on_false;
  maybe_open_region(ex, st, arg(ex, st, in, 0));
  if (!branch(ex, st, arg(ex, st, in, 0), &on_true, &on_false)) return STEP_ENDED;
  step s_true = on_true ? take_edge(ex, on_true, in->u.br.edge[0]) : STEP_ENDED;
  step s_false = on_false ? take_edge(ex, on_false, in->u.br.edge[1]) : STEP_ENDED;
  if (on_true && on_false) return s_true == STEP_ENDED ? STEP_ENDED : STEP_YIELD;
  return on_true ? s_true : s_false;
}

/* One fork per feasible target block (cases sharing a target are one group). */
static step exec_switch(executor *ex, state *st, const ir_inst *in) {
  const ir_function *fn = fn_of(ex, state_top(st));
  expr *cond = arg(ex, st, in, 0);
  uint32_t ngroups = in->u.sw.ngroups;
  if (expr_is_const(cond)) {
    for (uint32_t g = 0; g < ngroups; g++) {
      const ir_case_group *grp = &fn->groups[in->u.sw.groups + g];
      for (uint32_t v = 0; v < grp->nvalues; v++)
        if (fn->case_values[grp->values + v] == cond->u.value) return take_edge(ex, st, grp->edge);
    }
    return take_edge(ex, st, in->u.sw.dflt);
  }
  /* the condition of each target: the group's cases, or (default) none of them */
  expr **conds = xrealloc(NULL, (ngroups + 1) * sizeof *conds);
  uint32_t *edges = xrealloc(NULL, (ngroups + 1) * sizeof *edges);
  expr *none = C(ex, 1, 1);
  for (uint32_t g = 0; g < ngroups; g++) {
    const ir_case_group *grp = &fn->groups[in->u.sw.groups + g];
    expr *any = C(ex, 1, 0);
    for (uint32_t v = 0; v < grp->nvalues; v++) {
      expr *match = T(ex, expr_eq(cond, C(ex, cond->width, fn->case_values[grp->values + v])));
      any = T(ex, expr_or(any, match));
      none = T(ex, expr_and(none, T(ex, expr_not(match))));
    }
    conds[g] = any;
    edges[g] = grp->edge;
  }
  conds[ngroups] = none;
  edges[ngroups] = in->u.sw.dflt;

  /* decide every target on st first, fork after: each child copies st unconstrained */
  uint32_t *targets = xrealloc(NULL, (ngroups + 1) * sizeof *targets);
  uint32_t nfeasible = 0;
  for (uint32_t g = 0; g <= ngroups; g++) {
    bool may = false;
    if (qs_may_be_true(ex->solver, st->pc, st->npc, conds[g], &may) == QS_UNKNOWN) {
      free(conds), free(edges), free(targets);
      end_solver_unknown(ex, st);
      return STEP_ENDED;
    }
    if (may) targets[nfeasible++] = g;
  }
  assert(nfeasible > 0); /* the targets' conditions cover every value */
  state **states = xrealloc(NULL, nfeasible * sizeof *states);
  uint32_t nstates = 1;
  states[0] = st;
  for (uint32_t k = 1; k < nfeasible; k++) {
    if (!may_fork(ex)) {
      ex->result->exhausted = false;
      break;
    }
    states[nstates] = fork_state(ex, st);
    add_constraint(ex, states[nstates], conds[targets[k]]);
    nstates++;
  }
  if (nfeasible > 1) add_constraint(ex, st, conds[targets[0]]);
  step result = STEP_ENDED;
  for (uint32_t k = 0; k < nstates; k++) {
    step s = take_edge(ex, states[k], edges[targets[k]]);
    if (k == 0) result = s;
  }
  if (nstates > 1 && result != STEP_ENDED) result = STEP_YIELD;
  free(conds), free(edges), free(targets), free(states);
  return result;
}

/* ---- calls and returns ---------------------------------------------------------------- */

enum { MAX_FRAMES = 8192, VA_GP_OFFSET = 48, VA_FP_OFFSET = 304 };

/* The variadic arguments go to a stack object in 8-byte slots (16 for wider values), which
 * va_start makes the va_list's overflow area: clang's x86-64 va_arg code then reads them
 * from there, as under KLEE. */
static mem_object *variadic_area(executor *ex, state *st, expr *const *values, size_t n) {
  uint64_t size = 0;
  for (size_t k = 0; k < n; k++) {
    uint64_t slot = values[k]->width > 64 ? 16 : 8;
    size = (size + slot - 1) / slot * slot + slot;
  }
  mem_object *o = new_object(ex, st, MEM_STACK, size, 16, "varargs", NULL);
  uint64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    expr *v = values[k];
    uint64_t slot = v->width > 64 ? 16 : 8;
    at = (at + slot - 1) / slot * slot;
    expr *wide = v->width % 8 ? T(ex, expr_zext(v, (v->width + 7) / 8 * 8)) : v;
    mem_write(st->mem, o, C(ex, 64, at), wide);
    at += slot;
  }
  return o;
}

static step call_function(executor *ex, state *st, const ir_inst *in, uint32_t callee) {
  const ir_function *fn = &ex->prog->funcs[callee];
  if (fn->is_decl) {
    step result;
    if (call_builtin(ex, st, in, fn->name, &result)) return result;
    char *reason = xprintf("unsupported: external call %s", fn->name);
    warn_once(ex, fn->name, "undefined function (paths that call it end early):");
    end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  if (fn->unsupported) {
    char *reason = xprintf("unsupported: %s", fn->unsupported);
    end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  if (st->nframes >= MAX_FRAMES) {
    end_early(ex, st, "max stack frames exceeded");
    return STEP_ENDED;
  }
  unsigned given = in->nops - 1u;
  if (given < fn->nargs) {
    end_error(ex, st, "exec", "calling a function with too few arguments", NULL);
    return STEP_ENDED;
  }
  /* the arguments are read before the new frame exists (pushing it may move the stack) */
  expr **args = xrealloc(NULL, (given + 1) * sizeof *args);
  for (unsigned k = 0; k < given; k++) args[k] = T(ex, expr_ref(arg(ex, st, in, k + 1)));
  /* byval: the callee's own copy of the caller's bytes, read before the frame exists */
  const mem_object **byval_src = NULL;
  expr **byval_offset = NULL;
  if (fn->byval) {
    byval_src = xrealloc(NULL, fn->nargs * sizeof *byval_src);
    byval_offset = xrealloc(NULL, fn->nargs * sizeof *byval_offset);
    for (uint32_t k = 0; k < fn->nargs; k++) {
      if (!fn->byval[k]) continue;
      if (!resolve(ex, st, args[k], fn->byval[k], &byval_src[k], &byval_offset[k])) {
        free(args), free(byval_src), free(byval_offset);
        return STEP_ENDED;
      }
    }
  }
  mem_object *varargs = NULL;
  if (fn->is_vararg && given > fn->nargs)
    varargs = variadic_area(ex, st, &args[fn->nargs], given - fn->nargs);
  for (uint32_t k = 0; fn->byval && k < fn->nargs; k++) {
    if (!fn->byval[k]) continue;
    uint64_t size = fn->byval[k];
    mem_object *copy = new_object(ex, st, MEM_STACK, size, 16, fn->name, NULL);
    for (uint64_t b = 0; b < size; b++) {
      expr *from = T(ex, expr_add(byval_offset[k], C(ex, 64, b)));
      mem_write(st->mem, copy, C(ex, 64, b), T(ex, mem_read(st->mem, byval_src[k], from, 1)));
    }
    args[k] = C(ex, 64, copy->address);
    byval_src[k] = copy; /* kept to hand to the new frame below */
  }
  state_frame *f = state_push_frame(st, callee, fn->nregs);
  for (uint32_t k = 0; fn->byval && k < fn->nargs; k++) {
    if (!fn->byval[k]) continue;
    state_frame_add_alloca(f, (mem_object *)byval_src[k]);
    mem_object_unref((mem_object *)byval_src[k]);
  }
  free(byval_src);
  free(byval_offset);
  for (uint32_t k = 0; k < fn->nargs; k++) {
    expr *v = args[k];
    unsigned w = fn->reg_width[k];
    state_set_reg(f, k, v->width == w ? v : T(ex, expr_resize(v, w, false)));
  }
  free(args);
  f->varargs = varargs;
  f->pc = 0;
  return STEP_CONTINUE;
}

static step exec_call(executor *ex, state *st, const ir_inst *in) {
  if (in->u.call.func != IR_NONE) return call_function(ex, st, in, in->u.call.func);
  expr *target = arg(ex, st, in, 0);
  uint64_t address;
  if (!single_value(ex, st, target, &address)) return STEP_ENDED;
  uint32_t callee = function_at(ex, address);
  if (callee == IR_NONE) {
    end_error(ex, st, "ptr", "invalid function pointer", NULL);
    return STEP_ENDED;
  }
  return call_function(ex, st, in, callee);
}

static step exec_ret(executor *ex, state *st, const ir_inst *in) {
  expr *value = in->nops ? T(ex, expr_ref(arg(ex, st, in, 0))) : NULL;
  state_frame *f = state_top(st);
  for (uint32_t k = 0; k < f->nallocas; k++) remember_dead(ex, f->allocas[k]);
  state_pop_frame(st);
  if (st->nframes == 0) {
    complete_path(ex, st);
    return STEP_ENDED;
  }
  const ir_inst *call = current_inst(ex, st);
  if (call->dst != IR_NONE && value) {
    unsigned w = call->width;
    set_result(st, call, value->width == w ? value : T(ex, expr_resize(value, w, false)));
  }
  state_top(st)->pc++;
  return STEP_CONTINUE;
}

/* ---- memory instructions -------------------------------------------------------------- */

static step exec_alloca(executor *ex, state *st, const ir_inst *in) {
  expr *count = T(ex, expr_resize(arg(ex, st, in, 0), 64, false));
  expr *size = T(ex, expr_mul(count, C(ex, 64, in->u.alloca.size)));
  const ir_function *fn = fn_of(ex, state_top(st));
  mem_object *o;
  if (!allocate(ex, st, MEM_STACK, size, in->u.alloca.align, fn->name, &o)) return STEP_ENDED;
  if (!o) {
    end_early(ex, st, "alloca larger than 1 GiB");
    return STEP_ENDED;
  }
  state_frame_add_alloca(state_top(st), o);
  set_result(st, in, C(ex, 64, o->address));
  mem_object_unref(o);
  return STEP_CONTINUE;
}

static expr *gep_address(executor *ex, state *st, const ir_inst *in) {
  const ir_function *fn = fn_of(ex, state_top(st));
  expr *address = T(ex, expr_add(arg(ex, st, in, 0), C(ex, 64, (uint64_t)in->u.gep.offset)));
  for (unsigned k = 1; k < in->nops; k++) {
    expr *index = T(ex, expr_resize(arg(ex, st, in, k), 64, true));
    expr *scale = C(ex, 64, (uint64_t)fn->scales[in->u.gep.scales + k - 1]);
    address = T(ex, expr_add(address, T(ex, expr_mul(index, scale))));
  }
  return address;
}

/* memcpy, memmove, memset: a symbolic length is made concrete (counted). */
static step exec_memory_intrinsic(executor *ex, state *st, const ir_inst *in) {
  u128 len;
  if (!concretize(ex, st, arg(ex, st, in, 2), &len)) return STEP_ENDED;
  if (len == 0) return STEP_CONTINUE;
  const mem_object *dst;
  expr *dst_offset;
  if (!resolve_write(ex, st, arg(ex, st, in, 0), (uint64_t)len, &dst, &dst_offset))
    return STEP_ENDED;
  if (in->op == IR_MEMSET) {
    expr *byte = arg(ex, st, in, 1);
    for (uint64_t k = 0; k < len; k++)
      mem_write(st->mem, dst, T(ex, expr_add(dst_offset, C(ex, 64, k))), byte);
    return STEP_CONTINUE;
  }
  const mem_object *src;
  expr *src_offset;
  if (!resolve(ex, st, arg(ex, st, in, 1), (uint64_t)len, &src, &src_offset)) return STEP_ENDED;
  /* read everything first: memmove's overlapping ranges come out right, and memcpy's too */
  expr **bytes = xrealloc(NULL, (size_t)len * sizeof *bytes);
  for (uint64_t k = 0; k < len; k++)
    bytes[k] = mem_read(st->mem, src, T(ex, expr_add(src_offset, C(ex, 64, k))), 1);
  for (uint64_t k = 0; k < len; k++) {
    mem_write(st->mem, dst, T(ex, expr_add(dst_offset, C(ex, 64, k))), bytes[k]);
    expr_unref(bytes[k]);
  }
  free(bytes);
  return STEP_CONTINUE;
}

/* ---- arithmetic ------------------------------------------------------------------------ */

static expr_kind binary_kind(ir_opcode op) {
  switch (op) {
  case IR_ADD: return EXPR_ADD;
  case IR_SUB: return EXPR_SUB;
  case IR_MUL: return EXPR_MUL;
  case IR_UDIV: return EXPR_UDIV;
  case IR_SDIV: return EXPR_SDIV;
  case IR_UREM: return EXPR_UREM;
  case IR_SREM: return EXPR_SREM;
  case IR_SHL: return EXPR_SHL;
  case IR_LSHR: return EXPR_LSHR;
  case IR_ASHR: return EXPR_ASHR;
  case IR_AND: return EXPR_AND;
  case IR_OR: return EXPR_OR;
  default: return EXPR_XOR;
  }
}

static expr_kind icmp_kind(unsigned pred) {
  static const expr_kind kinds[] = {
      [IR_ICMP_EQ] = EXPR_EQ,   [IR_ICMP_NE] = EXPR_NE,   [IR_ICMP_UGT] = EXPR_UGT,
      [IR_ICMP_UGE] = EXPR_UGE, [IR_ICMP_ULT] = EXPR_ULT, [IR_ICMP_ULE] = EXPR_ULE,
      [IR_ICMP_SGT] = EXPR_SGT, [IR_ICMP_SGE] = EXPR_SGE, [IR_ICMP_SLT] = EXPR_SLT,
      [IR_ICMP_SLE] = EXPR_SLE};
  return kinds[pred];
}

/* Division and remainder: a divisor that may be zero forks an error state. */
static step exec_division(executor *ex, state *st, const ir_inst *in, expr *a, expr *b) {
  expr *nonzero = T(ex, expr_ne(b, C(ex, b->width, 0)));
  state *ok, *zero;
  if (!branch(ex, st, nonzero, &ok, &zero)) return STEP_ENDED;
  if (zero) end_error(ex, zero, "div", "divide by zero", NULL);
  if (!ok) return STEP_ENDED;
  set_result(st, in, T(ex, expr_binary(binary_kind(in->op), a, b)));
  return zero ? STEP_YIELD : STEP_CONTINUE;
}

static expr *sign_of(executor *ex, expr *v) { return T(ex, expr_extract(v, v->width - 1, 1)); }

/* The {result, overflow flag} aggregate of llvm.*.with.overflow. */
static step exec_overflow(executor *ex, state *st, const ir_inst *in) {
  expr *a = arg(ex, st, in, 0), *b = arg(ex, st, in, 1);
  unsigned w = a->width;
  expr *r, *flag;
  switch (in->op) {
  case IR_UADDO:
    r = T(ex, expr_add(a, b));
    flag = T(ex, expr_ult(r, a));
    break;
  case IR_SADDO:
    r = T(ex, expr_add(a, b));
    flag = T(ex, expr_and(T(ex, expr_eq(sign_of(ex, a), sign_of(ex, b))),
                          T(ex, expr_ne(sign_of(ex, r), sign_of(ex, a)))));
    break;
  case IR_USUBO:
    r = T(ex, expr_sub(a, b));
    flag = T(ex, expr_ult(a, b));
    break;
  case IR_SSUBO:
    r = T(ex, expr_sub(a, b));
    flag = T(ex, expr_and(T(ex, expr_ne(sign_of(ex, a), sign_of(ex, b))),
                          T(ex, expr_ne(sign_of(ex, r), sign_of(ex, a)))));
    break;
  default: { /* multiplication: exact product in twice the width */
    if (2 * w > 128) {
      end_early(ex, st, "unsupported: 128-bit multiplication with overflow");
      return STEP_ENDED;
    }
    bool is_signed = in->op == IR_SMULO;
    expr *wa = T(ex, expr_resize(a, 2 * w, is_signed)), *wb = T(ex, expr_resize(b, 2 * w, is_signed));
    expr *exact = T(ex, expr_mul(wa, wb));
    r = T(ex, expr_extract(exact, 0, w));
    expr *back = T(ex, expr_resize(r, 2 * w, is_signed));
    flag = T(ex, expr_ne(back, exact));
    break;
  }
  }
  unsigned flag_bit = 8 * in->u.ovf.flag_offset;
  expr *agg = T(ex, expr_zext(r, in->width));
  expr *flag_wide = T(ex, expr_shl(T(ex, expr_zext(flag, in->width)), C(ex, in->width, flag_bit)));
  set_result(st, in, T(ex, expr_or(agg, flag_wide)));
  return STEP_CONTINUE;
}

static expr *count_bits(executor *ex, expr *x, ir_opcode op) {
  unsigned w = x->width;
  if (op == IR_CTPOP) {
    expr *sum = C(ex, w, 0);
    for (unsigned i = 0; i < w; i++)
      sum = T(ex, expr_add(sum, T(ex, expr_zext(T(ex, expr_extract(x, i, 1)), w))));
    return sum;
  }
  expr *r = C(ex, w, w); /* the count for zero */
  if (op == IR_CTLZ) {
    for (unsigned i = 0; i < w; i++) /* the highest set bit is the outermost test */
      r = T(ex, expr_ite(T(ex, expr_extract(x, i, 1)), C(ex, w, w - 1 - i), r));
  } else {
    for (unsigned i = w; i-- > 0;) /* the lowest set bit is the outermost test */
      r = T(ex, expr_ite(T(ex, expr_extract(x, i, 1)), C(ex, w, i), r));
  }
  return r;
}

static expr *funnel_shift(executor *ex, expr *a, expr *b, expr *shift, bool left, bool *ok) {
  unsigned w = a->width;
  *ok = 2 * w <= 128;
  if (!*ok) return NULL;
  expr *amount = T(ex, expr_zext(T(ex, expr_urem(shift, C(ex, w, w))), 2 * w));
  expr *both = T(ex, expr_concat(a, b));
  if (left) return T(ex, expr_extract(T(ex, expr_shl(both, amount)), w, w));
  return T(ex, expr_extract(T(ex, expr_lshr(both, amount)), 0, w));
}

/* ---- floating point (concrete only) ----------------------------------------------------- */

static bool fp_value(const expr *e, double *out) {
  if (!expr_is_const(e)) return false;
  if (e->width == 32) {
    uint32_t bits = (uint32_t)e->u.value;
    float f;
    memcpy(&f, &bits, sizeof f);
    *out = f;
  } else {
    uint64_t bits = (uint64_t)e->u.value;
    memcpy(out, &bits, sizeof *out);
  }
  return true;
}

static expr *fp_expr(executor *ex, unsigned width, double v) {
  if (width == 32) {
    float f = (float)v;
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return C(ex, 32, bits);
  }
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  return C(ex, 64, bits);
}

static bool fcmp(unsigned pred, double a, double b) {
  bool unordered = isnan(a) || isnan(b);
  switch (pred) {
  case IR_FCMP_FALSE: return false;
  case IR_FCMP_OEQ: return !unordered && a == b;
  case IR_FCMP_OGT: return !unordered && a > b;
  case IR_FCMP_OGE: return !unordered && a >= b;
  case IR_FCMP_OLT: return !unordered && a < b;
  case IR_FCMP_OLE: return !unordered && a <= b;
  case IR_FCMP_ONE: return !unordered && a != b;
  case IR_FCMP_ORD: return !unordered;
  case IR_FCMP_UNO: return unordered;
  case IR_FCMP_UEQ: return unordered || a == b;
  case IR_FCMP_UGT: return unordered || a > b;
  case IR_FCMP_UGE: return unordered || a >= b;
  case IR_FCMP_ULT: return unordered || a < b;
  case IR_FCMP_ULE: return unordered || a <= b;
  case IR_FCMP_UNE: return unordered || a != b;
  default: return true;
  }
}

/* Float arithmetic at the operation's own precision: float ops round to float. */
static double fp_round(unsigned width, double v) { return width == 32 ? (double)(float)v : v; }

static step exec_float(executor *ex, state *st, const ir_inst *in) {
  double v[3] = {0, 0, 0};
  for (unsigned k = 0; k < in->nops && k < 3; k++) {
    expr *o = arg(ex, st, in, k);
    bool is_fp_operand = !(in->op == IR_UITOFP || in->op == IR_SITOFP);
    if (!expr_is_const(o)) {
      end_early(ex, st, "unsupported: symbolic floating point");
      return STEP_ENDED;
    }
    if (is_fp_operand) {
      bool constant = fp_value(o, &v[k]);
      assert(constant);
      (void)constant;
    }
  }
  unsigned w = in->width;
  expr *x = arg(ex, st, in, 0);
  unsigned src_w = x->width;
  switch (in->op) {
  case IR_FADD: set_result(st, in, fp_expr(ex, w, fp_round(w, v[0] + v[1]))); break;
  case IR_FSUB: set_result(st, in, fp_expr(ex, w, fp_round(w, v[0] - v[1]))); break;
  case IR_FMUL: set_result(st, in, fp_expr(ex, w, fp_round(w, v[0] * v[1]))); break;
  case IR_FDIV: set_result(st, in, fp_expr(ex, w, fp_round(w, v[0] / v[1]))); break;
  case IR_FREM: set_result(st, in, fp_expr(ex, w, fmod(v[0], v[1]))); break;
  case IR_FNEG: set_result(st, in, fp_expr(ex, w, -v[0])); break;
  case IR_FABS: set_result(st, in, fp_expr(ex, w, fabs(v[0]))); break;
  case IR_FMA: set_result(st, in, fp_expr(ex, w, fp_round(w, fma(v[0], v[1], v[2])))); break;
  case IR_FCMP: set_result(st, in, C(ex, 1, fcmp(in->aux, v[0], v[1]))); break;
  case IR_FPTRUNC:
  case IR_FPEXT: set_result(st, in, fp_expr(ex, w, v[0])); break;
  case IR_FPTOUI:
  case IR_FPTOSI: {
    /* out-of-range conversions are poison in LLVM: any value will do; use C's on int64 */
    double t = trunc(v[0]);
    u128 r;
    if (isnan(t)) r = 0;
    else if (in->op == IR_FPTOSI) r = (u128)(__int128)(t < -1.7e38 ? 0 : t > 1.7e38 ? 0 : t);
    else r = t < 0 || t > 3.4e38 ? 0 : (u128)t;
    set_result(st, in, C(ex, w, r));
    break;
  }
  case IR_UITOFP: set_result(st, in, fp_expr(ex, w, (double)x->u.value)); break;
  default: { /* SITOFP */
    u128 bits = x->u.value;
    __int128 sv = (bits & ((u128)1 << (src_w - 1))) ? (__int128)(bits | ~expr_mask(src_w))
                                                     : (__int128)bits;
    set_result(st, in, fp_expr(ex, w, (double)sv));
    break;
  }
  }
  return STEP_CONTINUE;
}

/* ---- dispatch ------------------------------------------------------------------------- */

static step exec_va(executor *ex, state *st, const ir_inst *in) {
  const mem_object *o;
  expr *offset;
  if (in->op == IR_VAEND) return STEP_CONTINUE;
  if (!resolve_write(ex, st, arg(ex, st, in, 0), 24, &o, &offset)) return STEP_ENDED;
  if (in->op == IR_VACOPY) {
    const mem_object *src;
    expr *src_offset;
    if (!resolve(ex, st, arg(ex, st, in, 1), 24, &src, &src_offset)) return STEP_ENDED;
    mem_write(st->mem, o, offset, T(ex, mem_read(st->mem, src, src_offset, 16)));
    mem_write(st->mem, o, T(ex, expr_add(offset, C(ex, 64, 16))),
              T(ex, mem_read(st->mem, src, T(ex, expr_add(src_offset, C(ex, 64, 16))), 8)));
    return STEP_CONTINUE;
  }
  /* va_start: {gp_offset, fp_offset} past the registers, so every argument comes from the
   * overflow area, which holds the variadic arguments */
  const mem_object *area = state_top(st)->varargs;
  expr *header = T(ex, expr_concat(C(ex, 32, VA_FP_OFFSET), C(ex, 32, VA_GP_OFFSET)));
  mem_write(st->mem, o, offset, header);
  mem_write(st->mem, o, T(ex, expr_add(offset, C(ex, 64, 8))), C(ex, 64, area ? area->address : 0));
  mem_write(st->mem, o, T(ex, expr_add(offset, C(ex, 64, 16))), C(ex, 64, 0));
  return STEP_CONTINUE;
}

/* Executes st's current instruction. */
static step execute(executor *ex, state *st) {
  const ir_inst *in = current_inst(ex, st);
  if (ex->opt->trace) {
    const state_frame *f = state_top(st);
    fprintf(stderr, "symq: trace: state %" PRIu64 " %s:%u %s line %u\n", st->id,
            fn_of(ex, f)->name, f->pc, ir_opcode_name(in->op), in->line);
  }
  cover(ex, st);
  st->instructions++;
  ex->result->instructions++;
  step result = STEP_CONTINUE;
  switch ((ir_opcode)in->op) {
  case IR_NOP: break;
  case IR_ADD: case IR_SUB: case IR_MUL: case IR_SHL: case IR_LSHR: case IR_ASHR:
  case IR_AND: case IR_OR: case IR_XOR:
    set_result(st, in, T(ex, expr_binary(binary_kind(in->op), arg(ex, st, in, 0), arg(ex, st, in, 1))));
    break;
  case IR_UDIV: case IR_SDIV: case IR_UREM: case IR_SREM:
    result = exec_division(ex, st, in, arg(ex, st, in, 0), arg(ex, st, in, 1));
    break;
  case IR_ICMP:
    set_result(st, in, T(ex, expr_binary(icmp_kind(in->aux), arg(ex, st, in, 0), arg(ex, st, in, 1))));
    break;
  case IR_SELECT:
    set_result(st, in, T(ex, expr_ite(arg(ex, st, in, 0), arg(ex, st, in, 1), arg(ex, st, in, 2))));
    break;
  case IR_TRUNC: set_result(st, in, T(ex, expr_extract(arg(ex, st, in, 0), 0, in->width))); break;
  case IR_ZEXT: set_result(st, in, T(ex, expr_zext(arg(ex, st, in, 0), in->width))); break;
  case IR_SEXT: set_result(st, in, T(ex, expr_sext(arg(ex, st, in, 0), in->width))); break;
  case IR_PTRTOINT:
  case IR_INTTOPTR:
  case IR_MOVE: set_result(st, in, T(ex, expr_resize(arg(ex, st, in, 0), in->width, false))); break;
  case IR_FPTRUNC: case IR_FPEXT: case IR_FPTOUI: case IR_FPTOSI: case IR_UITOFP: case IR_SITOFP:
  case IR_FADD: case IR_FSUB: case IR_FMUL: case IR_FDIV: case IR_FREM: case IR_FNEG:
  case IR_FCMP: case IR_FMA: case IR_FABS:
    result = exec_float(ex, st, in);
    break;
  case IR_ALLOCA: result = exec_alloca(ex, st, in); break;
  case IR_LOAD: {
    const mem_object *o;
    expr *offset;
    if (!resolve(ex, st, arg(ex, st, in, 0), in->u.mem.bytes, &o, &offset)) return STEP_ENDED;
    set_result(st, in, load(ex, st, o, offset, in->u.mem.bytes, in->width));
    break;
  }
  case IR_STORE: {
    const mem_object *o;
    expr *offset;
    if (!resolve_write(ex, st, arg(ex, st, in, 1), in->u.mem.bytes, &o, &offset)) return STEP_ENDED;
    store(ex, st, o, offset, arg(ex, st, in, 0), in->u.mem.bytes);
    break;
  }
  case IR_GEP: set_result(st, in, gep_address(ex, st, in)); break;
  case IR_EXTRACTVALUE:
    set_result(st, in, T(ex, expr_extract(arg(ex, st, in, 0), 8 * in->u.agg.offset, in->width)));
    break;
  case IR_INSERTVALUE: {
    expr *agg = arg(ex, st, in, 0), *v = arg(ex, st, in, 1);
    unsigned lo = 8 * in->u.agg.offset, hi = lo + v->width;
    expr *r = v;
    if (lo) r = T(ex, expr_concat(r, T(ex, expr_extract(agg, 0, lo))));
    if (hi < agg->width) r = T(ex, expr_concat(T(ex, expr_extract(agg, hi, agg->width - hi)), r));
    set_result(st, in, r);
    break;
  }
  case IR_CALL: return exec_call(ex, st, in);
  case IR_RET: return exec_ret(ex, st, in);
  case IR_BR: return take_edge(ex, st, in->u.br.edge[0]);
  case IR_CONDBR: return exec_condbr(ex, st, in);
  case IR_SWITCH: return exec_switch(ex, st, in);
  case IR_UNREACHABLE:
    end_error(ex, st, "exec", "reached \"unreachable\" instruction", NULL);
    return STEP_ENDED;
  case IR_TRAP:
    end_error(ex, st, "abort", "llvm.trap called", NULL);
    return STEP_ENDED;
  case IR_VAARG:
    end_early(ex, st, "unsupported: va_arg instruction");
    return STEP_ENDED;
  case IR_MEMCPY: case IR_MEMMOVE: case IR_MEMSET: result = exec_memory_intrinsic(ex, st, in); break;
  case IR_UADDO: case IR_SADDO: case IR_USUBO: case IR_SSUBO: case IR_UMULO: case IR_SMULO:
    result = exec_overflow(ex, st, in);
    break;
  case IR_UMIN: case IR_UMAX: case IR_SMIN: case IR_SMAX: {
    expr *a = arg(ex, st, in, 0), *b = arg(ex, st, in, 1);
    expr *a_first = T(ex, in->op == IR_UMIN ? expr_ult(a, b) : in->op == IR_UMAX ? expr_ugt(a, b)
                           : in->op == IR_SMIN ? expr_slt(a, b) : expr_sgt(a, b));
    set_result(st, in, T(ex, expr_ite(a_first, a, b)));
    break;
  }
  case IR_ABS: {
    expr *x = arg(ex, st, in, 0);
    expr *negative = T(ex, expr_slt(x, C(ex, x->width, 0)));
    set_result(st, in, T(ex, expr_ite(negative, T(ex, expr_sub(C(ex, x->width, 0), x)), x)));
    break;
  }
  case IR_BSWAP: {
    expr *x = arg(ex, st, in, 0), *r = NULL;
    for (unsigned b = 0; b < x->width / 8; b++) {
      expr *byte = T(ex, expr_extract(x, 8 * b, 8));
      r = r ? T(ex, expr_concat(r, byte)) : byte;
    }
    set_result(st, in, r);
    break;
  }
  case IR_CTPOP: case IR_CTLZ: case IR_CTTZ:
    set_result(st, in, count_bits(ex, arg(ex, st, in, 0), (ir_opcode)in->op));
    break;
  case IR_FSHL: case IR_FSHR: {
    bool ok;
    expr *r = funnel_shift(ex, arg(ex, st, in, 0), arg(ex, st, in, 1), arg(ex, st, in, 2),
                           in->op == IR_FSHL, &ok);
    if (!ok) {
      end_early(ex, st, "unsupported: funnel shift wider than 64 bits");
      return STEP_ENDED;
    }
    set_result(st, in, r);
    break;
  }
  case IR_STACKSAVE: set_result(st, in, C(ex, 64, state_top(st)->nallocas)); break;
  case IR_STACKRESTORE: {
    u128 keep;
    if (!concretize(ex, st, arg(ex, st, in, 0), &keep)) return STEP_ENDED;
    state_frame *f = state_top(st);
    while (f->nallocas > keep) {
      mem_object *o = f->allocas[--f->nallocas];
      mem_space_unbind(st->mem, o);
      remember_dead(ex, o);
      mem_object_unref(o);
    }
    break;
  }
  case IR_VASTART: case IR_VAEND: case IR_VACOPY: result = exec_va(ex, st, in); break;
  default: {
    char *reason = xprintf("unsupported: %s", in->op == IR_UNSUPPORTED && in->u.reason
                                                  ? in->u.reason : ir_opcode_name(in->op));
    end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  }
  if (result != STEP_ENDED) state_top(st)->pc++;
  return result;
}

/* ---- start-up ---------------------------------------------------------------------------- */

static void put_le64(uint8_t *p, uint64_t v) {
  for (unsigned k = 0; k < 8; k++) p[k] = (uint8_t)(v >> (8 * k));
}

/* Globals at fixed addresses, with their initializers and relocations applied. */
static void bind_globals(executor *ex, state *st) {
  const ir_program *p = ex->prog;
  ex->globals = xrealloc(NULL, (p->nglobals + 1) * sizeof *ex->globals);
  for (uint32_t g = 0; g < p->nglobals; g++) {
    const ir_global *gl = &p->globals[g];
    uint64_t address = mem_allocator_take(&ex->alloc, MEM_GLOBAL, gl->size, gl->align);
    ex->globals[g] = mem_object_new(ex->next_object_id++, address, gl->size, NULL, MEM_GLOBAL,
                                    gl->name);
    ex->globals[g]->read_only = gl->is_const;
  }
  for (uint32_t g = 0; g < p->nglobals; g++) {
    const ir_global *gl = &p->globals[g];
    uint8_t *init = xrealloc(NULL, gl->size ? gl->size : 1);
    if (gl->init) memcpy(init, gl->init, gl->size);
    else memset(init, 0, gl->size);
    for (uint32_t r = 0; r < gl->nrelocs; r++) {
      const ir_reloc *rel = &gl->relocs[r];
      uint64_t target = rel->is_function ? function_address(rel->target)
                                         : ex->globals[rel->target]->address;
      if (rel->offset + 8 <= gl->size) put_le64(init + rel->offset, target + (uint64_t)rel->addend);
    }
    mem_space_bind(st->mem, ex->globals[g], init);
    free(init);
  }
}

/* main(argc, argv, envp): argv's strings and array as read-only-free objects, envp empty. */
static bool start_main(executor *ex, state *st, uint32_t main_index) {
  const ir_function *fn = &ex->prog->funcs[main_index];
  state_frame *f = state_push_frame(st, main_index, fn->nregs);
  f->pc = 0;
  if (fn->nargs == 0) return true;
  if (fn->nargs > 3) return false;
  int argc = ex->opt->argc;
  mem_object *array = new_object(ex, st, MEM_GLOBAL, 8 * ((uint64_t)argc + 1), 8, "argv", NULL);
  for (int k = 0; k < argc; k++) {
    const char *text = ex->opt->argv[k];
    mem_object *s = new_object(ex, st, MEM_GLOBAL, strlen(text) + 1, 1, "arg",
                               (const uint8_t *)text);
    mem_write(st->mem, array, C(ex, 64, 8 * (uint64_t)k), C(ex, 64, s->address));
    mem_object_unref(s);
  }
  state_set_reg(f, 0, C(ex, fn->reg_width[0], (u128)argc));
  if (fn->nargs >= 2) state_set_reg(f, 1, C(ex, 64, array->address));
  if (fn->nargs >= 3) state_set_reg(f, 2, C(ex, 64, 0));
  mem_object_unref(array);
  release_scratch(ex);
  return true;
}

/* ---- nurs:covnew ------------------------------------------------------------------------ */

enum { DIST_NONE = UINT32_MAX };

static uint32_t dist_add(uint32_t a, uint32_t b) {
  return a == DIST_NONE || b == DIST_NONE || a > DIST_NONE - b ? DIST_NONE : a + b;
}

static uint32_t dist_min(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Recomputes fn's two distance tables: backward relaxation over the CFG until nothing
 * changes (the successors of a terminator are its edges' first instructions; a direct call
 * to a defined function may also reach the callee's uncovered code, as far away as the
 * callee's entry distance, however stale that one is). */
static void compute_distances(executor *ex, uint32_t fi) {
  const ir_function *fn = &ex->prog->funcs[fi];
  uint32_t *dist = ex->to_uncovered[fi], *ret = ex->to_return[fi];
  for (uint32_t k = 0; k < fn->ninsts; k++) {
    dist[k] = ex->covered[fi][k] ? DIST_NONE : 0;
    ret[k] = fn->insts[k].op == IR_RET ? 0 : DIST_NONE;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t k = fn->ninsts; k-- > 0;) {
      const ir_inst *in = &fn->insts[k];
      uint32_t best = dist[k], best_ret = ret[k];
      uint32_t edges[2], nedges = 0;
      const ir_case_group *groups = NULL;
      uint32_t ngroups = 0;
      switch (in->op) {
      case IR_BR: edges[nedges++] = in->u.br.edge[0]; break;
      case IR_CONDBR: edges[nedges++] = in->u.br.edge[0], edges[nedges++] = in->u.br.edge[1]; break;
      case IR_SWITCH:
        edges[nedges++] = in->u.sw.dflt;
        groups = &fn->groups[in->u.sw.groups];
        ngroups = in->u.sw.ngroups;
        break;
      case IR_RET: case IR_UNREACHABLE: case IR_TRAP: break;
      default:
        if (k + 1 < fn->ninsts) {
          best = dist_min(best, dist_add(dist[k + 1], 1));
          best_ret = dist_min(best_ret, dist_add(ret[k + 1], 1));
        }
        if (in->op == IR_CALL && in->u.call.func != IR_NONE) {
          uint32_t callee = in->u.call.func;
          if (!ex->prog->funcs[callee].is_decl && ex->prog->funcs[callee].ninsts)
            best = dist_min(best, dist_add(ex->to_uncovered[callee][0], 1));
        }
        break;
      }
      for (uint32_t e = 0; e < nedges + ngroups; e++) {
        uint32_t edge = e < nedges ? edges[e] : groups[e - nedges].edge;
        uint32_t target = fn->blocks[fn->edges[edge].target].first;
        best = dist_min(best, dist_add(dist[target], 1));
        best_ret = dist_min(best_ret, dist_add(ret[target], 1));
      }
      if (best != dist[k] || best_ret != ret[k]) {
        dist[k] = best, ret[k] = best_ret;
        changed = true;
      }
    }
  }
  ex->distances_stale[fi] = false;
}

/* The distance from st to the nearest uncovered instruction: in the current function, or
 * after returning to a caller (KLEE's min-dist-to-uncovered, along the call stack). */
static uint32_t distance_to_uncovered(executor *ex, const state *st) {
  uint32_t best = DIST_NONE, to_here = 0;
  for (uint32_t k = st->nframes; k-- > 0;) {
    const state_frame *f = &st->frames[k];
    if (ex->distances_stale[f->func]) compute_distances(ex, f->func);
    /* below the top, the frame resumes after its call */
    uint32_t pc = k + 1 == st->nframes ? f->pc : f->pc + 1;
    if (pc >= ex->prog->funcs[f->func].ninsts) break;
    best = dist_min(best, dist_add(to_here, ex->to_uncovered[f->func][pc]));
    to_here = dist_add(to_here, ex->to_return[f->func][pc]);
    if (to_here == DIST_NONE) break;
  }
  return best;
}

/* nurs:covnew's weight, KLEE's formula: the inverse squares of the distance to uncovered
 * code and of the instructions run since the state last covered something new. */
static double coverage_weight(void *state_ptr, void *ctx) {
  executor *ex = ctx;
  const state *st = state_ptr;
  uint32_t md2u = distance_to_uncovered(ex, st);
  double inv_md2u = 1.0 / (md2u == DIST_NONE ? 10000.0 : (double)(md2u ? md2u : 1));
  double inv_cov_new = 0;
  if (st->since_new_coverage)
    inv_cov_new = 1.0 / (double)(st->since_new_coverage > 1001 ? st->since_new_coverage - 1000 : 1);
  return inv_cov_new * inv_cov_new + inv_md2u * inv_md2u;
}

/* ---- the loop ------------------------------------------------------------------------- */

static void progress_line(executor *ex, bool final) {
  double now = elapsed(ex);
  if (!final && now < ex->next_progress) return;
  ex->next_progress = now + 0.5;
  const interp_result *r = ex->result;
  fprintf(stderr, "\rsymq: %.1fs states %zu paths %" PRIu64 " errors %" PRIu64 " tests %" PRIu64
                  " instructions %" PRIu64 "   ",
          now, ex->nlive, r->completed_paths, r->error_paths, r->tests, r->instructions);
  if (final) fputc('\n', stderr);
}

/* A limit reached or a signal: stop exploring; the states left end early with a test. */
static const char *halt_reason(executor *ex) {
  if (ex->opt->interrupted && *ex->opt->interrupted) return "halted: interrupted";
  if (ex->opt->max_instructions && ex->result->instructions >= ex->opt->max_instructions)
    return "halted: max-instructions";
  if (ex->opt->max_time_s > 0 && elapsed(ex) >= ex->opt->max_time_s) return "halted: max-time";
  if (memory_exceeded(ex)) return "halted: max-memory";
  return NULL;
}

static void run_loop(executor *ex) {
  state *st;
  while ((st = search_select(ex->searcher))) {
    const char *halt = ex->halted ? NULL : halt_reason(ex);
    if (halt) start_halt(ex, halt);
    if (ex->halted) break;
    bool alive = true;
    for (unsigned k = 0; k < SLICE; k++) {
      /* the deadline is checked before every instruction, and no query may outlast it */
      if (!limit_solver_time(ex, ex->opt->max_time_s)) break;
      if (k % 256 == 255 && memory_exceeded(ex)) break; /* /proc is read: not every time */
      if (st->region && region_exited(ex, st)) { /* wait at the exit for the others */
        region_pause(ex, st);
        alive = false;
        break;
      }
      step s = execute(ex, st);
      release_scratch(ex);
      alive = s != STEP_ENDED && s != STEP_PAUSED;
      if (s != STEP_CONTINUE) break;
      if (ex->opt->max_instructions && ex->result->instructions >= ex->opt->max_instructions)
        break;
    }
    if (alive) search_update(ex->searcher, st); /* covnew re-weights the state that ran */
    release_finished_regions(ex);
    if (ex->opt->progress) progress_line(ex, false);
  }
  if (ex->halted) {
    ex->result->exhausted = false;
    while (ex->nlive) end_halted(ex, ex->live[ex->nlive - 1]);
    write_lost(ex);
  }
  ex->result->exploration_time_s = elapsed(ex);
  if (ex->opt->progress) progress_line(ex, true);
}

int interp_run(const ir_program *prog, const interp_options *opt, qsolver *solver,
               out_dir *out, interp_result *result) {
  memset(result, 0, sizeof *result);
  result->exhausted = true;
  uint32_t main_index = ir_find_function(prog, "main");
  if (main_index == IR_NONE || prog->funcs[main_index].is_decl) {
    result->error = "the program has no main function";
    return -1;
  }
  executor ex = {.prog = prog, .opt = opt, .solver = solver, .out = out, .result = result,
                 .next_state_id = 1, .next_object_id = 1};
  clock_gettime(CLOCK_MONOTONIC, &ex.start);
  mem_allocator_init(&ex.alloc);
  ex.consts = xrealloc(NULL, (prog->nconsts + 1) * sizeof *ex.consts);
  for (uint32_t k = 0; k < prog->nconsts; k++)
    ex.consts[k] = expr_const(prog->consts[k].width, prog->consts[k].value);
  ex.covered = xrealloc(NULL, (prog->nfuncs + 1) * sizeof *ex.covered);
  ex.loops = xcalloc(prog->nfuncs + 1, sizeof *ex.loops);
  ex.to_uncovered = xrealloc(NULL, (prog->nfuncs + 1) * sizeof *ex.to_uncovered);
  ex.to_return = xrealloc(NULL, (prog->nfuncs + 1) * sizeof *ex.to_return);
  ex.distances_stale = xrealloc(NULL, (prog->nfuncs + 1) * sizeof *ex.distances_stale);
  for (uint32_t k = 0; k < prog->nfuncs; k++) {
    ex.covered[k] = calloc(prog->funcs[k].ninsts + 1, 1);
    /* zero: before anything runs every instruction is uncovered, so every distance is 0 */
    ex.to_uncovered[k] = calloc(prog->funcs[k].ninsts + 1, sizeof **ex.to_uncovered);
    ex.to_return[k] = calloc(prog->funcs[k].ninsts + 1, sizeof **ex.to_return);
    ex.distances_stale[k] = true;
    if (!ex.covered[k] || !ex.to_uncovered[k] || !ex.to_return[k]) expr_oom();
  }
  const search_kind default_search[] = {SEARCH_DFS};
  search_hooks hooks = {.weight = coverage_weight, .ctx = &ex};
  ex.searcher = search_new(opt->nsearch ? opt->search : default_search,
                           opt->nsearch ? opt->nsearch : 1, opt->seed, &hooks);

  state *initial = state_new(ex.next_state_id++);
  bind_globals(&ex, initial);
  int rc = 0;
  if (!start_main(&ex, initial, main_index)) {
    result->error = "main takes more than three parameters";
    state_free(initial);
    rc = -1;
  } else {
    live_add(&ex, initial);
    search_add_initial(ex.searcher, initial, info_of(initial));
    run_loop(&ex);
  }
  result->covered_lines = count_lines(&ex, true);
  result->total_lines = count_lines(&ex, false);

  search_free(ex.searcher);
  free(ex.live);
  while (ex.regions) { /* left open by a halt: their states have already ended */
    region *r = ex.regions;
    ex.regions = r->next;
    merge_tree_free(r->tree);
    free(r->paused);
    free(r);
  }
  for (uint32_t k = 0; k < prog->nfuncs; k++) merge_loops_free(ex.loops[k]);
  free(ex.loops);
  for (size_t k = 0; k < ex.nsize_arrays; k++) expr_array_unref(ex.size_arrays[k]);
  free(ex.size_arrays);
  for (uint32_t k = 0; k < prog->nconsts; k++) expr_unref(ex.consts[k]);
  free(ex.consts);
  for (uint32_t k = 0; k < prog->nglobals; k++) mem_object_unref(ex.globals[k]);
  free(ex.globals);
  for (size_t k = 0; k < ex.ndead; k++) mem_object_unref(ex.dead[k]);
  free(ex.dead);
  for (size_t k = 0; k < ex.nreported; k++) free(ex.reported[k].message);
  free(ex.reported);
  for (size_t k = 0; k < ex.nwarned; k++) free(ex.warned[k]);
  free(ex.warned);
  for (uint32_t k = 0; k < prog->nfuncs; k++) {
    free(ex.covered[k]);
    free(ex.to_uncovered[k]);
    free(ex.to_return[k]);
  }
  free(ex.covered);
  free(ex.to_uncovered);
  free(ex.to_return);
  free(ex.distances_stale);
  free(ex.scratch);
  return rc;
}

void interp_result_free(interp_result *r) {
  for (size_t k = 0; k < r->nskipped_reasons; k++) free(r->skipped_reasons[k].text);
  free(r->skipped_reasons);
  r->skipped_reasons = NULL;
  r->nskipped_reasons = 0;
  for (size_t k = 0; k < r->nearly_reasons; k++) free(r->early_reasons[k].text);
  free(r->early_reasons);
  r->early_reasons = NULL;
  r->nearly_reasons = 0;
}
