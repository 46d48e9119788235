/* libpng png_read_info (png_handle_IHDR, png_check_IHDR) on an IHDR of symbolic length
 * n <= CAP and symbolic contents, the stream's first chunk. Checks that a header libpng
 * accepts has n 13, a width and height in 1..PNG_USER_WIDTH/HEIGHT_MAX, a bit depth and
 * colour type combination the PNG specification allows, and interlace, compression and
 * filter methods libpng knows. */
#include "common.h"

int main(void) {
  png_structp png;
  png_infop info;
  unsigned char *data; /* the IHDR's bytes: libpng's checks are what is tested */
  size_t n = png_read_symbolic_chunk(0, 0, "IHDR", "ihdr", &png, &info, &data);
  png_uint_32 w, h;
  int depth, color, interlace, compression, filter;
  klee_assert(png_get_IHDR(png, info, &w, &h, &depth, &color, &interlace, &compression,
                           &filter) == 1);
  klee_assert(n == 13);
  klee_assert(w >= 1 && w <= PNG_USER_WIDTH_MAX && h >= 1 && h <= PNG_USER_HEIGHT_MAX);
  switch (color) {
  case PNG_COLOR_TYPE_GRAY:
    klee_assert(depth == 1 || depth == 2 || depth == 4 || depth == 8 || depth == 16);
    break;
  case PNG_COLOR_TYPE_PALETTE:
    klee_assert(depth == 1 || depth == 2 || depth == 4 || depth == 8);
    break;
  case PNG_COLOR_TYPE_RGB:
  case PNG_COLOR_TYPE_GRAY_ALPHA:
  case PNG_COLOR_TYPE_RGB_ALPHA:
    klee_assert(depth == 8 || depth == 16);
    break;
  default:
    klee_assert(0 && "a colour type the specification does not define");
  }
  klee_assert(interlace == PNG_INTERLACE_NONE || interlace == PNG_INTERLACE_ADAM7);
  klee_assert(compression == PNG_COMPRESSION_TYPE_BASE);
  klee_assert(filter == PNG_FILTER_TYPE_BASE);
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}
