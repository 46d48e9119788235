/*
 * ktest.c — KLEE's ktest version-3 files: encoding, decoding, and the listing that KLEE's
 * ktest-tool prints. Files are read whole into memory and decoded with an explicit offset,
 * so every length is checked against the bytes actually left before anything is allocated
 * (a corrupt count cannot make us allocate gigabytes) and every error can name the offset.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "engine/core/text.h"
#include "engine/out/ktest.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define KTEST_MAGIC "KTEST"
#define BOUT_MAGIC "BOUT\n"
#define MAGIC_SIZE 5

/* ---- encoding ---------------------------------------------------------------------- */

static void put_u32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)(v >> 24);
  p[1] = (uint8_t)(v >> 16);
  p[2] = (uint8_t)(v >> 8);
  p[3] = (uint8_t)v;
}

static const char *object_name(const ktest_object *o) { return o->name ? o->name : "unnamed"; }

int ktest_encode(const ktest *t, uint8_t **buf, size_t *len, char *err, size_t err_size) {
  assert(t && buf && len);
  assert(t->num_args == 0 || t->args);
  assert(t->num_objects == 0 || t->objects);
  *buf = NULL;
  *len = 0;

  /* First pass: the exact size, checking that every length fits in a u32. */
  size_t size = MAGIC_SIZE + 4 + 4 + 4 + 4 + 4;
  for (uint32_t i = 0; i < t->num_args; i++) {
    size_t n = strlen(t->args[i]);
    if (n > UINT32_MAX) {
      text_format_to(err, err_size, "ktest: argument %" PRIu32 " is too long (%zu bytes)", i, n);
      return -1;
    }
    size += 4 + n;
  }
  for (uint32_t i = 0; i < t->num_objects; i++) {
    const ktest_object *o = &t->objects[i];
    assert(o->bytes || o->num_bytes == 0);
    size_t n = strlen(object_name(o));
    if (n > UINT32_MAX) {
      text_format_to(err, err_size, "ktest: name of object %" PRIu32 " is too long", i);
      return -1;
    }
    size += 4 + n + 4 + (size_t)o->num_bytes;
  }

  uint8_t *b = xmalloc(size), *p = b;
  memcpy(p, KTEST_MAGIC, MAGIC_SIZE), p += MAGIC_SIZE;
  put_u32(p, KTEST_VERSION), p += 4;
  put_u32(p, t->num_args), p += 4;
  for (uint32_t i = 0; i < t->num_args; i++) {
    size_t n = strlen(t->args[i]);
    put_u32(p, (uint32_t)n), p += 4;
    memcpy(p, t->args[i], n), p += n;
  }
  put_u32(p, t->sym_argvs), p += 4;
  put_u32(p, t->sym_argv_len), p += 4;
  put_u32(p, t->num_objects), p += 4;
  for (uint32_t i = 0; i < t->num_objects; i++) {
    const ktest_object *o = &t->objects[i];
    const char *name = object_name(o);
    size_t n = strlen(name);
    put_u32(p, (uint32_t)n), p += 4;
    memcpy(p, name, n), p += n;
    put_u32(p, o->num_bytes), p += 4;
    if (o->num_bytes) memcpy(p, o->bytes, o->num_bytes), p += o->num_bytes;
  }
  assert((size_t)(p - b) == size);
  *buf = b;
  *len = size;
  return 0;
}

int ktest_write(const char *path, const ktest *t, char *err, size_t err_size) {
  uint8_t *buf;
  size_t len;
  if (ktest_encode(t, &buf, &len, err, err_size) < 0) return -1;
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    text_format_to(err, err_size, "%s: cannot create: %s", path, strerror(errno));
    free(buf);
    return -1;
  }
  size_t done = 0;
  while (done < len) {
    ssize_t w = write(fd, buf + done, len - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      text_format_to(err, err_size, "%s: write failed: %s", path, strerror(errno));
      close(fd);
      free(buf);
      return -1;
    }
    done += (size_t)w;
  }
  free(buf);
  if (fsync(fd) < 0) {
    text_format_to(err, err_size, "%s: fsync failed: %s", path, strerror(errno));
    close(fd);
    return -1;
  }
  if (close(fd) < 0) {
    text_format_to(err, err_size, "%s: close failed: %s", path, strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- decoding ---------------------------------------------------------------------- */

typedef struct reader {
  const char *path;
  const uint8_t *data;
  size_t len, off;
  char *err;
  size_t err_size;
} reader;

static bool truncated(reader *r, size_t need, const char *what) {
  text_format_to(r->err, r->err_size,
                 "%s: truncated ktest file: at offset %zu, %s needs %zu bytes but only %zu remain",
                 r->path, r->off, what, need, r->len - r->off);
  return false;
}

static bool get_u32(reader *r, uint32_t *v, const char *what) {
  if (r->len - r->off < 4) return truncated(r, 4, what);
  const uint8_t *p = r->data + r->off;
  *v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
  r->off += 4;
  return true;
}

/* A length-prefixed byte string, returned NUL-terminated (and its length in *n). */
static bool get_bytes(reader *r, char **out, uint32_t *n, const char *what) {
  uint32_t len;
  if (!get_u32(r, &len, what)) return false;
  if (r->len - r->off < len) return truncated(r, len, what);
  char *s = xmalloc((size_t)len + 1);
  memcpy(s, r->data + r->off, len);
  s[len] = 0;
  r->off += len;
  *out = s;
  if (n) *n = len;
  return true;
}

/* Refuses a count of items of at least `min_each` bytes that cannot fit in what is left. */
static bool check_count(reader *r, uint32_t count, size_t min_each, const char *what) {
  if ((uint64_t)count * min_each > r->len - r->off) {
    text_format_to(r->err, r->err_size,
                   "%s: truncated ktest file: at offset %zu, %" PRIu32 " %s need at least %" PRIu64
                   " bytes but only %zu remain",
                   r->path, r->off - 4, count, what, (uint64_t)count * min_each, r->len - r->off);
    return false;
  }
  return true;
}

ktest *ktest_decode(const char *path, const uint8_t *data, size_t len, char *err, size_t err_size) {
  reader r = {path, data, len, 0, err, err_size};
  char what[64];
  ktest *t = xcalloc(1, sizeof *t);
  t->path = xstrdup(path);

  if (len < MAGIC_SIZE &&
      (len == 0 || memcmp(data, KTEST_MAGIC, len) == 0 || memcmp(data, BOUT_MAGIC, len) == 0)) {
    truncated(&r, MAGIC_SIZE, "the magic");
    goto fail;
  }
  if (len < MAGIC_SIZE ||
      (memcmp(data, KTEST_MAGIC, MAGIC_SIZE) != 0 && memcmp(data, BOUT_MAGIC, MAGIC_SIZE) != 0)) {
    text_format_to(err, err_size,
                   "%s: not a ktest file: bad magic at offset 0 (expected \"KTEST\")", path);
    goto fail;
  }
  r.off = MAGIC_SIZE;
  if (!get_u32(&r, &t->version, "the version")) goto fail;
  if (t->version < 1 || t->version > KTEST_VERSION) {
    text_format_to(err, err_size,
                   "%s: unsupported ktest version %" PRIu32 " at offset %d (supported: 1 to %d)",
                   path, t->version, MAGIC_SIZE, KTEST_VERSION);
    goto fail;
  }

  uint32_t n;
  if (!get_u32(&r, &n, "the number of arguments") || !check_count(&r, n, 4, "arguments")) goto fail;
  if (n) t->args = xcalloc(n, sizeof *t->args);
  for (; t->num_args < n; t->num_args++) {
    snprintf(what, sizeof what, "argument %" PRIu32, t->num_args);
    if (!get_bytes(&r, &t->args[t->num_args], NULL, what)) goto fail;
  }

  if (t->version >= 2) {
    if (!get_u32(&r, &t->sym_argvs, "symArgvs") || !get_u32(&r, &t->sym_argv_len, "symArgvLen"))
      goto fail;
  }

  if (!get_u32(&r, &n, "the number of objects") || !check_count(&r, n, 8, "objects")) goto fail;
  if (n) t->objects = xcalloc(n, sizeof *t->objects);
  for (; t->num_objects < n; t->num_objects++) {
    ktest_object *o = &t->objects[t->num_objects];
    snprintf(what, sizeof what, "the name of object %" PRIu32, t->num_objects);
    if (!get_bytes(&r, &o->name, NULL, what)) goto fail;
    snprintf(what, sizeof what, "the bytes of object %" PRIu32, t->num_objects);
    char *bytes;
    if (!get_bytes(&r, &bytes, &o->num_bytes, what)) {
      o->num_bytes = 0;
      /* the name is owned; count this object so ktest_free releases it */
      t->num_objects++;
      goto fail;
    }
    o->bytes = (uint8_t *)bytes;
  }

  if (r.off != len) {
    text_format_to(err, err_size,
                   "%s: malformed ktest file: %zu unexpected bytes after the last "
                   "object, at offset %zu",
                   path, len - r.off, r.off);
    goto fail;
  }
  return t;

fail:
  ktest_free(t);
  return NULL;
}

ktest *ktest_read(const char *path, char *err, size_t err_size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    text_format_to(err, err_size, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
    text_format_to(err, err_size, "%s: not a regular file", path);
    close(fd);
    return NULL;
  }
  size_t cap = (size_t)st.st_size, len = 0;
  uint8_t *data = xmalloc(cap);
  for (;;) {
    if (len == cap) { /* the file may have grown since fstat */
      data = xrealloc(data, cap = cap * 2 + 4096);
    }
    ssize_t got = read(fd, data + len, cap - len);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      text_format_to(err, err_size, "%s: read failed at offset %zu: %s", path, len,
                     strerror(errno));
      free(data);
      close(fd);
      return NULL;
    }
    if (got == 0) break;
    len += (size_t)got;
  }
  close(fd);
  ktest *t = ktest_decode(path, data, len, err, err_size);
  free(data);
  return t;
}

void ktest_free(ktest *t) {
  if (!t) return;
  for (uint32_t i = 0; i < t->num_args; i++) free(t->args[i]);
  free(t->args);
  for (uint32_t i = 0; i < t->num_objects; i++) {
    free(t->objects[i].name);
    free(t->objects[i].bytes);
  }
  free(t->objects);
  free(t->path);
  free(t);
}

/* ---- ktest-tool listing ------------------------------------------------------------ */

/* Python's repr() quote choice: single quotes unless the text has a ' and no ". */
static char repr_quote(const uint8_t *s, size_t n) {
  bool single = false, dbl = false;
  for (size_t i = 0; i < n; i++) single |= s[i] == '\'', dbl |= s[i] == '"';
  return single && !dbl ? '"' : '\'';
}

/* repr() of a Python str. The bytes are taken as UTF-8: ASCII follows Python's rules, the
 * non-printable Latin-1 code points (U+0080..U+00A0, U+00AD) are escaped as \xhh, and every
 * other byte is copied (Python prints printable non-ASCII characters as they are). */
static void print_str_repr(FILE *f, const char *text) {
  const uint8_t *s = (const uint8_t *)(text ? text : "");
  size_t n = strlen((const char *)s);
  char q = repr_quote(s, n);
  fputc(q, f);
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if (c == q || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\t')
      fputs("\\t", f);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c == '\r')
      fputs("\\r", f);
    else if (c < 0x20 || c == 0x7f)
      fprintf(f, "\\x%02x", c);
    else if (c == 0xc2 && i + 1 < n && ((s[i + 1] >= 0x80 && s[i + 1] <= 0xa0) || s[i + 1] == 0xad))
      fprintf(f, "\\x%02x", s[++i]);
    else
      fputc(c, f);
  }
  fputc(q, f);
}

/* repr() of a Python bytes object: b'...'. */
static void print_bytes_repr(FILE *f, const uint8_t *s, size_t n) {
  char q = repr_quote(s, n);
  fputc('b', f);
  fputc(q, f);
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    if (c == q || c == '\\') fprintf(f, "\\%c", c);
    else if (c == '\t')
      fputs("\\t", f);
    else if (c == '\n')
      fputs("\\n", f);
    else if (c == '\r')
      fputs("\\r", f);
    else if (c < 0x20 || c >= 0x7f)
      fprintf(f, "\\x%02x", c);
    else
      fputc(c, f);
  }
  fputc(q, f);
}

void ktest_print(FILE *f, const ktest *t) {
  fputs("ktest file : ", f);
  print_str_repr(f, t->path);
  fputs("\nargs       : [", f);
  for (uint32_t i = 0; i < t->num_args; i++) {
    if (i) fputs(", ", f);
    print_str_repr(f, t->args[i]);
  }
  fprintf(f, "]\nnum objects: %" PRIu32 "\n", t->num_objects);

  /* ktest-tool pads indices to the width of the largest one (at least 1 digit). */
  char digits[16];
  int width =
      snprintf(digits, sizeof digits, "%" PRIu32, t->num_objects > 1 ? t->num_objects - 1 : 1);

  for (uint32_t i = 0; i < t->num_objects; i++) {
    const ktest_object *o = &t->objects[i];
    const uint8_t *b = o->bytes;
    uint32_t n = o->num_bytes;
    fprintf(f, "object %*" PRIu32 ": name: '%s'\n", width, i, object_name(o));
    fprintf(f, "object %*" PRIu32 ": size: %" PRIu32 "\n", width, i, n);
    fprintf(f, "object %*" PRIu32 ": data: ", width, i);
    print_bytes_repr(f, b, n);
    fprintf(f, "\nobject %*" PRIu32 ": hex : 0x", width, i);
    for (uint32_t k = 0; k < n; k++) fprintf(f, "%02x", b[k]);
    fputc('\n', f);
    if (n == 1 || n == 2 || n == 4 || n == 8) {
      uint64_t u = 0;
      for (uint32_t k = n; k-- > 0;) u = u << 8 | b[k];
      int64_t s = n == 8 ? (int64_t)u
                         : (int64_t)(u ^ (UINT64_C(1) << (8 * n - 1))) -
                               (int64_t)(UINT64_C(1) << (8 * n - 1));
      fprintf(f, "object %*" PRIu32 ": int : %" PRId64 "\n", width, i, s);
      fprintf(f, "object %*" PRIu32 ": uint: %" PRIu64 "\n", width, i, u);
    }
    fprintf(f, "object %*" PRIu32 ": text: ", width, i);
    for (uint32_t k = 0; k < n; k++) fputc(b[k] >= 0x20 && b[k] < 0x7f ? b[k] : '.', f);
    fputc('\n', f);
  }
}
