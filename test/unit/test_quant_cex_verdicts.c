/*
 * test_quant_cex_verdicts.c — the counterexample cache's per-entry verdicts (stage_cache.c):
 * a stored model's verdict on each formula it was evaluated on, and the formula it last
 * falsified, reused when the next requests of a merged state's path (∀i∈[1,K]. s[i−1] = 'a',
 * K ≤ n ≤ 16, branches on bytes past the range and on n) try the same models again.
 *
 * A seeded walk down such paths asks may-be-true and get-model questions of a chain with the
 * caches and of one without them: every answer must agree, every model must satisfy the whole
 * query (the forall included), and the cache must answer some questions by a stored model
 * (else the verdicts were never used). A verdict recorded as "satisfied" for a formula the
 * model falsifies, or kept under another formula's id, gives a wrong model or a wrong sat.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "expr_pool.h"
#include "test_rng.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }

#define MAX_PC 40

/* One branch question of the walk: a byte past the range, a byte at K + c, or n. */
static expr *question(expr_array *s, expr *k, expr *n) {
  switch (test_rnd(4)) {
  case 0: return K(expr_eq(byte_at(s, k64(20 + test_rnd(8))), k8('A' + test_rnd(3))));
  case 1:
    return K(expr_eq(byte_at(s, K(expr_add(k, k64(1 + test_rnd(3))))), k8('a' + test_rnd(3))));
  case 2: return K(expr_ule(n, k64(test_rnd(18))));
  default: return K(expr_eq(byte_at(s, k64(test_rnd(6))), k8('a' + test_rnd(2))));
  }
}

static void test_walk(void) {
  qs_options oc = qs_default_options(), op = qs_default_options();
  op.cex_cache = op.validity_cache = false;
  qsolver *cached = qs_new(&oc), *plain = qs_new(&op);
  unsigned yes = 0, no = 0;
  for (unsigned walk = 0; walk < 8; walk++) {
    expr_array *s = pool_array("s", 32, true), *ka = pool_array("K", 8, false),
               *na = pool_array("n", 8, true);
    expr_array *arrays[3] = {s, ka, na};
    expr *k = word(ka), *n = word(na);
    expr *i = K(expr_bvar_fresh(64, "i"));
    expr *pc[MAX_PC + 1] = {
        K(expr_forall(i, k64(1), k,
                      K(expr_eq(byte_at(s, K(expr_add(i, k64((uint64_t)-1)))), k8('a'))))),
        K(expr_ule(n, k64(16))), K(expr_ule(k, n))};
    size_t npc = 3;
    /* down the path, each step's side chosen at random among the feasible ones; a few
     * questions asked at each step, the same formulas again and again */
    while (npc < MAX_PC) {
      for (unsigned t = 0; t < 3; t++) {
        expr *q = question(s, k, n);
        bool a = false, b = false;
        qs_status sa = qs_may_be_true(cached, pc, npc, q, &a);
        qs_status sb = qs_may_be_true(plain, pc, npc, q, &b);
        CHECK(sa != QS_UNKNOWN);
        CHECK_EQ_U64(sa, sb);
        CHECK_EQ_U64(a, b);
        if (a) yes++;
        else
          no++;
        pc[npc] = q;
        expr_assignment *m = NULL;
        if (a && qs_get_model(cached, pc, npc + 1, arrays, 3, &m) == QS_SAT) {
          CHECK(m && expr_eval_all_true(pc, npc + 1, m));
        } else {
          CHECK(!a);
        }
        expr_assignment_free(m);
      }
      expr *q = question(s, k, n), *nq = K(expr_not(q));
      bool can_q = false, can_nq = false;
      CHECK(qs_may_be_true(plain, pc, npc, q, &can_q) != QS_UNKNOWN);
      CHECK(qs_may_be_true(plain, pc, npc, nq, &can_nq) != QS_UNKNOWN);
      if (can_q && (!can_nq || test_rnd(2))) pc[npc++] = q;
      else if (can_nq)
        pc[npc++] = nq;
      expr_assignment *m = NULL;
      CHECK_EQ_U64(qs_get_model(cached, pc, npc, arrays, 3, &m), QS_SAT);
      CHECK(m && expr_eval_all_true(pc, npc, m));
      expr_assignment_free(m);
    }
    pool_release();
  }
  const qs_stage_stats *c = qs_stats(cached, "cex_cache");
  printf("cex verdicts walk: %u sat, %u unsat; the cache answered %llu of %llu\n", yes, no,
         (unsigned long long)c->answered, (unsigned long long)c->queries);
  CHECK(yes > 20 && no > 20);
  CHECK(c->answered > 20);
  qs_free(cached);
  qs_free(plain);
}

int main(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  test_rng_seed(0xD1B54A32D192ED03ULL);
  test_walk();
  free(pool);
  free(apool);
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
  return check_exit();
}
