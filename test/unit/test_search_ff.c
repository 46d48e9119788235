/*
 * test_search_ff.c — unit tests of fast-forwarding in engine/exec/search (dynamic state
 * merging): marked states come first, those of the smallest key first, among them the most
 * recently marked, at most `delta`
 * selections in a row; then one selection is the underlying searcher's own; dfs alone and
 * delta 0 ignore the marks; removing a state drops its mark; a randomized run keeps the
 * structures consistent (search_check) and selects only live states, and the same calls
 * give the same selections twice. The expected orders are written out by hand from the
 * contract in search.h.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "engine/exec/search.h"

enum { N = 64 };
static int st[N]; /* fake states: only their addresses matter */

static search_state_info info(int k) { return (search_state_info){.id = (uint64_t)k, .depth = 0}; }

static search *bfs_with(int n, uint32_t delta) {
  search_kind kind = SEARCH_BFS;
  search *s = search_new(&kind, 1, 7, NULL);
  for (int k = 0; k < n; k++) search_add_initial(s, &st[k], info(k));
  search_set_fast_forward(s, delta);
  return s;
}

/* No marks, or delta 0: bfs's own order (the oldest first); marks change nothing at 0. */
static void test_off(void) {
  search *s = bfs_with(4, 0);
  search_fast_forward(s, &st[3], 1);
  CHECK_EQ_PTR(search_select(s), &st[0]);
  CHECK_EQ_PTR(search_select(s), &st[0]);
  CHECK_EQ_U64(search_get_stats(s)->fast_forwards, 0);
  CHECK(search_check(s));
  search_free(s);
}

/* The most recently marked state is selected, delta times in a row, then bfs's choice. */
static void test_order_and_delta(void) {
  search *s = bfs_with(5, 2);
  search_fast_forward(s, &st[2], 1);
  search_fast_forward(s, &st[4], 1);
  search_fast_forward(s, &st[2], 1); /* already marked: keeps its place */
  CHECK(search_check(s));
  CHECK_EQ_PTR(search_select(s), &st[4]);
  CHECK_EQ_PTR(search_select(s), &st[4]);
  CHECK_EQ_PTR(search_select(s), &st[0]); /* delta reached: the searcher's own choice */
  CHECK_EQ_PTR(search_select(s), &st[4]); /* and fast-forwarding again */
  search_fast_forward(s, &st[4], 0);
  CHECK_EQ_PTR(search_select(s), &st[2]);
  CHECK_EQ_PTR(search_select(s), &st[0]); /* the run of two ends here */
  search_remove(s, &st[2]);               /* its mark goes with it */
  CHECK(search_check(s));
  CHECK_EQ_PTR(search_select(s), &st[0]); /* nothing marked */
  CHECK_EQ_U64(search_get_stats(s)->fast_forwards, 4);
  search_free(s);
}

/* A fork's child marked after its parent runs first; unmarked states wait. */
static void test_fork(void) {
  search *s = bfs_with(2, 100);
  search_fast_forward(s, &st[1], 1);
  CHECK_EQ_PTR(search_select(s), &st[1]);
  search_fork(s, &st[1], &st[2], info(2));
  search_fast_forward(s, &st[1], 1);
  search_fast_forward(s, &st[2], 1);
  CHECK_EQ_PTR(search_select(s), &st[2]);
  search_remove(s, &st[2]);
  CHECK_EQ_PTR(search_select(s), &st[1]);
  search_remove(s, &st[1]);
  CHECK_EQ_PTR(search_select(s), &st[0]);
  CHECK(search_check(s));
  search_free(s);
}

/* The smallest key first, whatever the order the keys were first used in; within a key the
 * most recently marked; a group emptied and made again takes its place by key. */
static void test_keys(void) {
  search *s = bfs_with(6, 100);
  search_fast_forward(s, &st[1], 5);
  search_fast_forward(s, &st[2], 9);
  search_fast_forward(s, &st[3], 2);
  search_fast_forward(s, &st[4], 5);
  search_fast_forward(s, &st[5], 7);
  CHECK(search_check(s));
  CHECK_EQ_PTR(search_select(s), &st[3]);
  search_fast_forward(s, &st[3], 0);
  CHECK_EQ_PTR(search_select(s), &st[4]);
  search_fast_forward(s, &st[4], 7); /* moves to key 7, behind st[5] */
  CHECK_EQ_PTR(search_select(s), &st[1]);
  search_remove(s, &st[1]);
  CHECK_EQ_PTR(search_select(s), &st[4]);
  search_fast_forward(s, &st[0], 6); /* a new key between the others */
  CHECK_EQ_PTR(search_select(s), &st[0]);
  CHECK(search_check(s));
  search_remove(s, &st[0]);
  search_remove(s, &st[4]);
  CHECK_EQ_PTR(search_select(s), &st[5]);
  search_remove(s, &st[5]);
  CHECK_EQ_PTR(search_select(s), &st[2]);
  search_fast_forward(s, &st[2], 0);
  CHECK_EQ_PTR(search_select(s), &st[2]); /* bfs: st[2] is the oldest left */
  CHECK(search_check(s));
  search_free(s);
}

/* dfs alone ignores the marks; dfs interleaved with bfs does not. */
static void test_dfs(void) {
  search_kind kinds[] = {SEARCH_DFS, SEARCH_BFS};
  search *s = search_new(kinds, 1, 0, NULL);
  for (int k = 0; k < 3; k++) search_add_initial(s, &st[k], info(k));
  search_set_fast_forward(s, 8);
  search_fast_forward(s, &st[0], 1);
  CHECK_EQ_PTR(search_select(s), &st[2]);
  CHECK_EQ_U64(search_get_stats(s)->fast_forwards, 0);
  search_free(s);
  s = search_new(kinds, 2, 0, NULL);
  for (int k = 0; k < 3; k++) search_add_initial(s, &st[k], info(k));
  search_set_fast_forward(s, 1);
  search_fast_forward(s, &st[1], 1);
  CHECK_EQ_PTR(search_select(s), &st[1]);
  CHECK_EQ_PTR(search_select(s), &st[2]); /* dfs's turn */
  CHECK_EQ_PTR(search_select(s), &st[1]);
  CHECK_EQ_PTR(search_select(s), &st[0]); /* bfs's turn */
  search_free(s);
}

/* Random adds, forks, removes, marks and selections on every kind: consistent structures,
 * live selections, never more than delta fast-forwards in a row, and the same run twice
 * selects the same states. */
static void run_random(search_kind kind, uint32_t delta, int *trace, size_t ntrace) {
  uint64_t x = 12345;
  search *s = search_new(&kind, 1, 3, NULL);
  search_set_fast_forward(s, delta);
  bool live[N] = {false};
  int nlive = 0;
  uint64_t ff_before = 0, in_a_row = 0;
  for (size_t step = 0; step < ntrace; step++) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    int k = (int)((x >> 33) % N), op = (int)((x >> 20) % 5);
    if (!nlive || (op == 0 && !live[k])) {
      int f = 0;
      while (live[f]) f++;
      search_add_initial(s, &st[f], info(f));
      live[f] = true;
      nlive++;
    } else if (op == 1 && live[k] && nlive < N) {
      int f = 0;
      while (live[f]) f++;
      search_fork(s, &st[k], &st[f], info(f));
      live[f] = true;
      nlive++;
    } else if (op == 2 && live[k] && nlive > 1) {
      search_remove(s, &st[k]);
      live[k] = false;
      nlive--;
    } else if (op == 3 && live[k]) {
      search_fast_forward(s, &st[k], (x >> 40) % 4); /* keys 1..3, or unmarked */
    }
    int *picked = search_select(s);
    CHECK(picked && live[picked - st]);
    trace[step] = picked ? (int)(picked - st) : -1;
    uint64_t ff = search_get_stats(s)->fast_forwards;
    in_a_row = ff > ff_before ? in_a_row + 1 : 0;
    ff_before = ff;
    CHECK(in_a_row <= delta);
    if (step % 97 == 0) CHECK(search_check(s));
  }
  CHECK(search_check(s));
  if (kind != SEARCH_DFS && delta) CHECK(search_get_stats(s)->fast_forwards > 0);
  search_free(s);
}

static void test_random(void) {
  enum { STEPS = 4000 };
  static int a[STEPS], b[STEPS];
  for (int k = 0; k < SEARCH_NUM_KINDS; k++) {
    run_random((search_kind)k, 5, a, STEPS);
    run_random((search_kind)k, 5, b, STEPS);
    bool same = true;
    for (size_t i = 0; i < STEPS; i++) same &= a[i] == b[i];
    CHECK(same);
  }
}

int main(void) {
  test_off();
  test_order_and_delta();
  test_fork();
  test_keys();
  test_dfs();
  test_random();
  return check_exit();
}
