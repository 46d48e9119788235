/*
 * fuzz_ir.c — libFuzzer target: loading (.ll text, or .bc when the input starts with the
 * bitcode magic) and decoding an LLVM module, as `symq run FILE.ll|FILE.bc` does with
 * --libc=none: bc_load (parse, verify, passes), then ir_decode. Either may refuse the input
 * with a message; neither may crash. LLVM's fatal errors on bad bitcode, where symq exits 2
 * with a one-line message, jump back here instead (the run leaks what LLVM held); so do its
 * endless loops, cut at FUZZ_MAX_LOAD_SECONDS of CPU per step (symq's default is for big
 * modules under valgrind; here an input that slow is not worth the fuzzer's time), and its
 * memory bombs, cut at FUZZ_MAX_LOAD_MB (below eval/fuzz.sh's -rss_limit_mb, so that they
 * are refused as symq refuses them rather than reported as libFuzzer's out-of-memory).
 * Built by eval/fuzz.sh (SYMQ_FUZZ).
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/core/bitcode.h"
#include "engine/core/ir.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_MAX_LOAD_SECONDS 5.0
#define FUZZ_MAX_LOAD_MB 2048

static char dir[256];
static jmp_buf fatal;

static void on_fatal(const char *file, const char *reason) {
  (void)file;
  (void)reason;
  longjmp(fatal, 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (!dir[0]) {
    const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(dir, sizeof dir, "%s/symq-fuzz-ir.XXXXXX", tmp);
    if (!mkdtemp(dir)) abort();
  }
  bool bitcode = size >= 4 && memcmp(data, "BC\xC0\xDE", 4) == 0;
  char path[300];
  snprintf(path, sizeof path, "%s/input.%s", dir, bitcode ? "bc" : "ll");
  FILE *f = fopen(path, "wb");
  if (!f) abort();
  fwrite(data, 1, size, f);
  fclose(f);
  bc_options bo = {0};
  bc_error berr = {0};
  bc_fatal_hook = on_fatal;
  bc_max_load_seconds = FUZZ_MAX_LOAD_SECONDS;
  bc_max_load_mb = FUZZ_MAX_LOAD_MB;
  if (setjmp(fatal)) return 0;
  bc_module *m = bc_load(path, &bo, &berr);
  if (!m) {
    bc_error_clear(&berr);
    return 0;
  }
  char *derr = NULL;
  ir_program *prog = ir_decode(m->module, &derr);
  free(derr);
  ir_free(prog);
  bc_free(m);
  return 0;
}
