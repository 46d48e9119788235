/*
 * test_tree — the facts pattern merging reads from a region's execution tree (merge/tree.h):
 * symbols salted with their branch (same branch and shape: same symbol whatever the
 * constants; other edge, other instruction or the negation: another symbol), riders left out
 * of words, and the sibling check that marks a tree's hash invalid (equal symbols, or a fork
 * at a rider). A tree shaped like memspn's (two loop iterations then an exit) gives equal
 * symbol sequences per iteration. Incremental merging's detach and splice keep the tree whole
 * (and the loop-header entries that number a node's iteration).
 * Nested regions' symbols hash by shape, and unmerged paths graft (test_nested).
 * Paths that end inside the region leave the partition: a bounds check's error side that
 * ended does not invalidate the tree, one that goes on does, and every conflict is judged
 * again when the children it is among change.
 */
#include <stdlib.h>

#include "check.h"
#include "engine/core/expr.h"
#include "engine/core/hashmap.h"
#include "merge/tree.h"

static expr *byte_of(expr_array *s, unsigned i) {
  expr *at = expr_const(64, i);
  expr *r = expr_read(s, NULL, at);
  expr_unref(at);
  return r;
}

/* i < n for a constant i, and its negation */
static expr *below(expr *n, unsigned i) {
  expr *c = expr_const(64, i);
  expr *r = expr_ult(c, n);
  expr_unref(c);
  return r;
}

static expr *is_a(expr_array *s, unsigned i) {
  expr *b = byte_of(s, i), *a = expr_const(8, 'a');
  expr *r = expr_eq(a, b);
  expr_unref(b), expr_unref(a);
  return r;
}

/* memspn's loop: br at instruction 2 (edges 1 in, 2 out), br at 13 (edges 6 equal, 7 not);
 * a rider (the bounds check) between them. Returns the leaf after `iterations` iterations
 * that exits by the header's false edge; *other_exit gets the leaf that left by the byte
 * test in the last iteration. */
static merge_node *memspn_path(merge_tree *t, expr *n, expr_array *s, unsigned iterations,
                               merge_node **other_exit) {
  const merge_branch in = {0, 2, 1}, out = {0, 2, 2}, eq = {0, 13, 6}, ne = {0, 13, 7};
  merge_node *at = t->root;
  for (unsigned i = 0; i <= iterations; i++) {
    expr *c = below(n, i), *nc = expr_not(c);
    merge_node *stay = merge_tree_add(t, at, c, false, &in);
    merge_node *leave = merge_tree_add(t, at, nc, i < iterations, &out);
    expr_unref(c), expr_unref(nc);
    if (i == iterations) return leave;
    expr *bound = below(n, i + 1); /* stands for the rider's bounds check */
    merge_node *checked = merge_tree_add(t, stay, bound, false, NULL);
    expr_unref(bound);
    expr *e = is_a(s, i), *ne_ = expr_not(e);
    at = merge_tree_add(t, checked, e, false, &eq);
    *other_exit = merge_tree_add(t, checked, ne_, false, &ne);
    expr_unref(e), expr_unref(ne_);
  }
  return NULL;
}

/* An input array of `capacity` bytes (expr_array_new needs its 64-bit size). */
static expr_array *input_array(const char *name, uint64_t capacity) {
  expr *size = expr_const(64, capacity);
  expr_array *a = expr_array_new(name, size, capacity, true, NULL);
  expr_unref(size);
  return a;
}

static void test_memspn_words(void) {
  expr_array *na = input_array("n", 8), *s = input_array("s", 4);
  expr *zero = expr_const(64, 0), *n = expr_read_le(na, NULL, zero, 8);
  merge_tree *t = merge_tree_new(NULL);
  merge_node *byte_exit = NULL;
  merge_node *leaf = memspn_path(t, n, s, 3, &byte_exit);
  CHECK(t->invalid == NULL);
  uint64_t w[16];
  size_t len = merge_tree_word(leaf, w, 16);
  CHECK_EQ_U64(len, 7); /* (in, eq) three times, then out: the riders are no symbols */
  for (unsigned i = 1; i < 3; i++) {
    CHECK_EQ_U64(w[2 * i], w[0]);     /* i < n at every iteration: one symbol */
    CHECK_EQ_U64(w[2 * i + 1], w[1]); /* s[i] == 'a' likewise */
  }
  CHECK(w[0] != w[1]);
  CHECK(w[6] != w[0]); /* leaving is another symbol than staying */
  uint64_t v[16];
  CHECK_EQ_U64(merge_tree_word(byte_exit, v, 16), 6);
  CHECK_EQ_U64(v[4], w[0]);
  CHECK(v[5] != w[5]);                          /* s[2] != 'a' against s[2] == 'a' */
  CHECK_EQ_U64(merge_tree_word(leaf, v, 2), 7); /* a short buffer gets the first symbols */
  CHECK_EQ_U64(v[0], w[0]);
  CHECK_EQ_U64(v[1], w[1]);
  merge_tree_free(t);
  expr_unref(n), expr_unref(zero);
  expr_array_unref(na), expr_array_unref(s);
}

static void test_salt_and_siblings(void) {
  expr_array *na = input_array("n", 8);
  expr *zero = expr_const(64, 0), *n = expr_read_le(na, NULL, zero, 8);
  expr *c3 = below(n, 3), *c4 = below(n, 4);
  const merge_branch b = {1, 5, 0}, b_other_edge = {1, 5, 1}, b_other_inst = {1, 6, 0};

  merge_tree *t = merge_tree_new(NULL);
  merge_node *x = merge_tree_add(t, t->root, c3, false, &b);
  merge_node *y = merge_tree_add(t, x, c4, false, &b);
  CHECK_EQ_U64(x->hash, y->hash); /* constants hash alike: one branch, one shape */
  merge_node *z = merge_tree_add(t, y, c4, false, &b_other_inst);
  CHECK(z->hash != y->hash);
  CHECK(t->invalid == NULL);
  /* the same condition on another edge of the same branch: distinct siblings */
  merge_tree_add(t, z, c3, false, &b);
  merge_tree_add(t, z, c3, false, &b_other_edge);
  CHECK(t->invalid == NULL);
  /* two siblings with one symbol: invalid */
  merge_tree_add(t, x, c3, true, &b);
  CHECK_EQ_PTR(t->invalid, merge_invalid_collision);
  merge_tree_free(t);

  /* a rider alone is fine; a rider with a sibling is a fork at a non-branch */
  t = merge_tree_new(NULL);
  merge_node *r = merge_tree_add(t, t->root, c3, false, NULL);
  CHECK(!r->symbol);
  merge_tree_add(t, r, c4, false, &b);
  CHECK(t->invalid == NULL);
  merge_tree_add(t, r, c3, false, NULL);
  CHECK_EQ_PTR(t->invalid, merge_invalid_rider_fork);
  merge_tree_free(t);

  expr_unref(c3), expr_unref(c4), expr_unref(n), expr_unref(zero);
  expr_array_unref(na);
}

/* Incremental merging's reshaping: detaching a subtree unlinks it (its nodes marked, the
 * other children kept in order), and splicing puts the only live child in its parent's place
 * with the conjoined condition, a rider taking the parent's branch, and the hash recomputed. */
static void test_detach_and_splice(void) {
  expr_array *na = input_array("n", 8);
  expr *zero = expr_const(64, 0), *n = expr_read_le(na, NULL, zero, 8);
  expr *c3 = below(n, 3), *c4 = below(n, 4), *not4 = expr_not(c4);
  const merge_branch b = {1, 5, 0}, b_other = {1, 5, 1};

  merge_tree *t = merge_tree_new(NULL);
  merge_node *x = merge_tree_add(t, t->root, c3, false, &b);
  merge_node *y = merge_tree_add(t, t->root, c4, false, &b_other);
  merge_node *dead = merge_tree_add(t, x, c4, true, &b);
  merge_node *keep = merge_tree_add(t, x, not4, false, NULL);
  merge_node *gone = merge_tree_add(t, x, c3, false, &b_other);
  merge_node *below_gone = merge_tree_add(t, gone, c4, false, &b);
  CHECK(!t->reshaped);

  merge_tree_detach(t, gone);
  CHECK(t->reshaped);
  CHECK(gone->detached && below_gone->detached && !keep->detached);
  CHECK_EQ_PTR(x->first_child, dead);
  CHECK_EQ_PTR(dead->next_sibling, keep);
  CHECK_EQ_PTR(x->last_child, keep);
  CHECK_EQ_PTR(keep->next_sibling, NULL);

  merge_tree_splice(t, x, keep);
  CHECK(x->detached && dead->detached && !keep->detached);
  CHECK_EQ_PTR(keep->parent, t->root);
  CHECK_EQ_PTR(t->root->first_child, keep); /* in x's place, before y */
  CHECK_EQ_PTR(keep->next_sibling, y);
  expr *both = expr_and(c3, not4);
  CHECK_EQ_PTR(keep->cond, both);
  CHECK(keep->symbol);
  CHECK_EQ_U64(keep->branch.edge, b.edge);
  CHECK(keep->hash != x->hash);
  uint64_t word[4];
  CHECK_EQ_U64(merge_tree_word(keep, word, 4), 1);
  merge_tree_free(t);

  /* the loop-header entries of a spliced node go to the child in its place, so that the
   * iteration of every node below (the entries from the root to it) stays the same */
  t = merge_tree_new(NULL);
  merge_node *p = merge_tree_add(t, t->root, c3, false, &b);
  merge_node *only = merge_tree_add(t, p, c4, false, &b_other);
  merge_node *under = merge_tree_add(t, only, c3, false, &b);
  p->loop_entries = 2;
  only->loop_entries = 1;
  merge_tree_splice(t, p, only);
  CHECK_EQ_U64(only->loop_entries, 3);
  CHECK_EQ_PTR(under->parent, only);
  merge_tree_free(t);

  expr_unref(both), expr_unref(not4), expr_unref(c3), expr_unref(c4), expr_unref(n);
  expr_unref(zero), expr_array_unref(na);
}

/* memspn's loop where the bounds check can fail: at every iteration the check forks a rider
 * pair (in bounds, out of bounds). The out-of-bounds side ends at once (an error): the tree
 * stays valid, the in-bounds side's word is memspn's. */
static void test_ended_error_sides(void) {
  expr_array *na = input_array("n", 8), *s = input_array("s", 4);
  expr *zero = expr_const(64, 0), *n = expr_read_le(na, NULL, zero, 8);
  const merge_branch in = {0, 2, 1}, out = {0, 2, 2}, eq = {0, 13, 6};
  merge_tree *t = merge_tree_new(NULL);
  merge_node *at = t->root, *errors[3];
  uint64_t words[3][8];
  for (unsigned i = 0; i < 3; i++) {
    expr *c = below(n, i), *nc = expr_not(c);
    merge_node *stay = merge_tree_add(t, at, c, false, &in);
    merge_tree_add(t, at, nc, true, &out);
    expr *bound = below(n, i + 1), *outside = expr_not(bound);
    merge_node *inside = merge_tree_add(t, stay, bound, false, NULL);
    CHECK(t->invalid == NULL); /* a rider alone */
    errors[i] = merge_tree_add(t, stay, outside, false, NULL);
    CHECK_EQ_PTR(t->invalid, merge_invalid_rider_fork); /* both sides go on, so far */
    CHECK_EQ_U64(t->nconflicts[MERGE_CONFLICT_RIDER], 1);
    merge_tree_leaf_ended(t, errors[i]); /* the error is reported: its path ends */
    CHECK(errors[i]->ended && !inside->ended && !stay->ended);
    CHECK(t->invalid == NULL);
    CHECK_EQ_U64(stay->conflict, MERGE_CONFLICT_NONE);
    expr *e = is_a(s, i);
    at = merge_tree_add(t, inside, e, false, &eq);
    CHECK_EQ_U64(merge_tree_word(at, words[i], 8), 2 * (i + 1));
    expr_unref(c), expr_unref(nc), expr_unref(bound), expr_unref(outside), expr_unref(e);
  }
  for (unsigned i = 1; i < 3; i++) /* every iteration one symbol pair, as without the errors */
    for (unsigned k = 0; k < 2 * i; k++) CHECK_EQ_U64(words[i][k], words[i - 1][k]);
  CHECK_EQ_U64(words[2][4], words[2][0]);
  CHECK_EQ_U64(words[2][5], words[2][1]);

  /* an out-of-bounds side that goes on (a pointer into another object) keeps it invalid */
  expr *c = below(n, 7), *nc = expr_not(c);
  merge_node *inside = merge_tree_add(t, at, c, false, NULL);
  merge_node *elsewhere = merge_tree_add(t, at, nc, false, NULL);
  merge_node *on = merge_tree_add(t, elsewhere, c, false, &in);
  CHECK_EQ_PTR(t->invalid, merge_invalid_rider_fork);
  /* …until every path below it has ended: then it is ended too, and so is the conflict */
  merge_node *on2 = merge_tree_add(t, elsewhere, nc, false, &out);
  merge_tree_leaf_ended(t, on);
  CHECK(!elsewhere->ended);
  CHECK_EQ_PTR(t->invalid, merge_invalid_rider_fork);
  merge_tree_leaf_ended(t, on2);
  CHECK(elsewhere->ended);
  CHECK(t->invalid == NULL);
  CHECK_EQ_U64(t->nconflicts[MERGE_CONFLICT_RIDER] + t->nconflicts[MERGE_CONFLICT_COLLISION], 0);
  /* a node that gets a child again (incremental merging adds under an ancestor) is not
   * ended any more: its conflict with its sibling stands again */
  merge_tree_add(t, elsewhere, c, false, &in);
  CHECK(!elsewhere->ended);
  CHECK_EQ_PTR(t->invalid, merge_invalid_rider_fork);
  /* detaching the conflicting side resolves it */
  merge_tree_detach(t, elsewhere);
  CHECK(t->invalid == NULL);
  CHECK(!inside->ended);

  /* two symbols colliding: invalid until one side's path ends */
  merge_node *x = merge_tree_add(t, inside, c, false, &in);
  merge_node *y = merge_tree_add(t, inside, c, false, &in);
  CHECK_EQ_PTR(t->invalid, merge_invalid_collision);
  merge_tree_leaf_ended(t, y);
  CHECK(t->invalid == NULL);
  CHECK(!x->ended);
  /* the whole tree's paths ended: every node ended, no conflict left */
  merge_tree_leaf_ended(t, x);
  for (unsigned i = 0; i < 3; i++) CHECK(errors[i]->ended);
  CHECK(t->root->ended);
  CHECK(t->invalid == NULL);
  merge_tree_free(t);
  expr_unref(c), expr_unref(nc), expr_unref(n), expr_unref(zero);
  expr_array_unref(na), expr_array_unref(s);
}

/* Nested regions: a state merged in an inner region comes back as one symbol whose hash is
 * its constraints' shape — K constants (arrays that are not inputs) alike, so two outer
 * iterations whose inner merges made different K's give one symbol, while the exit edge
 * (the salt) and an input array tell symbols apart. A state that comes back unmerged brings
 * its path: shared nodes are copied once, dead sides with them, symbols keep their hashes. */
static void test_nested(void) {
  expr *eight = expr_const(64, 8), *zero = expr_const(64, 0);
  expr_array *k1 = expr_array_new("K1", eight, 8, false, NULL);
  expr_array *k2 = expr_array_new("K2", eight, 8, false, NULL);
  expr_array *na = expr_array_new("n", eight, 8, true, NULL);
  expr *K1 = expr_read_le(k1, NULL, zero, 8), *K2 = expr_read_le(k2, NULL, zero, 8);
  expr *n = expr_read_le(na, NULL, zero, 8);
  expr *c1 = expr_ule(K1, n), *c2 = expr_ule(K2, n), *c3 = expr_ule(n, K1);
  CHECK(expr_phash(c1) != expr_phash(c2)); /* the pattern hash tells the K's apart */
  CHECK_EQ_U64(merge_tree_shape_hash(c1), merge_tree_shape_hash(c2));
  CHECK(merge_tree_shape_hash(c1) != merge_tree_shape_hash(c3));
  merge_tree *t = merge_tree_new(NULL);
  merge_branch exit_a = {0, 7, 1}, exit_b = {0, 7, 2};
  merge_node *a = merge_tree_add_nested(t, t->root, c1, &exit_a);
  merge_node *a2 = merge_tree_add_nested(t, a, c2, &exit_a);
  CHECK(a->symbol && a->nested && a2->nested);
  CHECK_EQ_U64(a->hash, a2->hash); /* two iterations, one symbol */
  merge_node *b = merge_tree_add_nested(t, t->root, c2, &exit_b);
  CHECK(a->hash != b->hash); /* siblings by other exits */
  CHECK(t->invalid == NULL);
  merge_node *b2 = merge_tree_add_nested(t, t->root, c2, &exit_a); /* same exit and shape */
  CHECK(t->invalid == merge_invalid_collision);
  merge_tree_detach(t, b2);
  CHECK(t->invalid == NULL);
  /* graft: an inner tree root → x (rider) → y | y' (branch, y' dead) copied under a2 */
  merge_tree *inner = merge_tree_new(NULL);
  merge_branch br = {0, 3, 0}, br_else = {0, 3, 1};
  expr *nc3 = expr_not(c3);
  merge_node *x = merge_tree_add(inner, inner->root, c1, false, NULL);
  merge_node *y = merge_tree_add(inner, x, c3, false, &br);
  merge_tree_add(inner, x, nc3, true, &br_else);
  merge_node *z = merge_tree_add(inner, y, c2, false, NULL);
  struct hmap copies = {0};
  uint32_t before = t->count;
  merge_node *gz = merge_tree_graft(t, a2, z, &copies);
  CHECK_EQ_U64(t->count, before + 4); /* x, y, the dead side, z */
  CHECK(gz->cond == c2 && !gz->symbol && gz->parent->symbol);
  CHECK_EQ_U64(gz->parent->hash, y->hash);
  CHECK(gz->parent->parent->parent == a2);
  CHECK(merge_tree_graft(t, a2, y, &copies) == gz->parent); /* copied once */
  CHECK(merge_tree_graft(t, a2, inner->root, &copies) == a2);
  CHECK_EQ_U64(t->count, before + 4);
  CHECK(t->invalid == NULL);
  hmap_free(&copies);
  merge_tree_free(inner);
  merge_tree_free(t);
  expr *all[] = {eight, zero, K1, K2, n, c1, c2, c3, nc3};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(k1), expr_array_unref(k2), expr_array_unref(na);
}

int main(void) {
  test_nested();
  test_memspn_words();
  test_salt_and_siblings();
  test_detach_and_splice();
  test_ended_error_sides();
  return check_exit();
}
