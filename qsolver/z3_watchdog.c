/*
 * z3_watchdog.c — one thread per Z3 context that interrupts a check past its deadline
 * (z3_watchdog.h).
 *
 * State, under `mu`: whether a check is armed and its deadline, whether it fired, and
 * when the thread will wake next (`wake`, INFINITE while it waits for an arm). An arm
 * signals the thread only when its deadline comes before `wake`: for a run of checks under
 * one limit that is the first arm after the thread went idle; the others move the deadline
 * later, and the thread, waking at a passed deadline, finds the later one and sleeps on.
 * The interrupt is sent with `mu` held and only while the check is armed, so disarm, which
 * takes `mu`, returns only once no interrupt can come.
 *
 * An interrupt can still land after Z3_solver_check returned and before disarm took `mu`.
 * Z3 keeps it as its context's cancel flag until the next check starts, and a
 * Z3_solver_push in between fails with "push canceled" (Z3 4.8.12; seen once as a fatal
 * "Z3 rejected a query" on an incremental lane whose check had just been cut). So a disarm
 * whose deadline passed checks `clear`, a solver with no assertions, which resets the flag
 * (a check starts by resetting it; no interrupt can arrive during it, nothing being armed).
 */
#include "qsolver/z3_watchdog.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <time.h>

#define NS_PER_S INT64_C(1000000000)
#define INFINITE INT64_MAX
/* How often a check past its deadline is interrupted again until it returns: an interrupt
 * that lands before Z3 has entered the check is not seen by it. */
#define RETRY_NS (5 * INT64_C(1000000))

struct z3_watchdog {
  Z3_context ctx;
  Z3_context target; /* the armed check's context: ctx, or z3_watchdog_arm_other's */
  pthread_mutex_t mu;
  pthread_cond_t cv; /* on CLOCK_MONOTONIC */
  pthread_t thread;
  bool started, quit;
  bool armed, fired;
  int64_t deadline; /* of the armed check, ns on CLOCK_MONOTONIC */
  int64_t wake;     /* when the thread wakes next (INFINITE: when signalled) */
  unsigned long nfired;
  Z3_solver clear; /* empty: checked to reset a cancel that landed after a check returned */
};

static int64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (int64_t)t.tv_sec * NS_PER_S + t.tv_nsec;
}

static void *watch(void *arg) {
  z3_watchdog *w = arg;
  pthread_mutex_lock(&w->mu);
  while (!w->quit) {
    if (!w->armed) {
      w->wake = INFINITE;
      pthread_cond_wait(&w->cv, &w->mu);
      continue;
    }
    int64_t now = now_ns();
    if (now >= w->deadline) {
      if (!w->fired) w->nfired++;
      w->fired = true;
      Z3_interrupt(w->target);
      w->wake = now + RETRY_NS;
    } else {
      w->wake = w->deadline;
    }
    struct timespec until = {.tv_sec = w->wake / NS_PER_S, .tv_nsec = w->wake % NS_PER_S};
    int rc = pthread_cond_timedwait(&w->cv, &w->mu, &until);
    assert(rc == 0 || rc == ETIMEDOUT);
    (void)rc;
  }
  pthread_mutex_unlock(&w->mu);
  return NULL;
}

z3_watchdog *z3_watchdog_new(Z3_context ctx) {
  z3_watchdog *w = xcalloc(1, sizeof *w);
  w->ctx = ctx;
  w->wake = INFINITE;
  pthread_condattr_t ca;
  if (pthread_mutex_init(&w->mu, NULL) || pthread_condattr_init(&ca) ||
      pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) || pthread_cond_init(&w->cv, &ca))
    abort(); /* only on a system without a monotonic clock or out of memory */
  pthread_condattr_destroy(&ca);
  return w;
}

/* Started at the first limit: a run without one (or --solver-timeout=0) has no thread. */
static void start(z3_watchdog *w) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  if (pthread_create(&w->thread, NULL, watch, w)) abort();
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  w->started = true;
}

void z3_watchdog_free(z3_watchdog *w) {
  if (!w) return;
  if (w->started) {
    pthread_mutex_lock(&w->mu);
    w->quit = true;
    pthread_cond_signal(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
  }
  if (w->clear) Z3_solver_dec_ref(w->ctx, w->clear);
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
  free(w);
}

void z3_watchdog_arm(z3_watchdog *w, unsigned ms) { z3_watchdog_arm_other(w, w->ctx, ms); }

void z3_watchdog_arm_other(z3_watchdog *w, Z3_context other, unsigned ms) {
  if (!ms) return;
  if (!w->started) start(w);
  int64_t deadline = now_ns() + (int64_t)ms * 1000000;
  pthread_mutex_lock(&w->mu);
  assert(!w->armed);
  w->armed = true;
  w->target = other;
  w->fired = false;
  w->deadline = deadline;
  if (deadline < w->wake) pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

bool z3_watchdog_disarm(z3_watchdog *w) {
  if (!w->started) return false;
  pthread_mutex_lock(&w->mu);
  bool fired = w->armed && w->fired, own = w->target == w->ctx;
  w->armed = false;
  w->fired = false;
  pthread_mutex_unlock(&w->mu);
  if (fired && own) { /* an interrupt may have come after the check returned: reset Z3's flag */
    if (!w->clear) {
      w->clear = Z3_mk_simple_solver(w->ctx);
      Z3_solver_inc_ref(w->ctx, w->clear);
    }
    Z3_lbool r = Z3_solver_check(w->ctx, w->clear);
    assert(r == Z3_L_TRUE);
    (void)r;
  }
  return fired;
}

unsigned long z3_watchdog_fired(z3_watchdog *w) {
  pthread_mutex_lock(&w->mu);
  unsigned long n = w->nfired;
  pthread_mutex_unlock(&w->mu);
  return n;
}
