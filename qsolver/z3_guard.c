/*
 * z3_guard.c — Z3_solver_get_model under a SIGSEGV/SIGBUS guard (z3_guard.h).
 *
 * The handlers are installed around each call and the previous ones put back after it, not
 * installed once for the run: a fault anywhere else (symq's own bug, or the sanitizer build's
 * report of one) must reach the handler it always reached. The handler jumps back to the
 * guarded call's sigsetjmp when the fault is on the thread inside the guard (`landing`,
 * thread-local); any other fault puts the previous handler back and raises the signal again
 * for it.
 */
#include "qsolver/z3_guard.h"

#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

unsigned z3_guard_faults;

static const int guarded_signals[] = {SIGSEGV, SIGBUS};
#define NGUARDED (sizeof guarded_signals / sizeof *guarded_signals)
static struct sigaction previous[NGUARDED];
static _Thread_local sigjmp_buf *landing; /* set while this thread's call is guarded */

static void on_fault(int sig) {
  if (landing) siglongjmp(*landing, 1);
  for (size_t k = 0; k < NGUARDED; k++)
    if (guarded_signals[k] == sig) sigaction(sig, &previous[k], NULL);
  raise(sig); /* SA_NODEFER: delivered now, to the previous handler */
}

Z3_model z3_guard_get_model(Z3_context ctx, Z3_solver s, bool *faulted) {
  struct sigaction mine = {.sa_handler = on_fault, .sa_flags = SA_NODEFER};
  sigemptyset(&mine.sa_mask);
  for (size_t k = 0; k < NGUARDED; k++) sigaction(guarded_signals[k], &mine, &previous[k]);
  sigjmp_buf here;
  Z3_model volatile m = NULL;
  /* savemask 0: the mask is never changed in between (SA_NODEFER, empty sa_mask), and saving
   * it would cost a system call per model */
  if (sigsetjmp(here, 0) == 0) {
    landing = &here;
    *faulted = false;
    if (z3_guard_faults) {
      z3_guard_faults--;
      raise(SIGSEGV);
    }
    m = Z3_solver_get_model(ctx, s);
  } else {
    *faulted = true;
    m = NULL;
  }
  landing = NULL;
  for (size_t k = 0; k < NGUARDED; k++) sigaction(guarded_signals[k], &previous[k], NULL);
  return m;
}
