/*
 * run.c — `symq run [options] FILE.c|FILE.bc|FILE.ll [-- ARGS]`: load and decode the
 * program, explore it, and write the output directory (tests as paths end; info and
 * stats.json at the start and the end). Bad usage or input: one line, exit status 2.
 */
#include "engine/cli/run.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "engine/cli/dist.h"
#include "engine/core/bitcode.h"
#include "engine/core/expr.h"
#include "engine/exec/interp.h"
#include "engine/exec/interp_stats.h"
#include "engine/exec/part.h"
#include "engine/core/ir.h"
#include "engine/core/memory.h"
#include "engine/out/output.h"
#include "engine/exec/search.h"
#include "engine/out/testcomp.h"
#include "prune/prune.h"
#include "prune/svcomp.h"
#include "engine/core/version.h"
#include "engine/core/xalloc.h"
#include "qsolver/qsolver.h"

static volatile sig_atomic_t interrupted, pipe_closed;

/* SIGINT, SIGTERM and SIGPIPE (a reader of stdout or stderr went away) halt the run: the
 * states left end early with their tests, as under --max-time. */
static void on_signal(int sig) {
  if (sig == SIGPIPE) pipe_closed = 1;
  interrupted = 1;
}

/* --exit-on-error-type: one kind each, KLEE's spelling or symq's. */
static bool parse_error_kind(const char *text, void *elem) {
  const char *kind = interp_error_kind(text);
  if (kind) *(const char **)elem = kind;
  return kind != NULL;
}

static bool parse_search(const char *text, void *kind) { return search_parse(text, kind); }

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

static const opt_choice PRUNE_MODES[] = {
    {"none", PRUNE_MODE_NONE}, {"deletion", PRUNE_MODE_DELETION}, {"wp", PRUNE_MODE_WP}, {NULL, 0}};
static const opt_choice MERGE_MODES[] = {
    {"none", MERGE_MODE_NONE}, {"cfg", MERGE_MODE_CFG}, {"pat", MERGE_MODE_PAT}, {NULL, 0}};
static const opt_choice MERGE_LOOPS[] = {{"size", MERGE_LOOPS_SIZE},
                                         {"decoded", MERGE_LOOPS_DECODED},
                                         {"symbolic", MERGE_LOOPS_SYMBOLIC},
                                         {NULL, 0}};
static const opt_choice PAT_FALLBACKS[] = {
    {"fork", MERGE_FALLBACK_FORK}, {"cfg", MERGE_FALLBACK_CFG}, {NULL, 0}};
static const opt_choice MERGE_DECIDES[] = {
    {"cost", MERGE_DECIDE_COST}, {"always", MERGE_DECIDE_ALWAYS}, {NULL, 0}};
static const opt_choice TESTS_PER_MERGE[] = {{"all", true}, {"one", false}, {NULL, 0}};
static const opt_choice FALLBACKS[] = {
    {"expand", QS_FALLBACK_EXPAND}, {"z3", QS_FALLBACK_Z3}, {"both", QS_FALLBACK_BOTH}, {NULL, 0}};
static const opt_choice EXTERNAL_CALLS[] = {{"none", INTERP_EXTERNAL_NONE},
                                            {"concrete", INTERP_EXTERNAL_CONCRETE},
                                            {"all", INTERP_EXTERNAL_ALL},
                                            {NULL, 0}};
/* into no_runtime; klee (KLEE's own --libc=klee) is taken as symq's runtime, unlisted */
static const opt_choice LIBCS[] = {{"symq", false}, {"klee", false}, {"none", true}, {NULL, 0}};

#define RUN(member) OPT_FIELD(run_options, member)

/* How C inputs are compiled: symq run's options, and symq compile's. */
// clang-format off
#define RUN_COMPILE_SPECS                                                                  \
  {.name = "-I",                                                                           \
   .type = OPT_LIST,                                                                       \
   .arg = "DIR",                                                                           \
   OPT_LIST_OF(run_options, include_dirs, n_include_dirs),                                 \
   .missing = "%s needs a directory",                                                      \
   .topic = OPT_TOPIC_INPUT,                                                               \
   .help = "passed to clang for the C inputs"},                                            \
  {.name = "-D",                                                                           \
   .type = OPT_LIST,                                                                       \
   .arg = "NAME[=VAL]",                                                                    \
   .joined = true,                                                                         \
   .keep_arg = true,                                                                       \
   OPT_LIST_OF(run_options, cflags, n_cflags),                                             \
   .missing = "%s needs a definition: use -DNAME[=VALUE]",                                 \
   .topic = OPT_TOPIC_INPUT,                                                               \
   .help = "passed to clang for the C inputs"},                                            \
  {.name = "--cflags",                                                                     \
   .type = OPT_LIST,                                                                       \
   .arg = "FLAGS",                                                                         \
   OPT_LIST_OF(run_options, cflags_text, n_cflags_text),                                   \
   .topic = OPT_TOPIC_INPUT,                                                               \
   .help = "more flags for clang on every C input, split at blanks (--cflags='-std=c99 "   \
           "-DNDEBUG'); recorded, with -I and -D, for symq replay and cov, which give them " \
           "to gcc"}
// clang-format on

static const opt_spec RUN_SPECS[] = {
    /* ---- input and compilation ---- */
    {.name = "--libc",
     .type = OPT_ENUM,
     .arg = "symq|none",
     RUN(no_runtime),
     .choices = LIBCS,
     .bad = "--libc takes symq (the default) or none, not '%s'",
     .topic = OPT_TOPIC_INPUT,
     .help = "link symq's runtime (libc model, SV-COMP functions) or not"},
    {.name = "--optimize",
     .type = OPT_FLAG,
     RUN(optimize),
     .topic = OPT_TOPIC_INPUT,
     .help = "optimize the bitcode before running it"},
    {.name = "--passes",
     .type = OPT_STRING,
     .arg = "PIPELINE",
     RUN(passes),
     .topic = OPT_TOPIC_INPUT,
     .help = "LLVM passes run on the linked bitcode: mem2reg (the default: every branch stays "
             "a branch), klee (also simplifycfg, as KLEE does: KLEE's path counts), O1, or any "
             "pipeline text opt-14 --passes accepts"},
    RUN_COMPILE_SPECS,
    {.name = "--max-load-time",
     .type = OPT_TIME,
     .arg = "TIME",
     RUN(max_load_time_s),
     .nonzero = true,
     .topic = OPT_TOPIC_INPUT,
     .help = "CPU time each step of loading the input (parse and verify, link, passes) may "
             "take (default 600s)"},
    {.name = "--max-load-memory",
     .type = OPT_UINT,
     .arg = "MB",
     RUN(max_load_memory_mb),
     .nonzero = true,
     .max = 1ull << 30,
     .topic = OPT_TOPIC_INPUT,
     .help = "resident memory symq may reach while LLVM loads the input (default 4096)"},
    /* ---- output ---- */
    {.name = "--output-dir",
     .type = OPT_STRING,
     .arg = "DIR",
     RUN(output_dir),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "where tests go (default: symq-out-N, linked by symq-last)"},
    {.name = "--emit-all-errors",
     .type = OPT_FLAG,
     RUN(interp.emit_all_errors),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "a test for every error, not one per location"},
    {.name = "--only-output-states-covering-new",
     .type = OPT_FLAG,
     RUN(interp.only_covering_new),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "a test only for a path that covered an instruction no path had covered before "
             "(KLEE's option); a path that found an error always gets its test"},
    {.name = "--max-tests",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.max_tests),
     .nonzero = true,
     .topic = OPT_TOPIC_OUTPUT,
     .help = "stop the run after N tests: the states left end early without a test and the "
             "exploration is incomplete"},
    {.name = "--exit-on-error",
     .type = OPT_FLAG,
     RUN(interp.exit_on_error),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "stop the run at the first error reported (its test is written; the states left "
             "end early with a test); exit status 1"},
    {.name = "--exit-on-error-type",
     .type = OPT_LIST,
     .arg = "KIND",
     OPT_LIST_OF(run_options, interp.exit_on_error_kinds, interp.nexit_on_error_kinds),
     .convert = parse_error_kind,
     .bad = "unknown error kind '%s' (kinds: " INTERP_ERROR_KINDS ")",
     .topic = OPT_TOPIC_OUTPUT,
     .help = "as --exit-on-error, for the first error of KIND only (" INTERP_ERROR_KINDS
             "; KLEE's spellings too, e.g. Ptr, ReadOnly); repeat for several kinds"},
    {.name = "--testcomp",
     .type = OPT_FLAG,
     RUN(testcomp),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "also write OUTDIR/test-suite (Test-Comp format 1.1)"},
    {.name = "--testcomp-property",
     .type = OPT_STRING,
     .arg = "PRP",
     RUN(testcomp_property),
     OPT_GIVEN(run_options, testcomp),
     .topic = OPT_TOPIC_OUTPUT,
     .help = "its <specification> (default: coverage-branches)"},
    /* ---- search and limits ---- */
    {.name = "--search",
     .type = OPT_LIST,
     .arg = "NAME",
     OPT_LIST_OF(run_options, interp.search, interp.nsearch),
     .convert = parse_search,
     .bad = "unknown search strategy '%s'",
     .topic = OPT_TOPIC_SEARCH,
     .help = "dfs, bfs, random-state, random-path, nurs:covnew; repeat to interleave "
             "(default: dfs)"},
    {.name = "--seed",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.seed),
     .bad = "--seed takes a number, not '%s'",
     .topic = OPT_TOPIC_SEARCH,
     .help = "seed of the random searchers (default 0)"},
    {.name = "--merge-fast-forward",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.fast_forward),
     .def = "64",
     .max = UINT32_MAX,
     .topic = OPT_TOPIC_SEARCH,
     .help = "with --merge and a searcher other than dfs: up to N selections in a row go to "
             "states inside an open merge region, so its states meet at its exits and merge "
             "(dynamic state merging); then one goes to the searcher (0: off; default 64)"},
    {.name = "--max-time",
     .type = OPT_TIME,
     .arg = "TIME",
     RUN(interp.max_time_s),
     .topic = OPT_TOPIC_SEARCH,
     .help = "stop after TIME (e.g. 30, 30s, 5min, 1h)"},
    {.name = "--max-instructions",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.max_instructions),
     .topic = OPT_TOPIC_SEARCH,
     .help = "stop after N instructions"},
    {.name = "--max-forks",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.max_forks),
     .topic = OPT_TOPIC_SEARCH,
     .help = "stop forking after N forks"},
    {.name = "--max-memory",
     .type = OPT_UINT,
     .arg = "MB",
     RUN(interp.max_memory_mb),
     .topic = OPT_TOPIC_SEARCH,
     .help = "stop forking at 90% of MB of memory, stop the run at MB"},
    {.name = "--max-pointer-objects",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.max_pointer_objects),
     .max = UINT32_MAX,
     .topic = OPT_TOPIC_SEARCH,
     .help = "a symbolic pointer forks into at most N objects"},
    {.name = "--capacity",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.capacity),
     .def = "100",
     .max = 1u << 30,
     .bad = "--capacity takes a number of bytes up to 1 GiB, not '%s'",
     .topic = OPT_TOPIC_SEARCH,
     .help = "bytes backing a symbolic-size allocation whose size has no bound on its path "
             "(default 100; the path gets size <= N)"},
    /* ---- one exploration in parts (engine/exec/part.h, engine/cli/dist.h) ---- */
    {.name = "--split",
     .type = OPT_UINT,
     .arg = "N",
     RUN(split),
     .nonzero = true,
     .max = 1u << 20,
     .topic = OPT_TOPIC_SEARCH,
     .help = "explore breadth-first until N states may be handed off, write each as "
             "OUTDIR/part-NNNN.part and stop them; the paths that ended are this run's "
             "tests, every other path is under exactly one part"},
    {.name = "--part",
     .type = OPT_STRING,
     .arg = "FILE",
     RUN(part_file),
     .topic = OPT_TOPIC_SEARCH,
     .help = "explore only the part FILE (written by --split for this program and options): "
             "follow its fork decisions, then explore the subtree under them"},
    {.name = "--jobs",
     .type = OPT_UINT,
     .arg = "N",
     RUN(jobs),
     .nonzero = true,
     .max = 4096,
     .topic = OPT_TOPIC_SEARCH,
     .help = "split the exploration into 8N parts and run them on N local processes, then "
             "merge their outputs into OUTDIR (as symq merge-out); --max-time bounds the "
             "whole run"},
    {.name = "--sshlogin",
     .type = OPT_STRING,
     .arg = "HOSTS",
     RUN(sshlogin),
     .topic = OPT_TOPIC_SEARCH,
     .help = "as --jobs, the parts run by GNU parallel --sshlogin HOSTS (each host needs "
             "symq and the inputs at the same paths, and the output directory shared); "
             "--jobs N then gives the processes per host (default 1); 8 parts per process"},
    {.name = "--prebuilt",
     .type = OPT_STRING,
     .arg = "FILE.bc",
     RUN(prebuilt),
     .topic = OPT_TOPIC_SEARCH,
     .help = "load the program from FILE.bc, compiled from the same inputs and options by "
             "--jobs (FILE.bc.key holds their key: another is refused), instead of compiling "
             "the inputs; the run records the inputs as without it"},
    /* ---- merging ---- */
    {.name = "--merge",
     .type = OPT_ENUM,
     .arg = "none|cfg|pat",
     RUN(interp.merge.mode),
     OPT_GIVEN(run_options, merge_given),
     .choices = MERGE_MODES,
     .topic = OPT_TOPIC_MERGING,
     .help = "plain forking, standard state merging of the regions below, or merging by "
             "pattern with quantifiers (the default, but under --interpolate: none)"},
    {.name = "--max-candidate-patterns",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.merge.pat.max_candidates),
     .def = "20",
     .nonzero = true,
     .max = 10000,
     .topic = OPT_TOPIC_MERGING,
     .help = "pat: a group of states with more candidate patterns is not merged by pattern "
             "(default 20; see --pat-fallback)"},
    {.name = "--max-patterns",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.merge.pat.max_patterns),
     .def = "10",
     .nonzero = true,
     .max = 10000,
     .topic = OPT_TOPIC_MERGING,
     .help = "pat: a group with more regular partitions is not merged by pattern (default "
             "10; see --pat-fallback)"},
    {.name = "--pat-fallback",
     .type = OPT_ENUM,
     .arg = "fork|cfg",
     RUN(interp.merge.pat_fallback),
     .def = "cfg",
     .choices = PAT_FALLBACKS,
     .topic = OPT_TOPIC_MERGING,
     .help = "pat: states it cannot merge by pattern continue forked, or are merged the CFG way "
             "where the merge decision says it pays (default)"},
    {.name = "--merge-decide",
     .type = OPT_ENUM,
     .arg = "cost|always",
     RUN(interp.merge.decide),
     .choices = MERGE_DECIDES,
     .topic = OPT_TOPIC_MERGING,
     .help = "pat: merge only where the query-count estimate says it pays (default), or "
             "always"},
    {.name = "--max-region-states",
     .type = OPT_UINT,
     .arg = "N",
     RUN(interp.merge.max_waiting),
     .def = "4096",
     .max = UINT32_MAX,
     .topic = OPT_TOPIC_MERGING,
     .help = "a merge region with more than N states waiting at its exits (under "
             "--incremental-merge, or for their turn), or whose tree is "
             "estimated to end with more, gives up: they continue forked, as its later "
             "leavers do (0: no limit; default 4096)"},
    {.name = "--merge-loops",
     .type = OPT_ENUM,
     .arg = "size|decoded|symbolic",
     RUN(interp.merge.loops),
     .choices = MERGE_LOOPS,
     .topic = OPT_TOPIC_MERGING,
     .help = "loops that open a merge region: those whose branch depends on a symbolic size "
             "(default), those and the ones bounded by a length decoded from the input, or "
             "any symbolic one"},
    {.name = "--tests-per-merge",
     .type = OPT_ENUM,
     .arg = "all|one",
     RUN(interp.merge.tests_per_merge_all),
     .def = "all",
     .choices = TESTS_PER_MERGE,
     .topic = OPT_TOPIC_MERGING,
     .help = "a test for every path merged (default) or only for the merged state, as KLEE "
             "does"},
    {.name = "--incremental-merge",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     .implicit = "on",
     RUN(interp.merge.incremental),
     OPT_GIVEN(run_options, incremental_given),
     .topic = OPT_TOPIC_MERGING,
     .help = "merge a region's states into its execution tree while it grows (default on under "
             "--merge=pat without --interpolate, off otherwise; off under pat: plain PAT, "
             "merging at the exits only)"},
    {.name = "--interpolate",
     .type = OPT_ENUM,
     .arg = "deletion|wp",
     .implicit = "deletion",
     RUN(interp.prune.mode),
     .choices = PRUNE_MODES,
     .topic = OPT_TOPIC_SEARCH,
     .help = "verification mode: prune a state whose context implies the interpolant of a "
             "finished subtree at the same point (TracerX; deletion or weakest-precondition "
             "interpolants; dfs, forking or merging); pruned subtrees get no tests; ends with a "
             "verdict line"},
    /* ---- solver ---- */
    {.name = "--solver-timeout",
     .alias = "--max-solver-time",
     .type = OPT_TIME_MS,
     .arg = "TIME",
     RUN(solver.timeout_ms),
     .def = "10s",
     .max = 86400,
     .bad = "bad solver timeout '%s'",
     .topic = OPT_TOPIC_SOLVER,
     .help = "per solver query (default 10s); a path whose query times out ends early (alias "
             "--max-solver-time)"},
    {.name = "--z3-seed",
     .type = OPT_UINT,
     .arg = "N",
     RUN(solver.z3_seed),
     .def = "0",
     .max = UINT32_MAX,
     .topic = OPT_TOPIC_SOLVER,
     .help = "Z3's random seed on every solver (default 0, Z3's own); another seed changes "
             "the effort Z3 spends and may change its models, never sat into unsat: runs under "
             "several seeds tell noise in a comparison from cost"},
    {.name = "--qsolver-fallback",
     .type = OPT_ENUM,
     .arg = "expand|z3|both",
     RUN(solver.fallback),
     .def = "both",
     .choices = FALLBACKS,
     .topic = OPT_TOPIC_SOLVER,
     .help = "what answers a quantified query the procedure (strip, duplicate, repair) could "
             "not: the bounded expansion, Z3's MBQI, or the expansion then Z3 (default)"},
    {.name = "--qsolver-timeout",
     .type = OPT_TIME_MS,
     .arg = "TIME",
     RUN(solver.quant_timeout_ms),
     OPT_GIVEN(run_options, qsolver_timeout_given),
     .max = 86400,
     .topic = OPT_TOPIC_SOLVER,
     .help = "Z3's limit on a quantified query (default: --solver-timeout)"},
    {.name = "--qsolver-procedure",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     RUN(solver.quantified),
     .def = "on",
     .topic = OPT_TOPIC_SOLVER,
     .eval_only = true,
     .help = "off: quantified queries go to Z3 alone (for eval/)"},
    {.name = "--qsolver-relax",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     RUN(solver.relax),
     .def = "on",
     .topic = OPT_TOPIC_SOLVER,
     .eval_only = true,
     .help = "a quantified query's part that reads arrays only at constant indices first "
             "(default on; off for eval/)"},
    {.name = "--qsolver-cex-cache",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     RUN(solver.cex_cache),
     .def = "on",
     .topic = OPT_TOPIC_SOLVER,
     .eval_only = true,
     .help = "the counterexample cache (default on); off: a path's test no longer depends on "
             "the queries before it, so runs in another order or in parts (--jobs) give the "
             "same tests (for tests and eval/)"},
    {.name = "--qsolver-forall-slice",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     RUN(solver.forall_slice),
     .def = "off",
     .topic = OPT_TOPIC_SOLVER,
     .eval_only = true,
     .help = "a merged state's question first without its forall: the state's last model, "
             "then the question's group alone; on: every request, off (default): only for a "
             "forall whose last strip was dear (docs/qsolver.md; for eval/ experiments)"},
    /* ---- diagnostics ---- */
    {.name = "--validate-merges",
     .type = OPT_FLAG,
     RUN(interp.merge.validate),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "check every merged state against its constituents"},
    {.name = "--svcomp",
     .type = OPT_STRING,
     .arg = "PRP",
     RUN(interp.prune.svcomp),
     .topic = OPT_TOPIC_SEARCH,
     .help = "SV-COMP's unreach-call property file: only reach_error makes the verdict false; "
             "ends with 'SV-COMP result: true|false(unreach-call)|unknown'"},
    {.name = "--validate-interpolation",
     .type = OPT_FLAG,
     RUN(interp.prune.validate),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "explore every subtree --interpolate prunes anyway; an error there fails the run"},
    {.name = "--validate-qsolver",
     .type = OPT_FLAG,
     RUN(solver.validate_quantified),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "re-check every quantified answer with Z3 on the expanded query; a disagreement "
             "is reported and fails the run"},
    {.name = "--dump-tree",
     .type = OPT_FLAG,
     RUN(interp.merge.dump_tree),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "write each region's execution tree (regionN.dot, .svg)"},
    {.name = "--write-smt2s",
     .type = OPT_FLAG,
     RUN(write_smt2s),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "write every query Z3 sees to OUTDIR/smt2/"},
    {.name = "--fork-sites",
     .type = OPT_FLAG,
     RUN(interp.fork_sites),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "count forks per source location (the branch or check that forked): stats.json's "
             "\"fork_sites\", most forks first, with how many were in merged states and in "
             "open merge regions, and the calls that led there (eval/real/fork-sites prints "
             "them)"},
    {.name = "--progress",
     .type = OPT_FLAG,
     .negatable = true,
     RUN(interp.progress),
     OPT_GIVEN(run_options, progress_given),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "a live status line on stderr (default: on a terminal)"},
    {.name = "--trace",
     .type = OPT_FLAG,
     RUN(interp.trace),
     .topic = OPT_TOPIC_DIAGNOSTICS,
     .help = "print every executed instruction on stderr"},
    /* ---- the symbolic environment (engine/exec/symenv.h; KLEE's spellings also work
     * among the program's arguments, after --) ---- */
    {.name = "--sym-arg",
     .type = OPT_LIST,
     .arg = "N",
     OPT_LIST_OF(run_options, interp.sym_arg, interp.nsym_arg),
     .convert = interp_sym_arg_value,
     .bad = "--sym-arg takes a length N, not '%s'",
     .topic = OPT_TOPIC_INPUT,
     .help = "a symbolic argument of up to N bytes after the program's arguments (KLEE's "
             "--sym-arg); repeatable"},
    {.name = "--sym-args",
     .type = OPT_LIST,
     .arg = "MIN,MAX,N",
     OPT_LIST_OF(run_options, interp.sym_args, interp.nsym_args),
     .convert = interp_sym_args_value,
     .words = 3,
     .bad = "--sym-args takes MIN MAX N (--sym-args 0 2 4, or --sym-args=0,2,4), not '%s'",
     .topic = OPT_TOPIC_INPUT,
     .help = "between MIN and MAX symbolic arguments of up to N bytes each (KLEE's --sym-args "
             "MIN MAX N; also --sym-args=MIN,MAX,N, and after -- among the program's "
             "arguments); repeatable"},
    {.name = "--sym-files",
     .type = OPT_LIST,
     .arg = "COUNT,N",
     OPT_LIST_OF(run_options, interp.sym_files, interp.nsym_files),
     .convert = interp_sym_files_value,
     .words = 2,
     .bad = "--sym-files takes COUNT N (--sym-files 1 8, or --sym-files=1,8), not '%s'",
     .topic = OPT_TOPIC_INPUT,
     .help = "COUNT symbolic files named A, B, ..., each of a symbolic size up to N bytes "
             "(KLEE's --sym-files COUNT N also works)"},
    {.name = "--sym-stdin",
     .type = OPT_LIST,
     .arg = "N",
     OPT_LIST_OF(run_options, interp.sym_stdin, interp.nsym_stdin),
     .convert = interp_sym_arg_value,
     .bad = "--sym-stdin takes a size N, not '%s'",
     .topic = OPT_TOPIC_INPUT,
     .help = "a symbolic stdin of a symbolic size up to N bytes"},
    /* ---- native calls (engine/exec/external.h) ---- */
    {.name = "--external-calls",
     .type = OPT_ENUM,
     .arg = "none|concrete|all",
     RUN(interp.external_calls),
     .choices = EXTERNAL_CALLS,
     .topic = OPT_TOPIC_INPUT,
     .help = "a function with no body and no model: the path ends early (none, the default), "
             "or it is called natively when its arguments are concrete (concrete), or with "
             "symbolic arguments concretized (all)"},
    {.name = "--link-native",
     .type = OPT_LIST,
     .arg = "LIB",
     OPT_LIST_OF(run_options, interp.link_native, interp.nlink_native),
     .topic = OPT_TOPIC_INPUT,
     .help = "a shared library (libz.so.1 or a path) whose functions --external-calls may "
             "call natively, also linked by symq replay; repeatable"},
};

static int run_program_args(void *target, int argc, char **argv) {
  run_options *o = target;
  o->program_argc = argc;
  o->program_argv = (const char **)argv;
  return 0;
}

static int run_input(const opt_command *c, void *target, const char *arg) {
  run_options *o = target;
  size_t len = strlen(arg);
  if (len > 4 && strcmp(arg + len - 4, ".prp") == 0) { /* SV-COMP's property file: --svcomp */
    o->interp.prune.svcomp = arg;
    return 0;
  }
  if (o->n_inputs == RUN_MAX_INPUTS) {
    char why[64];
    snprintf(why, sizeof why, "%d", RUN_MAX_INPUTS);
    return opt_usage_error(c, "too many input files (at most %s)", why);
  }
  o->inputs[o->n_inputs++] = arg;
  return 0;
}

/* The streams and exit statuses: an interface scripts rely on (run.h's RUN_EXIT_*,
 * docs/usage.md "Exit status"). */
#define RUN_EPILOG                                                                       \
  "Output: stdout has the summary alone (the 'symq: done:' lines, the verdict last);\n"  \
  "stderr everything else (the output directory, each 'symq: ERROR:' found, warnings,\n" \
  "errors, the progress line).\n"                                                        \
  "Exit status:\n"                                                                       \
  "  0  the run ended and its tests, info and stats.json are written, whether the\n"     \
  "     exploration was complete or not (the verdict, stats.json's \"exhausted\") and\n" \
  "     whether it found bugs or not ('symq: ERROR:' lines, .err files)\n"               \
  "  1  --exit-on-error or --exit-on-error-type stopped the run at a bug, or a\n"        \
  "     --validate-merges or --validate-qsolver check failed\n"                          \
  "  2  bad usage, or an input or output directory symq cannot use: nothing explored\n"  \
  "  3  symq ran out of memory: the run stopped (info says Status: failed)\n"            \
  "  4  a file of the output directory, or stdout, could not be written (or SIGPIPE):\n" \
  "     the run stopped (info says Status: failed)\n"

const opt_command run_command = {
    .name = "run",
    .usage = "usage: symq run [options] FILE.c|FILE.bc|FILE.ll... [-- ARGS...]\n",
    .about =
        "  Every FILE is part of the program (a driver and the library's files): each .c\n"
        "  is compiled by clang-14 with -I, -D and --cflags, and all are linked together\n"
        "  with symq's runtime.\n",
    .epilog = RUN_EPILOG,
    OPT_SPECS(RUN_SPECS),
    .positional_call = run_input,
    .rest = run_program_args,
};

/* Cuts the --cflags values into words, after the -D options in o->cflags; a usage error of
 * command c when there are too many. */
static int split_cflags(const opt_command *command, run_options *o) {
  size_t len = 0;
  for (size_t k = 0; k < o->n_cflags_text; k++) len += strlen(o->cflags_text[k]) + 1;
  if (!len) return 0;
  char *w = o->cflags_words = xmalloc(len);
  for (size_t k = 0; k < o->n_cflags_text; k++) {
    for (const char *c = o->cflags_text[k]; *c;) {
      if (isspace((unsigned char)*c)) {
        c++;
        continue;
      }
      if (o->n_cflags == RUN_MAX_CLANG_ARGS) {
        char most[32];
        snprintf(most, sizeof most, "%d", RUN_MAX_CLANG_ARGS);
        return opt_usage_error(command, "too many -D and --cflags flags (at most %s)", most);
      }
      o->cflags[o->n_cflags++] = w;
      while (*c && !isspace((unsigned char)*c)) *w++ = *c++;
      *w++ = '\0';
    }
  }
  return 0;
}

/* The loader's options for o's program: its inputs, the runtime's include directory then
 * o's -I (into `includes`, RUN_MAX_CLANG_ARGS + 1 of them), the -D and --cflags flags. */
static bc_options program_options(const run_options *o, const char **includes) {
  includes[0] = SYMQ_SOURCE_DIR "/runtime/include";
  for (size_t k = 0; k < o->n_include_dirs; k++) includes[k + 1] = o->include_dirs[k];
  return (bc_options){.inputs = o->inputs + 1,
                      .n_inputs = o->n_inputs - 1,
                      .include_dirs = includes,
                      .n_include_dirs = o->n_include_dirs + 1,
                      .cflags = o->cflags,
                      .n_cflags = o->n_cflags};
}

void run_options_free(run_options *o) {
  free(o->cflags_words);
  o->cflags_words = NULL;
}

int run_parse_options(int argc, char **argv, run_options *o) {
  o->solver = qs_default_options();                   /* the stages no option names stay on */
  int rc = opt_parse(&run_command, argc, argv, 2, o); /* argv[0] is symq, argv[1] is run */
  if (rc) return rc;
  if (!o->n_inputs) return opt_usage_error(&run_command, "no input file%s", "");
  /* pat is the default: it holds issue 26's bar on the real libraries (eval/real/RESULTS.md)
     and on memspn. Not under --interpolate, which prunes forked paths: with pat there it
     merges only at a region's exits (below), the plain PAT that lost to forking on real code */
  if (!o->merge_given)
    o->interp.merge.mode =
        o->interp.prune.mode == PRUNE_MODE_NONE ? MERGE_MODE_PAT : MERGE_MODE_NONE;
  o->input = o->inputs[0];
  if ((rc = split_cflags(&run_command, o))) return rc;
  /* the interpreter bounds each query by the time left, from the same timeout */
  o->interp.solver_timeout_ms = o->solver.timeout_ms;
  if (!o->qsolver_timeout_given) o->solver.quant_timeout_ms = o->solver.timeout_ms;
  /* pat merges into the tree as it grows unless told not to: it pays on the real libraries;
     not under --interpolate, whose subsumption below a merged loop needs the merged state
     joined to the node above it, where an incremental merge restarts it as a root */
  if (!o->incremental_given)
    o->interp.merge.incremental =
        o->interp.merge.mode == MERGE_MODE_PAT && o->interp.prune.mode == PRUNE_MODE_NONE;
  return 0;
}

static const char *merge_mode_name(merge_mode m) {
  return m == MERGE_MODE_PAT ? "pat" : m == MERGE_MODE_CFG ? "cfg" : "none";
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
 * same reasons under early_reasons and dropped_reasons) and where the first early path was. */
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
  if (*r->first_early_at) /* where the first one was (its .early file gives the stack) */
    printf("%s at %s", r->early_paths == 1 ? "" : ", the first", r->first_early_at);
  if (r->ndropped_reasons) {
    printf("; alternatives not explored (");
    print_reasons(r->dropped_reasons, r->ndropped_reasons);
    printf(")");
  }
  printf("\n");
}

/* stats.json: each module writes its own members; this only opens the document and gives
 * the order. */
static int write_stats(out_dir *out, const run_options *o, const interp_result *r,
                       const qsolver *solver, const ir_program *prog, double wall) {
  json_writer j;
  json_init(&j);
  json_object_begin(&j);
  json_key(&j, "mode");
  json_string(&j, merge_mode_name(o->interp.merge.mode));
  json_key(&j, "incremental_merge"); /* the default (on under pat) or as given */
  json_bool(&j, o->interp.merge.incremental);
  json_key(&j, "search");
  json_array_begin(&j);
  if (!o->interp.nsearch) json_string(&j, "dfs");
  for (size_t k = 0; k < o->interp.nsearch; k++)
    json_string(&j, search_kind_name(o->interp.search[k]));
  json_array_end(&j);
  interp_write_path_stats(&j, r);
  qs_write_stats(&j, solver);
  json_key(&j, "wall_time_s");
  json_double(&j, wall);
  json_key(&j, "exploration_time_s"); /* what --max-time bounds */
  json_double(&j, r->exploration_time_s);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  json_key(&j, "peak_memory_mb");
  json_uint(&j, (uint64_t)ru.ru_maxrss / 1024);
  interp_write_end_stats(&j, r);
  json_key(&j, "merge");
  merge_stats_json(&j, &r->merge);
  prune_stats_json(&j, &r->prune);
  expr_stats es = expr_get_stats();
  json_key(&j, "expressions");
  expr_stats_json(&j, &es);
  mem_stats ms = mem_get_stats();
  json_key(&j, "memory");
  mem_stats_json(&j, &ms);
  json_key(&j, "decoded");
  ir_stats_json(&j, &prog->stats);
  interp_write_fork_sites(&j, r); /* last: the one member that can be long */
  json_object_end(&j);
  int rc = out_write_stats(out, &j);
  json_free(&j);
  return rc;
}

/* info's key: value lines: what `symq replay` needs to rebuild the driver natively. Writes
 * `info`, or with `prepared` set returns its text in *prepared (*len bytes) unwritten. */
static int write_info(out_dir *out, int argc, char **argv, time_t start, time_t end,
                      const char *status, const run_options *o, char **prepared, size_t *len) {
  char version[128];
  FILE *f = fmemopen(version, sizeof version, "w");
  if (f) {
    symq_print_version(f);
    fclose(f);
    version[strcspn(version, "\n")] = 0;
  } else {
    snprintf(version, sizeof version, "symq");
  }
  char *cwd = getcwd(NULL, 0);
  /* the flags as given; relative paths in them are relative to `cwd` */
  char *cflags = NULL;
  size_t cflags_len = 0;
  FILE *f2 = xopen_memstream(&cflags, &cflags_len);
  for (size_t k = 0; k < o->n_include_dirs; k++)
    fprintf(f2, "%s-I%s", ftell(f2) ? " " : "", o->include_dirs[k]);
  for (size_t k = 0; k < o->n_cflags; k++) fprintf(f2, "%s%s", ftell(f2) ? " " : "", o->cflags[k]);
  fclose(f2);
  /* one `input:` line per input, in order, absolute: what replay rebuilds */
  size_t nkv = o->n_inputs + 5 + o->interp.nlink_native;
  out_kv *kv = xcalloc(nkv, sizeof *kv);
  char **inputs = xcalloc(o->n_inputs, sizeof *inputs);
  for (size_t k = 0; k < o->n_inputs; k++) {
    inputs[k] = realpath(o->inputs[k], NULL);
    kv[k] = (out_kv){"input", inputs[k] ? inputs[k] : o->inputs[k]};
  }
  kv[o->n_inputs] = (out_kv){"cwd", cwd ? cwd : ""};
  kv[o->n_inputs + 1] = (out_kv){"cflags", cflags};
  kv[o->n_inputs + 2] = (out_kv){"runtime", o->no_runtime ? "none" : "symq"};
  kv[o->n_inputs + 3] = (out_kv){"mode", merge_mode_name(o->interp.merge.mode)};
  /* pat's default depends on other options (off under --interpolate): say which ran */
  kv[o->n_inputs + 4] = (out_kv){"incremental_merge", o->interp.merge.incremental ? "on" : "off"};
  for (size_t k = 0; k < o->interp.nlink_native; k++) /* replay links them too */
    kv[o->n_inputs + 5 + k] = (out_kv){"link_native", o->interp.link_native[k]};
  out_info info = {.argc = argc,
                   .argv = (const char *const *)argv,
                   .version = version,
                   .start = start,
                   .end = end,
                   .status = status,
                   .kv = kv,
                   .num_kv = nkv};
  int rc = 0;
  if (prepared) *prepared = out_format_info(&info, len);
  else
    rc = out_write_info(out, &info);
  for (size_t k = 0; k < o->n_inputs; k++) free(inputs[k]);
  free(inputs);
  free(kv);
  free(cwd);
  free(cflags);
  return rc;
}

/* info saying `Status: failed (REASON)`: after an output failure, best effort. */
static void write_failed_info(out_dir *out, int argc, char **argv, time_t start,
                              const run_options *o, const char *reason) {
  char *status = xasprintf("failed (%s)", reason);
  write_info(out, argc, argv, start, time(NULL), status, o, NULL, NULL);
  free(status);
}

/* Loads o's program as symq run does: its inputs compiled (or o->prebuilt, checked), the
 * runtime linked, the passes run; NULL after one line on stderr (*rc the exit status). When
 * solver is not NULL, *solver is made while clang compiles (the caller frees it either way). */
static ir_program *load_program(const run_options *o, qsolver **solver, int *rc) {
  const char *includes[RUN_MAX_CLANG_ARGS + 1];
  bc_options bo = program_options(o, includes);
  /* symq's runtime (libc model, SV-COMP functions) when it was built */
  const char *runtime[] = {SYMQ_RUNTIME_BC};
  bool link_runtime = !o->no_runtime && access(SYMQ_RUNTIME_BC, R_OK) == 0;
  /* what the interpreter's life cycle calls by name, with no call in the program (interp.c,
   * plan_lifecycle): linked even when the program reaches neither */
  const char *lifecycle[] = {"exit", "atexit"};
  bo.optimize = o->optimize;
  bo.passes = o->passes ? bc_pipeline_named(o->passes) : NULL;
  bo.link = runtime;
  bo.n_link = link_runtime ? 1 : 0;
  bo.keep = lifecycle;
  bo.n_keep = 2;
  /* execution starts at main and the life cycle's calls: nothing else need be loaded */
  const char *roots[] = {"main", "exit", "atexit"};
  bo.roots = roots;
  bo.n_roots = 3;
  bc_error berr = {0};
  bc_max_load_seconds = o->max_load_time_s;
  bc_max_load_mb = (unsigned long)o->max_load_memory_mb;
  *rc = RUN_EXIT_BAD_INPUT;
  if (o->prebuilt) { /* compiled once by --jobs (dist.h): the inputs stay what is recorded */
    char kerr[1200];
    if (!dist_prebuilt_check(o, kerr, sizeof kerr)) {
      fprintf(stderr, "symq: error: %s\n", kerr);
      return NULL;
    }
    bo.inputs = NULL, bo.n_inputs = 0;
  }
  /* The solver chain is built while clang compiles a .c input (bc_load_start spawned it; it
   * runs on another core); its Z3 context is made only when a query first reaches Z3
   * (z3_backend.c), so a run that never asks Z3 does not pay for it. Its dump directory is
   * named once the output directory exists. */
  bc_pending *loading = bc_load_start(o->prebuilt ? o->prebuilt : o->input, &bo, &berr);
  if (loading && solver) *solver = qs_new(&o->solver);
  bc_module *module = loading ? bc_load_finish(loading, &berr) : NULL;
  if (!module) {
    /* one line: it names the file and the first problem (clang's first diagnostic) */
    fprintf(stderr, "%s\n", berr.message ? berr.message : "symq: error: cannot load input");
    bc_error_clear(&berr);
    return NULL;
  }
  char *derr = NULL;
  ir_program *prog = ir_decode(module->module, &derr);
  bc_free(module);
  if (!prog) {
    fprintf(stderr, "symq: error: %s: %s\n", o->input, derr ? derr : "cannot decode");
    free(derr);
    return NULL;
  }
  if (ir_find_function(prog, "main") == IR_NONE) {
    fprintf(stderr, "symq: error: %s: no main function%s\n", o->input,
            o->n_inputs > 1 ? " (in none of the inputs)" : "");
    ir_free(prog);
    return NULL;
  }
  *rc = 0;
  return prog;
}

ir_program *run_load_program(const run_options *o, int *rc) { return load_program(o, NULL, rc); }

int run_main(int argc, char **argv) { return run_main_loaded(argc, argv, NULL); }

int run_main_loaded(int argc, char **argv, ir_program *preloaded) {
  run_options o = {0};
  int rc = run_parse_options(argc, argv, &o);
  if (!rc) rc = dist_check_options(&run_command, &o);
  if (rc) {
    run_options_free(&o);
    return rc == 1 ? RUN_EXIT_DONE : RUN_EXIT_BAD_INPUT;
  }
  if (o.jobs || o.sshlogin) { /* split, run the parts, merge (engine/cli/dist.h) */
    rc = dist_main(argc, argv, &o);
    run_options_free(&o);
    return rc;
  }
  part_ctx *part = NULL;
  if (o.split || o.part_file) {
    part = part_new(dist_program_key(&o));
    char perr[1200];
    if (o.part_file && !part_load(part, o.part_file, perr, sizeof perr)) {
      fprintf(stderr, "symq: error: %s\n", perr);
      part_free(part);
      run_options_free(&o);
      return RUN_EXIT_BAD_INPUT;
    }
    if (o.split) {
      part_set_split(part, (uint32_t)o.split);
      o.interp.search[0] = SEARCH_BFS; /* a frontier of even depth */
      o.interp.nsearch = 1;
    }
    o.interp.part = part;
  }

  char *testcomp_spec = NULL; /* read first: a bad .prp path is a usage error */
  if (o.testcomp_property) {
    char terr[512];
    if (!(testcomp_spec = testcomp_read_spec(o.testcomp_property, terr, sizeof terr))) {
      fprintf(stderr, "symq: error: %s\n", terr);
      run_options_free(&o);
      return RUN_EXIT_BAD_INPUT;
    }
  }
  if (o.interp.prune.svcomp) {
    char serr[600];
    if (!prune_svcomp_read(o.interp.prune.svcomp, serr, sizeof serr)) {
      fprintf(stderr, "symq: error: %s\n", serr);
      free(testcomp_spec);
      run_options_free(&o);
      return RUN_EXIT_BAD_INPUT;
    }
  }
  struct timespec t0;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  time_t start = time(NULL);

  qsolver *solver = NULL;
  ir_program *prog = preloaded;
  out_dir *out = NULL;
  if (prog) solver = qs_new(&o.solver); /* a worker forked by --jobs (dist.h): its own Z3 */
  else if (!(prog = load_program(&o, &solver, &rc)))
    goto not_run;

  char err[512];
  out = out_open(o.output_dir, err, sizeof err);
  if (!out) { /* like any input symq cannot use: nothing was explored */
    fprintf(stderr, "symq: error: %s\n", err);
    rc = RUN_EXIT_BAD_INPUT;
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
  if (write_info(out, argc, argv, start, 0, NULL, &o, NULL, NULL) != 0) {
    /* a directory that cannot take its first file (full disk) would lose every test */
    fprintf(stderr, "symq: error: %s\n", out_error(out));
    free(pargv);
    rc = RUN_EXIT_OUTPUT;
    goto not_run;
  }
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
  sigaction(SIGPIPE, &sa, NULL); /* a write to the closed pipe then fails with EPIPE */

  o.interp.argc = o.program_argc + 1;
  o.interp.argv = pargv;
  o.interp.interrupted = &interrupted;
  if (!o.progress_given) o.interp.progress = isatty(STDERR_FILENO);
  interp_result result;
  rc = interp_run(prog, &o.interp, solver, out, &result);
  const char *mismatch = rc == 0 ? part_mismatch(part, result.exhausted) : NULL;
  int nparts = rc == 0 && !result.output_failed ? part_write_all(part, out) : 0;
  if (nparts < 0) result.output_failed = true, result.exhausted = false;
  if (nparts < 0) snprintf(result.output_error, sizeof result.output_error, "%s", out_error(out));
  if (mismatch) { /* the part file was not this program's: nothing it holds was explored */
    fprintf(stderr, "symq: error: %s\n", mismatch);
    write_failed_info(out, argc, argv, start, &o, "the part does not match the program");
    rc = RUN_EXIT_BAD_INPUT;
  } else if (rc != 0) {
    fprintf(stderr, "symq: error: %s: %s\n", o.input, result.error);
    rc = RUN_EXIT_BAD_INPUT;
  } else if (result.output_failed) {
    /* the run stopped at the first file it could not write (interp said so): leave what
     * was written, and never a verdict (a test was lost) */
    write_stats(out, &o, &result, solver, prog, seconds_since(&t0));
    write_failed_info(out, argc, argv, start, &o, result.output_error);
    rc = RUN_EXIT_OUTPUT;
  } else if (write_stats(out, &o, &result, solver, prog, seconds_since(&t0)) != 0 ||
             write_info(out, argc, argv, start, time(NULL), NULL, &o, NULL, NULL) != 0) {
    /* every test is written, but the run's record is not: no verdict to vouch for it */
    fprintf(stderr, "symq: error: %s\n", out_error(out));
    write_failed_info(out, argc, argv, start, &o, out_error(out));
    rc = RUN_EXIT_OUTPUT;
  } else {
    if (o.testcomp) { /* before the done lines: the last line on stdout stays the summary */
      char terr[512];
      if (testcomp_write_suite(out_path(out), o.input, testcomp_spec, terr, sizeof terr) != 0) {
        fprintf(stderr, "symq: error: test suite: %s\n", terr);
        rc = RUN_EXIT_OUTPUT;
      }
    }
    if (o.split) /* the verdict is this run's share; the parts hold the rest */
      printf("symq: done: split into %d part%s (part-NNNN.part)\n", nparts, nparts == 1 ? "" : "s");
    printf("symq: done: total instructions = %" PRIu64 "\n", result.instructions);
    printf("symq: done: completed paths = %" PRIu64 ", error paths = %" PRIu64
           ", generated tests = %" PRIu64 "\n",
           result.completed_paths, result.error_paths, result.tests);
    print_verdict(&result);
    if (o.interp.prune.mode != PRUNE_MODE_NONE || o.interp.prune.svcomp) {
      char verdict[600];
      printf("symq: verdict: %s\n", prune_verdict_text(&result.prune, verdict, sizeof verdict));
    }
    if (o.interp.prune.svcomp) printf("SV-COMP result: %s\n", prune_svcomp_result(&result.prune));
    if (result.prune.validation_failures) {
      fprintf(stderr, "symq: error: %s\n", result.prune.validation_error);
      rc = 1;
    }
    uint64_t disagreements = qs_quant_stats_of(solver)->disagreements;
    if (disagreements) {
      fprintf(stderr,
              "symq: error: %" PRIu64
              " quantified answers disagreed with Z3 on the "
              "expanded query\n",
              disagreements);
      if (!rc) rc = RUN_EXIT_ERROR_FOUND;
    }
    uint64_t unconfirmed = qs_quant_stats_of(solver)->recheck_unknown;
    if (unconfirmed)
      fprintf(stderr,
              "symq: warning: %" PRIu64
              " quantified answers unconfirmed: their --validate-qsolver re-check came back "
              "unknown\n",
              unconfirmed);
    if (result.merge.validation_unchecked)
      fprintf(stderr,
              "symq: warning: %" PRIu64
              " merged states not validated: the run's time limit cut their checks\n",
              result.merge.validation_unchecked);
    if (result.merge.validation_failures) {
      fprintf(stderr, "symq: error: %" PRIu64 " merged states failed validation\n",
              result.merge.validation_failures);
      if (!rc) rc = RUN_EXIT_ERROR_FOUND;
    }
    if (result.stopped_on_error) {
      fprintf(stderr, "symq: stopped at an error, as --exit-on-error(-type) asks\n");
      if (!rc) rc = RUN_EXIT_ERROR_FOUND;
    }
    /* the summary is output too: a closed stdout is an output failure (SIGPIPE) */
    if (fflush(stdout) != 0 || ferror(stdout)) {
      fprintf(stderr, "symq: error: standard output: %s\n", strerror(errno));
      rc = RUN_EXIT_OUTPUT;
    } else if (pipe_closed) {
      fprintf(stderr, "symq: error: a pipe was closed (SIGPIPE): the run was halted\n");
      rc = RUN_EXIT_OUTPUT;
    }
  }
  interp_result_free(&result);
  free(pargv);
not_run:
  part_free(part);
  if (prog != preloaded) ir_free(prog);
  qs_free(solver);
  free(testcomp_spec);
  /* releasing memory can allocate (expr's release stack): the handler stays till here */
  xalloc_on_oom(NULL);
  free(oom_info);
  oom_info = NULL;
  oom_out = NULL;
  out_close(out);
  run_options_free(&o);
  return rc;
}

/* ---- symq compile ----------------------------------------------------------------------- */

static const opt_spec COMPILE_SPECS[] = {
    RUN_COMPILE_SPECS,
    {.name = "-o",
     .type = OPT_STRING,
     .arg = "FILE.bc",
     RUN(bitcode_output),
     .nonzero = true,
     .missing = "%s needs the bitcode file to write",
     .topic = OPT_TOPIC_OUTPUT,
     .help = "the bitcode file to write"},
};

const opt_command compile_command = {
    .name = "compile",
    .usage =
        "usage: symq compile [-I DIR] [-DNAME[=VAL]] [--cflags=FLAGS] -o FILE.bc "
        "FILE.c|FILE.bc|FILE.ll...\n",
    .about =
        "  Compile and link the inputs as symq run does, and write the program as one\n"
        "  bitcode file, before symq's runtime is linked and its passes run: symq run\n"
        "  FILE.bc then explores what symq run on the inputs explores.\n",
    .epilog =
        "Exit status: 0 written, 2 bad usage or an input that cannot be compiled or\n"
        "linked, 4 the file could not be written.\n",
    OPT_SPECS(COMPILE_SPECS),
    .positional_call = run_input,
};

int compile_main(int argc, char **argv) {
  run_options o = {0};
  int rc = opt_parse(&compile_command, argc, argv, 2, &o);
  if (!rc && !o.n_inputs) rc = opt_usage_error(&compile_command, "no input file%s", "");
  if (!rc && !o.bitcode_output)
    rc = opt_usage_error(&compile_command, "no output file: give -o FILE.bc%s", "");
  if (!rc) rc = split_cflags(&compile_command, &o);
  if (rc) {
    run_options_free(&o);
    return rc == 1 ? RUN_EXIT_DONE : RUN_EXIT_BAD_INPUT;
  }
  o.input = o.inputs[0];
  rc = run_write_program(&o, o.bitcode_output);
  run_options_free(&o);
  return rc;
}

int run_write_program(const run_options *o, const char *path) {
  const char *includes[RUN_MAX_CLANG_ARGS + 1];
  bc_options bo = program_options(o, includes);
  bo.inputs_only = true;
  bc_error berr = {0};
  int rc = 0;
  bc_module *module = bc_load(o->inputs[0], &bo, &berr);
  if (!module) {
    fprintf(stderr, "%s\n", berr.message ? berr.message : "symq: error: cannot load input");
    rc = RUN_EXIT_BAD_INPUT;
  } else if (!bc_write(module->module, path, &berr)) {
    fprintf(stderr, "%s\n", berr.message);
    rc = RUN_EXIT_OUTPUT;
  }
  bc_error_clear(&berr);
  bc_free(module);
  return rc;
}
