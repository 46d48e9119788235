/* shape.h — the API of a two-file library (kind.c, area.c) that run_library.py explores with
 * a driver, symq run driver.c kind.c area.c, then replays natively and measures with gcov. */
#ifndef SHAPE_H
#define SHAPE_H
int shape_kind(const unsigned char *buf, int len);
int shape_area(int w, int h);
#endif
