/*
 * compare.c — `symq compare DRIVER [--modes=none,cfg,pat] [--max-time=T] [--capacity=N]
 * [--z3-seed=N] [--output-dir=DIR] [--no-coverage] [-- RUN-OPTIONS]`: runs the driver once per
 * merging mode (pat: --merge=pat as symq run takes it, with incremental merging; pat-plain:
 * --merge=pat --incremental-merge=off), each in its own `symq run` process (so that no counter or
 * cache carries over from one mode to the next), then `symq cov` on each output for the GCov line
 * coverage of the replayed tests, and prints one table — mode, wall time, completed paths, merged
 * states, queries, solver time, tests, coverage, the quantified queries the run asked (stats.json's
 * "quantified.asked"), the stages that decided them ("quantified.asked_decided_by": "stage:count"
 * for each stage that decided any, in chain order, "," between; "-" when none was asked), the
 * quantified procedure's runs (its "queries": the relaxed stage's sub-queries included,
 * answers from the caches and the relaxed stage not) and the share of those runs answered
 * before any fallback, then how the run ended (stats.json's "exhausted": "complete"; else the
 * limit its "halted: LIMIT" early or dropped reasons name, "halted: max-time"; else
 * "incomplete: " and those reasons) and the errors found (stats.json's error_paths, then each
 * distinct kind and location of the .err files, "2: div f.c:12, ptr f.c:30") — also written as
 * compare.csv (last: outcome, error_paths, errors without the count, and the deciding stages)
 * and compare.md.
 * --no-coverage skips the replay: the coverage is then "not run" in the table and empty in
 * compare.csv, never 0.
 */
#include "engine/cli/compare.h"
#include "engine/cli/run.h"

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/cli/options.h"
#include "engine/core/expr.h"
#include "engine/core/xalloc.h"

extern char **environ;

enum { MAX_MODES = 8, MAX_EXTRA = 32 };

typedef struct mode_result {
  const char *mode;
  bool ok;
  double wall, solver, completed, merged, queries, tests, coverage;
  bool has_coverage, coverage_skipped;
  double error_paths;
  char outcome[512];      /* complete, halted: LIMIT, or incomplete: REASONS */
  char *errors;           /* the distinct "KIND FILE:LINE" of the .err files, ", " between */
  double quantified;      /* quantified queries asked from outside the solver */
  double procedure_runs;  /* requests that reached the quantified procedure */
  double before_fallback; /* of those, answered by strip, duplicate or repair */
  char *decided_by;       /* "stage:count,…" of the quantified queries asked, or "-" */
} mode_result;

/* Runs argv (argv[0] a path) with stdout and stderr sent to log_path; returns the exit status,
 * or -1 when it could not start. */
static int run_child(char *const *argv, const char *log_path) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, log_path, O_WRONLY | O_CREAT | O_TRUNC,
                                   0644);
  posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static char *read_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = NULL;
  size_t len = 0, cap = 0, n;
  char buf[4096];
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
    if (len + n + 1 > cap) text = xrealloc(text, cap = 2 * (len + n + 1));
    memcpy(text + len, buf, n);
    len += n;
  }
  fclose(f);
  if (!text) text = xcalloc(1, 1);
  text[len] = 0;
  return text;
}

/* The number after `"key": ` (the first occurrence; stats.json's keys used here are unique). */
static bool json_number(const char *json, const char *key, double *out) {
  char pattern[128];
  snprintf(pattern, sizeof pattern, "\"%s\": ", key);
  const char *at = json ? strstr(json, pattern) : NULL;
  if (!at) return false;
  char *end;
  *out = strtod(at + strlen(pattern), &end);
  return end != at + strlen(pattern);
}

/* stats.json's "quantified": the queries asked, the procedure's runs, and those of its runs
 * answered before any fallback. */
static bool json_quantified(const char *json, mode_result *r) {
  const char *q = json ? strstr(json, "\"quantified\": {") : NULL;
  const char *answered = q ? strstr(q, "\"answered\": {") : NULL;
  double strip, dup, repair, slice = 0;
  if (!answered || !json_number(q, "asked", &r->quantified) ||
      !json_number(q, "queries", &r->procedure_runs) || !json_number(answered, "strip", &strip) ||
      !json_number(answered, "duplicate", &dup) || !json_number(answered, "repair", &repair))
    return false;
  json_number(answered, "slice", &slice); /* the slice step, where stats.json has it */
  r->before_fallback = slice + strip + dup + repair;
  return true;
}

/* stats.json's "quantified.asked_decided_by" (json.c writes one `"stage": count` a line) as
 * "stage:count" for each stage that decided any, in chain order, "," between; "-" when none. */
static char *json_decided_by(const char *json) {
  static const char key[] = "\"asked_decided_by\": {";
  const char *p = json ? strstr(json, key) : NULL;
  char *list = xstrdup("");
  for (p = p ? p + strlen(key) : NULL; p;) {
    while (*p == ' ' || *p == '\n' || *p == ',') p++;
    const char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
    if (!end || end[1] != ':') break; /* the closing brace */
    char *after;
    double count = strtod(end + 2, &after);
    if (after == end + 2) break;
    if (count > 0) {
      char *longer =
          xasprintf("%s%s%.*s:%.0f", list, *list ? "," : "", (int)(end - p - 1), p + 1, count);
      free(list);
      list = longer;
    }
    p = after;
  }
  if (!*list) {
    free(list);
    list = xstrdup("-");
  }
  return list;
}

enum { MAX_REASONS = 32 };

/* The member names of stats.json's object `key` (json.c writes one member a line), appended to
 * names[*n] (up to MAX_REASONS; each allocated). */
static void json_member_names(const char *json, const char *key, char **names, size_t *n) {
  char pattern[128];
  snprintf(pattern, sizeof pattern, "\"%s\": {", key);
  const char *p = json ? strstr(json, pattern) : NULL;
  if (!p) return;
  p += strlen(pattern);
  for (;;) {
    while (*p == ' ' || *p == '\n' || *p == ',') p++;
    if (*p != '"') return; /* the closing brace */
    size_t len = 0, cap = strlen(++p) + 1;
    char *name = xmalloc(cap);
    for (; *p && *p != '"'; p++) name[len++] = *p == '\\' && p[1] ? *++p : *p;
    name[len] = 0;
    if (*n < MAX_REASONS) names[(*n)++] = name;
    else
      free(name);
    p = strchr(p, '\n'); /* past the count */
    if (!p) return;
  }
}

/* Appends text to buf (size bytes), after ", " unless buf is empty or ends in ' '. */
static void append_item(char *buf, size_t size, const char *text) {
  size_t len = strlen(buf);
  snprintf(buf + len, size - len, "%s%s", len && buf[len - 1] != ' ' ? ", " : "", text);
}

/* How the run ended, from stats.json: "complete" when the exploration was exhaustive; else
 * "halted: " and the limits its early or dropped reasons name ("halted: max-time"); else
 * "incomplete: " and those reasons. */
static void describe_outcome(const char *json, mode_result *r) {
  if (strstr(json, "\"exhausted\": true")) {
    snprintf(r->outcome, sizeof r->outcome, "complete");
    return;
  }
  char *names[MAX_REASONS];
  size_t n = 0;
  json_member_names(json, "early_reasons", names, &n);
  json_member_names(json, "dropped_reasons", names, &n);
  static const char halted[] = "halted: ";
  snprintf(r->outcome, sizeof r->outcome, "halted: ");
  for (size_t k = 0; k < n; k++) /* a feasible side not explored follows from a halt */
    if (strncmp(names[k], halted, strlen(halted)) == 0 &&
        strcmp(names[k], "halted: a feasible side was not explored") != 0 &&
        !strstr(r->outcome, names[k] + strlen(halted)))
      append_item(r->outcome, sizeof r->outcome, names[k] + strlen(halted));
  if (strcmp(r->outcome, halted) == 0) {
    snprintf(r->outcome, sizeof r->outcome, n ? "incomplete: " : "incomplete");
    for (size_t k = 0; k < n; k++) append_item(r->outcome, sizeof r->outcome, names[k]);
  }
  for (size_t k = 0; k < n; k++) free(names[k]);
}

static int compare_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The value of the line "label: VALUE" of an .err file's text, or NULL. */
static char *err_field(const char *text, const char *label) {
  size_t len = strlen(label);
  for (const char *p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
    if (strncmp(p, label, len) == 0) {
      const char *end = strchr(p + len, '\n');
      return xasprintf("%.*s", end ? (int)(end - p - len) : (int)strlen(p + len), p + len);
    }
  return NULL;
}

/* Each distinct "KIND FILE:LINE" of the .err files in out (FILE without its directories), in
 * test order: "div f.c:12, ptr f.c:30" ("" without one). */
static char *describe_errors(const char *out) {
  DIR *d = opendir(out);
  char **files = NULL;
  size_t nfiles = 0;
  for (struct dirent *e; d && (e = readdir(d));) {
    size_t len = strlen(e->d_name);
    const char *dot = strchr(e->d_name, '.'); /* testNNNNNN.KIND.err */
    if (len > 4 && strcmp(e->d_name + len - 4, ".err") == 0 && dot < e->d_name + len - 4) {
      files = xrealloc(files, (nfiles + 1) * sizeof *files);
      files[nfiles++] = xstrdup(e->d_name);
    }
  }
  if (d) closedir(d);
  if (nfiles) qsort(files, nfiles, sizeof *files, compare_names);
  char **items = xcalloc(nfiles + 1, sizeof *items);
  size_t nitems = 0;
  char *list = xstrdup("");
  for (size_t k = 0; k < nfiles; k++) { /* testNNNNNN.KIND.err */
    const char *kind = strchr(files[k], '.') + 1;
    char *path = xasprintf("%s/%s", out, files[k]);
    char *text = read_file(path);
    char *file = text ? err_field(text, "File: ") : NULL;
    char *line = text ? err_field(text, "Line: ") : NULL;
    const char *base = file ? strrchr(file, '/') : NULL;
    char *item = xasprintf("%.*s %s:%s", (int)(strlen(kind) - 4), kind,
                           base   ? base + 1
                           : file ? file
                                  : "?",
                           line ? line : "?");
    bool seen = false;
    for (size_t i = 0; i < nitems && !seen; i++) seen = strcmp(items[i], item) == 0;
    if (seen) {
      free(item);
    } else {
      char *longer = xasprintf("%s%s%s", list, nitems ? ", " : "", item);
      free(list);
      list = longer;
      items[nitems++] = item;
    }
    free(file), free(line), free(text), free(path), free(files[k]);
  }
  for (size_t i = 0; i < nitems; i++) free(items[i]);
  free(items);
  free(files);
  return list;
}

/* "n/a" without procedure runs, else the share of them answered before any fallback. */
static void format_share(char *buf, size_t size, const mode_result *r) {
  if (r->procedure_runs > 0)
    snprintf(buf, size, "%.1f%%", 100.0 * r->before_fallback / r->procedure_runs);
  else
    snprintf(buf, size, "n/a");
}

typedef struct compare_options {
  const char *driver, *modes, *output_dir;
  const char *extra[MAX_EXTRA]; /* options passed on to every symq run */
  size_t nextra;
  bool no_coverage;
} compare_options;

#define COMPARE(member) OPT_FIELD(compare_options, member)

/* An option of symq run's that compare takes itself and passes on to every run, as written. */
#define PASSED_ON(option, value, what)                                                    \
  {                                                                                       \
    .name = (option), .type = OPT_LIST, .arg = (value), .joined = true, .keep_arg = true, \
    OPT_LIST_OF(compare_options, extra, nextra), .too_many = "unknown option '%s'",       \
    .help = "passed on to every symq run" what                                            \
  }

static const opt_spec COMPARE_SPECS[] = {
    {.name = "--modes",
     .type = OPT_STRING,
     .arg = "MODES",
     .joined = true,
     COMPARE(modes),
     .def = "none,cfg,pat",
     .help = "the merging modes to run, comma-separated, in order: none, cfg, pat (with "
             "incremental merging, symq run's default) and pat-plain (--incremental-merge=off) "
             "(default none,cfg,pat)"},
    PASSED_ON("--max-time", "TIME", ""),
    PASSED_ON("--capacity", "N", ""),
    PASSED_ON("--z3-seed", "N", " (Z3's random seed)"),
    {.name = "--output-dir",
     .type = OPT_STRING,
     .arg = "DIR",
     .joined = true,
     COMPARE(output_dir),
     .help = "where the tables and each mode's output and logs go (default symq-compare-N)"},
    {.name = "--no-coverage",
     .type = OPT_FLAG,
     COMPARE(no_coverage),
     .help = "skip the replay that measures coverage (symq cov): coverage is then \"not run\" "
             "in the table and empty in compare.csv"},
};

/* its own message, with no hint */
static int compare_driver(const opt_command *c, void *target, const char *arg) {
  compare_options *o = target;
  if (o->driver) {
    fprintf(stderr, "symq: error: compare: more than one driver ('%s')\n", arg);
    return 2;
  }
  o->driver = arg;
  return 0;
}

/* after `--`: more symq run options, as many as fit */
static int compare_run_options(void *target, int argc, char **argv) {
  compare_options *o = target;
  for (int i = 0; i < argc && o->nextra < MAX_EXTRA; i++) o->extra[o->nextra++] = argv[i];
  return 0;
}

const opt_command compare_command = {
    .name = "compare",
    .error_prefix = "compare: ",
    .usage =
        "usage: symq compare DRIVER.c [--modes=none,cfg,pat,pat-plain] [--max-time=T]\n"
        "                    [--capacity=N] [--z3-seed=N] [--output-dir=DIR] [--no-coverage]\n"
        "                    [-- MORE symq run OPTIONS]\n",
    .about =
        "Runs DRIVER once per merging mode and prints mode, wall time, completed paths,\n"
        "merged states, queries, solver time, tests, GCov line coverage, the quantified\n"
        "queries asked, the stages that decided them (stage:count), the quantified\n"
        "procedure's runs and the share of those runs answered\n"
        "before any fallback, how the run ended (complete, halted: LIMIT, or incomplete:\n"
        "REASONS) and the errors found (their number, then each distinct kind and\n"
        "location: 2: div f.c:12, ptr f.c:30); the table is also written as\n"
        "DIR/compare.csv and DIR/compare.md (DIR: symq-compare-N).\n",
    OPT_SPECS(COMPARE_SPECS),
    .positional_call = compare_driver,
    .rest = compare_run_options,
};

/* text as one CSV field: quoted (its quotes doubled) when it holds a comma or a quote */
static void csv_field(FILE *f, const char *text) {
  if (!strpbrk(text, ",\"\n")) {
    fputs(text, f);
    return;
  }
  fputc('"', f);
  for (const char *p = text; *p; p++) {
    if (*p == '"') fputc('"', f);
    fputc(*p, f);
  }
  fputc('"', f);
}

static char *make_output_dir(const char *given) {
  if (given) {
    if (mkdir(given, 0777) != 0 && errno != EEXIST) return NULL;
    return xstrdup(given);
  }
  for (unsigned k = 0; k < 100000; k++) {
    char name[64];
    snprintf(name, sizeof name, "symq-compare-%u", k);
    if (mkdir(name, 0777) == 0) return xstrdup(name);
    if (errno != EEXIST) return NULL;
  }
  return NULL;
}

static void print_table(FILE *f, const mode_result *r, size_t n, bool markdown) {
  const char *sep = markdown ? " | " : "  ";
  if (markdown) fputs("| ", f);
  fprintf(f, "%-9s%s%9s%s%9s%s%13s%s%9s%s%9s%s%7s%s%9s%s%10s%s%-24s%s%14s%s%15s%s%-16s%s%s", "mode",
          sep, "wall (s)", sep, "completed", sep, "merged states", sep, "queries", sep,
          "solver (s)", sep, "tests", sep, "coverage", sep, "quantified", sep, "decided by", sep,
          "procedure runs", sep, "before fallback", sep, "outcome", sep, "errors");
  fputs(
      markdown ? " |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|---|\n" : "\n",
      f);
  for (size_t k = 0; k < n; k++) {
    if (markdown) fputs("| ", f);
    if (!r[k].ok) {
      fprintf(f, "%-9s%s(failed: see %s.log)", r[k].mode, sep, r[k].mode);
      fputs(markdown ? " |||||||||||||\n" : "\n", f);
      continue;
    }
    char coverage[16];
    if (r[k].has_coverage) snprintf(coverage, sizeof coverage, "%.1f%%", r[k].coverage);
    else if (r[k].coverage_skipped)
      snprintf(coverage, sizeof coverage, "not run");
    else
      snprintf(coverage, sizeof coverage, "n/a");
    char share[16];
    format_share(share, sizeof share, &r[k]);
    char *errors = xasprintf("%.0f%s%s", r[k].error_paths, *r[k].errors ? ": " : "", r[k].errors);
    fprintf(
        f,
        "%-9s%s%9.2f%s%9.0f%s%13.0f%s%9.0f%s%9.2f%s%7.0f%s%9s%s%10.0f%s%-24s%s%14.0f%s%15s%s%-16s"
        "%s%s",
        r[k].mode, sep, r[k].wall, sep, r[k].completed, sep, r[k].merged, sep, r[k].queries, sep,
        r[k].solver, sep, r[k].tests, sep, coverage, sep, r[k].quantified, sep, r[k].decided_by,
        sep, r[k].procedure_runs, sep, share, sep, r[k].outcome, sep, errors);
    free(errors);
    fputs(markdown ? " |\n" : "\n", f);
  }
}

int compare_main(int argc, char **argv) {
  compare_options o = {0};
  int parsed = opt_parse(&compare_command, argc, argv, 2, &o);
  if (parsed) return parsed == 1 ? 0 : parsed;
  if (!o.driver) {
    opt_print_help(&compare_command, stderr, false);
    return 2;
  }
  const char *driver = o.driver;
  if (access(driver, R_OK) != 0) {
    fprintf(stderr, "symq: error: compare: %s: %s\n", driver, strerror(errno));
    return 2;
  }
  char *modes_copy = xstrdup(o.modes);
  const char *modes[MAX_MODES];
  size_t nmodes = 0;
  for (char *save = NULL, *m = strtok_r(modes_copy, ",", &save); m;
       m = strtok_r(NULL, ",", &save)) {
    if (strcmp(m, "none") != 0 && strcmp(m, "cfg") != 0 && strcmp(m, "pat") != 0 &&
        strcmp(m, "pat-plain") != 0) {
      fprintf(stderr,
              "symq: error: compare: unknown mode '%s' (modes: none, cfg, pat, pat-plain)\n", m);
      free(modes_copy);
      return 2;
    }
    if (nmodes < MAX_MODES) modes[nmodes++] = m;
  }
  char *dir = make_output_dir(o.output_dir);
  if (!dir) {
    fprintf(stderr, "symq: error: compare: cannot create the output directory: %s\n",
            strerror(errno));
    free(modes_copy);
    return 2; /* like any input compare cannot use (symq run does the same) */
  }
  char *self = realpath("/proc/self/exe", NULL);
  if (!self) self = xstrdup(argv[0]);

  mode_result results[MAX_MODES] = {0}; /* gcc cannot see that print_table reads k < nmodes */
  for (size_t k = 0; k < nmodes; k++) {
    mode_result *r = &results[k];
    memset(r, 0, sizeof *r);
    r->mode = modes[k];
    char *out = xasprintf("%s/%s", dir, modes[k]), *log = xasprintf("%s/%s.log", dir, modes[k]);
    bool plain = strcmp(modes[k], "pat-plain") == 0; /* pat without incremental merging */
    char *merge = xasprintf("--merge=%s", plain ? "pat" : modes[k]);
    char *out_opt = xasprintf("--output-dir=%s", out);
    char *args[MAX_EXTRA + 8];
    size_t na = 0;
    args[na++] = self;
    args[na++] = "run";
    args[na++] = "--no-progress";
    args[na++] = merge;
    if (plain) args[na++] = "--incremental-merge=off";
    args[na++] = out_opt;
    for (size_t e = 0; e < o.nextra; e++) args[na++] = (char *)o.extra[e];
    args[na++] = (char *)driver;
    args[na] = NULL;
    fprintf(stderr, "symq: compare: running %s mode%s\n", modes[k],
            strcmp(modes[k], "pat") ? "" : " (with incremental merging, --merge=pat's default)");
    int status = run_child(args, log);
    char *stats_path = xasprintf("%s/stats.json", out);
    /* a run --exit-on-error stopped (exit status 1) has its numbers too: its outcome then
     * says exit-on-error; a status 1 for any other reason (a --validate-* failure) fails */
    bool stopped = status == RUN_EXIT_ERROR_FOUND;
    char *json = status == RUN_EXIT_DONE || stopped ? read_file(stats_path) : NULL;
    r->ok = json && json_number(json, "wall_time_s", &r->wall) &&
            json_number(json, "completed_paths", &r->completed) &&
            json_number(json, "queries", &r->queries) &&
            json_number(json, "solver_time_s", &r->solver) &&
            json_number(json, "tests", &r->tests) &&
            json_number(json, "merged_states", &r->merged) && json_quantified(json, r) &&
            json_number(json, "error_paths", &r->error_paths);
    if (r->ok) describe_outcome(json, r);
    if (r->ok) r->decided_by = json_decided_by(json);
    if (r->ok && stopped && !strstr(r->outcome, "exit-on-error")) r->ok = false;
    if (r->ok) r->errors = describe_errors(out);
    free(json);
    r->coverage_skipped = r->ok && o.no_coverage;
    if (r->coverage_skipped) {
      /* only the times are wanted */
    } else if (r->ok) { /* coverage: replay the tests natively with gcov (symq cov) */
      char *cov_log = xasprintf("%s/%s.cov.log", dir, modes[k]);
      char *cov_args[] = {self, "cov", out, NULL};
      if (run_child(cov_args, cov_log) == 0) {
        json = read_file(stats_path);
        r->has_coverage = json_number(json, "lines_percent", &r->coverage);
        free(json);
      }
      free(cov_log);
    } else {
      fprintf(stderr, "symq: compare: %s mode failed (exit status %d): see %s\n", modes[k], status,
              log);
    }
    free(stats_path);
    free(out), free(log), free(merge), free(out_opt);
  }
  print_table(stdout, results, nmodes, false);
  char *csv_path = xasprintf("%s/compare.csv", dir), *md_path = xasprintf("%s/compare.md", dir);
  FILE *csv = fopen(csv_path, "w"), *md = fopen(md_path, "w");
  if (csv) {
    fputs(
        "mode,wall_s,completed_paths,merged_states,queries,solver_s,tests,line_coverage_percent,"
        "quantified_queries,quantified_procedure_runs,quantified_before_fallback,outcome,"
        "error_paths,errors,quantified_decided_by\n",
        csv);
    for (size_t k = 0; k < nmodes; k++) {
      const mode_result *r = &results[k];
      if (!r->ok) {
        fprintf(csv, "%s,,,,,,,,,,,,,,\n", r->mode);
        continue;
      }
      fprintf(csv, "%s,%.3f,%.0f,%.0f,%.0f,%.3f,%.0f,", r->mode, r->wall, r->completed, r->merged,
              r->queries, r->solver, r->tests);
      if (r->has_coverage) fprintf(csv, "%.1f", r->coverage);
      fprintf(csv, ",%.0f,%.0f,%.0f,", r->quantified, r->procedure_runs, r->before_fallback);
      csv_field(csv, r->outcome);
      fprintf(csv, ",%.0f,", r->error_paths);
      csv_field(csv, r->errors);
      fputc(',', csv);
      csv_field(csv, r->decided_by);
      fputc('\n', csv);
    }
    fclose(csv);
  }
  if (md) {
    fprintf(md, "# symq compare: %s\n\n", driver);
    print_table(md, results, nmodes, true);
    fclose(md);
  }
  fprintf(stderr, "symq: compare: tables in %s and %s\n", csv_path, md_path);
  int rc = 0;
  for (size_t k = 0; k < nmodes; k++) {
    if (!results[k].ok) rc = 1;
    free(results[k].errors);
    free(results[k].decided_by);
  }
  free(csv_path), free(md_path), free(self), free(dir), free(modes_copy);
  return rc;
}
