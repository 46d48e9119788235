/*
 * dist — `symq run --jobs N` and `--sshlogin HOSTS`: one exploration over many processes or
 * hosts (issue 24). The run compiles the inputs once (OUTDIR/dist/program.bc, see
 * dist_prebuilt_check), splits itself (`symq run --split=8N`, 4N for up to 4 local
 * processes; engine/exec/part.h), runs each part (`symq run --part=FILE`) on N local
 * processes or through GNU parallel over ssh, and merges the outputs into one directory
 * (engine/cli/mergeout.h).
 *
 *     OUTDIR/                 the merged tests, stats.json and info (symq merge-out)
 *       dist/program.bc(.key) the program, compiled once for every process (--prebuilt)
 *       dist/split/           the splitter's output: its own tests, part-NNNN.part
 *       dist/part-NNNN/       each part's output directory; dist/part-NNNN.log its stderr
 *         .pNNNN-testNNNNNN.* a local part's tests, placed there (out_place_tests) and renamed
 *                             into OUTDIR under their final names by the merge
 *                             (mergeout_add_placed)
 *       .p0000-testNNNNNN.*   the splitter's tests, placed in OUTDIR and renamed likewise
 *
 * Local processes (--jobs without --sshlogin) are forked from the parent after it loaded
 * and linked the program once (run_load_program; no solver, no thread exists in it then):
 * each makes its own Z3 context and writes its part's directory as `symq run --part`
 * would. Under --sshlogin each process is a `symq run` of its own, loading the program.
 *
 * Contract
 *   - --max-time bounds the whole run: each process gets the time left when it starts, and
 *     no part starts after it (those count as not run: the merged run is not exhausted).
 *   - The outputs merge in part order, each part as soon as it and the parts before it have
 *     ended (mergeout_add, mergeout_add_placed), while the later parts run; stats.json and
 *     info are written last.
 *   - A part that cannot be run, or that fails, makes the run fail (exit 4) after the other
 *     parts ended; the merge stops there and OUTDIR gets no stats.json and no info (the
 *     tests merged before it stay), so no verdict claims what was not explored. The tests
 *     of that part and of the later ones stay in their dist/part-NNNN/ under their hidden
 *     .pNNNN- names (nothing written is lost; the file a killed process was writing may be
 *     incomplete),
 *     as do those of a part stopped by a signal before it could halt (counted as not run).
 *   - Messages are one line on stderr; the exit statuses are symq run's.
 */
#ifndef SYMQ_DIST_H
#define SYMQ_DIST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/cli/options.h"
#include "engine/cli/run.h"

/* The key a part file records (part.h): the version, the inputs' contents and every option
 * that shapes the tree of forks (compilation, runtime, program arguments, symbolic
 * environment, capacity, pointer and external-call options). */
uint64_t dist_program_key(const run_options *o);

/* --prebuilt=FILE.bc (what --jobs gives its processes, so that clang runs once, in the
 * parent, not in each of the 4N or 8N processes): the program as `symq compile` writes it, and
 * FILE.bc.key, written with it, holding
 *     symq-prebuilt 1
 *     program 0123456789abcdef       dist_program_key of the run that compiled it
 * A run with --prebuilt loads FILE.bc instead of compiling its inputs, and records the inputs,
 * -I, -D and --cflags as a run without it does (info, the tests' program name, the part
 * key): its outputs are the ones the same run on the inputs writes. It refuses (false, a
 * one-line message naming the file in err) a FILE.bc whose key file is missing or holds
 * another key: inputs changed since, or other options. */
bool dist_prebuilt_check(const run_options *o, char *err, size_t err_size);

/* Refuses (usage error of `command`, returns 2) options that cannot go with --split, --part,
 * --jobs or --sshlogin: limits counted over the whole run, --interpolate. 0 when fine. */
int dist_check_options(const opt_command *command, const run_options *o);

/* Runs `symq run ARGV` (argv as given, with --jobs or --sshlogin) in parts; returns the exit
 * status. */
int dist_main(int argc, char **argv, const run_options *o);

#endif
