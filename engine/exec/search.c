/*
 * search.c — the searchers of search.h.
 *
 * Layout
 *   Every live state has a slot: a small integer, recycled through a free stack, under which
 *   the state pointer, its info and (for nurs:covnew) its last weight are stored. An hmap
 *   (hashmap.h: open addressing, backward-shift erase) takes a state pointer to its
 *   slot; it is only ever probed, never iterated, so addresses cannot influence a choice.
 *   Each sub-searcher (one per kind; several when interleaved) works on slots only:
 *
 *     dfs, bfs       a doubly linked list threaded through slot-indexed prev/next arrays:
 *                    O(1) push at the back, unlink anywhere, front and back.
 *     random-state   a dense array of slots with each slot's position: remove = move the
 *                    last element into the hole (order inside the array does not matter).
 *     nurs:covnew    the same dense array plus a sum tree over positions:
 *
 *                                   sum[1] = total
 *                          sum[2]                 sum[3]
 *                      sum[4]   sum[5]        sum[6]   sum[7]
 *                      w(p0)    w(p1)         w(p2)    w(p3)      leaves: sum[tcap + pos]
 *
 *                    every inner node is recomputed as left + right along the path of a
 *                    change (never patched with a difference), so a subtree of zero weights
 *                    sums to exactly 0 and is never entered by the descent.
 *     random-path    a full binary tree of nodes: a leaf per live state, an inner node per
 *                    fork with live states on both sides. A fork turns the parent's leaf into
 *                    an inner node over two new leaves (kid[0] the child, kid[1] the parent);
 *                    a removal frees the leaf and splices out its parent, whose other kid
 *                    takes its place. KLEE instead keeps one-child nodes and walks through
 *                    them without a coin flip: the probabilities are the same, our walks are
 *                    shorter.
 *
 *   Fast-forwarding keeps the marked slots in groups, one per key: each group a list of its
 *   slots in the order they were marked (select takes the tail), the groups in a list by
 *   key, ascending (select takes the first), and an hmap from key to group. A group exists
 *   while it has a member, so there are never more groups than slots; the group arrays are
 *   sized by the slot capacity too.
 *
 *   Slot-indexed arrays are all sized by the slot capacity (a power of two), and so is the
 *   random-path node pool (2 × slots: a full binary tree over n leaves has 2n − 1 nodes) and
 *   the sum tree's leaf row: growing the slots grows everything at once, so no other
 *   operation ever reallocates.
 *
 * Randomness: xoshiro256** per sub-searcher, seeded by splitmix64 from the searcher's seed
 * and the sub-searcher's index; bounded integers by rejection (no modulo bias); random-path
 * draws one 64-bit number per 64 coin flips, as KLEE does per 32.
 */
#include "engine/exec/search.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

#define NIL UINT32_MAX
#define WEIGHT_MAX 1e200
#define FIRST_SLOTS 64u

/* ---- allocation and randomness ------------------------------------------------------ */

typedef struct rng {
  uint64_t s[4];
} rng;

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(rng *r) { /* xoshiro256** */
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

static uint64_t rng_below(rng *r, uint64_t n) { /* uniform in [0, n) */
  assert(n > 0);
  uint64_t reject_below = (0 - n) % n; /* 2^64 mod n: [this, 2^64) is a multiple of n long */
  for (;;) {
    uint64_t x = rng_next(r);
    if (x >= reject_below) return x % n;
  }
}

static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; } /* [0, 1) */

/* ---- sub-searchers ------------------------------------------------------------------ */

typedef struct rp_node {
  uint32_t parent, kid[2]; /* a free node chains the free list through kid[0] */
  uint32_t slot;           /* a leaf's state; NIL for an inner node */
} rp_node;

/* A doubly linked list of slots threaded through slot-indexed arrays. */
typedef struct slot_list {
  uint32_t head, tail;
  uint32_t *prev, *next;
} slot_list;

typedef struct sub {
  search_kind kind;
  rng r;
  uint64_t bits; /* random-path: unused coin flips, n_bits of them */
  unsigned n_bits;
  slot_list list; /* dfs, bfs */
  /* random-state, covnew */
  uint32_t *order, *pos; /* order[position] = slot; pos[slot] = position */
  uint32_t n;
  double *sum; /* covnew: 2 × tcap entries, sum[0] unused */
  uint32_t tcap;
  /* random-path */
  rp_node *node;
  uint32_t *leaf; /* leaf[slot] = its node */
  uint32_t root, n_node, free_node;
} sub;

struct search {
  sub *sub;
  size_t n_sub, next_sub;
  bool has_covnew;
  search_hooks hooks;
  /* slots */
  void **state;
  search_state_info *info;
  double *weight; /* the last weight read, for covnew */
  uint32_t *free_slot;
  uint32_t cap_slot, n_slot, n_free, live; /* n_slot: slots ever handed out */
  hmap slot_of;                            /* state pointer → slot */
  uint32_t group_parent; /* the parent of the forks since the last select or remove */
  /* fast-forwarding. Slot-indexed: the key a slot is marked with (0: none), its group and
   * its links among the group's members. Group-indexed: the key, the members' list, the
   * links among the groups (by key) and, for a free group, the next free one in gnext. */
  uint64_t *ff_key;
  uint32_t *ff_group, *ff_prev, *ff_next;
  uint64_t *gkey;
  uint32_t *ghead, *gtail, *gprev, *gnext;
  uint32_t gfirst, glast, gfree, gused;
  hmap group_of;             /* key → group */
  uint32_t ff_delta, ff_run; /* the limit, and the marked selections in a row so far */
  bool ff_ignored;           /* dfs alone */
  search_stats stats;
};

static void tree_set(sub *b, uint32_t pos, double w) {
  size_t i = (size_t)b->tcap + pos;
  b->sum[i] = w;
  for (i >>= 1; i; i >>= 1) b->sum[i] = b->sum[2 * i] + b->sum[2 * i + 1];
}

static void tree_rebuild(sub *b) {
  for (size_t i = b->tcap - 1; i >= 1; i--) b->sum[i] = b->sum[2 * i] + b->sum[2 * i + 1];
}

static void list_grow(slot_list *l, uint32_t cap) {
  l->prev = xreallocarray(l->prev, cap, sizeof *l->prev);
  l->next = xreallocarray(l->next, cap, sizeof *l->next);
}

static void sub_grow(sub *b, uint32_t old_cap, uint32_t cap) {
  switch (b->kind) {
  case SEARCH_DFS:
  case SEARCH_BFS: list_grow(&b->list, cap); break;
  case SEARCH_RANDOM_STATE:
  case SEARCH_COVNEW:
    b->order = xreallocarray(b->order, cap, sizeof *b->order);
    b->pos = xreallocarray(b->pos, cap, sizeof *b->pos);
    if (b->kind == SEARCH_COVNEW) {
      double *sum = xcalloc(2 * (size_t)cap, sizeof *sum);
      if (b->sum) memcpy(sum + cap, b->sum + old_cap, old_cap * sizeof *sum);
      free(b->sum);
      b->sum = sum;
      b->tcap = cap;
      tree_rebuild(b);
    }
    break;
  case SEARCH_RANDOM_PATH:
    b->leaf = xreallocarray(b->leaf, cap, sizeof *b->leaf);
    b->node = xreallocarray(b->node, 2 * (size_t)cap, sizeof *b->node);
    break;
  }
}

/* lists */

/* Lists threaded through index-addressed prev/next arrays: x goes after `at` (NIL: first). */
static void link_after(uint32_t *head, uint32_t *tail, uint32_t *prev, uint32_t *next, uint32_t at,
                       uint32_t x) {
  uint32_t after = at == NIL ? *head : next[at];
  prev[x] = at;
  next[x] = after;
  if (at == NIL) *head = x;
  else
    next[at] = x;
  if (after == NIL) *tail = x;
  else
    prev[after] = x;
}

static void link_remove(uint32_t *head, uint32_t *tail, uint32_t *prev, uint32_t *next,
                        uint32_t x) {
  uint32_t p = prev[x], n = next[x];
  if (p == NIL) *head = n;
  else
    next[p] = n;
  if (n == NIL) *tail = p;
  else
    prev[n] = p;
  prev[x] = next[x] = NIL;
}

static void list_push_back(slot_list *l, uint32_t slot) {
  link_after(&l->head, &l->tail, l->prev, l->next, l->tail, slot);
}

static void list_unlink(slot_list *l, uint32_t slot) {
  link_remove(&l->head, &l->tail, l->prev, l->next, slot);
}

/* dense arrays */

static void array_push(sub *b, uint32_t slot, double w) {
  b->pos[slot] = b->n;
  b->order[b->n] = slot;
  if (b->kind == SEARCH_COVNEW) tree_set(b, b->n, w);
  b->n++;
}

static void array_remove(sub *b, uint32_t slot) {
  uint32_t i = b->pos[slot], last = --b->n;
  assert(i <= last && b->order[i] == slot);
  if (i != last) {
    uint32_t moved = b->order[last];
    b->order[i] = moved;
    b->pos[moved] = i;
    if (b->kind == SEARCH_COVNEW) tree_set(b, i, b->sum[(size_t)b->tcap + last]);
  }
  if (b->kind == SEARCH_COVNEW) tree_set(b, last, 0.0);
  b->pos[slot] = NIL;
}

static uint32_t covnew_pick(sub *b) {
  assert(b->n > 0);
  double total = b->sum[1];
  if (!(total > 0)) return b->order[rng_below(&b->r, b->n)];
  double r = rng_unit(&b->r) * total;
  size_t i = 1;
  /* invariant: sum[i] > 0. Rounding can leave r ≥ the sum of the side it heads for; testing
   * the zero sides first means it still never ends on a leaf that weighs 0. */
  while (i < b->tcap) {
    double left = b->sum[2 * i], right = b->sum[2 * i + 1];
    if (right == 0 || (left > 0 && r < left)) {
      i = 2 * i;
    } else {
      r -= left;
      i = 2 * i + 1;
    }
  }
  uint32_t pos = (uint32_t)(i - b->tcap);
  assert(pos < b->n && b->sum[i] > 0);
  return b->order[pos];
}

/* the random-path tree */

static uint32_t node_new(sub *b, uint32_t parent, uint32_t slot) {
  uint32_t i = b->free_node;
  if (i != NIL) b->free_node = b->node[i].kid[0];
  else
    i = b->n_node++;
  b->node[i] = (rp_node){.parent = parent, .kid = {NIL, NIL}, .slot = slot};
  if (slot != NIL) b->leaf[slot] = i;
  return i;
}

static void node_free(sub *b, uint32_t i) {
  b->node[i] = (rp_node){.parent = NIL, .kid = {b->free_node, NIL}, .slot = NIL};
  b->free_node = i;
}

static void rp_add(sub *b, uint32_t slot) {
  uint32_t l = node_new(b, NIL, slot);
  if (b->root == NIL) {
    b->root = l;
    return;
  }
  /* another initial state: it and everything before it hang under a new root */
  uint32_t top = node_new(b, NIL, NIL);
  b->node[top].kid[0] = l;
  b->node[top].kid[1] = b->root;
  b->node[l].parent = b->node[b->root].parent = top;
  b->root = top;
}

static void rp_fork(sub *b, uint32_t parent, uint32_t child) {
  uint32_t at = b->leaf[parent];
  b->node[at].slot = NIL;
  uint32_t c = node_new(b, at, child), p = node_new(b, at, parent);
  b->node[at].kid[0] = c;
  b->node[at].kid[1] = p;
}

static void rp_remove(sub *b, uint32_t slot) {
  uint32_t l = b->leaf[slot], up = b->node[l].parent;
  b->leaf[slot] = NIL;
  node_free(b, l);
  if (up == NIL) {
    b->root = NIL;
    return;
  }
  /* `up` has one live side left: splice it out, its other kid takes its place */
  uint32_t other = b->node[up].kid[b->node[up].kid[0] == l ? 1 : 0], grand = b->node[up].parent;
  b->node[other].parent = grand;
  if (grand == NIL) b->root = other;
  else
    b->node[grand].kid[b->node[grand].kid[0] == up ? 0 : 1] = other;
  node_free(b, up);
}

static uint32_t rp_pick(sub *b) {
  uint32_t i = b->root;
  assert(i != NIL);
  while (b->node[i].slot == NIL) {
    if (!b->n_bits) {
      b->bits = rng_next(&b->r);
      b->n_bits = 64;
    }
    b->n_bits--;
    i = b->node[i].kid[(b->bits >> b->n_bits) & 1];
  }
  return b->node[i].slot;
}

/* dispatch */

static void sub_add(search *s, sub *b, uint32_t slot) {
  switch (b->kind) {
  case SEARCH_DFS:
  case SEARCH_BFS: list_push_back(&b->list, slot); break;
  case SEARCH_RANDOM_STATE:
  case SEARCH_COVNEW: array_push(b, slot, s->weight[slot]); break;
  case SEARCH_RANDOM_PATH: rp_add(b, slot); break;
  }
}

/* new_group: the first fork of `parent` since the last select or remove */
static void sub_fork(search *s, sub *b, uint32_t parent, uint32_t child, bool new_group) {
  switch (b->kind) {
  case SEARCH_DFS: list_push_back(&b->list, child); break;
  case SEARCH_BFS:
    if (new_group) {
      list_unlink(&b->list, parent);
      list_push_back(&b->list, parent);
    }
    list_push_back(&b->list, child);
    break;
  case SEARCH_RANDOM_STATE: array_push(b, child, 0.0); break;
  case SEARCH_COVNEW:
    tree_set(b, b->pos[parent], s->weight[parent]);
    array_push(b, child, s->weight[child]);
    break;
  case SEARCH_RANDOM_PATH: rp_fork(b, parent, child); break;
  }
}

static void sub_remove(sub *b, uint32_t slot) {
  switch (b->kind) {
  case SEARCH_DFS:
  case SEARCH_BFS: list_unlink(&b->list, slot); break;
  case SEARCH_RANDOM_STATE:
  case SEARCH_COVNEW: array_remove(b, slot); break;
  case SEARCH_RANDOM_PATH: rp_remove(b, slot); break;
  }
}

static uint32_t sub_pick(sub *b) {
  switch (b->kind) {
  case SEARCH_DFS: return b->list.tail;
  case SEARCH_BFS: return b->list.head;
  case SEARCH_RANDOM_STATE: return b->order[rng_below(&b->r, b->n)];
  case SEARCH_COVNEW: return covnew_pick(b);
  case SEARCH_RANDOM_PATH: return rp_pick(b);
  }
  return NIL;
}

/* ---- slots and the pointer map ------------------------------------------------------ */

static uint32_t map_find(const search *s, const void *p) {
  uint64_t slot;
  return hmap_get(&s->slot_of, (uint64_t)(uintptr_t)p, &slot) ? (uint32_t)slot : NIL;
}

static void grow_slots(search *s) {
  uint32_t old = s->cap_slot, cap = old ? old * 2 : FIRST_SLOTS;
  if (cap <= old || cap > UINT32_MAX / 4) xalloc_oom(); /* node indices must stay below NIL */
  s->state = xreallocarray(s->state, cap, sizeof *s->state);
  s->info = xreallocarray(s->info, cap, sizeof *s->info);
  s->weight = xreallocarray(s->weight, cap, sizeof *s->weight);
  s->free_slot = xreallocarray(s->free_slot, cap, sizeof *s->free_slot);
  s->ff_key = xreallocarray(s->ff_key, cap, sizeof *s->ff_key);
  memset(s->ff_key + old, 0, (cap - old) * sizeof *s->ff_key);
  s->ff_group = xreallocarray(s->ff_group, cap, sizeof *s->ff_group);
  s->ff_prev = xreallocarray(s->ff_prev, cap, sizeof *s->ff_prev);
  s->ff_next = xreallocarray(s->ff_next, cap, sizeof *s->ff_next);
  s->gkey = xreallocarray(s->gkey, cap, sizeof *s->gkey);
  s->ghead = xreallocarray(s->ghead, cap, sizeof *s->ghead);
  s->gtail = xreallocarray(s->gtail, cap, sizeof *s->gtail);
  s->gprev = xreallocarray(s->gprev, cap, sizeof *s->gprev);
  s->gnext = xreallocarray(s->gnext, cap, sizeof *s->gnext);
  for (size_t k = 0; k < s->n_sub; k++) sub_grow(&s->sub[k], old, cap);
  s->cap_slot = cap;
}

/* Misuse by the caller (a state added twice, or removed or forked while not live) is a bug
 * in the interpreter that would corrupt every structure here: it stops the program even
 * where assertions are compiled out, since the check costs one probe we make anyway. */
static void misuse(const char *what, const void *state) __attribute__((noreturn));
static void misuse(const char *what, const void *state) {
  fprintf(stderr, "symq: internal error: search: %s (state %p)\n", what, state);
  abort();
}

static uint32_t slot_new(search *s, void *state, search_state_info info) {
  if (!state) misuse("NULL state", state);
  if (map_find(s, state) != NIL) misuse("state added twice", state);
  uint32_t slot;
  if (s->n_free) {
    slot = s->free_slot[--s->n_free];
  } else {
    if (s->n_slot == s->cap_slot) grow_slots(s);
    slot = s->n_slot++;
  }
  s->state[slot] = state;
  s->info[slot] = info;
  s->weight[slot] = 0.0;
  hmap_put(&s->slot_of, (uint64_t)(uintptr_t)state, slot);
  if (++s->live > s->stats.peak_states) s->stats.peak_states = s->live;
  return slot;
}

static uint32_t slot_of(const search *s, const void *state) {
  uint32_t slot = state ? map_find(s, state) : NIL;
  if (slot == NIL) misuse("state not live in the searcher", state);
  return slot;
}

/* The slot leaves its fast-forward group (if marked); an emptied group is freed. */
static void ff_unmark(search *s, uint32_t slot) {
  if (!s->ff_key[slot]) return;
  uint32_t g = s->ff_group[slot];
  link_remove(&s->ghead[g], &s->gtail[g], s->ff_prev, s->ff_next, slot);
  s->ff_key[slot] = 0;
  if (s->ghead[g] != NIL) return;
  link_remove(&s->gfirst, &s->glast, s->gprev, s->gnext, g);
  hmap_erase(&s->group_of, s->gkey[g]);
  s->gnext[g] = s->gfree;
  s->gfree = g;
}

static void read_weight(search *s, uint32_t slot) {
  double w = 1.0;
  if (s->hooks.weight) {
    s->stats.weight_reads++;
    w = s->hooks.weight(s->state[slot], s->hooks.ctx);
  }
  if (!(w > 0)) w = 0.0; /* NaN too */
  else if (w > WEIGHT_MAX)
    w = WEIGHT_MAX;
  s->weight[slot] = w;
}

/* ---- the interface ------------------------------------------------------------------ */

static const struct {
  const char *name;
  search_kind kind;
} names[] = {
    {"dfs", SEARCH_DFS},
    {"bfs", SEARCH_BFS},
    {"random-state", SEARCH_RANDOM_STATE},
    {"random-path", SEARCH_RANDOM_PATH},
    {"nurs:covnew", SEARCH_COVNEW},
    {"covnew", SEARCH_COVNEW},
};

bool search_parse(const char *name, search_kind *out) {
  if (!name) return false;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    if (strcmp(name, names[i].name) == 0) {
      *out = names[i].kind;
      return true;
    }
  }
  return false;
}

const char *search_kind_name(search_kind kind) {
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].kind == kind) return names[i].name;
  return "?";
}

search *search_new(const search_kind *kinds, size_t n_kinds, uint64_t seed,
                   const search_hooks *hooks) {
  assert(kinds && n_kinds >= 1);
  search *s = xcalloc(1, sizeof *s);
  s->sub = xcalloc(n_kinds, sizeof *s->sub);
  s->n_sub = n_kinds;
  if (hooks) s->hooks = *hooks;
  s->group_parent = NIL;
  s->gfirst = s->glast = s->gfree = NIL;
  s->ff_ignored = true;
  uint64_t mix = seed;
  for (size_t k = 0; k < n_kinds; k++) {
    sub *b = &s->sub[k];
    assert((unsigned)kinds[k] < SEARCH_NUM_KINDS);
    b->kind = kinds[k];
    for (int i = 0; i < 4; i++) b->r.s[i] = splitmix64(&mix); /* never all zero: bijection */
    b->list.head = b->list.tail = b->root = b->free_node = NIL;
    if (b->kind == SEARCH_COVNEW) s->has_covnew = true;
    if (b->kind != SEARCH_DFS) s->ff_ignored = false;
  }
  grow_slots(s);
  return s;
}

void search_free(search *s) {
  if (!s) return;
  for (size_t k = 0; k < s->n_sub; k++) {
    sub *b = &s->sub[k];
    free(b->list.prev);
    free(b->list.next);
    free(b->order);
    free(b->pos);
    free(b->sum);
    free(b->node);
    free(b->leaf);
  }
  free(s->sub);
  free(s->state);
  free(s->info);
  free(s->weight);
  free(s->free_slot);
  free(s->ff_key);
  free(s->ff_group);
  free(s->ff_prev);
  free(s->ff_next);
  free(s->gkey);
  free(s->ghead);
  free(s->gtail);
  free(s->gprev);
  free(s->gnext);
  hmap_free(&s->group_of);
  hmap_free(&s->slot_of);
  free(s);
}

void search_add_initial(search *s, void *state, search_state_info info) {
  uint32_t slot = slot_new(s, state, info);
  if (s->has_covnew) read_weight(s, slot);
  for (size_t k = 0; k < s->n_sub; k++) sub_add(s, &s->sub[k], slot);
  s->group_parent = NIL;
  s->stats.adds++;
}

void search_fork(search *s, void *parent, void *child, search_state_info child_info) {
  uint32_t p = slot_of(s, parent);
  uint32_t c = slot_new(s, child, child_info);
  s->info[p].depth = child_info.depth;
  bool new_group = s->group_parent != p;
  s->group_parent = p;
  if (s->has_covnew) {
    read_weight(s, p);
    read_weight(s, c);
  }
  for (size_t k = 0; k < s->n_sub; k++) sub_fork(s, &s->sub[k], p, c, new_group);
  s->stats.forks++;
}

void search_remove(search *s, void *state) {
  uint32_t slot = slot_of(s, state);
  for (size_t k = 0; k < s->n_sub; k++) sub_remove(&s->sub[k], slot);
  ff_unmark(s, slot);
  hmap_erase(&s->slot_of, (uint64_t)(uintptr_t)state);
  s->state[slot] = NULL;
  s->free_slot[s->n_free++] = slot;
  s->live--;
  s->group_parent = NIL;
  s->stats.removes++;
}

void *search_select(search *s) {
  s->group_parent = NIL;
  if (!s->live) return NULL;
  uint32_t slot;
  if (s->gfirst != NIL && s->ff_run < s->ff_delta && !s->ff_ignored) {
    s->ff_run++;
    slot = s->gtail[s->gfirst];
    s->stats.fast_forwards++;
  } else {
    s->ff_run = 0;
    sub *b = &s->sub[s->next_sub];
    s->next_sub = (s->next_sub + 1) % s->n_sub;
    slot = sub_pick(b);
  }
  assert(slot < s->n_slot && s->state[slot]);
  s->stats.selects++;
  return s->state[slot];
}

size_t search_count(const search *s) { return s->live; }

void search_update(search *s, void *state) {
  uint32_t slot = slot_of(s, state);
  if (!s->has_covnew) return;
  read_weight(s, slot);
  for (size_t k = 0; k < s->n_sub; k++)
    if (s->sub[k].kind == SEARCH_COVNEW) tree_set(&s->sub[k], s->sub[k].pos[slot], s->weight[slot]);
}

void search_update_weights(search *s) {
  if (!s->has_covnew) return;
  /* read in the order of the first covnew array, so the hook sees a deterministic order */
  sub *first = NULL;
  for (size_t k = 0; k < s->n_sub && !first; k++)
    if (s->sub[k].kind == SEARCH_COVNEW) first = &s->sub[k];
  for (uint32_t i = 0; i < first->n; i++) read_weight(s, first->order[i]);
  for (size_t k = 0; k < s->n_sub; k++) {
    sub *b = &s->sub[k];
    if (b->kind != SEARCH_COVNEW) continue;
    for (uint32_t i = 0; i < b->n; i++) b->sum[(size_t)b->tcap + i] = s->weight[b->order[i]];
    tree_rebuild(b);
  }
}

void search_set_fast_forward(search *s, uint32_t delta) {
  s->ff_delta = delta;
  s->ff_run = 0;
}

void search_fast_forward(search *s, void *state, uint64_t key) {
  uint32_t slot = slot_of(s, state);
  if (s->ff_key[slot] == key) return;
  ff_unmark(s, slot);
  if (!key) return;
  uint64_t found;
  uint32_t g;
  if (hmap_get(&s->group_of, key, &found)) {
    g = (uint32_t)found;
  } else {
    if (s->gfree != NIL) {
      g = s->gfree;
      s->gfree = s->gnext[g];
    } else {
      g = s->gused++;
    }
    assert(g < s->cap_slot);
    s->gkey[g] = key;
    s->ghead[g] = s->gtail[g] = NIL;
    uint32_t at = s->glast; /* keys mostly come in ascending order: a short walk back */
    while (at != NIL && s->gkey[at] > key) at = s->gprev[at];
    link_after(&s->gfirst, &s->glast, s->gprev, s->gnext, at, g);
    hmap_put(&s->group_of, key, g);
  }
  link_after(&s->ghead[g], &s->gtail[g], s->ff_prev, s->ff_next, s->gtail[g], slot);
  s->ff_group[slot] = g;
  s->ff_key[slot] = key;
}

const search_state_info *search_info(const search *s, const void *state) {
  uint32_t slot = state ? map_find(s, state) : NIL;
  return slot == NIL ? NULL : &s->info[slot];
}

const search_stats *search_get_stats(const search *s) { return &s->stats; }

/* ---- consistency check -------------------------------------------------------------- */

#define CHECK_THAT(cond, ...)            \
  do {                                   \
    if (!(cond)) {                       \
      fprintf(stderr, "search_check: "); \
      fprintf(stderr, __VA_ARGS__);      \
      fputc('\n', stderr);               \
      ok = false;                        \
      goto done;                         \
    }                                    \
  } while (0)

bool search_check(const search *s) {
  bool ok = true;
  uint32_t n = s->n_slot;
  unsigned char *is_free = xcalloc(n, 1), *seen = xcalloc(n, 1);
  uint32_t *stack = xmalloc((4 * (size_t)s->cap_slot + 2) * sizeof *stack);

  /* slots and the map */
  CHECK_THAT(n <= s->cap_slot && s->n_free <= n, "slot counts %u/%u/%u", s->n_free, n, s->cap_slot);
  for (uint32_t i = 0; i < s->n_free; i++) {
    uint32_t f = s->free_slot[i];
    CHECK_THAT(f < n && !is_free[f], "free slot %u out of range or listed twice", f);
    is_free[f] = 1;
  }
  CHECK_THAT(n - s->n_free == s->live, "live %u, slots in use %u", s->live, n - s->n_free);
  for (uint32_t i = 0; i < n; i++) {
    if (is_free[i]) {
      CHECK_THAT(!s->state[i], "free slot %u holds a state", i);
    } else {
      CHECK_THAT(s->state[i] && map_find(s, s->state[i]) == i,
                 "slot %u (id %" PRIu64 ") not found through the map", i, s->info[i].id);
      if (s->has_covnew) CHECK_THAT(s->weight[i] >= 0 && s->weight[i] <= WEIGHT_MAX, "weight");
    }
  }
  size_t in_map = 0;
  for (size_t i = 0; i < s->slot_of.cap; i++) {
    if (!s->slot_of.keys[i]) continue;
    in_map++;
    uint64_t v = s->slot_of.vals[i];
    CHECK_THAT(v < n && !is_free[v] && (uint64_t)(uintptr_t)s->state[v] == s->slot_of.keys[i],
               "map entry %zu stale", i);
  }
  CHECK_THAT(in_map == s->live, "map holds %zu, live %u", in_map, s->live);
  CHECK_THAT(s->next_sub < s->n_sub, "round-robin index");
  /* fast-forward groups: ascending keys, none empty, each member marked with its key */
  uint32_t n_marked = 0, n_groups = 0, g_prev = NIL;
  for (uint32_t g = s->gfirst; g != NIL; g_prev = g, g = s->gnext[g]) {
    uint64_t found;
    CHECK_THAT(g < s->gused && n_groups < s->live && s->gprev[g] == g_prev,
               "fast-forward: group list at group %u", g);
    CHECK_THAT(g_prev == NIL || s->gkey[g_prev] < s->gkey[g], "fast-forward: keys out of order");
    CHECK_THAT(hmap_get(&s->group_of, s->gkey[g], &found) && found == g,
               "fast-forward: key %" PRIu64 " not mapped to its group", s->gkey[g]);
    CHECK_THAT(s->ghead[g] != NIL, "fast-forward: empty group %u", g);
    n_groups++;
    uint32_t m_prev = NIL;
    for (uint32_t i = s->ghead[g]; i != NIL; m_prev = i, i = s->ff_next[i]) {
      CHECK_THAT(i < n && !is_free[i] && s->ff_key[i] == s->gkey[g] && s->ff_group[i] == g &&
                     s->ff_prev[i] == m_prev && n_marked < s->live,
                 "fast-forward: group %u holds slot %u wrongly", g, i);
      n_marked++;
    }
    CHECK_THAT(s->gtail[g] == m_prev, "fast-forward: tail of group %u", g);
  }
  CHECK_THAT(s->glast == g_prev, "fast-forward: last group");
  CHECK_THAT(s->group_of.count == n_groups, "fast-forward: %zu keys mapped, %u groups",
             s->group_of.count, n_groups);
  for (uint32_t i = 0; i < s->cap_slot; i++) n_marked -= s->ff_key[i] != 0;
  CHECK_THAT(n_marked == 0, "fast-forward: marks and groups disagree");

  for (size_t k = 0; k < s->n_sub; k++) {
    const sub *b = &s->sub[k];
    const char *kn = search_kind_name(b->kind);
    memset(seen, 0, n ? n : 1);
    switch (b->kind) {
    case SEARCH_DFS:
    case SEARCH_BFS: {
      uint32_t count = 0, prev = NIL;
      for (uint32_t i = b->list.head; i != NIL; prev = i, i = b->list.next[i]) {
        CHECK_THAT(i < n && !is_free[i] && !seen[i], "%s: list holds slot %u wrongly", kn, i);
        CHECK_THAT(b->list.prev[i] == prev, "%s: prev link of slot %u", kn, i);
        seen[i] = 1;
        count++;
      }
      CHECK_THAT(b->list.tail == prev, "%s: tail", kn);
      CHECK_THAT(count == s->live, "%s: list holds %u of %u states", kn, count, s->live);
      break;
    }
    case SEARCH_RANDOM_STATE:
    case SEARCH_COVNEW:
      CHECK_THAT(b->n == s->live, "%s: array holds %u of %u states", kn, b->n, s->live);
      for (uint32_t i = 0; i < b->n; i++) {
        uint32_t slot = b->order[i];
        CHECK_THAT(slot < n && !is_free[slot] && !seen[slot] && b->pos[slot] == i,
                   "%s: position %u", kn, i);
        seen[slot] = 1;
      }
      if (b->kind == SEARCH_COVNEW) {
        CHECK_THAT(b->tcap == s->cap_slot, "%s: tree size", kn);
        for (uint32_t i = 0; i < b->tcap; i++) {
          double want = i < b->n ? s->weight[b->order[i]] : 0.0;
          CHECK_THAT(b->sum[(size_t)b->tcap + i] == want, "%s: leaf %u is %g, want %g", kn, i,
                     b->sum[(size_t)b->tcap + i], want);
        }
        for (size_t i = b->tcap - 1; i >= 1; i--)
          CHECK_THAT(b->sum[i] == b->sum[2 * i] + b->sum[2 * i + 1], "%s: sum node %zu", kn, i);
      }
      break;
    case SEARCH_RANDOM_PATH: {
      uint32_t leaves = 0, nodes = 0, depth = 0;
      if (b->root == NIL) {
        CHECK_THAT(s->live == 0, "random-path: empty tree, %u states", s->live);
      } else {
        CHECK_THAT(b->node[b->root].parent == NIL, "random-path: root has a parent");
        depth = 1;
        stack[0] = b->root;
        while (depth) {
          uint32_t i = stack[--depth];
          CHECK_THAT(i < b->n_node && nodes < 2 * s->live, "random-path: node %u", i);
          nodes++;
          const rp_node *x = &b->node[i];
          if (x->slot != NIL) {
            CHECK_THAT(x->kid[0] == NIL && x->kid[1] == NIL, "random-path: leaf with kids");
            CHECK_THAT(x->slot < n && !is_free[x->slot] && !seen[x->slot] && b->leaf[x->slot] == i,
                       "random-path: leaf %u for slot %u", i, x->slot);
            seen[x->slot] = 1;
            leaves++;
          } else {
            for (int c = 0; c < 2; c++) {
              CHECK_THAT(x->kid[c] != NIL && b->node[x->kid[c]].parent == i,
                         "random-path: kid %d of node %u", c, i);
              stack[depth++] = x->kid[c];
            }
          }
        }
      }
      CHECK_THAT(leaves == s->live && nodes == (s->live ? 2 * s->live - 1 : 0),
                 "random-path: %u leaves, %u nodes for %u states", leaves, nodes, s->live);
      uint32_t free_nodes = 0;
      for (uint32_t i = b->free_node; i != NIL; i = b->node[i].kid[0]) {
        CHECK_THAT(i < b->n_node && free_nodes < b->n_node, "random-path: free list");
        free_nodes++;
      }
      CHECK_THAT(free_nodes + nodes == b->n_node, "random-path: %u free + %u used of %u",
                 free_nodes, nodes, b->n_node);
      break;
    }
    }
  }
done:
  free(is_free);
  free(seen);
  free(stack);
  return ok;
}
