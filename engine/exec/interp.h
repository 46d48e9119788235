/*
 * interp — the forking interpreter: runs a decoded program from `main` symbolically,
 * forking at every branch both of whose sides are feasible, and writes a test for every
 * path that completes and for every error (KLEE's semantics: see shared/notes).
 *
 * Contract
 *   - interp_run explores until no state is left, a limit is reached, or *interrupted
 *     becomes non-zero; every test is written (through `out`) the moment its path ends, so
 *     stopping at any point loses nothing already reported.
 *   - Per-path problems (a bug found, an unsupported instruction or external call, a solver
 *     `unknown`) end that path with a reason; they stop the run only when asked to
 *     (--exit-on-error: the states left end early with a test, as on a signal).
 *   - Output failure: the first file that cannot be written (full disk, quota, EFBIG)
 *     stops the run at once: no further file is attempted (the states left are dropped),
 *     `output_failed` is set, `output_error` holds the message (out_error's; printed on
 *     stderr as `symq: error: MESSAGE` when it happens), and the run is not exhausted. Every file
 * reported written before stays whole.
 *   - `exhausted` is true only when every path ran to its end: any early path, and any
 *     feasible alternative given up (recorded in dropped_reasons), make it false.
 *   - Returns 0, or -1 when the program cannot start at all (no `main`, an output failure);
 *     then *error holds a one-line message (static storage or owned by the result).
 */
#ifndef SYMQ_INTERP_H
#define SYMQ_INTERP_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "engine/core/ir.h"
#include "engine/out/output.h"
#include "engine/exec/search.h"
#include "merge/region.h"
#include "prune/prune.h"
#include "qsolver/qsolver.h"

enum { INTERP_MAX_SEARCH = 64, INTERP_MAX_ERROR_KINDS = 32 };
enum { INTERP_MAX_SYM_ARGS = 32, INTERP_MAX_LINK_NATIVE = 32 };

/* --external-calls (KLEE's): what a call to a function with no body and no model does
 * (engine/exec/external.h). none: the path ends early; concrete: called natively when
 * every argument has one value on the path; all: symbolic arguments are concretized. */
typedef enum interp_external_calls {
  INTERP_EXTERNAL_NONE,
  INTERP_EXTERNAL_CONCRETE,
  INTERP_EXTERNAL_ALL
} interp_external_calls;

/* The kinds of error the interpreter reports (the KIND of testNNNNNN.KIND.err), separated
 * by spaces, for messages and help. */
#define INTERP_ERROR_KINDS "abort assert div exec free overshift ptr reach_error read_only user"

/* The kind `text` names, as a static string: one of INTERP_ERROR_KINDS, matched ignoring
 * case and '_' (so KLEE's spellings, ReadOnly, Ptr, Abort, name symq's), or NULL. */
const char *interp_error_kind(const char *text);

typedef struct interp_options {
  search_kind search[INTERP_MAX_SEARCH]; /* searchers, interleaved; none = dfs */
  size_t nsearch;
  uint64_t seed;
  uint32_t fast_forward;      /* --merge-fast-forward: with merging, at most this many selections in
                                 a row go to states inside an open merge region (0: off; see
                                 search.h, fast-forwarding) */
  double max_time_s;          /* 0 = no limit; the run stops within max_time_s plus its
                                 halt budget (interp_halt_budget) */
  unsigned solver_timeout_ms; /* per query (0 = none); under max_time_s each query gets at
                                 most the time left */
  uint64_t max_instructions;  /* 0 = no limit */
  uint64_t max_forks;         /* 0 = no limit; after it, branches follow one feasible side */
  uint64_t max_memory_mb;     /* 0 = no limit; from 90% of it no more forks; at it (resident
                                 memory) the run halts */
  uint32_t max_pointer_objects; /* 0 = no limit: objects one symbolic pointer may fork into */
  uint64_t capacity;            /* bytes backing a symbolic-size allocation whose size is
                                   unbounded on its path (pat-merge.md §8) */
  merge_options merge;          /* none: plain forking; cfg: standard merging of regions;
                                   pat: merging by pattern, with quantifiers (merge/strategy_pat.h) */
  bool emit_all_errors;
  bool only_covering_new; /* a test only for a path that covered a new instruction, as
                             KLEE's --only-output-states-covering-new (errors: always) */
  uint64_t max_tests;     /* 0 = no limit; after the Nth test the run halts, the states
                             left end early without a test (not exhaustive) */
  bool exit_on_error;     /* halt at the first error reported (KLEE's --exit-on-error) */
  const char *exit_on_error_kinds[INTERP_MAX_ERROR_KINDS]; /* … or at the first error of
                                                              these kinds (canonical names) */
  size_t nexit_on_error_kinds;
  int argc; /* the program's argv; argv[0] is its path */
  const char *const *argv;
  /* symq run's --sym-* options (engine/exec/symenv.h): the values as given */
  const char *sym_arg[INTERP_MAX_SYM_ARGS]; /* --sym-arg N */
  size_t nsym_arg;
  const char *sym_args[INTERP_MAX_SYM_ARGS]; /* --sym-args MIN,MAX,N */
  size_t nsym_args;
  const char *sym_files[1]; /* --sym-files COUNT,N */
  size_t nsym_files;
  const char *sym_stdin[1]; /* --sym-stdin N */
  size_t nsym_stdin;
  volatile sig_atomic_t *interrupted; /* non-zero: halt, within interp_halt_budget of
                                         the time run so far */
  bool progress;                      /* a live status line on stderr */
  bool trace;                         /* every executed instruction on stderr */
  prune_options prune;                /* --interpolate (prune/prune.h): dfs, no merging */
  int external_calls;                 /* interp_external_calls (an enum-sized option field) */
  const char *link_native[INTERP_MAX_LINK_NATIVE]; /* --link-native LIB: dlopen'ed */
  size_t nlink_native;
  struct part_ctx *part; /* --split / --part (engine/exec/part.h), or NULL */
  bool fork_sites;       /* --fork-sites: count forks per source location (result.fork_sites) */
} interp_options;

typedef merge_reason interp_reason; /* counted with merge_reasons_add (merge/region.h) */

typedef struct interp_result {
  uint64_t completed_paths, error_paths, early_paths, tests, tests_lost;
  uint64_t instructions, forks, states_max;
  uint64_t concretized;         /* symbolic values made concrete (lengths, addresses) */
  uint64_t capacity_bounded;    /* symbolic sizes bounded by --capacity on their path */
  uint64_t quiet_paths;         /* ended by an assumption that cannot hold or klee_silent_exit:
                                   explored to their end, no test (SV-COMP's rules) */
  bool exhausted;               /* every path ran to its end: no early path, nothing dropped */
  double exploration_time_s;    /* from the start of interp_run to the last state's end */
  interp_reason *early_reasons; /* sorted by text */
  size_t nearly_reasons;
  char first_early_at[256];       /* "FILE:LINE" of the first early path's current instruction,
                                     "" when it had none (or no early path) */
  interp_reason *dropped_reasons; /* feasible alternatives given up without a path ending
                                     (a limit's cut, a concretization, --capacity); sorted */
  size_t ndropped_reasons;
  uint64_t covered_lines, total_lines;
  uint64_t fast_forwards;     /* selections of a state inside a merge region by fast-forwarding */
  merge_stats merge;          /* merge regions and merges (merge/region.h) */
  bool output_failed;         /* a file could not be written: the run stopped there */
  char output_error[512];     /* its message, naming the file */
  bool stopped_on_error;      /* --exit-on-error(-kinds) halted the run at an error */
  uint64_t tests_not_written; /* paths past --max-tests or not covering new code (no test) */
  const char *error;          /* set when interp_run returns -1 */
  prune_stats prune;          /* subsumption counters and the run's verdict (prune/prune.h) */
  /* appended (issue 26): per-site fork counts (engine/exec/interp_stats.h) when
   * opt.fork_sites, else NULL; freed by interp_result_free */
  struct interp_fork_sites *fork_sites;
} interp_result;

/* The values of symq run's --sym-* options (engine/exec/symenv.c): each true when `text` is
 * as the option takes it (N; MIN,MAX,N; COUNT,N: numbers, separated by commas or spaces),
 * and then stores text in *(const char **)elem. */
bool interp_sym_arg_value(const char *text, void *elem);
bool interp_sym_args_value(const char *text, void *elem);
bool interp_sym_files_value(const char *text, void *elem);

int interp_run(const ir_program *prog, const interp_options *opt, qsolver *solver, out_dir *out,
               interp_result *result);
/* Seconds past --max-time spent writing the tests of the states still waiting: 5% of the
 * limit, at least one second. The states left when it is spent end early without solving:
 * a line each in `lost.early`, counted in tests_lost. */
double interp_halt_budget(double max_time_s);
void interp_result_free(interp_result *r);

#endif
