/*
 * bitcode.c — loading, compiling, linking and preparing LLVM modules (see bitcode.h).
 *
 * LLVM reports some errors (a bitcode parse failure, a link conflict) not through a return
 * value but through the context's diagnostic handler, whose default prints and calls
 * exit(1). Every context made here therefore carries `on_diagnostic`, which keeps the last
 * error's text in a `diag` record hung off the context; the step that failed turns it into
 * the one-line message.
 */
#include "engine/core/bitcode.h"
#include "engine/core/hashmap.h"
#include "engine/core/reach.h"
#include "engine/core/xalloc.h"

#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include "runtime/refs.h"

extern char **environ;

#ifndef SYMQ_CLANG
#define SYMQ_CLANG "clang-14"
#endif

/* ---- errors ------------------------------------------------------------------------- */

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

/* Collapses a multi-line text into one line: newlines become "; ", runs of blanks shrink,
 * and the result is cut at a readable length. */
static void one_line(char *s) {
  char *w = s;
  for (const char *r = s; *r; r++) {
    char ch = *r;
    if (ch == '\n' || ch == '\r') {
      while (w > s && (w[-1] == ' ' || w[-1] == '\t')) w--;
      if (w > s && r[1] && r[1] != '\n' && w[-1] != ' ') {
        *w++ = ';';
        *w++ = ' ';
      }
      continue;
    }
    if ((ch == ' ' || ch == '\t') && (w == s || w[-1] == ' ')) continue;
    *w++ = ch == '\t' ? ' ' : ch;
  }
  while (w > s && (w[-1] == ' ' || w[-1] == ';')) w--;
  *w = '\0';
  if (w - s > 400) strcpy(s + 396, " ...");
}

static void set_error(bc_error *err, const char *file, const char *detail, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void set_error(bc_error *err, const char *file, const char *detail, const char *fmt, ...) {
  if (!err) return;
  bc_error_clear(err);
  char what[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(what, sizeof what, fmt, ap);
  va_end(ap);
  one_line(what);
  size_t n = strlen(file) + strlen(what) + 32;
  err->message = xmalloc(n);
  snprintf(err->message, n, "symq: error: %s: %s", file, what);
  err->detail = dup_or_null(detail);
}

void bc_error_clear(bc_error *err) {
  if (!err) return;
  free(err->message);
  free(err->detail);
  err->message = err->detail = NULL;
}

/* ---- contexts and their diagnostics --------------------------------------------------- */

typedef struct diag {
  char *last_error; /* text of the newest error-severity diagnostic, or NULL */
} diag;

static void on_diagnostic(LLVMDiagnosticInfoRef info, void *opaque) {
  diag *d = opaque;
  if (LLVMGetDiagInfoSeverity(info) != LLVMDSError) return; /* warnings, remarks: dropped */
  char *text = LLVMGetDiagInfoDescription(info);
  free(d->last_error);
  d->last_error = dup_or_null(text);
  LLVMDisposeMessage(text);
}

static diag *context_diag(LLVMContextRef ctx) {
  if (LLVMContextGetDiagnosticHandler(ctx) != on_diagnostic) return NULL;
  return LLVMContextGetDiagnosticContext(ctx);
}

/* Takes the pending error text (caller frees), or NULL. */
static char *take_diag(LLVMContextRef ctx) {
  diag *d = context_diag(ctx);
  if (!d) return NULL;
  char *t = d->last_error;
  d->last_error = NULL;
  return t;
}

LLVMContextRef bc_context_new(void) {
  diag *d = xcalloc(1, sizeof *d);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(ctx, on_diagnostic, d);
  return ctx;
}

void bc_context_free(LLVMContextRef ctx) {
  if (!ctx) return;
  diag *d = context_diag(ctx);
  LLVMContextDispose(ctx);
  if (d) {
    free(d->last_error);
    free(d);
  }
}

/* ---- reading one input ---------------------------------------------------------------- */

typedef enum { KIND_UNKNOWN, KIND_C, KIND_BC, KIND_LL } input_kind;

static input_kind kind_of(const char *path) {
  const char *dot = strrchr(path, '.');
  const char *slash = strrchr(path, '/');
  if (dot && (!slash || dot > slash)) {
    if (!strcmp(dot, ".c") || !strcmp(dot, ".i")) return KIND_C;
    if (!strcmp(dot, ".bc")) return KIND_BC;
    if (!strcmp(dot, ".ll")) return KIND_LL;
  }
  /* No known extension: recognise raw or wrapped bitcode by its magic number. */
  unsigned char magic[4] = {0};
  FILE *f = fopen(path, "rb");
  if (f) {
    size_t n = fread(magic, 1, 4, f);
    fclose(f);
    if (n == 4 && ((magic[0] == 'B' && magic[1] == 'C' && magic[2] == 0xC0 && magic[3] == 0xDE) ||
                   (magic[0] == 0xDE && magic[1] == 0xC0 && magic[2] == 0x17 && magic[3] == 0x0B)))
      return KIND_BC;
  }
  return KIND_UNKNOWN;
}

void (*bc_fatal_hook)(const char *file, const char *reason);
double bc_max_load_seconds = BC_MAX_LOAD_SECONDS;
unsigned long bc_max_load_mb = BC_MAX_LOAD_MB;

static const char *parsing;      /* the file LLVM is parsing or running the passes on */
static const char *parsing_what; /* "invalid bitcode", "invalid IR", "pass pipeline", ... */
static const char *parsing_step; /* "bitcode reader/verifier", "linker", ...: what is slow */
static int real_stderr = -1;     /* stderr while LLVM parses (fd 2 is /dev/null then) */

/* The bounds on one guarded step, checked every LOAD_TICK of CPU time. A CPU clock, not a
 * wall clock: a loaded machine makes a step slower in wall time, never in CPU time, so the
 * bound refuses only inputs that make LLVM loop, not big modules on a busy machine. The
 * signal goes to the thread that guards (the one inside LLVM), whichever thread the
 * process's CPU time is spent in. */
#define LOAD_TIMER_SIGNAL SIGVTALRM
#define LOAD_TICK_NS 100000000L
static timer_t load_timer;
static bool load_timer_made;
static double load_seconds; /* the bounds of the step, defaults applied (arm_load_timer) */
static unsigned long load_mb;
static double load_deadline; /* process CPU seconds at which the step is refused */
static unsigned long page_bytes = 4096;

static double cpu_seconds(void) { /* async-signal-safe */
  struct timespec t;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void disarm_load_timer(void) { /* async-signal-safe */
  struct itimerspec off = {{0, 0}, {0, 0}};
  if (load_timer_made) timer_settime(load_timer, 0, &off, NULL);
}

static void arm_load_timer(void) {
  if (!load_timer_made) {
    struct sigevent ev = {.sigev_notify = SIGEV_THREAD_ID, .sigev_signo = LOAD_TIMER_SIGNAL};
    ev._sigev_un._tid = gettid(); /* glibc 2.36 names it sigev_notify_thread_id nowhere */
    load_timer_made = timer_create(CLOCK_PROCESS_CPUTIME_ID, &ev, &load_timer) == 0;
  }
  long page = sysconf(_SC_PAGESIZE); /* not async-signal-safe: read here */
  if (page > 0) page_bytes = (unsigned long)page;
  load_seconds = bc_max_load_seconds > 0 ? bc_max_load_seconds : BC_MAX_LOAD_SECONDS;
  load_mb = bc_max_load_mb ? bc_max_load_mb : BC_MAX_LOAD_MB;
  load_deadline = cpu_seconds() + load_seconds;
  struct itimerspec tick = {{0, LOAD_TICK_NS}, {0, LOAD_TICK_NS}};
  if (load_timer_made) timer_settime(load_timer, 0, &tick, NULL);
}

/* Resident memory in MB, from /proc/self/statm (async-signal-safe); 0 if unknown. */
static unsigned long resident_mb(void) {
  char text[128];
  int fd = open("/proc/self/statm", O_RDONLY);
  if (fd < 0) return 0;
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0) return 0;
  text[n] = '\0';
  const char *p = text;
  while (*p && *p != ' ') p++; /* the first field is the size; the second, resident pages */
  if (*p) p++;
  unsigned long pages = 0;
  for (; *p >= '0' && *p <= '9'; p++) pages = pages * 10 + (unsigned long)(*p - '0');
  return pages / (1024 * 1024 / page_bytes);
}

/* Writes n in decimal into buf (at least 21 bytes; async-signal-safe). */
static const char *decimal(unsigned long long n, char *buf) {
  char *w = buf + 20;
  *w = '\0';
  do *--w = (char)('0' + n % 10);
  while (n /= 10);
  return w;
}

/* Writes parts (NULL-terminated) on the real stderr (async-signal-safe). */
static void say(const char *const *parts) {
  dup2(real_stderr, STDERR_FILENO); /* LLVM's own lines stay unsaid; symq's come back */
  for (size_t k = 0; parts[k]; k++) {
    ssize_t ignored = write(STDERR_FILENO, parts[k], strlen(parts[k]));
    (void)ignored;
  }
}

/* The one line said about bad input. */
static void say_refused(const char *reason) {
  const char *parts[] = {
      "symq: error: ", parsing ? parsing : "input", ": ", parsing_what, ": ", reason, "\n", NULL};
  say(parts);
}

/* LLVM's readers report some malformed input (a bad data layout string, in bitcode or in
 * .ll text) as a fatal error and would print "LLVM ERROR" and abort: say which file
 * instead, on one line, and exit 2 as for any other bad input (LLVM cannot go on after a
 * fatal error). */
static void on_fatal(const char *reason) {
  disarm_load_timer();
  dup2(real_stderr, STDERR_FILENO);
  if (bc_fatal_hook) bc_fatal_hook(parsing, reason);
  say_refused(reason);
  exit(2);
}

/* LLVM 14's bitcode reader also dereferences wild pointers on some malformed metadata, and
 * on some malformed record counts asks for tens of gigabytes, which it reports by printing
 * "LLVM ERROR: out of memory" and calling abort; its mem2reg pass dereferences NULL on some
 * malformed debug metadata that the reader and the verifier let through (all found by
 * fuzz_ir): while it parses or runs the passes, a SIGSEGV, SIGBUS or SIGABRT is that input's
 * fault, so it ends symq the same way. */
static void on_crash(int sig) {
  disarm_load_timer();
  dup2(real_stderr, STDERR_FILENO);
  if (bc_fatal_hook) bc_fatal_hook(parsing, "LLVM 14 crashed on it");
  say_refused(sig == SIGABRT ? "LLVM gave up on it (out of memory)" : "LLVM crashed on it");
  _exit(2);
}

/* LLVM 14's reader, upgrading the debug info of some malformed modules, runs its verifier,
 * which walks a scope chain that cycles for ever; on some malformed attribute indices it
 * allocates and clears tens of gigabytes, which the machine may well have (all found by
 * fuzz_ir). So a guarded step that outlives bc_max_load_seconds of CPU, or grows symq past
 * bc_max_load_mb resident, is refused. LLVM is stopped wherever it is (maybe inside
 * malloc), so nothing of its state is touched again: symq says so and _exits; guard_parse
 * flushed stdio first, so nothing written before is lost. */
static void on_load_tick(int sig) {
  (void)sig;
  int saved_errno = errno; /* the interrupted code may be about to read it */
  bool slow = cpu_seconds() >= load_deadline;
  if (!slow && resident_mb() <= load_mb) {
    errno = saved_errno;
    return;
  }
  disarm_load_timer();
  dup2(real_stderr, STDERR_FILENO);
  if (bc_fatal_hook) bc_fatal_hook(parsing, slow ? "did not finish in time" : "too big");
  unsigned long long tenths = (unsigned long long)(load_seconds * 10 + 0.5);
  char whole[24], mb[24];
  const char tenth[] = {'.', (char)('0' + tenths % 10), '\0'};
  const char *slow_parts[] = {"symq: error: ",
                              parsing ? parsing : "input",
                              ": ",
                              parsing_step,
                              " did not finish within ",
                              decimal(tenths / 10, whole),
                              tenths % 10 ? tenth : "",
                              " s of CPU (--max-load-time)\n",
                              NULL};
  const char *big_parts[] = {"symq: error: ",
                             parsing ? parsing : "input",
                             ": ",
                             parsing_step,
                             " needed more than ",
                             decimal(load_mb, mb),
                             " MB of memory (--max-load-memory)\n",
                             NULL};
  say(slow ? slow_parts : big_parts);
  _exit(2);
}

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGABRT, LOAD_TIMER_SIGNAL};
#define N_GUARDED_SIGNALS (sizeof crash_signals / sizeof *crash_signals)
static struct sigaction old_crash[N_GUARDED_SIGNALS];

/* While LLVM works on `name` (`step`: what it is doing), its fatal errors, crashes and
 * endless loops are that input's fault (`what`: the kind of fault a crash means), and what
 * it would print before them (to fd 2, not through any handler) is not symq's one line. */
static void guard_parse(const char *name, const char *what, const char *step) {
  /* a hook that jumped out of the last parse left its guard up: what it saved stays */
  bool fresh = parsing == NULL;
  parsing = name;
  parsing_what = what;
  parsing_step = step;
  LLVMInstallFatalErrorHandler(on_fatal);
  /* SA_NODEFER: a hook that jumps out leaves the signal unblocked for the next input */
  for (size_t k = 0; k < N_GUARDED_SIGNALS; k++) {
    struct sigaction crash = {.sa_flags = SA_NODEFER | SA_RESTART};
    crash.sa_handler = crash_signals[k] == LOAD_TIMER_SIGNAL ? on_load_tick : on_crash;
    sigaction(crash_signals[k], &crash, fresh ? &old_crash[k] : NULL);
  }
  fflush(NULL); /* a handler _exits: what symq wrote so far must be out already */
  if (real_stderr < 0) real_stderr = dup(STDERR_FILENO);
  int null = open("/dev/null", O_WRONLY);
  if (real_stderr >= 0 && null >= 0) dup2(null, STDERR_FILENO);
  if (null >= 0) close(null);
  arm_load_timer();
}

static void unguard_parse(void) {
  disarm_load_timer();
  if (real_stderr >= 0) dup2(real_stderr, STDERR_FILENO);
  for (size_t k = 0; k < N_GUARDED_SIGNALS; k++) sigaction(crash_signals[k], &old_crash[k], NULL);
  LLVMResetFatalErrorHandler();
  parsing = NULL;
}

static bool parse_bitcode(LLVMContextRef ctx, const char *file, const char *name,
                          LLVMModuleRef *out, bc_error *err) {
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(file, &buf, &msg)) {
    set_error(err, name, NULL, "cannot read: %s", msg ? msg : "unknown error");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMModuleRef m = NULL;
  free(take_diag(ctx));
  guard_parse(name, "invalid bitcode", "bitcode reader/verifier");
  bool failed = LLVMParseBitcodeInContext2(ctx, buf, &m);
  unguard_parse();
  LLVMDisposeMemoryBuffer(buf); /* the parse is eager: the module does not keep the buffer */
  if (failed) {
    char *why = take_diag(ctx);
    set_error(err, name, why, "invalid bitcode: %s", why ? why : "unreadable module");
    free(why);
    return false;
  }
  *out = m;
  return true;
}

static bool parse_ir(LLVMContextRef ctx, const char *file, LLVMModuleRef *out, bc_error *err) {
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(file, &buf, &msg)) {
    set_error(err, file, NULL, "cannot read: %s", msg ? msg : "unknown error");
    LLVMDisposeMessage(msg);
    return false;
  }
  LLVMModuleRef m = NULL;
  guard_parse(file, "invalid IR", "IR parser/verifier");
  bool failed = LLVMParseIRInContext(ctx, buf, &m, &msg); /* takes the buffer */
  unguard_parse();
  if (failed) {
    const char *why = msg ? msg : "unreadable module";
    size_t n = strlen(file);
    if (!strncmp(why, file, n) && why[n] == ':') why += n + 1; /* the message repeats it */
    const char *nl = strchr(why, '\n'); /* then come the source line and a caret */
    set_error(err, file, msg, "invalid IR: %.*s", nl ? (int)(nl - why) : (int)strlen(why), why);
    LLVMDisposeMessage(msg);
    return false;
  }
  *out = m;
  return true;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *s = xmalloc(cap);
  for (;;) {
    size_t n = fread(s + len, 1, cap - len - 1, f);
    len += n;
    if (len + 1 < cap) break;
    s = xrealloc(s, cap *= 2);
  }
  fclose(f);
  s[len] = '\0';
  return s;
}

/* The first line of clang's output that reports an error, else its first line. */
static const char *first_error_line(const char *text, size_t *len) {
  const char *pick = text;
  for (const char *line = text; line && *line;) {
    const char *end = strchr(line, '\n');
    size_t n = end ? (size_t)(end - line) : strlen(line);
    if (memmem(line, n, "error", 5)) {
      pick = line;
      break;
    }
    line = end ? end + 1 : NULL;
  }
  const char *end = strchr(pick, '\n');
  *len = end ? (size_t)(end - pick) : strlen(pick);
  return pick;
}

/* A .c input's compile: clang runs as a child (`pid`) writing `bc` and, on fd 1 and 2,
 * `errf`, both in the fresh directory `dir`. */
typedef struct compile_job {
  const char *clang;
  pid_t pid;
  char dir[4096], bc[4200], errf[4200];
} compile_job;

static void compile_cleanup(const compile_job *job) {
  unlink(job->bc);
  unlink(job->errf);
  rmdir(job->dir);
}

/* Starts clang on `path`; on failure nothing is left running or on disk. */
static bool compile_spawn(const char *path, const bc_options *opts, compile_job *job,
                          bc_error *err) {
  const char *clang = job->clang = opts && opts->clang ? opts->clang : SYMQ_CLANG;
  const char *tmp = getenv("TMPDIR");
  snprintf(job->dir, sizeof job->dir, "%s/symq-bc-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(job->dir)) {
    set_error(err, path, NULL, "cannot create a temporary directory in %s: %s",
              tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return false;
  }
  snprintf(job->bc, sizeof job->bc, "%s/out.bc", job->dir);
  snprintf(job->errf, sizeof job->errf, "%s/clang.stderr", job->dir);

  size_t ninc = opts ? opts->n_include_dirs : 0, nfl = opts ? opts->n_cflags : 0;
  size_t nargs = 18 + 2 * ninc + nfl;
  const char **argv = xcalloc(nargs, sizeof *argv);
  bool ok = false;
  size_t a = 0;
  argv[a++] = clang;
  argv[a++] = "-emit-llvm";
  argv[a++] = "-c";
  argv[a++] = "-g";
  argv[a++] = "-O0";
  argv[a++] = "-Xclang";
  argv[a++] = "-disable-O0-optnone";
  /* Library calls stay calls to symq's libc model (runtime/lib). Without -fno-builtin clang
   * turns memcpy/memset/memmove/bzero calls into intrinsics, whose symbolic lengths the
   * executor concretizes, where the model's loop forks once per feasible length (KLEE
   * lowers the intrinsics to such a loop); it also keeps --optimize from rewriting calls
   * (printf into puts). __NO_CTYPE makes glibc's isdigit(c) & co. calls to the model's
   * functions instead of reads of the __ctype_b_loc table. _FORTIFY_SOURCE and __OPTIMIZE__
   * need nothing: at -O0 glibc neither fortifies nor inlines. The caller's flags come after
   * these, so a -U or -D of theirs wins. */
  argv[a++] = "-fno-builtin";
  argv[a++] = "-D__NO_CTYPE";
  for (size_t i = 0; i < ninc; i++) {
    argv[a++] = "-I";
    argv[a++] = opts->include_dirs[i];
  }
  for (size_t i = 0; i < nfl; i++) argv[a++] = opts->cflags[i];
  argv[a++] = "-o";
  argv[a++] = job->bc;
  argv[a++] = path;
  argv[a] = NULL;

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, job->errf, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&fa, 2, 1);
  int rc = posix_spawnp(&job->pid, clang, &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    set_error(err, path, NULL, "cannot run %s: %s", clang, strerror(rc));
    goto done;
  }
  ok = true;
done:
  free(argv);
  if (!ok) compile_cleanup(job);
  return ok;
}

/* Waits for the compile compile_spawn started and parses what it wrote; leaves nothing on
 * disk. */
static bool compile_wait(LLVMContextRef ctx, const char *path, const compile_job *job,
                         LLVMModuleRef *out, bc_error *err) {
  const char *clang = job->clang;
  bool ok = false;
  int status;
  while (waitpid(job->pid, &status, 0) < 0) {
    if (errno != EINTR) {
      set_error(err, path, NULL, "waiting for %s: %s", clang, strerror(errno));
      goto done;
    }
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    char *text = read_text(job->errf);
    size_t n = 0;
    const char *line = text ? first_error_line(text, &n) : "";
    if (WIFEXITED(status))
      set_error(err, path, text, "clang failed (exit status %d): %.*s", WEXITSTATUS(status), (int)n,
                line);
    else
      set_error(err, path, text, "clang killed by signal %d: %.*s",
                WIFSIGNALED(status) ? WTERMSIG(status) : 0, (int)n, line);
    free(text);
    goto done;
  }
  ok = parse_bitcode(ctx, job->bc, path, out, err);
done:
  compile_cleanup(job);
  return ok;
}

/* Says why `path` cannot be read, if it cannot. */
static bool readable(const char *path, bc_error *err) {
  struct stat st;
  if (stat(path, &st) != 0 || access(path, R_OK) != 0) {
    set_error(err, path, NULL, "cannot open: %s", strerror(errno));
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    set_error(err, path, NULL, "cannot open: %s", strerror(EISDIR));
    return false;
  }
  return true;
}

/* A module that names no data layout gets x86-64's (see bitcode.h). */
static void default_layout(LLVMModuleRef m) {
  if (*LLVMGetDataLayoutStr(m)) return;
  LLVMSetDataLayout(m, BC_X86_64_DATALAYOUT);
  if (!*LLVMGetTarget(m)) LLVMSetTarget(m, BC_X86_64_TRIPLE);
}

/* The end of reading an input, m (consumed): its layout, then the verifier (unless the
 * caller verifies it later). */
static bool read_done(LLVMModuleRef m, const char *path, bool verify, LLVMModuleRef *out,
                      bc_error *err) {
  default_layout(m);
  if (verify && !bc_verify(m, path, err)) {
    LLVMDisposeModule(m);
    return false;
  }
  *out = m;
  return true;
}

static bool read_one(LLVMContextRef ctx, const char *path, const bc_options *opts, bool verify,
                     LLVMModuleRef *out, bc_error *err) {
  if (!readable(path, err)) return false;
  LLVMModuleRef m = NULL;
  compile_job job;
  bool ok;
  switch (kind_of(path)) {
  case KIND_C:
    ok = compile_spawn(path, opts, &job, err) && compile_wait(ctx, path, &job, &m, err);
    break;
  case KIND_BC: ok = parse_bitcode(ctx, path, path, &m, err); break;
  case KIND_LL: ok = parse_ir(ctx, path, &m, err); break;
  default:
    set_error(err, path, NULL, "unknown input kind (expected .c, .i, .bc or .ll)");
    ok = false;
  }
  return ok && read_done(m, path, verify, out, err);
}

bool bc_read(LLVMContextRef ctx, const char *path, const bc_options *opts, LLVMModuleRef *out,
             bc_error *err) {
  return read_one(ctx, path, opts, true, out, err);
}

/* ---- linking, verifying, passes ------------------------------------------------------ */

bool bc_link(LLVMModuleRef dst, LLVMModuleRef src, const char *src_name, bc_error *err) {
  LLVMContextRef ctx = LLVMGetModuleContext(dst);
  free(take_diag(ctx));
  guard_parse(src_name, "cannot link", "linker");
  bool failed = LLVMLinkModules2(dst, src);
  unguard_parse();
  if (failed) {
    char *why = take_diag(ctx);
    set_error(err, src_name, why, "cannot link: %s", why ? why : "linker failed");
    free(why);
    return false;
  }
  return true;
}

bool bc_verify(LLVMModuleRef m, const char *name, bc_error *err) {
  char *msg = NULL;
  guard_parse(name, "invalid module", "verifier");
  bool bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  unguard_parse();
  if (bad) set_error(err, name, msg, "invalid module: %s", msg && *msg ? msg : "verifier failed");
  LLVMDisposeMessage(msg);
  return !bad;
}

bool bc_write(LLVMModuleRef m, const char *path, bc_error *err) {
  char *tmp = xasprintf("%s.tmp-XXXXXX", path);
  int fd = mkstemp(tmp);
  mode_t mask = umask(0); /* the file gets a new file's mode, not mkstemp's 0600 */
  umask(mask);
  if (fd >= 0) fchmod(fd, 0666 & ~mask);
  bool ok = fd >= 0 && LLVMWriteBitcodeToFD(m, fd, 0, 0) == 0;
  int saved = errno;
  if (fd >= 0 && close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && rename(tmp, path) != 0) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    set_error(err, path, NULL, "cannot write: %s", strerror(saved ? saved : EIO));
    if (fd >= 0) unlink(tmp);
  }
  free(tmp);
  return ok;
}

bool bc_run_passes(LLVMModuleRef m, const char *passes, const char *name, bc_error *err) {
  if (!passes) passes = BC_PIPELINE_DEFAULT;
  unsigned optnone = LLVMGetEnumAttributeKindForName("optnone", 7);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, optnone);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetLoopVectorization(po, 0);
  LLVMPassBuilderOptionsSetSLPVectorization(po, 0);
  LLVMPassBuilderOptionsSetLoopInterleaving(po, 0);
  LLVMPassBuilderOptionsSetLoopUnrolling(po, 0);
  /* Atomics first, whatever the pipeline: the interpreter runs one thread and decodes no
   * cmpxchg, atomicrmw or fence. */
  guard_parse(name, "pass pipeline", "pass pipeline");
  LLVMErrorRef e = LLVMRunPasses(m, "loweratomic", NULL, po);
  if (!e) e = LLVMRunPasses(m, passes, NULL, po);
  unguard_parse();
  LLVMDisposePassBuilderOptions(po);
  if (e) {
    char *msg = LLVMGetErrorMessage(e); /* consumes e */
    set_error(err, name, msg, "pass pipeline \"%s\" failed: %s", passes, msg);
    LLVMDisposeErrorMessage(msg);
    return false;
  }
  return true;
}

const char *bc_pipeline_named(const char *name) {
  if (strcmp(name, "mem2reg") == 0) return BC_PIPELINE_DEFAULT;
  if (strcmp(name, "klee") == 0) return BC_PIPELINE_KLEE;
  if (strcmp(name, "O1") == 0) return BC_PIPELINE_OPTIMIZE;
  return name;
}

/* ---- libraries: linking only what the program reaches --------------------------------- */

/* A library's reference index, LIB.refs (runtime/refs.h: its format; runtime/refs.c writes
 * it): per global value the library defines, the names it refers to. */
typedef struct refs_entry {
  const char *name;
  uint64_t hash;            /* of the name */
  struct refs_entry *chain; /* the index's `by_name` link */
  uint32_t first, n;        /* its references: refs[first .. first + n), entry numbers */
  bool root;                /* a variable or an alias (F lines are functions) */
  bool needed;
} refs_entry;

typedef struct refs_index {
  char *text; /* the file; names are cut out of it in place */
  refs_entry *entries;
  uint32_t n;
  uint32_t *refs;
  hchain by_name; /* of the entries (which never move) */
} refs_index;

#define REFS_LINK offsetof(refs_entry, chain)

static uint32_t refs_find(const refs_index *ix, const char *name) {
  uint64_t h = refs_hash((const unsigned char *)name, strlen(name));
  for (refs_entry *e = hchain_bucket(&ix->by_name, h); e; e = e->chain)
    if (e->hash == h && strcmp(e->name, name) == 0) return (uint32_t)(e - ix->entries);
  return UINT32_MAX;
}

static void refs_free(refs_index *ix) {
  free(ix->text);
  free(ix->entries);
  free(ix->refs);
  hchain_free(&ix->by_name);
  memset(ix, 0, sizeof *ix);
}

/* Reads LIB.refs if it describes exactly these bytes of LIB; false (nothing to free)
 * otherwise: a missing, stale or unreadable index means linking the library whole. */
static bool refs_read(const char *lib, const void *bytes, size_t size, refs_index *ix) {
  memset(ix, 0, sizeof *ix);
  char path[4200];
  if (snprintf(path, sizeof path, "%s.refs", lib) >= (int)sizeof path) return false;
  if (!(ix->text = read_text(path))) return false;
  char **names = NULL; /* every reference, by name, in the order of the lines */
  size_t want_size;
  unsigned long long want_hash;
  if (sscanf(ix->text, REFS_MAGIC " %zu %llx", &want_size, &want_hash) != 2 || want_size != size ||
      want_hash != refs_hash(bytes, size))
    goto stale;
  size_t lines = 0, words = 0;
  for (const char *c = ix->text; *c; c++) {
    lines += *c == '\n';
    words += *c == ' ';
  }
  size_t nbuckets = 64;
  while (nbuckets < lines) nbuckets *= 2;
  hchain_grow(&ix->by_name, nbuckets, REFS_LINK, offsetof(refs_entry, hash));
  ix->entries = xcalloc(lines + 1, sizeof *ix->entries);
  ix->refs = xcalloc(words + 1, sizeof *ix->refs);
  names = xcalloc(words + 1, sizeof *names);
  uint32_t nnames = 0;
  char *first = strchr(ix->text, '\n');
  if (!first) goto stale;
  for (char *p = first + 1; *p;) {
    char *end = strchr(p, '\n');
    if (!end || (p[0] != 'F' && p[0] != 'G' && p[0] != 'A') || p[1] != ' ' || p[2] == ' ' ||
        p + 2 >= end)
      goto stale;
    *end = '\0';
    refs_entry *e = &ix->entries[ix->n];
    e->root = p[0] != 'F';
    e->name = p + 2;
    e->first = nnames;
    for (char *sp = strchr(p + 2, ' '); sp; sp = strchr(sp + 1, ' ')) {
      *sp = '\0';
      names[nnames++] = sp + 1;
    }
    e->n = nnames - e->first;
    if (refs_find(ix, e->name) != UINT32_MAX) goto stale; /* a name twice */
    e->hash = refs_hash((const unsigned char *)e->name, strlen(e->name));
    if (hchain_is_full(&ix->by_name))
      hchain_grow(&ix->by_name, nbuckets, REFS_LINK, offsetof(refs_entry, hash));
    hchain_insert(&ix->by_name, e, e->hash, REFS_LINK);
    ix->n++;
    p = end + 1;
  }
  for (uint32_t k = 0; k < nnames; k++) ix->refs[k] = refs_find(ix, names[k]);
  free(names);
  return true;
stale:
  free(names);
  refs_free(ix);
  return false;
}

static bool named_in(LLVMModuleRef m, const char *name) {
  return LLVMGetNamedFunction(m, name) || LLVMGetNamedGlobal(m, name) ||
         LLVMGetNamedGlobalAlias(m, name, strlen(name));
}

/* Marks what `program` can reach in the library: what the program names (declares, or
 * defines: the linker then does with both definitions what it would do linking whole),
 * opts->keep, every variable and alias (the linker links the library's external ones, and
 * an internal one when something linked uses it: marking all is a safe superset), and what
 * those refer to. A function left unmarked is one nothing linked can refer to. */
static void refs_mark_needed(refs_index *ix, LLVMModuleRef program, const bc_options *opts) {
  uint32_t *stack = xmalloc(((size_t)ix->n + 1) * sizeof *stack);
  size_t top = 0;
  for (uint32_t k = 0; k < ix->n; k++) {
    refs_entry *e = &ix->entries[k];
    bool keep = e->root || named_in(program, e->name);
    for (size_t j = 0; !keep && opts && j < opts->n_keep; j++)
      keep = !strcmp(opts->keep[j], e->name);
    if (!keep) continue;
    e->needed = true;
    stack[top++] = k;
  }
  while (top) {
    const refs_entry *e = &ix->entries[stack[--top]];
    for (uint32_t r = e->first; r < e->first + e->n; r++) {
      if (ix->refs[r] == UINT32_MAX || ix->entries[ix->refs[r]].needed) continue;
      ix->entries[ix->refs[r]].needed = true;
      stack[top++] = ix->refs[r];
    }
  }
  free(stack);
}

/* Does the index describe lib's definitions one for one (functions as F lines)? */
static bool refs_match(const refs_index *ix, LLVMModuleRef lib) {
  uint32_t defs = 0;
  for (LLVMValueRef g = LLVMGetFirstGlobal(lib); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsDeclaration(g)) continue;
    uint32_t e = refs_find(ix, LLVMGetValueName(g));
    if (e == UINT32_MAX || !ix->entries[e].root) return false;
    defs++;
  }
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(lib); a; a = LLVMGetNextGlobalAlias(a)) {
    uint32_t e = refs_find(ix, LLVMGetValueName(a));
    if (e == UINT32_MAX || !ix->entries[e].root) return false;
    defs++;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(lib); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f)) continue; /* a body not read yet is no declaration */
    uint32_t e = refs_find(ix, LLVMGetValueName(f));
    if (e == UINT32_MAX || ix->entries[e].root) return false;
    defs++;
  }
  return defs == ix->n;
}

/* Links the bitcode library `path` into `program` with only the functions the program
 * reaches (refs_mark_needed), when LIB.refs describes it: the library is read lazily (its
 * globals and declarations now, a function's body when the linker moves it), the functions
 * nothing reaches are deleted unread, and the rest is linked. The mem2reg pipeline and the
 * decoder then see the program and the part of the libc model it uses, not all of it.
 * Sets *linked; false (with true returned) means: no usable index, link it whole. */
static bool link_needed(LLVMModuleRef program, const char *path, const bc_options *opts,
                        bool *linked, bc_error *err) {
  *linked = false;
  struct stat st;
  if (stat(path, &st) != 0 || !S_ISREG(st.st_mode) || kind_of(path) != KIND_BC) return true;
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
    LLVMDisposeMessage(msg);
    return true; /* bc_read says why */
  }
  refs_index ix;
  if (!refs_read(path, LLVMGetBufferStart(buf), LLVMGetBufferSize(buf), &ix)) {
    LLVMDisposeMemoryBuffer(buf);
    return true;
  }
  LLVMContextRef ctx = LLVMGetModuleContext(program);
  LLVMModuleRef lib = NULL;
  free(take_diag(ctx));
  guard_parse(path, "invalid bitcode", "bitcode reader/verifier");
  bool failed = LLVMGetBitcodeModuleInContext2(ctx, buf, &lib); /* lib owns buf */
  unguard_parse();
  if (failed) {
    LLVMDisposeMemoryBuffer(buf);
    free(take_diag(ctx));
    refs_free(&ix);
    return true;
  }
  if (!refs_match(&ix, lib)) {
    LLVMDisposeModule(lib);
    refs_free(&ix);
    return true;
  }
  refs_mark_needed(&ix, program, opts);
  for (LLVMValueRef f = LLVMGetFirstFunction(lib), next; f; f = next) {
    next = LLVMGetNextFunction(f);
    if (!LLVMIsDeclaration(f) && !ix.entries[refs_find(&ix, LLVMGetValueName(f))].needed)
      LLVMDeleteFunction(f); /* nothing that is linked refers to it */
  }
  refs_free(&ix);
  default_layout(lib);
  *linked = true;
  return bc_link(program, lib, path, err);
}

/* ---- the whole sequence --------------------------------------------------------------- */

/* What follows reading the program into bm->module: the libraries, the passes, the
 * verifier. */
static bool link_and_prepare(bc_module *bm, const char *path, const bc_options *opts,
                             bc_error *err) {
  bool partly = false; /* a library linked by its index: its bodies are not verified yet */
  for (size_t i = 0; opts && i < opts->n_link; i++) {
    bool linked;
    if (!link_needed(bm->module, opts->link[i], opts, &linked, err)) return false;
    partly |= linked;
    if (linked) continue;
    LLVMModuleRef extra = NULL;
    if (!bc_read(bm->context, opts->link[i], opts, &extra, err)) return false;
    if (!bc_link(bm->module, extra, opts->link[i], err)) return false;
  }
  if (opts && opts->n_roots) {
    reach_trim(bm->module, opts->roots, opts->n_roots);
    partly = true; /* a lone input is verified only now (read_all) */
  }
  if (partly && !bc_verify(bm->module, path, err)) return false;
  const char *passes = opts && opts->passes     ? opts->passes
                       : opts && opts->optimize ? BC_PIPELINE_OPTIMIZE
                                                : BC_PIPELINE_DEFAULT;
  return bc_run_passes(bm->module, passes, path, err) && bc_verify(bm->module, path, err);
}

/* At most this many clangs run at once (a library of many .c files). */
enum { MAX_COMPILES = 4 };

/* One input of the program, and its compile while clang runs (a .c input). */
typedef struct pending_input {
  const char *path;
  bool compiling;
  compile_job job;
} pending_input;

/* A load bc_load_start began: the module being built, and the program's inputs, the next
 * ones' compiles running ahead of the reading. */
struct bc_pending {
  const bc_options *opts;
  bc_module *bm;
  pending_input *in;
  size_t n, next_spawn, running;
  bool done; /* all of it happened in bc_load_start */
};

/* Starts clang on the next .c inputs, up to MAX_COMPILES running. */
static bool spawn_ahead(bc_pending *p, bc_error *err) {
  for (; p->next_spawn < p->n && p->running < MAX_COMPILES; p->next_spawn++) {
    pending_input *in = &p->in[p->next_spawn];
    if (kind_of(in->path) != KIND_C) continue;
    if (!compile_spawn(in->path, p->opts, &in->job, err)) return false;
    in->compiling = true;
    p->running++;
  }
  return true;
}

/* Reads input k: waits for its compile, or parses it. */
static bool read_input(bc_pending *p, size_t k, LLVMModuleRef *out, bc_error *err) {
  if (!spawn_ahead(p, err)) return false;
  pending_input *in = &p->in[k];
  /* a lone input that will be trimmed is verified after the trim (link_and_prepare) */
  const bc_options *o = p->opts;
  bool verify = !(p->n == 1 && o && o->n_roots && !o->inputs_only);
  if (!in->compiling) return read_one(p->bm->context, in->path, o, verify, out, err);
  in->compiling = false;
  p->running--;
  LLVMModuleRef m = NULL;
  return compile_wait(p->bm->context, in->path, &in->job, &m, err) &&
         read_done(m, in->path, verify, out, err);
}

/* Reads the inputs in order, linking each into the first, then links the libraries and
 * runs the passes (unless inputs_only). */
static bool read_all(bc_pending *p, bc_error *err) {
  bc_module *bm = p->bm;
  for (size_t k = 0; k < p->n; k++) {
    LLVMModuleRef m = NULL;
    if (!read_input(p, k, &m, err)) return false;
    if (k == 0) bm->module = m;
    else if (!bc_link(bm->module, m, p->in[k].path, err))
      return false;
  }
  if (p->opts && p->opts->inputs_only) return true;
  return link_and_prepare(bm, p->in[0].path, p->opts, err);
}

/* Frees p; a compile still running is killed, and its files removed. */
static void pending_free(bc_pending *p, bool keep_module) {
  for (size_t k = 0; k < p->n; k++) {
    if (!p->in[k].compiling) continue;
    kill(p->in[k].job.pid, SIGKILL);
    while (waitpid(p->in[k].job.pid, NULL, 0) < 0 && errno == EINTR) continue;
    compile_cleanup(&p->in[k].job);
  }
  if (!keep_module) bc_free(p->bm);
  free(p->in);
  free(p);
}

bc_pending *bc_load_start(const char *path, const bc_options *opts, bc_error *err) {
  bc_pending *p = xcalloc(1, sizeof *p);
  p->n = 1 + (opts ? opts->n_inputs : 0);
  p->in = xcalloc(p->n, sizeof *p->in);
  p->opts = opts;
  p->bm = xcalloc(1, sizeof *p->bm);
  p->bm->context = bc_context_new();
  bool ok = true;
  for (size_t k = 0; k < p->n && ok; k++) {
    p->in[k].path = k ? opts->inputs[k - 1] : path;
    ok = readable(p->in[k].path, err);
  }
  ok = ok && spawn_ahead(p, err);
  if (ok && !p->running) /* no child to wait for: all of it now */
    ok = p->done = read_all(p, err);
  if (!ok) {
    pending_free(p, false);
    return NULL;
  }
  return p;
}

bc_module *bc_load_finish(bc_pending *p, bc_error *err) {
  bc_module *bm = p->bm;
  bool ok = p->done || read_all(p, err);
  pending_free(p, ok);
  return ok ? bm : NULL;
}

bc_module *bc_load(const char *path, const bc_options *opts, bc_error *err) {
  bc_pending *p = bc_load_start(path, opts, err);
  return p ? bc_load_finish(p, err) : NULL;
}

void bc_free(bc_module *m) {
  if (!m) return;
  if (m->module) LLVMDisposeModule(m->module);
  bc_context_free(m->context);
  free(m);
}
