/*
 * z3_watchdog.h — private to qsolver/: the time limit of Z3's checks, kept by one thread per
 * Z3 context instead of Z3's own "timeout" parameter.
 *
 * Why: Z3 starts a timer thread for every check that carries a timeout (futex calls,
 * sched_yield), which made most of a forking run's system time and of its timing noise
 * (pat, memspn twice: ~950 voluntary context switches with the timeout, 12 without). Here
 * one thread sleeps until the deadline of the check running, and wakes at most once per
 * deadline that passes (a check ending earlier does not wake it: it finds the next check's
 * later deadline, or none, when it wakes); only a check that runs past its deadline is
 * interrupted (Z3_interrupt on the context given, repeated every few milliseconds until the
 * check is disarmed, so that an interrupt landing just before Z3 entered the check is not
 * lost).
 *
 * Contract: z3_watchdog_arm just before Z3_solver_check, z3_watchdog_disarm just after, on the
 * thread that owns the context; nothing else of that context may run in between. After
 * disarm returns, no interrupt of that check can arrive (arm, disarm and the interrupt take
 * one lock) and none is left pending on the context (a push then cannot fail as "canceled":
 * disarm clears it by an empty check when the deadline passed). disarm says whether the deadline
 * passed: a check that then returned unknown was cut by the time limit, one that returned sat or
 * unsat finished first (its answer stands). A limit of 0 arms nothing (no limit). The thread starts
 * at the first armed limit, with every signal blocked (symq's handlers run on the main thread), and
 * ends in z3_watchdog_free, which must come before the context is deleted.
 */
#ifndef SYMQ_QSOLVER_Z3_WATCHDOG_H
#define SYMQ_QSOLVER_Z3_WATCHDOG_H

#include <stdbool.h>
#include <z3.h>

typedef struct z3_watchdog z3_watchdog;

z3_watchdog *z3_watchdog_new(Z3_context ctx);
void z3_watchdog_free(z3_watchdog *w); /* NULL is allowed */
/* The check about to run may take ms milliseconds (0: no limit). */
void z3_watchdog_arm(z3_watchdog *w, unsigned ms);
/* The same for a check on another context, `other`, which is deleted after that check (so
 * disarm leaves an interrupt that came late pending on it, to no effect). */
void z3_watchdog_arm_other(z3_watchdog *w, Z3_context other, unsigned ms);
/* The check returned: true when its deadline passed before this call. */
bool z3_watchdog_disarm(z3_watchdog *w);
/* How many checks ran past their deadline (each counted once). */
unsigned long z3_watchdog_fired(z3_watchdog *w);

#endif
