/* The driver of the shape library: one symbolic 3-byte record. */
#include <klee/klee.h>

#include "shape.h"

int main(void) {
  unsigned char buf[3];
  klee_make_symbolic(buf, sizeof buf, "buf");
  return shape_kind(buf, 3) > 0;
}
