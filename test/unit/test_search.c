/*
 * test_search.c — unit tests of engine/exec/search: the searchers, driven by fake states.
 *
 * A fake state is a small struct with an id, a fork depth, the path of branch outcomes that
 * led to it ('1' the true side, kept by the state that forked; '0' the false side, the new
 * child) and the weight the covnew hook reports. Every expectation here is computed
 * independently of search.c:
 *   - dfs and bfs: the exact selection order over a full binary tree, written out by hand,
 *     and a reference implementation of KLEE's lists (plain arrays, O(n) removal) that the
 *     randomized stress test compares with at every selection;
 *   - random-path: a reference process tree (KLEE's own shape: nodes are never spliced, an
 *     emptied side is skipped) giving each state's exact probability, against which the
 *     observed frequencies must fall within 5 standard deviations;
 *   - random-state and covnew: frequencies against 1/n and weight/total;
 *   - interleaving: lockstep against standalone searchers fed the same calls;
 *   - determinism: the same seed replays the same selections, another seed does not.
 * The randomized stress test mixes thousands of adds, forks (also multi-way), removals of
 * arbitrary states, selections and weight changes, checks every selection is live (and, for
 * the deterministic strategies, exact), runs search_check on the internal structures, and
 * finally drains the searcher, so every state left must be selected exactly once.
 */
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "engine/exec/search.h"

/* ---- deterministic randomness of the test itself (not search.c's) ------------------- */

static uint64_t trng_state;

static uint64_t trng(void) { /* splitmix64 */
  uint64_t z = (trng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static size_t trng_below(size_t n) { return (size_t)(trng() % n); }

/* ---- fake states -------------------------------------------------------------------- */

typedef struct fake {
  uint64_t id;
  uint32_t depth;
  bool live;
  double w;      /* what the weight hook reports */
  double w_read; /* what the searcher was last made to read (stress test) */
  size_t live_ix;
  int rleaf; /* leaf in the reference process tree, -1 if none */
  char path[24];
} fake;

#define POOL_CAP 320000
static fake *pool;
static size_t n_pool;

static fake *fake_new(void) {
  if (n_pool >= POOL_CAP) {
    fprintf(stderr, "test pool exhausted\n");
    exit(2);
  }
  fake *f = &pool[n_pool];
  memset(f, 0, sizeof *f);
  f->id = n_pool++;
  f->live = true;
  f->w = 1.0;
  f->rleaf = -1;
  return f;
}

static void pool_reset(void) { n_pool = 0; }

static search_state_info info_of(const fake *f) {
  return (search_state_info){.id = f->id, .depth = f->depth};
}

static uint64_t weight_calls;

static double fake_weight(void *state, void *ctx) {
  (void)ctx;
  weight_calls++;
  return ((fake *)state)->w;
}

static const search_hooks hooks = {.weight = fake_weight, .ctx = NULL};

static search *new1(search_kind k, uint64_t seed) { return search_new(&k, 1, seed, &hooks); }

/* Operations applied alike to several searchers (lockstep). */
static fake *add_all(search **ss, size_t n) {
  fake *f = fake_new();
  for (size_t i = 0; i < n; i++) search_add_initial(ss[i], f, info_of(f));
  return f;
}

static fake *fork_all(search **ss, size_t n, fake *p) {
  fake *c = fake_new();
  p->depth++;
  c->depth = p->depth;
  size_t len = strlen(p->path);
  if (len + 2 < sizeof p->path) {
    memcpy(c->path, p->path, len);
    c->path[len] = '0';
    p->path[len] = '1';
    c->path[len + 1] = p->path[len + 1] = 0;
  }
  c->w = (double)((c->id * 2654435761u >> 7) % 4); /* 0..3: some states weigh nothing */
  for (size_t i = 0; i < n; i++) search_fork(ss[i], p, c, info_of(c));
  return c;
}

static void remove_all(search **ss, size_t n, fake *f) {
  f->live = false;
  for (size_t i = 0; i < n; i++) search_remove(ss[i], f);
}

/* One "instruction" of the full-binary-tree program of depth D: fork below D, end at D. */
static void tree_step(search **ss, size_t n, fake *st, unsigned D) {
  if (st->depth < D) fork_all(ss, n, st);
  else
    remove_all(ss, n, st);
}

typedef struct pick {
  uint64_t id;
  char path[24];
} pick;

/* Explores the full binary tree of depth D from one root; returns the number of selections
 * (at most max, recorded in out). */
static size_t explore(search *s, unsigned D, pick *out, size_t max) {
  add_all(&s, 1);
  size_t n = 0;
  fake *st;
  while (n < max && (st = search_select(s))) {
    out[n].id = st->id;
    memcpy(out[n].path, st->path, sizeof st->path);
    n++;
    tree_step(&s, 1, st, D);
  }
  return n;
}

/* ---- tests -------------------------------------------------------------------------- */

static void test_parse(void) {
  static const struct {
    const char *name;
    search_kind kind;
  } ok[] = {{"dfs", SEARCH_DFS},
            {"bfs", SEARCH_BFS},
            {"random-state", SEARCH_RANDOM_STATE},
            {"random-path", SEARCH_RANDOM_PATH},
            {"nurs:covnew", SEARCH_COVNEW},
            {"covnew", SEARCH_COVNEW}};
  for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
    search_kind k = SEARCH_DFS;
    if (ok[i].kind == SEARCH_DFS) k = SEARCH_BFS;
    CHECK(search_parse(ok[i].name, &k));
    CHECK_EQ_U64(k, ok[i].kind);
  }
  static const char *bad[] = {"dsf",     "DFS",         "",     "random", "nurs:md2u", "covnew ",
                              "bfs,dfs", "random_path", "nurs:"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    search_kind k = SEARCH_RANDOM_PATH;
    CHECK(!search_parse(bad[i], &k));
    CHECK_EQ_U64(k, SEARCH_RANDOM_PATH); /* untouched */
  }
  search_kind k = SEARCH_BFS;
  CHECK(!search_parse(NULL, &k));
  CHECK_EQ_STR(search_kind_name(SEARCH_DFS), "dfs");
  CHECK_EQ_STR(search_kind_name(SEARCH_BFS), "bfs");
  CHECK_EQ_STR(search_kind_name(SEARCH_RANDOM_STATE), "random-state");
  CHECK_EQ_STR(search_kind_name(SEARCH_RANDOM_PATH), "random-path");
  CHECK_EQ_STR(search_kind_name(SEARCH_COVNEW), "nurs:covnew");
}

static void test_empty(void) {
  for (int k = 0; k < SEARCH_NUM_KINDS; k++) {
    search *s = new1((search_kind)k, 1);
    CHECK(search_select(s) == NULL);
    CHECK_EQ_U64(search_count(s), 0);
    CHECK(search_check(s));
    /* one state: always it; removed: empty again */
    pool_reset();
    fake *f = add_all(&s, 1);
    for (int i = 0; i < 5; i++) CHECK_EQ_PTR(search_select(s), f);
    CHECK_EQ_U64(search_count(s), 1);
    remove_all(&s, 1, f);
    CHECK(search_select(s) == NULL);
    CHECK(search_check(s));
    search_free(s);
  }
  search_free(NULL);
}

static void check_sequence(const pick *got, size_t n, const char *const *want, size_t n_want,
                           const char *what) {
  CHECK_EQ_U64(n, n_want);
  for (size_t i = 0; i < n && i < n_want; i++) {
    if (strcmp(got[i].path, want[i]) != 0) {
      fprintf(stderr, "%s: selection %zu is \"%s\", want \"%s\"\n", what, i, got[i].path, want[i]);
      CHECK(!"selection order");
      return;
    }
  }
}

/* dfs: KLEE's order on a full binary tree of depth 3, the false side (the new child) first:
 * a pre-order walk taking '0' before '1'. */
static void test_dfs_order(void) {
  static const char *const want[] = {"",  "0",  "00",  "000", "001", "01",  "010", "011",
                                     "1", "10", "100", "101", "11",  "110", "111"};
  pool_reset();
  search *s = new1(SEARCH_DFS, 1);
  pick got[64];
  size_t n = explore(s, 3, got, 64);
  check_sequence(got, n, want, 15, "dfs");
  const search_stats *st = search_get_stats(s);
  CHECK_EQ_U64(st->selects, 15);
  CHECK_EQ_U64(st->forks, 7);
  CHECK_EQ_U64(st->removes, 8);
  CHECK_EQ_U64(st->adds, 1);
  CHECK_EQ_U64(st->peak_states, 4);  /* dfs keeps at most depth + 1 states */
  CHECK_EQ_U64(st->weight_reads, 0); /* no covnew: the hook is never called */
  search_free(s);
}

/* bfs: level by level; the state that forked moves to the back, its child after it. */
static void test_bfs_order(void) {
  static const char *const want[] = {"",    "1",   "0",   "11",  "10",  "01",  "00", "111",
                                     "110", "101", "100", "011", "010", "001", "000"};
  pool_reset();
  search *s = new1(SEARCH_BFS, 1);
  pick got[64];
  size_t n = explore(s, 3, got, 64);
  check_sequence(got, n, want, 15, "bfs");
  CHECK_EQ_U64(search_get_stats(s)->peak_states, 8);
  search_free(s);

  /* deeper: the selected depths never decrease */
  pool_reset();
  s = new1(SEARCH_BFS, 1);
  static pick big[1 << 10];
  n = explore(s, 8, big, 1 << 10);
  CHECK_EQ_U64(n, (1u << 9) - 1);
  for (size_t i = 1; i < n; i++)
    if (strlen(big[i].path) < strlen(big[i - 1].path)) {
      CHECK(!"bfs went back up a level");
      break;
    }
  search_free(s);

  /* a multi-way fork (switch): the parent moves back once, its children follow in order */
  pool_reset();
  s = new1(SEARCH_BFS, 1);
  fake *a = add_all(&s, 1), *b = add_all(&s, 1);
  CHECK_EQ_PTR(search_select(s), a);
  fake *c1 = fork_all(&s, 1, a), *c2 = fork_all(&s, 1, a), *c3 = fork_all(&s, 1, a);
  fake *want_order[] = {b, a, c1, c2, c3};
  for (size_t i = 0; i < 5; i++) {
    CHECK_EQ_PTR(search_select(s), want_order[i]);
    remove_all(&s, 1, want_order[i]);
  }
  search_free(s);
}

/* Every strategy explores the whole tree: 2^(D+1) − 1 selections, each leaf ended once. */
static void test_complete_exploration(void) {
  const unsigned D = 6;
  for (int k = 0; k < SEARCH_NUM_KINDS; k++) {
    pool_reset();
    search *s = new1((search_kind)k, 42);
    static pick got[1 << 8];
    size_t n = explore(s, D, got, 1 << 8);
    CHECK_EQ_U64(n, (1u << (D + 1)) - 1);
    unsigned char ended[1 << 6] = {0};
    for (size_t i = 0; i < n; i++) {
      if (strlen(got[i].path) != D) continue;
      unsigned v = (unsigned)strtoul(got[i].path, NULL, 2);
      CHECK(!ended[v]);
      ended[v] = 1;
    }
    for (unsigned v = 0; v < (1u << D); v++) CHECK(ended[v]);
    CHECK_EQ_U64(search_count(s), 0);
    CHECK(search_check(s));
    search_free(s);
  }
}

/* The same seed replays the same selections; another seed chooses differently. */
static void test_determinism(void) {
  static const search_kind configs[][2] = {{SEARCH_RANDOM_STATE, SEARCH_RANDOM_STATE},
                                           {SEARCH_RANDOM_PATH, SEARCH_RANDOM_PATH},
                                           {SEARCH_COVNEW, SEARCH_COVNEW},
                                           {SEARCH_RANDOM_PATH, SEARCH_COVNEW}};
  static const size_t n_kinds[] = {1, 1, 1, 2};
  for (size_t c = 0; c < 4; c++) {
    static pick a[1 << 9], b[1 << 9], d[1 << 9];
    size_t na, nb, nd;
    pool_reset();
    search *s = search_new(configs[c], n_kinds[c], 1, &hooks);
    na = explore(s, 7, a, 1 << 9);
    search_free(s);
    pool_reset();
    s = search_new(configs[c], n_kinds[c], 1, &hooks);
    nb = explore(s, 7, b, 1 << 9);
    search_free(s);
    pool_reset();
    s = search_new(configs[c], n_kinds[c], 2, &hooks);
    nd = explore(s, 7, d, 1 << 9);
    search_free(s);
    CHECK_EQ_U64(na, 255);
    CHECK_EQ_U64(nb, 255);
    CHECK_EQ_U64(nd, 255);
    CHECK(memcmp(a, b, sizeof a[0] * na) == 0);
    size_t same = 0;
    for (size_t i = 0; i < na; i++) same += a[i].id == d[i].id;
    if (same == na) fprintf(stderr, "config %zu: seeds 1 and 2 choose alike\n", c);
    CHECK(same < na);
  }
}

/* ---- the reference process tree (KLEE's: nothing is spliced, emptied sides are skipped)  */

#define RMAX 4096
static struct {
  int parent, kid[2];
  fake *leaf; /* a live leaf's state; NULL for inner nodes and ended leaves */
} rn[RMAX];
static int n_rn, r_root;

static int rnode_new(int parent, fake *f) {
  int i = n_rn++;
  if (i >= RMAX) exit(2);
  rn[i].parent = parent;
  rn[i].kid[0] = rn[i].kid[1] = -1;
  rn[i].leaf = f;
  if (f) f->rleaf = i;
  return i;
}

static void ref_reset(void) {
  n_rn = 0;
  r_root = -1;
}

static void ref_add(fake *f) {
  int l = rnode_new(-1, f);
  if (r_root < 0) {
    r_root = l;
    return;
  }
  int top = rnode_new(-1, NULL);
  rn[top].kid[0] = l;
  rn[top].kid[1] = r_root;
  rn[l].parent = rn[r_root].parent = top;
  r_root = top;
}

static void ref_fork(fake *p, fake *c) {
  int at = p->rleaf;
  rn[at].leaf = NULL;
  rn[at].kid[0] = rnode_new(at, c);
  rn[at].kid[1] = rnode_new(at, p);
}

static void ref_remove(fake *f) {
  rn[f->rleaf].leaf = NULL;
  f->rleaf = -1;
}

static size_t ref_live(int i) {
  if (i < 0) return 0;
  if (rn[i].kid[0] < 0) return rn[i].leaf != NULL;
  return ref_live(rn[i].kid[0]) + ref_live(rn[i].kid[1]);
}

/* p_of[id] = the probability random-path picks the state */
static void ref_probs(int i, double p, double *p_of) {
  if (rn[i].kid[0] < 0) {
    if (rn[i].leaf) p_of[rn[i].leaf->id] = p;
    return;
  }
  size_t l = ref_live(rn[i].kid[0]), r = ref_live(rn[i].kid[1]);
  if (l && r) p /= 2;
  if (l) ref_probs(rn[i].kid[0], p, p_of);
  if (r) ref_probs(rn[i].kid[1], p, p_of);
}

static bool within(double freq, double p, size_t n) {
  double sigma = sqrt(p * (1 - p) / (double)n);
  return fabs(freq - p) <= 5 * sigma + 1e-9;
}

/* Samples `n` selections and compares each live state's frequency with p_of[id]. */
static void check_frequencies(search *s, fake **live, size_t n_live, const double *p_of, size_t n,
                              const char *what) {
  static uint32_t count[POOL_CAP];
  for (size_t i = 0; i < n_live; i++) count[live[i]->id] = 0;
  size_t stray = 0;
  for (size_t i = 0; i < n; i++) {
    fake *f = search_select(s);
    if (!f || !f->live) stray++;
    else
      count[f->id]++;
  }
  CHECK_EQ_U64(stray, 0);
  for (size_t i = 0; i < n_live; i++) {
    double freq = (double)count[live[i]->id] / (double)n, p = p_of[live[i]->id];
    if (!within(freq, p, n)) {
      fprintf(stderr, "%s: state %" PRIu64 " (path %s) picked %.5f, want %.5f\n", what, live[i]->id,
              live[i]->path, freq, p);
      CHECK(!"frequency out of tolerance");
    }
    if (p == 0) CHECK_EQ_U64(count[live[i]->id], 0);
  }
}

/* random-path: a deep caterpillar on one side of the root, a balanced subtree of 16 shallow
 * leaves on the other; random-state over the same states. */
static void test_random_path_distribution(void) {
  pool_reset();
  ref_reset();
  search *ss[2] = {new1(SEARCH_RANDOM_PATH, 7), new1(SEARCH_RANDOM_STATE, 7)};
  fake *live[64];
  size_t n_live = 0;
  fake *root = add_all(ss, 2);
  ref_add(root);
  fake *chain = fork_all(ss, 2, root);
  ref_fork(root, chain);
  fake *cat[8];
  for (int i = 0; i < 8; i++) { /* chain keeps forking: leaves hang off at depths 2..9 */
    cat[i] = fork_all(ss, 2, chain);
    ref_fork(chain, cat[i]);
  }
  fake *level[16] = {root};
  size_t n_level = 1;
  for (int d = 0; d < 4; d++) { /* the root's side: every state forks once per level */
    size_t m = n_level;
    for (size_t i = 0; i < m; i++) {
      level[n_level] = fork_all(ss, 2, level[i]);
      ref_fork(level[i], level[n_level]);
      n_level++;
    }
  }
  CHECK_EQ_U64(n_level, 16);
  for (int i = 0; i < 8; i++) live[n_live++] = cat[i];
  live[n_live++] = chain;
  for (size_t i = 0; i < 16; i++) live[n_live++] = level[i];
  CHECK_EQ_U64(search_count(ss[0]), 25);

  static double p_of[POOL_CAP], uniform[POOL_CAP];
  ref_probs(r_root, 1.0, p_of);
  /* the reference itself, by hand: the chain's leaves 1/4, 1/8 … 1/512, the chain 1/512,
   * the balanced leaves 1/32 each */
  for (int i = 0; i < 8; i++) CHECK(p_of[cat[i]->id] == ldexp(1.0, -(i + 2)));
  CHECK(p_of[chain->id] == ldexp(1.0, -9));
  for (size_t i = 0; i < 16; i++) CHECK(p_of[level[i]->id] == 1.0 / 32);

  const size_t N = 400000;
  check_frequencies(ss[0], live, n_live, p_of, N, "random-path");
  /* each side of the root half the time */
  size_t left = 0;
  for (size_t i = 0; i < N; i++) {
    fake *f = search_select(ss[0]);
    left += f == chain || (f && f->path[0] == '0');
  }
  CHECK(within((double)left / N, 0.5, N));

  for (size_t i = 0; i < n_live; i++) uniform[live[i]->id] = 1.0 / (double)n_live;
  check_frequencies(ss[1], live, n_live, uniform, N, "random-state");

  /* remove arbitrary states, including whole subtrees, and check again */
  trng_state = 99;
  for (int round = 0; round < 3; round++) {
    for (int k = 0; k < 6 && n_live > 2; k++) {
      size_t i = trng_below(n_live);
      remove_all(ss, 2, live[i]);
      ref_remove(live[i]);
      live[i] = live[--n_live];
    }
    if (round == 2) /* empty the balanced side except one state */
      for (size_t i = 0; i < n_live;) {
        if (live[i]->path[0] == '1' && strcmp(live[i]->path, "11111") != 0) {
          remove_all(ss, 2, live[i]);
          ref_remove(live[i]);
          live[i] = live[--n_live];
        } else {
          i++;
        }
      }
    memset(p_of, 0, sizeof p_of);
    ref_probs(r_root, 1.0, p_of);
    double total = 0;
    for (size_t i = 0; i < n_live; i++) total += p_of[live[i]->id];
    CHECK(fabs(total - 1.0) < 1e-12);
    CHECK(search_check(ss[0]));
    check_frequencies(ss[0], live, n_live, p_of, N / 2, "random-path after removals");
    for (size_t i = 0; i < n_live; i++) uniform[live[i]->id] = 1.0 / (double)n_live;
    check_frequencies(ss[1], live, n_live, uniform, N / 2, "random-state after removals");
  }
  search_free(ss[0]);
  search_free(ss[1]);
}

/* covnew: proportional to the weights read; zero (and NaN, negative) never while any weighs
 * more; all zero: uniform; weights are re-read only when the searcher is told. */
static void test_covnew(void) {
  pool_reset();
  search *s = new1(SEARCH_COVNEW, 3);
  static const double w[] = {0, 1, 2, 3, 4, 0, 10, 0.5, NAN, -1};
  enum { n = sizeof w / sizeof w[0] };
  fake *st[n];
  static double p_of[POOL_CAP];
  weight_calls = 0;
  for (int i = 0; i < n; i++) {
    st[i] = fake_new();
    st[i]->w = w[i];
    search_add_initial(s, st[i], info_of(st[i]));
  }
  CHECK_EQ_U64(weight_calls, n); /* one read per added state */
  double total = 20.5;
  for (int i = 0; i < n; i++) p_of[st[i]->id] = w[i] > 0 ? w[i] / total : 0;
  const size_t N = 400000;
  check_frequencies(s, st, n, p_of, N, "covnew");
  CHECK_EQ_U64(weight_calls, n); /* selecting reads no weight */

  /* one state changes and the searcher is told */
  st[0]->w = 20;
  search_update(s, st[0]);
  CHECK_EQ_U64(weight_calls, n + 1);
  total = 40.5;
  for (int i = 0; i < n; i++) p_of[st[i]->id] = st[i]->w > 0 ? st[i]->w / total : 0;
  check_frequencies(s, st, n, p_of, N, "covnew after search_update");

  /* changed without telling: the old weight stays in force */
  st[6]->w = 0;
  check_frequencies(s, st, n, p_of, N / 4, "covnew with a stale weight");
  search_update_weights(s); /* now it counts */
  CHECK_EQ_U64(weight_calls, 2 * n + 1);
  total = 30.5;
  for (int i = 0; i < n; i++) p_of[st[i]->id] = st[i]->w > 0 ? st[i]->w / total : 0;
  check_frequencies(s, st, n, p_of, N, "covnew after search_update_weights");
  CHECK(search_check(s));

  /* a fork re-reads the parent's weight, reads the child's */
  st[1]->w = 0;
  fake *c = fork_all(&s, 1, st[1]);
  c->w = 0; /* fork_all set it before the searcher read it; set it to what was read */
  search_update(s, c);
  CHECK_EQ_U64(weight_calls, 2 * n + 4);
  fake *all[n + 1];
  memcpy(all, st, sizeof st);
  all[n] = c;
  total = 29.5 + 0; /* st[1] now weighs 0 */
  for (int i = 0; i <= n; i++) p_of[all[i]->id] = all[i]->w > 0 ? all[i]->w / total : 0;
  check_frequencies(s, all, n + 1, p_of, N, "covnew after a fork");

  /* everything weighs 0: uniform */
  for (int i = 0; i <= n; i++) all[i]->w = 0;
  search_update_weights(s);
  for (int i = 0; i <= n; i++) p_of[all[i]->id] = 1.0 / (n + 1);
  check_frequencies(s, all, n + 1, p_of, N, "covnew, all weights 0");

  /* one positive weight among zeros: always it; huge and infinite weights are clamped */
  all[4]->w = 1e-300;
  search_update(s, all[4]);
  for (int i = 0; i < 1000; i++) CHECK_EQ_PTR(search_select(s), all[4]);
  all[2]->w = INFINITY;
  all[3]->w = 1e300;
  search_update(s, all[2]);
  search_update(s, all[3]);
  for (int i = 0; i <= n; i++) p_of[all[i]->id] = (i == 2 || i == 3) ? 0.5 : 0;
  check_frequencies(s, all, n + 1, p_of, N / 4, "covnew, huge weights");
  CHECK(search_check(s));
  search_free(s);

  /* no weight hook: every state weighs 1 */
  pool_reset();
  search_kind k = SEARCH_COVNEW;
  s = search_new(&k, 1, 5, NULL);
  for (int i = 0; i < 8; i++) {
    st[i] = fake_new();
    search_add_initial(s, st[i], info_of(st[i]));
    p_of[st[i]->id] = 1.0 / 8;
  }
  check_frequencies(s, st, 8, p_of, N / 4, "covnew without a hook");
  search_free(s);
}

/* Interleaving: selection k comes from sub-searcher k mod n, in the order given, and every
 * sub-searcher sees every call. Checked in lockstep against standalone searchers. */
static void test_interleave(void) {
  static const search_kind two[] = {SEARCH_DFS, SEARCH_BFS};
  static const search_kind three[] = {SEARCH_DFS, SEARCH_BFS, SEARCH_DFS};
  const search_kind *configs[] = {two, three};
  const size_t sizes[] = {2, 3};
  for (int c = 0; c < 2; c++) {
    pool_reset();
    search *ss[3] = {search_new(configs[c], sizes[c], 1, &hooks), new1(SEARCH_DFS, 1),
                     new1(SEARCH_BFS, 1)};
    add_all(ss, 3);
    size_t k = 0, differ_dfs = 0, differ_bfs = 0;
    fake *st;
    while ((st = search_select(ss[0]))) {
      fake *d = search_select(ss[1]), *b = search_select(ss[2]);
      fake *want = configs[c][k % sizes[c]] == SEARCH_DFS ? d : b;
      if (st != want) {
        fprintf(stderr, "interleave %d: selection %zu differs\n", c, k);
        CHECK(!"interleaved selection");
        break;
      }
      differ_dfs += st != d;
      differ_bfs += st != b;
      k++;
      tree_step(ss, 3, st, 5);
      if (k % 7 == 0) CHECK(search_check(ss[0]));
    }
    CHECK_EQ_U64(k, 63);
    CHECK(differ_dfs > 0 && differ_bfs > 0); /* the strategies really alternated */
    CHECK_EQ_U64(search_count(ss[0]), 0);
    for (int i = 0; i < 3; i++) search_free(ss[i]);
  }
}

static void test_info(void) {
  pool_reset();
  search *s = new1(SEARCH_RANDOM_PATH, 1);
  fake *a = add_all(&s, 1);
  const search_state_info *in = search_info(s, a);
  CHECK(in && in->id == a->id && in->depth == 0);
  fake *b = fork_all(&s, 1, a), *c = fork_all(&s, 1, b);
  in = search_info(s, a);
  CHECK(in && in->depth == 1);
  in = search_info(s, b);
  CHECK(in && in->id == b->id && in->depth == 2);
  in = search_info(s, c);
  CHECK(in && in->id == c->id && in->depth == 2);
  remove_all(&s, 1, b);
  CHECK(search_info(s, b) == NULL);
  CHECK(search_info(s, NULL) == NULL);
  int unrelated;
  CHECK(search_info(s, &unrelated) == NULL);
  search_free(s);
}

/* Misuse by the interpreter stops the program (in a child process here), in every build. */
static void test_misuse(void) {
  for (int what = 0; what < 4; what++) {
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
      if (!freopen("/dev/null", "w", stderr)) _exit(3);
      pool_reset();
      search *s = new1(SEARCH_BFS, 1);
      fake *a = add_all(&s, 1), *b = fake_new();
      if (what == 0) search_remove(s, b);                       /* never added */
      if (what == 1) search_add_initial(s, a, info_of(a));      /* added twice */
      if (what == 2) search_fork(s, b, fake_new(), info_of(b)); /* parent not live */
      if (what == 3) search_fork(s, a, a, info_of(a));          /* child already live */
      _exit(0);
    }
    int status = 0;
    CHECK(pid > 0 && waitpid(pid, &status, 0) == pid);
    CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT);
  }
}

/* ---- randomized stress against reference lists -------------------------------------- */

typedef struct model {
  fake **dfs, **bfs; /* KLEE's lists, newest at the back */
  fake **live;       /* the live states, unordered (fake.live_ix) */
  size_t n;
  fake *group_parent;
} model;

static void list_erase(fake **list, size_t n, fake *f) {
  for (size_t i = 0; i < n; i++)
    if (list[i] == f) {
      memmove(list + i, list + i + 1, (n - i - 1) * sizeof *list);
      return;
    }
  CHECK(!"model: state not in list");
}

static void model_add(model *m, fake *f) {
  m->dfs[m->n] = m->bfs[m->n] = m->live[m->n] = f;
  f->live_ix = m->n++;
}

static void model_remove(model *m, fake *f) {
  list_erase(m->dfs, m->n, f);
  list_erase(m->bfs, m->n, f);
  m->live[f->live_ix] = m->live[m->n - 1];
  m->live[f->live_ix]->live_ix = f->live_ix;
  m->n--;
  m->group_parent = NULL;
}

static void model_fork(model *m, fake *p, fake *c) {
  if (m->group_parent != p) {
    list_erase(m->bfs, m->n, p);
    m->bfs[m->n - 1] = p;
  }
  m->group_parent = p;
  model_add(m, c);
}

static double sane(double w) { return w > 0 ? (w > 1e200 ? 1e200 : w) : 0; }

static const double stress_weights[] = {0, 0.25, 1, 4, NAN, -1, 0, 1e-3};

/* Returns a hash of the selections, for the determinism check. */
static uint64_t stress(const search_kind *kinds, size_t n_kinds, uint64_t seed, size_t ops) {
  pool_reset();
  trng_state = seed * 7919;
  search *s = search_new(kinds, n_kinds, seed, &hooks);
  model m = {calloc(POOL_CAP, sizeof(fake *)), calloc(POOL_CAP, sizeof(fake *)),
             calloc(POOL_CAP, sizeof(fake *)), 0, NULL};
  fake *current = NULL;
  uint64_t hash = 0xcbf29ce484222325ULL, selects = 0;
  size_t peak = 0, failures_before = check_failed;

  for (size_t op = 0; op < ops && check_failed == failures_before; op++) {
    bool growing = op < ops / 2;
    size_t r = trng_below(100);
    if (m.n == 0 || r < 1) {
      fake *f = fake_new();
      f->w = stress_weights[trng_below(8)];
      f->w_read = sane(f->w);
      search_add_initial(s, f, info_of(f));
      model_add(&m, f);
      m.group_parent = NULL;
    } else if (r < 35) {
      fake *st = search_select(s);
      search_kind k = kinds[selects % n_kinds];
      selects++;
      m.group_parent = NULL;
      hash = (hash ^ (st ? st->id : 0xffff)) * 0x100000001b3ULL;
      if (!st || !st->live) {
        CHECK(!"selected a state that is not live");
        break;
      }
      if (k == SEARCH_DFS) CHECK_EQ_PTR(st, m.dfs[m.n - 1]);
      if (k == SEARCH_BFS) CHECK_EQ_PTR(st, m.bfs[0]);
      if (k == SEARCH_COVNEW && st->w_read == 0)
        for (size_t i = 0; i < m.n; i++) CHECK(m.live[i]->w_read == 0);
      current = st;
    } else if (r < (growing ? 75u : 45u)) {
      fake *p = current && current->live && trng_below(4) ? current : m.live[trng_below(m.n)];
      size_t ways = trng_below(4) == 0 ? 2 + trng_below(3) : 1;
      for (size_t i = 0; i < ways; i++) {
        fake *c = fake_new();
        c->depth = ++p->depth;
        c->w = stress_weights[trng_below(8)];
        c->w_read = sane(c->w);
        p->w_read = sane(p->w);
        search_fork(s, p, c, info_of(c));
        model_fork(&m, p, c);
      }
    } else if (r < (growing ? 90u : 92u)) {
      fake *f = current && current->live && trng_below(3) == 0 ? current : m.live[trng_below(m.n)];
      f->live = false;
      search_remove(s, f);
      model_remove(&m, f);
    } else if (r < 98) {
      fake *f = m.live[trng_below(m.n)];
      f->w = stress_weights[trng_below(8)];
      f->w_read = sane(f->w);
      search_update(s, f);
    } else {
      for (size_t i = 0; i < 1 + m.n / 8; i++)
        m.live[trng_below(m.n)]->w = stress_weights[trng_below(8)];
      for (size_t i = 0; i < m.n; i++) m.live[i]->w_read = sane(m.live[i]->w);
      search_update_weights(s);
    }
    if (search_count(s) != m.n) {
      CHECK_EQ_U64(search_count(s), m.n);
      break;
    }
    if (m.n > peak) peak = m.n;
    if (op < 400 || op % 61 == 0) CHECK(search_check(s));
    if (op % 97 == 0 && m.n) { /* the recorded info follows the state */
      fake *f = m.live[trng_below(m.n)];
      const search_state_info *in = search_info(s, f);
      CHECK(in && in->id == f->id && in->depth == f->depth);
    }
  }
  CHECK(search_check(s));
  CHECK(peak > 200); /* the slots and tree grew several times */

  /* drain: select and end the selected state; every live state comes up exactly once */
  size_t left = m.n, drained = 0;
  fake *st;
  while ((st = search_select(s)) && check_failed == failures_before) {
    search_kind k = kinds[selects % n_kinds];
    selects++;
    m.group_parent = NULL;
    hash = (hash ^ st->id) * 0x100000001b3ULL;
    CHECK(st->live);
    if (k == SEARCH_DFS) CHECK_EQ_PTR(st, m.dfs[m.n - 1]);
    if (k == SEARCH_BFS) CHECK_EQ_PTR(st, m.bfs[0]);
    st->live = false;
    search_remove(s, st);
    model_remove(&m, st);
    drained++;
    if (drained % 53 == 0) CHECK(search_check(s));
  }
  CHECK_EQ_U64(drained, left);
  CHECK_EQ_U64(search_count(s), 0);
  CHECK(search_check(s));
  search_free(s);
  free(m.dfs);
  free(m.bfs);
  free(m.live);
  return hash;
}

static void test_stress(void) {
  static const search_kind all[] = {SEARCH_DFS, SEARCH_BFS, SEARCH_RANDOM_STATE, SEARCH_RANDOM_PATH,
                                    SEARCH_COVNEW};
  static const search_kind mixed[] = {SEARCH_RANDOM_PATH, SEARCH_COVNEW,       SEARCH_BFS,
                                      SEARCH_DFS,         SEARCH_RANDOM_STATE, SEARCH_COVNEW};
  for (size_t k = 0; k < 5; k++)
    for (uint64_t seed = 1; seed <= 3; seed++) stress(&all[k], 1, seed, 20000);
  uint64_t h1 = stress(mixed, 6, 11, 30000), h2 = stress(mixed, 6, 11, 30000);
  CHECK_EQ_U64(h1, h2);
  for (size_t k = 2; k < 5; k++) {
    uint64_t a = stress(&all[k], 1, 5, 5000), b = stress(&all[k], 1, 5, 5000);
    CHECK_EQ_U64(a, b);
  }
}

/* ---- scale -------------------------------------------------------------------------- */

static double seconds(clock_t a, clock_t b) { return (double)(b - a) / CLOCKS_PER_SEC; }

/* 100,000 states under covnew and random-path: selecting reads no weight, an update reads
 * one; and a 200,000-deep chain for random-path (nothing recurses). */
static void test_scale(void) {
  static const search_kind kinds[] = {SEARCH_RANDOM_PATH, SEARCH_COVNEW};
  const size_t n = 100000;
  pool_reset();
  trng_state = 4242;
  search *s = search_new(kinds, 2, 9, &hooks);
  static fake *live[POOL_CAP];
  clock_t t0 = clock();
  live[0] = add_all(&s, 1);
  for (size_t i = 1; i < n; i++) {
    live[i] = fork_all(&s, 1, live[trng_below(i)]);
    live[i]->w = (double)(trng_below(1000) + 1);
  }
  clock_t t1 = clock();
  uint64_t calls = weight_calls;
  size_t stray = 0;
  for (size_t i = 0; i < n; i++) {
    fake *f = search_select(s);
    stray += !f || !f->live;
  }
  CHECK_EQ_U64(weight_calls, calls);
  CHECK_EQ_U64(stray, 0);
  clock_t t2 = clock();
  for (size_t i = 0; i < n; i++) {
    fake *f = live[trng_below(n)];
    f->w = (double)trng_below(1000);
    search_update(s, f);
  }
  CHECK_EQ_U64(weight_calls, calls + n);
  clock_t t3 = clock();
  CHECK(search_check(s));
  for (size_t i = n; i > 0; i--) { /* remove in random order */
    size_t j = trng_below(i);
    remove_all(&s, 1, live[j]);
    live[j] = live[i - 1];
  }
  clock_t t4 = clock();
  CHECK_EQ_U64(search_count(s), 0);
  CHECK(search_check(s));
  search_free(s);
  printf(
      "scale: %zu states: %.3fs to fork, %.3fs for %zu selects, %.3fs for %zu updates, "
      "%.3fs to remove\n",
      n, seconds(t0, t1), seconds(t1, t2), n, seconds(t2, t3), n, seconds(t3, t4));
  /* generous bounds (sanitizers, a shared machine): an O(n) select would take minutes */
  CHECK(seconds(t1, t2) < 20 && seconds(t2, t3) < 20);

  pool_reset();
  s = new1(SEARCH_RANDOM_PATH, 3);
  fake *deep = add_all(&s, 1);
  const size_t chain = 200000;
  for (size_t i = 0; i < chain; i++) live[i] = fork_all(&s, 1, deep);
  CHECK(search_check(s));
  for (int i = 0; i < 1000; i++) {
    fake *f = search_select(s);
    CHECK(f && f->live);
  }
  for (size_t i = 0; i < chain; i++) remove_all(&s, 1, live[i]); /* shallowest first */
  CHECK_EQ_PTR(search_select(s), deep);
  CHECK(search_check(s));
  search_free(s);
}

int main(void) {
  pool = calloc(POOL_CAP, sizeof *pool);
  if (!pool) return 2;
  test_parse();
  test_empty();
  test_dfs_order();
  test_bfs_order();
  test_complete_exploration();
  test_determinism();
  test_random_path_distribution();
  test_covnew();
  test_interleave();
  test_info();
  test_misuse();
  test_stress();
  test_scale();
  free(pool);
  return check_exit();
}
