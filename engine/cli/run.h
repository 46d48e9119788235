/*
 * run — the `symq run` command. Its options (run_command's table, engine/cli/options.h) are
 * parsed straight into the structs that use them: run_options embeds interp_options (which
 * holds merge_options) and qs_options; the rest is how to load the input and what to write.
 */
#ifndef SYMQ_RUN_H
#define SYMQ_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/cli/options.h"
#include "engine/exec/interp.h"
#include "qsolver/qsolver.h"

enum { RUN_MAX_CLANG_ARGS = 64 };

typedef struct run_options {
  const char *input;
  const char *output_dir;
  interp_options interp;      /* search, limits, merging; argv and interrupted are run's */
  qs_options solver;          /* its timeout_ms is interp's solver_timeout_ms too */
  bool qsolver_timeout_given; /* else --qsolver-timeout is --solver-timeout */
  bool progress_given;        /* else the status line shows when stderr is a terminal */
  const char *include_dirs[RUN_MAX_CLANG_ARGS];
  size_t n_include_dirs;
  const char *cflags[RUN_MAX_CLANG_ARGS]; /* -DNAME[=VALUE], as given */
  size_t n_cflags;
  double max_load_time_s;      /* 0: bitcode's default */
  uint64_t max_load_memory_mb; /* 0: bitcode's default */
  bool optimize, write_smt2s, no_runtime;
  const char *passes; /* --passes as given: NULL keeps bitcode's default pipeline */
  bool testcomp;      /* --testcomp or --testcomp-property */
  const char *testcomp_property;
  int program_argc; /* after `--` */
  const char **program_argv;
} run_options;

extern const opt_command run_command;

/* Parses `symq run`'s argv (argv[0] "symq", argv[1] "run") into *o, which the caller zeroed:
 * 0, 1 (help printed) or 2 (usage error printed). */
int run_parse_options(int argc, char **argv, run_options *o);

/* The exit statuses of `symq run` besides 0 (done), 1 (the output directory could not be
 * made, or a check of the run failed) and 2 (bad usage or input). */
enum {
  RUN_EXIT_ERROR_FOUND = 1, /* --exit-on-error(-type) stopped the run at an error */
  RUN_EXIT_OUTPUT = 4       /* a file, or stdout, could not be written: the run stopped */
};

/* argv is the whole command line (argv[0] "symq", argv[1] "run"); returns the exit status:
 * 0, 1 (the output directory could not be made; --exit-on-error stopped at an error),
 * 2 (bad usage or input) or 4 (output failure, RUN_EXIT_OUTPUT). */
int run_main(int argc, char **argv);
#endif
