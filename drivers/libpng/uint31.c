/* libpng png_get_uint_31 (how every chunk length and IHDR dimension is read): four
 * symbolic big-endian bytes. Checks that a value up to PNG_UINT_31_MAX is returned as the
 * bytes' big-endian value, and that a larger one is an error (the run exits). */
#include "common.h"

int main(void) {
  unsigned char bytes[4];
  klee_make_symbolic(bytes, sizeof bytes, "bytes");
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, exit_on_error,
                                           ignore_warning);
  if (!png) return 2;
  png_uint_32 v = png_get_uint_31(png, bytes);
  png_uint_32 be = (png_uint_32)bytes[0] << 24 | (png_uint_32)bytes[1] << 16 |
                   (png_uint_32)bytes[2] << 8 | bytes[3];
  klee_assert(be <= PNG_UINT_31_MAX && v == be);
  png_destroy_read_struct(&png, NULL, NULL);
  return 0;
}
