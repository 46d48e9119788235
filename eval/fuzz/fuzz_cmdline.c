/*
 * fuzz_cmdline.c — libFuzzer target: `symq run`'s command line. The input is split at NUL
 * bytes into arguments after `symq run`. So that nothing is ever explored or written, the
 * process works in an empty directory and inputs naming a path with '/' are skipped: every
 * input file then does not exist, and run_main stops at a usage error or at the load.
 * Built by eval/fuzz.sh (SYMQ_FUZZ), which runs it with -close_fd_mask=3 (symq's messages
 * are not the fuzzer's log).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cli/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { MAX_ARGS = 64 };

static void setup(void) {
  char dir[256];
  snprintf(dir, sizeof dir, "%s/symq-fuzz-cmdline.XXXXXX",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  if (!mkdtemp(dir) || chdir(dir) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static int ready;
  if (!ready) {
    setup();
    ready = 1;
  }
  char *text = malloc(size + 1);
  if (!text) abort();
  memcpy(text, data, size);
  text[size] = 0;
  char *argv[MAX_ARGS + 3] = {"symq", "run"};
  int argc = 2;
  for (size_t k = 0; k <= size && argc < MAX_ARGS + 2;) {
    char *word = text + k;
    size_t n = strlen(word);
    if (n && word[0] != '-' && strchr(word, '/')) goto skip;
    if (strstr(word, "=/") || strstr(word, "output-dir")) goto skip; /* nothing outside */
    argv[argc++] = word;
    k += n + 1;
  }
  argv[argc] = NULL;
  run_main(argc, argv);
skip:
  free(text);
  return 0;
}
