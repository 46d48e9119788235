/* What both drivers start from: a size n <= 6 and a buffer of n + 1 bytes (n is a symbolic
 * size: a symbolic malloc size). */
#ifndef OPENASK_SIZED_H
#define OPENASK_SIZED_H

#include <stdlib.h>

#include <klee/klee.h>

static char *sized_buffer(unsigned *n) {
  klee_make_symbolic(n, sizeof *n, "n");
  klee_assume(*n <= 6);
  return malloc(*n + 1);
}

#endif
