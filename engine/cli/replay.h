/*
 * replay — `symq replay OUTDIR` and `symq cov OUTDIR`: rebuild the driver recorded in
 * OUTDIR/info natively (the system C compiler, linked with runtime/replay/replay.c) and run
 * it once per test of OUTDIR.
 *
 *   replay  checks every test: an error test (a .err beside its ktest) must reproduce its
 *           error natively, any other test must exit normally; one line per test and
 *           `replayed N tests: E errors reproduced, M mismatches`.
 *   cov     builds with --coverage, runs every test, and has gcovr write line and branch
 *           coverage to OUTDIR/coverage/index.html and to stats.json's "gcov" key.
 *
 * Both take argv as given to symq (argv[1] is the command) and return the exit status:
 * 0 (replay: every test behaved as recorded), 1 (replay: some mismatch), 2 (bad usage, a
 * missing or invalid OUTDIR, a compile failure, gcovr missing or failing).
 */
#ifndef SYMQ_REPLAY_CMD_H
#define SYMQ_REPLAY_CMD_H

#include "engine/cli/options.h"

extern const opt_command replay_command, cov_command; /* their options and help */

int replay_main(int argc, char **argv);
int cov_main(int argc, char **argv);

#endif
