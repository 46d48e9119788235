/*
 * fuzz_ktest.c — libFuzzer target: reading a .ktest file (ktest_decode), printing it, and
 * the round trip: whatever decodes must encode to the very same bytes (KTEST version 3) and
 * decode again to the same objects. Built by eval/fuzz.sh (SYMQ_FUZZ).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/out/ktest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *sink;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char err[256];
  ktest *t = ktest_decode("fuzz.ktest", data, size, err, sizeof err);
  if (!t) return 0;
  if (!sink) sink = fopen("/dev/null", "w");
  if (sink) ktest_print(sink, t);
  uint8_t *buf;
  size_t len;
  if (ktest_encode(t, &buf, &len, err, sizeof err) == 0) {
    ktest *again = ktest_decode("again.ktest", buf, len, err, sizeof err);
    if (!again || again->num_objects != t->num_objects) abort();
    for (uint32_t k = 0; k < t->num_objects; k++)
      if (again->objects[k].num_bytes != t->objects[k].num_bytes ||
          memcmp(again->objects[k].bytes, t->objects[k].bytes, t->objects[k].num_bytes) != 0)
        abort();
    ktest_free(again);
    free(buf);
  }
  ktest_free(t);
  return 0;
}
