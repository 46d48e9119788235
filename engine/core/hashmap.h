/*
 * hashmap — symq's two hash tables, written once:
 *
 *   hchain  an intrusive chained table (power-of-two buckets, one link per item): the items
 *           are the caller's own structs, which hold their 64-bit hash and their link at
 *           offsets the caller passes; lookup walks one bucket and the caller compares.
 *           For tables whose items exist anyway and must not move (expr's unique tables,
 *           bitcode.c's library index, the solver's validity cache). To visit every item
 *           (to free them), walk each of buckets[0 .. mask] along the links.
 *   hmap    an open-addressing map from a nonzero 64-bit key to a 64-bit value (linear
 *           probing, at most half full, capacity a power of two from 64, backward-shift
 *           erase). For side tables keyed by a pointer or an id.
 *
 * Contract
 *   - Lookups are static inline: expression interning, the hottest code of symq, pays no
 *     call and no indirect comparison (the link offset is a constant where it is inlined).
 *   - Growth allocates through xalloc (out of memory ends the run), except hmap_try_reserve,
 *     which reports it, for ir_decode's recoverable decoding. A zeroed struct is an empty
 *     table; *_free releases it and leaves it empty.
 *   - hmap's slot order depends only on the keys inserted since the last reset and the
 *     capacity, so a walk over `keys` (0 = empty slot) is deterministic. Keys are never 0.
 *   - Not thread-safe.
 */
#ifndef SYMQ_HASHMAP_H
#define SYMQ_HASHMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- hchain ------------------------------------------------------------------------- */

typedef struct hchain {
  void **buckets;
  size_t mask, count;
} hchain;

#define HCHAIN_LINK(item, link_off) (*(void **)((char *)(item) + (link_off)))

/* Grows the table (first to `first_size` buckets) when it holds as many items as buckets;
 * hash_off is the offset of each item's uint64_t hash. */
void hchain_grow(hchain *t, size_t first_size, size_t link_off, size_t hash_off);
void hchain_free(hchain *t);

static inline bool hchain_is_full(const hchain *t) {
  return !t->buckets || t->count >= t->mask + 1;
}

/* The first item of hash's bucket (walk on with HCHAIN_LINK); the table must not be empty
 * of buckets (hchain_grow once first). */
static inline void *hchain_bucket(const hchain *t, uint64_t hash) {
  return t->buckets[hash & t->mask];
}

static inline void hchain_insert(hchain *t, void *item, uint64_t hash, size_t link_off) {
  void **b = &t->buckets[hash & t->mask];
  HCHAIN_LINK(item, link_off) = *b;
  *b = item;
  t->count++;
}

/* Unlinks an item that is in the table. */
static inline void hchain_remove(hchain *t, void *item, uint64_t hash, size_t link_off) {
  void **p = &t->buckets[hash & t->mask];
  while (*p != item) p = &HCHAIN_LINK(*p, link_off);
  *p = HCHAIN_LINK(item, link_off);
  t->count--;
}

/* ---- hmap --------------------------------------------------------------------------- */

typedef struct hmap {
  uint64_t *keys; /* 0 = empty */
  uint64_t *vals;
  size_t cap, count;
} hmap;

static inline uint64_t hmap_hash(uint64_t x) { /* MurmurHash3's finalizer */
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

/* The slot of key, or of the empty slot where it would go (the map has a capacity). */
static inline size_t hmap_slot(const hmap *m, uint64_t key) {
  size_t mask = m->cap - 1, i = (size_t)hmap_hash(key) & mask;
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & mask;
  return i;
}

static inline bool hmap_get(const hmap *m, uint64_t key, uint64_t *val) {
  if (!m->count) return false;
  size_t i = hmap_slot(m, key);
  if (!m->keys[i]) return false;
  if (val) *val = m->vals[i];
  return true;
}

void hmap_put(hmap *m, uint64_t key, uint64_t val); /* inserts or replaces */
bool hmap_erase(hmap *m, uint64_t key);             /* false: it was not there */
/* Makes room for `n` entries in all; false when out of memory (nothing changed then). */
bool hmap_try_reserve(hmap *m, size_t n);
/* Empties the map, sized for about `expect` entries (kept when the size is close). */
void hmap_reset(hmap *m, size_t expect);
void hmap_clear(hmap *m); /* empties it, keeping its capacity */
void hmap_free(hmap *m);

#endif
