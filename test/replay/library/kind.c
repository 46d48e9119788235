/* The library's first file: reads a 3-byte record and calls into area.c. */
#include "shape.h"

int shape_kind(const unsigned char *buf, int len) {
  if (len < 3) return -1;
  if (buf[0] != 'S') return 0;
  return shape_area(buf[1], buf[2]);
}
