/*
 * test_z3_model_fault.c — a fault inside libz3 while it builds a model (Debian's 4.8.12
 * reads a NULL fresh value in Z3_solver_get_model, eval/real/RESULTS.md) costs the query a
 * second solve, never the run (qsolver/z3_guard.h, z3_backend.c: abandon, remodel). The real
 * fault needs a long lane history that was never reduced to a small query, so the guard's
 * test seam (z3_guard_faults) makes the next guarded calls raise SIGSEGV inside the guard.
 * Checked on every route a model comes from — an incremental lane (solved again on bvs), bvs
 * itself, the array theory's solver and the integer lane (the request then goes on in
 * bit-vectors) — each model satisfying the query; a second fault gives unknown with the
 * reason; the solver answers the queries after it; stats' model_faults counts the faults;
 * the signal handlers are the ones from before; the same faults give the same effort.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"
#include "qsolver/z3_guard.h"

enum { BYTES = 3 };

static expr *held[32];
static size_t nheld;
static expr *hold(expr *e) {
  CHECK(nheld < sizeof held / sizeof *held);
  held[nheld++] = e;
  return e;
}

static qsolver *solver(bool incremental, unsigned int_lanes, unsigned blast_max_bytes) {
  qs_options o = qs_default_options();
  o.cex_cache = o.validity_cache = false; /* every question reaches Z3 */
  o.incremental = incremental;
  o.int_lanes = int_lanes;
  o.blast_max_bytes = blast_max_bytes;
  return qs_new(&o);
}

static uint64_t faults(qsolver *s) {
  const qs_stage_stats *z = qs_stats(s, "z3");
  CHECK(z != NULL);
  return z ? z->model_faults : 0;
}

/* f[0..n) is sat, and its model over `in` satisfies it. */
static void check_model(qsolver *s, expr *const *f, size_t n, expr_array *in) {
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, f, n, &in, 1, &m), QS_SAT);
  CHECK(m && expr_eval_all_true(f, n, m));
  expr_assignment_free(m);
}

/* A fault building the first model of a fresh solver s: the model still satisfies f[0..n),
 * and the next query's comes without one. */
static void fault_once(qsolver *s, expr *const *f, size_t n, expr_array *in) {
  z3_guard_faults = 1;
  check_model(s, f, n, in);
  CHECK_EQ_U64(faults(s), 1);
  check_model(s, f, n - 1, in);
  CHECK_EQ_U64(faults(s), 1);
}

static void handler_of(int sig, struct sigaction *out) {
  memset(out, 0, sizeof *out);
  sigaction(sig, NULL, out);
}

int main(void) {
  size_t nodes = expr_live_count();
  struct sigaction segv_before, bus_before, now;
  handler_of(SIGSEGV, &segv_before); /* SIG_DFL, or the sanitizer's */
  handler_of(SIGBUS, &bus_before);

  expr *size = hold(expr_const(64, BYTES));
  expr_array *in = expr_array_new("in", size, BYTES, true, NULL);
  expr *x[BYTES];
  for (unsigned i = 0; i < BYTES; i++) {
    expr *idx = hold(expr_const(64, i));
    expr *rd = hold(expr_read(in, NULL, idx));
    x[i] = hold(expr_zext(rd, 16)); /* exact in integers: the integer lane takes them */
  }
  expr *sum = hold(expr_add(x[0], x[1]));
  expr *path[] = {
      hold(expr_eq(sum, hold(expr_const(16, 300)))),   /* x0 + x1 = 300 */
      hold(expr_ugt(x[0], hold(expr_const(16, 200)))), /* x0 > 200 */
      hold(expr_ugt(x[2], x[1])),                      /* x2 > x1 */
  };
  expr *never = hold(expr_ugt(x[1], hold(expr_const(16, 99)))); /* with x0 + x1 = 300, x0 > 200 */

  /* an incremental lane: the fault's model comes from bvs, the lane starts over */
  qsolver *s = solver(true, 0, 4096);
  check_model(s, path, 1, in);
  z3_guard_faults = 1;
  check_model(s, path, 2, in);
  CHECK_EQ_U64(z3_guard_faults, 0);
  CHECK_EQ_U64(faults(s), 1);
  check_model(s, path, 3, in); /* the path goes on, on the lane's fresh solver */
  expr *unsat[] = {path[0], path[1], never};
  CHECK_EQ_U64(qs_check_sat(s, unsat, 3), QS_UNSAT);
  /* two faults in a row: the answer is unknown, and says why */
  z3_guard_faults = 2;
  expr_assignment *m = NULL;
  CHECK_EQ_U64(qs_get_model(s, path, 3, &in, 1, &m), QS_UNKNOWN);
  CHECK(m == NULL);
  CHECK_EQ_STR(qs_last_reason(s), "z3 crashed building a model");
  CHECK_EQ_U64(faults(s), 3);
  check_model(s, path, 3, in); /* and the next queries are answered */
  CHECK_EQ_U64(qs_check_sat(s, unsat, 3), QS_UNSAT);
  uint64_t effort = qs_effort(s);
  qs_free(s);

  /* determinism: the same queries and faults again, the same effort */
  s = solver(true, 0, 4096);
  check_model(s, path, 1, in);
  z3_guard_faults = 1;
  check_model(s, path, 2, in);
  check_model(s, path, 3, in);
  CHECK_EQ_U64(qs_check_sat(s, unsat, 3), QS_UNSAT);
  z3_guard_faults = 2;
  CHECK_EQ_U64(qs_get_model(s, path, 3, &in, 1, &m), QS_UNKNOWN);
  check_model(s, path, 3, in);
  CHECK_EQ_U64(qs_check_sat(s, unsat, 3), QS_UNSAT);
  CHECK_EQ_U64(qs_effort(s), effort);
  qs_free(s);

  /* no lanes: bvs itself faults, a fresh bvs solves the query again */
  s = solver(false, 0, 4096);
  fault_once(s, path, 3, in);
  qs_free(s);

  /* the array theory (nothing blasted): the fresh qfa solves it again */
  s = solver(true, 0, 0);
  fault_once(s, path, 3, in);
  qs_free(s);

  /* the integer lane: its fault sends the request on to bit-vectors */
  s = solver(true, ~0u, 4096);
  check_model(s, path, 2, in);
  const qs_stage_stats *z = qs_stats(s, "z3");
  uint64_t in_integers = z ? z->in_integers : 0;
  CHECK(in_integers >= 1);
  z3_guard_faults = 1;
  check_model(s, path, 3, in);
  CHECK_EQ_U64(faults(s), 1);
  if (z) CHECK_EQ_U64(z->in_integers, in_integers); /* decided in bit-vectors */
  check_model(s, path, 3, in);                      /* the integer lane's fresh solver */
  if (z) CHECK_EQ_U64(z->in_integers, in_integers + 1);
  qs_free(s);

  /* the handlers from before are back */
  handler_of(SIGSEGV, &now);
  CHECK_EQ_PTR((void *)now.sa_handler, (void *)segv_before.sa_handler);
  handler_of(SIGBUS, &now);
  CHECK_EQ_PTR((void *)now.sa_handler, (void *)bus_before.sa_handler);

  for (size_t i = 0; i < nheld; i++) expr_unref(held[i]);
  expr_array_unref(in);
  CHECK_EQ_U64(expr_live_count(), nodes);
  return check_exit();
}
