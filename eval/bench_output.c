/*
 * bench_output.c — what writing a test file costs (not a test).
 *
 * Writes N small tests (one 4-byte object each, as a typical path's test) through
 * out_write_test into a fresh directory, twice: as symq does (temporary file, rename; one
 * out_sync at the end), and as it did before (the same, plus an fsync of the file and one of
 * the directory per test). Prints the time per test of each and their ratio. Both survive a
 * `kill -9` equally (the rename is what makes a file appear whole); the fsyncs only bought
 * durability against a machine crash before the run's end, which out_sync now gives once.
 *
 * Usage: bench_output [N] [DIR]   (default 1000 tests under $TMPDIR or /tmp)
 */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "engine/out/output.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The old scheme's extra cost: the file and its directory flushed after each test. */
static int fsync_test(const char *dir, uint32_t id) {
  char path[4096];
  snprintf(path, sizeof path, "%s/test%06" PRIu32 ".ktest", dir, id);
  int fd = open(path, O_RDONLY);
  int dfd = open(dir, O_RDONLY | O_DIRECTORY);
  int rc = fd < 0 || dfd < 0 || fsync(fd) < 0 || fsync(dfd) < 0 ? -1 : 0;
  if (fd >= 0) close(fd);
  if (dfd >= 0) close(dfd);
  return rc;
}

static double run(const char *dir, unsigned n, int fsync_each) {
  char err[512];
  out_dir *o = out_open(dir, err, sizeof err);
  if (!o) {
    fprintf(stderr, "bench_output: %s\n", err);
    exit(1);
  }
  uint8_t bytes[4] = {1, 2, 3, 4};
  ktest_object obj = {.name = "x", .num_bytes = sizeof bytes, .bytes = bytes};
  double t0 = now();
  for (unsigned k = 0; k < n; k++) {
    uint32_t id = out_write_test(o, &obj, 1);
    if (!id || (fsync_each && fsync_test(dir, id) < 0)) {
      fprintf(stderr, "bench_output: %s\n", id ? "fsync failed" : out_error(o));
      exit(1);
    }
  }
  if (out_sync(o) < 0) {
    fprintf(stderr, "bench_output: %s\n", out_error(o));
    exit(1);
  }
  double t = now() - t0;
  out_close(o);
  return t;
}

int main(int argc, char **argv) {
  unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
  const char *base = argc > 2 ? argv[2] : (getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  char tmpl[4096];
  snprintf(tmpl, sizeof tmpl, "%s/bench-output.XXXXXX", base);
  if (!mkdtemp(tmpl)) {
    perror("bench_output: mkdtemp");
    return 1;
  }
  char a[4200], b[4200];
  snprintf(a, sizeof a, "%s/rename", tmpl);
  snprintf(b, sizeof b, "%s/fsync", tmpl);
  double t_rename = run(a, n, 0);
  double t_fsync = run(b, n, 1);
  printf("%u tests in %s\n", n, tmpl);
  printf("rename, one out_sync:   %8.3f ms/test\n", 1e3 * t_rename / n);
  printf("two fsyncs per test:    %8.3f ms/test\n", 1e3 * t_fsync / n);
  printf("ratio fsync/rename:     %8.1f\n", t_fsync / t_rename);
  printf("(remove the directory with: rm -r %s)\n", tmpl);
  return 0;
}
