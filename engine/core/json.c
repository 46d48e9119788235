/*
 * json.c — the deterministic JSON writer: a growable buffer, a stack of open objects and
 * arrays to place separators and indentation, RFC 8259 string escaping, and the shortest
 * exact form of a double.
 */
#include "engine/core/json.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void j_add(json_writer *j, const char *s, size_t n) { text_add(&j->out, s, n); }

static void j_puts(json_writer *j, const char *s) { j_add(j, s, strlen(s)); }

static void j_indent(json_writer *j, int depth) {
  j_add(j, "\n", 1);
  for (int i = 0; i < depth; i++) j_add(j, "  ", 2);
}

/* Called before every value: separators and indentation inside an array; inside an object
 * the key has already placed us. */
static void j_value(json_writer *j) {
  assert(!j->done && "JSON document already complete");
  if (j->depth == 0) return;
  if (j->kind[j->depth - 1] == '{') {
    assert(j->after_key && "JSON value inside an object needs a key first");
    j->after_key = false;
    return;
  }
  if (j->count[j->depth - 1]++) j_add(j, ",", 1);
  j_indent(j, j->depth);
}

/* Called after every complete value. */
static void j_after(json_writer *j) {
  if (j->depth == 0) {
    j->done = true;
    j_add(j, "\n", 1);
  }
}

void json_init(json_writer *j) { memset(j, 0, sizeof *j); }

void json_free(json_writer *j) {
  text_free(&j->out);
  memset(j, 0, sizeof *j);
}

static void j_open(json_writer *j, char kind) {
  j_value(j);
  assert(j->depth < JSON_MAX_DEPTH && "JSON nested too deeply");
  j->kind[j->depth] = kind;
  j->count[j->depth] = 0;
  j->depth++;
  j_add(j, &kind, 1);
}

static void j_close(json_writer *j, char kind) {
  assert(j->depth > 0 && j->kind[j->depth - 1] == kind && !j->after_key && "unbalanced JSON end");
  j->depth--;
  if (j->count[j->depth]) j_indent(j, j->depth);
  j_add(j, kind == '{' ? "}" : "]", 1);
  j_after(j);
}

void json_object_begin(json_writer *j) { j_open(j, '{'); }
void json_object_end(json_writer *j) { j_close(j, '{'); }
void json_array_begin(json_writer *j) { j_open(j, '['); }
void json_array_end(json_writer *j) { j_close(j, '['); }

/* Length of the valid UTF-8 sequence at s (1..4), or 0 when it is not one. */
static size_t utf8_len(const unsigned char *s) {
  unsigned char c = s[0];
  size_t n;
  uint32_t cp;
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) n = 2, cp = c & 0x1f;
  else if (c >= 0xe0 && c <= 0xef)
    n = 3, cp = c & 0x0f;
  else if (c >= 0xf0 && c <= 0xf4)
    n = 4, cp = c & 0x07;
  else
    return 0;
  for (size_t i = 1; i < n; i++) {
    if ((s[i] & 0xc0) != 0x80) return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
      (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

static void j_quoted(json_writer *j, const char *str) {
  const unsigned char *s = (const unsigned char *)str;
  j_add(j, "\"", 1);
  while (*s) {
    unsigned char c = *s;
    char esc[8];
    switch (c) {
    case '"':
      j_add(j, "\\\"", 2);
      s++;
      continue;
    case '\\':
      j_add(j, "\\\\", 2);
      s++;
      continue;
    case '\b':
      j_add(j, "\\b", 2);
      s++;
      continue;
    case '\f':
      j_add(j, "\\f", 2);
      s++;
      continue;
    case '\n':
      j_add(j, "\\n", 2);
      s++;
      continue;
    case '\r':
      j_add(j, "\\r", 2);
      s++;
      continue;
    case '\t':
      j_add(j, "\\t", 2);
      s++;
      continue;
    default: break;
    }
    if (c < 0x20) {
      snprintf(esc, sizeof esc, "\\u%04x", c);
      j_add(j, esc, 6);
      s++;
      continue;
    }
    size_t n = utf8_len(s);
    if (n == 0) {
      j_add(j, "\\ufffd", 6);
      s++;
    } else {
      j_add(j, (const char *)s, n);
      s += n;
    }
  }
  j_add(j, "\"", 1);
}

void json_key(json_writer *j, const char *key) {
  assert(key && j->depth > 0 && j->kind[j->depth - 1] == '{' && !j->after_key &&
         "JSON key outside an object");
  if (j->count[j->depth - 1]++) j_add(j, ",", 1);
  j_indent(j, j->depth);
  j_quoted(j, key);
  j_add(j, ": ", 2);
  j->after_key = true;
}

void json_string(json_writer *j, const char *s) {
  if (!s) {
    json_null(j);
    return;
  }
  j_value(j);
  j_quoted(j, s);
  j_after(j);
}

/* A number, true, false or null: written as it is. */
static void j_literal(json_writer *j, const char *text) {
  j_value(j);
  j_puts(j, text);
  j_after(j);
}

void json_int(json_writer *j, int64_t v) {
  char text[32];
  snprintf(text, sizeof text, "%" PRId64, v);
  j_literal(j, text);
}

void json_uint(json_writer *j, uint64_t v) {
  char text[32];
  snprintf(text, sizeof text, "%" PRIu64, v);
  j_literal(j, text);
}

void json_double(json_writer *j, double v) {
  if (!isfinite(v)) {
    json_null(j);
    return;
  }
  char text[64];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(text, sizeof text, "%.*g", prec, v);
    if (strtod(text, NULL) == v || prec == 17) break;
  }
  /* %g writes 100 as 1e+02: for ordinary magnitudes prefer the fewest decimals that read
   * back exactly (90.0, 0.25, 1234.5) */
  double mag = fabs(v);
  if (strchr(text, 'e') && mag >= 1e-4 && mag < 1e15) {
    for (int decimals = 0; decimals <= 17; decimals++) {
      snprintf(text, sizeof text, "%.*f", decimals, v);
      if (strtod(text, NULL) == v) break;
    }
  }
  for (char *p = text; *p; p++) /* a locale's decimal comma */
    if (*p == ',') *p = '.';
  if (!strpbrk(text, ".e")) strcat(text, ".0");
  j_literal(j, text);
}

void json_bool(json_writer *j, bool v) { j_literal(j, v ? "true" : "false"); }

void json_null(json_writer *j) { j_literal(j, "null"); }

void json_key_uint(json_writer *j, const char *key, uint64_t v) {
  json_key(j, key);
  json_uint(j, v);
}

void json_counters(json_writer *j, const json_counter *counters, size_t n) {
  for (size_t k = 0; k < n; k++) json_key_uint(j, counters[k].key, counters[k].value);
}

const char *json_text(const json_writer *j, size_t *len) {
  if (!j->done) return NULL;
  if (len) *len = j->out.len;
  return j->out.s;
}
