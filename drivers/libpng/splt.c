/* libpng png_handle_sPLT through png_read_info and png_get_sPLT: a suggested palette of
 * symbolic length n <= CAP (name, NUL, sample depth, then entries of 6 bytes for depth 8,
 * else 10). Checks that an accepted palette's name is the bytes before the first NUL, its
 * depth the byte after, that it has exactly as many entries as the bytes after the depth
 * hold, and that the first entry's samples are the chunk's bytes. */
#include "common.h"

int main(void) {
  png_structp png;
  png_infop info;
  unsigned char *data;
  size_t n = png_read_symbolic_chunk(8, PNG_COLOR_TYPE_RGB, "sPLT", "splt", &png, &info, &data);
  png_sPLT_tp palettes;
  int count = png_get_sPLT(png, info, &palettes);
  if (count == 0) return 0; /* a malformed chunk is dropped with a warning */
  klee_assert(count == 1);
  size_t name = strlen(palettes[0].name);
  klee_assert(name + 2 <= n && memcmp(palettes[0].name, data, name) == 0);
  int depth = palettes[0].depth;
  klee_assert(depth == data[name + 1]);
  size_t entry = depth == 8 ? 6 : 10, body = n - name - 2;
  klee_assert(body % entry == 0 && (size_t)palettes[0].nentries == body / entry);
  if (palettes[0].nentries > 0 && depth == 8)
    klee_assert(palettes[0].entries[0].red == data[name + 2] &&
                palettes[0].entries[0].alpha == data[name + 5]);
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}
