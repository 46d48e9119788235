/*
 * output — everything symq writes to its output directory, laid out as KLEE users expect:
 *
 *     symq-out-N/                  (or the directory given with --output-dir)
 *       test000001.ktest           one per generated test, numbered from 1
 *       test000001.ptr.err         beside a test that found an error: testNNNNNN.KIND.err
 *       test000002.early           beside a path that ended early: reason, where, stack
 *       test000003.SUFFIX          any other per-test file
 *       info                       command line, version, PID, start/end, key: value lines
 *       stats.json                 counters, written with engine/core/json.h
 *     symq-last -> symq-out-N      only when the directory was chosen automatically
 *
 * Contract
 *   - Every file is written whole into a temporary file in the directory, then renamed over
 *     its final name: a reader, or a `kill -9` at any moment, sees either the complete file
 *     or none, and everything a function has reported as written survives the process.
 *     (Tests placed elsewhere, out_place_tests, are made under their hidden placed name
 *     directly; the merge that renames them is their rename.)
 *     Files are not fsync'd one by one (that cost two disk flushes per test): out_sync, which
 *     the final out_write_info calls first, makes them all durable against a machine crash
 *     at once. No temporary file is left behind, even on failure (only a process killed
 *     while writing can leave a hidden `.NAME.tmp-PID-N`).
 *   - Functions that can fail return 0 / an id on success and -1 / 0 on failure; the
 *     message, `OUTDIR: FILE: what failed: why`, is then available from `out_error` until
 *     the next failure.
 *   - Strings are borrowed for the duration of the call only. Not thread-safe.
 */
#ifndef SYMQ_OUTPUT_H
#define SYMQ_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "engine/core/json.h"
#include "engine/out/ktest.h"

typedef struct out_dir out_dir;

/* Opens the output directory.
 *   dir == NULL: creates `symq-out-N` in the current directory for the first N from 0 whose
 *     mkdir succeeds, then points the `symq-last` symlink at it (relative target), replacing
 *     an old symlink atomically; a `symq-last` that is not a symlink is left alone, and a
 *     link that cannot be made is only a warning (`out_warning`).
 *   dir != NULL: creates `dir` (not its parents); an existing empty directory is accepted,
 *     anything else that exists is refused.
 * Returns NULL with a message in err (err may be NULL; it is always NUL-terminated). */
out_dir *out_open(const char *dir, char *err, size_t err_size);

/* Where the tests of the next out_open's directory go (symq run --jobs, engine/cli/dist.h):
 * with dir set, every test's file (testNNNNNN.SUFFIX) is written into dir as PREFIX followed
 * by its name (prefix ".p0003-": hidden, as a temporary file), created there directly and not
 * renamed: the merge of --jobs renames it to its final name in dir, the one system call a
 * test's file costs beyond its writing, as the single run's own rename. A file of a process
 * killed while writing it may be incomplete there (it was never renamed). The names written
 * are listed, one a line, in the output directory's file OUT_PLACED_LIST, written by
 * out_write_stats just before stats.json (a stats.json vouches for the list). Every other
 * file goes to the output directory as usual, and out_write_info does not sync (the merge
 * syncs once before it writes the merged info, mergeout.h). dir NULL: tests stay in the output
 * directory (the default). Copied; a process-wide setting (a part of --jobs is a forked process).
 */
#define OUT_PLACED_LIST "placed-tests"
void out_place_tests(const char *dir, const char *prefix);

/* Closes the directory handle and frees `o` (NULL is fine); written files stay. */
void out_close(out_dir *o);

const char *out_path(const out_dir *o);    /* the directory, as created ("symq-out-3") */
const char *out_error(const out_dir *o);   /* the last failure's message, or "" */
const char *out_warning(const out_dir *o); /* a non-fatal problem from out_open, or NULL */
uint32_t out_num_tests(const out_dir *o);  /* tests written so far = the last id */

/* Sets the arguments every later ktest records (args[0] = the program path, as KLEE does).
 * Copied. Without it, tests record no arguments. Returns 0. */
int out_set_args(out_dir *o, int argc, const char *const argv[]);

/* Writes the next test, `testNNNNNN.ktest` (id from 1, %06u), with the recorded arguments
 * and these objects in order (a NULL name is written as "unnamed"). The file is complete
 * and closed when this returns. Returns the test id, or 0 on failure (the id is
 * then not used up). */
uint32_t out_write_test(out_dir *o, const ktest_object *objects, uint32_t num_objects);
/* Writes test test_id (already written) again with these objects, whole or not at all: a test
 * completed with inputs its path made later (engine/core/member_tests.h). 0, or -1 once the
 * failure is reported. */
int out_rewrite_test(out_dir *o, uint32_t test_id, const ktest_object *objects,
                     uint32_t num_objects);

/* One stack frame of an error report, innermost first. */
typedef struct out_frame {
  const char *func; /* function name */
  const char *args; /* the text between the parentheses, e.g. "x=1, p=symbolic"; NULL = "" */
  const char *file; /* source file, NULL or "" when unknown (then no " at file:line") */
  uint32_t line;
  uint64_t asm_line; /* the instruction's line in the IR listing (KLEE: assembly.ll) */
} out_frame;

/* An error found on a path. KIND is a plain string chosen by the executor (ptr, free, div,
 * assert, abort, overflow, reach_error, user, exec, ...): letters, digits, '_', '-', '.'. */
typedef struct out_err {
  const char *kind;
  const char *message;
  const char *file; /* NULL or "" when unknown: then File/Line/assembly.ll/State are
                       omitted, as KLEE does */
  uint32_t line;
  uint64_t asm_line;
  uint64_t state_id;
  const out_frame *frames;
  size_t num_frames;
  const char *info; /* NULL or free-form lines; each is written indented by a tab */
} out_err;

/* Writes `testNNNNNN.KIND.err` for test `test_id`, with KLEE's body:
 *     Error: MESSAGE
 *     File: FILE
 *     Line: LINE
 *     assembly.ll line: ASM_LINE
 *     State: STATE_ID
 *     Stack:
 *     \t#<frame index><asm line, 8 digits> in FUNC (ARGS) at FILE:LINE
 *     Info:
 *     \t<info line>
 * ("Stack: " and "Info: " keep KLEE's trailing space; "Info:" only when info is non-empty.)
 * Returns 0 or -1. */
int out_write_error(out_dir *o, uint32_t test_id, const out_err *e);

/* Writes `testNNNNNN.early` for test `test_id`, whose path ended early: the reason
 * (e->message) alone on the first line, as KLEE's .early files hold it, then where the path
 * was, as an .err file gives it after its "Error:" line (File, Line, assembly.ll line, State,
 * Stack, Info). e->kind is not used. With neither a file nor a frame (the path had no
 * current instruction) the second line says so instead:
 *     Location: none (the path had no current instruction)
 * Returns 0 or -1. */
int out_write_early(out_dir *o, uint32_t test_id, const out_err *e);

/* Writes `testNNNNNN.SUFFIX` with the given text (e.g. suffix "early" for a path ended
 * early, as KLEE does). Returns 0 or -1. */
int out_write_test_file(out_dir *o, uint32_t test_id, const char *suffix, const char *text);

/* Writes the file NAME (no '/') in the directory atomically. Returns 0 or -1. */
int out_write_file(out_dir *o, const char *name, const void *data, size_t len);

typedef struct out_kv {
  const char *key;
  const char *value; /* a newline in a value is written as a space */
} out_kv;

typedef struct out_info {
  int argc;
  const char *const *argv; /* written on the first line, shell-quoted where needed */
  const char *version;     /* "symq version: ..." */
  time_t start;            /* "Started: YYYY-MM-DD HH:MM:SS" (local time) */
  time_t end;              /* 0 while running; else "Finished: ..." and "Elapsed: HH:MM:SS";
                              then "Status: finished", before that "Status: running (not
                              finished)" */
  const char *status;      /* NULL, or the Status line's text instead: a failure,
                              "failed (REASON)" */
  const out_kv *kv;        /* then one "key: value" line each, in order */
  size_t num_kv;
} out_info;

/* Makes every file written so far durable (syncfs of the directory's file system).
 * Returns 0 or -1. */
int out_sync(out_dir *o);

/* Writes (or rewrites) `info`; call it at the start and again at the end, which first calls
 * out_sync: a `Status: finished` on disk vouches for every file before it. With a `status`
 * (a failure) there is no sync, and when the atomic write fails (a full disk has no room
 * for the new copy) the existing `info` is overwritten in place instead.
 * Returns 0 or -1. */
int out_write_info(out_dir *o, const out_info *info);

/* The text out_write_info would write, as a new string (free it) of *len bytes. For a caller that
 * must write `info` later without allocating (the out-of-memory handler of `symq run`): out_sync
 * and out_write_file allocate nothing. */
char *out_format_info(const out_info *info, size_t *len);

/* Writes the finished JSON document as `stats.json`, atomically. Returns 0 or -1. */
int out_write_stats(out_dir *o, const json_writer *j);

#endif
