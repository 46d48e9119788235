/*
 * decode_source — unit tests that need a decoded program write their C or LLVM IR source to
 * a temporary file (`name` gives the extension), load it as symq does and decode it.
 * Returns NULL (with the reason on stderr) when it cannot be loaded.
 */
#ifndef SYMQ_TEST_DECODE_SOURCE_H
#define SYMQ_TEST_DECODE_SOURCE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "engine/core/bitcode.h"
#include "engine/core/ir.h"

static inline ir_program *decode_source(const char *name, const char *text) {
  char dir[] = "/tmp/symq-test-XXXXXX", path[256];
  if (!mkdtemp(dir)) {
    perror("mkdtemp");
    return NULL;
  }
  snprintf(path, sizeof path, "%s/%s", dir, name);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    rmdir(dir);
    return NULL;
  }
  fputs(text, f);
  fclose(f);
  bc_error err = {0};
  bc_module *m = bc_load(path, NULL, &err);
  unlink(path);
  rmdir(dir);
  if (!m) {
    fprintf(stderr, "%s\n", err.message);
    bc_error_clear(&err);
    return NULL;
  }
  ir_program *p = ir_decode(m->module, NULL);
  bc_free(m);
  return p;
}

#endif
