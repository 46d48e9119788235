/*
 * test_xalloc — the allocator's out-of-memory boundary and its fault injection, then
 * SQLite's habit on a whole run: `symq run` on a small driver with its 1st, 2nd, 3rd ...
 * allocation failing, until a run completes. Each run must end cleanly: exit status
 * XALLOC_OOM_STATUS and "symq: fatal: out of memory" as the last line (or, inside
 * ir_decode, which recovers, the input refused with its out-of-memory message), no
 * sanitizer report, an `info` that says the run failed (out of memory) or none at all, and
 * every test written readable whole with no temporary file left.
 *
 * Each run is a fork() of this process calling run_main, so the driver is compiled once
 * and no run pays for exec, dynamic linking or the sanitizers' start-up.
 */
#include "check.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <llvm-c/BitWriter.h>

#include "engine/cli/run.h"
#include "engine/core/bitcode.h"
#include "engine/core/xalloc.h"
#include "engine/out/ktest.h"

#define DRIVER SYMQ_SOURCE_DIR "/test/e2e/err_div.c"
#define DRIVER_TESTS 3 /* its EXPECT line: 1 completed + 2 errors */
#define MAX_RUNS 100000ul

static char tmpdir[] = "/tmp/symq-test-xalloc-XXXXXX";

/* Reads a whole small file (NUL-terminated) into buf; false if it cannot. */
static bool read_text(const char *path, char *buf, size_t size) {
  FILE *f = fopen(path, "r");
  if (!f) return false;
  size_t n = fread(buf, 1, size - 1, f);
  fclose(f);
  buf[n] = 0;
  return true;
}

static const char *last_line(char *text) {
  size_t n = strlen(text);
  while (n && text[n - 1] == '\n') text[--n] = 0;
  char *nl = strrchr(text, '\n');
  return nl ? nl + 1 : text;
}

/* Runs fn(arg) in a child with stdout on /dev/null and stderr in `err_path`; returns the
 * wait status. */
static int in_child(void (*fn)(void *), void *arg, const char *err_path) {
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY),
        err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (null < 0 || err < 0 || dup2(null, STDOUT_FILENO) < 0 || dup2(err, STDERR_FILENO) < 0)
      _exit(99);
    fn(arg);
    _exit(98); /* fn ends the process itself */
  }
  int status = -1;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return status;
}

/* ---- the boundary alone ------------------------------------------------------------- */

static void say_handler_ran(void) { fputs("handler ran\n", stderr); }

static void fail_third(void *unused) {
  (void)unused;
  xalloc_on_oom(say_handler_ran);
  xalloc_fail_after(3);
  void *a = xmalloc(8), *b = xcalloc(2, 8);
  fprintf(stderr, "two allocations made\n");
  free(a);
  free(b);
  (void)xstrdup("the third fails");
  fputs("not reached\n", stderr);
  exit(0);
}

static void fail_try(void *unused) {
  (void)unused;
  xalloc_fail_after(2);
  void *p = xalloc_try_realloc(NULL, 8); /* succeeds */
  void *q = xalloc_try_realloc(NULL, 8); /* fails, and the run goes on */
  void *r = xalloc_try_realloc(NULL, 8); /* the next one succeeds again */
  bool ok = p != NULL && q == NULL && r != NULL;
  free(p);
  free(r);
  exit(ok ? 0 : 1);
}

static void test_boundary(void) {
  char err_path[256], text[4096];
  snprintf(err_path, sizeof err_path, "%s/boundary.err", tmpdir);
  int status = in_child(fail_third, NULL, err_path);
  CHECK(WIFEXITED(status));
  CHECK_EQ_U64(WEXITSTATUS(status), XALLOC_OOM_STATUS);
  CHECK(read_text(err_path, text, sizeof text));
  CHECK(strstr(text, "two allocations made\nhandler ran\n") != NULL);
  CHECK(strstr(text, "not reached") == NULL);
  CHECK_EQ_STR(last_line(text), "symq: fatal: out of memory");

  status = in_child(fail_try, NULL, err_path);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---- whole runs --------------------------------------------------------------------- */

typedef struct run_args {
  unsigned long fail_at;
  char *argv[8];
} run_args;

static void run_failing(void *arg) {
  run_args *a = arg;
  xalloc_fail_after(a->fail_at);
  exit(run_main(6, a->argv));
}

/* Checks the output directory a run left; returns the number of tests in it. */
static unsigned check_output(const char *dir, int code) {
  DIR *d = opendir(dir);
  if (!d) return 0; /* out of memory before the directory was made */
  char path[512], text[4096];
  unsigned tests = 0;
  bool has_info = false;
  for (struct dirent *e; (e = readdir(d));) {
    if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] == '.') {
      fprintf(stderr, "left behind: %s\n", path);
      CHECK(!"a temporary file was left behind");
    }
    size_t n = strlen(e->d_name);
    if (n > 6 && strcmp(e->d_name + n - 6, ".ktest") == 0) {
      char err[256];
      ktest *t = ktest_read(path, err, sizeof err);
      if (!t) fprintf(stderr, "%s\n", err);
      CHECK(t != NULL);
      ktest_free(t);
      tests++;
    }
    if (strcmp(e->d_name, "info") == 0) {
      has_info = true;
      CHECK(read_text(path, text, sizeof text));
      const char *want = code == 0 ? "\nStatus: finished\n" : "\nStatus: failed (out of memory)\n";
      if (!strstr(text, want)) fprintf(stderr, "%s (exit status %d):\n%s", path, code, text);
      CHECK(strstr(text, want) != NULL);
    }
    CHECK_EQ_U64(unlink(path), 0);
  }
  closedir(d);
  CHECK_EQ_U64(rmdir(dir), 0);
  CHECK(has_info || tests == 0); /* a test is only written after the first info */
  return tests;
}

/* Compiles DRIVER as `symq run` would into the .bc file `path`. */
static void compile_driver(void *path) {
  const char *include[] = {SYMQ_SOURCE_DIR "/runtime/include"};
  bc_options opts = {.include_dirs = include, .n_include_dirs = 1};
  bc_error berr = {0};
  bc_module *m = bc_load(DRIVER, &opts, &berr);
  if (!m) fprintf(stderr, "%s\n", berr.message ? berr.message : "cannot load " DRIVER);
  int rc = m && LLVMWriteBitcodeToFile(m->module, path) == 0 ? 0 : 1;
  bc_free(m);
  exit(rc);
}

static void test_every_allocation_failing(void) {
  char bc[256], out[256], out_opt[300], err_path[256], text[8192];
  snprintf(bc, sizeof bc, "%s/driver.bc", tmpdir);
  snprintf(out, sizeof out, "%s/out", tmpdir);
  snprintf(out_opt, sizeof out_opt, "--output-dir=%s", out);
  snprintf(err_path, sizeof err_path, "%s/run.err", tmpdir);
  /* compiled in a child: bitcode.c keeps a copy of the stderr it found, which the runs'
   * children must not inherit */
  int status = in_child(compile_driver, bc, err_path);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  if (check_failed) return;

  run_args a = {.argv = {"symq", "run", "--libc=none", "--no-progress", out_opt, bc, NULL}};
  unsigned long n, out_of_memory = 0, refused = 0;
  bool completed = false;
  for (n = 1; n < MAX_RUNS && !completed && !check_failed; n++) {
    a.fail_at = n;
    status = in_child(run_failing, &a, err_path);
    if (!WIFEXITED(status)) fprintf(stderr, "allocation %lu: wait status %#x\n", n, status);
    CHECK(WIFEXITED(status));
    int code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    CHECK(read_text(err_path, text, sizeof text));
    bool clean = !strstr(text, "Sanitizer") && !strstr(text, "runtime error");
    if (code == XALLOC_OOM_STATUS) {
      out_of_memory++;
      clean &= strcmp(last_line(text), "symq: fatal: out of memory") == 0;
    } else if (code == 2) { /* ir_decode recovers: the input is refused, one line */
      refused++;
      clean &= strstr(text, "out of memory while decoding the program") != NULL;
    } else {
      clean &= code == 0;
      completed = code == 0;
    }
    if (!clean)
      fprintf(stderr, "allocation %lu failing: exit status %d, stderr:\n%s\n", n, code, text);
    CHECK(clean);
    unsigned tests = check_output(out, code);
    if (completed) CHECK_EQ_U64(tests, DRIVER_TESTS);
  }
  printf("%lu runs: %lu out of memory, %lu refused while decoding, then one complete\n", n - 1,
         out_of_memory, refused);
  CHECK(completed);
  CHECK(out_of_memory > 100); /* the injection reaches the whole run, not a corner of it */
  CHECK(refused > 0);
  unlink(bc);
  unlink(err_path);
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    perror(tmpdir);
    return EXIT_FAILURE;
  }
  test_boundary();
  test_every_allocation_failing();
  char path[300];
  snprintf(path, sizeof path, "%s/boundary.err", tmpdir);
  unlink(path);
  if (!check_failed) CHECK_EQ_U64(rmdir(tmpdir), 0);
  else
    fprintf(stderr, "files kept in %s\n", tmpdir);
  return check_exit();
}
