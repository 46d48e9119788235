/*
 * replay.c — `symq replay OUTDIR` and `symq cov OUTDIR`: native replay of the tests of one
 * `symq run`, and GCov coverage from it.
 *
 *   OUTDIR/info ──input, cwd, cflags──▶ cc driver.c runtime/replay/replay.c (a scratch dir)
 *        ──▶ one run per testNNNNNN.ktest (KTEST_FILE=…, argv from the ktest, a timeout)
 *        ──▶ replay: what ended it, compared with testNNNNNN.KIND.err (or a normal exit)
 *        ──▶ cov:    gcovr over the .gcda files → OUTDIR/coverage/, stats.json "gcov"
 *
 * The replay library is compiled on the fly with the same compiler and flags as the driver,
 * never prebuilt: a sanitized or --coverage driver needs a library built the same way by
 * the same compiler (and symq's own ASan build must not leak its instrumentation into it).
 *
 * What "reproduced" means, per kind of error (see mismatch_reason):
 *   assert        glibc's "Assertion `…' failed" and SIGABRT, at the .err's line (or, for an
 *                 __assert_fail called by hand with another line, with the .err's expression)
 *   abort         SIGABRT (abort, klee_abort) or SIGILL/SIGTRAP (a trap)
 *   reach_error   the replay library's reach_error status, or (a driver that defines
 *                 reach_error itself) an assertion failure or SIGABRT
 *   user          the library's "assumption violated" status (a klee_assume that is false
 *                 natively too), or its report_error status with kind "user"
 *   any KIND      the library's report_error status with that kind (klee_report_error,
 *                 symq_report_error)
 *   div           SIGFPE, or a sanitizer report at the .err's line
 *   ptr           SIGSEGV/SIGBUS, or a sanitizer report at the .err's line
 *   free          SIGABRT/SIGSEGV (glibc's malloc checks), or a sanitizer report at the line
 *   exec          SIGILL/SIGTRAP/SIGSEGV (__builtin_unreachable is compiled to a trap), or a
 *                 sanitizer report at the line
 *   overflow      a sanitizer report at the line
 *   overshift     a sanitizer report at the line
 * Tests of the kinds that may not crash natively (ptr, free, overshift, overflow) run in a
 * second build with -fsanitize=address,undefined; --sanitize runs every test so.
 *   other kinds   any abnormal end: a signal, a sanitizer report at the line, or one of the
 *                 library's error statuses
 * A sanitizer report (with --sanitize) at another line than the .err's is a mismatch. A
 * test without an error must exit (any status) without a sanitizer report or a library
 * error, unless it ends in the very error another test of OUTDIR reports: symq reports an
 * error once per place, so a repeat has no .err of its own (under merging, the constituents
 * of a merged error state). A test that ended early under symq (a .early file) is run and
 * reported but not checked: its path was cut short, so the native run may go anywhere —
 * but when it ends in an error natively, the line says so (a possible bug symq could not
 * finish, e.g. after a solver timeout) and a warning counts them. A
 * test whose ktest does not fit the driver (the library's ktest status) is a mismatch.
 */
#include "engine/cli/replay.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/cli/options.h"
#include "engine/core/expr.h"
#include "engine/out/ktest.h"
#include "engine/out/output.h"
#include "engine/core/xalloc.h"
#include "runtime/replay/replay.h"

#define REPLAY_LIBRARY SYMQ_SOURCE_DIR "/runtime/replay/replay.c"
#define RUNTIME_INCLUDE SYMQ_SOURCE_DIR "/runtime/include"
#define MAX_CAPTURE (1u << 20) /* bytes of a program's stderr that we look at */

/* ---- small helpers ---------------------------------------------------------------------- */

/* A NULL-terminated, growable argv. */
typedef struct strvec {
  char **v;
  size_t n, cap;
} strvec;

static void sv_push(strvec *s, const char *item) {
  if (s->n + 2 > s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->v = xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = xstrdup(item);
  s->v[s->n] = NULL;
}

static void sv_free(strvec *s) {
  for (size_t k = 0; k < s->n; k++) free(s->v[k]);
  free(s->v);
  memset(s, 0, sizeof *s);
}

/* The whole file as a NUL-terminated string (at most `max` bytes), or NULL. */
static char *read_file(const char *path, size_t max, size_t *len_out) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    size_t want = cap - 1 - len;
    if (len + want > max) want = max - len;
    size_t got = fread(buf + len, 1, want, f);
    len += got;
    if (got < want || len >= max) break;
    cap *= 2;
    buf = xrealloc(buf, cap);
  }
  fclose(f);
  buf[len] = 0;
  if (len_out) *len_out = len;
  return buf;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static const char *signal_name(int sig) {
  switch (sig) {
  case SIGABRT: return "SIGABRT";
  case SIGSEGV: return "SIGSEGV";
  case SIGBUS: return "SIGBUS";
  case SIGFPE: return "SIGFPE";
  case SIGILL: return "SIGILL";
  case SIGTRAP: return "SIGTRAP";
  case SIGKILL: return "SIGKILL";
  case SIGTERM: return "SIGTERM";
  case SIGINT: return "SIGINT";
  case SIGPIPE: return "SIGPIPE";
  case SIGALRM: return "SIGALRM";
  default: return "signal";
  }
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
  (void)st;
  (void)flag;
  (void)ftw;
  remove(path); /* best effort: keep going */
  return 0;
}

static void remove_tree(const char *dir) { nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS); }

/* ---- running a program ------------------------------------------------------------------ */

typedef struct run_result {
  bool timed_out;
  bool interrupted; /* symq got SIGINT/SIGTERM: the program was killed */
  bool exited;
  int code; /* exit status when exited */
  int sig;  /* the signal when killed by one */
} run_result;

/* Set by SIGINT/SIGTERM: the running program (in a process group of its own, so the
 * terminal's ^C does not reach it) is killed and the command stops. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig) {
  (void)sig;
  interrupted = 1;
}

static void catch_interrupts(void) {
  static const int signals[] = {SIGINT, SIGTERM};
  for (size_t k = 0; k < 2; k++) {
    struct sigaction old, sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    /* a signal ignored when symq started (e.g. SIGINT in a background job) stays ignored */
    if (sigaction(signals[k], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
      sigaction(signals[k], &sa, NULL);
  }
}

/* What a child that could not exec writes on its stderr, then the program and the reason. */
#define EXEC_FAILED "symq: cannot run "

typedef struct env_var {
  const char *name, *value;
} env_var;

/* Runs argv[0] (looked up in PATH) in `cwd` with stdin from /dev/null, stdout to
 * `out_path` and stderr to `err_path` (the same file when equal; NULL: /dev/null), the
 * environment plus `env`, in a process group of its own, killed (the group) after
 * `timeout_s` seconds (0: no limit), and killed when symq dies (a killed replay must not leave
 * a spinning test behind). Returns false only when it could not be started. */
static bool run_program(char *const argv[], const char *cwd, const char *out_path,
                        const char *err_path, const env_var *env, size_t nenv, double timeout_s,
                        run_result *r) {
  memset(r, 0, sizeof *r);
  fflush(stdout);
  fflush(stderr);
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    setpgid(0, 0);
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int in = open("/dev/null", O_RDONLY);
    int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = err_path && out_path && strcmp(err_path, out_path) == 0
                  ? dup(out)
                  : open(err_path ? err_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) _exit(127);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    if (in > 2) close(in);
    if (out > 2) close(out);
    if (err > 2) close(err);
    if (cwd && chdir(cwd) != 0) {
      dprintf(2, "symq: cannot enter %s: %s\n", cwd, strerror(errno));
      _exit(127);
    }
    for (size_t k = 0; k < nenv; k++) setenv(env[k].name, env[k].value, 1);
    execvp(argv[0], argv);
    dprintf(2, "%s%s: %s\n", EXEC_FAILED, argv[0], strerror(errno));
    _exit(127);
  }
  setpgid(pid, pid); /* also in the parent: no race with the kill below */
  struct timespec t0, now;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  int status;
  long sleep_ns = 200000; /* 0.2 ms, doubling to 20 ms: short tests end quickly */
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return false;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double elapsed = (double)(now.tv_sec - t0.tv_sec) + (double)(now.tv_nsec - t0.tv_nsec) / 1e9;
    if ((timeout_s > 0 && elapsed > timeout_s) || interrupted) {
      kill(-pid, SIGKILL); /* the child's own group: it is not reaped yet, so still ours */
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r->timed_out = !interrupted;
      r->interrupted = interrupted;
      return true;
    }
    struct timespec d = {0, sleep_ns};
    nanosleep(&d, NULL);
    if (sleep_ns < 20000000) sleep_ns *= 2;
  }
  if (WIFEXITED(status)) {
    r->exited = true;
    r->code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r->sig = WTERMSIG(status);
  }
  return true;
}

/* The line of a compiler's (or gcovr's) output that says what went wrong. */
static char *first_problem_line(const char *text) {
  /* by priority: a linker's own words before collect2's "error: ld returned 1" */
  static const char *const strong[] = {"undefined reference", "cannot find",
                                       "fatal error",         ": error:",
                                       "cannot run",          "No such file"};
  const char *pick = NULL;
  for (size_t k = 0; k < sizeof strong / sizeof *strong && !pick; k++) {
    const char *at = strstr(text, strong[k]);
    if (at) {
      while (at > text && at[-1] != '\n') at--;
      pick = at;
    }
  }
  if (!pick) {
    const char *at = strstr(text, "error");
    if (at) {
      while (at > text && at[-1] != '\n') at--;
      pick = at;
    }
  }
  if (!pick) {
    pick = text;
    while (*pick == '\n' || *pick == ' ') pick++;
  }
  size_t n = strcspn(pick, "\n");
  if (n > 300) n = 300;
  char *line = xmalloc(n + 1);
  memcpy(line, pick, n);
  line[n] = 0;
  return line;
}

/* ---- the output directory --------------------------------------------------------------- */

typedef struct test_case {
  unsigned id;
  char *name;        /* "test000001" */
  char *ktest;       /* absolute path */
  char *err_kind;    /* NULL when the test has no .err */
  char *err_file;    /* the .err's File:, or NULL */
  unsigned err_line; /* the .err's Line:, 0 when absent */
  char *err_message;
  char *early; /* the .early file's first line, or NULL */
} test_case;

typedef struct replay_dir {
  char *dir;      /* absolute */
  char *input;    /* the first source: names the program in messages */
  char **sources; /* what the native build compiles: the run's inputs (absolute), its .bc/.ll
                     ones replaced by the --source files */
  size_t nsources;
  char *cwd, *cflags, *runtime;
  char **link_native; /* the run's --link-native libraries (symq run --external-calls) */
  size_t nlink_native;
  test_case *tests;
  size_t ntests;
} replay_dir;

static void dir_free(replay_dir *d) {
  for (size_t k = 0; k < d->ntests; k++) {
    test_case *t = &d->tests[k];
    free(t->name);
    free(t->ktest);
    free(t->err_kind);
    free(t->err_file);
    free(t->err_message);
    free(t->early);
  }
  free(d->tests);
  free(d->dir);
  for (size_t k = 0; k < d->nsources; k++) free(d->sources[k]);
  free(d->sources);
  free(d->input);
  free(d->cwd);
  free(d->cflags);
  free(d->runtime);
  for (size_t k = 0; k < d->nlink_native; k++) free(d->link_native[k]);
  free(d->link_native);
}

/* The values of every `key: value` line of `text`, in order (*n of them; free each). */
static char **info_values(const char *text, const char *key, size_t *n) {
  char **values = NULL;
  *n = 0;
  size_t klen = strlen(key);
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len >= klen + 1 && strncmp(line, key, klen) == 0 && line[klen] == ':') {
      const char *v = line + klen + 1;
      while (*v == ' ' && v < line + len) v++;
      values = xrealloc(values, (*n + 1) * sizeof *values);
      values[(*n)++] = xasprintf("%.*s", (int)(line + len - v), v);
    }
    line = end ? end + 1 : NULL;
  }
  return values;
}

/* The value of the first `key: value` line of `text`, or NULL. */
static char *info_value(const char *text, const char *key) {
  size_t n;
  char **values = info_values(text, key, &n);
  for (size_t k = 1; k < n; k++) free(values[k]);
  char *first = n ? values[0] : NULL;
  free(values);
  return first;
}

static bool is_c_source(const char *path) {
  const char *ext = strrchr(path, '.');
  return ext && !strchr(ext, '/') && (strcmp(ext, ".c") == 0 || strcmp(ext, ".i") == 0);
}

/* testNNNNNN.SUFFIX → NNNNNN and the suffix; false for any other name. */
static bool parse_test_name(const char *name, unsigned *id, const char **suffix) {
  if (strncmp(name, "test", 4) != 0) return false;
  const char *p = name + 4;
  unsigned long v = 0;
  int digits = 0;
  for (; isdigit((unsigned char)*p) && digits < 9; p++, digits++)
    v = v * 10 + (unsigned long)(*p - '0');
  if (digits < 6 || *p != '.') return false;
  *id = (unsigned)v;
  *suffix = p + 1;
  return true;
}

static int by_id(const void *a, const void *b) {
  unsigned x = ((const test_case *)a)->id, y = ((const test_case *)b)->id;
  return x < y ? -1 : x > y;
}

/* The test with this id (d->tests is sorted by id), or NULL. */
static test_case *find_test(replay_dir *d, unsigned id) {
  test_case key = {.id = id};
  return d->ntests ? bsearch(&key, d->tests, d->ntests, sizeof *d->tests, by_id) : NULL;
}

static void read_err_file(test_case *t, const char *path) {
  char *text = read_file(path, 1u << 16, NULL);
  if (!text) return;
  char *line = info_value(text, "Line");
  t->err_line = line ? (unsigned)strtoul(line, NULL, 10) : 0;
  free(line);
  t->err_file = info_value(text, "File");
  t->err_message = info_value(text, "Error");
  free(text);
}

/* The sources of the native build (d->sources): the run's inputs, in order, each .bc/.ll
 * one (LLVM IR has no native build here) replaced by the C files of --source, all of them
 * at the place of the first. Prints one line and returns false when an input is IR and no
 * --source was given, a --source was given for a run without IR input, or a file cannot
 * be read. */
static bool resolve_sources(const char *outdir, char **inputs, size_t ninputs,
                            const char *const *given, size_t ngiven, replay_dir *d) {
  d->sources = xcalloc(ninputs + ngiven, sizeof *d->sources);
  bool replaced = false;
  for (size_t k = 0; k < ninputs; k++) {
    if (d->cwd && *d->cwd && inputs[k][0] != '/') {
      char *abs = xasprintf("%s/%s", d->cwd, inputs[k]);
      free(inputs[k]);
      inputs[k] = abs;
    }
    if (is_c_source(inputs[k])) {
      if (access(inputs[k], R_OK) != 0) {
        fprintf(stderr, "symq: error: %s: the input %s recorded in info: %s\n", outdir, inputs[k],
                strerror(errno));
        return false;
      }
      d->sources[d->nsources++] = xstrdup(inputs[k]);
      continue;
    }
    if (!ngiven) {
      fprintf(stderr,
              "symq: error: %s: the input %s is LLVM IR, which cannot be rebuilt natively: give "
              "its C source%s with --source FILE.c\n",
              outdir, inputs[k], ninputs > 1 ? " (the library's C files)" : "");
      return false;
    }
    for (size_t j = 0; j < ngiven && !replaced; j++) {
      char *abs = realpath(given[j], NULL);
      if (!abs) {
        fprintf(stderr, "symq: error: --source %s: %s\n", given[j], strerror(errno));
        return false;
      }
      d->sources[d->nsources++] = abs;
    }
    replaced = true;
  }
  if (ngiven && !replaced) {
    fprintf(stderr,
            "symq: error: %s: --source replaces the run's .bc/.ll inputs, and its inputs are all "
            "C files\n",
            outdir);
    return false;
  }
  d->input = xstrdup(d->sources[0]);
  return true;
}

/* Reads OUTDIR: info (what to rebuild, with the --source files `given`) and the tests with
 * their .err and .early files. Prints one line and returns false when OUTDIR is missing or
 * not symq's output, or its program cannot be rebuilt natively. */
static bool dir_load(const char *outdir, const char *const *given, size_t ngiven, replay_dir *d) {
  memset(d, 0, sizeof *d);
  struct stat st;
  if (stat(outdir, &st) != 0) {
    fprintf(stderr, "symq: error: %s: %s\n", outdir, strerror(errno));
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    fprintf(stderr, "symq: error: %s: not a directory\n", outdir);
    return false;
  }
  d->dir = realpath(outdir, NULL);
  if (!d->dir) {
    fprintf(stderr, "symq: error: %s: %s\n", outdir, strerror(errno));
    return false;
  }
  char *info_path = xasprintf("%s/info", d->dir);
  char *info = read_file(info_path, 1u << 20, NULL);
  free(info_path);
  if (!info) {
    fprintf(stderr, "symq: error: %s: not a symq output directory (no readable info file)\n",
            outdir);
    return false;
  }
  size_t ninputs;
  char **inputs = info_values(info, "input", &ninputs);
  d->cwd = info_value(info, "cwd");
  d->cflags = info_value(info, "cflags");
  d->runtime = info_value(info, "runtime");
  d->link_native = info_values(info, "link_native", &d->nlink_native);
  char *status = info_value(info, "Status");
  free(info);
  if (!ninputs || !*inputs[0]) {
    fprintf(stderr,
            "symq: error: %s/info names no driver (no 'input:' line; written by an older "
            "symq?)\n",
            outdir);
    free(status);
    for (size_t k = 0; k < ninputs; k++) free(inputs[k]);
    free(inputs);
    return false;
  }
  /* a run that failed, is running, or was killed may have lost tests: replay what there
   * is, but say so (a directory refused above gets its error alone) */
  if (!status || strcmp(status, "finished") != 0)
    fprintf(stderr,
            "symq: warning: %s: the run did not finish (Status: %s): its tests may be "
            "incomplete\n",
            outdir, status ? status : "none");
  free(status);
  if (!d->cwd) d->cwd = xstrdup("");
  if (!d->cflags) d->cflags = xstrdup("");
  bool ok = resolve_sources(outdir, inputs, ninputs, given, ngiven, d);
  for (size_t k = 0; k < ninputs; k++) free(inputs[k]);
  free(inputs);
  if (!ok) return false;

  DIR *dh = opendir(d->dir);
  if (!dh) {
    fprintf(stderr, "symq: error: %s: %s\n", outdir, strerror(errno));
    return false;
  }
  size_t cap = 0;
  struct dirent *e;
  while ((e = readdir(dh))) {
    unsigned id;
    const char *suffix;
    if (parse_test_name(e->d_name, &id, &suffix) && strcmp(suffix, "ktest") == 0) {
      if (d->ntests == cap) {
        cap = cap ? 2 * cap : 64;
        d->tests = xrealloc(d->tests, cap * sizeof *d->tests);
      }
      test_case *t = &d->tests[d->ntests++];
      memset(t, 0, sizeof *t);
      t->id = id;
      t->name = xstrdup(e->d_name);
      t->name[strlen(t->name) - strlen(".ktest")] = 0;
      t->ktest = xasprintf("%s/%s", d->dir, e->d_name);
    }
  }
  if (d->ntests) qsort(d->tests, d->ntests, sizeof *d->tests, by_id);
  rewinddir(dh);
  while ((e = readdir(dh))) {
    unsigned id;
    const char *suffix;
    if (!parse_test_name(e->d_name, &id, &suffix)) continue;
    test_case *t = find_test(d, id);
    if (!t) continue;
    size_t n = strlen(suffix);
    char *path = xasprintf("%s/%s", d->dir, e->d_name);
    if (n > 4 && strcmp(suffix + n - 4, ".err") == 0 && !t->err_kind) {
      t->err_kind = xstrdup(suffix);
      t->err_kind[n - 4] = 0;
      read_err_file(t, path);
    } else if (strcmp(suffix, "early") == 0) {
      char *text = read_file(path, 4096, NULL);
      t->early = text ? text : xstrdup("");
      t->early[strcspn(t->early, "\n")] = 0;
    }
    free(path);
  }
  closedir(dh);
  return true;
}

/* ---- building the driver natively ------------------------------------------------------ */

typedef enum build_mode { BUILD_PLAIN, BUILD_SANITIZE, BUILD_COVERAGE } build_mode;

/* The recorded -I/-D flags; a relative -I directory is relative to the recorded cwd. (info
 * joins the flags with single spaces, so a flag containing a space cannot be told apart.) */
static void push_recorded_flags(strvec *args, const replay_dir *d) {
  char *copy = xstrdup(d->cflags);
  for (char *tok = strtok(copy, " \t"); tok; tok = strtok(NULL, " \t")) {
    if (strncmp(tok, "-I", 2) == 0 && tok[2] && tok[2] != '/' && *d->cwd) {
      char *flag = xasprintf("-I%s/%s", d->cwd, tok + 2);
      sv_push(args, flag);
      free(flag);
    } else {
      sv_push(args, tok);
    }
  }
  free(copy);
}

static void push_mode_flags(strvec *args, build_mode mode) {
  sv_push(args, "-g");
  sv_push(args, "-O0");
  if (mode == BUILD_SANITIZE) {
    sv_push(args, "-fsanitize=address,undefined");
    sv_push(args, "-fno-sanitize-recover");
    sv_push(args, "-fno-omit-frame-pointer");
  } else {
    /* __builtin_unreachable() traps (SIGILL) instead of running on: an exec error stays
     * visible without sanitizers, and nothing else changes */
    sv_push(args, "-fsanitize=unreachable");
    sv_push(args, "-fsanitize-undefined-trap-on-error");
  }
}

/* Runs a tool (a compiler, gcovr) in cwd (NULL: SCRATCH) with its output in
 * SCRATCH/NAME.log. On failure prints
 * one line, `symq: error: WHAT (TOOL): ITS FIRST ERROR` or that the tool cannot be run
 * (with `hint`, if any, appended), and returns false. */
static bool run_tool(strvec *args, const char *scratch, const char *cwd, const char *name,
                     const char *what, const char *hint) {
  char *log = xasprintf("%s/%s.log", scratch, name);
  run_result r;
  bool started = run_program(args->v, cwd ? cwd : scratch, log, log, NULL, 0, 0, &r);
  bool ok = started && r.exited && r.code == 0;
  if (!ok && interrupted) {
    fprintf(stderr, "symq: error: interrupted\n");
  } else if (!ok) {
    char *text = read_file(log, 1u << 20, NULL);
    if (!text) text = xstrdup("");
    bool cannot_exec =
        r.exited && r.code == 127 && strncmp(text, EXEC_FAILED, strlen(EXEC_FAILED)) == 0;
    if (!started || cannot_exec) {
      const char *reason = strrchr(text, ':');
      fprintf(stderr, "symq: error: %s: cannot run %s: %.*s%s\n", what, args->v[0],
              reason ? (int)strcspn(reason + 2, "\n") : 7, reason ? reason + 2 : "unknown",
              hint ? hint : "");
    } else {
      char *line = first_problem_line(text);
      fprintf(stderr, "symq: error: %s (%s): %s\n", what, base_name(args->v[0]),
              *line ? line : "(no message)");
      free(line);
    }
    free(text);
  }
  free(log);
  return ok;
}

/* The directory the run was started in, where the recorded flags' relative paths (and
 * relative inputs) are relative to; NULL when it is gone (then -I paths are made absolute by
 * push_recorded_flags and the rest is compiled in the scratch directory). */
static const char *build_cwd(const replay_dir *d) {
  struct stat st;
  return *d->cwd && stat(d->cwd, &st) == 0 && S_ISDIR(st.st_mode) ? d->cwd : NULL;
}

/* Builds SCRATCH/driver from the recorded sources (each with the recorded flags) and the
 * replay library. */
static bool build_driver(const replay_dir *d, const char *cc, build_mode mode, const char *scratch,
                         char **exe_out) {
  char *lib_o = xasprintf("%s/replay.o", scratch);
  char *exe = xasprintf("%s/driver", scratch);
  char **objects = xcalloc(d->nsources, sizeof *objects);
  char *what = NULL;
  bool ok = false;
  strvec a = {0};

  for (size_t k = 0; k < d->nsources; k++) {
    /* one object per source, numbered: two sources may share a base name */
    objects[k] = d->nsources == 1 ? xasprintf("%s/driver.o", scratch)
                                  : xasprintf("%s/source%zu.o", scratch, k + 1);
    sv_push(&a, cc);
    sv_push(&a, "-c");
    push_mode_flags(&a, mode);
    if (mode == BUILD_COVERAGE) sv_push(&a, "--coverage");
    sv_push(&a, "-I" RUNTIME_INCLUDE);
    push_recorded_flags(&a, d);
    sv_push(&a, "-o");
    sv_push(&a, objects[k]);
    sv_push(&a, d->sources[k]);
    free(what);
    what = xasprintf("cannot compile %s natively", d->sources[k]);
    if (!run_tool(&a, scratch, build_cwd(d), "compile", what, NULL)) goto done;
    sv_free(&a);
  }

  /* the library: not instrumented for coverage (the report is about the program), but
   * told to write the counters when a test dies of a signal */
  sv_push(&a, cc);
  sv_push(&a, "-c");
  push_mode_flags(&a, mode);
  if (mode == BUILD_COVERAGE) sv_push(&a, "-DSYMQ_REPLAY_GCOV");
  sv_push(&a, "-I" RUNTIME_INCLUDE);
  sv_push(&a, "-o");
  sv_push(&a, lib_o);
  sv_push(&a, REPLAY_LIBRARY);
  free(what);
  what = xasprintf("cannot compile the replay library %s", REPLAY_LIBRARY);
  if (!run_tool(&a, scratch, NULL, "compile", what, NULL)) goto done;
  sv_free(&a);

  sv_push(&a, cc);
  /* the traps of the other modes need no sanitizer runtime */
  if (mode == BUILD_SANITIZE) sv_push(&a, "-fsanitize=address,undefined");
  if (mode == BUILD_COVERAGE) sv_push(&a, "--coverage");
  sv_push(&a, "-o");
  sv_push(&a, exe);
  for (size_t k = 0; k < d->nsources; k++) sv_push(&a, objects[k]);
  sv_push(&a, lib_o);
  /* the libraries the run called natively: a name as -l:NAME, a path as it is (from cwd) */
  for (size_t k = 0; k < d->nlink_native; k++) {
    const char *l = d->link_native[k];
    char *item = !strchr(l, '/') ? xasprintf("-l:%s", l)
                 : l[0] == '/'   ? xstrdup(l)
                                 : xasprintf("%s/%s", d->cwd, l);
    sv_push(&a, item);
    free(item);
  }
  sv_push(&a, "-lm");
  free(what);
  if (d->nsources == 1) what = xasprintf("cannot link %s natively", d->input);
  else
    what = xasprintf("cannot link %s and %zu more sources natively", d->input, d->nsources - 1);
  if (!run_tool(&a, scratch, NULL, "compile", what, NULL)) goto done;
  ok = true;
  *exe_out = exe;
  exe = NULL;
done:
  sv_free(&a);
  free(what);
  free(lib_o);
  for (size_t k = 0; k < d->nsources; k++) free(objects[k]);
  free(objects);
  free(exe);
  return ok;
}

static char *make_scratch(const char *prefix) {
  const char *tmp = getenv("TMPDIR");
  char *dir = xasprintf("%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
  if (!mkdtemp(dir)) {
    fprintf(stderr, "symq: error: cannot create a directory %s: %s\n", dir, strerror(errno));
    free(dir);
    return NULL;
  }
  return dir;
}

/* ---- running one test ------------------------------------------------------------------ */

typedef enum obs_kind {
  OBS_EXIT,   /* exited by itself (code) */
  OBS_SIGNAL, /* killed by a signal (sig) */
  OBS_TIMEOUT,
  OBS_BAD_KTEST, /* the ktest could not be read, or did not fit the driver */
  OBS_ASSUME,    /* the library: assumption violated */
  OBS_REPORT,    /* the library: klee_report_error / symq_report_error (kind) */
  OBS_REACH,     /* the library: reach_error */
  OBS_ASSERT,    /* glibc's assertion failure (file, line) */
  OBS_SANITIZER  /* an ASan or UBSan report (detail, file, line) */
} obs_kind;

typedef struct observed {
  obs_kind kind;
  run_result run;
  char status[64];   /* "exit 0", "signal 6 (SIGABRT)", "timeout after 10 s" */
  char detail[1024]; /* the library's line, the sanitizer's message, … */
  char report_kind[64];
  char assertion[512]; /* OBS_ASSERT: the expression glibc printed */
  char file[1024];     /* "" when unknown */
  unsigned line;
} observed;

/* The last line of `text` that starts with `prefix` and is no warning (its rest copied into
 * out), or false. */
static bool last_line_with(const char *text, const char *prefix, char *out, size_t out_size) {
  const char *found = NULL;
  size_t plen = strlen(prefix);
  for (const char *line = text; line && *line;) {
    if (strncmp(line, prefix, plen) == 0 && strncmp(line + plen, "warning: ", 9) != 0)
      found = line + plen;
    const char *end = strchr(line, '\n');
    line = end ? end + 1 : NULL;
  }
  if (!found) return false;
  size_t n = strcspn(found, "\n");
  if (n >= out_size) n = out_size - 1;
  memcpy(out, found, n);
  out[n] = 0;
  return true;
}

/* "FILE:LINE[:COLUMN]" (the first `len` bytes of `loc`) → file and line; false when it does
 * not end in a line number. */
static bool split_location(const char *loc, size_t len, char *file, size_t file_size,
                           unsigned *line) {
  unsigned nums[2];
  int found = 0;
  size_t end = len;
  while (found < 2) {
    size_t colon = end;
    while (colon > 0 && loc[colon - 1] != ':') colon--;
    if (colon == 0 || colon == end) break;
    size_t k = colon;
    while (k < end && isdigit((unsigned char)loc[k])) k++;
    if (k != end) break;
    nums[found++] = (unsigned)strtoul(loc + colon, NULL, 10);
    end = colon - 1;
  }
  if (!found) return false;
  *line = nums[found - 1]; /* FILE:LINE:COLUMN → LINE is the second from the right */
  size_t n = end < file_size ? end : file_size - 1;
  memcpy(file, loc, n);
  file[n] = 0;
  return true;
}

/* "FILE:LINE:COLUMN: runtime error: MESSAGE" — UBSan's (first) report. */
static bool parse_ubsan(const char *text, observed *o) {
  const char *at = strstr(text, ": runtime error: ");
  if (!at) return false;
  const char *line = at;
  while (line > text && line[-1] != '\n') line--;
  if (!split_location(line, (size_t)(at - line), o->file, sizeof o->file, &o->line)) {
    o->file[0] = 0;
    o->line = 0;
  }
  const char *msg = at + strlen(": runtime error: ");
  snprintf(o->detail, sizeof o->detail, "UBSan: %.*s", (int)strcspn(msg, "\n"), msg);
  return true;
}

/* "==PID==ERROR: AddressSanitizer: TYPE …" and its first stack, frames
 * "#N 0xADDR in FUNC FILE:LINE[:COLUMN]". The location is the first frame in an absolute
 * source path other than the replay library (the sanitizer's runtime and libc have relative
 * paths or none). */
static bool parse_asan(const char *text, observed *o) {
  const char *at = strstr(text, "ERROR: AddressSanitizer: ");
  if (!at) return false;
  /* "heap-use-after-free on address 0x…", "attempting double-free on 0x…", "SEGV on
   * unknown address 0x…": the words before the address, less a trailing "on address" */
  const char *type = at + strlen("ERROR: AddressSanitizer: ");
  size_t n = strcspn(type, "\n");
  const char *hex = strstr(type, "0x");
  if (hex && (size_t)(hex - type) < n) n = (size_t)(hex - type);
  static const char *const tails[] = {" on address ", " on ", ": ", " "};
  for (size_t k = 0; k < sizeof tails / sizeof *tails; k++) {
    size_t tl = strlen(tails[k]);
    if (n >= tl && strncmp(type + n - tl, tails[k], tl) == 0) n -= tl;
  }
  snprintf(o->detail, sizeof o->detail, "ASan: %.*s", (int)n, type);
  bool in_stack = false;
  for (const char *line = strchr(at, '\n'); line && line[1];) {
    line++;
    size_t len = strcspn(line, "\n");
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p != '#') {
      if (in_stack) break; /* the first stack is over */
    } else {
      in_stack = true;
      const char *word = line + len;
      while (word > p && word[-1] != ' ') word--;
      char file[1024];
      unsigned num;
      if (*word == '/' &&
          split_location(word, (size_t)(line + len - word), file, sizeof file, &num) &&
          strcmp(file, REPLAY_LIBRARY) != 0) {
        snprintf(o->file, sizeof o->file, "%s", file);
        o->line = num;
        return true;
      }
    }
    line = strchr(line, '\n');
  }
  return true;
}

/* glibc: "PROG: FILE:LINE: FUNC: Assertion `EXPR' failed." */
static bool parse_assertion(const char *text, observed *o) {
  const char *at = strstr(text, ": Assertion `");
  if (!at) return false;
  const char *line = at;
  while (line > text && line[-1] != '\n') line--;
  snprintf(o->detail, sizeof o->detail, "%.*s", (int)strcspn(line, "\n"), line);
  const char *cond = at + strlen(": Assertion `");
  const char *cond_end = strstr(cond, "' failed");
  if (cond_end && (size_t)(cond_end - cond) < sizeof o->assertion) {
    memcpy(o->assertion, cond, (size_t)(cond_end - cond));
    o->assertion[cond_end - cond] = 0;
  }
  /* the first ":DIGITS: " in the line ends FILE; FILE starts after the first ": " */
  const char *start = strstr(line, ": ");
  for (const char *q = line; q < at; q++) {
    if (*q != ':' || !isdigit((unsigned char)q[1])) continue;
    const char *d = q + 1;
    while (isdigit((unsigned char)*d)) d++;
    if (d[0] != ':' || d[1] != ' ') continue;
    const char *f = start && start < q ? start + 2 : line;
    size_t n = (size_t)(q - f);
    if (n >= sizeof o->file) n = sizeof o->file - 1;
    memcpy(o->file, f, n);
    o->file[n] = 0;
    o->line = (unsigned)strtoul(q + 1, NULL, 10);
    break;
  }
  return true;
}

/* What ended the run, from its status and stderr. The library's statuses count only with
 * the library's own line; sanitizer reports only in a sanitized build. */
static void observe(const run_result *r, const char *err, bool sanitize, double timeout_s,
                    observed *o) {
  memset(o, 0, sizeof *o);
  o->run = *r;
  if (r->timed_out) {
    snprintf(o->status, sizeof o->status, "timeout after %g s", timeout_s);
    o->kind = OBS_TIMEOUT;
    return;
  }
  if (r->exited) snprintf(o->status, sizeof o->status, "exit %d", r->code);
  else
    snprintf(o->status, sizeof o->status, "signal %d (%s)", r->sig, signal_name(r->sig));

  char tag[512];
  bool tagged = last_line_with(err, SYMQ_REPLAY_TAG, tag, sizeof tag);
  if (r->exited && tagged) {
    if (r->code == SYMQ_REPLAY_EXIT_KTEST &&
        (strncmp(tag, "ktest mismatch: ", 16) == 0 || strncmp(tag, "ktest error: ", 13) == 0)) {
      o->kind = OBS_BAD_KTEST;
      snprintf(o->detail, sizeof o->detail, "%s", tag);
      return;
    }
    if (r->code == SYMQ_REPLAY_EXIT_ASSUME && strncmp(tag, "assumption violated", 19) == 0) {
      o->kind = OBS_ASSUME;
      snprintf(o->detail, sizeof o->detail, "%s", tag);
      return;
    }
    if (r->code == SYMQ_REPLAY_EXIT_REACH && strncmp(tag, "reach_error: ", 13) == 0) {
      o->kind = OBS_REACH;
      snprintf(o->detail, sizeof o->detail, "%s", tag + 13);
      return;
    }
    if (r->code == SYMQ_REPLAY_EXIT_REPORT && strncmp(tag, "error (", 7) == 0) {
      const char *close = strchr(tag + 7, ')');
      if (close) {
        o->kind = OBS_REPORT;
        size_t n = (size_t)(close - (tag + 7));
        if (n >= sizeof o->report_kind) n = sizeof o->report_kind - 1;
        memcpy(o->report_kind, tag + 7, n);
        o->report_kind[n] = 0;
        snprintf(o->detail, sizeof o->detail, "%s", close + (close[1] == ':' ? 3 : 1));
        return;
      }
    }
  }
  if (sanitize && !(r->exited && r->code == 0) && (parse_asan(err, o) || parse_ubsan(err, o))) {
    o->kind = OBS_SANITIZER;
    return;
  }
  if (!r->exited && r->sig == SIGABRT && parse_assertion(err, o)) {
    o->kind = OBS_ASSERT;
    return;
  }
  o->file[0] = 0;
  o->line = 0;
  o->detail[0] = 0;
  o->kind = r->exited ? OBS_EXIT : OBS_SIGNAL;
}

static bool same_place(const observed *o, const test_case *t) {
  if (!o->line || !t->err_line) return o->line == t->err_line;
  if (o->line != t->err_line) return false;
  return !t->err_file || !*t->err_file || !o->file[0] ||
         strcmp(base_name(o->file), base_name(t->err_file)) == 0;
}

static bool is_signal(const observed *o, int a, int b, int c) {
  return o->kind == OBS_SIGNAL && (o->run.sig == a || o->run.sig == b || o->run.sig == c);
}

/* How the run ended, in words (a new string). */
static char *describe(const observed *o) {
  switch (o->kind) {
  case OBS_EXIT: return xstrdup("the program exited normally");
  case OBS_TIMEOUT: return xstrdup("the program timed out");
  case OBS_BAD_KTEST: return xasprintf("replay failed: %s", o->detail);
  case OBS_ASSERT: return xasprintf("assertion failed at %s:%u", base_name(o->file), o->line);
  case OBS_SANITIZER:
    return xasprintf("%s at %s:%u", o->detail, o->file[0] ? base_name(o->file) : "?", o->line);
  case OBS_SIGNAL: return xasprintf("killed by %s", signal_name(o->run.sig));
  case OBS_ASSUME:
  case OBS_REACH: return xstrdup(o->detail);
  case OBS_REPORT: return xasprintf("reported a %s error: %s", o->report_kind, o->detail);
  }
  return xstrdup(o->status);
}

/* Error kinds that may not crash natively (an out-of-bounds access inside memory the
 * process owns, a use after free, an over-wide shift): replayed in a sanitized build. */
static bool needs_sanitizer(const char *kind) {
  return strcmp(kind, "ptr") == 0 || strcmp(kind, "free") == 0 || strcmp(kind, "overshift") == 0 ||
         strcmp(kind, "overflow") == 0;
}

/* Whether `o` reproduces the error of `t` (see the top of the file): NULL when it does,
 * else why not (a new string). */
static char *mismatch_reason(const test_case *t, const observed *o, bool sanitize) {
  const char *k = t->err_kind;
  if (o->kind == OBS_REPORT && strcmp(o->report_kind, k) == 0) return NULL;
  if (o->kind == OBS_SANITIZER || (o->kind == OBS_ASSERT && strcmp(k, "assert") == 0)) {
    if (same_place(o, t)) return NULL;
    /* __assert_fail called by hand may pass any line: then the expression must agree */
    if (o->kind == OBS_ASSERT && t->err_message &&
        strncmp(t->err_message, "ASSERTION FAIL: ", 16) == 0 &&
        strcmp(t->err_message + 16, o->assertion) == 0)
      return NULL;
    char *got = describe(o);
    char *why = xasprintf("%s error at line %u not reproduced: %s", k, t->err_line, got);
    free(got);
    return why;
  }
  bool ok;
  if (strcmp(k, "abort") == 0) ok = is_signal(o, SIGABRT, SIGILL, SIGTRAP);
  else if (strcmp(k, "reach_error") == 0) /* or the driver's own reach_error, then abort() */
    ok = o->kind == OBS_REACH || o->kind == OBS_ASSERT || is_signal(o, SIGABRT, SIGABRT, SIGABRT);
  else if (strcmp(k, "user") == 0)
    ok = o->kind == OBS_ASSUME;
  else if (strcmp(k, "div") == 0)
    ok = is_signal(o, SIGFPE, SIGFPE, SIGFPE);
  else if (strcmp(k, "ptr") == 0)
    ok = is_signal(o, SIGSEGV, SIGBUS, SIGBUS);
  else if (strcmp(k, "free") == 0)
    ok = is_signal(o, SIGABRT, SIGSEGV, SIGBUS);
  else if (strcmp(k, "exec") == 0)
    ok = is_signal(o, SIGILL, SIGTRAP, SIGSEGV);
  else if (strcmp(k, "assert") == 0 || strcmp(k, "overflow") == 0 || strcmp(k, "overshift") == 0)
    ok = false;
  else
    ok = o->kind == OBS_SIGNAL || o->kind == OBS_ASSERT || o->kind == OBS_ASSUME ||
         o->kind == OBS_REACH || o->kind == OBS_REPORT;
  if (ok) return NULL;
  bool memory = needs_sanitizer(k) || strcmp(k, "div") == 0 || strcmp(k, "exec") == 0;
  char *got = describe(o);
  char *why = xasprintf("%s error at line %u not reproduced: %s%s", k, t->err_line, got,
                        memory && !sanitize && o->kind == OBS_EXIT
                            ? " (such errors show reliably only with --sanitize)"
                            : "");
  free(got);
  return why;
}

/* The error test of `d` whose error `o` reproduces, if any. symq reports an error once per
 * place (KLEE's rule); a test without a .err that ends in an error reported by another test
 * is such a repeat (under merging, a constituent of the merged state that reports it). */
static const test_case *same_error_as(const replay_dir *d, const observed *o, bool sanitize) {
  if (o->kind == OBS_EXIT || o->kind == OBS_TIMEOUT || o->kind == OBS_BAD_KTEST) return NULL;
  for (size_t k = 0; k < d->ntests; k++) {
    const test_case *u = &d->tests[k];
    if (!u->err_kind) continue;
    char *why = mismatch_reason(u, o, sanitize);
    if (!why) return u;
    free(why);
  }
  return NULL;
}

typedef struct run_env {
  env_var vars[8];
  size_t n;
  char *asan, *ubsan;
} run_env;

/* The environment of every test run: sanitizers report (not abort) once, without leak
 * checking (symq does not report leaks), symbolized; an allocation that cannot be satisfied
 * (calloc's product overflowing) returns NULL as glibc's does, as symq models it. */
static void env_init(run_env *e, bool sanitize) {
  memset(e, 0, sizeof *e);
  if (!sanitize) return;
  const char *user = getenv("ASAN_OPTIONS");
  e->asan = xasprintf(
      "%s%sdetect_leaks=0:abort_on_error=0:halt_on_error=1:symbolize=1:"
      "allocator_may_return_null=1",
      user ? user : "", user && *user ? ":" : "");
  user = getenv("UBSAN_OPTIONS");
  e->ubsan = xasprintf("%s%sprint_stacktrace=1:halt_on_error=1:abort_on_error=0", user ? user : "",
                       user && *user ? ":" : "");
  e->vars[e->n++] = (env_var){"ASAN_OPTIONS", e->asan};
  e->vars[e->n++] = (env_var){"UBSAN_OPTIONS", e->ubsan};
  if (!getenv("ASAN_SYMBOLIZER_PATH")) {
    /* clang's runtime needs llvm-symbolizer to print file:line; it sits beside clang */
    static char symbolizer[PATH_MAX];
    char *clang = realpath(SYMQ_CLANG, NULL);
    if (clang) {
      char *slash = strrchr(clang, '/');
      if (slash) {
        *slash = 0;
        snprintf(symbolizer, sizeof symbolizer, "%s/llvm-symbolizer", clang);
        if (access(symbolizer, X_OK) == 0)
          e->vars[e->n++] = (env_var){"ASAN_SYMBOLIZER_PATH", symbolizer};
      }
      free(clang);
    }
  }
}

static void env_free(run_env *e) {
  free(e->asan);
  free(e->ubsan);
}

/* Runs `exe` on test `t` (KTEST_FILE, and argv from the ktest). Returns false when the
 * ktest is unreadable (o then says so). */
static void run_test(const char *exe, const char *scratch, const test_case *t, run_env *env,
                     bool sanitize, double timeout_s, observed *o, char **err_text) {
  *err_text = NULL;
  char err[400];
  ktest *k = ktest_read(t->ktest, err, sizeof err);
  if (!k) {
    memset(o, 0, sizeof *o);
    o->kind = OBS_BAD_KTEST;
    snprintf(o->status, sizeof o->status, "not run");
    snprintf(o->detail, sizeof o->detail, "invalid ktest: %s", err);
    return;
  }
  strvec argv = {0};
  sv_push(&argv, exe);
  for (uint32_t a = 1; a < k->num_args; a++) sv_push(&argv, k->args[a]);
  ktest_free(k);
  char *out_path = xasprintf("%s/stdout.txt", scratch);
  char *err_path = xasprintf("%s/stderr.txt", scratch);
  env->vars[env->n] = (env_var){"KTEST_FILE", t->ktest};
  run_result r;
  if (!run_program(argv.v, scratch, out_path, err_path, env->vars, env->n + 1, timeout_s, &r)) {
    memset(o, 0, sizeof *o);
    o->kind = OBS_BAD_KTEST;
    snprintf(o->status, sizeof o->status, "not run");
    snprintf(o->detail, sizeof o->detail, "cannot run %s: %s", exe, strerror(errno));
  } else {
    char *text = read_file(err_path, MAX_CAPTURE, NULL);
    if (!text) text = xstrdup("");
    observe(&r, text, sanitize, timeout_s, o);
    *err_text = text;
  }
  free(out_path);
  free(err_path);
  sv_free(&argv);
}

/* ---- option parsing --------------------------------------------------------------------- */

enum { MAX_SOURCES = 256 };

typedef struct replay_options {
  const char *outdir;
  const char *sources[MAX_SOURCES]; /* --source */
  size_t nsources;
  const char *cc;
  double timeout_s;
  bool sanitize, keep, verbose;
} replay_options;

#define REPLAY(member) OPT_FIELD(replay_options, member)

/* symq cov takes the first COV_OPTIONS of these, symq replay all of them. */
enum { COV_OPTIONS = 3 };
static const opt_spec REPLAY_SPECS[] = {
    {.name = "--timeout",
     .type = OPT_SECONDS,
     .arg = "S",
     REPLAY(timeout_s),
     .def = "10",
     .nonzero = true,
     .max = 86400,
     .bad = "bad --timeout '%s' (seconds, e.g. 10 or 2.5)",
     .help = "seconds per test (default 10)"},
    {.name = "--keep",
     .type = OPT_FLAG,
     REPLAY(keep),
     .help = "keep the scratch build directory (its path is printed)"},
    {.name = "--source",
     .type = OPT_LIST,
     .arg = "FILE.c",
     OPT_LIST_OF(replay_options, sources, nsources),
     .help = "a C file compiled natively in place of the run's .bc/.ll inputs (which have no "
             "native build); repeat for each file of the library they were built from"},
    {.name = "--sanitize",
     .type = OPT_FLAG,
     REPLAY(sanitize),
     .help = "run every test in a build with -fsanitize=address,undefined "
             "-fno-sanitize-recover (tests of memory errors always are): a memory error must "
             "then be reported at the .err's line"},
    {.name = "--cc",
     .type = OPT_STRING,
     .arg = "CC",
     REPLAY(cc),
     .def = "gcc",
     .nonzero = true,
     .bad = "--cc needs a compiler%s",
     .help = "the C compiler, gcc or clang (default gcc)"},
    {.name = "--verbose",
     .alias = "-v",
     .type = OPT_FLAG,
     REPLAY(verbose),
     .help = "print each test's stderr"},
};

const opt_command replay_command = {
    .name = "replay",
    .usage =
        "usage: symq replay OUTDIR [--sanitize] [--timeout S] [--cc CC] [--keep]\n"
        "                          [--verbose] [--source FILE.c...]\n",
    .about =
        "  Rebuild the program recorded in OUTDIR/info natively (every C input of the run,\n"
        "  with its -I, -D and --cflags), linked with symq's replay library\n"
        "  (runtime/replay/replay.c), and run it on every test of OUTDIR: an error test\n"
        "  must reproduce its error, any other test must exit normally.\n",
    .epilog =
        "Exit status: 0 all tests as recorded, 1 a mismatch, 2 bad usage, a missing or\n"
        "invalid OUTDIR, or a compile failure.\n",
    .value_sep = " ",
    OPT_SPECS(REPLAY_SPECS),
    OPT_POSITIONAL(replay_options, outdir, "more than one OUTDIR ('%s')"),
    .dash_is_positional = true,
};

const opt_command cov_command = {
    .name = "cov",
    .usage = "usage: symq cov OUTDIR [--timeout S] [--keep] [--source FILE.c...]\n",
    .about =
        "  Rebuild the program recorded in OUTDIR/info with gcc --coverage (every C input\n"
        "  of the run, with its flags), run every test of OUTDIR, and have gcovr report the\n"
        "  line and branch coverage of those files (and the code they include):\n"
        "  OUTDIR/coverage/index.html, a line per file when there are several, a summary\n"
        "  line, and the key \"gcov\" in OUTDIR/stats.json.\n",
    .value_sep = " ",
    .specs = REPLAY_SPECS,
    .nspecs = COV_OPTIONS,
    OPT_POSITIONAL(replay_options, outdir, "more than one OUTDIR ('%s')"),
    .dash_is_positional = true,
};

/* Returns 0, 1 (help printed) or 2 (bad usage, message printed). */
static int parse_options(int argc, char **argv, const opt_command *c, replay_options *o) {
  int rc = opt_parse(c, argc, argv, 2, o);
  if (rc) return rc;
  if (!o->outdir) return opt_usage_error(c, "no OUTDIR given%s", "");
  return 0;
}

static void finish_scratch(char *scratch, bool keep) {
  if (!scratch) return;
  if (keep) fprintf(stderr, "symq: the build directory is %s\n", scratch);
  else
    remove_tree(scratch);
  free(scratch);
}

/* ---- symq replay ------------------------------------------------------------------------ */

/* What replay and cov do first: parse the command's options, catch interrupts, load the
 * output directory and make a scratch directory named after PREFIX. Returns 0 with *d and
 * *scratch to free, or the command's exit status (0 after --help) with nothing to free. */
static int begin_command(int argc, char **argv, const opt_command *command, const char *prefix,
                         replay_options *o, replay_dir *d, char **scratch) {
  int rc = parse_options(argc, argv, command, o);
  if (rc) return rc == 1 ? -1 : rc;
  catch_interrupts();
  if (!dir_load(o->outdir, o->sources, o->nsources, d)) {
    dir_free(d);
    return 2;
  }
  *scratch = make_scratch(prefix);
  if (!*scratch) {
    dir_free(d);
    return 2;
  }
  return 0;
}

int replay_main(int argc, char **argv) {
  replay_options o = {0};
  replay_dir d;
  char *scratch;
  int rc = begin_command(argc, argv, &replay_command, "symq-replay", &o, &d, &scratch);
  if (rc) return rc < 0 ? 0 : rc;
  char *exe = NULL, *sanitized_exe = NULL, *sanitized_dir = NULL;
  if (!build_driver(&d, o.cc, o.sanitize ? BUILD_SANITIZE : BUILD_PLAIN, scratch, &exe)) {
    finish_scratch(scratch, o.keep);
    dir_free(&d);
    return 2;
  }
  /* memory errors that do not crash natively show only under the sanitizers: those tests
   * run in a second, sanitized build, so that every error reproduces by default */
  bool want_sanitized = false;
  for (size_t k = 0; k < d.ntests && !o.sanitize; k++)
    want_sanitized |= d.tests[k].err_kind && needs_sanitizer(d.tests[k].err_kind);
  if (want_sanitized) {
    sanitized_dir = xasprintf("%s/sanitized", scratch);
    if (mkdir(sanitized_dir, 0700) != 0 ||
        !build_driver(&d, o.cc, BUILD_SANITIZE, sanitized_dir, &sanitized_exe))
      fprintf(stderr,
              "symq: warning: no sanitized build: memory errors that do not crash "
              "natively will be mismatches\n");
  }
  fprintf(stderr, "symq: replaying %zu tests of %s: %s%s built with %s%s%s\n", d.ntests, o.outdir,
          base_name(d.input), d.nsources > 1 ? " and the other sources" : "", o.cc,
          o.sanitize ? " -fsanitize=address,undefined" : "",
          sanitized_exe ? " (memory-error tests with -fsanitize=address,undefined)" : "");

  run_env env, sanitized_env;
  env_init(&env, o.sanitize);
  env_init(&sanitized_env, true);
  size_t reproduced = 0, mismatches = 0, early_errors = 0;
  for (size_t k = 0; k < d.ntests; k++) {
    const test_case *t = &d.tests[k];
    observed ob;
    char *err_text;
    const test_case *same;
    bool sanitized = o.sanitize || (sanitized_exe && t->err_kind && needs_sanitizer(t->err_kind));
    if (sanitized && !o.sanitize)
      run_test(sanitized_exe, sanitized_dir, t, &sanitized_env, true, o.timeout_s, &ob, &err_text);
    else
      run_test(exe, scratch, t, &env, o.sanitize, o.timeout_s, &ob, &err_text);
    if (interrupted) {
      free(err_text);
      break;
    }
    if (t->err_kind) {
      char *why = mismatch_reason(t, &ob, sanitized);
      if (!why) {
        char *how = describe(&ob);
        printf("%s: %s: %s error reproduced: %s\n", t->name, ob.status, t->err_kind, how);
        free(how);
        reproduced++;
      } else {
        printf("%s: %s: MISMATCH: %s\n", t->name, ob.status, why);
        free(why);
        mismatches++;
      }
    } else if (t->early) {
      /* not checked, but said: a path cut short by symq (a solver timeout…) may be a real
       * bug natively */
      char *how = describe(&ob);
      bool error = ob.kind != OBS_EXIT && ob.kind != OBS_BAD_KTEST && ob.kind != OBS_TIMEOUT;
      printf("%s: %s: not checked: the path ended early under symq (%s); natively %s%s\n", t->name,
             ob.status, *t->early ? t->early : "no reason given", how,
             error ? ": POSSIBLE ERROR symq did not report" : "");
      free(how);
      early_errors += error;
    } else if (ob.kind == OBS_EXIT) {
      printf("%s: %s: ok\n", t->name, ob.status);
    } else if ((same = same_error_as(&d, &ob, o.sanitize))) {
      printf("%s: %s: ok: the error of %s (%s at line %u), which symq reports once\n", t->name,
             ob.status, same->name, same->err_kind, same->err_line);
    } else {
      char *how = describe(&ob);
      printf("%s: %s: MISMATCH: no error was recorded, but %s\n", t->name, ob.status, how);
      free(how);
      mismatches++;
    }
    if (o.verbose && err_text && *err_text) {
      printf("---- %s stderr\n%s%s---- end\n", t->name, err_text,
             err_text[strlen(err_text) - 1] == '\n' ? "" : "\n");
    }
    free(err_text);
  }
  if (interrupted)
    fprintf(stderr, "symq: error: interrupted (%zu errors reproduced, %zu mismatches so far)\n",
            reproduced, mismatches);
  else
    printf("replayed %zu tests: %zu errors reproduced, %zu mismatches\n", d.ntests, reproduced,
           mismatches);
  if (early_errors)
    fprintf(stderr,
            "symq: warning: %zu test%s of paths that ended early under symq end in an "
            "error natively\n",
            early_errors, early_errors == 1 ? "" : "s");
  env_free(&env);
  env_free(&sanitized_env);
  free(exe);
  free(sanitized_exe);
  free(sanitized_dir);
  finish_scratch(scratch, o.keep);
  dir_free(&d);
  return interrupted ? 2 : mismatches ? 1 : 0;
}

/* ---- symq cov --------------------------------------------------------------------------- */

typedef struct cov_file {
  char *name;
  uint64_t lines_total, lines_covered, branches_total, branches_covered;
} cov_file;

typedef struct cov_summary {
  cov_file *files;
  size_t nfiles;
  uint64_t lines_total, lines_covered, branches_total, branches_covered;
} cov_summary;

/* gcovr --csv: "filename,line_total,line_covered,line_percent,branch_total,branch_covered,
 * branch_percent,function_total,function_covered,function_percent" and a row per file. The
 * numbers are read from the right, so a file name may hold commas. */
static bool parse_gcovr_csv(const char *text, cov_summary *s) {
  memset(s, 0, sizeof *s);
  const char *line = strchr(text, '\n');
  if (!line || strncmp(text, "filename,line_total,line_covered,", 33) != 0) return false;
  for (line++; *line;) {
    const char *end = strchr(line, '\n');
    size_t len = end ? (size_t)(end - line) : strlen(line);
    if (len && line[len - 1] == '\r') len--;
    if (len) {
      const char *fields[9];
      const char *p = line + len;
      int got = 0;
      for (; got < 9; got++) {
        const char *q = p;
        while (q > line && q[-1] != ',') q--;
        if (q == line) break;
        fields[8 - got] = q;
        p = q - 1;
      }
      if (got < 9) return false;
      size_t nlen = (size_t)(p - line);
      const char *name = line;
      if (nlen >= 2 && name[0] == '"' && name[nlen - 1] == '"') name++, nlen -= 2;
      s->files = xrealloc(s->files, (s->nfiles + 1) * sizeof *s->files);
      cov_file *f = &s->files[s->nfiles++];
      f->name = xmalloc(nlen + 1);
      memcpy(f->name, name, nlen);
      f->name[nlen] = 0;
      f->lines_total = strtoull(fields[0], NULL, 10);
      f->lines_covered = strtoull(fields[1], NULL, 10);
      f->branches_total = strtoull(fields[3], NULL, 10);
      f->branches_covered = strtoull(fields[4], NULL, 10);
      s->lines_total += f->lines_total;
      s->lines_covered += f->lines_covered;
      s->branches_total += f->branches_total;
      s->branches_covered += f->branches_covered;
    }
    if (!end) break;
    line = end + 1;
  }
  return true;
}

static void cov_summary_free(cov_summary *s) {
  for (size_t k = 0; k < s->nfiles; k++) free(s->files[k].name);
  free(s->files);
}

/* Percent with one decimal, rounded down (so 100.0 means all); negative when total is 0. */
static double percent(uint64_t covered, uint64_t total) {
  if (!total) return -1;
  return floor((double)covered * 1000.0 / (double)total) / 10.0;
}

static void format_percent(char *out, size_t size, uint64_t covered, uint64_t total) {
  double p = percent(covered, total);
  if (p < 0) snprintf(out, size, "n/a (0/0)");
  else
    snprintf(out, size, "%.1f%% (%llu/%llu)", p, (unsigned long long)covered,
             (unsigned long long)total);
}

/* ---- stats.json: add or replace the top-level key "gcov" ------------------------------- */

static const char *skip_ws(const char *p) {
  while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
  return p;
}

static const char *skip_string(const char *p) {
  if (*p != '"') return NULL;
  for (p++; *p; p++) {
    if (*p == '\\') {
      if (!p[1]) return NULL;
      p++;
    } else if (*p == '"') {
      return p + 1;
    }
  }
  return NULL;
}

/* Past one JSON value (strings and nesting respected), or NULL if malformed. */
static const char *skip_value(const char *p) {
  p = skip_ws(p);
  if (*p == '"') return skip_string(p);
  if (*p == '{' || *p == '[') {
    int depth = 0;
    while (*p) {
      if (*p == '"') {
        p = skip_string(p);
        if (!p) return NULL;
        continue;
      }
      if (*p == '{' || *p == '[') depth++;
      else if (*p == '}' || *p == ']') {
        if (--depth == 0) return p + 1;
      }
      p++;
    }
    return NULL;
  }
  const char *start = p;
  while (*p && strchr("+-.0123456789eEtruefalsn", *p)) p++;
  return p > start ? p : NULL;
}

/* `stats` (a JSON object) with the member "gcov" set to `gcov` (a JSON value written at
 * depth 0), as json_writer would write the whole: the other members are copied byte for byte
 * in their order; "gcov" goes last. NULL when stats is not one JSON object. */
static char *json_set_gcov(const char *stats, const char *gcov) {
  const char *p = skip_ws(stats);
  if (*p != '{') return NULL;
  p = skip_ws(p + 1);
  char *out = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&out, &len);
  fputs("{\n", f);
  bool first = true, ok = true;
  if (*p == '}') {
    p++;
  } else {
    for (;;) {
      const char *key = p, *key_end = skip_string(p);
      if (!key_end) {
        ok = false;
        break;
      }
      p = skip_ws(key_end);
      if (*p != ':') {
        ok = false;
        break;
      }
      const char *value = skip_ws(p + 1), *value_end = skip_value(value);
      if (!value_end) {
        ok = false;
        break;
      }
      if (!((size_t)(key_end - key) == 6 && strncmp(key, "\"gcov\"", 6) == 0)) {
        fprintf(f, "%s  %.*s: %.*s", first ? "" : ",\n", (int)(key_end - key), key,
                (int)(value_end - value), value);
        first = false;
      }
      p = skip_ws(value_end);
      if (*p == ',') {
        p = skip_ws(p + 1);
        continue;
      }
      if (*p == '}') {
        p++;
        break;
      }
      ok = false;
      break;
    }
  }
  if (ok && *skip_ws(p) != 0) ok = false;
  if (ok) {
    fprintf(f, "%s  \"gcov\": ", first ? "" : ",\n");
    for (const char *c = gcov; *c; c++) {
      if (*c == '\n' && c[1] == 0) break; /* the document's final newline */
      fputc(*c, f);
      if (*c == '\n') fputs("  ", f);
    }
    fputs("\n}\n", f);
  }
  fclose(f);
  if (!ok) {
    free(out);
    return NULL;
  }
  return out;
}

/* Writes `text` to DIR/NAME atomically (a temporary file, fsync, rename, fsync of DIR). */
static bool write_atomic(const char *dir, const char *name, const char *text, char *err,
                         size_t err_size) {
  char *tmp = xasprintf("%s/.%s.tmp-%ld", dir, name, (long)getpid());
  char *final = xasprintf("%s/%s", dir, name);
  bool ok = false;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0666);
  if (fd < 0) {
    snprintf(err, err_size, "%s: %s", tmp, strerror(errno));
    goto done;
  }
  size_t len = strlen(text), off = 0;
  while (off < len) {
    ssize_t w = write(fd, text + off, len - off);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      snprintf(err, err_size, "%s: write failed: %s", tmp, strerror(errno));
      close(fd);
      unlink(tmp);
      goto done;
    }
    off += (size_t)w;
  }
  if (fsync(fd) != 0 || close(fd) != 0) {
    snprintf(err, err_size, "%s: %s", tmp, strerror(errno));
    unlink(tmp);
    goto done;
  }
  if (rename(tmp, final) != 0) {
    snprintf(err, err_size, "%s: %s", final, strerror(errno));
    unlink(tmp);
    goto done;
  }
  int dfd = open(dir, O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
  ok = true;
done:
  free(tmp);
  free(final);
  return ok;
}

static void json_percent(json_writer *j, const char *key, uint64_t covered, uint64_t total) {
  json_key(j, key);
  double p = percent(covered, total);
  if (p < 0) json_null(j);
  else
    json_double(j, p);
}

static bool update_stats(const char *dir, const cov_summary *s, size_t ntests, size_t abnormal) {
  json_writer j;
  json_init(&j);
  json_object_begin(&j);
  json_key(&j, "tests");
  json_uint(&j, ntests);
  json_key(&j, "tests_ended_abnormally");
  json_uint(&j, abnormal);
  json_key(&j, "lines_covered");
  json_uint(&j, s->lines_covered);
  json_key(&j, "lines_total");
  json_uint(&j, s->lines_total);
  json_percent(&j, "lines_percent", s->lines_covered, s->lines_total);
  json_key(&j, "branches_covered");
  json_uint(&j, s->branches_covered);
  json_key(&j, "branches_total");
  json_uint(&j, s->branches_total);
  json_percent(&j, "branches_percent", s->branches_covered, s->branches_total);
  json_key(&j, "report");
  json_string(&j, "coverage/index.html");
  json_key(&j, "files");
  json_array_begin(&j);
  for (size_t k = 0; k < s->nfiles; k++) {
    const cov_file *f = &s->files[k];
    json_object_begin(&j);
    json_key(&j, "file");
    json_string(&j, f->name);
    json_key(&j, "lines_covered");
    json_uint(&j, f->lines_covered);
    json_key(&j, "lines_total");
    json_uint(&j, f->lines_total);
    json_key(&j, "branches_covered");
    json_uint(&j, f->branches_covered);
    json_key(&j, "branches_total");
    json_uint(&j, f->branches_total);
    json_object_end(&j);
  }
  json_array_end(&j);
  json_object_end(&j);
  const char *gcov = json_text(&j, NULL);
  bool ok = false;
  char *path = xasprintf("%s/stats.json", dir);
  char *stats = read_file(path, 64u << 20, NULL);
  char err[1200];
  if (!gcov) {
    fprintf(stderr, "symq: error: out of memory\n");
  } else if (!stats) {
    fprintf(stderr, "symq: warning: %s: %s; the coverage numbers are not recorded there\n", path,
            strerror(errno));
    ok = true;
  } else {
    char *updated = json_set_gcov(stats, gcov);
    if (!updated) fprintf(stderr, "symq: error: %s is not a JSON object; left unchanged\n", path);
    else if (!write_atomic(dir, "stats.json", updated, err, sizeof err))
      fprintf(stderr, "symq: error: %s\n", err);
    else
      ok = true;
    free(updated);
  }
  free(stats);
  free(path);
  json_free(&j);
  return ok;
}

/* `text` with the characters special in a (Python) regular expression escaped. */
static char *regex_quote(const char *text) {
  char *out = xmalloc(2 * strlen(text) + 1), *o = out;
  for (const char *c = text; *c; c++) {
    if (strchr("\\.^$*+?()[]{}|", *c)) *o++ = '\\';
    *o++ = *c;
  }
  *o = 0;
  return out;
}

/* The deepest directory holding every source ("/" at worst). */
static char *common_dir(const replay_dir *d) {
  char *root = xstrdup(d->sources[0]);
  char *slash = strrchr(root, '/');
  *(slash ? slash : root) = 0;
  for (size_t k = 1; k < d->nsources; k++) {
    const char *src = d->sources[k];
    /* shorten root until it is a directory prefix of src */
    while (*root && !(strncmp(src, root, strlen(root)) == 0 && src[strlen(root)] == '/')) {
      slash = strrchr(root, '/');
      *(slash ? slash : root) = 0;
    }
  }
  return root; /* "" stands for "/" */
}

/* Empties OUTDIR/coverage of an earlier report (gcovr's index*.html and index.css). */
static bool prepare_report_dir(const char *dir) {
  if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "symq: error: cannot create %s: %s\n", dir, strerror(errno));
    return false;
  }
  DIR *dh = opendir(dir);
  if (!dh) {
    fprintf(stderr, "symq: error: %s: %s\n", dir, strerror(errno));
    return false;
  }
  struct dirent *e;
  while ((e = readdir(dh))) {
    size_t n = strlen(e->d_name);
    if (strncmp(e->d_name, "index.", 6) == 0 &&
        ((n > 5 && strcmp(e->d_name + n - 5, ".html") == 0) ||
         (n > 4 && strcmp(e->d_name + n - 4, ".css") == 0))) {
      char *path = xasprintf("%s/%s", dir, e->d_name);
      unlink(path);
      free(path);
    }
  }
  closedir(dh);
  return true;
}

int cov_main(int argc, char **argv) {
  replay_options o = {0};
  replay_dir d;
  char *scratch;
  int rc = begin_command(argc, argv, &cov_command, "symq-cov", &o, &d, &scratch);
  if (rc) return rc < 0 ? 0 : rc;
  char *exe = NULL;
  rc = 2;
  char *report_dir = xasprintf("%s/coverage", d.dir);
  char *report = xasprintf("%s/index.html", report_dir);
  char *csv = xasprintf("%s/coverage.csv", scratch);
  strvec g = {0};
  cov_summary s = {0};
  if (!build_driver(&d, "gcc", BUILD_COVERAGE, scratch, &exe)) goto done;

  /* every test, in order; the counters add up in the .gcda files */
  run_env env;
  env_init(&env, false);
  size_t abnormal = 0, unreplayable = 0;
  for (size_t k = 0; k < d.ntests; k++) {
    observed ob;
    char *err_text;
    run_test(exe, scratch, &d.tests[k], &env, false, o.timeout_s, &ob, &err_text);
    free(err_text);
    if (interrupted) break;
    if (ob.kind == OBS_BAD_KTEST) {
      unreplayable++;
      fprintf(stderr, "symq: warning: %s: %s\n", d.tests[k].name, ob.detail);
    } else if (ob.kind != OBS_EXIT) {
      abnormal++;
    }
  }
  env_free(&env);
  if (interrupted) {
    fprintf(stderr, "symq: error: interrupted\n");
    goto done;
  }

  if (!prepare_report_dir(report_dir)) goto done;
  /* root: the sources' common directory (names in the report are relative to it); filter:
   * every source with coverage data, i.e. the program's files and what they include, less
   * system headers and symq's own API headers */
  char *root = common_dir(&d);
  sv_push(&g, "gcovr");
  sv_push(&g, "--root");
  sv_push(&g, *root ? root : "/");
  sv_push(&g, "--filter");
  sv_push(&g, "/");
  sv_push(&g, "--exclude");
  sv_push(&g, "/usr/");
  sv_push(&g, "--exclude");
  char *runtime_dir = regex_quote(SYMQ_SOURCE_DIR "/runtime/");
  sv_push(&g, runtime_dir);
  free(runtime_dir);
  sv_push(&g, "--html-details");
  sv_push(&g, report);
  sv_push(&g, "--html-title");
  char *title = d.nsources == 1 ? xasprintf("symq cov: %s", base_name(d.input))
                                : xasprintf("symq cov: %s and %zu more files", base_name(d.input),
                                            d.nsources - 1);
  sv_push(&g, title);
  free(title);
  sv_push(&g, "--csv");
  sv_push(&g, csv);
  sv_push(&g, scratch);
  free(root);
  if (!run_tool(&g, scratch, NULL, "gcovr", "cannot make the coverage report",
                " (Debian: apt-get install gcovr)"))
    goto done;
  char *text = read_file(csv, 16u << 20, NULL);
  bool parsed = text && parse_gcovr_csv(text, &s);
  free(text);
  if (!parsed) {
    fprintf(stderr, "symq: error: cannot read gcovr's summary %s\n", csv);
    goto done;
  }
  char lines[80], branches[80];
  format_percent(lines, sizeof lines, s.lines_covered, s.lines_total);
  format_percent(branches, sizeof branches, s.branches_covered, s.branches_total);
  fprintf(stderr, "symq: replayed %zu tests of %s with gcov (%zu ended with an error%s)\n",
          d.ntests, o.outdir, abnormal, unreplayable ? ", some could not be replayed" : "");
  fprintf(stderr, "symq: coverage report: %s\n", report);
  /* several sources (a driver and a library): each file's numbers, then the total */
  for (size_t k = 0; d.nsources > 1 && k < s.nfiles; k++) {
    const cov_file *f = &s.files[k];
    char fl[80], fb[80];
    format_percent(fl, sizeof fl, f->lines_covered, f->lines_total);
    format_percent(fb, sizeof fb, f->branches_covered, f->branches_total);
    printf("%s: lines: %s, branches: %s\n", f->name, fl, fb);
  }
  printf("lines: %s, branches: %s\n", lines, branches);
  rc = update_stats(d.dir, &s, d.ntests, abnormal) ? 0 : 2;
done:
  cov_summary_free(&s);
  sv_free(&g);
  free(report_dir);
  free(report);
  free(csv);
  free(exe);
  finish_scratch(scratch, o.keep);
  dir_free(&d);
  return rc;
}
