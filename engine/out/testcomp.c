/*
 * testcomp.c — the Test-Comp test suite of an output directory (see testcomp.h): the
 * nondet-name table, value printing, SHA-256 of the program, and the XML files.
 *
 * The XML is written by hand, byte for byte, so that the same directory always gives the
 * same files (but the creation time): two-space indentation, one element per line, LF line
 * ends, text escaped for XML 1.0 (&, <, >, " as entities; control characters and bytes that
 * are not UTF-8 as '?', since XML 1.0 cannot carry them at all).
 */
#include "engine/core/text.h"
#include "engine/out/testcomp.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/out/ktest.h"
#include "engine/core/version.h"
#include "engine/core/xalloc.h"

/* ---- the table shared with runtime/lib/svcomp.c ---------------------------------------- */

/* Same rows as svcomp.c's definitions (test_testcomp checks the names against that file,
 * the e2e driver svcomp_types.c the sizes against the runtime). LP64 sizes. */
const testcomp_type testcomp_types[] = {
    {"nondet_bool", "_Bool", 1, TESTCOMP_UNSIGNED},
    {"nondet_char", "char", 1, TESTCOMP_SIGNED}, /* char is signed on x86-64 */
    {"nondet_uchar", "unsigned char", 1, TESTCOMP_UNSIGNED},
    {"nondet_short", "short", 2, TESTCOMP_SIGNED},
    {"nondet_ushort", "unsigned short", 2, TESTCOMP_UNSIGNED},
    {"nondet_int", "int", 4, TESTCOMP_SIGNED},
    {"nondet_uint", "unsigned int", 4, TESTCOMP_UNSIGNED},
    {"nondet_unsigned", "unsigned int", 4, TESTCOMP_UNSIGNED},
    {"nondet_long", "long", 8, TESTCOMP_SIGNED},
    {"nondet_ulong", "unsigned long", 8, TESTCOMP_UNSIGNED},
    {"nondet_longlong", "long long", 8, TESTCOMP_SIGNED},
    {"nondet_ulonglong", "unsigned long long", 8, TESTCOMP_UNSIGNED},
    {"nondet_int128", "__int128", 16, TESTCOMP_SIGNED},
    {"nondet_uint128", "unsigned __int128", 16, TESTCOMP_UNSIGNED},
    {"nondet_float", "float", 4, TESTCOMP_FLOAT},
    {"nondet_double", "double", 8, TESTCOMP_FLOAT},
    {"nondet_size_t", "unsigned long", 8, TESTCOMP_UNSIGNED},
    {"nondet_loff_t", "long long", 8, TESTCOMP_SIGNED},
    {"nondet_sector_t", "unsigned long", 8, TESTCOMP_UNSIGNED},
    {"nondet_pthread_t", "unsigned long", 8, TESTCOMP_UNSIGNED},
    {"nondet_u8", "unsigned char", 1, TESTCOMP_UNSIGNED},
    {"nondet_u16", "unsigned short", 2, TESTCOMP_UNSIGNED},
    {"nondet_u32", "unsigned int", 4, TESTCOMP_UNSIGNED},
    {"nondet_u64", "unsigned long long", 8, TESTCOMP_UNSIGNED},
    {"nondet_pointer", "void *", 8, TESTCOMP_UNSIGNED},
    {"nondet_pchar", "char *", 8, TESTCOMP_UNSIGNED},
    {"nondet_memory", "unsigned char", 0, TESTCOMP_BYTES},
};
const size_t testcomp_num_types = sizeof testcomp_types / sizeof testcomp_types[0];

/* How an object outside the table is written: byte by byte, like nondet_memory. */
static const testcomp_type bytes_type = {"", "unsigned char", 0, TESTCOMP_BYTES};

const testcomp_type *testcomp_type_find(const char *name) {
  if (!name) return NULL;
  for (size_t k = 0; k < testcomp_num_types; k++)
    if (strcmp(testcomp_types[k].name, name) == 0) return &testcomp_types[k];
  return NULL;
}

/* ---- values ---------------------------------------------------------------------------- */

typedef unsigned __int128 u128;

/* Decimal digits of v into buf (with a leading '-' when negative is set). */
static int put_u128(u128 v, bool negative, char *buf, size_t buf_size) {
  char digits[48];
  size_t n = 0;
  do {
    digits[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  size_t len = n + (negative ? 1 : 0);
  if (len + 1 > buf_size) return -1;
  size_t at = 0;
  if (negative) buf[at++] = '-';
  while (n) buf[at++] = digits[--n];
  buf[at] = 0;
  return (int)len;
}

int testcomp_format_value(const testcomp_type *t, const uint8_t *bytes, char *buf,
                          size_t buf_size) {
  assert(t && bytes && buf && t->kind != TESTCOMP_BYTES);
  uint32_t size = t->size;
  assert(size == 1 || size == 2 || size == 4 || size == 8 || size == 16);
  if (t->kind == TESTCOMP_FLOAT) {
    assert(size == 4 || size == 8);
    double d;
    int digits;
    if (size == 4) {
      float f;
      memcpy(&f, bytes, 4);
      d = f;
      digits = 9;
    } else {
      memcpy(&d, bytes, 8);
      digits = 17;
    }
    int n;
    if (isnan(d)) n = snprintf(buf, buf_size, "nan");
    else if (isinf(d))
      n = snprintf(buf, buf_size, "%sinf", d < 0 ? "-" : "");
    else
      n = snprintf(buf, buf_size, "%.*g", digits, d);
    return n < 0 || (size_t)n >= buf_size ? -1 : n;
  }
  u128 v = 0;
  for (uint32_t k = size; k-- > 0;) v = (v << 8) | bytes[k]; /* little-endian */
  bool negative = false;
  if (t->kind == TESTCOMP_SIGNED && (bytes[size - 1] & 0x80)) {
    /* two's complement magnitude: 2^bits - v, computed without overflow */
    u128 mask = size == 16 ? ~(u128)0 : (((u128)1 << (8 * size)) - 1);
    v = ((~v) & mask) + 1;
    negative = true;
  }
  return put_u128(v, negative, buf, buf_size);
}

/* ---- SHA-256 (FIPS 180-4) -------------------------------------------------------------- */

static const uint32_t sha_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void sha_block(uint32_t h[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++)
    w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 |
           (uint32_t)p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    uint32_t s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
    uint32_t s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
  for (int i = 0; i < 64; i++) {
    uint32_t t1 =
        hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + sha_k[i] + w[i];
    uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    hh = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  h[0] += a;
  h[1] += b;
  h[2] += c;
  h[3] += d;
  h[4] += e;
  h[5] += f;
  h[6] += g;
  h[7] += hh;
}

void testcomp_sha256_hex(const void *data, size_t len, char hex[65]) {
  uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  const uint8_t *p = data;
  size_t full = len / 64;
  for (size_t k = 0; k < full; k++) sha_block(h, p + 64 * k);
  /* the tail, 0x80, zeros, and the bit length: one block, or two when the tail leaves
   * fewer than 9 bytes */
  uint8_t tail[128] = {0};
  size_t rest = len - 64 * full;
  if (rest) memcpy(tail, p + 64 * full, rest);
  tail[rest] = 0x80;
  size_t tail_len = rest + 9 <= 64 ? 64 : 128;
  uint64_t bits = (uint64_t)len * 8;
  for (int k = 0; k < 8; k++) tail[tail_len - 1 - k] = (uint8_t)(bits >> (8 * k));
  sha_block(h, tail);
  if (tail_len == 128) sha_block(h, tail + 64);
  for (int k = 0; k < 8; k++) snprintf(hex + 8 * k, 9, "%08" PRIx32, h[k]);
}

/* ---- small helpers --------------------------------------------------------------------- */

/* The length of the well-formed UTF-8 sequence at s (no overlongs, no surrogates, at most
 * U+10FFFF) of a character XML 1.0 allows, or 0. */
static size_t utf8_char(const unsigned char *s) {
  unsigned c = s[0];
  if (c < 0x80) return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
  size_t n;
  unsigned cp;
  if ((c & 0xe0) == 0xc0) n = 2, cp = c & 0x1f;
  else if ((c & 0xf0) == 0xe0)
    n = 3, cp = c & 0x0f;
  else if ((c & 0xf8) == 0xf0)
    n = 4, cp = c & 0x07;
  else
    return 0;
  for (size_t k = 1; k < n; k++) {
    if ((s[k] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[k] & 0x3f);
  }
  static const unsigned min[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < min[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) || cp == 0xfffe ||
      cp == 0xffff)
    return 0;
  return n;
}

/* Text or attribute content, escaped. */
static void sb_xml(text_buf *b, const char *text) {
  const unsigned char *s = (const unsigned char *)text;
  while (*s) {
    switch (*s) {
    case '&':
      text_puts(b, "&amp;");
      s++;
      continue;
    case '<':
      text_puts(b, "&lt;");
      s++;
      continue;
    case '>':
      text_puts(b, "&gt;");
      s++;
      continue;
    case '"':
      text_puts(b, "&quot;");
      s++;
      continue;
    default: break;
    }
    size_t n = utf8_char(s);
    if (n == 0) {
      text_add(b, "?", 1);
      s++;
    } else {
      text_add(b, (const char *)s, n);
      s += n;
    }
  }
}

/* <NAME>escaped text</NAME> on a line of its own, indented by two spaces. */
static void sb_element(text_buf *b, const char *name, const char *text) {
  text_puts(b, "  <");
  text_puts(b, name);
  text_puts(b, ">");
  sb_xml(b, text);
  text_puts(b, "</");
  text_puts(b, name);
  text_puts(b, ">\n");
}

/* Reads a whole file into a malloc'd buffer (NUL-terminated; length in *len). */
static char *read_file(const char *path, size_t *len, char *err, size_t err_size) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    text_format_to(err, err_size, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  text_buf b = {0};
  text_add(&b, "", 0);
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) text_add(&b, chunk, n);
  bool bad = ferror(f);
  int saved = errno;
  fclose(f);
  if (bad) {
    text_format_to(err, err_size, "%s: read failed: %s", path, strerror(saved));
    free(b.s);
    return NULL;
  }
  *len = b.len;
  return b.s;
}

/* Writes `dir/name` through a temporary file and a rename. */
static int write_file(const char *dir, const char *name, const text_buf *b, char *err,
                      size_t err_size) {
  char path[4096], tmp[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path ||
      (size_t)snprintf(tmp, sizeof tmp, "%s/.%s.tmp-%ld", dir, name, (long)getpid()) >=
          sizeof tmp) {
    text_format_to(err, err_size, "%s/%s: path too long", dir, name);
    return -1;
  }
  FILE *f = fopen(tmp, "wb");
  if (!f) {
    text_format_to(err, err_size, "%s: cannot create: %s", tmp, strerror(errno));
    return -1;
  }
  bool ok = fwrite(b->s, 1, b->len, f) == b->len;
  int saved = errno;
  if (fclose(f) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    text_format_to(err, err_size, "%s: write failed: %s", path, strerror(saved));
    unlink(tmp);
    return -1;
  }
  if (rename(tmp, path) != 0) {
    text_format_to(err, err_size, "%s: rename failed: %s", path, strerror(errno));
    unlink(tmp);
    return -1;
  }
  return 0;
}

/* ---- the output directory --------------------------------------------------------------- */

typedef struct test_entry {
  uint32_t id;
  bool covers_error;
} test_entry;

/* "test" DIGITS (at least six) SUFFIX: the number, or 0 when `name` is not of that form.
 * *rest is set to what follows the digits. */
static uint32_t test_number(const char *name, const char **rest) {
  if (strncmp(name, "test", 4) != 0) return 0;
  const char *p = name + 4;
  uint64_t v = 0;
  size_t digits = 0;
  while (*p >= '0' && *p <= '9' && digits < 10) {
    v = v * 10 + (uint64_t)(*p - '0');
    p++;
    digits++;
  }
  if (digits < 6 || v == 0 || v > UINT32_MAX) return 0;
  *rest = p;
  return (uint32_t)v;
}

static int by_id(const void *a, const void *b) {
  uint32_t x = ((const test_entry *)a)->id, y = ((const test_entry *)b)->id;
  return x < y ? -1 : x > y;
}

/* Does this .err file say the path reached reach_error? Its kind does, or a stack line
 * "\t#... in reach_error (" (or __VERIFIER_error) does. */
static bool err_reaches_error(const char *outdir, const char *name, const char *kind,
                              size_t kind_len) {
  if (kind_len == strlen("reach_error") && strncmp(kind, "reach_error", kind_len) == 0) return true;
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/%s", outdir, name) >= sizeof path) return false;
  size_t len;
  char *text = read_file(path, &len, NULL, 0);
  if (!text) return false;
  bool found = false;
  for (char *line = text; line && *line && !found;) {
    char *end = strchr(line, '\n');
    if (end) *end = 0;
    if (line[0] == '\t' && line[1] == '#' &&
        (strstr(line, " in reach_error (") || strstr(line, " in __VERIFIER_error (")))
      found = true;
    line = end ? end + 1 : NULL;
  }
  free(text);
  return found;
}

/* The tests of outdir in number order, with whether each covers the error. */
static test_entry *list_tests(const char *outdir, size_t *count, char *err, size_t err_size) {
  DIR *d = opendir(outdir);
  if (!d) {
    text_format_to(err, err_size, "%s: cannot open directory: %s", outdir, strerror(errno));
    return NULL;
  }
  test_entry *tests = NULL;
  size_t n = 0, cap = 0;
  /* .err files seen before or after their .ktest: collected, matched afterwards */
  uint32_t *covering = NULL;
  size_t ncovering = 0, cap_covering = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    const char *rest;
    uint32_t id = test_number(e->d_name, &rest);
    if (!id) continue;
    if (strcmp(rest, ".ktest") == 0) {
      if (n == cap) tests = xrealloc(tests, (cap = cap ? 2 * cap : 64) * sizeof *tests);
      tests[n++] = (test_entry){id, false};
      continue;
    }
    size_t rl = strlen(rest);
    if (rl > 5 && rest[0] == '.' && strcmp(rest + rl - 4, ".err") == 0 &&
        err_reaches_error(outdir, e->d_name, rest + 1, rl - 5)) {
      if (ncovering == cap_covering)
        covering = xrealloc(
            covering, (cap_covering = cap_covering ? 2 * cap_covering : 16) * sizeof *covering);
      covering[ncovering++] = id;
    }
  }
  closedir(d);
  if (n) qsort(tests, n, sizeof *tests, by_id);
  for (size_t k = 0; k < ncovering; k++) {
    test_entry key = {covering[k], false};
    test_entry *t = n ? bsearch(&key, tests, n, sizeof *tests, by_id) : NULL;
    if (t) t->covers_error = true;
  }
  free(covering);
  *count = n;
  return tests ? tests : xmalloc(0);
}

/* ---- the XML files ---------------------------------------------------------------------- */

static const char xml_decl[] = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";

static int write_testcase(const char *outdir, const char *suite, const test_entry *t, char *err,
                          size_t err_size) {
  char name[64], path[4096];
  snprintf(name, sizeof name, "test%06" PRIu32 ".ktest", t->id);
  if ((size_t)snprintf(path, sizeof path, "%s/%s", outdir, name) >= sizeof path) {
    text_format_to(err, err_size, "%s/%s: path too long", outdir, name);
    return -1;
  }
  ktest *k = ktest_read(path, err, err_size);
  if (!k) return -1;
  text_buf b = {0};
  text_puts(&b, xml_decl);
  text_puts(&b,
            "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase "
            "1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">\n");
  text_puts(&b, t->covers_error ? "<testcase coversError=\"true\">\n" : "<testcase>\n");
  int rc = 0;
  for (uint32_t i = 0; i < k->num_objects && rc == 0; i++) {
    const ktest_object *o = &k->objects[i];
    const testcomp_type *type = testcomp_type_find(o->name);
    if (!type) type = &bytes_type;
    if (type->kind == TESTCOMP_BYTES) {
      for (uint32_t j = 0; j < o->num_bytes; j++) {
        char line[96];
        snprintf(line, sizeof line, "  <input type=\"%s\">%u</input>\n", type->ctype,
                 (unsigned)o->bytes[j]);
        text_puts(&b, line);
      }
      continue;
    }
    if (o->num_bytes != type->size) {
      text_format_to(err, err_size,
                     "%s: object %" PRIu32 " \"%s\" has %" PRIu32 " bytes, but %s is %" PRIu32
                     " bytes",
                     path, i, o->name, o->num_bytes, type->ctype, type->size);
      rc = -1;
      break;
    }
    char value[64];
    int n = testcomp_format_value(type, o->bytes, value, sizeof value);
    assert(n > 0);
    (void)n;
    text_puts(&b, "  <input type=\"");
    sb_xml(&b, type->ctype);
    text_puts(&b, "\">");
    text_puts(&b, value);
    text_puts(&b, "</input>\n");
  }
  text_puts(&b, "</testcase>\n");
  if (rc == 0) {
    snprintf(name, sizeof name, "test%06" PRIu32 ".xml", t->id);
    rc = write_file(suite, name, &b, err, err_size);
  }
  free(b.s);
  ktest_free(k);
  return rc;
}

/* Surrounding white space removed, into a new string. */
static char *trimmed(const char *s) {
  while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
  size_t n = strlen(s);
  while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\n' || s[n - 1] == '\r')) n--;
  char *t = xmalloc(n + 1);
  memcpy(t, s, n);
  t[n] = 0;
  return t;
}

static int write_metadata(const char *suite, const testcomp_options *o, const char *hash, char *err,
                          size_t err_size) {
  time_t when = o->creation_time ? o->creation_time : time(NULL);
  struct tm tm;
  char stamp[64] = "1970-01-01T00:00:00Z";
  if (gmtime_r(&when, &tm)) strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  char *spec = trimmed(o->spec_text ? o->spec_text : TESTCOMP_SPEC_BRANCHES);
  text_buf b = {0};
  text_puts(&b, xml_decl);
  text_puts(&b,
            "<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format "
            "test-metadata 1.1//EN\" \"https://sosy-lab.org/test-format/"
            "test-metadata-1.1.dtd\">\n");
  text_puts(&b, "<test-metadata>\n");
  sb_element(&b, "sourcecodelang", "C");
  sb_element(&b, "producer", o->producer ? o->producer : "symq " SYMQ_VERSION);
  sb_element(&b, "specification", spec);
  sb_element(&b, "programfile", o->program_path);
  sb_element(&b, "programhash", hash);
  sb_element(&b, "entryfunction", o->entry_function ? o->entry_function : "main");
  sb_element(&b, "architecture", o->architecture ? o->architecture : "64bit");
  sb_element(&b, "creationtime", stamp);
  text_puts(&b, "</test-metadata>\n");
  int rc = write_file(suite, "metadata.xml", &b, err, err_size);
  free(b.s);
  free(spec);
  return rc;
}

int testcomp_write_suite_opts(const char *outdir, const testcomp_options *opts, char *err,
                              size_t err_size) {
  assert(outdir && opts && opts->program_path);
  if (err && err_size) err[0] = 0;
  size_t len;
  char *program = read_file(opts->program_path, &len, err, err_size);
  if (!program) return -1;
  char hash[65];
  testcomp_sha256_hex(program, len, hash);
  free(program);

  size_t ntests;
  test_entry *tests = list_tests(outdir, &ntests, err, err_size);
  if (!tests) return -1;
  char suite[4096];
  int rc = 0;
  if ((size_t)snprintf(suite, sizeof suite, "%s/test-suite", outdir) >= sizeof suite) {
    text_format_to(err, err_size, "%s/test-suite: path too long", outdir);
    rc = -1;
  } else if (mkdir(suite, 0777) != 0 && errno != EEXIST) {
    text_format_to(err, err_size, "%s: cannot create: %s", suite, strerror(errno));
    rc = -1;
  }
  if (rc == 0) rc = write_metadata(suite, opts, hash, err, err_size);
  for (size_t k = 0; k < ntests && rc == 0; k++)
    rc = write_testcase(outdir, suite, &tests[k], err, err_size);
  free(tests);
  return rc;
}

int testcomp_write_suite(const char *outdir, const char *program_path, const char *spec_text,
                         char *err, size_t err_size) {
  testcomp_options o = {.program_path = program_path, .spec_text = spec_text};
  return testcomp_write_suite_opts(outdir, &o, err, err_size);
}

char *testcomp_read_spec(const char *prp_path, char *err, size_t err_size) {
  size_t len;
  char *text = read_file(prp_path, &len, err, err_size);
  if (!text) return NULL;
  char *t = trimmed(text);
  free(text);
  return t;
}
