/*
 * mergeout — `symq merge-out OUT1 OUT2 … -o OUT`: the output directories of one exploration's
 * parts (engine/exec/part.h) as one output directory.
 *
 *   - Tests are renumbered from test000001 in a fixed order: directory by directory as
 *     given, each one's tests by number; every per-test file (.ktest, .KIND.err, .early, any
 *     other testNNNNNN.SUFFIX) moves with its test.
 *   - Errors: a run reports each error once per location (unless --emit-all-errors), so an
 *     error test whose error (kind, message, file, line, function) an earlier directory
 *     already reported is left out with its files, as the single run would not have written
 *     it (unless keep_all_errors). Which path stands for a location may then differ from the
 *     single run's choice: the set of errors is the same.
 *   - stats.json: every number summed, but maxima (the *_max, slowest*, peak* members and the
 *     line counts) take the largest; `exhausted` is true only if it is in every directory,
 *     other booleans true if in any; strings and arrays are the first directory's. `tests`
 *     is the number of tests written, `merged_outputs` the number of directories. Coverage:
 *     symq writes line counts only, so covered_lines is the largest part's, a lower bound of
 *     the union (no per-line data exists to unite).
 *   - info is the first directory's (the program, as symq replay needs it); lost.early files
 *     are concatenated. Other files (region dumps, smt2/, part files) are not merged.
 *   - Files are written whole (a temporary file renamed into place), or renamed when a part
 *     placed them on dst's file system already (mergeout_add_placed: --jobs's local parts),
 *     or, with link_files, a test's files are hard links to the source's (one system call
 *     each instead of a read, a write and a rename: --jobs merges its own parts' directories,
 *     28,657 tests of eval/bench_dist.py's driver), copied when the link cannot be made
 *     (another file system, a name taken).
 */
#ifndef SYMQ_MERGEOUT_H
#define SYMQ_MERGEOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct mergeout_options {
  bool keep_all_errors; /* the parts ran with --emit-all-errors: keep every error test */
  bool into_existing;   /* dst exists already (symq run --jobs: it holds dist/) */
  size_t parts_not_run; /* parts of the exploration with no directory: not exhausted */
  bool link_files;      /* tests' files as hard links to the sources' (theirs not to change) */
} mergeout_options;

typedef struct mergeout_summary {
  size_t outputs;
  uint64_t tests, errors_left_out;
  uint64_t completed_paths, error_paths, early_paths, instructions;
  bool exhausted;
} mergeout_summary;

/* Merges the n directories srcs into dst (created, unless into_existing): every stats.json
 * is read first, then the directories are merged in order. 0, or -1 with a one-line message
 * naming the file in err. */
int mergeout_dirs(const char *const *srcs, size_t n, const char *dst, const mergeout_options *o,
                  mergeout_summary *sum, char *err, size_t err_size);

/* The same one directory at a time, for symq run --jobs, which merges each part as soon as
 * the parts before it have ended, while the others still run (the tests' links are then no
 * more a step of their own at the end). mergeout_begin creates dst (unless into_existing;
 * NULL and a message in err when it cannot); o and err are borrowed until the end, and
 * o->parts_not_run is read by mergeout_end, which makes every file durable (syncfs) before
 * it writes stats.json and info. mergeout_add merges one more directory's tests
 * and stats (false, with a message in err, when its stats.json cannot be read or a file
 * cannot be made: the job can then only be abandoned). mergeout_end writes lost.early,
 * stats.json and info (the first directory's) and frees the job: 0, or -1 with a message;
 * mergeout_abandon frees it without writing them (dst holds tests but no stats.json: no
 * finished output directory, no verdict). */
typedef struct mergeout_job mergeout_job;
mergeout_job *mergeout_begin(const char *dst, const mergeout_options *o, char *err,
                             size_t err_size);
bool mergeout_add(mergeout_job *j, const char *src);
int mergeout_end(mergeout_job *j, mergeout_summary *sum);
/* mergeout_add for a part whose tests' files were placed in directory `placed_in` (dst, or
 * another directory of dst's file system: out_place_tests, output.h) as PREFIX+name and listed
 * in src/OUT_PLACED_LIST: each kept one is renamed to its final name in dst (no second copy,
 * nothing left behind), one not kept (an error already reported) is removed; src holds the
 * rest of the part's output (stats.json, lost.early, info). */
bool mergeout_add_placed(mergeout_job *j, const char *src, const char *placed_in,
                         const char *prefix);
void mergeout_abandon(mergeout_job *j); /* NULL is allowed */

/* `symq: ERROR: FILE:LINE: MESSAGE` for each error test of the merged directory, in test
 * order, as symq run prints each error it finds. */
void mergeout_print_errors(FILE *f, const char *dir);

/* The 'symq: done:' lines of a merged run, as symq run prints its own. */
void mergeout_print_summary(FILE *f, const mergeout_summary *sum);

/* `symq merge-out OUT... -o OUT [--keep-all-errors]`: argv[1] is "merge-out". Returns 0, 2 (bad
 * usage or an input that is no output directory) or 4 (a file could not be written). */
int mergeout_main(int argc, char **argv);

#endif
