/*
 * test_z3_watchdog.c — unit tests of qsolver/z3_watchdog: a check that cannot finish in time
 * is interrupted (unknown, the deadline reported passed, never before it), the checks after
 * it are not (the repeated interrupt stops at disarm), a deadline armed and disarmed before
 * it passed never reaches a later check, thousands of quick checks in a row are never
 * interrupted, no limit arms nothing, and an interrupt that lands after the check returned
 * (before disarm) leaves no cancel behind for a push. Z3 is driven directly, as
 * z3_backend.c does.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <z3.h>

#include "check.h"
#include "qsolver/z3_watchdog.h"

static Z3_context ctx;
static Z3_sort bv128;
static Z3_error_code z3_err = Z3_OK;

static void on_error(Z3_context c, Z3_error_code code) {
  fprintf(stderr, "Z3 error: %s\n", Z3_get_error_msg(c, code));
  z3_err = code;
}

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static Z3_ast num(const char *v) { return Z3_mk_numeral(ctx, v, bv128); }
static Z3_ast var(const char *name) {
  return Z3_mk_const(ctx, Z3_mk_string_symbol(ctx, name), bv128);
}

/* Factoring the 124-bit product of two 62-bit primes (test_qsolver's HARD_P * HARD_Q):
 * out of reach of Z3 in any time a test could wait. */
static void assert_hard(Z3_solver s) {
  Z3_ast p = var("p"), q = var("q");
  Z3_solver_assert(
      ctx, s, Z3_mk_eq(ctx, Z3_mk_bvmul(ctx, p, q), num("15296242239586888915244014355120571697")));
  Z3_solver_assert(ctx, s, Z3_mk_bvult(ctx, num("1"), p));
  Z3_solver_assert(ctx, s, Z3_mk_bvult(ctx, num("1"), q));
  Z3_solver_assert(ctx, s, Z3_mk_bvult(ctx, p, num("18446744073709551616")));
  Z3_solver_assert(ctx, s, Z3_mk_bvult(ctx, q, num("18446744073709551616")));
}

/* x + k = 2k + 1: sat (x = k + 1), a fresh question each k. */
static void assert_easy(Z3_solver s, unsigned k) {
  Z3_ast x = var("x"), kk = Z3_mk_int64(ctx, k, bv128), k2 = Z3_mk_int64(ctx, 2 * k + 1, bv128);
  Z3_solver_assert(ctx, s, Z3_mk_eq(ctx, Z3_mk_bvadd(ctx, x, kk), k2));
}

static Z3_lbool timed_check(z3_watchdog *w, Z3_solver s, unsigned ms, bool *cut, double *secs) {
  double t0 = now_s();
  z3_watchdog_arm(w, ms);
  Z3_lbool r = Z3_solver_check(ctx, s);
  *cut = z3_watchdog_disarm(w);
  *secs = now_s() - t0;
  Z3_solver_reset(ctx, s);
  return r;
}

static void sleep_ms(long ms) {
  struct timespec t = {.tv_sec = ms / 1000, .tv_nsec = ms % 1000 * 1000000};
  while (nanosleep(&t, &t) != 0) continue;
}

int main(void) {
  Z3_config cfg = Z3_mk_config();
  ctx = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  bv128 = Z3_mk_bv_sort(ctx, 128);
  Z3_solver s = Z3_mk_simple_solver(ctx);
  Z3_solver_inc_ref(ctx, s);
  z3_watchdog *w = z3_watchdog_new(ctx);
  bool cut;
  double secs;

  /* No limit arms nothing. */
  assert_easy(s, 1);
  CHECK_EQ_U64(timed_check(w, s, 0, &cut, &secs), Z3_L_TRUE);
  CHECK(!cut);

  /* The hard query ends as unknown once its 50 ms have passed, and not before. No upper
   * bound on the wall time: a watchdog that never fires hangs the test until CTest's
   * timeout. */
  assert_hard(s);
  CHECK_EQ_U64(timed_check(w, s, 50, &cut, &secs), Z3_L_UNDEF);
  CHECK(cut);
  CHECK(secs >= 0.050);
  printf("hard query cut after %.3f s (limit 0.050 s)\n", secs);
  CHECK_EQ_U64(z3_watchdog_fired(w), 1);

  /* The interrupt repeated until disarm does not reach the next check. */
  assert_easy(s, 2);
  CHECK_EQ_U64(timed_check(w, s, 10000, &cut, &secs), Z3_L_TRUE);
  CHECK(!cut);

  /* Deadlines armed and disarmed before they passed, then passing while nothing (or a
   * check with a later deadline) is armed, cut nothing. The deadline is far (200 ms) so
   * that a loaded machine pausing this thread between arm and disarm does not pass it. */
  for (unsigned i = 0; i < 4; i++) {
    z3_watchdog_arm(w, 200);
    CHECK(!z3_watchdog_disarm(w));
    sleep_ms(250);
    assert_easy(s, 100 + i);
    CHECK_EQ_U64(timed_check(w, s, 10000, &cut, &secs), Z3_L_TRUE);
    CHECK(!cut);
  }
  CHECK_EQ_U64(z3_watchdog_fired(w), 1);

  /* Quick checks in a row under a 10 s limit, with short deadlines that pass between them
   * (an interrupt of an idle context must not carry over to the next check): never
   * interrupted. */
  unsigned unknown = 0;
  for (unsigned k = 1000; k < 3000; k++) {
    assert_easy(s, k);
    unknown += timed_check(w, s, 10000, &cut, &secs) != Z3_L_TRUE || cut;
    if (k % 200 == 0) { /* a deadline passes with no check running: Z3 is interrupted idle */
      z3_watchdog_arm(w, 1);
      sleep_ms(5);
      (void)z3_watchdog_disarm(w); /* true unless the watchdog thread was not yet scheduled */
    }
  }
  CHECK_EQ_U64(unknown, 0);

  /* Under a 20 ms limit, a check is interrupted only when its own 20 ms have passed, and a
   * quick one answers (a loaded machine may stall one past its deadline: then it is cut). */
  for (unsigned k = 3000; k < 4000; k++) {
    assert_easy(s, k);
    Z3_lbool r = timed_check(w, s, 20, &cut, &secs);
    CHECK(r == Z3_L_TRUE || (r == Z3_L_UNDEF && cut));
    CHECK(!cut || secs >= 0.020);
    if (k % 100 == 0) sleep_ms(25); /* the last deadline passes between checks */
  }

  /* The interrupt that lands between a check's return and disarm (the run that died with
   * "Z3 rejected a query: push canceled"), made deterministic: armed with no check
   * running, the deadline passes and the watchdog interrupts the idle context; disarm
   * must leave nothing pending, so the incremental lane's next push succeeds. Without the
   * clearing check in disarm, Z3 4.8.12 fails this push. */
  Z3_set_error_handler(ctx, on_error);
  for (unsigned k = 0; k < 3; k++) {
    unsigned long before = z3_watchdog_fired(w);
    z3_watchdog_arm(w, 1);
    for (unsigned waited = 0; z3_watchdog_fired(w) == before && waited < 10000; waited++)
      sleep_ms(1);
    CHECK(z3_watchdog_fired(w) == before + 1);
    CHECK(z3_watchdog_disarm(w));
    Z3_solver_push(ctx, s);
    CHECK_EQ_U64(z3_err, Z3_OK);
    assert_easy(s, 5000 + k);
    Z3_solver_push(ctx, s);
    CHECK_EQ_U64(z3_err, Z3_OK);
    CHECK_EQ_U64(Z3_solver_check(ctx, s), Z3_L_TRUE);
    Z3_solver_reset(ctx, s);
  }

  z3_watchdog_free(w);
  Z3_solver_dec_ref(ctx, s);
  Z3_del_context(ctx);
  return check_exit();
}
