/*
 * run — the `symq run` command (and `symq compile`, which loads its inputs the same way). Its
 * options (run_command's table, engine/cli/options.h) are parsed straight into the structs that use
 * them: run_options embeds interp_options (which holds merge_options) and qs_options; the rest is
 * how to load the input and what to write.
 */
#ifndef SYMQ_RUN_H
#define SYMQ_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/cli/options.h"
#include "engine/core/xalloc.h"
#include "engine/exec/interp.h"
#include "qsolver/qsolver.h"

enum { RUN_MAX_CLANG_ARGS = 64, RUN_MAX_INPUTS = 256 };

typedef struct run_options {
  const char *input;                  /* the first input: names the program in messages */
  const char *inputs[RUN_MAX_INPUTS]; /* every input, in order (inputs[0] is `input`) */
  size_t n_inputs;
  const char *output_dir;
  interp_options interp;      /* search, limits, merging; argv and interrupted are run's */
  qs_options solver;          /* its timeout_ms is interp's solver_timeout_ms too */
  bool qsolver_timeout_given; /* else --qsolver-timeout is --solver-timeout */
  bool progress_given;        /* else the status line shows when stderr is a terminal */
  bool merge_given;           /* else --merge is pat, or none under --interpolate */
  bool incremental_given;     /* else --incremental-merge is on under --merge=pat only (not
                                 with --interpolate) */
  const char *include_dirs[RUN_MAX_CLANG_ARGS];
  size_t n_include_dirs;
  const char *cflags[RUN_MAX_CLANG_ARGS]; /* -DNAME[=VALUE] as given, then --cflags' words */
  size_t n_cflags;
  const char *cflags_text[RUN_MAX_CLANG_ARGS]; /* each --cflags value, as given */
  size_t n_cflags_text;
  char *cflags_words;          /* owned (run_options_free): the --cflags values, cut into words */
  double max_load_time_s;      /* 0: bitcode's default */
  uint64_t max_load_memory_mb; /* 0: bitcode's default */
  bool optimize, write_smt2s, no_runtime;
  const char *passes; /* --passes as given: NULL keeps bitcode's default pipeline */
  bool testcomp;      /* --testcomp or --testcomp-property */
  const char *testcomp_property;
  const char *bitcode_output; /* symq compile's -o */
  int program_argc;           /* after `--` */
  const char **program_argv;
  /* one exploration in parts (engine/exec/part.h, engine/cli/dist.h) */
  uint64_t split;        /* --split=N: 0 none */
  const char *part_file; /* --part=FILE, or NULL */
  uint64_t jobs;         /* --jobs N: 0 none */
  const char *sshlogin;  /* --sshlogin HOSTS, or NULL */
  const char *prebuilt;  /* --prebuilt=FILE.bc: the program compiled once (dist.h), or NULL */
} run_options;

extern const opt_command run_command;

/* Parses `symq run`'s argv (argv[0] "symq", argv[1] "run") into *o, which the caller zeroed:
 * 0, 1 (help printed) or 2 (usage error printed). The --cflags values are split at blanks
 * into o->cflags (after the -D options); run_options_free releases those words. */
int run_parse_options(int argc, char **argv, run_options *o);
void run_options_free(run_options *o);

/* The exit statuses of `symq run` (docs/usage.md, "Exit status", and `symq run --help` say
 * the same; a stable interface: scripts rely on them). */
enum {
  RUN_EXIT_DONE = 0,        /* the run ended and its record is written: complete or not
                               (the verdict line, stats.json's exhausted), bugs or not */
  RUN_EXIT_ERROR_FOUND = 1, /* --exit-on-error(-type) stopped the run at an error, or a
                               --validate-* check of the run failed */
  RUN_EXIT_BAD_INPUT = 2,   /* bad usage, an input that cannot be used, an output directory
                               that cannot be created: nothing was explored */
  RUN_EXIT_OUT_OF_MEMORY = XALLOC_OOM_STATUS, /* symq ran out of memory, the run stopped */
  RUN_EXIT_OUTPUT = 4 /* a file, or stdout, could not be written: the run stopped */
};

/* argv is the whole command line (argv[0] "symq", argv[1] "run"); returns the exit status
 * (RUN_EXIT_*; RUN_EXIT_OUT_OF_MEMORY comes from xalloc's _exit, never from here). */
int run_main(int argc, char **argv);

/* run_main on a program already loaded (run_load_program with the same loading options):
 * what a worker that --jobs forks from its loaded parent runs (dist.h). It makes its own
 * solver; prog stays the caller's. With prog NULL, run_main. */
int run_main_loaded(int argc, char **argv, ir_program *prog);

/* Loads o's program as symq run does (inputs or --prebuilt, runtime, passes; main present),
 * making no solver and no thread: NULL after one line on stderr, *rc the exit status. */
ir_program *run_load_program(const run_options *o, int *rc);

/* `symq compile [-I…] [-D…] [--cflags=…] -o FILE.bc INPUT...`: the program symq run would
 * load from these inputs (compiled and linked, before the runtime and the passes), written
 * as bitcode. Returns 0, 2 (bad usage or input) or 4 (the file could not be written). */
extern const opt_command compile_command;
int compile_main(int argc, char **argv);

/* Compiles and links o's inputs as symq compile does (with o's -I, -D and --cflags) and
 * writes the module to `path`: 0, or the exit status (2 an input that cannot be compiled, 4
 * the file cannot be written) after one line on stderr. */
int run_write_program(const run_options *o, const char *path);
#endif
