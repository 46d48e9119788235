/*
 * test_json.c — the JSON writer's exact output: layout, escaping (control characters,
 * invalid UTF-8), integers at their limits, doubles that read back exactly, null for NaN,
 * nesting, an incomplete document refused, a top-level scalar accepted.
 */
#include "check.h"
#include "engine/core/json.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static void build_document(json_writer *j, int64_t tests) {
  json_object_begin(j);
  json_key(j, "version");
  json_string(j, "0.1");
  json_key(j, "escapes");
  json_string(j, "q\"b\\s/n\nr\rt\tb\bf\f\x01\x1f\x7f");
  json_key(j, "tests");
  json_int(j, tests);
  json_key(j, "neg");
  json_int(j, INT64_MIN);
  json_key_uint(j, "big", UINT64_MAX);
  json_key(j, "ratio");
  json_double(j, 0.1);
  json_key(j, "one");
  json_double(j, 1.0);
  json_key(j, "huge");
  json_double(j, 1e20);
  json_key(j, "tiny");
  json_double(j, -2.5e-7);
  json_key(j, "third");
  json_double(j, 1.0 / 3.0);
  json_key(j, "nan");
  json_double(j, NAN);
  json_key(j, "ok");
  json_bool(j, true);
  json_key(j, "no");
  json_bool(j, false);
  json_key(j, "nothing");
  json_string(j, NULL);
  json_key(j, "empty_obj");
  json_object_begin(j);
  json_object_end(j);
  json_key(j, "empty_arr");
  json_array_begin(j);
  json_array_end(j);
  json_key(j, "list");
  json_array_begin(j);
  json_int(j, 1);
  json_string(j, "two");
  json_object_begin(j);
  json_key(j, "k\"ey");
  json_array_begin(j);
  json_null(j);
  json_array_end(j);
  json_object_end(j);
  json_array_end(j);
  json_key(j, "utf8");
  json_string(j, "caf\xc3\xa9 \xe2\x82\xac \xff \xc3 \xed\xa0\x80");
  json_object_end(j);
}

static const char *document_text =
    "{\n"
    "  \"version\": \"0.1\",\n"
    "  \"escapes\": \"q\\\"b\\\\s/n\\nr\\rt\\tb\\bf\\f\\u0001\\u001f\x7f\",\n"
    "  \"tests\": %d,\n"
    "  \"neg\": -9223372036854775808,\n"
    "  \"big\": 18446744073709551615,\n"
    "  \"ratio\": 0.1,\n"
    "  \"one\": 1.0,\n"
    "  \"huge\": 1e+20,\n"
    "  \"tiny\": -2.5e-07,\n"
    "  \"third\": 0.3333333333333333,\n"
    "  \"nan\": null,\n"
    "  \"ok\": true,\n"
    "  \"no\": false,\n"
    "  \"nothing\": null,\n"
    "  \"empty_obj\": {},\n"
    "  \"empty_arr\": [],\n"
    "  \"list\": [\n"
    "    1,\n"
    "    \"two\",\n"
    "    {\n"
    "      \"k\\\"ey\": [\n"
    "        null\n"
    "      ]\n"
    "    }\n"
    "  ],\n"
    "  \"utf8\": \"caf\xc3\xa9 \xe2\x82\xac \\ufffd \\ufffd \\ufffd\\ufffd\\ufffd\"\n"
    "}\n";

static void test_document(void) {
  json_writer j;
  json_init(&j);
  CHECK(json_text(&j, NULL) == NULL); /* nothing written yet: incomplete */
  json_object_begin(&j);
  CHECK(json_text(&j, NULL) == NULL); /* still open */
  json_free(&j);

  json_init(&j);
  build_document(&j, 3);
  char want[2048];
  snprintf(want, sizeof want, document_text, 3);
  size_t len = 0;
  const char *text = json_text(&j, &len);
  CHECK_EQ_STR(text, want);
  CHECK_EQ_U64(len, strlen(want));
  json_free(&j);

  /* A top-level scalar is a complete document too. */
  json_init(&j);
  json_string(&j, "x");
  CHECK_EQ_STR(json_text(&j, NULL), "\"x\"\n");
  json_free(&j);
}

/* Doubles read back exactly, in plain decimals for ordinary magnitudes (100.0, not 1e+02). */
static void test_json_doubles(void) {
  static const struct {
    double v;
    const char *text;
  } cases[] = {{100.0, "100.0"},   {90.0, "90.0"},  {0.25, "0.25"},
               {1234.5, "1234.5"}, {1e20, "1e+20"}, {1e-7, "1e-07"},
               {-3.0, "-3.0"},     {0.0, "0.0"},    {56.25, "56.25"}};
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
    json_writer j;
    json_init(&j);
    json_array_begin(&j);
    json_double(&j, cases[k].v);
    json_array_end(&j);
    char want[64];
    snprintf(want, sizeof want, "[\n  %s\n]\n", cases[k].text);
    CHECK_EQ_STR(json_text(&j, NULL), want);
    json_free(&j);
  }
}

int main(void) {
  test_document();
  test_json_doubles();
  return check_exit();
}
