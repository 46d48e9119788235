/*
 * symq_api.c — the parts of the driver API (symq.h) that are plain C over the built-ins.
 */
#include <stddef.h>
#include <stdlib.h>

#include "klee/klee.h"
#include "symq.h"

/* A buffer whose size and contents are both symbolic: first an object NAME.size (the size,
 * ≤ capacity), then the buffer NAME itself, of that size. malloc keeps the size symbolic and
 * backs it with exactly `capacity` bytes (the largest size the path allows). */
void *symq_symbolic_buffer(size_t capacity, size_t *size, const char *name) {
  char size_name[128];
  size_t k = 0;
  for (; name && name[k] && k < sizeof size_name - 6; k++) size_name[k] = name[k];
  const char suffix[] = ".size";
  for (size_t j = 0; j < sizeof suffix; j++) size_name[k + j] = suffix[j];
  size_t n;
  klee_make_symbolic(&n, sizeof n, size_name);
  klee_assume(n <= capacity);
  void *buffer = malloc(n);
  klee_make_symbolic(buffer, n, name);
  if (size) *size = n;
  return buffer;
}
