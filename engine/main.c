/*
 * main.c — the `symq` command line: dispatches to a subcommand. Every failure prints one
 * line `symq: error: …` to stderr and exits non-zero (2 for bad usage or input).
 */
#include <stdio.h>
#include <string.h>

#include "engine/version.h"

static void usage(FILE *f) {
  fputs("usage: symq COMMAND [options]\n"
        "commands:\n"
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
  fprintf(stderr, "symq: error: unknown command '%s' (try 'symq help')\n", command);
  return 2;
}
