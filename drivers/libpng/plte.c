/* libpng png_handle_PLTE through png_read_info and png_get_PLTE: a PLTE chunk of symbolic
 * length n <= CAP in a palette image of bit depth 2. Checks that an accepted palette has
 * n/3 entries, at most 2^depth, that its colours are the chunk's bytes in order, and that
 * a length that is not a multiple of 3 is an error (the run exits) for a palette image. */
#include "common.h"

int main(void) {
  png_structp png;
  png_infop info;
  unsigned char *data;
  size_t n =
      png_read_symbolic_chunk(2, PNG_COLOR_TYPE_PALETTE, "PLTE", "plte", &png, &info, &data);
  png_colorp palette;
  int count = 0;
  klee_assert(png_get_PLTE(png, info, &palette, &count) == PNG_INFO_PLTE);
  klee_assert(n % 3 == 0 && count >= 1 && count <= 4 && (size_t)count <= n / 3);
  for (int i = 0; i < count; i++)
    klee_assert(palette[i].red == data[3 * i] && palette[i].green == data[3 * i + 1] &&
                palette[i].blue == data[3 * i + 2]);
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}
