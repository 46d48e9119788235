/*
 * z3_guard.h — private to qsolver/: Z3_solver_get_model under a SIGSEGV/SIGBUS guard, so that
 * a fault inside libz3 while it builds a model is reported to the caller instead of killing
 * the run.
 *
 * Why: Debian 12's libz3 4.8.12 sometimes reads a NULL fresh value while its SMT core builds a
 * model (model_generator::mk_values, after a lane's pushes and pops; eval/real/RESULTS.md, "The
 * SIGSEGV in Z3_solver_get_model"). Predicting which queries fault and solving those elsewhere
 * up front cost wget base64 +16% effort and busybox base64_decode ~3x (branch s20-z3, not
 * merged); a guard costs the queries that do not fault four sigaction calls each.
 *
 * Contract: z3_guard_get_model returns what Z3_solver_get_model returns (no reference taken),
 * or NULL with *faulted set when the call faulted. After a fault the solver is left in the
 * middle of Z3's construction: the caller never touches it again (no check, reset or
 * dec_ref) and never deletes its context (Z3_del_context deletes the API objects still alive,
 * that solver too). Either way the handlers the two signals had before are back when it
 * returns, and the signal mask is as it was (the guard's handler runs with SA_NODEFER and
 * blocks nothing, so jumping out of it leaves the mask alone). Only the calling thread's
 * faults are caught: one on another thread (the watchdog's, say) while the guard is up goes
 * to the handler the signal had before. One thread at a time may be inside the guard.
 *
 * What it cannot promise: Z3 is stopped wherever it faulted. The known fault is a read of a
 * NULL AST outside any allocation or lock, which leaves only the solver's half-built model
 * behind (leaked with the solver); a fault inside malloc, or while Z3 held a lock, would leave
 * the heap or the lock behind, and a fault that first wrote through a wild pointer may have
 * damaged state the solver shares with the context. The guard makes the known crash a
 * recoverable answer; it does not make libz3 correct.
 */
#ifndef SYMQ_QSOLVER_Z3_GUARD_H
#define SYMQ_QSOLVER_Z3_GUARD_H

#include <stdbool.h>
#include <z3.h>

Z3_model z3_guard_get_model(Z3_context ctx, Z3_solver s, bool *faulted);

/* Test seam (unit tests only; 0 in symq): the next this many guarded calls fault — each
 * raises SIGSEGV inside the guard before calling Z3 — since the real fault was never reduced
 * to a query small enough for a test. */
extern unsigned z3_guard_faults;

#endif
