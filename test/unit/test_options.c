/*
 * test_options.c — unit tests of engine/cli/options, the option tables' parser and help.
 *
 * A table of the test's own exercises every value type (flag and --no-, on|off with and
 * without a bare form, enum, numbers with a range, durations in seconds and milliseconds,
 * plain seconds, strings, lists converted or kept as written, attached-only values, an alias,
 * "given" flags) and every default message, each message compared whole with what symq has
 * always printed. Then the real tables: symq run's parser writes into interp_options,
 * merge_options and qs_options (defaults, aliases, the derived quantified timeout), and
 * each command's --help lists every option of its table but the eval/ ones, which
 * --help-all adds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/cli/compare.h"
#include "engine/cli/options.h"
#include "engine/cli/replay.h"
#include "engine/cli/run.h"

/* ---- capturing what a call prints ------------------------------------------------------ */

static char captured[8192];

/* Runs parse with fd (1 or 2) sent to a temporary file; its text goes to `captured`. */
static int capture(int fd, int (*parse)(void *), void *arg) {
  FILE *tmp = tmpfile();
  if (!tmp) abort();
  fflush(stdout);
  fflush(stderr);
  int saved = dup(fd);
  dup2(fileno(tmp), fd);
  int rc = parse(arg);
  fflush(stdout);
  fflush(stderr);
  dup2(saved, fd);
  close(saved);
  rewind(tmp);
  size_t n = fread(captured, 1, sizeof captured - 1, tmp);
  captured[n] = 0;
  fclose(tmp);
  return rc;
}

/* ---- the test's own table ---------------------------------------------------------------- */

typedef struct test_options {
  bool flag, negatable, on_off, bare_on;
  int negatable_int;
  int color;
  uint64_t count;
  uint32_t small;
  double seconds, plain_seconds;
  unsigned ms;
  bool ms_given;
  const char *text, *nonempty;
  const char *words[3];
  size_t nwords;
  int numbers[2];
  size_t nnumbers;
  const char *input;
  int rest_argc;
  char **rest_argv;
} test_options;

static bool parse_digit(const char *text, void *elem) {
  if (text[0] < '0' || text[0] > '9' || text[1]) return false;
  *(int *)elem = text[0] - '0';
  return true;
}

static const opt_choice COLORS[] = {{"red", 1}, {"green", 2}, {"blue", 3}, {NULL, 0}};

#define T(member) OPT_FIELD(test_options, member)

static const opt_spec TEST_SPECS[] = {
    {.name = "--flag", .alias = "-f", .type = OPT_FLAG, T(flag), .help = "a flag"},
    {.name = "--neg",
     .type = OPT_FLAG,
     .negatable = true,
     T(negatable_int),
     .def = NULL,
     .topic = OPT_TOPIC_OUTPUT,
     .help = "negatable"},
    {.name = "--switch",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     T(on_off),
     .def = "on",
     .help = "on or off"},
    {.name = "--bare",
     .type = OPT_ON_OFF,
     .arg = "on|off",
     .implicit = "on",
     T(bare_on),
     .help = "bare means on"},
    {.name = "--color",
     .type = OPT_ENUM,
     .arg = "red|green|blue",
     T(color),
     .def = "green",
     .choices = COLORS,
     .help = "an enum"},
    {.name = "--count",
     .alias = "--number",
     .type = OPT_UINT,
     .arg = "N",
     T(count),
     .def = "7",
     .max = 100,
     .help = "a number up to 100"},
    {.name = "--small",
     .type = OPT_UINT,
     .arg = "N",
     T(small),
     .nonzero = true,
     .max = UINT32_MAX,
     .bad = "--small takes 1 to 2^32-1, not '%s'",
     .help = "nonzero"},
    {.name = "--time", .type = OPT_TIME, .arg = "TIME", T(seconds), .help = "seconds"},
    {.name = "--ms",
     .type = OPT_TIME_MS,
     .arg = "TIME",
     T(ms),
     .def = "10s",
     .max = 86400,
     OPT_GIVEN(test_options, ms_given),
     .help = "milliseconds"},
    {.name = "--timeout",
     .type = OPT_SECONDS,
     .arg = "S",
     T(plain_seconds),
     .nonzero = true,
     .max = 86400,
     .help = "plain seconds"},
    {.name = "--text", .type = OPT_STRING, .arg = "TEXT", T(text), .help = "text"},
    {.name = "--nonempty",
     .type = OPT_STRING,
     .arg = "TEXT",
     T(nonempty),
     .nonzero = true,
     .bad = "--nonempty needs a text%s",
     .help = "not empty",
     .eval_only = true,
     .topic = OPT_TOPIC_SOLVER},
    {.name = "-W",
     .type = OPT_LIST,
     .arg = "WORD",
     OPT_LIST_OF(test_options, words, nwords),
     .missing = "%s needs a word",
     .help = "words"},
    {.name = "-K",
     .type = OPT_LIST,
     .arg = "KEPT",
     .joined = true,
     .keep_arg = true,
     OPT_LIST_OF(test_options, words, nwords),
     .missing = "%s needs its word attached",
     .help = "kept as written"},
    {.name = "--digit",
     .type = OPT_LIST,
     .arg = "D",
     .convert = parse_digit,
     OPT_LIST_OF(test_options, numbers, nnumbers),
     .bad = "not a digit: '%s'",
     .help = "converted"},
    {.name = "--joined",
     .type = OPT_STRING,
     .arg = "X",
     .joined = true,
     T(text),
     .help = "only attached"},
};

static int test_rest(void *target, int argc, char **argv) {
  test_options *o = target;
  o->rest_argc = argc;
  o->rest_argv = argv;
  return 0;
}

static const opt_command TEST_COMMAND = {
    .name = "test",
    .usage = "usage: symq test [options] INPUT\n",
    OPT_SPECS(TEST_SPECS),
    OPT_POSITIONAL(test_options, input, "more than one input ('%s')"),
    .rest = test_rest,
};

typedef struct parse_call {
  const opt_command *command;
  const char *const *args; /* NULL-terminated, after "symq test" */
  void *target;
} parse_call;

/* `symq COMMAND ARGS...` (args NULL-terminated) in a static argv: what the parser stored
 * (rest_argv, program_argv) still points into it after the call. */
static int command_line(const char *command, const char *const *args, char ***argv_out) {
  static char *argv[48];
  int argc = 0;
  argv[argc++] = "symq";
  argv[argc++] = (char *)command;
  for (size_t k = 0; args[k]; k++) argv[argc++] = (char *)args[k];
  argv[argc] = NULL;
  *argv_out = argv;
  return argc;
}

static int call_parse(void *arg) {
  parse_call *p = arg;
  char **argv;
  int argc = command_line("test", p->args, &argv);
  return opt_parse(p->command, argc, argv, 2, p->target);
}

/* Parses args (NULL-terminated) into a fresh *o; returns the status, stderr in captured. */
#define PARSE(o, ...)          \
  (memset(&(o), 0, sizeof(o)), \
   capture(2, call_parse,      \
           &(parse_call){&TEST_COMMAND, (const char *const[]){__VA_ARGS__, NULL}, &(o)}))

/* Expects args to fail with status 2 and exactly `message` on stderr. */
#define BAD(message, ...)                                                          \
  do {                                                                             \
    test_options bad_;                                                             \
    CHECK_EQ_U64(PARSE(bad_, __VA_ARGS__), 2);                                     \
    CHECK_EQ_STR(captured, "symq: error: " message " (try 'symq test --help')\n"); \
  } while (0)

static void test_defaults(void) {
  test_options o;
  CHECK_EQ_U64(PARSE(o, "in"), 0);
  CHECK_EQ_STR(captured, "");
  CHECK_EQ_STR(o.input, "in");
  CHECK(!o.flag);
  CHECK(o.on_off); /* def "on" */
  CHECK(!o.bare_on);
  CHECK_EQ_U64(o.color, 2); /* def "green" */
  CHECK_EQ_U64(o.count, 7);
  CHECK_EQ_U64(o.ms, 10000); /* def "10s" */
  CHECK(!o.ms_given);        /* a default is not the option given */
  CHECK_EQ_U64(o.nwords, 0);
  CHECK_EQ_U64(o.rest_argc, 0);
}

static void test_value_types(void) {
  test_options o;
  CHECK_EQ_U64(PARSE(o, "--flag", "--neg", "in"), 0);
  CHECK(o.flag);
  CHECK_EQ_U64(o.negatable_int, 1);
  CHECK_EQ_U64(PARSE(o, "-f"), 0); /* a one-letter alias */
  CHECK(o.flag);
  CHECK_EQ_U64(PARSE(o, "--neg", "--no-neg", "in"), 0);
  CHECK_EQ_U64(o.negatable_int, 0);

  CHECK_EQ_U64(PARSE(o, "--switch=off"), 0);
  CHECK(!o.on_off);
  CHECK_EQ_U64(PARSE(o, "--switch", "off"), 0); /* the value as the next argument */
  CHECK(!o.on_off);
  CHECK(!o.input);
  CHECK_EQ_U64(PARSE(o, "--bare"), 0);
  CHECK(o.bare_on);
  CHECK_EQ_U64(PARSE(o, "--bare=off"), 0);
  CHECK(!o.bare_on);
  CHECK_EQ_U64(PARSE(o, "--bare", "on"), 0); /* a bare form never takes the next argument */
  CHECK(o.bare_on);
  CHECK_EQ_STR(o.input, "on");

  CHECK_EQ_U64(PARSE(o, "--color=blue"), 0);
  CHECK_EQ_U64(o.color, 3);
  CHECK_EQ_U64(PARSE(o, "--color", "red"), 0);
  CHECK_EQ_U64(o.color, 1);

  CHECK_EQ_U64(PARSE(o, "--count=100"), 0);
  CHECK_EQ_U64(o.count, 100);
  CHECK_EQ_U64(PARSE(o, "--number", "0"), 0); /* the alias */
  CHECK_EQ_U64(o.count, 0);
  CHECK_EQ_U64(PARSE(o, "--small=4294967295"), 0);
  CHECK_EQ_U64(o.small, UINT32_MAX);

  const struct {
    const char *text;
    double seconds;
  } times[] = {{"30", 30}, {"30s", 30}, {"500ms", 0.5}, {"1.5min", 90}, {"2h", 7200}, {"0", 0}};
  for (size_t k = 0; k < sizeof times / sizeof times[0]; k++) {
    char arg[64];
    snprintf(arg, sizeof arg, "--time=%s", times[k].text);
    CHECK_EQ_U64(PARSE(o, arg), 0);
    CHECK(o.seconds == times[k].seconds);
  }
  CHECK_EQ_U64(PARSE(o, "--ms=1min"), 0);
  CHECK_EQ_U64(o.ms, 60000);
  CHECK(o.ms_given);
  CHECK_EQ_U64(PARSE(o, "--ms", "250ms"), 0);
  CHECK_EQ_U64(o.ms, 250);
  CHECK_EQ_U64(PARSE(o, "--timeout", "2.5"), 0);
  CHECK(o.plain_seconds == 2.5);
  CHECK_EQ_U64(PARSE(o, "--timeout=3s"), 0);
  CHECK(o.plain_seconds == 3);

  CHECK_EQ_U64(PARSE(o, "--text=", "--nonempty", "x"), 0);
  CHECK_EQ_STR(o.text, "");
  CHECK_EQ_STR(o.nonempty, "x");
  CHECK_EQ_U64(PARSE(o, "--text", "--flag"), 0); /* a separate value is taken as it is */
  CHECK_EQ_STR(o.text, "--flag");
  CHECK(!o.flag);
  CHECK_EQ_U64(PARSE(o, "--joined=a=b"), 0);
  CHECK_EQ_STR(o.text, "a=b");

  CHECK_EQ_U64(PARSE(o, "-Wone", "-W", "two", "-Kthree"), 0);
  CHECK_EQ_U64(o.nwords, 3);
  CHECK_EQ_STR(o.words[0], "one");
  CHECK_EQ_STR(o.words[1], "two");
  CHECK_EQ_STR(o.words[2], "-Kthree"); /* kept as written, for passing on */
  CHECK_EQ_U64(PARSE(o, "--digit=4", "--digit", "2"), 0);
  CHECK_EQ_U64(o.nnumbers, 2);
  CHECK_EQ_U64(o.numbers[0], 4);
  CHECK_EQ_U64(o.numbers[1], 2);

  CHECK_EQ_U64(PARSE(o, "in", "--", "--flag", "x"), 0);
  CHECK(!o.flag);
  CHECK_EQ_U64(o.rest_argc, 2);
  CHECK_EQ_STR(o.rest_argv[0], "--flag");
}

static void test_messages(void) {
  BAD("unknown option '--bogus'", "--bogus");
  BAD("unknown option '-'", "-");
  BAD("unknown option '--flag=on'", "--flag=on"); /* a flag takes no value */
  BAD("unknown option '--no-flag'", "--no-flag"); /* only a negatable flag has --no- */
  BAD("unknown option '--flagx'", "--flagx");
  BAD("unknown option '-fx'", "-fx");           /* a one-letter flag is matched whole */
  BAD("unknown option '--joined'", "--joined"); /* attached only: bare is no option */
  BAD("option '--count' needs a value", "--count");
  BAD("option '--number' needs a value", "--number"); /* the name as written */
  BAD("-W needs a word", "-W");
  BAD("-K needs its word attached", "-K", "x");
  BAD("more than one input ('b')", "a", "b");
  BAD("--switch takes on or off, not 'yes'", "--switch=yes");
  BAD("--bare takes on or off, not ''", "--bare=");
  BAD("--color takes red, green or blue, not 'pink'", "--color=pink");
  BAD("bad --count '101'", "--count=101");
  BAD("bad --count '-1'", "--count=-1");
  BAD("bad --count 'x'", "--count=x");
  BAD("bad --count ''", "--count=");
  BAD("bad --count '1x'", "--number=1x");
  BAD("--small takes 1 to 2^32-1, not '0'", "--small=0");
  BAD("--small takes 1 to 2^32-1, not '4294967296'", "--small=4294967296");
  BAD("bad --time '5m'", "--time=5m");
  BAD("bad --time '-1'", "--time=-1");
  BAD("bad --ms '86401'", "--ms=86401");
  BAD("bad --timeout '0'", "--timeout=0");
  BAD("bad --timeout '-1'", "--timeout", "-1");
  BAD("bad --timeout '1min'", "--timeout=1min");
  BAD("--nonempty needs a text", "--nonempty=");
  BAD("not a digit: '12'", "--digit=12");
  BAD("too many -W options", "-Wa", "-Wb", "-Wc", "-Wd");
  /* the first problem is the one reported, in argument order */
  BAD("unknown option '--x'", "--x", "--count=y");
  test_options o = {0}; /* help first: no error after it */
  parse_call help = {&TEST_COMMAND, (const char *const[]){"--count=1", "--help", "--bogus", NULL},
                     &o};
  CHECK_EQ_U64(capture(1, call_parse, &help), 1);
  CHECK(strncmp(captured, "usage: symq test [options] INPUT\n", 33) == 0);
}

/* ---- help ------------------------------------------------------------------------------ */

static char *help_of(const opt_command *c, bool all) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) abort();
  opt_print_help(c, f, all);
  fclose(f);
  return text;
}

/* Is `name` listed as an option (at the start of a help line, after its indentation)? */
static bool lists(const char *help, const char *name) {
  char negated[64];
  snprintf(negated, sizeof negated, "--[no-]%s", name + 2);
  for (const char *line = help; line && *line;
       line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
    const char *p = line;
    while (*p == ' ') p++;
    if (p - line != 2) continue;
    size_t n = strlen(name);
    if ((strncmp(p, name, n) == 0 && strchr(" =[\n", p[n])) ||
        (name[1] != '-' && strncmp(p, name, n) == 0) || strncmp(p, negated, strlen(negated)) == 0)
      return true;
  }
  return false;
}

static void check_help_lists_table(const opt_command *c) {
  char *help = help_of(c, false), *all = help_of(c, true);
  for (size_t k = 0; k < c->nspecs; k++) {
    const opt_spec *s = &c->specs[k];
    if (!lists(all, s->name)) fprintf(stderr, "symq %s --help-all: no %s\n", c->name, s->name);
    CHECK(lists(all, s->name));
    if (lists(help, s->name) != !s->eval_only)
      fprintf(stderr, "symq %s --help: %s %s\n", c->name, s->name,
              s->eval_only ? "listed (eval/ only)" : "missing");
    CHECK(lists(help, s->name) == !s->eval_only);
    CHECK(s->help && *s->help);
  }
  for (const char *p = all; *p;) { /* reflowed within 90 columns */
    size_t n = strcspn(p, "\n");
    CHECK(n <= 90);
    p += n + (p[n] != 0);
  }
  CHECK(strncmp(help, "usage: symq ", 12) == 0);
  free(help);
  free(all);
}

static void test_help(void) {
  char *help = help_of(&TEST_COMMAND, false), *all = help_of(&TEST_COMMAND, true);
  CHECK(lists(help, "--flag"));
  CHECK(lists(help, "--neg")); /* as --[no-]neg */
  CHECK(strstr(help, "  --[no-]neg "));
  CHECK(strstr(help, "  --bare[=on|off] "));
  CHECK(strstr(help, "  --count=N "));
  CHECK(strstr(help, "  -W WORD "));
  CHECK(strstr(help, "  -KKEPT "));
  CHECK(strstr(help, "\nOutput:\n  --[no-]neg")); /* topics get a heading */
  CHECK(!lists(help, "--nonempty"));              /* eval/ only */
  CHECK(!strstr(help, "Solver:"));                /* no heading for a topic with nothing shown */
  CHECK(lists(all, "--nonempty"));
  CHECK(strstr(all, "Solver:"));
  free(help);
  free(all);

  check_help_lists_table(&TEST_COMMAND);
  check_help_lists_table(&run_command);
  check_help_lists_table(&replay_command);
  check_help_lists_table(&cov_command);
  check_help_lists_table(&compare_command);

  /* symq run's eval/ knobs, by name: hidden from --help, listed by --help-all */
  char *run = help_of(&run_command, false), *run_all = help_of(&run_command, true);
  CHECK(!lists(run, "--qsolver-procedure") && lists(run_all, "--qsolver-procedure"));
  CHECK(!lists(run, "--qsolver-relax") && lists(run_all, "--qsolver-relax"));
  CHECK(lists(run, "--merge") && lists(run, "--progress") && lists(run, "-I"));
  /* --help points at --help-all because it hides something; --help-all hides nothing */
  CHECK(strstr(run, "'symq run --help-all' also lists"));
  CHECK(!strstr(run_all, "also lists"));
  char *replay = help_of(&replay_command, false);
  CHECK(!strstr(replay, "--help-all")); /* replay hides nothing */
  free(replay);
  free(run);
  free(run_all);
  /* cov takes only --timeout and --keep of replay's options */
  char *cov = help_of(&cov_command, true);
  CHECK(lists(cov, "--timeout") && lists(cov, "--keep"));
  CHECK(!lists(cov, "--sanitize") && !lists(cov, "--cc") && !lists(cov, "--verbose"));
  free(cov);
}

/* `symq run --help` through opt_parse: on stdout, status 1. */
static int print_run_help(void *arg) {
  run_options *o = arg;
  char *argv[] = {"symq", "run", "--help", NULL};
  return run_parse_options(3, argv, o);
}

/* ---- symq run's table: each value where it is used ---------------------------------------- */

typedef struct run_call {
  const char *const *args;
  run_options *o;
} run_call;

static int call_run_parse(void *arg) {
  run_call *p = arg;
  char **argv;
  int argc = command_line("run", p->args, &argv);
  return run_parse_options(argc, argv, p->o);
}

#define RUN_PARSE(o, ...)      \
  (memset(&(o), 0, sizeof(o)), \
   capture(2, call_run_parse, &(run_call){(const char *const[]){__VA_ARGS__, NULL}, &(o)}))

static void test_run_table(void) {
  static run_options o; /* large: not on the stack */
  CHECK_EQ_U64(RUN_PARSE(o, "d.c"), 0);
  CHECK_EQ_STR(o.input, "d.c");
  CHECK_EQ_U64(o.interp.merge.mode, MERGE_MODE_PAT); /* the default, incrementally */
  CHECK(!o.merge_given && o.interp.merge.incremental);
  CHECK_EQ_U64(o.interp.merge.loops, MERGE_LOOPS_SIZE);
  CHECK(o.interp.merge.tests_per_merge_all);
  CHECK(!o.interp.merge.validate && !o.interp.merge.dump_tree);
  CHECK_EQ_U64(o.interp.merge.pat.max_candidates, 20);
  CHECK_EQ_U64(o.interp.merge.pat.max_patterns, 10);
  CHECK_EQ_U64(o.interp.capacity, 100);
  CHECK_EQ_U64(o.interp.nsearch, 0);
  CHECK_EQ_U64(o.solver.timeout_ms, 10000);
  CHECK_EQ_U64(o.interp.solver_timeout_ms, 10000);
  CHECK_EQ_U64(o.solver.quant_timeout_ms, 10000);
  CHECK_EQ_U64(o.solver.fallback, QS_FALLBACK_BOTH);
  CHECK(o.solver.quantified && o.solver.relax && !o.solver.validate_quantified);
  qs_options qd = qs_default_options(); /* the stages no option names keep their default */
  CHECK(o.solver.independence == qd.independence && o.solver.units == qd.units);
  CHECK_EQ_U64(o.solver.blast_max_bytes, qd.blast_max_bytes);
  CHECK(!o.progress_given && !o.no_runtime && !o.testcomp && !o.passes);

  CHECK_EQ_U64(RUN_PARSE(o, "--merge=pat", "--merge-loops=symbolic", "--tests-per-merge=one",
                         "--incremental-merge", "--validate-merges", "--dump-tree",
                         "--max-candidate-patterns", "30", "--max-patterns=5", "d.c"),
               0);
  CHECK_EQ_U64(o.interp.merge.mode, MERGE_MODE_PAT);
  CHECK_EQ_U64(o.interp.merge.loops, MERGE_LOOPS_SYMBOLIC);
  CHECK(!o.interp.merge.tests_per_merge_all);
  CHECK(o.interp.merge.incremental && o.interp.merge.validate && o.interp.merge.dump_tree);
  CHECK_EQ_U64(o.interp.merge.pat.max_candidates, 30);
  CHECK_EQ_U64(o.interp.merge.pat.max_patterns, 5);

  /* --merge: pat unless given, none under --interpolate unless given */
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=none", "d.c"), 0);
  CHECK(o.merge_given && o.interp.merge.mode == MERGE_MODE_NONE && !o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--interpolate", "d.c"), 0);
  CHECK(!o.merge_given && o.interp.merge.mode == MERGE_MODE_NONE && !o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--interpolate", "--merge=pat", "d.c"), 0);
  CHECK(o.interp.merge.mode == MERGE_MODE_PAT && !o.interp.merge.incremental);

  /* --incremental-merge: on under pat unless given or --interpolate, off under cfg */
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=pat", "d.c"), 0);
  CHECK(o.interp.merge.incremental && !o.incremental_given);
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=pat", "--incremental-merge=off", "d.c"), 0);
  CHECK(!o.interp.merge.incremental && o.incremental_given);
  CHECK_EQ_U64(RUN_PARSE(o, "--incremental-merge=off", "--merge=pat", "d.c"), 0); /* any order */
  CHECK(!o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=pat", "--interpolate", "d.c"), 0);
  CHECK(!o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=pat", "--interpolate", "--incremental-merge", "d.c"), 0);
  CHECK(o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=cfg", "d.c"), 0);
  CHECK(!o.interp.merge.incremental);
  CHECK_EQ_U64(RUN_PARSE(o, "--merge=cfg", "--incremental-merge=on", "d.c"), 0);
  CHECK(o.interp.merge.incremental);

  CHECK_EQ_U64(RUN_PARSE(o, "--max-solver-time=1min", "d.c"), 0); /* the alias */
  CHECK_EQ_U64(o.solver.timeout_ms, 60000);
  CHECK_EQ_U64(o.interp.solver_timeout_ms, 60000);
  CHECK_EQ_U64(o.solver.quant_timeout_ms, 60000); /* default: --solver-timeout */
  CHECK_EQ_U64(RUN_PARSE(o, "--qsolver-timeout=0", "--solver-timeout", "2s", "d.c"), 0);
  CHECK_EQ_U64(o.solver.timeout_ms, 2000);
  CHECK_EQ_U64(o.solver.quant_timeout_ms, 0); /* given: kept, whatever the order */
  CHECK_EQ_U64(RUN_PARSE(o, "--qsolver-procedure=off", "--qsolver-relax", "off",
                         "--qsolver-fallback=z3", "--validate-qsolver", "d.c"),
               0);
  CHECK(!o.solver.quantified && !o.solver.relax && o.solver.validate_quantified);
  CHECK_EQ_U64(o.solver.fallback, QS_FALLBACK_Z3);

  CHECK_EQ_U64(RUN_PARSE(o, "--search=bfs", "--search", "nurs:covnew", "--seed=9", "--max-time=1h",
                         "--max-instructions=5", "--max-forks=6", "--max-memory=7",
                         "--max-pointer-objects=8", "--capacity=9", "--emit-all-errors", "--trace",
                         "--no-progress", "d.c"),
               0);
  CHECK_EQ_U64(o.interp.nsearch, 2);
  CHECK_EQ_U64(o.interp.search[0], SEARCH_BFS);
  CHECK_EQ_STR(search_kind_name(o.interp.search[1]), "nurs:covnew");
  CHECK_EQ_U64(o.interp.seed, 9);
  CHECK(o.interp.max_time_s == 3600);
  CHECK_EQ_U64(o.interp.max_instructions, 5);
  CHECK_EQ_U64(o.interp.max_forks, 6);
  CHECK_EQ_U64(o.interp.max_memory_mb, 7);
  CHECK_EQ_U64(o.interp.max_pointer_objects, 8);
  CHECK_EQ_U64(o.interp.capacity, 9);
  CHECK(o.interp.emit_all_errors && o.interp.trace);
  CHECK(o.progress_given && !o.interp.progress);

  CHECK_EQ_U64(
      RUN_PARSE(o, "--libc=none", "-I", "inc", "-Iinc2", "-DX=1", "--optimize", "--passes=klee",
                "--max-load-time=2min", "--max-load-memory=512", "--output-dir", "out",
                "--testcomp-property=p.prp", "--write-smt2s", "d.c", "--", "a", "b"),
      0);
  CHECK(o.no_runtime && o.optimize && o.write_smt2s);
  CHECK_EQ_U64(o.n_include_dirs, 2);
  CHECK_EQ_STR(o.include_dirs[1], "inc2");
  CHECK_EQ_U64(o.n_cflags, 1);
  CHECK_EQ_STR(o.cflags[0], "-DX=1");
  CHECK_EQ_STR(o.passes, "klee");
  CHECK(o.max_load_time_s == 120);
  CHECK_EQ_U64(o.max_load_memory_mb, 512);
  CHECK_EQ_STR(o.output_dir, "out");
  CHECK_EQ_STR(o.testcomp_property, "p.prp");
  CHECK(o.testcomp); /* the property implies the suite */
  CHECK_EQ_U64(o.program_argc, 2);
  CHECK_EQ_STR(o.program_argv[1], "b");
  CHECK_EQ_U64(RUN_PARSE(o, "--libc=klee", "d.c"), 0);
  CHECK(!o.no_runtime);
  /* several inputs (a driver and a library's files), and --cflags cut into words after -D */
  CHECK_EQ_U64(RUN_PARSE(o, "d.c", "-DA", "--cflags= -std=c99  -DB ", "lib.bc", "e.c"), 0);
  CHECK_EQ_U64(o.n_inputs, 3);
  CHECK_EQ_STR(o.input, "d.c");
  CHECK_EQ_STR(o.inputs[2], "e.c");
  CHECK_EQ_U64(o.n_cflags, 3);
  CHECK_EQ_STR(o.cflags[0], "-DA");
  CHECK_EQ_STR(o.cflags[1], "-std=c99");
  CHECK_EQ_STR(o.cflags[2], "-DB");
  run_options_free(&o);

  /* symq run's own messages, as they have always been */
  const struct {
    const char *args[3];
    const char *message;
  } bad[] = {
      {{"--merge=foo", "d.c"}, "--merge takes none, cfg or pat, not 'foo'"},
      {{"--max-solver-time=x", "d.c"}, "bad solver timeout 'x'"},
      {{"--solver-timeout=86401", "d.c"}, "bad solver timeout '86401'"},
      {{"--libc=glibc", "d.c"}, "--libc takes symq (the default) or none, not 'glibc'"},
      {{"--capacity=1073741825", "d.c"},
       "--capacity takes a number of bytes up to 1 GiB, not '1073741825'"},
      {{"--seed=-1", "d.c"}, "--seed takes a number, not '-1'"},
      {{"--search=dfx", "d.c"}, "unknown search strategy 'dfx'"},
      {{"--qsolver-fallback=x", "d.c"}, "--qsolver-fallback takes expand, z3 or both, not 'x'"},
      {{"--incremental-merge=x", "d.c"}, "--incremental-merge takes on or off, not 'x'"},
      {{"--max-load-time=0", "d.c"}, "bad --max-load-time '0'"},
      {{"--max-candidate-patterns=10001", "d.c"}, "bad --max-candidate-patterns '10001'"},
      {{"-D"}, "-D needs a definition: use -DNAME[=VALUE]"},
      {{"-I"}, "-I needs a directory"},
      {{"--trace"}, "no input file"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    char want[256];
    snprintf(want, sizeof want, "symq: error: %s (try 'symq run --help')\n", bad[k].message);
    const char *args[4] = {bad[k].args[0], bad[k].args[1], bad[k].args[2], NULL};
    run_call call = {args, &o};
    memset(&o, 0, sizeof o);
    CHECK_EQ_U64(capture(2, call_run_parse, &call), 2);
    CHECK_EQ_STR(captured, want);
  }

  memset(&o, 0, sizeof o);
  CHECK_EQ_U64(capture(1, print_run_help, &o), 1);
  CHECK(strncmp(captured, "usage: symq run ", 16) == 0);
  CHECK(lists(captured, "--merge") && !lists(captured, "--qsolver-relax"));
}

int main(void) {
  test_defaults();
  test_value_types();
  test_messages();
  test_help();
  test_run_table();
  return check_exit();
}
