/* libpng png_handle_tEXt through png_read_info and png_get_text: a tEXt chunk of symbolic
 * length n <= CAP (keyword, NUL, text). Checks that an accepted chunk gives one text whose
 * keyword is the chunk's bytes up to the first NUL (the reader does not enforce the
 * specification's 1..79 bytes), whose text is the bytes after it up to the next NUL (none
 * without a separator), and whose compression is "none". */
#include "common.h"

int main(void) {
  png_structp png;
  png_infop info;
  unsigned char *data;
  size_t n = png_read_symbolic_chunk(8, PNG_COLOR_TYPE_GRAY, "tEXt", "text", &png, &info, &data);
  png_textp texts;
  int count = 0;
  png_get_text(png, info, &texts, &count);
  if (count == 0) return 0; /* a malformed chunk is dropped with a warning */
  klee_assert(count == 1);
  size_t key = strlen(texts[0].key);
  klee_assert(key <= n && memcmp(texts[0].key, data, key) == 0);
  klee_assert(texts[0].compression == PNG_TEXT_COMPRESSION_NONE);
  if (key == n) {
    klee_assert(texts[0].text_length == 0);
  } else {
    klee_assert(texts[0].text_length <= n - key - 1);
    klee_assert(memcmp(texts[0].text, data + key + 1, texts[0].text_length) == 0);
  }
  png_destroy_read_struct(&png, &info, NULL);
  return 0;
}
