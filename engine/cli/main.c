/*
 * main.c — the `symq` command line: dispatches to a subcommand. Every failure prints one
 * line `symq: error: …` to stderr and exits non-zero (2 for bad usage or input).
 */
#include <stdio.h>
#include <string.h>

#include "engine/cli/compare.h"
#include "engine/cli/mergeout.h"
#include "engine/out/ktest.h"
#include "engine/cli/replay.h"
#include "engine/cli/run.h"
#include "engine/core/version.h"

static const char KTEST_USAGE[] = "usage: symq ktest FILE.ktest...\n";

/* `symq ktest FILE...`: KLEE's ktest-tool listing of each file. */
static int ktest_main(int argc, char **argv) {
  if (argc < 3) {
    fputs(KTEST_USAGE, stderr);
    return 2;
  }
  if (argc == 3 && (!strcmp(argv[2], "--help") || !strcmp(argv[2], "-h"))) {
    fputs(KTEST_USAGE, stdout);
    fputs(
        "  Print each ktest file as KLEE's ktest-tool does: its arguments, then every\n"
        "  object's name, size and data (bytes, hex, text, and integers when it has 1,\n"
        "  2, 4 or 8 bytes). A file named --help is ./--help.\n"
        "Exit status: 0 every file printed, 2 no file given or a file that cannot be read\n"
        "as a ktest (one line each on stderr; the others are still printed).\n",
        stdout);
    return 0;
  }
  int rc = 0;
  for (int k = 2; k < argc; k++) {
    char err[512];
    ktest *t = ktest_read(argv[k], err, sizeof err);
    if (!t) {
      fprintf(stderr, "symq: error: %s\n", err);
      rc = 2;
      continue;
    }
    ktest_print(stdout, t);
    ktest_free(t);
  }
  return rc;
}

static void usage(FILE *f) {
  fputs(
      "usage: symq COMMAND [options]\n"
      "commands:\n"
      "  run [options] FILE.c|FILE.bc|FILE.ll... [-- ARGS]\n"
      "                     explore the program (a driver and the library's files)\n"
      "                     symbolically and write tests ('symq run --help' lists the\n"
      "                     options and the exit statuses)\n"
      "  compile [-I DIR] [-DNAME] [--cflags=FLAGS] -o FILE.bc FILE...\n"
      "                     write the program symq run would load, as one bitcode file\n"

      "  replay OUTDIR [--sanitize] [--timeout S] [--cc CC]\n"
      "                     rebuild the program natively and replay every test of OUTDIR,\n"
      "                     checking that each error reproduces\n"
      "  cov OUTDIR         replay the tests with gcov: line and branch coverage of the\n"
      "                     program's files (OUTDIR/coverage/index.html, stats.json \"gcov\")\n"
      "  compare DRIVER.c [--modes=none,cfg] [--max-time=T] [--capacity=N]\n"
      "                     run DRIVER in each merging mode and print one table\n"
      "  merge-out OUTDIR... -o OUTDIR\n"
      "                     one output directory from those of one exploration's parts\n"
      "                     (symq run --split, --part): tests renumbered, stats summed\n"
      "  ktest FILE...      print ktest files, like KLEE's ktest-tool\n"
      "  version            print symq's version and the versions of its libraries\n"
      "  help               print this help\n",
      f);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const char *command = argv[1];
  if (strcmp(command, "help") == 0 || strcmp(command, "--help") == 0 ||
      strcmp(command, "-h") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(command, "version") == 0 || strcmp(command, "--version") == 0) {
    symq_print_version(stdout);
    return 0;
  }
  if (strcmp(command, "run") == 0) return run_main(argc, argv);
  if (strcmp(command, "compile") == 0) return compile_main(argc, argv);
  if (strcmp(command, "ktest") == 0) return ktest_main(argc, argv);
  if (strcmp(command, "compare") == 0) return compare_main(argc, argv);
  if (strcmp(command, "replay") == 0) return replay_main(argc, argv);
  if (strcmp(command, "cov") == 0) return cov_main(argc, argv);
  if (strcmp(command, "merge-out") == 0) return mergeout_main(argc, argv);
  fprintf(stderr, "symq: error: unknown command '%s' (try 'symq help')\n", command);
  return 2;
}
