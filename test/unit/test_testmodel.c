/*
 * test_testmodel.c — unit tests of engine/out/testmodel (a test's model made canonical by
 * evaluation, issue 24): mem_symbolic_size's path shape (n ≤ 5, n > k, s[k] ≠ 'a' with
 * s[n] = 0 written) gives the same bytes from every model the solver could give; a byte
 * under a bound (b > 100) goes to the bound from every start; the result always satisfies
 * the formulas; coupled bytes (x + y = 10) keep the model's choice and still satisfy it;
 * a formula reading an array the test does not bind (a merge's K) leaves the model alone, a
 * byte read by a disjunction keeps its value;
 * a budget of 0 changes nothing; a path longer than OUT_CANONICAL_MAX_FORMULAS keeps the
 * model; the memo gives the same answers when it is reused.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "engine/core/expr.h"
#include "engine/out/testmodel.h"

static expr *c64(uint64_t v) { return expr_const(64, v); }
static expr *c8(uint64_t v) { return expr_const(8, v); }

/* Every expression built here, released at the end. */
static expr *owned[512];
static size_t nowned;
static expr *keep(expr *e) {
  owned[nowned++] = e;
  return e;
}

static expr_assignment *model_of(expr_array *const *arrays, const uint8_t *const *bytes,
                                 const size_t *lens, size_t n) {
  expr_assignment *m = expr_assignment_new();
  for (size_t k = 0; k < n; k++) expr_assignment_set(m, arrays[k], bytes[k], lens[k]);
  return m;
}

static const uint8_t *bytes_of(const expr_assignment *m, const expr_array *a) {
  const expr_binding *b = expr_assignment_find(m, a);
  return b ? b->bytes : NULL;
}

/* n ≤ 5 ∧ n > k ∧ read(s with s[n] = 0, k) ≠ 'a' for k = 2: the solver may say n = 3, 4 or
 * 5 and any s[2] ≠ 'a'; the canonical model is n = 3, s = "\0\0\0…". */
static void test_symbolic_size(out_canon *canon) {
  expr_array *n = expr_array_new("n", keep(c64(8)), 8, true, NULL);
  expr_array *s = expr_array_new("s", keep(c64(6)), 6, true, NULL);
  expr *nv = keep(expr_read_le(n, NULL, keep(c64(0)), 8));
  expr_update *w = expr_update_push(s, NULL, nv, keep(c8(0)));
  expr *f[3] = {keep(expr_ule(nv, keep(c64(5)))), keep(expr_ugt(nv, keep(c64(2)))),
                keep(expr_ne(keep(expr_read(s, w, keep(c64(2)))), keep(c8('a'))))};
  expr_array *arrays[2] = {n, s};
  for (uint8_t nn = 3; nn <= 5; nn++) {
    for (unsigned s2 = 0; s2 < 256; s2 += 37) {
      if (s2 == 'a') continue;
      uint8_t nb[8] = {nn}, sb[6] = {'x', 'a', (uint8_t)s2, 'q', 0xff, 7};
      const uint8_t *bytes[2] = {nb, sb};
      size_t lens[2] = {8, 6};
      expr_assignment *m = model_of(arrays, bytes, lens, 2);
      CHECK(expr_eval_all_true(f, 3, m));
      out_canonical_model(canon, f, 3, arrays, 2, m, OUT_CANONICAL_BUDGET);
      const uint8_t *got_n = bytes_of(m, n), *got_s = bytes_of(m, s);
      CHECK_EQ_U64(got_n[0], 3);
      for (size_t k = 0; k < 6; k++) CHECK_EQ_U64(got_s[k], 0);
      CHECK(expr_eval_all_true(f, 3, m));
      expr_assignment_free(m);
    }
  }
  expr_update_unref(w);
  expr_array_unref(n);
  expr_array_unref(s);
}

/* b[0] > 100 ∧ b[1] ≤ 100 ∧ b[2] ≠ 0 ∧ x + y = 10 (bytes 3 and 4). */
static void test_bounds_and_coupled(out_canon *canon) {
  expr_array *b = expr_array_new("b", keep(c64(5)), 5, true, NULL);
  expr *r[5];
  for (unsigned k = 0; k < 5; k++) r[k] = keep(expr_read(b, NULL, keep(c64(k))));
  expr *f[4] = {keep(expr_ugt(r[0], keep(c8(100)))), keep(expr_ule(r[1], keep(c8(100)))),
                keep(expr_ne(r[2], keep(c8(0)))),
                keep(expr_eq(keep(expr_add(r[3], r[4])), keep(c8(10))))};
  expr_array *arrays[1] = {b};
  for (unsigned start = 101; start < 256; start += 22) {
    uint8_t bytes0[5] = {(uint8_t)start, (uint8_t)(start - 100), (uint8_t)(start % 7 + 1), 4, 6};
    const uint8_t *bytes[1] = {bytes0};
    size_t lens[1] = {5};
    expr_assignment *m = model_of(arrays, bytes, lens, 1);
    size_t changed = out_canonical_model(canon, f, 4, arrays, 1, m, OUT_CANONICAL_BUDGET);
    const uint8_t *got = bytes_of(m, b);
    CHECK_EQ_U64(got[0], 101);
    CHECK_EQ_U64(got[1], 0);
    CHECK_EQ_U64(got[2], 1);
    CHECK(expr_eval_all_true(f, 4, m)); /* x + y = 10 still holds */
    CHECK_EQ_U64((uint8_t)(got[3] + got[4]), 10);
    CHECK(changed >= 2);
    expr_assignment_free(m);
  }
  /* a budget of 0: the model as it was */
  uint8_t bytes0[5] = {200, 50, 9, 4, 6};
  const uint8_t *bytes[1] = {bytes0};
  size_t lens[1] = {5};
  expr_assignment *m = model_of(arrays, bytes, lens, 1);
  CHECK_EQ_U64(out_canonical_model(canon, f, 4, arrays, 1, m, 0), 0);
  CHECK_EQ_U64(bytes_of(m, b)[0], 200);
  expr_assignment_free(m);
  expr_array_unref(b);
}

/* b[0] = K[0] with K a merge's fresh constant (not an input): the model binds b only, so a
 * changed b[0] could not be checked against the K the other formulas take. */
static void test_foreign(out_canon *canon) {
  expr_array *b = expr_array_new("b", keep(c64(1)), 1, true, NULL);
  expr_array *k = expr_array_new("K", keep(c64(1)), 1, false, NULL);
  expr *f[2] = {
      keep(expr_eq(keep(expr_read(b, NULL, keep(c64(0)))), keep(expr_read(k, NULL, keep(c64(0)))))),
      keep(expr_ult(keep(expr_read(k, NULL, keep(c64(0)))), keep(c8(9))))};
  expr_array *arrays[1] = {b};
  uint8_t bytes0[1] = {7};
  const uint8_t *bytes[1] = {bytes0};
  size_t lens[1] = {1};
  expr_assignment *m = model_of(arrays, bytes, lens, 1);
  CHECK_EQ_U64(out_canonical_model(canon, f, 2, arrays, 1, m, OUT_CANONICAL_BUDGET), 0);
  CHECK_EQ_U64(bytes_of(m, b)[0], 7);
  expr_assignment_free(m);
  expr_array_unref(b);
  expr_array_unref(k);
}

/* s[0] = 'a' ∨ s[0] = 'b' (a merge's joined paths): 'b' stays 'b'; s[1] > 9 is lowered. */
static void test_disjunction(out_canon *canon) {
  expr_array *a = expr_array_new("s", keep(c64(2)), 2, true, NULL);
  expr *s0 = keep(expr_read(a, NULL, keep(c64(0)))), *s1 = keep(expr_read(a, NULL, keep(c64(1))));
  expr *f[2] = {keep(expr_or(keep(expr_eq(s0, keep(c8('a')))), keep(expr_eq(s0, keep(c8('b')))))),
                keep(expr_ugt(s1, keep(c8(9))))};
  expr_array *arrays[1] = {a};
  uint8_t bytes0[2] = {'b', 200};
  const uint8_t *bytes[1] = {bytes0};
  size_t lens[1] = {2};
  expr_assignment *m = model_of(arrays, bytes, lens, 1);
  CHECK_EQ_U64(out_canonical_model(canon, f, 2, arrays, 1, m, OUT_CANONICAL_BUDGET), 1);
  CHECK_EQ_U64(bytes_of(m, a)[0], 'b');
  CHECK_EQ_U64(bytes_of(m, a)[1], 10);
  expr_assignment_free(m);
  expr_array_unref(a);
}

/* b > 100 stated OUT_CANONICAL_MAX_FORMULAS + 1 times: too long a path, the model stays
 * (one formula fewer: lowered to 101). */
static void test_long_path(out_canon *canon) {
  expr_array *b = expr_array_new("b", keep(c64(1)), 1, true, NULL);
  expr *above = keep(expr_ugt(keep(expr_read(b, NULL, keep(c64(0)))), keep(c8(100))));
  enum { LONG = OUT_CANONICAL_MAX_FORMULAS + 1 };
  expr *f[LONG];
  for (size_t k = 0; k < LONG; k++) f[k] = above;
  expr_array *arrays[1] = {b};
  for (size_t n = LONG - 1; n <= LONG; n++) {
    uint8_t bytes0[1] = {200};
    const uint8_t *bytes[1] = {bytes0};
    size_t lens[1] = {1};
    expr_assignment *m = model_of(arrays, bytes, lens, 1);
    CHECK_EQ_U64(out_canonical_model(canon, f, n, arrays, 1, m, OUT_CANONICAL_BUDGET),
                 n == LONG ? 0 : 1);
    CHECK_EQ_U64(bytes_of(m, b)[0], n == LONG ? 200 : 101);
    expr_assignment_free(m);
  }
  expr_array_unref(b);
}

int main(void) {
  out_canon *canon = out_canon_new();
  for (int round = 0; round < 2; round++) { /* the second round answers from the memo */
    test_symbolic_size(canon);
    test_bounds_and_coupled(canon);
    test_foreign(canon);
    test_disjunction(canon);
    test_long_path(canon);
  }
  out_canon_free(canon);
  for (size_t k = 0; k < nowned; k++) expr_unref(owned[k]);
  CHECK_EQ_U64(expr_live_count(), 0);
  return check_exit();
}
