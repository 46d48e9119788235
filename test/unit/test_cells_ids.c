/*
 * test_cells_ids.c — unit tests of the id-set helpers the counterexample cache runs on every
 * request (qsolver/stage.h): qs_ids_subset (galloping back from the largest id) and
 * qs_ids_missing (memcmp over the common prefix, then a merge), each against a plain
 * definition on random sorted sets that share a prefix, overlap, nest, or are empty — the
 * shapes a path's requests take. A wrong subset answer would make the cache answer unsat or
 * hand out a model for formulas it never saw; a position left out of the missing list, a
 * model that was never checked against that formula.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "qsolver/stage.h"

static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next_rand(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static bool member(const uint64_t *s, size_t n, uint64_t x) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == x) return true;
  return false;
}

static bool plain_subset(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
  for (size_t i = 0; i < na; i++)
    if (!member(b, nb, a[i])) return false;
  return true;
}

/* A sorted set: a common prefix 1..shared (every set drawn with the same `shared` has it),
 * then ids drawn from (shared, shared + span] with probability num/8 each. */
static size_t draw(uint64_t *out, size_t shared, size_t span, unsigned num) {
  size_t n = 0;
  for (uint64_t x = 1; x <= shared; x++) out[n++] = x;
  for (uint64_t x = shared + 1; x <= shared + span; x++)
    if (next_rand() % 8 < num) out[n++] = x;
  return n;
}

static void check_against_plain(void) {
  enum { MAX = 400 };
  static uint64_t a[MAX], b[MAX];
  static size_t missing[MAX];
  unsigned subsets = 0, not_subsets = 0;
  for (int round = 0; round < 4000; round++) {
    size_t shared = next_rand() % 120, span = next_rand() % 200;
    size_t na = draw(a, shared, span, 1 + (unsigned)(next_rand() % 7));
    size_t nb;
    if (round % 3 == 0) { /* b = a plus some: a is a subset */
      nb = 0;
      for (size_t i = 0, x = 1; x <= shared + span + 40; x++) {
        if (i < na && a[i] == x) b[nb++] = a[i++];
        else if (next_rand() % 4 == 0)
          b[nb++] = x;
      }
    } else if (round % 3 == 1 && na) { /* b = a with one id gone (often the largest) */
      size_t drop = next_rand() % 2 ? na - 1 : next_rand() % na;
      nb = 0;
      for (size_t i = 0; i < na; i++)
        if (i != drop) b[nb++] = a[i];
    } else {
      nb = draw(b, shared, span, 1 + (unsigned)(next_rand() % 7));
    }
    bool want = plain_subset(a, na, b, nb);
    CHECK(qs_ids_subset(a, na, b, nb) == want);
    CHECK(qs_ids_subset(b, nb, a, na) == plain_subset(b, nb, a, na));
    subsets += want;
    not_subsets += !want;
    size_t count = qs_ids_missing(a, na, b, nb, missing), k = 0;
    for (size_t i = 0; i < na; i++)
      if (!member(b, nb, a[i])) {
        CHECK(k < count);
        if (k < count) CHECK_EQ_U64(missing[k], i);
        k++;
      }
    CHECK_EQ_U64(count, k);
  }
  /* both answers were exercised many times */
  CHECK(subsets > 1000);
  CHECK(not_subsets > 1000);
}

static void check_edges(void) {
  uint64_t one[] = {5}, two[] = {3, 5},
           many[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20};
  size_t missing[20];
  CHECK(qs_ids_subset(NULL, 0, NULL, 0));
  CHECK(qs_ids_subset(NULL, 0, one, 1));
  CHECK(!qs_ids_subset(one, 1, NULL, 0));
  CHECK(qs_ids_subset(one, 1, two, 2));
  CHECK(!qs_ids_subset(two, 2, one, 1));
  CHECK(qs_ids_subset(two, 2, many, 20));
  CHECK(qs_ids_subset(many, 20, many, 20));
  CHECK(!qs_ids_subset(many, 20, many + 1, 19)); /* the smallest id missing */
  CHECK(!qs_ids_subset(many, 20, many, 19));     /* the largest */
  CHECK_EQ_U64(qs_ids_missing(many, 20, many, 20, missing), 0);
  CHECK_EQ_U64(qs_ids_missing(many, 20, many, 19, missing), 1);
  CHECK_EQ_U64(missing[0], 19);
  CHECK_EQ_U64(qs_ids_missing(many, 20, NULL, 0, missing), 20);
  CHECK_EQ_U64(qs_ids_missing(two, 2, one, 1, missing), 1);
  CHECK_EQ_U64(missing[0], 0);
}

int main(void) {
  check_edges();
  check_against_plain();
  return check_exit();
}
