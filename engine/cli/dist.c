/*
 * dist.c — one exploration over many processes or hosts (contract in dist.h).
 *
 * The parts are 8 per worker (4 on up to 4 local processes, see PARTS_PER_FEW_LOCAL): a
 * part's subtree may be much larger than another's, and a worker that finishes early takes
 * the next part (list scheduling), which keeps the load
 * within one part's size of even; eval/bench_dist.py measured the largest part of an uneven
 * tree at 2.1% of the work with 4 parts per worker over 64 workers (max/mean 1.34, the
 * largest part alone) and 1.2% with 8 (1.11). Parts start in part order (the tree's
 * depth-first order): neither the prefix's length nor the path's instructions so far
 * predicted the sizes there (1.34 and 1.98). The processes are
 * symq itself (/proc/self/exe), given the run's own arguments minus the ones dist decides (--jobs,
 * --sshlogin, --output-dir,
 * --max-time, --split, --part), plus --prebuilt: the program the parent compiled once (clang
 * ran in each of the 17 processes of a --jobs 2 run before: part of their 4.1 s of start-up,
 * eval/README.md). Locally they are not executed anew but forked from the parent, which
 * loaded and linked that program once (`loaded`, below); under --sshlogin they are.
 */
#include "engine/cli/dist.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "engine/cli/mergeout.h"
#include "engine/core/version.h"
#include "engine/core/xalloc.h"
#include "engine/exec/part.h"
#include "engine/out/output.h"

/* Parts per worker: 8 (the largest part's share stays below a worker's fair share over 64
 * workers, header comment), but 4 on up to 4 local processes, where a part is a larger share
 * of fewer, longer-running workers: eval/bench_dist.py's simulation over 2 workers gives
 * max/mean 1.01 with 4 per worker as with 8 (instructions), and half the processes, each
 * paying its start-up (loading the program and the runtime, Z3's context). */
enum { PARTS_PER_WORKER = 8, PARTS_PER_FEW_LOCAL = 4, FEW_LOCAL = 4 };

/* SIGINT or SIGTERM: no part starts any more, the running ones are told (SIGTERM: they halt
 * as on a signal, writing their tests) and the outputs are merged as incomplete. */
static volatile sig_atomic_t stopping;

static void on_stop(int sig) {
  (void)sig;
  stopping = 1;
}

/* waitpid for pid, passing a stop on to it once; -1 when it cannot be waited for. */
static int wait_for(pid_t pid) {
  int status;
  bool told = false;
  for (;;) {
    if (waitpid(pid, &status, 0) == pid) return status;
    if (errno != EINTR) return -1;
    if (stopping && !told) kill(pid, SIGTERM), told = true;
  }
}

/* ---- the program's key ---------------------------------------------------------------- */

static uint64_t hash_str(uint64_t h, const char *s) {
  h = part_hash(h, s ? s : "(null)", strlen(s ? s : "(null)"));
  return part_hash(h, "", 1); /* a separator: ("ab","c") is not ("a","bc") */
}

static uint64_t hash_u64(uint64_t h, uint64_t v) { return part_hash(h, &v, sizeof v); }

static uint64_t hash_file(uint64_t h, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return hash_str(h, path); /* the loader will say why it cannot be read */
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = part_hash(h, buf, n);
  fclose(f);
  return part_hash(h, "", 1);
}

uint64_t dist_program_key(const run_options *o) {
  uint64_t h = hash_str(PART_HASH_START, SYMQ_VERSION);
  for (size_t k = 0; k < o->n_inputs; k++) h = hash_file(h, o->inputs[k]);
  for (size_t k = 0; k < o->n_include_dirs; k++) h = hash_str(h, o->include_dirs[k]);
  for (size_t k = 0; k < o->n_cflags; k++) h = hash_str(h, o->cflags[k]);
  h = hash_str(h, o->passes);
  h = hash_u64(h, (uint64_t)o->optimize << 1 | o->no_runtime);
  for (int k = 0; k < o->program_argc; k++) h = hash_str(h, o->program_argv[k]);
  const interp_options *i = &o->interp;
  for (size_t k = 0; k < i->nsym_arg; k++) h = hash_str(h, i->sym_arg[k]);
  for (size_t k = 0; k < i->nsym_args; k++) h = hash_str(h, i->sym_args[k]);
  for (size_t k = 0; k < i->nsym_files; k++) h = hash_str(h, i->sym_files[k]);
  for (size_t k = 0; k < i->nsym_stdin; k++) h = hash_str(h, i->sym_stdin[k]);
  for (size_t k = 0; k < i->nlink_native; k++) h = hash_str(h, i->link_native[k]);
  h = hash_u64(h, i->capacity);
  h = hash_u64(h, i->max_pointer_objects);
  return hash_u64(h, (uint64_t)i->external_calls);
}

/* ---- the program, compiled once ------------------------------------------------------ */

static char *prebuilt_key_text(const run_options *o) {
  return xasprintf("symq-prebuilt 1\nprogram %016" PRIx64 "\n", dist_program_key(o));
}

bool dist_prebuilt_check(const run_options *o, char *err, size_t err_size) {
  char *path = xasprintf("%s.key", o->prebuilt), *want = prebuilt_key_text(o);
  size_t len;
  char *text = part_read_file(path, &len);
  bool ok = text && len == strlen(want) && memcmp(text, want, len) == 0;
  if (!text)
    snprintf(err, err_size, "--prebuilt=%s: cannot read its key file %s: %s", o->prebuilt, path,
             strerror(errno));
  else if (!ok)
    snprintf(err, err_size,
             "--prebuilt=%s: compiled from other inputs or options than this run's (%s)",
             o->prebuilt, path);
  free(text), free(want), free(path);
  return ok;
}

/* Compiles o's inputs into `work`/program.bc and writes its key file: 0, or the exit
 * status (a line on stderr said why). *arg is then the --prebuilt argument (malloc'd). */
static int compile_once(const run_options *o, const char *work, char **arg) {
  char *bc = xasprintf("%s/program.bc", work), *key = xasprintf("%s.key", bc);
  int rc = run_write_program(o, bc);
  if (!rc) {
    char *text = prebuilt_key_text(o);
    FILE *f = fopen(key, "w");
    bool ok = f && fputs(text, f) >= 0;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) {
      fprintf(stderr, "symq: error: %s: cannot write: %s\n", key, strerror(errno));
      rc = RUN_EXIT_OUTPUT;
    }
    free(text);
  }
  *arg = rc ? NULL : xasprintf("--prebuilt=%s", bc);
  free(key), free(bc);
  return rc;
}

int dist_check_options(const opt_command *command, const run_options *o) {
  bool parts = o->split || o->part_file || o->jobs || o->sshlogin;
  if (!parts) return 0;
  const char *why = NULL;
  if (o->interp.prune.mode != PRUNE_MODE_NONE) why = "--interpolate";
  else if (o->interp.max_forks)
    why = "--max-forks";
  else if (o->interp.max_tests)
    why = "--max-tests";
  else if (o->interp.max_instructions)
    why = "--max-instructions";
  else if (o->interp.only_covering_new)
    why = "--only-output-states-covering-new";
  else if (o->interp.exit_on_error || o->interp.nexit_on_error_kinds)
    why = "--exit-on-error";
  if (why)
    return opt_usage_error(command,
                           "%s counts over the whole exploration: it does not go with --split, "
                           "--part, --jobs or --sshlogin",
                           why);
  if ((o->jobs || o->sshlogin) && (o->split || o->part_file))
    return opt_usage_error(command, "--jobs and --sshlogin make their own parts%s",
                           ": not with --split or --part");
  if ((o->jobs || o->sshlogin) && o->testcomp)
    return opt_usage_error(command, "--testcomp does not go with %s", "--jobs or --sshlogin");
  return 0;
}

/* ---- the processes -------------------------------------------------------------------- */

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* Whether argv[k] is option `name` (joined with '=' or not); *takes says whether the value
 * is the next word. */
static bool is_option(const char *arg, const char *name, bool *takes) {
  size_t n = strlen(name);
  if (strncmp(arg, name, n) != 0) return false;
  if (arg[n] == '=') {
    *takes = false;
    return true;
  }
  if (arg[n]) return false;
  *takes = true;
  return true;
}

/* The program's arguments (from `--` on, NULL-terminated: argv[argc] is NULL), which every
 * process's command ends with. */
static char *const *program_args;
/* --prebuilt=… for every process (NULL when the user gave --prebuilt: it is passed on). */
static const char *prebuilt_arg;

/* The run's arguments after "symq run", without those dist sets itself; close_args puts
 * dist's own (at most `room`) and the program's arguments after them. */
static char **child_args(int argc, char **argv, const char *self, size_t room, size_t *n) {
  static const char *const own[] = {"--jobs",     "--sshlogin", "--output-dir",
                                    "--max-time", "--split",    "--part"};
  char **args = xcalloc((size_t)argc + room + 3, sizeof *args);
  size_t m = 0;
  args[m++] = (char *)self;
  args[m++] = "run";
  int k = 2;
  for (; k < argc && strcmp(argv[k], "--") != 0; k++) {
    bool dropped = false, takes = false;
    for (size_t j = 0; j < sizeof own / sizeof *own && !dropped; j++)
      dropped = is_option(argv[k], own[j], &takes);
    if (!dropped) args[m++] = argv[k];
    else if (takes)
      k++; /* its value */
  }
  *n = m;
  program_args = argv + k;
  return args;
}

/* Ends the command after dist's `used` arguments at args[n…]: the program's, then NULL. */
static void close_args(char **args, size_t n, size_t room, size_t used) {
  assert(used < room);
  if (prebuilt_arg) args[n + used++] = (char *)prebuilt_arg;
  size_t j = 0;
  for (; program_args[j]; j++) args[n + used + j] = program_args[j];
  args[n + used + j] = NULL;
}

/* The program, loaded and linked once by the parent of a local --jobs run (NULL under
 * --sshlogin): every local process is forked from it and runs `symq run ARGS` on it
 * (run_main_loaded) instead of executing symq anew, which read, parsed and linked the
 * program and the runtime again in each (~50M of a process's ~58M instructions of start-up,
 * eval/README.md). The parent makes no solver and no thread (Z3's contexts and their
 * watchdog threads are made by each process after the fork, in run_main_loaded), so the
 * fork copies one thread and no lock held by another. */
static ir_program *loaded;

/* The output directory (NULL under --sshlogin), where the splitter places its tests
 * (out_place_tests: as ".p0000-testNNNNNN.SUFFIX", renamed by the merge to their final names:
 * no second copy of each test, and nothing left to remove). A local part places its own as
 * ".pNNNN-testNNNNNN.SUFFIX" in its output directory, dist/part-NNNN, not here: two parts
 * creating files in one directory take turns at its lock, and the one waiting spins on the
 * CPU (rwsem_spin_on_owner: up to 14% of the CPU time of two processes creating 14,000 files
 * each in one directory on a loaded machine, none in two directories, `perf record`; the more
 * the parts overlap, the more: eval/README.md). The merge's
 * renames into OUTDIR then hold OUTDIR's lock alone, and the source part's, which has ended. */
static const char *place_dir;

/* The split's placed tests' prefix (the parts' are .p0001- on). */
#define SPLIT_PREFIX ".p0000-"

/* Starts `args` with stdout and stderr to `log`, its tests placed in directory place_in under
 * place_prefix when that is not NULL (a forked local process); the pid, or -1. */
static pid_t spawn(char **args, const char *log, const char *place_in, const char *place_prefix) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid != 0) return pid;
  signal(SIGINT, SIG_DFL); /* as after an exec: the parent's on_stop is not this process's */
  signal(SIGTERM, SIG_DFL);
  int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (fd >= 0) {
    dup2(fd, STDOUT_FILENO);
    dup2(fd, STDERR_FILENO);
    close(fd);
  }
  if (loaded) {
    if (place_prefix) out_place_tests(place_in, place_prefix);
    int argc = 0;
    while (args[argc]) argc++;
    int rc = run_main_loaded(argc, args, loaded);
    fflush(NULL);
    _exit(rc);
  }
  execv(args[0], args);
  fprintf(stderr, "symq: error: cannot run %s: %s\n", args[0], strerror(errno));
  _exit(RUN_EXIT_BAD_INPUT);
}

/* The --max-time value for a process started now ("" when there is no limit). */
static void time_left(char *buf, size_t n, double deadline) {
  if (deadline >= INFINITY) {
    buf[0] = 0;
    return;
  }
  double left = deadline - now_s();
  if (left < 0.01) left = 0.01; /* it halts at once: its states end early, with tests */
  snprintf(buf, n, "--max-time=%.3f", left);
}

static const char *status_text(int status, char *buf, size_t n) {
  if (WIFEXITED(status)) snprintf(buf, n, "exit status %d", WEXITSTATUS(status));
  else
    snprintf(buf, n, "killed by signal %d", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return buf;
}

/* One symq run with `extra` arguments (at most 4), stdout and stderr to log, its tests placed
 * in place_dir under place_prefix as spawn's; its status. */
static int run_one(char **args, size_t n, size_t room, const char *const *extra, size_t nextra,
                   const char *log, const char *place_prefix) {
  for (size_t k = 0; k < nextra; k++) args[n + k] = (char *)extra[k];
  close_args(args, n, room, nextra);
  pid_t pid = spawn(args, log, place_dir, place_prefix);
  return pid < 0 ? -1 : wait_for(pid);
}

/* A run of symq ended well when its output is whole: 0 (or 1: a --validate-* check). */
static bool ended_well(int status) {
  return status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) <= 1;
}

/* Part files of the splitter's output, sorted (glob sorts). */
static bool list_parts(const char *split_dir, glob_t *g) {
  char *pattern = xasprintf("%s/part-*.part", split_dir);
  int rc = glob(pattern, 0, NULL, g);
  free(pattern);
  if (rc == GLOB_NOMATCH) g->gl_pathc = 0;
  return rc == 0 || rc == GLOB_NOMATCH;
}

/* The merge, part by part: every part from *cursor on, before `total`, whose process has
 * ended (settled) goes into the output directory in part order, as soon as the parts before it
 * have, at most `most` of them per call (run_parts_locally merges one at a time, starting the next
 * part in between); a part that did not run is counted in *not_run. False when a part could not be
 * merged (the message is in the job's err). */
static bool merge_settled(mergeout_job *job, const char *work, const bool *settled, const bool *ran,
                          size_t total, size_t *cursor, size_t *not_run, size_t most) {
  bool ok = true;
  for (size_t done = 0; ok && done < most && *cursor < total && settled[*cursor];
       ++*cursor, done++) {
    if (!ran[*cursor]) {
      ++*not_run;
      continue;
    }
    char *dir = xasprintf("%s/part-%04zu", work, *cursor + 1);
    char prefix[32];
    snprintf(prefix, sizeof prefix, ".p%04zu-", *cursor + 1);
    ok = loaded ? mergeout_add_placed(job, dir, dir, prefix) : mergeout_add(job, dir);
    free(dir);
  }
  return ok;
}

/* Writes what is in the output directory so far to the disk (syncfs), while the last parts
 * still run: the merge's own syncfs at the end (mergeout_end, before stats.json and info, which
 * vouch for the tests) then has only the last parts' files left to write. That one took 0.08 to
 * 0.79 s after the last part in loaded runs of eval/bench_dist.py's driver (its 28,657 tests;
 * the single run's 0.62 s), with the cores otherwise idle; 3 to 25 ms after an early one
 * (eval/README.md). Only a head start: a failure here is left to that final syncfs to report. */
static void flush_early(void) {
  int fd = open(place_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  (void)syncfs(fd);
  close(fd);
}

/* Runs every part on `jobs` local processes, merging each into `job` once it and the parts
 * before it have ended (merge_settled), up to the first part that did not end well (the
 * parts before it are merged even when they end after it); false when one did not end well
 * or could not be merged (*merge_failed then). The merge is the parent's work between parts:
 * one part at a time, and only when no part has ended, so that a process that ends gets its
 * successor at once (before, a slot stayed empty while the parent renamed one or more parts'
 * thousands of tests: 0.27 to 0.9 s per part in a loaded run of eval/bench_dist.py's driver). */
static bool run_parts_locally(char **args, size_t n, size_t room, const glob_t *parts,
                              const char *work, uint64_t jobs, double deadline, bool *ran,
                              mergeout_job *job, size_t *not_run, bool *merge_failed) {
  size_t total = parts->gl_pathc, next = 0, running = 0, cursor = 0;
  pid_t *pids = xcalloc(jobs, sizeof *pids);
  size_t *which = xcalloc(jobs, sizeof *which);
  bool *settled = xcalloc(total + 1, sizeof *settled);
  bool ok = true, told = false;
  size_t limit = total; /* the first part that failed: the merge stops there, not before */
  size_t synced = 0;    /* the parts merged when flush_early last ran */
  while (next < total || running) {
    if (stopping || now_s() >= deadline) { /* the rest are not run */
      for (; next < total; next++) settled[next] = true;
    }
    while (next < total && running < jobs) {
      char part_arg[4200], out_arg[4200], max_time[64], log[4200];
      size_t k = next;
      snprintf(part_arg, sizeof part_arg, "--part=%s", parts->gl_pathv[k]);
      snprintf(out_arg, sizeof out_arg, "--output-dir=%s/part-%04zu", work, k + 1);
      snprintf(log, sizeof log, "%s/part-%04zu.log", work, k + 1);
      time_left(max_time, sizeof max_time, deadline);
      const char *extra[] = {part_arg, out_arg, max_time};
      for (size_t j = 0; j < 3; j++) args[n + j] = (char *)extra[j];
      close_args(args, n, room, *max_time ? 3 : 2);
      size_t slot = 0;
      while (pids[slot]) slot++;
      char prefix[32];
      snprintf(prefix, sizeof prefix, ".p%04zu-", k + 1);
      /* its tests placed in its own output directory */
      pids[slot] = spawn(args, log, out_arg + strlen("--output-dir="), prefix);
      if (pids[slot] < 0) {
        fprintf(stderr, "symq: error: cannot start a process: %s\n", strerror(errno));
        pids[slot] = 0;
        ok = false;
        if (next < limit) limit = next;
        for (; next < total; next++) settled[next] = true;
        break;
      }
      ran[k] = true;
      which[slot] = k;
      next++;
      running++;
    }
    if (!running) break;
    if (stopping && !told) { /* passed on once, also when it came during a merge */
      for (size_t slot = 0; slot < jobs; slot++)
        if (pids[slot]) kill(pids[slot], SIGTERM);
      told = true;
    }
    bool can_merge = !*merge_failed && cursor < limit && settled[cursor];
    if (!can_merge && next == total && cursor > synced) { /* idle till a part ends */
      flush_early();
      synced = cursor;
    }
    int status;
    pid_t pid = waitpid(-1, &status, can_merge ? WNOHANG : 0);
    if (pid == 0) { /* none has ended: one part's merge, then look again */
      if (!merge_settled(job, work, settled, ran, limit, &cursor, not_run, 1))
        ok = false, *merge_failed = true;
      continue;
    }
    if (pid < 0 && errno == EINTR) continue; /* a stop: passed on above */
    if (pid < 0) break;
    for (size_t slot = 0; slot < jobs; slot++) {
      if (pids[slot] != pid) continue;
      pids[slot] = 0;
      running--;
      settled[which[slot]] = true;
      if (told && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) {
        ran[which[slot]] = false; /* stopped before it could halt: as if never started */
      } else if (!ended_well(status)) {
        char why[64];
        fprintf(stderr, "symq: error: part %s: %s (see %s/part-%04zu.log)\n",
                parts->gl_pathv[which[slot]], status_text(status, why, sizeof why), work,
                which[slot] + 1);
        ok = false;
        if (which[slot] < limit) limit = which[slot];
      }
    }
  }
  if (!*merge_failed && !merge_settled(job, work, settled, ran, limit, &cursor, not_run, SIZE_MAX))
    ok = false, *merge_failed = true;
  assert(!ok || cursor == total);
  free(settled);
  free(pids);
  free(which);
  return ok;
}

/* The first `parallel` on PATH, or NULL (malloc'd). */
static char *find_parallel(void) {
  const char *path = getenv("PATH");
  if (!path) return NULL;
  char *copy = xstrdup(path), *save = NULL, *found = NULL;
  for (char *dir = strtok_r(copy, ":", &save); dir && !found; dir = strtok_r(NULL, ":", &save)) {
    char *p = xasprintf("%s/parallel", *dir ? dir : ".");
    if (access(p, X_OK) == 0) found = p;
    else
      free(p);
  }
  free(copy);
  return found;
}

/* Runs every part through GNU parallel --sshlogin (the hosts see the same paths: the
 * output directory is shared, as eval/real/run assumes); false when it did not end well. */
static bool run_parts_parallel(const char *parallel, char **args, size_t n, size_t room,
                               const glob_t *parts, const char *work, const run_options *o,
                               double deadline, bool *ran) {
  if (!parts->gl_pathc) return true;
  char jobs[32], max_time[64];
  snprintf(jobs, sizeof jobs, "%" PRIu64, o->jobs ? o->jobs : 1);
  time_left(max_time, sizeof max_time, deadline);
  char *out_arg = xasprintf("--output-dir=%s/{/.}", work);
  (void)room;
  size_t nprog = 0;
  while (program_args[nprog]) nprog++;
  char **cmd = xcalloc(16 + n + nprog + parts->gl_pathc + 4, sizeof *cmd);
  size_t m = 0;
  const char *head[] = {parallel, "--sshlogin", o->sshlogin, "--jobs", jobs,
                        "--wd",   ".",          "--halt",    "never",  "-q"};
  for (size_t k = 0; k < sizeof head / sizeof *head; k++) cmd[m++] = (char *)head[k];
  for (size_t k = 0; k < n; k++) cmd[m++] = args[k];
  cmd[m++] = "--part={}";
  cmd[m++] = out_arg;
  if (*max_time) cmd[m++] = max_time;
  if (prebuilt_arg) cmd[m++] = (char *)prebuilt_arg;
  for (size_t k = 0; k < nprog; k++) cmd[m++] = program_args[k];
  cmd[m++] = ":::";
  for (size_t k = 0; k < parts->gl_pathc; k++) cmd[m++] = parts->gl_pathv[k];
  for (size_t k = 0; k < parts->gl_pathc; k++) ran[k] = true;
  cmd[m] = NULL;
  char *log = xasprintf("%s/parallel.log", work);
  pid_t pid = spawn(cmd, log, NULL, NULL);
  int status = pid > 0 ? wait_for(pid) : -1;
  bool ok = status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (stopping) { /* a stop: the parts that wrote their stats.json ran, the others did not */
    ok = true;
    for (size_t k = 0; k < parts->gl_pathc; k++) {
      char *stats = xasprintf("%s/part-%04zu/stats.json", work, k + 1);
      ran[k] = access(stats, R_OK) == 0;
      free(stats);
    }
  }
  if (!ok) fprintf(stderr, "symq: error: GNU parallel: a part did not end well (see %s)\n", log);
  free(log);
  free(cmd);
  free(out_arg);
  return ok;
}

static bool make_dir(const char *path) {
  if (mkdir(path, 0755) == 0) return true;
  fprintf(stderr, "symq: error: %s: cannot create the directory: %s\n", path, strerror(errno));
  return false;
}

int dist_main(int argc, char **argv, const run_options *o) {
  double start = now_s();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_stop; /* no SA_RESTART: a wait returns, and the stop is passed on */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  double deadline = o->interp.max_time_s > 0 ? start + o->interp.max_time_s : INFINITY;
  char *parallel = NULL;
  if (o->sshlogin && !(parallel = find_parallel())) {
    fprintf(stderr, "symq: error: --sshlogin needs GNU parallel, which is not on PATH\n");
    return RUN_EXIT_BAD_INPUT;
  }
  char err[1024];
  out_dir *out = out_open(o->output_dir, err, sizeof err); /* makes OUTDIR (or symq-out-N) */
  if (!out) {
    fprintf(stderr, "symq: error: %s\n", err);
    free(parallel);
    return RUN_EXIT_BAD_INPUT;
  }
  char *dir = xstrdup(out_path(out));
  out_close(out);
  fprintf(stderr, "symq: output directory is \"%s\"\n", dir);
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0) {
    fprintf(stderr, "symq: error: cannot find symq's own executable: %s\n", strerror(errno));
    free(dir), free(parallel);
    return RUN_EXIT_BAD_INPUT;
  }
  self[len] = 0;
  char *work = xasprintf("%s/dist", dir), *split_dir = xasprintf("%s/split", work);
  int rc = RUN_EXIT_OUTPUT;
  size_t n, room = 5; /* at most 3 extra arguments, --prebuilt, and one spare */
  char **args = child_args(argc, argv, self, room, &n);
  glob_t parts = {0};
  bool globbed = false;
  char *prebuilt = NULL; /* the --prebuilt argument the processes get */
  mergeout_job *job = NULL;
  if (!make_dir(work)) goto done;
  /* 0. the program, compiled once for every process (no clang in each) */
  if (!o->prebuilt) {
    int crc = compile_once(o, work, &prebuilt);
    if (crc) {
      rc = crc;
      goto done;
    }
  }
  prebuilt_arg = prebuilt;
  place_dir = dir;
  if (!o->sshlogin) {    /* local: load the program once, fork every process from it */
    run_options lo = *o; /* only read: the loading options, with the program compiled once */
    if (!lo.prebuilt) lo.prebuilt = prebuilt + strlen("--prebuilt=");
    int lrc = 0;
    if (!(loaded = run_load_program(&lo, &lrc))) {
      rc = lrc;
      goto done;
    }
  }
  /* 1. the split: 8 parts per worker (per host slot under --sshlogin), 4 for few local ones */
  uint64_t workers = o->jobs ? o->jobs : 1;
  if (o->sshlogin) /* a process slot per host and job: the hosts are separated by commas */
    for (const char *c = o->sshlogin; *c; c++) workers += *c == ',' ? (o->jobs ? o->jobs : 1) : 0;
  char split_arg[64], out_arg[4200], max_time[64], log[4200];
  uint64_t per_worker =
      !o->sshlogin && workers <= FEW_LOCAL ? PARTS_PER_FEW_LOCAL : PARTS_PER_WORKER;
  snprintf(split_arg, sizeof split_arg, "--split=%" PRIu64, per_worker * workers);
  snprintf(out_arg, sizeof out_arg, "--output-dir=%s", split_dir);
  snprintf(log, sizeof log, "%s/split.log", work);
  time_left(max_time, sizeof max_time, deadline);
  const char *extra[] = {split_arg, out_arg, max_time};
  /* locally its tests are placed as the parts' are: no syncfs of its own (the merge syncs once
   * at the end; the split's was the last such sync left, with the split alone on the cores: a
   * part's measured 30 to 95 ms before the parts stopped syncing) */
  int status = run_one(args, n, room, extra, *max_time ? 3 : 2, log, SPLIT_PREFIX);
  if (!ended_well(status)) {
    char why[64];
    fprintf(stderr, "symq: error: the split: %s (see %s)\n", status_text(status, why, sizeof why),
            log);
    if (status >= 0 && WIFEXITED(status) && WEXITSTATUS(status) == RUN_EXIT_BAD_INPUT)
      rc = RUN_EXIT_BAD_INPUT; /* the input itself: the log's last line says why */
    goto done;
  }
  globbed = list_parts(split_dir, &parts);
  if (!globbed) {
    fprintf(stderr, "symq: error: %s: cannot list the part files\n", split_dir);
    goto done;
  }
  if (o->sshlogin) fprintf(stderr, "symq: %zu parts on %s\n", parts.gl_pathc, o->sshlogin);
  else
    fprintf(stderr, "symq: %zu parts on %" PRIu64 " processes\n", parts.gl_pathc, o->jobs);
  /* 2. the parts, and one output: the splitter's tests first, then each part's in part
   * order, merged while the later parts run (the links are not a step of their own) */
  mergeout_options mo = {.keep_all_errors = o->interp.emit_all_errors,
                         .into_existing = true,
                         .link_files = true}; /* its own parts' files: no copy */
  job = mergeout_begin(dir, &mo, err, sizeof err);
  if (!job || !(loaded ? mergeout_add_placed(job, split_dir, dir, SPLIT_PREFIX)
                       : mergeout_add(job, split_dir))) {
    fprintf(stderr, "symq: error: %s\n", err);
    goto done;
  }
  bool *ran = xcalloc(parts.gl_pathc + 1, sizeof *ran), merge_failed = false;
  size_t not_run = 0;
  bool ok = parallel ? run_parts_parallel(parallel, args, n, room, &parts, work, o, deadline, ran)
                     : run_parts_locally(args, n, room, &parts, work, o->jobs, deadline, ran, job,
                                         &not_run, &merge_failed);
  if (ok && parallel) { /* GNU parallel's parts are all settled now */
    bool *settled = xcalloc(parts.gl_pathc + 1, sizeof *settled);
    for (size_t k = 0; k < parts.gl_pathc; k++) settled[k] = true;
    size_t cursor = 0;
    ok = merge_settled(job, work, settled, ran, parts.gl_pathc, &cursor, &not_run, SIZE_MAX);
    merge_failed = !ok;
    free(settled);
  }
  free(ran);
  if (merge_failed) fprintf(stderr, "symq: error: %s\n", err);
  if (!ok) goto done;
  if (not_run)
    fprintf(stderr,
            "symq: warning: %zu parts were not run (--max-time or a signal stopped the run): the "
            "exploration is incomplete\n",
            not_run);
  mergeout_summary sum;
  mo.parts_not_run = not_run;
  int mrc = mergeout_end(job, &sum);
  job = NULL;
  if (mrc != 0) {
    fprintf(stderr, "symq: error: %s\n", err);
  } else {
    mergeout_print_errors(stderr, dir);
    mergeout_print_summary(stdout, &sum);
    rc = fflush(stdout) == 0 ? RUN_EXIT_DONE : RUN_EXIT_OUTPUT;
  }
done:
  mergeout_abandon(job);
  prebuilt_arg = NULL;
  place_dir = NULL;
  ir_free(loaded);
  loaded = NULL;
  free(prebuilt);
  if (globbed) globfree(&parts);
  free(args);
  free(work), free(split_dir), free(dir), free(parallel);
  return rc;
}
