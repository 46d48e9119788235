/*
 * test_quant_relax_parts.c — the relaxed stage's scalar part solved by its components
 * (stage_relax.c, solve_components): a PAT-merged state's path condition ∀i∈[1,K]. s[i−1] =
 * 'a', K ≤ n ≤ 32, with bytes of s past the range constrained on their own (s[33] ≠ 'A', …),
 * and questions that read one component only.
 *
 *   - Each answer agrees with the chain without the relaxed stage (the procedure), every model
 *     satisfies the whole query, the forall included, and --validate-qsolver counts no
 *     disagreement.
 *   - A question whose component is unsat (n = 101, s[33] = 'A') is unsat.
 *   - A question on a byte inside the forall's range (s[2] = 'b' with K ≥ 5): the components'
 *     model satisfies every scalar formula and every forall instance but one; it must not be
 *     taken as an answer (unsat).
 *   - A seeded family of such path conditions and questions, cross-checked the same way.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "expr_pool.h"
#include "test_rng.h"
#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

static expr_array *arr(const char *name, uint64_t capacity) {
  return pool_array(name, capacity, true);
}

static void release_all(void) { pool_release(); }

static expr *k64(uint64_t v) { return K(expr_const(64, v)); }
static expr *k8(uint64_t v) { return K(expr_const(8, v)); }
static expr *byte_at(expr_array *a, expr *index) { return K(expr_read(a, NULL, index)); }
static expr *word(expr_array *a) { return K(expr_read_le(a, NULL, k64(0), 8)); }

typedef struct state {
  expr_array *s, *ka, *na;
  expr *k, *n;
  expr *pc[16];
  size_t npc;
} state;

/* The merged state: ∀i∈[1,K]. s[i−1] = 'a', K ≤ n ≤ 32, K ≥ kmin, and s[33 + j] ≠ 'A' + j
 * for j < tail. */
static void make_state(state *st, uint64_t kmin, unsigned tail) {
  st->s = arr("s", 48);
  st->ka = arr("K", 8);
  st->na = arr("n", 8);
  st->k = word(st->ka);
  st->n = word(st->na);
  expr *i = K(expr_bvar_fresh(64, "i"));
  st->npc = 0;
  st->pc[st->npc++] = K(expr_forall(
      i, k64(1), st->k, K(expr_eq(byte_at(st->s, K(expr_add(i, k64((uint64_t)-1)))), k8('a')))));
  st->pc[st->npc++] = K(expr_ule(st->n, k64(32)));
  st->pc[st->npc++] = K(expr_ule(st->k, st->n));
  st->pc[st->npc++] = K(expr_ule(k64(kmin), st->k));
  for (unsigned j = 0; j < tail && st->npc < 16; j++)
    st->pc[st->npc++] = K(expr_ne(byte_at(st->s, k64(33 + j)), k8('A' + j)));
}

static qs_options options(bool relax) {
  qs_options o = qs_default_options();
  o.relax = relax;
  o.validate_quantified = true;
  return o;
}

/* Asks "may q be true under st's path condition?" of both chains; they must agree, and a
 * model of the whole query (forall included) must exist when the answer is yes. Returns the
 * answer of the chain with the relaxed stage. */
static bool ask(qsolver *with, qsolver *without, const state *st, expr *q) {
  bool a = false, b = false;
  qs_status sa = qs_may_be_true(with, st->pc, st->npc, q, &a);
  qs_status sb = qs_may_be_true(without, st->pc, st->npc, q, &b);
  CHECK(sa != QS_UNKNOWN && sb != QS_UNKNOWN);
  CHECK_EQ_U64(sa, sb);
  CHECK_EQ_U64(a, b);
  if (a) {
    expr *all[17];
    for (size_t i = 0; i < st->npc; i++) all[i] = st->pc[i];
    all[st->npc] = q;
    expr_array *arrays[3] = {st->s, st->ka, st->na};
    expr_assignment *m = NULL;
    CHECK_EQ_U64(qs_get_model(with, all, st->npc + 1, arrays, 3, &m), QS_SAT);
    CHECK(m && expr_eval_all_true(all, st->npc + 1, m));
    expr_assignment_free(m);
  }
  return a;
}

static void test_components(void) {
  qs_options ow = options(true), oo = options(false);
  qsolver *with = qs_new(&ow), *without = qs_new(&oo);
  state st;
  make_state(&st, 5, 4);
  /* a byte past the range, on its own: sat */
  CHECK(ask(with, without, &st, K(expr_eq(byte_at(st.s, k64(40)), k8('C')))));
  /* its component is unsat: n ≤ 32 against n = 101; s[33] ≠ 'A' against s[33] = 'A' */
  CHECK(!ask(with, without, &st, K(expr_eq(st.n, k64(101)))));
  CHECK(!ask(with, without, &st, K(expr_eq(byte_at(st.s, k64(33)), k8('A')))));
  /* inside the forall's range (K ≥ 5): every scalar formula holds with s[2] = 'b', every
   * forall instance but i = 3 too; no model exists */
  CHECK(!ask(with, without, &st, K(expr_eq(byte_at(st.s, k64(2)), k8('b')))));
  /* past K's bound (K ≤ 32 < 36): the byte is free */
  CHECK(ask(with, without, &st, K(expr_eq(byte_at(st.s, k64(36)), k8('b')))));
  /* on K and n only */
  CHECK(ask(with, without, &st, K(expr_eq(st.k, k64(7)))));
  CHECK(!ask(with, without, &st, K(expr_ult(st.n, k64(5)))));
  const qs_stage_stats *r = qs_stats(with, "relaxed");
  CHECK(r && r->answered > 0);
  CHECK_EQ_U64(qs_quant_stats_of(with)->disagreements, 0);
  CHECK_EQ_U64(qs_quant_stats_of(with)->models_unconfirmed, 0);
  qs_free(with);
  qs_free(without);
  release_all();
}

/* Random states and questions on single bytes (inside and past the range), on n and K. */
static void test_family(void) {
  qs_options ow = options(true), oo = options(false);
  qsolver *with = qs_new(&ow), *without = qs_new(&oo);
  unsigned yes = 0, no = 0;
  for (unsigned round = 0; round < 6; round++) {
    state st;
    make_state(&st, test_rnd(8), test_rnd(6));
    for (unsigned q = 0; q < 8; q++) {
      expr *e;
      switch (test_rnd(4)) {
      case 0: e = K(expr_eq(byte_at(st.s, k64(test_rnd(48))), k8("aAbBz"[test_rnd(5)]))); break;
      case 1: e = K(expr_eq(st.n, k64(test_rnd(40)))); break;
      case 2: e = K(expr_ule(st.k, k64(test_rnd(12)))); break;
      default: e = K(expr_ne(byte_at(st.s, k64(test_rnd(12))), k8('a'))); break;
      }
      if (ask(with, without, &st, e)) yes++;
      else
        no++;
    }
  }
  printf("relaxed parts family: %u sat, %u unsat\n", yes, no);
  CHECK(yes > 0 && no > 0);
  CHECK_EQ_U64(qs_quant_stats_of(with)->disagreements, 0);
  CHECK_EQ_U64(qs_quant_stats_of(with)->models_unconfirmed, 0);
  qs_free(with);
  qs_free(without);
  release_all();
}

int main(void) {
  size_t nodes = expr_live_count(), arrays = expr_live_arrays();
  test_components();
  test_family();
  free(pool);
  free(apool);
  CHECK_EQ_U64(expr_live_count(), nodes);
  CHECK_EQ_U64(expr_live_arrays(), arrays);
  return check_exit();
}
