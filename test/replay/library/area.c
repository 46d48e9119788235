/* The library's second file, with its bug: a record whose height is 7 divides by zero.
 * SHAPE_SCALE comes from --cflags, so a rebuild without the recorded flags cannot compile. */
#include "shape.h"

#ifndef SHAPE_SCALE
#error "SHAPE_SCALE must be defined (run_library.py gives it with --cflags)"
#endif

int shape_area(int w, int h) {
  if (w > 100) return SHAPE_SCALE;
  return SHAPE_SCALE * w / (h - 7); /* @div */
}
