/* What every libpng driver shares: a PNG stream in memory, read through png_set_read_fn,
 * whose chunk under test has a symbolic length n <= CAP (the KLEE idiom for a symbolic-size
 * input: CAP symbolic bytes, n assumed <= CAP, what follows the chunk written at offset n).
 * The stream is the signature, an IHDR the driver chooses (none when the chunk under test
 * is the IHDR), the chunk under test, then an empty IDAT and IEND, so png_read_info stops
 * after the chunk. CRCs are zero and libpng is
 * told to use chunks regardless (png_set_crc_action), as a fuzzer harness would: a
 * checksum over symbolic bytes would only hide the parser behind a hash. libpng is built
 * without setjmp (eval/real/libpng.sh), so its error function exits, as libpng's manual
 * asks of error functions that do not longjmp: a rejected stream ends with exit status 1. */
#ifndef LIBPNG_DRIVER_COMMON_H
#define LIBPNG_DRIVER_COMMON_H

#include <png.h>
#include <stdlib.h>
#include <string.h>

#include <klee/klee.h>

#ifndef CAP
#define CAP 10
#endif

typedef struct png_stream {
  const unsigned char *bytes;
  size_t size, pos;
} png_stream;

static void read_stream(png_structp png, png_bytep out, size_t len) {
  png_stream *s = png_get_io_ptr(png);
  if (len > s->size - s->pos) png_error(png, "read past the end of the stream");
  for (size_t i = 0; i < len; i++) out[i] = s->bytes[s->pos + i];
  s->pos += len;
}

static void exit_on_error(png_structp png, png_const_charp message) {
  (void)png, (void)message;
  exit(1);
}

static void ignore_warning(png_structp png, png_const_charp message) {
  (void)png, (void)message;
}

static void put_u32(unsigned char *p, size_t v) {
  p[0] = (unsigned char)(v >> 24), p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8), p[3] = (unsigned char)v;
}

/* A chunk header at p; its 4-byte CRC follows the n data bytes. */
static void put_chunk_header(unsigned char *p, size_t n, const char *type) {
  put_u32(p, n);
  memcpy(p + 4, type, 4);
}

/* sizes: signature 8, IHDR chunk 25, test chunk 12 + CAP, IDAT 12, IEND 12 */
#define STREAM_MAX (8 + 25 + 12 + CAP + 24)

/* Writes the stream into buf: an IHDR of width x height, bit depth, colour type, then a
 * chunk of type `type` with n symbolic bytes (named `name`), returned in *data. */
static size_t png_symbolic_stream(unsigned char *buf, unsigned width, unsigned height,
                                  int depth, int color_type, const char *type,
                                  const char *name, unsigned char **data) {
  static const unsigned char signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  memset(buf, 0, STREAM_MAX);
  memcpy(buf, signature, 8);
  unsigned char *chunk = buf + 8;
  if (strcmp(type, "IHDR") != 0) {
    put_chunk_header(buf + 8, 13, "IHDR");
    put_u32(buf + 16, width);
    put_u32(buf + 20, height);
    buf[24] = (unsigned char)depth, buf[25] = (unsigned char)color_type;
    chunk += 25;
  }
  unsigned char bytes[CAP];
  klee_make_symbolic(bytes, sizeof bytes, name);
  put_chunk_header(chunk, n, type);
  memcpy(chunk + 8, bytes, CAP);
  unsigned char *after = chunk + 8 + n + 4; /* past the data and the CRC */
  static const unsigned char tail[24] = {0, 0, 0, 0, 'I', 'D', 'A', 'T', 0, 0, 0, 0,
                                         0, 0, 0, 0, 'I', 'E', 'N', 'D', 0, 0, 0, 0};
  for (size_t i = 0; i < 4; i++) chunk[8 + n + i] = 0;
  for (size_t i = 0; i < sizeof tail; i++) after[i] = tail[i];
  *data = chunk + 8;
  return n;
}

/* A reader over buf, with the error handling and CRC policy above. */
static png_structp png_reader(png_stream *stream, png_infop *info) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, exit_on_error,
                                           ignore_warning);
  if (!png) exit(2);
  *info = png_create_info_struct(png);
  if (!*info) exit(2);
  png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  png_set_read_fn(png, stream, read_stream);
  return png;
}

/* The whole of a chunk driver's setup: the stream above (a 1x1 image of the given depth and
 * colour type, unless the chunk is the IHDR) read by png_read_info up to the chunk under
 * test's end. Returns n. */
static size_t png_read_symbolic_chunk(int depth, int color_type, const char *type,
                                      const char *name, png_structp *png, png_infop *info,
                                      unsigned char **data) {
  static unsigned char bytes[STREAM_MAX];
  static png_stream stream;
  size_t n = png_symbolic_stream(bytes, 1, 1, depth, color_type, type, name, data);
  stream = (png_stream){bytes, STREAM_MAX, 0};
  *png = png_reader(&stream, info);
  png_read_info(*png, *info);
  return n;
}

#endif
