/*
 * replay.h — the contract between the native replay library (runtime/replay/replay.c) and
 * `symq replay` / `symq cov` (engine/cli/replay.c): how a replayed driver says why it stopped.
 *
 * A driver linked with replay.c reads its inputs from the ktest named by the environment
 * variable KTEST_FILE. When the library itself ends the program it prints ONE line on
 * stderr starting with SYMQ_REPLAY_TAG and exits with a status of its own:
 *
 *     status                     stderr line
 *     SYMQ_REPLAY_EXIT_KTEST     symq-replay: ktest mismatch: …   (name, size, count, range)
 *                                symq-replay: ktest error: …      (KTEST_FILE unset or bad)
 *     SYMQ_REPLAY_EXIT_ASSUME    symq-replay: assumption violated: …
 *     SYMQ_REPLAY_EXIT_REPORT    symq-replay: error (KIND): FILE:LINE: MESSAGE
 *     SYMQ_REPLAY_EXIT_REACH     symq-replay: reach_error: … called
 *
 * A program may exit with one of these numbers by itself, so a reader must see the status
 * AND the line before it believes the library. klee_abort() calls abort() (SIGABRT) and
 * klee_silent_exit(S) calls exit(S), as in KLEE's libkleeRuntest.
 *
 * Compiled with -DSYMQ_REPLAY_GCOV (and linked with --coverage), the library also writes
 * the gcov counters when the program dies of SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL or
 * SIGTRAP, so that tests which crash still count in the coverage.
 */
#ifndef SYMQ_REPLAY_H
#define SYMQ_REPLAY_H

#define SYMQ_REPLAY_TAG "symq-replay: "

#define SYMQ_REPLAY_EXIT_KTEST 90
#define SYMQ_REPLAY_EXIT_ASSUME 91
#define SYMQ_REPLAY_EXIT_REPORT 92
#define SYMQ_REPLAY_EXIT_REACH 93

#endif
