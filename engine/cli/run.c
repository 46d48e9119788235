/*
 * run.c — `symq run [options] FILE.c|FILE.bc|FILE.ll [-- ARGS]`: load and decode the
 * program, explore it, and write the output directory (tests as paths end; info and
 * stats.json at the start and the end). Bad usage or input: one line, exit status 2.
 */
#include "engine/cli/run.h"

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/core/bitcode.h"
#include "engine/core/expr.h"
#include "engine/exec/interp.h"
#include "engine/core/ir.h"
#include "engine/core/memory.h"
#include "engine/out/output.h"
#include "engine/exec/search.h"
#include "engine/out/testcomp.h"
#include "engine/core/version.h"
#include "engine/core/xalloc.h"
#include "qsolver/qsolver.h"

enum { MAX_LIST = 64 };

typedef struct run_options {
  const char *input;
  const char *output_dir;
  search_kind search[MAX_LIST];
  size_t nsearch;
  const char *include_dirs[MAX_LIST];
  size_t n_include_dirs;
  const char *cflags[MAX_LIST];
  size_t n_cflags;
  uint64_t seed;
  double max_time_s;
  double max_load_time_s; /* 0: bitcode's default */
  uint64_t max_load_memory_mb; /* 0: bitcode's default */
  uint64_t max_instructions, max_forks, max_memory_mb, max_pointer_objects, capacity;
  unsigned solver_timeout_ms;
  bool emit_all_errors, optimize, write_smt2s, trace, no_runtime;
  const char *passes; /* --passes: NULL keeps bitcode's default pipeline */
  interp_merge merge;
  pat_limits pat_limits;
  interp_merge_loops merge_loops;
  bool tests_per_merge_one, validate_merges, dump_tree;
  bool incremental_merge;
  qs_fallback qsolver_fallback;
  bool validate_qsolver, no_qsolver_procedure, no_qsolver_relax;
  int qsolver_timeout_ms; /* -1: the --solver-timeout */
  bool testcomp;
  const char *testcomp_property;
  int progress; /* -1: when stderr is a terminal */
  int program_argc;
  const char **program_argv;
} run_options;

static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

/* Out of memory ends the run in xalloc_oom, wherever the allocation failed: this handler
 * only writes the `info` prepared when the run started (Status: failed (out of memory)),
 * which allocates nothing, so the output directory says why the run stopped. The tests
 * written before are whole already (each is renamed into place complete). */
static out_dir *oom_out;
static char *oom_info;
static size_t oom_info_len;

static void on_oom(void) {
  out_sync(oom_out);
  out_write_file(oom_out, "info", oom_info, oom_info_len);
}

static int usage_error(const char *fmt, const char *what) {
  fputs("symq: error: ", stderr);
  fprintf(stderr, fmt, what);
  fputs(" (try 'symq run --help')\n", stderr);
  return 2;
}

static void run_usage(FILE *f) {
  fputs("usage: symq run [options] FILE.c|FILE.bc|FILE.ll [-- ARGS...]\n"
        "  --output-dir=DIR        where tests go (default: symq-out-N, linked by symq-last)\n"
        "  --search=NAME           dfs, bfs, random-state, random-path, nurs:covnew;\n"
        "                          repeat to interleave (default: dfs)\n"
        "  --seed=N                seed of the random searchers (default 0)\n"
        "  --max-time=TIME         stop after TIME (e.g. 30, 30s, 5min, 1h)\n"
        "  --max-load-time=TIME    CPU time each step of loading the input (parse and\n"
        "                          verify, link, passes) may take (default 600s)\n"
        "  --max-load-memory=MB    resident memory symq may reach while LLVM loads the\n"
        "                          input (default 4096)\n"
        "  --max-instructions=N    stop after N instructions\n"
        "  --max-forks=N           stop forking after N forks\n"
        "  --max-memory=MB         stop forking at 90% of MB of memory, stop the run at MB\n"
        "  --max-pointer-objects=N a symbolic pointer forks into at most N objects\n"
        "  --capacity=N            bytes backing a symbolic-size allocation whose size has\n"
        "                          no bound on its path (default 100; the path gets size <= N)\n"
        "  --solver-timeout=TIME   per solver query (default 10s); a path whose query\n"
        "                          times out ends early (alias --max-solver-time)\n"
        "  --merge=none|cfg|pat    plain forking (default), standard state merging of the\n"
        "                          regions below, or merging by pattern with quantifiers\n"
        "  --max-candidate-patterns=N  pat: more candidate patterns in one group of states\n"
        "                          means CFG merging for it (default 20)\n"
        "  --max-patterns=N        pat: more regular partitions in one group means CFG\n"
        "                          merging for it (default 10)\n"
        "  --merge-loops=size|symbolic  loops that open a merge region: those whose branch\n"
        "                          depends on a symbolic size (default), or any symbolic one\n"
        "  --tests-per-merge=all|one  a test for every path merged (default) or only for\n"
        "                          the merged state, as KLEE does\n"
        "  --validate-merges       check every merged state against its constituents\n"
        "  --incremental-merge[=on|off]  merge a region's states into its execution tree\n"
        "                          while it grows (default off)\n"
        "  --qsolver-fallback=expand|z3|both  what answers a quantified query the procedure\n"
        "                          (strip, duplicate, repair) could not: the bounded\n"
        "                          expansion, Z3's MBQI, or the expansion then Z3 (default)\n"
        "  --qsolver-timeout=TIME  Z3's limit on a quantified query (default: --solver-timeout)\n"
        "  --qsolver-procedure=on|off  off: quantified queries go to Z3 alone (for eval/)\n"
        "  --qsolver-relax=on|off  a quantified query's part that reads arrays only at\n"
        "                          constant indices first (default on; off for eval/)\n"
        "  --validate-qsolver      re-check every quantified answer with Z3 on the expanded\n"
        "                          query; a disagreement is reported and fails the run\n"
        "  --dump-tree             write each region's execution tree (regionN.dot, .svg)\n"
        "  --emit-all-errors       a test for every error, not one per location\n"
        "  --testcomp              also write OUTDIR/test-suite (Test-Comp format 1.1)\n"
        "  --testcomp-property=PRP its <specification> (default: coverage-branches)\n"
        "  --libc=symq|none        link symq's runtime (libc model, SV-COMP functions) or not\n"
        "  --optimize              optimize the bitcode before running it\n"
        "  --passes=PIPELINE       LLVM passes run on the linked bitcode: mem2reg (the\n"
        "                          default: every branch stays a branch), klee (also\n"
        "                          simplifycfg, as KLEE does: KLEE's path counts), O1, or\n"
        "                          any pipeline text opt-14 --passes accepts\n"
        "  --write-smt2s           write every query Z3 sees to OUTDIR/smt2/\n"
        "  --[no-]progress         a live status line on stderr (default: on a terminal)\n"
        "  --trace                 print every executed instruction on stderr\n"
        "  -I DIR, -D NAME[=VAL]   passed to clang when FILE is C\n",
        f);
}

static bool parse_u64(const char *text, uint64_t *out) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 10);
  if (errno || end == text || *end || text[0] == '-') return false;
  *out = v;
  return true;
}

/* KLEE-style durations: 30, 30s, 1.5min, 2h, 500ms. */
static bool parse_duration(const char *text, double *seconds) {
  char *end;
  errno = 0;
  double v = strtod(text, &end);
  if (errno || end == text || v < 0) return false;
  double unit = 1;
  if (!*end || strcmp(end, "s") == 0) unit = 1;
  else if (strcmp(end, "ms") == 0) unit = 0.001;
  else if (strcmp(end, "min") == 0) unit = 60;
  else if (strcmp(end, "h") == 0) unit = 3600;
  else return false;
  *seconds = v * unit;
  return true;
}

/* Matches `--name=value` or `--name value`; returns the value, NULL if not this option. */
static const char *option_value(int argc, char **argv, int *i, const char *name, bool *missing) {
  size_t n = strlen(name);
  const char *a = argv[*i];
  if (strncmp(a, name, n) != 0) return NULL;
  if (a[n] == '=') return a + n + 1;
  if (a[n] != 0) return NULL;
  if (*i + 1 >= argc) {
    *missing = true;
    return NULL;
  }
  return argv[++*i];
}

static const char *merge_mode_name(interp_merge m) {
  return m == INTERP_MERGE_PAT ? "pat" : m == INTERP_MERGE_CFG ? "cfg" : "none";
}

static int parse_options(int argc, char **argv, run_options *o) {
  o->progress = -1;
  o->solver_timeout_ms = 10000;
  o->qsolver_fallback = QS_FALLBACK_BOTH;
  o->qsolver_timeout_ms = -1;
  o->capacity = 100;
  o->pat_limits = (pat_limits){.max_candidates = 20, .max_patterns = 10};
  for (int i = 2; i < argc; i++) { /* argv[0] is symq, argv[1] is run */
    const char *a = argv[i];
    const char *v;
    bool missing = false;
    double seconds;
    if (strcmp(a, "--") == 0) {
      o->program_argc = argc - i - 1;
      o->program_argv = (const char **)&argv[i + 1];
      break;
    }
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      run_usage(stdout);
      return 1;
    }
    if (a[0] != '-') {
      if (o->input) return usage_error("more than one input file ('%s')", a);
      o->input = a;
      continue;
    }
    if ((v = option_value(argc, argv, &i, "--output-dir", &missing))) {
      o->output_dir = v;
    } else if ((v = option_value(argc, argv, &i, "--search", &missing))) {
      if (o->nsearch == MAX_LIST) return usage_error("too many --search options%s", "");
      if (!search_parse(v, &o->search[o->nsearch]))
        return usage_error("unknown search strategy '%s'", v);
      o->nsearch++;
    } else if ((v = option_value(argc, argv, &i, "--seed", &missing))) {
      if (!parse_u64(v, &o->seed)) return usage_error("--seed takes a number, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-time", &missing))) {
      if (!parse_duration(v, &o->max_time_s)) return usage_error("bad --max-time '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-load-time", &missing))) {
      if (!parse_duration(v, &o->max_load_time_s) || o->max_load_time_s <= 0)
        return usage_error("bad --max-load-time '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-load-memory", &missing))) {
      if (!parse_u64(v, &o->max_load_memory_mb) || o->max_load_memory_mb == 0 ||
          o->max_load_memory_mb > (1ull << 30))
        return usage_error("bad --max-load-memory '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-instructions", &missing))) {
      if (!parse_u64(v, &o->max_instructions)) return usage_error("bad --max-instructions '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-forks", &missing))) {
      if (!parse_u64(v, &o->max_forks)) return usage_error("bad --max-forks '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-memory", &missing))) {
      if (!parse_u64(v, &o->max_memory_mb)) return usage_error("bad --max-memory '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--capacity", &missing))) {
      if (!parse_u64(v, &o->capacity) || o->capacity > (1u << 30))
        return usage_error("--capacity takes a number of bytes up to 1 GiB, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-pointer-objects", &missing))) {
      if (!parse_u64(v, &o->max_pointer_objects) || o->max_pointer_objects > UINT32_MAX)
        return usage_error("bad --max-pointer-objects '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--solver-timeout", &missing)) ||
               (v = option_value(argc, argv, &i, "--max-solver-time", &missing))) {
      if (!parse_duration(v, &seconds) || seconds > 86400)
        return usage_error("bad solver timeout '%s'", v);
      o->solver_timeout_ms = (unsigned)(seconds * 1000);
    } else if ((v = option_value(argc, argv, &i, "--qsolver-timeout", &missing))) {
      if (!parse_duration(v, &seconds) || seconds > 86400)
        return usage_error("bad --qsolver-timeout '%s'", v);
      o->qsolver_timeout_ms = (int)(seconds * 1000);
    } else if ((v = option_value(argc, argv, &i, "--qsolver-fallback", &missing))) {
      if (strcmp(v, "both") == 0) o->qsolver_fallback = QS_FALLBACK_BOTH;
      else if (strcmp(v, "expand") == 0) o->qsolver_fallback = QS_FALLBACK_EXPAND;
      else if (strcmp(v, "z3") == 0) o->qsolver_fallback = QS_FALLBACK_Z3;
      else return usage_error("--qsolver-fallback takes expand, z3 or both, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--qsolver-procedure", &missing))) {
      if (strcmp(v, "on") == 0) o->no_qsolver_procedure = false;
      else if (strcmp(v, "off") == 0) o->no_qsolver_procedure = true;
      else return usage_error("--qsolver-procedure takes on or off, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--qsolver-relax", &missing))) {
      if (strcmp(v, "on") == 0) o->no_qsolver_relax = false;
      else if (strcmp(v, "off") == 0) o->no_qsolver_relax = true;
      else return usage_error("--qsolver-relax takes on or off, not '%s'", v);
    } else if (strcmp(a, "--validate-qsolver") == 0) {
      o->validate_qsolver = true;
    } else if ((v = option_value(argc, argv, &i, "--libc", &missing))) {
      if (strcmp(v, "none") == 0) o->no_runtime = true;
      else if (strcmp(v, "symq") == 0 || strcmp(v, "klee") == 0) o->no_runtime = false;
      else return usage_error("--libc takes symq (the default) or none, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--merge", &missing))) {
      if (strcmp(v, "none") == 0) o->merge = INTERP_MERGE_NONE;
      else if (strcmp(v, "cfg") == 0) o->merge = INTERP_MERGE_CFG;
      else if (strcmp(v, "pat") == 0) o->merge = INTERP_MERGE_PAT;
      else return usage_error("--merge takes none, cfg or pat, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--max-candidate-patterns", &missing))) {
      uint64_t n;
      if (!parse_u64(v, &n) || n == 0 || n > 10000) return usage_error("bad --max-candidate-patterns '%s'", v);
      o->pat_limits.max_candidates = n;
    } else if ((v = option_value(argc, argv, &i, "--max-patterns", &missing))) {
      uint64_t n;
      if (!parse_u64(v, &n) || n == 0 || n > 10000) return usage_error("bad --max-patterns '%s'", v);
      o->pat_limits.max_patterns = n;
    } else if ((v = option_value(argc, argv, &i, "--merge-loops", &missing))) {
      if (strcmp(v, "size") == 0) o->merge_loops = INTERP_LOOPS_SIZE;
      else if (strcmp(v, "symbolic") == 0) o->merge_loops = INTERP_LOOPS_SYMBOLIC;
      else return usage_error("--merge-loops takes size or symbolic, not '%s'", v);
    } else if ((v = option_value(argc, argv, &i, "--tests-per-merge", &missing))) {
      if (strcmp(v, "all") == 0) o->tests_per_merge_one = false;
      else if (strcmp(v, "one") == 0) o->tests_per_merge_one = true;
      else return usage_error("--tests-per-merge takes all or one, not '%s'", v);
    } else if (strcmp(a, "--testcomp") == 0) {
      o->testcomp = true;
    } else if ((v = option_value(argc, argv, &i, "--testcomp-property", &missing))) {
      o->testcomp = true;
      o->testcomp_property = v;
    } else if (strcmp(a, "--incremental-merge") == 0) {
      o->incremental_merge = true;
    } else if ((v = option_value(argc, argv, &i, "--incremental-merge", &missing))) {
      if (strcmp(v, "on") == 0) o->incremental_merge = true;
      else if (strcmp(v, "off") == 0) o->incremental_merge = false;
      else return usage_error("--incremental-merge takes on or off, not '%s'", v);
    } else if (strcmp(a, "--validate-merges") == 0) {
      o->validate_merges = true;
    } else if (strcmp(a, "--dump-tree") == 0) {
      o->dump_tree = true;
    } else if (strcmp(a, "--emit-all-errors") == 0) {
      o->emit_all_errors = true;
    } else if ((v = option_value(argc, argv, &i, "--passes", &missing))) {
      o->passes = bc_pipeline_named(v);
    } else if (strcmp(a, "--optimize") == 0) {
      o->optimize = true;
    } else if (strcmp(a, "--write-smt2s") == 0) {
      o->write_smt2s = true;
    } else if (strcmp(a, "--trace") == 0) {
      o->trace = true;
    } else if (strcmp(a, "--progress") == 0) {
      o->progress = 1;
    } else if (strcmp(a, "--no-progress") == 0) {
      o->progress = 0;
    } else if (strncmp(a, "-I", 2) == 0) {
      const char *dir = a[2] ? a + 2 : (i + 1 < argc ? argv[++i] : NULL);
      if (!dir) return usage_error("%s needs a directory", a);
      if (o->n_include_dirs == MAX_LIST) return usage_error("too many -I options%s", "");
      o->include_dirs[o->n_include_dirs++] = dir;
    } else if (strncmp(a, "-D", 2) == 0) {
      const char *def = a[2] ? a : NULL;
      if (!def) return usage_error("%s needs a definition: use -DNAME[=VALUE]", a);
      if (o->n_cflags == MAX_LIST) return usage_error("too many -D options%s", "");
      o->cflags[o->n_cflags++] = def;
    } else if (missing) {
      return usage_error("option '%s' needs a value", a);
    } else {
      return usage_error("unknown option '%s'", a);
    }
    if (missing) return usage_error("option '%s' needs a value", a);
  }
  if (!o->input) return usage_error("no input file%s", "");
  return 0;
}

static double seconds_since(const struct timespec *t0) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void print_reasons(const interp_reason *reasons, size_t n) {
  for (size_t k = 0; k < n; k++)
    printf("%s%" PRIu64 " %s", k ? ", " : "", reasons[k].count, reasons[k].text);
}

/* The last line: whether the exploration was complete, and if not, why (stats.json has the
 * same reasons under early_reasons and dropped_reasons). */
static void print_verdict(const interp_result *r) {
  if (r->exhausted) {
    printf("symq: done: exploration complete\n");
    return;
  }
  printf("symq: done: exploration incomplete: %" PRIu64 " path%s ended early", r->early_paths,
         r->early_paths == 1 ? "" : "s");
  if (r->nearly_reasons) {
    printf(" (");
    print_reasons(r->early_reasons, r->nearly_reasons);
    printf(")");
  }
  if (r->ndropped_reasons) {
    printf("; alternatives not explored (");
    print_reasons(r->dropped_reasons, r->ndropped_reasons);
    printf(")");
  }
  printf("\n");
}

/* "quantified": the quantified stage's counters, under the names qsolver.h gives. */
static void write_quantified_stats(out_json *j, const qs_quant_stats *q) {
  out_json_key(j, "quantified");
  out_json_object_begin(j);
  out_json_key(j, "queries");
  out_json_uint(j, q->queries);
  out_json_key(j, "answered");
  out_json_object_begin(j);
  for (int k = 0; k < QS_QSTEP_COUNT; k++) {
    out_json_key(j, qs_qstep_name((qs_qstep)k));
    out_json_uint(j, q->answered[k]);
  }
  out_json_object_end(j);
  out_json_key(j, "unknown");
  out_json_uint(j, q->unknown);
  out_json_key(j, "seconds");
  out_json_object_begin(j);
  for (int k = 0; k < QS_QSTEP_COUNT; k++) {
    out_json_key(j, qs_qstep_name((qs_qstep)k));
    out_json_double(j, q->seconds[k]);
  }
  out_json_object_end(j);
  out_json_key(j, "disagreements");
  out_json_uint(j, q->disagreements);
  out_json_object_end(j);
}

/* key: {reason: count, …} */
static void json_reasons(out_json *j, const char *key, const interp_reason *reasons, size_t n) {
  out_json_key(j, key);
  out_json_object_begin(j);
  for (size_t k = 0; k < n; k++) {
    out_json_key(j, reasons[k].text);
    out_json_uint(j, reasons[k].count);
  }
  out_json_object_end(j);
}

static void write_stats(out_dir *out, const run_options *o, const interp_result *r,
                        const qsolver *solver, const ir_program *prog, double wall) {
  out_json j;
  out_json_init(&j);
  out_json_object_begin(&j);
  out_json_key(&j, "mode");
  out_json_string(&j, merge_mode_name(o->merge));
  out_json_key(&j, "search");
  out_json_array_begin(&j);
  if (!o->nsearch) out_json_string(&j, "dfs");
  for (size_t k = 0; k < o->nsearch; k++) out_json_string(&j, search_kind_name(o->search[k]));
  out_json_array_end(&j);
  out_json_key(&j, "completed_paths");
  out_json_uint(&j, r->completed_paths);
  out_json_key(&j, "error_paths");
  out_json_uint(&j, r->error_paths);
  out_json_key(&j, "early_paths");
  out_json_uint(&j, r->early_paths);
  json_reasons(&j, "early_reasons", r->early_reasons, r->nearly_reasons);
  json_reasons(&j, "dropped_reasons", r->dropped_reasons, r->ndropped_reasons);
  out_json_key(&j, "quiet_paths");
  out_json_uint(&j, r->quiet_paths);
  out_json_key(&j, "tests");
  out_json_uint(&j, r->tests);
  out_json_key(&j, "tests_lost");
  out_json_uint(&j, r->tests_lost);
  out_json_key(&j, "instructions");
  out_json_uint(&j, r->instructions);
  out_json_key(&j, "forks");
  out_json_uint(&j, r->forks);
  out_json_key(&j, "states_max");
  out_json_uint(&j, r->states_max);
  out_json_key(&j, "concretized");
  out_json_uint(&j, r->concretized);
  out_json_key(&j, "capacity_bounded");
  out_json_uint(&j, r->capacity_bounded);

  double solver_seconds = 0;
  for (size_t k = 0; k < qs_stage_count(solver); k++) solver_seconds += qs_stage_at(solver, k)->seconds;
  out_json_key(&j, "queries");
  out_json_uint(&j, qs_stage_count(solver) ? qs_stage_at(solver, 0)->queries : 0);
  out_json_key(&j, "queries_by_stage");
  out_json_object_begin(&j);
  for (size_t k = 0; k < qs_stage_count(solver); k++) {
    const qs_stage_stats *st = qs_stage_at(solver, k);
    out_json_key(&j, st->name);
    out_json_object_begin(&j);
    out_json_key(&j, "queries");
    out_json_uint(&j, st->queries);
    out_json_key(&j, "answered");
    out_json_uint(&j, st->answered);
    out_json_key(&j, "sat");
    out_json_uint(&j, st->sat);
    out_json_key(&j, "unsat");
    out_json_uint(&j, st->unsat);
    out_json_key(&j, "unknown");
    out_json_uint(&j, st->unknown);
    out_json_key(&j, "seconds");
    out_json_double(&j, st->seconds);
    out_json_key(&j, "slowest_s");
    out_json_double(&j, st->slowest_seconds);
    out_json_key(&j, "over_1s");
    out_json_uint(&j, st->over_1s);
    if (k + 1 == qs_stage_count(solver)) { /* Z3, as qs_write_stats_json writes it */
      out_json_key(&j, "in_integers");
      out_json_uint(&j, st->in_integers);
    }
    out_json_object_end(&j);
  }
  out_json_object_end(&j);
  write_quantified_stats(&j, qs_quant_stats_of(solver));
  out_json_key(&j, "solver_time_s");
  out_json_double(&j, solver_seconds);
  /* The first stage sees every query whole. */
  const qs_stage_stats *whole = qs_stage_count(solver) ? qs_stage_at(solver, 0) : NULL;
  out_json_key(&j, "slowest_query_s");
  out_json_double(&j, whole ? whole->slowest_seconds : 0);
  out_json_key(&j, "queries_over_1s");
  out_json_uint(&j, whole ? whole->over_1s : 0);
  out_json_key(&j, "wall_time_s");
  out_json_double(&j, wall);
  out_json_key(&j, "exploration_time_s"); /* what --max-time bounds */
  out_json_double(&j, r->exploration_time_s);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  out_json_key(&j, "peak_memory_mb");
  out_json_uint(&j, (uint64_t)ru.ru_maxrss / 1024);
  out_json_key(&j, "exhausted");
  out_json_bool(&j, r->exhausted);
  out_json_key(&j, "covered_lines");
  out_json_uint(&j, r->covered_lines);
  out_json_key(&j, "total_lines");
  out_json_uint(&j, r->total_lines);
  out_json_key(&j, "merge");
  merge_stats_json(&j, &r->merge);
  expr_stats es = expr_get_stats();
  out_json_key(&j, "expressions");
  out_json_object_begin(&j);
  out_json_key(&j, "created");
  out_json_uint(&j, es.created);
  out_json_key(&j, "interned_hits");
  out_json_uint(&j, es.interned_hits);
  out_json_key(&j, "folded");
  out_json_uint(&j, es.folded);
  out_json_key(&j, "rewrites");
  out_json_uint(&j, es.rewrites);
  out_json_object_end(&j);
  mem_stats ms = mem_get_stats();
  out_json_key(&j, "memory");
  out_json_object_begin(&j);
  out_json_key(&j, "copies_on_write");
  out_json_uint(&j, ms.copies_on_write);
  out_json_key(&j, "symbolic_reads");
  out_json_uint(&j, ms.symbolic_reads);
  out_json_key(&j, "symbolic_writes");
  out_json_uint(&j, ms.symbolic_writes);
  out_json_object_end(&j);
  out_json_key(&j, "decoded");
  out_json_object_begin(&j);
  out_json_key(&j, "instructions");
  out_json_uint(&j, prog->stats.instructions);
  out_json_key(&j, "unsupported_instructions");
  out_json_uint(&j, prog->stats.unsupported);
  out_json_object_end(&j);
  out_json_object_end(&j);
  if (out_write_stats(out, &j) != 0) fprintf(stderr, "symq: error: %s\n", out_error(out));
  out_json_free(&j);
}

/* info's key: value lines: what `symq replay` needs to rebuild the driver natively. Writes
 * `info`, or with `prepared` set returns its text in *prepared (*len bytes) unwritten. */
static int write_info(out_dir *out, int argc, char **argv, time_t start, time_t end,
                      const char *status, const run_options *o, char **prepared,
                      size_t *len) {
  char version[128];
  FILE *f = fmemopen(version, sizeof version, "w");
  if (f) {
    symq_print_version(f);
    fclose(f);
    version[strcspn(version, "\n")] = 0;
  } else {
    snprintf(version, sizeof version, "symq");
  }
  char *input = realpath(o->input, NULL);
  char *cwd = getcwd(NULL, 0);
  /* the flags as given; relative -I directories are relative to `cwd` */
  char *cflags = NULL;
  size_t cflags_len = 0;
  FILE *f2 = xopen_memstream(&cflags, &cflags_len);
  for (size_t k = 0; k < o->n_include_dirs; k++)
    fprintf(f2, "%s-I%s", ftell(f2) ? " " : "", o->include_dirs[k]);
  for (size_t k = 0; k < o->n_cflags; k++) fprintf(f2, "%s%s", ftell(f2) ? " " : "", o->cflags[k]);
  fclose(f2);
  out_kv kv[] = {{"input", input ? input : o->input},
                 {"cwd", cwd ? cwd : ""},
                 {"cflags", cflags},
                 {"runtime", o->no_runtime ? "none" : "symq"},
                 {"mode", merge_mode_name(o->merge)}};
  out_info info = {.argc = argc, .argv = (const char *const *)argv, .version = version,
                   .start = start, .end = end, .status = status, .kv = kv,
                   .num_kv = sizeof kv / sizeof *kv};
  int rc = 0;
  if (prepared)
    rc = (*prepared = out_format_info(&info, len)) ? 0 : -1;
  else
    rc = out_write_info(out, &info);
  free(input);
  free(cwd);
  free(cflags);
  return rc;
}

int run_main(int argc, char **argv) {
  run_options o = {0};
  int rc = parse_options(argc, argv, &o);
  if (rc) return rc == 1 ? 0 : rc;

  char *testcomp_spec = NULL; /* read first: a bad .prp path is a usage error */
  if (o.testcomp_property) {
    char terr[512];
    if (!(testcomp_spec = testcomp_read_spec(o.testcomp_property, terr, sizeof terr))) {
      fprintf(stderr, "symq: error: %s\n", terr);
      return 2;
    }
  }
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  time_t start = time(NULL);

  const char *includes[MAX_LIST + 1];
  includes[0] = SYMQ_SOURCE_DIR "/runtime/include";
  for (size_t k = 0; k < o.n_include_dirs; k++) includes[k + 1] = o.include_dirs[k];
  /* symq's runtime (libc model, SV-COMP functions) when it was built */
  const char *runtime[] = {SYMQ_RUNTIME_BC};
  bool link_runtime = !o.no_runtime && access(SYMQ_RUNTIME_BC, R_OK) == 0;
  /* what the interpreter's life cycle calls by name, with no call in the program (interp.c,
   * plan_lifecycle): linked even when the program reaches neither */
  const char *lifecycle[] = {"exit", "atexit"};
  bc_options bo = {.include_dirs = includes, .n_include_dirs = o.n_include_dirs + 1,
                   .cflags = o.cflags, .n_cflags = o.n_cflags, .optimize = o.optimize,
                   .passes = o.passes, .link = runtime, .n_link = link_runtime ? 1 : 0,
                   .keep = lifecycle, .n_keep = 2};
  bc_error berr = {0};
  bc_max_load_seconds = o.max_load_time_s;
  bc_max_load_mb = (unsigned long)o.max_load_memory_mb;
  /* The solver is built while clang compiles a .c input (bc_load_start spawned it; it runs
   * on another core): Z3's context alone takes 65-80 ms, which would otherwise come after
   * clang's run. Its dump directory is named once the output directory exists. */
  qsolver *solver = NULL;
  ir_program *prog = NULL;
  out_dir *out = NULL;
  bc_pending *loading = bc_load_start(o.input, &bo, &berr);
  if (loading) {
    qs_options qo = qs_default_options();
    qo.timeout_ms = o.solver_timeout_ms;
    qo.quant_timeout_ms =
        o.qsolver_timeout_ms < 0 ? o.solver_timeout_ms : (unsigned)o.qsolver_timeout_ms;
    qo.fallback = o.qsolver_fallback;
    qo.validate_quantified = o.validate_qsolver;
    qo.quantified = !o.no_qsolver_procedure;
    qo.relax = !o.no_qsolver_relax;
    solver = qs_new(&qo);
  }
  bc_module *module = loading ? bc_load_finish(loading, &berr) : NULL;
  if (!module) {
    /* one line: it names the file and the first problem (clang's first diagnostic) */
    fprintf(stderr, "%s\n", berr.message ? berr.message : "symq: error: cannot load input");
    bc_error_clear(&berr);
    rc = 2;
    goto not_run;
  }
  char *derr = NULL;
  prog = ir_decode(module->module, &derr);
  bc_free(module);
  if (!prog) {
    fprintf(stderr, "symq: error: %s: %s\n", o.input, derr ? derr : "cannot decode");
    free(derr);
    rc = 2;
    goto not_run;
  }
  if (ir_find_function(prog, "main") == IR_NONE) {
    fprintf(stderr, "symq: error: %s: no main function\n", o.input);
    rc = 2;
    goto not_run;
  }

  char err[512];
  out = out_open(o.output_dir, err, sizeof err);
  if (!out) {
    fprintf(stderr, "symq: error: %s\n", err);
    rc = 1;
    goto not_run;
  }
  if (out_warning(out)) fprintf(stderr, "symq: warning: %s\n", out_warning(out));
  /* before the first info: from then on, one that says "running" is a running symq's */
  if (write_info(out, argc, argv, start, 0, "failed (out of memory)", &o, &oom_info,
                 &oom_info_len) == 0) {
    oom_out = out;
    xalloc_on_oom(on_oom);
  }
  const char *program_path = o.input;
  const char **pargv = xcalloc((size_t)o.program_argc + 2, sizeof *pargv);
  pargv[0] = program_path;
  for (int k = 0; k < o.program_argc; k++) pargv[k + 1] = o.program_argv[k];
  out_set_args(out, o.program_argc + 1, pargv);
  write_info(out, argc, argv, start, 0, NULL, &o, NULL, NULL);
  fprintf(stderr, "symq: output directory is \"%s\"\n", out_path(out));
  if (o.write_smt2s) {
    char *smt2_dir = xasprintf("%s/smt2", out_path(out));
    qs_set_smt2_dir(solver, smt2_dir);
    free(smt2_dir);
  }

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  interp_options io = {.search = o.search, .nsearch = o.nsearch, .seed = o.seed,
                       .max_time_s = o.max_time_s, .solver_timeout_ms = o.solver_timeout_ms,
                       .max_instructions = o.max_instructions,
                       .max_forks = o.max_forks, .max_memory_mb = o.max_memory_mb,
                       .max_pointer_objects = (uint32_t)o.max_pointer_objects,
                       .capacity = o.capacity, .merge = o.merge, .pat_limits = o.pat_limits,
                       .merge_loops = o.merge_loops,
                       .tests_per_merge_all = !o.tests_per_merge_one,
                       .validate_merges = o.validate_merges, .dump_tree = o.dump_tree,
                       .incremental_merge = o.incremental_merge,
                       .emit_all_errors = o.emit_all_errors, .argc = o.program_argc + 1,
                       .argv = pargv, .interrupted = &interrupted,
                       .progress = o.progress < 0 ? isatty(STDERR_FILENO) : o.progress,
                       .trace = o.trace};
  interp_result result;
  rc = interp_run(prog, &io, solver, out, &result);
  if (rc != 0) {
    fprintf(stderr, "symq: error: %s: %s\n", o.input, result.error);
    rc = 2;
  } else {
    write_stats(out, &o, &result, solver, prog, seconds_since(&t0));
    write_info(out, argc, argv, start, time(NULL), NULL, &o, NULL, NULL);
    if (o.testcomp) { /* before the done lines: the last line on stdout stays the summary */
      char terr[512];
      if (testcomp_write_suite(out_path(out), o.input, testcomp_spec, terr, sizeof terr) != 0) {
        fprintf(stderr, "symq: error: test suite: %s\n", terr);
        rc = 1;
      }
    }
    printf("symq: done: total instructions = %" PRIu64 "\n", result.instructions);
    printf("symq: done: completed paths = %" PRIu64 ", error paths = %" PRIu64
           ", generated tests = %" PRIu64 "\n",
           result.completed_paths, result.error_paths, result.tests);
    print_verdict(&result);
    uint64_t disagreements = qs_quant_stats_of(solver)->disagreements;
    if (disagreements) {
      fprintf(stderr, "symq: error: %" PRIu64 " quantified answers disagreed with Z3 on the "
              "expanded query\n", disagreements);
      rc = 1;
    }
    if (result.merge.validation_failures) {
      fprintf(stderr, "symq: error: %" PRIu64 " merged states failed validation\n",
              result.merge.validation_failures);
      rc = 1;
    }
  }
  interp_result_free(&result);
  free(pargv);
not_run:
  ir_free(prog);
  qs_free(solver);
  free(testcomp_spec);
  /* releasing memory can allocate (expr's release stack): the handler stays till here */
  xalloc_on_oom(NULL);
  free(oom_info);
  oom_info = NULL;
  oom_out = NULL;
  out_close(out);
  return rc;
}
