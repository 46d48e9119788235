/*
 * json — a small deterministic JSON writer into a growable buffer. Keys and elements
 * appear in the order written; output is indented by two spaces, one member per line, and
 * ends with a newline. Strings are escaped per RFC 8259 (", \, control characters; invalid
 * UTF-8 becomes U+FFFD). Doubles use the shortest %g form that reads back exactly, always
 * with a '.' or an exponent; NaN and infinities, which JSON lacks, become null.
 * Misuse (a value without a key inside an object, unbalanced ends) fails an assert. It
 * appends to a text_buf (engine/core/text.h): out of memory ends the run in xalloc.
 */
#ifndef SYMQ_JSON_H
#define SYMQ_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/text.h"

#define JSON_MAX_DEPTH 32

typedef struct json_writer {
  /* private */
  text_buf out;
  int depth;
  bool after_key, done;
  char kind[JSON_MAX_DEPTH];      /* '{' or '[' */
  uint32_t count[JSON_MAX_DEPTH]; /* members written at each level */
} json_writer;

void json_init(json_writer *j);
void json_free(json_writer *j);
void json_object_begin(json_writer *j);
void json_object_end(json_writer *j);
void json_array_begin(json_writer *j);
void json_array_end(json_writer *j);
void json_key(json_writer *j, const char *key);  /* inside an object, before each value */
void json_string(json_writer *j, const char *s); /* NULL writes null */
void json_int(json_writer *j, int64_t v);
void json_uint(json_writer *j, uint64_t v);
void json_double(json_writer *j, double v);
void json_bool(json_writer *j, bool v);
void json_null(json_writer *j);
void json_key_uint(json_writer *j, const char *key, uint64_t v); /* json_key, then json_uint */

/* Counters written as members in the order given: JSON_COUNTERS(j, {"forks", r->forks},
 * {"tests", r->tests}). A module lists its counters once, next to them, instead of a
 * json_key_uint line each. */
typedef struct json_counter {
  const char *key;
  uint64_t value;
} json_counter;
void json_counters(json_writer *j, const json_counter *counters, size_t n);
#define JSON_COUNTERS(j, ...)                             \
  json_counters((j), (const json_counter[]){__VA_ARGS__}, \
                sizeof((const json_counter[]){__VA_ARGS__}) / sizeof(json_counter))

/* The finished document (NUL-terminated; its length in *len when len is non-NULL), or NULL
 * if it is incomplete. Owned by j. */
const char *json_text(const json_writer *j, size_t *len);

#endif
