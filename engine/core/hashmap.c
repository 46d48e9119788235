/*
 * hashmap.c — growth, erase and reset of the tables in hashmap.h (lookups are inline
 * there).
 */
#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* ---- hchain ------------------------------------------------------------------------- */

void hchain_grow(hchain *t, size_t first_size, size_t link_off, size_t hash_off) {
  assert(first_size && (first_size & (first_size - 1)) == 0);
  size_t old_size = t->buckets ? t->mask + 1 : 0;
  size_t size = old_size ? old_size * 2 : first_size;
  void **buckets = xcalloc(size, sizeof *buckets);
  for (size_t i = 0; i < old_size; i++) {
    for (void *item = t->buckets[i], *next; item; item = next) {
      next = HCHAIN_LINK(item, link_off);
      size_t b = *(const uint64_t *)((const char *)item + hash_off) & (size - 1);
      HCHAIN_LINK(item, link_off) = buckets[b];
      buckets[b] = item;
    }
  }
  free(t->buckets);
  t->buckets = buckets;
  t->mask = size - 1;
}

void hchain_free(hchain *t) {
  free(t->buckets);
  *t = (hchain){0};
}

/* ---- hmap --------------------------------------------------------------------------- */

#define HMAP_FIRST_CAP 64

/* Moves the entries into new storage of `cap` slots (in slot order: the layout stays a
 * function of the keys). False, with m unchanged, when out of memory. */
static bool rehash(hmap *m, size_t cap) {
  uint64_t *keys = xalloc_try_realloc(NULL, cap * sizeof *keys);
  uint64_t *vals = keys ? xalloc_try_realloc(NULL, cap * sizeof *vals) : NULL;
  if (!vals) {
    free(keys);
    return false;
  }
  memset(keys, 0, cap * sizeof *keys);
  hmap old = *m;
  *m = (hmap){.keys = keys, .vals = vals, .cap = cap};
  for (size_t i = 0; i < old.cap; i++)
    if (old.keys[i]) {
      size_t j = hmap_slot(m, old.keys[i]);
      m->keys[j] = old.keys[i];
      m->vals[j] = old.vals[i];
      m->count++;
    }
  free(old.keys);
  free(old.vals);
  return true;
}

bool hmap_try_reserve(hmap *m, size_t n) {
  if (n * 2 <= m->cap) return true;
  size_t cap = m->cap ? m->cap * 2 : HMAP_FIRST_CAP;
  while (cap < n * 2) cap *= 2;
  return rehash(m, cap);
}

void hmap_put(hmap *m, uint64_t key, uint64_t val) {
  assert(key != 0);
  if (!hmap_try_reserve(m, m->count + 1)) xalloc_oom();
  size_t i = hmap_slot(m, key);
  if (!m->keys[i]) {
    m->keys[i] = key;
    m->count++;
  }
  m->vals[i] = val;
}

bool hmap_erase(hmap *m, uint64_t key) {
  if (!m->count) return false;
  size_t mask = m->cap - 1, i = hmap_slot(m, key);
  if (!m->keys[i]) return false;
  /* backward shift: pull later entries of the probe run into the hole when their home
   * lies outside the cyclic range (hole, entry] */
  for (size_t j = (i + 1) & mask; m->keys[j]; j = (j + 1) & mask) {
    size_t h = (size_t)hmap_hash(m->keys[j]) & mask;
    bool stays = i <= j ? (i < h && h <= j) : (i < h || h <= j);
    if (!stays) {
      m->keys[i] = m->keys[j];
      m->vals[i] = m->vals[j];
      i = j;
    }
  }
  m->keys[i] = 0;
  m->count--;
  return true;
}

void hmap_reset(hmap *m, size_t expect) {
  size_t cap = HMAP_FIRST_CAP;
  while (cap < expect * 2) cap *= 2;
  if (m->cap < cap || m->cap > 4 * cap) {
    hmap_free(m);
    if (!rehash(m, cap)) xalloc_oom();
  } else {
    hmap_clear(m);
  }
}

void hmap_clear(hmap *m) {
  if (m->cap) memset(m->keys, 0, m->cap * sizeof *m->keys);
  m->count = 0;
}

void hmap_free(hmap *m) {
  free(m->keys);
  free(m->vals);
  *m = (hmap){0};
}
