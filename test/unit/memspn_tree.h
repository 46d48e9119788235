/*
 * memspn_tree.h — the execution tree of the paper's memspn(s, n, "a") (Fig. 1–2), built from
 * the same expressions symq's interpreter records for drivers/memspn.c: per iteration i the
 * loop test R_i = i < n, the bounds check U_i = i + 1 ≤ n + 1 of the read s[i] (one-sided),
 * and the byte test B_i = s[i] = 'a', where s carries the write s[n] = 0. Leaves leave by the
 * loop test (exit "n": ¬R_m after m iterations, m = 0..N) or by the break (exit "byte":
 * R_m U_m ¬B_m, m = 0..N−1). Words salt each hash with the branch that made the node.
 */
#ifndef SYMQ_TEST_MEMSPN_TREE_H
#define SYMQ_TEST_MEMSPN_TREE_H

#include <stdlib.h>

#include "engine/core/expr.h"
#include "merge/pattern.h"

enum { BRANCH_LOOP = 11, BRANCH_BOUNDS = 12, BRANCH_BYTE = 13, ROOT_HASH = 0x600d };

typedef struct memspn_tree {
  expr_array *n_array, *s_array;
  expr_update *s_updates;
  expr *n;
  unsigned capacity;
} memspn_tree;

typedef struct memspn_leaf { /* one path: its conditions and its word */
  expr **conds;
  size_t nconds;
  uint32_t *word;
  size_t len;
  uint64_t m;
} memspn_leaf;

static inline expr *mt_c64(uint64_t v) { return expr_const(64, v); }

static inline void memspn_tree_init(memspn_tree *t, unsigned capacity) {
  expr *eight = mt_c64(8), *zero = mt_c64(0), *size = NULL;
  t->capacity = capacity;
  t->n_array = expr_array_new("n", eight, 8, true, NULL);
  t->n = expr_read_le(t->n_array, NULL, zero, 8);
  expr *one = mt_c64(1);
  size = expr_add(t->n, one);
  t->s_array = expr_array_new("s", size, capacity + 1, true, NULL);
  expr *nul = expr_const(8, 0);
  t->s_updates = expr_update_push(t->s_array, NULL, t->n, nul);
  expr_unref(eight), expr_unref(zero), expr_unref(one), expr_unref(size), expr_unref(nul);
}

static inline void memspn_tree_free(memspn_tree *t) {
  expr_unref(t->n);
  expr_update_unref(t->s_updates);
  expr_array_unref(t->n_array);
  expr_array_unref(t->s_array);
}

static inline expr *mt_loop_test(const memspn_tree *t, uint64_t i) { /* R_i */
  expr *c = mt_c64(i), *r = expr_ult(c, t->n);
  expr_unref(c);
  return r;
}

static inline expr *mt_bounds(const memspn_tree *t, uint64_t i) { /* U_i */
  expr *c = mt_c64(i + 1), *one = mt_c64(1), *size = expr_add(one, t->n);
  expr *r = expr_ule(c, size);
  expr_unref(c), expr_unref(one), expr_unref(size);
  return r;
}

static inline expr *mt_byte_test(const memspn_tree *t, uint64_t i) { /* B_i */
  expr *c = mt_c64(i), *a = expr_const(8, 'a');
  expr *byte = expr_read(t->s_array, t->s_updates, c);
  expr *r = expr_eq(a, byte);
  expr_unref(c), expr_unref(a), expr_unref(byte);
  return r;
}

static inline expr *mt_negate(expr *c) {
  expr *r = expr_not(c);
  expr_unref(c);
  return r;
}

static inline void mt_push(memspn_leaf *l, pat_alphabet *ab, expr *cond, uint64_t branch) {
  l->conds = realloc(l->conds, (l->nconds + 1) * sizeof *l->conds);
  l->conds[l->nconds++] = cond;
  l->word = realloc(l->word, (l->len + 1) * sizeof *l->word);
  l->word[l->len++] = pat_alphabet_code(ab, expr_phash_salted(cond, branch));
}

/* The leaf after m full iterations that leaves by the loop test (by_byte false) or by the
 * break in iteration m + 1 (by_byte true). */
static inline memspn_leaf memspn_leaf_make(const memspn_tree *t, pat_alphabet *ab, uint64_t m,
                                           int by_byte) {
  memspn_leaf l = {0};
  l.m = m;
  l.word = malloc(sizeof *l.word);
  l.word[l.len++] = pat_alphabet_code(ab, ROOT_HASH);
  for (uint64_t i = 0; i < m; i++) {
    mt_push(&l, ab, mt_loop_test(t, i), BRANCH_LOOP);
    mt_push(&l, ab, mt_bounds(t, i), BRANCH_BOUNDS);
    mt_push(&l, ab, mt_byte_test(t, i), BRANCH_BYTE);
  }
  if (by_byte) {
    mt_push(&l, ab, mt_loop_test(t, m), BRANCH_LOOP);
    mt_push(&l, ab, mt_bounds(t, m), BRANCH_BOUNDS);
    mt_push(&l, ab, mt_negate(mt_byte_test(t, m)), BRANCH_BYTE);
  } else {
    mt_push(&l, ab, mt_negate(mt_loop_test(t, m)), BRANCH_LOOP);
  }
  return l;
}

static inline void memspn_leaf_free(memspn_leaf *l) {
  for (size_t k = 0; k < l->nconds; k++) expr_unref(l->conds[k]);
  free(l->conds);
  free(l->word);
}

#endif
