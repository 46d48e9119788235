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
 *
 * The functions symq implements itself (klee_*, malloc, the error functions…) are in
 * builtins.c, bound to each function once at start-up; coverage and nurs:covnew's weights
 * are in coverage.c. The executor they share, and the services below that builtins.c
 * uses (the interp_ functions), are declared in executor.h.
 */
#include "engine/exec/interp.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/core/memory.h"
#include "engine/exec/executor.h"
#include "engine/exec/external.h"
#include "engine/exec/interp_stats.h"
#include "engine/exec/part.h"
#include "engine/exec/search.h"
#include "engine/exec/symenv.h"
#include "engine/core/state.h"
#include "engine/core/xalloc.h"
#include "merge/region.h"

enum { SLICE = 10000 };
enum { NULL_PAGE = 0x10000 };

char *interp_format(const char *fmt, ...) {
  va_list ap, again;
  va_start(ap, fmt);
  va_copy(again, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  assert(n >= 0 && "a format symq cannot print");
  char *s = xmalloc((size_t)n + 1);
  vsnprintf(s, (size_t)n + 1, fmt, again);
  va_end(again);
  return s;
}

/* ---- temporaries (T and C: executor.h) ------------------------------------------------ */

static void release_scratch(executor *ex) {
  while (ex->nscratch) expr_unref(ex->scratch[--ex->nscratch]);
}

/* ---- program facts ------------------------------------------------------------------- */

static const ir_inst *current_inst(const executor *ex, state *st) {
  state_frame *f = state_top(st);
  return &fn_of(ex, f)->insts[f->pc];
}

static uint32_t function_at(const executor *ex, uint64_t address) {
  if (address < FUNCTION_BASE || (address - FUNCTION_BASE) % FUNCTION_STRIDE) return IR_NONE;
  uint64_t index = (address - FUNCTION_BASE) / FUNCTION_STRIDE;
  return index < ex->prog->nfuncs ? (uint32_t)index : IR_NONE;
}

static double elapsed(const executor *ex) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - ex->start.tv_sec) + (double)(now.tv_nsec - ex->start.tv_nsec) / 1e9;
}

/* Gives the solver's next queries at most the time left before `until` (elapsed seconds;
 * INFINITY: no cut, the --solver-timeout only); false when none is left. */
static bool limit_solver_time(executor *ex, double until) {
  if (until >= INFINITY) return true; /* only under --max-time or a signal is there a cut */
  unsigned ms = ex->opt->solver_timeout_ms;
  double left_ms = ceil((until - elapsed(ex)) * 1000);
  if (left_ms <= 0) return false;
  if (!ms || left_ms < ms) ms = (unsigned)left_ms;
  qs_set_time_left(ex->solver, (unsigned)left_ms);
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

/* Dynamic state merging: a state inside an open merge region is fast-forwarded (search.h). */
static void fast_forward_mark(executor *ex, state *st) {
  search_fast_forward(ex->searcher, st, merge_fast_forward(ex->merge, st));
}

/* --fork-sites: where frame f of st is (a frame below the top is at its call). */
static interp_fork_place place_of(const executor *ex, const state_frame *f) {
  const ir_function *fn = fn_of(ex, f);
  return (interp_fork_place){f->func, fn->insts[f->pc].line, fn->name, fn->file};
}

/* st is still at the instruction that forked; the frames below it are at their calls */
static void count_fork_site(executor *ex, const state *st) {
  interp_fork_place at = place_of(ex, &st->frames[st->nframes - 1]), calls[INTERP_FORK_CALLERS];
  size_t depth = 0;
  for (uint32_t f = st->nframes - 1; f-- > 0 && depth < INTERP_FORK_CALLERS;)
    calls[depth++] = place_of(ex, &st->frames[f]);
  interp_fork_sites_count(ex->result->fork_sites, &at, calls, depth, st->merge_product,
                          st->region != NULL);
}

/* A new state forked from st: registered with the searcher and the live list. */
static state *fork_state(executor *ex, state *st) {
  state *child = state_fork(st, ex->next_state_id++);
  part_forked(ex->opt->part, st, child);
  merge_forked(ex->merge, st, child);
  prune_forked(ex->prune, st, child);
  st->depth++;
  child->depth = st->depth;
  ex->result->forks++;
  if (ex->result->fork_sites) count_fork_site(ex, st);
  live_add(ex, child);
  search_fork(ex->searcher, st, child, info_of(child));
  fast_forward_mark(ex, st); /* the child last: it runs first, as under dfs */
  fast_forward_mark(ex, child);
  return child;
}

/* NULL when st may fork, else the limit that forbids it (a reason for dropped_reasons). */
static const char *fork_forbidden(const executor *ex) {
  if (ex->opt->max_forks && ex->result->forks >= ex->opt->max_forks)
    return "max-forks: a feasible side was not explored";
  /* forks stop short of the limit, so that the states can run on without reaching it */
  if (ex->opt->max_memory_mb && ex->memory_mb * 10 >= ex->opt->max_memory_mb * 9)
    return "max-memory: a feasible side was not explored";
  return ex->halted ? "halted: a feasible side was not explored" : NULL;
}

/* ---- ending paths --------------------------------------------------------------------- */

/* Counts `reason` in a sorted reason list (the merge statistics' counter). */
static void count_reason(interp_reason **list, size_t *n, const char *reason) {
  merge_reasons r = {*list, *n};
  merge_reasons_add(&r, reason);
  *list = r.items;
  *n = r.n;
}

static void remember_reason(executor *ex, const char *reason) {
  count_reason(&ex->result->early_reasons, &ex->result->nearly_reasons, reason);
}

/* A feasible alternative was given up without its path ending: the run is not exhaustive. */
void interp_remember_dropped(executor *ex, const char *reason) {
  ex->result->exhausted = false;
  count_reason(&ex->result->dropped_reasons, &ex->result->ndropped_reasons, reason);
}

static void start_halt(executor *ex, const char *reason);

/* The first output failure stops the run: no file is attempted after it (run_loop drops
 * the states left); its message is printed at once, and only then. */
static void output_failed(executor *ex) {
  if (ex->result->output_failed) return;
  ex->result->output_failed = true;
  ex->result->exhausted = false;
  snprintf(ex->result->output_error, sizeof ex->result->output_error, "%s", out_error(ex->out));
  fprintf(stderr, "symq: error: %s\n", ex->result->output_error); /* now: the run stops */
}

static bool state_covered_new(const executor *ex, const state *st) {
  return st->id < ex->cap_covered_new && ex->covered_new[st->id];
}

static void mark_covered_new(executor *ex, uint64_t id) {
  if (id >= ex->cap_covered_new) {
    size_t cap = ex->cap_covered_new ? ex->cap_covered_new : 1024;
    while (cap <= id) cap *= 2;
    ex->covered_new = xrealloc(ex->covered_new, cap);
    memset(ex->covered_new + ex->cap_covered_new, 0, cap - ex->cap_covered_new);
    ex->cap_covered_new = cap;
  }
  ex->covered_new[id] = 1;
}

/* Called after coverage_visit: remembers that st covered a new instruction. */
static void note_new_coverage(executor *ex, const state *st) {
  if (ex->opt->only_covering_new && st->since_new_coverage == 0) mark_covered_new(ex, st->id);
}

/* Whether st's path gets a test: not after an output failure, not past --max-tests, and
 * under --only-output-states-covering-new not unless it covered something new (an error's
 * test, `always`, is kept: a bug is never dropped). */
static bool test_wanted(executor *ex, const state *st, bool always) {
  if (ex->result->output_failed) return false;
  if (ex->opt->max_tests && ex->result->tests >= ex->opt->max_tests) {
    ex->result->tests_not_written++; /* the states the halt leaves make the run incomplete */
    return false;
  }
  if (ex->opt->only_covering_new && !always && !state_covered_new(ex, st)) {
    ex->result->tests_not_written++;
    return false;
  }
  return true;
}

/* st's symbolic inputs, one ktest object each, their bytes from model. */
static ktest_object *test_objects(const state *st, const expr_assignment *model) {
  ktest_object *objects = xrealloc(NULL, (st->nsymbolics + 1) * sizeof *objects);
  for (size_t k = 0; k < st->nsymbolics; k++) {
    const state_symbolic *sym = &st->symbolics[k];
    const expr_binding *b = expr_assignment_find(model, sym->array);
    uint32_t n = (uint32_t)sym->object->capacity;
    u128 size; /* a symbolic-size object's bytes are truncated to its size in the model */
    if (!expr_is_const(sym->object->size) &&
        expr_eval(sym->object->size, model, 0, &size) == EXPR_EVAL_OK && size < n)
      n = (uint32_t)size;
    uint8_t *bytes = xcalloc(n ? n : 1, 1);
    if (b) memcpy(bytes, b->bytes, b->len < n ? b->len : n);
    objects[k] = (ktest_object){.name = sym->name, .bytes = bytes, .num_bytes = n};
  }
  return objects;
}

static void free_test_objects(ktest_object *objects, size_t n) {
  for (size_t k = 0; k < n; k++) free(objects[k].bytes);
  free(objects);
}

/* Writes the state's test: one ktest object per symbolic input, bytes from a model of its
 * path condition (`given`, taken over, when not NULL). Returns the test id, or 0 when there
 * is none (no model, no test wanted (test_wanted), or the output failed). */
static uint32_t write_test_from(executor *ex, state *st, bool always, expr_assignment *given) {
  if (!test_wanted(ex, st, always)) {
    expr_assignment_free(given);
    return 0;
  }
  expr_array **arrays = state_symbolic_arrays(st);
  expr_assignment *model = given;
  qs_status status =
      given ? QS_SAT : qs_get_model(ex->solver, st->pc, st->npc, arrays, st->nsymbolics, &model);
  if (status == QS_SAT) /* the bytes a function of the path, not of the queries before */
    out_canonical_model(ex->canon, st->pc, st->npc, arrays, st->nsymbolics, model,
                        OUT_CANONICAL_BUDGET);
  free(arrays);
  if (status != QS_SAT) {
    ex->result->tests_lost++;
    fprintf(stderr, "symq: warning: no model for state %" PRIu64 " (%s): test lost\n", st->id,
            status == QS_UNSAT ? "unsatisfiable" : qs_last_reason(ex->solver));
    expr_assignment_free(model);
    return 0;
  }
  ktest_object *objects = test_objects(st, model);
  uint32_t id = out_write_test(ex->out, objects, (uint32_t)st->nsymbolics);
  free_test_objects(objects, st->nsymbolics);
  expr_assignment_free(model);
  if (!id) {
    ex->result->tests_lost++;
    output_failed(ex);
  } else {
    ex->result->tests++;
    if (ex->opt->max_tests && ex->result->tests >= ex->opt->max_tests && !ex->halted)
      start_halt(ex, "halted: max-tests");
  }
  return id;
}

static uint32_t write_test_if(executor *ex, state *st, bool always) {
  return write_test_from(ex, st, always, NULL);
}
static uint32_t write_test(executor *ex, state *st) { return write_test_if(ex, st, false); }

/* Where st is, for its .err or .early file: its current instruction's file and line and its
 * call stack, innermost first (frames xalloc'd, to be freed; none when st has no frame). */
static out_err where_of(const executor *ex, const state *st) {
  out_err e = {.state_id = st->id, .num_frames = st->nframes};
  if (!st->nframes) return e;
  out_frame *frames = xrealloc(NULL, st->nframes * sizeof *frames);
  for (uint32_t k = 0; k < st->nframes; k++) {
    const state_frame *f = &st->frames[st->nframes - 1 - k];
    const ir_function *ffn = fn_of(ex, f);
    frames[k] = (out_frame){.func = ffn->name,
                            .args = "",
                            .file = ffn->file,
                            .line = ffn->insts[f->pc].line,
                            .asm_line = 0};
  }
  e.frames = frames;
  e.file = frames[0].file;
  e.line = frames[0].line;
  return e;
}

/* The tests written for paths merged into st (engine/core/member_tests.h) that hold fewer
 * inputs than st, now at its end, has: where a member's path condition is consistent with
 * st's, that path is the member's, and its test is written again with every input, from a
 * model of both. A member whose path did not come here is completed where it did end. */
static void complete_member_tests(executor *ex, state *st) {
  member_tests *l = st->member_tests;
  for (size_t k = 0; l && k < l->n && !ex->result->output_failed; k++) {
    member_test *t = l->items[k];
    if (t->completed || t->nsymbolics >= st->nsymbolics) continue;
    size_t npc = t->npc + st->npc;
    expr **pc = xrealloc(NULL, (npc ? npc : 1) * sizeof *pc);
    memcpy(pc, t->pc, t->npc * sizeof *pc);
    memcpy(pc + t->npc, st->pc, st->npc * sizeof *pc);
    expr_array **arrays = state_symbolic_arrays(st);
    expr_assignment *model = NULL;
    if (qs_get_model(ex->solver, pc, npc, arrays, st->nsymbolics, &model) == QS_SAT) {
      out_canonical_model(ex->canon, pc, npc, arrays, st->nsymbolics, model, OUT_CANONICAL_BUDGET);
      ktest_object *objects = test_objects(st, model);
      if (out_rewrite_test(ex->out, t->test_id, objects, (uint32_t)st->nsymbolics) == 0) {
        t->completed = true;
        ex->result->merge.tests_completed++;
      } else {
        output_failed(ex);
      }
      free_test_objects(objects, st->nsymbolics);
    }
    expr_assignment_free(model);
    free(arrays);
    free(pc);
  }
}

void interp_end_state(executor *ex, state *st) {
  part_gone(ex->opt->part, st);
  prune_gone(ex->prune, st);
  if (!st->paused) search_remove(ex->searcher, st);
  complete_member_tests(ex, st);
  merge_path_ended(ex->merge, st); /* its leaf leaves the region's partition */
  merge_gone(ex->merge, st);
  live_remove(ex, st);
  state_free(st);
}

void interp_complete_path(executor *ex, state *st) {
  prune_ended(ex->prune, st, PRUNE_END_NORMAL, NULL, NULL);
  ex->result->completed_paths++;
  /* a merged state's path its members' tests already cover needs no input of its own: one
   * would cost a model of the merge's disjunction (libtasn1 get_length_der: 15 `return -2`
   * exits merged, nothing asked after them, the merged state's test 4% of the run's Z3
   * effort) */
  if (!merge_path_covered(ex->merge, st)) write_test(ex, st);
  interp_end_state(ex, st);
}

void interp_end_early(executor *ex, state *st, const char *reason) {
  prune_ended(ex->prune, st, PRUNE_END_EARLY, reason, NULL);
  ex->result->early_paths++;
  ex->result->exhausted = false;
  remember_reason(ex, reason);
  out_err e = where_of(ex, st);
  e.message = reason;
  if (ex->result->early_paths == 1 && e.file && *e.file)
    snprintf(ex->result->first_early_at, sizeof ex->result->first_early_at, "%s:%" PRIu32, e.file,
             e.line);
  uint32_t id = write_test(ex, st);
  if (id && out_write_early(ex->out, id, &e) != 0) output_failed(ex);
  free((void *)e.frames);
  interp_end_state(ex, st);
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

/* Equal ignoring case and '_'. */
static bool same_kind_name(const char *a, const char *b) {
  for (;; a++, b++) {
    while (*a == '_') a++;
    while (*b == '_') b++;
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return false;
    if (!*a) return true;
  }
}

const char *interp_error_kind(const char *text) {
  static const char *const kinds[] = {"abort",     "assert", "div",         "exec",      "free",
                                      "overshift", "ptr",    "reach_error", "read_only", "user"};
  for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
    if (same_kind_name(text, kinds[k])) return kinds[k];
  return NULL;
}

/* --exit-on-error, or --exit-on-error-type naming `kind`. */
static bool stops_run(const executor *ex, const char *kind) {
  if (ex->opt->exit_on_error) return true;
  for (size_t k = 0; k < ex->opt->nexit_on_error_kinds; k++)
    if (strcmp(ex->opt->exit_on_error_kinds[k], kind) == 0) return true;
  return false;
}

/* Ends st with an error of `kind` at its current instruction: a test and its .err file,
 * once per (instruction, message) unless --emit-all-errors. */
void interp_end_error(executor *ex, state *st, const char *kind, const char *message,
                      const char *info) {
  ex->result->error_paths++;
  state_frame *top = state_top(st);
  const ir_function *fn = fn_of(ex, top);
  const ir_inst *in = &fn->insts[top->pc];
  char *at = interp_format("%s:%u", fn->file ? fn->file : "?", in->line);
  prune_ended(ex->prune, st, PRUNE_END_ERROR, kind, at);
  free(at);
  if (already_reported(ex, top->func, top->pc, message) && !ex->opt->emit_all_errors) {
    interp_end_state(ex, st);
    return;
  }
  fprintf(stderr, "symq: ERROR: %s:%u: %s\n", fn->file ? fn->file : "?", in->line, message);
  uint32_t id = write_test_if(ex, st, true);
  if (id) {
    out_err e = where_of(ex, st);
    e.kind = kind;
    e.message = message;
    e.info = info;
    if (out_write_error(ex->out, id, &e) != 0) output_failed(ex);
    free((void *)e.frames);
  }
  interp_end_state(ex, st);
  if (!ex->halted && stops_run(ex, kind)) {
    ex->result->stopped_on_error = true;
    start_halt(ex, "halted: exit-on-error");
  }
}

double interp_halt_budget(double max_time_s) {
  double budget = 0.05 * max_time_s;
  return budget > 1.0 ? budget : 1.0;
}

/* A signal bounds the halt as --max-time does, with the time run so far as the limit: the
 * user who interrupts a run waits at most 5% longer (at least a second) for its tests. */
static void bound_halt_by_signal(executor *ex) {
  if (ex->halt_signalled || !ex->opt->interrupted || !*ex->opt->interrupted) return;
  ex->halt_signalled = true;
  double now = elapsed(ex), deadline = now + interp_halt_budget(now);
  if (deadline < ex->halt_deadline) ex->halt_deadline = deadline;
}

static void start_halt(executor *ex, const char *reason) {
  ex->halted = true;
  ex->halt_reason = reason;
  ex->halt_deadline = INFINITY;
  if (ex->opt->max_time_s > 0)
    ex->halt_deadline = ex->opt->max_time_s + interp_halt_budget(ex->opt->max_time_s);
  bound_halt_by_signal(ex);
}

/* Ends st early without solving for a test: the halt's time budget is spent. One file
 * for them all, as a file each would cost more than the budget itself. */
static void end_lost(executor *ex, state *st) {
  ex->result->early_paths++;
  ex->result->exhausted = false;
  ex->result->tests_lost++;
  remember_reason(ex, ex->halt_reason);
  char *line = interp_format("state %" PRIu64 ": %s: no test, the halt's time budget was spent\n",
                             st->id, ex->halt_reason);
  size_t n = strlen(line);
  if (ex->lost_len + n > ex->cap_lost) {
    ex->cap_lost = 2 * (ex->lost_len + n);
    ex->lost = xrealloc(ex->lost, ex->cap_lost);
  }
  memcpy(ex->lost + ex->lost_len, line, n);
  ex->lost_len += n;
  free(line);
  interp_end_state(ex, st);
}

static void write_lost(executor *ex) {
  if (!ex->lost_len) return;
  if (!ex->result->output_failed &&
      out_write_file(ex->out, "lost.early", ex->lost, ex->lost_len) != 0)
    output_failed(ex);
  fprintf(stderr, "symq: warning: %" PRIu64 " states ended without a test (see lost.early)\n",
          ex->result->tests_lost);
  free(ex->lost);
  ex->lost = NULL;
}

/* The halt's order: the oldest states first. Under dfs they are the shallowest (their path
 * conditions the shortest, their model queries the cheapest) and siblings stay next to each
 * other, so the counterexample cache and the solver see related queries in a row. APR
 * fnmatch under pat (cap 10), one halt of 2,836 states (--max-instructions=700000): within
 * a solver effort (qs_effort) of 0.25M / 0.5M / 1M / 1.5M, 368 / 587 / 1,055 / 1,564 states
 * got a test, against 103 / 214 / 581 / 998 newest first (the whole halt 3.41M against
 * 3.48M). Shortest path condition first was better only up to ~600 states and cost 47%
 * more in all: it separates the siblings. The live array is ended from its end, so the
 * oldest state sorts last. */
static int cmp_halt_order(const void *pa, const void *pb) {
  const state *a = *(state *const *)pa, *b = *(state *const *)pb;
  return (a->id < b->id) - (a->id > b->id);
}

/* Ends a state the halt left: with a test while the budget lasts, without one after. */
static void end_halted(executor *ex, state *st) {
  bound_halt_by_signal(ex); /* a signal during a halt for another limit bounds it too */
  if (limit_solver_time(ex, ex->halt_deadline)) interp_end_early(ex, st, ex->halt_reason);
  else
    end_lost(ex, st);
}

/* Ends st because the solver could not decide a question. */
void interp_end_solver_unknown(executor *ex, state *st) {
  if (ex->opt->max_time_s > 0 && elapsed(ex) >= ex->opt->max_time_s) {
    /* the query was cut at the deadline: the path did not fail, the run is over */
    if (!ex->halted) start_halt(ex, "halted: max-time");
    end_halted(ex, st);
    return;
  }
  char *reason = interp_format("solver: %s", qs_last_reason(ex->solver));
  interp_end_early(ex, st, reason);
  free(reason);
}

/* Adds c to st's path. Inside a region it is also an edge of the execution tree: a symbol
 * of branch b, or a rider when b is NULL (merge/tree.h says which constraints are which). */
static void constrain(executor *ex, state *st, expr *c, const merge_branch *b) {
  if (expr_is_true(c)) return;
  state_add_constraint(st, c);
  if (b) merge_branched(ex->merge, st, c, b, NULL, NULL, 0);
  else
    merge_constrained(ex->merge, st, c);
}

/* Every other constraint added to a path goes through here: a rider in a region's tree. */
void interp_add_constraint(executor *ex, state *st, expr *c) { constrain(ex, st, c, NULL); }

/* ---- branching ------------------------------------------------------------------------ */

/* Which sides of cond are feasible on st. Returns false when the solver could not tell. */
bool interp_feasible_sides(executor *ex, state *st, expr *cond, bool *may_true, bool *may_false) {
  if (expr_is_const(cond)) {
    *may_true = cond->u.value != 0;
    *may_false = !*may_true;
    return true;
  }
  bool must = false;
  if (qs_must_be_true(ex->solver, st->pc, st->npc, cond, &must) == QS_UNKNOWN) return false;
  prune_answered(ex->prune, st, T(ex, expr_not(cond)), must);
  if (must) {
    *may_true = true, *may_false = false;
    return true;
  }
  expr *negated = T(ex, expr_not(cond));
  if (qs_must_be_true(ex->solver, st->pc, st->npc, negated, &must) == QS_UNKNOWN) return false;
  prune_answered(ex->prune, st, cond, must);
  *may_true = !must;
  *may_false = true;
  return true;
}

/* st takes the only feasible side `taken` of a branch: nothing new for its path, but inside
 * a region the tree records it (a branch's symbol with its infeasible side as a dead
 * sibling, so that one-sided branches give the same symbols as forking ones). */
static void one_side(executor *ex, state *st, expr *taken, const merge_branch *b, expr *other,
                     const merge_branch *b_other) {
  if (expr_is_const(taken) || !st->region) return;
  if (b) merge_branched(ex->merge, st, taken, b, &other, &b_other->edge, 1);
  else
    merge_constrained(ex->merge, st, taken);
}

/* Splits st on cond: *on_true is the state where cond holds (NULL if none), *on_false the
 * other (NULL if none); st itself is one of them. When forking is not allowed (limits),
 * only the true side is kept and the run is no longer exhaustive. Returns false when st
 * ended because the solver could not decide. `br` is the conditional branch instruction
 * deciding (NULL for checks made by other instructions). */
static bool branch_on(executor *ex, state *st, expr *cond, const ir_inst *br, state **on_true,
                      state **on_false) {
  bool may_true, may_false;
  *on_true = *on_false = NULL;
  merge_branch sides[2], *b_true = NULL, *b_false = NULL;
  if (br) {
    const state_frame *f = state_top(st);
    sides[0] = (merge_branch){f->func, f->pc, br->u.br.edge[0]};
    sides[1] = (merge_branch){f->func, f->pc, br->u.br.edge[1]};
    b_true = &sides[0], b_false = &sides[1];
  }
  if (!interp_feasible_sides(ex, st, cond, &may_true, &may_false)) {
    interp_end_solver_unknown(ex, st);
    return false;
  }
  bool cut = false;
  const char *forbidden;
  /* following a part's prefix: only the recorded side lives on (part.h) */
  int keep = may_true && may_false ? part_choose(ex->opt->part, st, (const uint32_t[]){0, 1}, 2)
                                   : PART_FORK;
  if (keep == PART_MISMATCH) {
    interp_end_state(ex, st);
    return false;
  }
  if (keep == 1) {
    constrain(ex, st, T(ex, expr_not(cond)), b_false);
    *on_false = st;
    return true;
  }
  if (keep == 0) may_false = false, cut = true;
  if (may_true && may_false && (forbidden = fork_forbidden(ex))) {
    interp_remember_dropped(ex, forbidden);
    prune_dropped(ex->prune, st);
    may_false = false;
    cut = true;
  }
  if (may_true && may_false) {
    state *child = fork_state(ex, st);
    part_took(ex->opt->part, st, 0);
    part_took(ex->opt->part, child, 1);
    constrain(ex, st, cond, b_true);
    constrain(ex, child, T(ex, expr_not(cond)), b_false);
    *on_true = st;
    *on_false = child;
  } else if (may_true) {
    if (!expr_is_const(cond) && cut) constrain(ex, st, cond, b_true); /* the false side was cut */
    else
      one_side(ex, st, cond, b_true, T(ex, expr_not(cond)), b_false);
    *on_true = st;
  } else {
    one_side(ex, st, T(ex, expr_not(cond)), b_false, cond, b_true);
    *on_false = st;
  }
  return true;
}

bool interp_branch(executor *ex, state *st, expr *cond, state **on_true, state **on_false) {
  return branch_on(ex, st, cond, NULL, on_true, on_false);
}

/* A value of e on st (the solver's choice). Returns false (st ended) when it gave up. */
bool interp_example_value(executor *ex, state *st, expr *e, u128 *out) {
  if (expr_is_const(e)) {
    *out = e->u.value;
    return true;
  }
  if (qs_get_value(ex->solver, st->pc, st->npc, e, out) != QS_SAT) {
    interp_end_solver_unknown(ex, st);
    return false;
  }
  return true;
}

/* Makes e concrete on st: picks a value and adds e == value to the path (counted). When e
 * could take another value there, those paths are given up: `what` says why, in
 * dropped_reasons. Returns false when st ended (the solver gave up). */
bool interp_concretize(executor *ex, state *st, expr *e, const char *what, u128 *out) {
  if (!interp_example_value(ex, st, e, out)) return false;
  if (!expr_is_const(e)) {
    ex->result->concretized++;
    expr *pinned = T(ex, expr_eq(e, C(ex, e->width, *out)));
    bool unique;
    if (qs_must_be_true(ex->solver, st->pc, st->npc, pinned, &unique) == QS_UNKNOWN) {
      interp_end_solver_unknown(ex, st);
      return false;
    }
    if (!unique) {
      part_value_chosen(ex->opt->part, st); /* another run may pin another value */
      char *reason = interp_format("concretized: %s (other values not explored)", what);
      interp_remember_dropped(ex, reason);
      prune_dropped(ex->prune, st);
      free(reason);
    }
    interp_add_constraint(ex, st, pinned);
  }
  return true;
}

/* ---- memory access -------------------------------------------------------------------- */

void interp_remember_dead(executor *ex, mem_object *o) {
  if (ex->ndead == ex->cap_dead) {
    ex->cap_dead = ex->cap_dead ? 2 * ex->cap_dead : 64;
    ex->dead = xrealloc(ex->dead, ex->cap_dead * sizeof *ex->dead);
  }
  ex->dead[ex->ndead++] = mem_object_ref(o);
}

const mem_object *interp_dead_object_at(const executor *ex, uint64_t addr) {
  for (size_t k = 0; k < ex->ndead; k++) {
    const mem_object *o = ex->dead[k];
    if (addr - o->address < (o->capacity ? o->capacity : 1)) return o;
  }
  return NULL;
}

/* Ends st with the memory error that an access to `addr` is. */
static void memory_error(executor *ex, state *st, uint64_t addr) {
  if (addr < NULL_PAGE) {
    interp_end_error(ex, st, "ptr", "memory error: null pointer exception", NULL);
    return;
  }
  const mem_object *o = mem_space_find(st->mem, addr);
  const mem_object *dead = o ? NULL : interp_dead_object_at(ex, addr);
  char *info;
  if (o)
    info =
        interp_format("address: 0x%" PRIx64 "\nnext: object %s of size %" PRIu64 " at 0x%" PRIx64,
                      addr, o->name, o->capacity, o->address);
  else
    info = interp_format("address: 0x%" PRIx64, addr);
  if (dead) {
    const char *what =
        dead->kind == MEM_STACK ? "memory error: use after return" : "memory error: use after free";
    interp_end_error(ex, st, "ptr", what, info);
  } else {
    interp_end_error(ex, st, "ptr", "memory error: out of bound pointer", info);
  }
  free(info);
}

/* Resolves an access of n bytes at address on st. On success returns true with the object
 * and the offset (a borrowed expression) — forking first, when the address may also lie
 * elsewhere, a state that re-executes the access with this object excluded. Returns false
 * when st has ended (a memory error, or the solver gave up). */
/* Whether [address, address + n) lies inside o (a 1-bit expression). */
static expr *inside_object(executor *ex, const mem_object *o, expr *address, uint64_t n) {
  if (n > o->capacity) return C(ex, 1, 0);
  expr *base = C(ex, 64, o->address);
  expr *last = C(ex, 64, o->address + o->capacity - n);
  expr *in = T(ex, expr_and(T(ex, expr_ule(base, address)), T(ex, expr_ule(address, last))));
  if (!expr_is_const(o->size)) { /* a symbolic size: offset + n ≤ size as well */
    expr *end = T(ex, expr_add(T(ex, expr_sub(address, base)), C(ex, 64, n)));
    in = T(ex, expr_and(in, T(ex, expr_ule(end, o->size))));
  }
  return in;
}

/* The solver's first example of a symbolic address may lie in no object although others
 * would (a global g[4] indexed by i > 2: the example may be i = 2^31). Then KLEE's rule
 * applies: find an address the path allows inside some object, so that every object the
 * pointer may point into gets its fork before the out-of-bounds case. *value is replaced by
 * such an address when there is one. False when st ended (the solver gave up). */
static bool address_in_some_object(executor *ex, state *st, expr *address, uint64_t n,
                                   u128 *value) {
  expr *anywhere = C(ex, 1, 0);
  for (size_t k = 0; k < mem_space_count(st->mem); k++)
    anywhere =
        T(ex, expr_or(anywhere, inside_object(ex, mem_space_object_at(st->mem, k), address, n)));
  bool may;
  if (qs_may_be_true(ex->solver, st->pc, st->npc, anywhere, &may) == QS_UNKNOWN) {
    interp_end_solver_unknown(ex, st);
    return false;
  }
  if (!may) return true;
  expr **pc = xrealloc(NULL, (st->npc + 1) * sizeof *pc);
  memcpy(pc, st->pc, st->npc * sizeof *pc);
  pc[st->npc] = anywhere;
  qs_status status = qs_get_value(ex->solver, pc, st->npc + 1, address, value);
  free(pc);
  if (status != QS_SAT) {
    interp_end_solver_unknown(ex, st);
    return false;
  }
  return true;
}

/* A global whose initializer symq could not decode has unknown contents, not zeros: an
 * access to it ends the path early with the decoder's reason. (Globals are the first
 * objects made, so object id k + 1 is global k.) */
static bool undecodable_global(executor *ex, state *st, const mem_object *o) {
  if (o->kind != MEM_GLOBAL || o->id == 0 || o->id > ex->prog->nglobals) return false;
  const ir_global *gl = &ex->prog->globals[o->id - 1];
  if (ex->globals[o->id - 1] != o || !gl->unsupported) return false;
  char *reason =
      interp_format("unsupported: initializer of global %s: %s", gl->name, gl->unsupported);
  interp_end_early(ex, st, reason);
  free(reason);
  return true;
}

bool interp_resolve(executor *ex, state *st, expr *address, uint64_t n, const mem_object **out,
                    expr **offset) {
  u128 value;
  if (!interp_example_value(ex, st, address, &value)) return false;
  const mem_object *o = mem_space_find(st->mem, (uint64_t)value);
  if (!expr_is_const(address) && (!o || n > o->capacity)) {
    if (!address_in_some_object(ex, st, address, n, &value)) return false;
    o = mem_space_find(st->mem, (uint64_t)value);
  }
  uint64_t addr = (uint64_t)value;
  bool fits = o && n <= o->capacity;
  expr *base = C(ex, 64, o ? o->address : 0);
  expr *in_bounds;
  if (!fits) {
    in_bounds = C(ex, 1, 0);
  } else if (expr_is_const(address) && expr_is_const(o->size)) {
    in_bounds = C(ex, 1, addr - o->address <= o->capacity - n);
  } else {
    in_bounds = inside_object(ex, o, address, n);
  }
  state *inside, *outside;
  if (!interp_branch(ex, st, in_bounds, &inside, &outside)) return false;
  if (inside && outside && !expr_is_const(address)) part_value_fork(ex->opt->part, st, outside);
  if (!inside) { /* st is out of o: report with the value that shows it */
    if (!expr_is_const(address))
      interp_add_constraint(ex, st, T(ex, expr_eq(address, C(ex, 64, addr))));
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
      interp_end_early(ex, outside, "max-pointer-objects: a pointer may point into more objects");
    }
  }
  st->pointer_forks = 0;
  if (ex->bad_globals && undecodable_global(ex, st, o)) return false;
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
static bool resolve_write(executor *ex, state *st, expr *address, uint64_t n, const mem_object **o,
                          expr **offset) {
  if (!interp_resolve(ex, st, address, n, o, offset)) return false;
  if ((*o)->read_only) {
    interp_end_error(ex, st, "read_only", "memory error: object read only", NULL);
    return false;
  }
  return true;
}

mem_object *interp_new_object(executor *ex, state *st, mem_kind kind, uint64_t capacity,
                              uint64_t align, const char *name, const uint8_t *init) {
  prune_allocated(ex->prune, st);
  uint64_t address = mem_allocator_take(&ex->alloc, kind, capacity, align);
  mem_object *o = mem_object_new(ex->next_object_id++, address, capacity, NULL, kind, name);
  mem_space_bind(st->mem, o, init);
  return o;
}

/* ---- warnings and allocation ----------------------------------------------------------- */

void interp_warn_once(executor *ex, const char *name, const char *what) {
  for (size_t k = 0; k < ex->nwarned; k++)
    if (strcmp(ex->warned[k], name) == 0) return;
  if (ex->nwarned == ex->cap_warned) {
    ex->cap_warned = ex->cap_warned ? 2 * ex->cap_warned : 16;
    ex->warned = xrealloc(ex->warned, ex->cap_warned * sizeof *ex->warned);
  }
  ex->warned[ex->nwarned++] = xstrdup(name);
  fprintf(stderr, "symq: warning: %s %s\n", what, name);
}

enum { MAX_ALLOCATION = 1u << 30 };

/* The least m with size ≤ m on st, searched in [0, MAX_ALLOCATION]; false when the solver
 * gave up (st ended). *bounded is false when size may exceed MAX_ALLOCATION. */
static bool size_maximum(executor *ex, state *st, expr *size, uint64_t *out, bool *bounded) {
  uint64_t lo = 0, hi = MAX_ALLOCATION;
  bool must;
  if (qs_must_be_true(ex->solver, st->pc, st->npc, T(ex, expr_ule(size, C(ex, 64, hi))), &must) ==
      QS_UNKNOWN) {
    interp_end_solver_unknown(ex, st);
    return false;
  }
  *bounded = must;
  if (!must) return true;
  while (lo < hi) { /* invariant: size ≤ hi on every path of st */
    uint64_t mid = lo + (hi - lo) / 2;
    expr *le = T(ex, expr_ule(size, C(ex, 64, mid)));
    if (qs_must_be_true(ex->solver, st->pc, st->npc, le, &must) == QS_UNKNOWN) {
      interp_end_solver_unknown(ex, st);
      return false;
    }
    if (must) hi = mid;
    else
      lo = mid + 1;
  }
  *out = hi;
  return true;
}

/* A new object of `size` bytes (a 64-bit expression). A constant size is that object; a
 * symbolic size stays symbolic (pat-merge.md §8): the object's capacity is the largest size
 * the path allows, or, when the size is unbounded, --capacity, with size ≤ capacity added to
 * the path (counted in `capacity_bounded`). *out is NULL for a constant size over 1 GiB.
 * Returns false when st ended. Objects start zeroed, so runs stay deterministic. */
bool interp_allocate(executor *ex, state *st, mem_kind kind, expr *size, uint64_t align,
                     const char *name, mem_object **out) {
  *out = NULL;
  if (expr_is_const(size)) {
    if (size->u.value > MAX_ALLOCATION) return true;
    *out = interp_new_object(ex, st, kind, (uint64_t)size->u.value, align, name, NULL);
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
      interp_end_solver_unknown(ex, st);
      return false;
    }
    if (!may) { /* larger than any capacity symq would back: as for a huge constant */
      return true;
    }
    bool must;
    if (qs_must_be_true(ex->solver, st->pc, st->npc, fits, &must) == QS_UNKNOWN) {
      interp_end_solver_unknown(ex, st);
      return false;
    }
    if (!must) {
      interp_remember_dropped(ex, "capacity: a larger symbolic size was not explored");
      prune_dropped(ex->prune, st);
    }
    interp_add_constraint(ex, st, fits);
    ex->result->capacity_bounded++;
  }
  merge_note_size(ex->merge, size);
  prune_allocated(ex->prune, st);
  uint64_t address = mem_allocator_take(&ex->alloc, kind, capacity, align);
  *out = mem_object_new(ex->next_object_id++, address, capacity, size, kind, name);
  mem_space_bind(st->mem, *out, NULL);
  return true;
}

/* Resolves a pointer to exactly one concrete value on st, forking a state per further
 * value as KLEE does for free() of a symbolic pointer. False when st ended. */
bool interp_single_value(executor *ex, state *st, expr *p, uint64_t *out) {
  u128 v;
  if (!interp_example_value(ex, st, p, &v)) return false;
  if (!expr_is_const(p)) {
    state *same, *other;
    if (!interp_branch(ex, st, T(ex, expr_eq(p, C(ex, p->width, v))), &same, &other)) return false;
    if (same && other) part_value_fork(ex->opt->part, same, other);
    (void)other; /* a forked `other` re-executes the call with this value excluded */
    if (!same) return interp_single_value(ex, st, p, out);
  }
  *out = (uint64_t)v;
  return true;
}

/* ---- control flow --------------------------------------------------------------------- */

/* Takes an edge of the current function: the phi moves (read all, then write all), then
 * the jump. Returns STEP_ENDED when the edge is unsupported (st ended). */
static step take_edge(executor *ex, state *st, uint32_t edge_index) {
  state_frame *f = state_top(st);
  const ir_function *fn = fn_of(ex, f);
  const ir_edge *e = &fn->edges[edge_index];
  if (st->region) merge_took_edge(ex->merge, st, merge_block_of(fn, f->pc));
  if (e->unsupported) {
    char *reason = interp_format("unsupported: %s", e->unsupported);
    interp_end_early(ex, st, reason);
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
  if (st->region) merge_entered_block(ex->merge, st); /* a snapshot point after a fork */
  return STEP_CONTINUE;
}

static step exec_condbr(executor *ex, state *st, const ir_inst *in) {
  state *on_true, *on_false;
  bool validating = st->prune_validating;
  if (!expr_is_const(arg(ex, st, in, 0)) && prune_at_branch(ex->prune, st)) {
    interp_end_state(ex, st); /* subsumed: its subtree is a finished node's */
    return STEP_ENDED;
  }
  if (!validating && st->prune_validating && st->region) {
    /* subsumed, explored anyway by validation: its region goes on as if it had ended (as
     * without validation), and it runs on outside, merged only with its own descendants */
    merge_path_ended(ex->merge, st);
    merge_gone(ex->merge, st);
    st->leaf = NULL; /* its region's tree is no longer its own */
  }
  if (!part_holds_regions(ex->opt->part)) merge_at_branch(ex->merge, st, arg(ex, st, in, 0));
  prune_merge_requests(ex->prune); /* whether to open a region: not a question st relies on */
  if (!branch_on(ex, st, arg(ex, st, in, 0), in, &on_true, &on_false)) return STEP_ENDED;
  step s_true = on_true ? take_edge(ex, on_true, in->u.br.edge[0]) : STEP_ENDED;
  step s_false = on_false ? take_edge(ex, on_false, in->u.br.edge[1]) : STEP_ENDED;
  if (on_true && on_false) return s_true == STEP_ENDED ? STEP_ENDED : STEP_YIELD;
  return on_true ? s_true : s_false;
}

/* One fork per feasible target block (cases sharing a target are one group). */
/* The targets of a switch st can take, in ascending order, into targets. A value of cond on
 * st's path names one feasible target, and one query asks whether cond can leave it: a
 * switch whose value the path already decides (quotearg's `switch (c)` on a character the
 * path has classified) costs those two queries, not one per case group and the default.
 * Where it can leave, every other target is asked in turn. conds[g] is target g's
 * condition (ngroups: the default's). False when the solver could not decide. */
static bool feasible_targets(executor *ex, state *st, expr *cond, const ir_inst *in,
                             expr *const *conds, uint32_t ngroups, uint32_t *targets,
                             uint32_t *nfeasible) {
  const ir_function *fn = fn_of(ex, state_top(st));
  u128 value;
  if (qs_get_value(ex->solver, st->pc, st->npc, cond, &value) != QS_SAT) return false;
  uint32_t taken = ngroups;
  for (uint32_t g = 0; g < ngroups && taken == ngroups; g++) {
    const ir_case_group *grp = &fn->groups[in->u.sw.groups + g];
    for (uint32_t v = 0; v < grp->nvalues; v++)
      if (fn->case_values[grp->values + v] == value) taken = g;
  }
  bool leaves = false;
  if (qs_may_be_true(ex->solver, st->pc, st->npc, T(ex, expr_not(conds[taken])), &leaves) ==
      QS_UNKNOWN)
    return false;
  *nfeasible = 0;
  for (uint32_t g = 0; g <= ngroups; g++) {
    bool may = g == taken;
    if (g != taken && leaves &&
        qs_may_be_true(ex->solver, st->pc, st->npc, conds[g], &may) == QS_UNKNOWN)
      return false;
    if (may) targets[(*nfeasible)++] = g;
  }
  return true;
}

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
  if (!feasible_targets(ex, st, cond, in, conds, ngroups, targets, &nfeasible)) {
    free(conds), free(edges), free(targets);
    interp_end_solver_unknown(ex, st);
    return STEP_ENDED;
  }
  assert(nfeasible > 0); /* the targets' conditions cover every value */
  int keep = nfeasible > 1 ? part_choose(ex->opt->part, st, targets, nfeasible) : PART_FORK;
  if (keep == PART_MISMATCH) {
    free(conds), free(edges), free(targets);
    interp_end_state(ex, st);
    return STEP_ENDED;
  }
  if (keep >= 0) { /* following a part's prefix: only the recorded target lives on */
    targets[0] = targets[keep];
    nfeasible = 1;
    state_add_constraint(st, conds[targets[0]]);
  }
  const state_frame *top = state_top(st);
  merge_branch *sides = xrealloc(NULL, (ngroups + 1) * sizeof *sides);
  for (uint32_t g = 0; g <= ngroups; g++) sides[g] = (merge_branch){top->func, top->pc, edges[g]};
  state **states = xrealloc(NULL, nfeasible * sizeof *states);
  uint32_t nstates = 1;
  states[0] = st;
  for (uint32_t k = 1; k < nfeasible; k++) {
    const char *forbidden = fork_forbidden(ex);
    if (forbidden) {
      interp_remember_dropped(ex, forbidden);
      prune_dropped(ex->prune, st);
      break;
    }
    states[nstates] = fork_state(ex, st);
    part_took(ex->opt->part, states[nstates], targets[k]);
    constrain(ex, states[nstates], conds[targets[k]], &sides[targets[k]]);
    nstates++;
  }
  if (nstates > 1) part_took(ex->opt->part, st, targets[0]);
  if (nfeasible > 1) state_add_constraint(st, conds[targets[0]]);
  if (st->region) { /* st's side, with the infeasible targets as dead siblings */
    expr **dead = xrealloc(NULL, (ngroups + 1) * sizeof *dead);
    uint32_t *dead_edges = xrealloc(NULL, (ngroups + 1) * sizeof *dead_edges);
    size_t ndead = 0;
    for (uint32_t g = 0, k = 0; g <= ngroups; g++) {
      if (k < nfeasible && targets[k] == g) k++;
      else
        dead[ndead] = conds[g], dead_edges[ndead++] = edges[g];
    }
    merge_branched(ex->merge, st, conds[targets[0]], &sides[targets[0]], dead, dead_edges, ndead);
    free(dead), free(dead_edges);
  }
  free(sides);
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
  mem_object *o = interp_new_object(ex, st, MEM_STACK, size, 16, "varargs", NULL);
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
  step result;
  if (ex->builtins[callee] != BUILTIN_NONE &&
      builtins_call(ex, st, in, ex->builtins[callee], &result))
    return result;
  if (fn->is_decl && ex->external) return external_call(ex, st, in, fn);
  if (fn->is_decl) {
    char *reason = interp_format("unsupported: external call %s", fn->name);
    interp_warn_once(ex, fn->name, "undefined function (paths that call it end early):");
    interp_end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  if (fn->unsupported) {
    char *reason = interp_format("unsupported: %s", fn->unsupported);
    interp_end_early(ex, st, reason);
    free(reason);
    return STEP_ENDED;
  }
  if (st->nframes >= MAX_FRAMES) {
    interp_end_early(ex, st, "max stack frames exceeded");
    return STEP_ENDED;
  }
  unsigned given = in->nops - 1u;
  if (given < fn->nargs) {
    interp_end_error(ex, st, "exec", "calling a function with too few arguments", NULL);
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
      if (!interp_resolve(ex, st, args[k], fn->byval[k], &byval_src[k], &byval_offset[k])) {
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
    mem_object *copy = interp_new_object(ex, st, MEM_STACK, size, 16, fn->name, NULL);
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
  if (!interp_single_value(ex, st, target, &address)) return STEP_ENDED;
  uint32_t callee = function_at(ex, address);
  if (callee == IR_NONE) {
    interp_end_error(ex, st, "ptr", "invalid function pointer", NULL);
    return STEP_ENDED;
  }
  return call_function(ex, st, in, callee);
}

static void push_main(executor *ex, state *st);

/* Pushes life-cycle step k on st's empty stack; `value` is main's (for exit), or NULL. */
static void push_step(executor *ex, state *st, uint32_t k, expr *value) {
  st->lifecycle = k;
  if (k == ex->env_step) {
    symenv_push_init(ex, st, ex->steps[k].func);
    return;
  }
  if (k == ex->main_step) {
    push_main(ex, st);
    return;
  }
  const lifecycle_step *planned = &ex->steps[k];
  const ir_function *fn = &ex->prog->funcs[planned->func];
  state_frame *f = state_push_frame(st, planned->func, fn->nregs);
  f->pc = 0;
  for (uint32_t a = 0; a < fn->nargs; a++) { /* exit(status), atexit(fn); constructors: () */
    expr *v = a > 0 || !planned->has_arg ? C(ex, fn->reg_width[a], 0)
              : k > ex->main_step        ? (value ? value : C(ex, 32, 0))
                                         : C(ex, 64, planned->arg);
    unsigned w = fn->reg_width[a];
    state_set_reg(f, a, v->width == w ? v : T(ex, expr_resize(v, w, false)));
  }
}

/* The stack is empty: the life cycle's next call (the next constructor, main, then exit
 * with main's value, which runs the atexit handlers and destructors), or the path's end. */
static step next_lifecycle_step(executor *ex, state *st, expr *value) {
  if (st->lifecycle + 1 >= ex->nsteps) {
    interp_complete_path(ex, st);
    return STEP_ENDED;
  }
  push_step(ex, st, st->lifecycle + 1, value);
  return STEP_CONTINUE;
}

static step exec_ret(executor *ex, state *st, const ir_inst *in) {
  expr *value = in->nops ? T(ex, expr_ref(arg(ex, st, in, 0))) : NULL;
  state_frame *f = state_top(st);
  for (uint32_t k = 0; k < f->nallocas; k++) interp_remember_dead(ex, f->allocas[k]);
  state_pop_frame(st);
  if (st->nframes == 0) return next_lifecycle_step(ex, st, value);
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
  if (!interp_allocate(ex, st, MEM_STACK, size, in->u.alloca.align, fn->name, &o))
    return STEP_ENDED;
  if (!o) {
    interp_end_early(ex, st, "alloca larger than 1 GiB");
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
  if (!interp_concretize(ex, st, arg(ex, st, in, 2), "a memcpy/memmove/memset length", &len))
    return STEP_ENDED;
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
  if (!interp_resolve(ex, st, arg(ex, st, in, 1), (uint64_t)len, &src, &src_offset))
    return STEP_ENDED;
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
  if (!interp_branch(ex, st, nonzero, &ok, &zero)) return STEP_ENDED;
  if (zero) interp_end_error(ex, zero, "div", "divide by zero", NULL);
  if (!ok) return STEP_ENDED;
  set_result(st, in, T(ex, expr_binary(binary_kind(in->op), a, b)));
  return zero ? STEP_YIELD : STEP_CONTINUE;
}

/* Shifts: an amount of at least the width forks an error state (KLEE checks it by default;
 * it is undefined in C and poison in LLVM). */
static step exec_shift(executor *ex, state *st, const ir_inst *in, expr *a, expr *b) {
  expr *fits = T(ex, expr_ult(b, C(ex, b->width, b->width)));
  state *ok, *over;
  if (!interp_branch(ex, st, fits, &ok, &over)) return STEP_ENDED;
  if (over) interp_end_error(ex, over, "overshift", "overshift error", NULL);
  if (!ok) return STEP_ENDED;
  set_result(st, in, T(ex, expr_binary(binary_kind(in->op), a, b)));
  return over ? STEP_YIELD : STEP_CONTINUE;
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
      interp_end_early(ex, st, "unsupported: 128-bit multiplication with overflow");
      return STEP_ENDED;
    }
    bool is_signed = in->op == IR_SMULO;
    expr *wa = T(ex, expr_resize(a, 2 * w, is_signed)),
         *wb = T(ex, expr_resize(b, 2 * w, is_signed));
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
      /* named per instruction, so that stats.json says which conversion or operation */
      char *reason =
          interp_format("unsupported: symbolic floating point (%s)", ir_opcode_name(in->op));
      merge_symbolic_float(ex->merge, st); /* a join may have made it symbolic */
      interp_end_early(ex, st, reason);
      free(reason);
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
    else if (in->op == IR_FPTOSI)
      r = (u128)(__int128)(t < -1.7e38 ? 0 : t > 1.7e38 ? 0 : t);
    else
      r = t < 0 || t > 3.4e38 ? 0 : (u128)t;
    set_result(st, in, C(ex, w, r));
    break;
  }
  case IR_UITOFP: set_result(st, in, fp_expr(ex, w, (double)x->u.value)); break;
  default: { /* SITOFP */
    u128 bits = x->u.value;
    __int128 sv =
        (bits & ((u128)1 << (src_w - 1))) ? (__int128)(bits | ~expr_mask(src_w)) : (__int128)bits;
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
    if (!interp_resolve(ex, st, arg(ex, st, in, 1), 24, &src, &src_offset)) return STEP_ENDED;
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
    fprintf(stderr, "symq: trace: state %" PRIu64 " %s:%u %s line %u\n", st->id, fn_of(ex, f)->name,
            f->pc, ir_opcode_name(in->op), in->line);
  }
  coverage_visit(&ex->cov, st);
  note_new_coverage(ex, st);
  st->instructions++;
  ex->result->instructions++;
  step result = STEP_CONTINUE;
  switch ((ir_opcode)in->op) {
  case IR_NOP: break;
  case IR_SHL:
  case IR_LSHR:
  case IR_ASHR: result = exec_shift(ex, st, in, arg(ex, st, in, 0), arg(ex, st, in, 1)); break;
  case IR_ADD:
  case IR_SUB:
  case IR_MUL:
  case IR_AND:
  case IR_OR:
  case IR_XOR:
    set_result(st, in,
               T(ex, expr_binary(binary_kind(in->op), arg(ex, st, in, 0), arg(ex, st, in, 1))));
    break;
  case IR_UDIV:
  case IR_SDIV:
  case IR_UREM:
  case IR_SREM: result = exec_division(ex, st, in, arg(ex, st, in, 0), arg(ex, st, in, 1)); break;
  case IR_ICMP:
    set_result(st, in,
               T(ex, expr_binary(icmp_kind(in->aux), arg(ex, st, in, 0), arg(ex, st, in, 1))));
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
  case IR_FPTRUNC:
  case IR_FPEXT:
  case IR_FPTOUI:
  case IR_FPTOSI:
  case IR_UITOFP:
  case IR_SITOFP:
  case IR_FADD:
  case IR_FSUB:
  case IR_FMUL:
  case IR_FDIV:
  case IR_FREM:
  case IR_FNEG:
  case IR_FCMP:
  case IR_FMA:
  case IR_FABS: result = exec_float(ex, st, in); break;
  case IR_ALLOCA: result = exec_alloca(ex, st, in); break;
  case IR_LOAD: {
    const mem_object *o;
    expr *offset;
    if (!interp_resolve(ex, st, arg(ex, st, in, 0), in->u.mem.bytes, &o, &offset))
      return STEP_ENDED;
    set_result(st, in, load(ex, st, o, offset, in->u.mem.bytes, in->width));
    break;
  }
  case IR_STORE: {
    const mem_object *o;
    expr *offset;
    if (!resolve_write(ex, st, arg(ex, st, in, 1), in->u.mem.bytes, &o, &offset)) return STEP_ENDED;
    merge_note_store(ex->merge, offset, arg(ex, st, in, 0));
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
    interp_end_error(ex, st, "exec", "reached \"unreachable\" instruction", NULL);
    return STEP_ENDED;
  case IR_TRAP: interp_end_error(ex, st, "abort", "llvm.trap called", NULL); return STEP_ENDED;
  case IR_VAARG: interp_end_early(ex, st, "unsupported: va_arg instruction"); return STEP_ENDED;
  case IR_MEMCPY:
  case IR_MEMMOVE:
  case IR_MEMSET: result = exec_memory_intrinsic(ex, st, in); break;
  case IR_UADDO:
  case IR_SADDO:
  case IR_USUBO:
  case IR_SSUBO:
  case IR_UMULO:
  case IR_SMULO: result = exec_overflow(ex, st, in); break;
  case IR_UMIN:
  case IR_UMAX:
  case IR_SMIN:
  case IR_SMAX: {
    expr *a = arg(ex, st, in, 0), *b = arg(ex, st, in, 1);
    expr *a_first = T(ex, in->op == IR_UMIN   ? expr_ult(a, b)
                          : in->op == IR_UMAX ? expr_ugt(a, b)
                          : in->op == IR_SMIN ? expr_slt(a, b)
                                              : expr_sgt(a, b));
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
  case IR_CTPOP:
  case IR_CTLZ:
  case IR_CTTZ: set_result(st, in, count_bits(ex, arg(ex, st, in, 0), (ir_opcode)in->op)); break;
  case IR_FSHL:
  case IR_FSHR: {
    bool ok;
    expr *r = funnel_shift(ex, arg(ex, st, in, 0), arg(ex, st, in, 1), arg(ex, st, in, 2),
                           in->op == IR_FSHL, &ok);
    if (!ok) {
      interp_end_early(ex, st, "unsupported: funnel shift wider than 64 bits");
      return STEP_ENDED;
    }
    set_result(st, in, r);
    break;
  }
  case IR_STACKSAVE: set_result(st, in, C(ex, 64, state_top(st)->nallocas)); break;
  case IR_STACKRESTORE: {
    u128 keep;
    if (!interp_concretize(ex, st, arg(ex, st, in, 0), "llvm.stackrestore", &keep))
      return STEP_ENDED;
    state_frame *f = state_top(st);
    while (f->nallocas > keep) {
      mem_object *o = f->allocas[--f->nallocas];
      mem_space_unbind(st->mem, o);
      interp_remember_dead(ex, o);
      mem_object_unref(o);
    }
    break;
  }
  case IR_VASTART:
  case IR_VAEND:
  case IR_VACOPY: result = exec_va(ex, st, in); break;
  default: {
    char *reason = interp_format("unsupported: %s", in->op == IR_UNSUPPORTED && in->u.reason
                                                        ? in->u.reason
                                                        : ir_opcode_name(in->op));
    interp_end_early(ex, st, reason);
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
    ex->globals[g] =
        mem_object_new(ex->next_object_id++, address, gl->size, NULL, MEM_GLOBAL, gl->name);
    ex->globals[g]->read_only = gl->is_const;
    if (gl->unsupported) ex->bad_globals = true;
  }
  for (uint32_t g = 0; g < p->nglobals; g++) {
    const ir_global *gl = &p->globals[g];
    uint8_t *init = xrealloc(NULL, gl->size ? gl->size : 1);
    if (gl->init) memcpy(init, gl->init, gl->size);
    else
      memset(init, 0, gl->size);
    for (uint32_t r = 0; r < gl->nrelocs; r++) {
      const ir_reloc *rel = &gl->relocs[r];
      uint64_t target =
          rel->is_function ? function_address(rel->target) : ex->globals[rel->target]->address;
      if (rel->offset + 8 <= gl->size) put_le64(init + rel->offset, target + (uint64_t)rel->addend);
    }
    mem_space_bind(st->mem, ex->globals[g], init);
    free(init);
  }
}

/* main's argv (its strings and array) and an empty envp, as objects of the initial state. */
static void bind_arguments(executor *ex, state *st) {
  int argc = ex->opt->argc;
  mem_object *array =
      interp_new_object(ex, st, MEM_GLOBAL, 8 * ((uint64_t)argc + 1), 8, "argv", NULL);
  for (int k = 0; k < argc; k++) {
    const char *text = ex->opt->argv[k];
    mem_object *s =
        interp_new_object(ex, st, MEM_GLOBAL, strlen(text) + 1, 1, "arg", (const uint8_t *)text);
    mem_write(st->mem, array, C(ex, 64, 8 * (uint64_t)k), C(ex, 64, s->address));
    mem_object_unref(s);
  }
  mem_object *envp = interp_new_object(ex, st, MEM_GLOBAL, 8, 8, "envp", NULL); /* { NULL } */
  ex->argv_address = array->address;
  ex->envp_address = envp->address;
  mem_object_unref(array);
  mem_object_unref(envp);
  release_scratch(ex);
}

/* main(argc, argv, envp) on st's empty stack. */
static void push_main(executor *ex, state *st) {
  uint32_t main_index = ex->steps[ex->main_step].func;
  const ir_function *fn = &ex->prog->funcs[main_index];
  state_frame *f = state_push_frame(st, main_index, fn->nregs);
  f->pc = 0;
  expr *argc = C(ex, 32, (u128)ex->opt->argc), *argv = C(ex, 64, ex->argv_address);
  if (ex->env_step != UINT32_MAX) symenv_main_args(ex, st, &argc, &argv);
  if (fn->nargs >= 1)
    state_set_reg(f, 0,
                  fn->reg_width[0] == 32 ? argc : T(ex, expr_resize(argc, fn->reg_width[0], true)));
  if (fn->nargs >= 2) state_set_reg(f, 1, argv);
  if (fn->nargs >= 3) state_set_reg(f, 2, C(ex, 64, ex->envp_address));
}

/* The functions of llvm.global_ctors or llvm.global_dtors ({i32 priority, ptr fn, ptr
 * data} each), by increasing priority (array order among equals). */
static uint32_t structors(const executor *ex, const char *name, uint32_t **out) {
  *out = NULL;
  uint32_t g = ir_find_global(ex->prog, name);
  if (g == IR_NONE || ex->prog->globals[g].is_decl) return 0;
  const ir_global *gl = &ex->prog->globals[g];
  enum { ENTRY = 24 };
  uint32_t n = 0;
  uint32_t *funcs = xrealloc(NULL, (gl->size / ENTRY + 1) * sizeof *funcs);
  uint32_t *prio = xrealloc(NULL, (gl->size / ENTRY + 1) * sizeof *prio);
  for (uint32_t r = 0; r < gl->nrelocs; r++) {
    const ir_reloc *rel = &gl->relocs[r];
    if (!rel->is_function || rel->offset % ENTRY != 8) continue;
    uint32_t p = 0;
    memcpy(&p, gl->init + rel->offset - 8, sizeof p);
    uint32_t k = n++; /* insertion: stable by priority */
    while (k > 0 && prio[k - 1] > p) {
      funcs[k] = funcs[k - 1], prio[k] = prio[k - 1];
      k--;
    }
    funcs[k] = rel->target, prio[k] = p;
  }
  free(prio);
  *out = funcs;
  return n;
}

/* The life cycle, as glibc runs a program: destructors registered first with atexit (so
 * they run after the program's own handlers, highest priority first), constructors by
 * priority, main, then exit(main's value) — the libc model's exit runs the atexit
 * handlers. Without the model (--libc=none) there is neither atexit nor exit to call. */
static void plan_lifecycle(executor *ex, uint32_t main_index, uint32_t env_init) {
  uint32_t *ctors, *dtors;
  uint32_t nctors = structors(ex, "llvm.global_ctors", &ctors);
  uint32_t ndtors = structors(ex, "llvm.global_dtors", &dtors);
  uint32_t atexit_fn = ir_find_function(ex->prog, "atexit");
  uint32_t exit_fn = ir_find_function(ex->prog, "exit");
  bool has_atexit = atexit_fn != IR_NONE && !ex->prog->funcs[atexit_fn].is_decl;
  bool has_exit = exit_fn != IR_NONE && !ex->prog->funcs[exit_fn].is_decl;
  if (ndtors && !has_atexit)
    interp_warn_once(ex, "(no atexit to register them)", "destructors not run");
  ex->steps = xrealloc(NULL, (ndtors + nctors + 3) * sizeof *ex->steps);
  for (uint32_t k = 0; has_atexit && k < ndtors; k++)
    ex->steps[ex->nsteps++] = (lifecycle_step){atexit_fn, true, function_address(dtors[k])};
  for (uint32_t k = 0; k < nctors; k++)
    ex->steps[ex->nsteps++] = (lifecycle_step){ctors[k], false, 0};
  ex->env_step = UINT32_MAX;
  if (env_init != IR_NONE) { /* the symbolic environment, built by the runtime */
    ex->env_step = ex->nsteps;
    ex->steps[ex->nsteps++] = (lifecycle_step){env_init, false, 0};
  }
  ex->main_step = ex->nsteps;
  ex->steps[ex->nsteps++] = (lifecycle_step){main_index, false, 0};
  if (has_exit) ex->steps[ex->nsteps++] = (lifecycle_step){exit_fn, true, 0};
  free(ctors);
  free(dtors);
}

/* Starts st at the first step of the life cycle. */
static bool start_program(executor *ex, state *st, uint32_t main_index, uint32_t env_init) {
  if (ex->prog->funcs[main_index].nargs > 3) return false;
  plan_lifecycle(ex, main_index, env_init);
  bind_arguments(ex, st);
  push_step(ex, st, 0, NULL);
  release_scratch(ex);
  return true;
}

/* ---- what merging asks of the interpreter (merge_host) ---------------------------------- */

static void host_park(void *ctx, state *st) { search_remove(((executor *)ctx)->searcher, st); }

static void host_resume(void *ctx, state *st, bool fresh) {
  executor *ex = ctx;
  if (fresh) part_merged(ex->opt->part, st); /* a merged state: no prefix names its paths */
  if (fresh) prune_merged(ex->prune, st);
  if (fresh) live_add(ex, st);
  search_add_initial(ex->searcher, st, info_of(st));
}

static void host_discard(void *ctx, state *st) {
  part_gone(((executor *)ctx)->opt->part, st);
  prune_merged_away(((executor *)ctx)->prune, st);
  live_remove(ctx, st);
  state_free(st);
}

static uint32_t host_write_test(void *ctx, state *st) { return write_test(ctx, st); }
static uint32_t host_write_test_model(void *ctx, state *st, expr_assignment *model) {
  return write_test_from(ctx, st, false, model);
}

/* A state merging makes stands for paths that may have covered new code: under
 * --only-output-states-covering-new it counts as having done so (its test is kept). */
static uint64_t host_new_state_id(void *ctx) {
  executor *ex = ctx;
  uint64_t id = ex->next_state_id++;
  if (ex->opt->only_covering_new) mark_covered_new(ex, id);
  return id;
}

static bool host_write_file(void *ctx, const char *name, const void *data, size_t len) {
  executor *ex = ctx;
  if (ex->result->output_failed) return false;
  if (out_write_file(ex->out, name, data, len) == 0) return true;
  output_failed(ex);
  return false;
}

static merge_ctx *new_merge_ctx(executor *ex) {
  const merge_options *mo = &ex->opt->merge;
  merge_host host = {.ctx = ex,
                     .park = host_park,
                     .resume = host_resume,
                     .discard = host_discard,
                     .write_test = host_write_test,
                     .new_state_id = host_new_state_id,
                     .write_file = host_write_file,
                     .write_test_model = host_write_test_model};
  merge_ctx *m =
      merge_ctx_new(ex->prog, mo, ex->solver, out_path(ex->out), &ex->result->merge, &host);
  if (mo->mode == MERGE_MODE_PAT) merge_use_pat(m);
  else
    merge_use_cfg(m);
  return m;
}

/* ---- the loop ------------------------------------------------------------------------- */

static void progress_line(executor *ex, bool final) {
  double now = elapsed(ex);
  if (!final && now < ex->next_progress) return;
  ex->next_progress = now + 0.5;
  const interp_result *r = ex->result;
  fprintf(stderr,
          "\rsymq: %.1fs states %zu paths %" PRIu64 " errors %" PRIu64 " tests %" PRIu64
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
    prune_running(ex->prune, st);
    qs_effort_split_tag(ex->solver, st->merge_cfg_descendant); /* its queries' effort */
    const char *halt = ex->halted ? NULL : halt_reason(ex);
    if (halt) start_halt(ex, halt);
    if (ex->halted || ex->result->output_failed) break;
    bool alive = true;
    for (unsigned k = 0; k < SLICE; k++) {
      /* an error under --exit-on-error, the last test under --max-tests, a failed write */
      if (ex->halted || ex->result->output_failed) break;
      /* the deadline is checked before every instruction, and no query may outlast it */
      if (!limit_solver_time(ex, ex->run_deadline)) break;
      if (k % 256 == 255 && memory_exceeded(ex)) break; /* /proc is read: not every time */
      if (merge_should_pause(ex->merge, st)) {          /* wait at the exit for the others */
        alive = false;
        break;
      }
      step s = execute(ex, st);
      release_scratch(ex);
      alive = s != STEP_ENDED && s != STEP_PAUSED;
      if (s != STEP_CONTINUE) break;
      if (ex->opt->max_instructions && ex->result->instructions >= ex->opt->max_instructions) break;
    }
    if (alive) {
      search_update(ex->searcher, st); /* covnew re-weights the state that ran */
      fast_forward_mark(ex, st);       /* it may have entered or left a region */
    }
    prune_running(ex->prune, NULL); /* merging's requests are no state's */
    qs_effort_split_tag(ex->solver, false);
    merge_release_finished(ex->merge);
    if (ex->opt->progress) progress_line(ex, false);
    if (part_frontier_full(ex->opt->part, ex->live, ex->nlive)) {
      for (size_t k = ex->nlive; k-- > 0;) { /* each subtree is a part's now (part.h) */
        state *left = ex->live[k];
        if (!part_may_hand_off(ex->opt->part, left)) continue;
        part_hand_off(ex->opt->part, left);
        interp_end_state(ex, left); /* live[k] is now a state already seen */
      }
      part_frontier_done(ex->opt->part);
    }
  }
  if (ex->halted || ex->result->output_failed) {
    if (ex->nlive) ex->result->exhausted = false; /* a halt at the last path cut nothing */
    qsort(ex->live, ex->nlive, sizeof *ex->live, cmp_halt_order);
    while (ex->nlive) {
      state *left = ex->live[ex->nlive - 1];
      if (ex->result->output_failed) interp_end_state(ex, left); /* nothing more is written */
      else
        end_halted(ex, left);
    }
    write_lost(ex);
  }
  ex->result->exploration_time_s = elapsed(ex);
  if (ex->opt->progress) progress_line(ex, true);
}

/* Why the options cannot run with --interpolate (one line, static), or NULL. */
static const char *prune_refusal(const interp_options *opt) {
  if (opt->prune.validate && opt->prune.mode == PRUNE_MODE_NONE)
    return "--validate-interpolation needs --interpolate";
  if (opt->prune.mode == PRUNE_MODE_NONE) return NULL;
  for (size_t k = 0; k < opt->nsearch; k++)
    if (opt->search[k] != SEARCH_DFS) return "--interpolate runs with --search=dfs only (for now)";
  return NULL;
}

/* The run's verdict (prune_decide) from what the exploration did. */
static void decide_verdict(interp_result *r) {
  prune_run_facts f = {.error_paths = r->error_paths,
                       .concretized = r->concretized,
                       .capacity_bounded = r->capacity_bounded,
                       .tests_lost = r->tests_lost,
                       .exhausted = r->exhausted,
                       .output_failed = r->output_failed,
                       .early_reason = r->nearly_reasons ? r->early_reasons[0].text : NULL,
                       .dropped_reason = r->ndropped_reasons ? r->dropped_reasons[0].text : NULL};
  prune_decide(&r->prune, &f);
}

int interp_run(const ir_program *prog, const interp_options *opt, qsolver *solver, out_dir *out,
               interp_result *result) {
  memset(result, 0, sizeof *result);
  result->exhausted = true;
  if (opt->fork_sites) result->fork_sites = interp_fork_sites_new();
  uint32_t main_index = ir_find_function(prog, "main");
  if (main_index == IR_NONE || prog->funcs[main_index].is_decl) {
    result->error = "the program has no main function";
    return -1;
  }
  if ((result->error = prune_refusal(opt))) return -1;
  external_ctx *external;
  if ((result->error = external_open(opt, &external))) return -1;
  executor ex = {.prog = prog,
                 .opt = opt,
                 .solver = solver,
                 .out = out,
                 .result = result,
                 .next_state_id = 1,
                 .next_object_id = 1,
                 .run_deadline = opt->max_time_s > 0 ? opt->max_time_s : INFINITY,
                 .external = external,
                 .canon = out_canon_new()};
  clock_gettime(CLOCK_MONOTONIC, &ex.start);
  qs_set_interrupt(solver, opt->interrupted); /* a signal cuts the query it lands in */
  mem_allocator_init(&ex.alloc);
  ex.consts = xrealloc(NULL, (prog->nconsts + 1) * sizeof *ex.consts);
  for (uint32_t k = 0; k < prog->nconsts; k++)
    ex.consts[k] = expr_const(prog->consts[k].width, prog->consts[k].value);
  ex.builtins = builtins_bind(prog);
  coverage_init(&ex.cov, prog);
  ex.merge = new_merge_ctx(&ex);
  ex.prune = prune_new(prog, &opt->prune, solver, &result->prune);
  if (opt->merge.mode != MERGE_MODE_NONE && opt->merge.incremental) prune_merges_restart(ex.prune);
  if (opt->merge.mode != MERGE_MODE_NONE) prune_with_merging(ex.prune);
  const search_kind default_search[] = {SEARCH_DFS};
  search_hooks hooks = {.weight = coverage_weight, .ctx = &ex.cov};
  ex.searcher = search_new(opt->nsearch ? opt->search : default_search,
                           opt->nsearch ? opt->nsearch : 1, opt->seed, &hooks);
  if (opt->merge.mode != MERGE_MODE_NONE) search_set_fast_forward(ex.searcher, opt->fast_forward);

  state *initial = state_new(ex.next_state_id++);
  bind_globals(&ex, initial);
  int rc = 0;
  const char *env_error = NULL;
  uint32_t env_init = symenv_plan(&ex, &env_error);
  if (env_error) {
    result->error = env_error;
    state_free(initial);
    rc = -1;
  } else if (!start_program(&ex, initial, main_index, env_init)) {
    result->error = "main takes more than three parameters";
    state_free(initial);
    rc = -1;
  } else {
    live_add(&ex, initial);
    search_add_initial(ex.searcher, initial, info_of(initial));
    run_loop(&ex);
  }
  result->covered_lines = coverage_lines(&ex.cov, true);
  result->total_lines = coverage_lines(&ex.cov, false);
  decide_verdict(result);

  result->fast_forwards = search_get_stats(ex.searcher)->fast_forwards;
  search_free(ex.searcher);
  out_canon_free(ex.canon);
  free(ex.live);
  merge_ctx_free(ex.merge);
  prune_free(ex.prune);
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
  coverage_free(&ex.cov);
  free(ex.builtins);
  free(ex.steps);
  free(ex.scratch);
  free(ex.covered_new);
  external_close(ex.external);
  return rc;
}

void interp_result_free(interp_result *r) {
  merge_stats_free(&r->merge);
  interp_fork_sites_free(r->fork_sites);
  r->fork_sites = NULL;
  for (size_t k = 0; k < r->nearly_reasons; k++) free(r->early_reasons[k].text);
  free(r->early_reasons);
  r->early_reasons = NULL;
  r->nearly_reasons = 0;
  for (size_t k = 0; k < r->ndropped_reasons; k++) free(r->dropped_reasons[k].text);
  free(r->dropped_reasons);
  r->dropped_reasons = NULL;
  r->ndropped_reasons = 0;
}
