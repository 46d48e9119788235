/* libpng png_handle_tRNS through png_read_info and png_get_tRNS: a tRNS chunk of symbolic
 * length n <= CAP for a 16-bit RGB image (one transparent colour, 6 bytes). Checks that
 * an accepted chunk has length 6 and gives exactly the chunk's three 16-bit samples, and
 * that no alpha table is returned for an image without a palette. */
#include "common.h"

int main(void) {
  png_structp png;
  png_infop info;
  unsigned char *data;
  size_t n = png_read_symbolic_chunk(16, PNG_COLOR_TYPE_RGB, "tRNS", "trns", &png, &info, &data);
  png_bytep alpha = NULL;
  int count = 0;
  png_color_16p color = NULL;
  if (png_get_tRNS(png, info, &alpha, &count, &color) == 0) return 0; /* dropped */
  klee_assert(n == 6 && color != NULL);
  klee_assert(color->red == (data[0] << 8 | data[1]) &&
              color->green == (data[2] << 8 | data[3]) &&
              color->blue == (data[4] << 8 | data[5]));
  klee_assert(alpha == NULL || count == 1);
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}
