/* symnames.c — unique names for a path's symbolic arrays (contract in symnames.h). */
#include "engine/core/symnames.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* One name seen by the table: taken by an array, and/or requested as a BASE (then next
 * is the first suffix not known to be taken: 0 = the plain name, k = BASE_k). */
typedef struct slot {
  char *key; /* NULL = empty slot */
  uint64_t hash;
  uint32_t next;
  bool taken;
} slot;

struct symnames {
  unsigned refs;
  slot *slots; /* open addressing, linear probing, at most half full */
  size_t mask, count;
  uint64_t probes;
};

static uint64_t hash_name(const char *s) {
  uint64_t h = 0xcbf29ce484222325u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3u;
  return h;
}

symnames *symnames_new(void) {
  symnames *t = xcalloc(1, sizeof *t);
  t->refs = 1;
  t->mask = 63;
  t->slots = xcalloc(t->mask + 1, sizeof *t->slots);
  return t;
}

symnames *symnames_share(symnames *t) {
  t->refs++;
  return t;
}

void symnames_release(symnames *t) {
  if (!t || --t->refs > 0) return;
  for (size_t k = 0; k <= t->mask; k++) free(t->slots[k].key);
  free(t->slots);
  free(t);
}

uint64_t symnames_probes(const symnames *t) { return t->probes; }

/* The slot holding key, or the empty slot where it would go. */
static slot *find(const symnames *t, const char *key, uint64_t hash) {
  for (size_t k = hash & t->mask;; k = (k + 1) & t->mask) {
    slot *s = &t->slots[k];
    if (!s->key || (s->hash == hash && strcmp(s->key, key) == 0)) return s;
  }
}

static void grow(symnames *t) {
  slot *old = t->slots;
  size_t old_size = t->mask + 1;
  t->mask = 2 * old_size - 1;
  t->slots = xcalloc(t->mask + 1, sizeof *t->slots);
  for (size_t k = 0; k < old_size; k++)
    if (old[k].key) *find(t, old[k].key, old[k].hash) = old[k];
  free(old);
}

/* key's slot, added (owning a copy of key) when absent. */
static slot *intern(symnames *t, const char *key) {
  if (2 * (t->count + 1) > t->mask + 1) grow(t);
  uint64_t hash = hash_name(key);
  slot *s = find(t, key, hash);
  if (!s->key) {
    *s = (slot){xstrdup(key), hash, 0, false};
    t->count++;
  }
  return s;
}

static symnames *private_copy(symnames *t) {
  symnames *c = xcalloc(1, sizeof *c);
  c->refs = 1;
  c->mask = t->mask;
  c->count = t->count;
  c->probes = t->probes;
  c->slots = xcalloc(t->mask + 1, sizeof *c->slots);
  for (size_t k = 0; k <= t->mask; k++) {
    c->slots[k] = t->slots[k];
    if (t->slots[k].key) c->slots[k].key = xstrdup(t->slots[k].key);
  }
  t->refs--;
  return c;
}

static bool is_taken(symnames *t, const char *name) {
  t->probes++;
  const slot *s = find(t, name, hash_name(name));
  return s->key && s->taken;
}

char *symnames_claim(symnames **tp, const char *base) {
  if ((*tp)->refs > 1) *tp = private_copy(*tp);
  symnames *t = *tp;
  uint32_t k = intern(t, base)->next;
  char *name = NULL;
  for (;; k++) {
    assert(k < UINT32_MAX);
    free(name);
    name = k == 0 ? xstrdup(base) : xasprintf("%s_%u", base, k);
    if (!is_taken(t, name)) break;
  }
  /* every suffix below k is taken, and k is now: the next request starts after it */
  intern(t, base)->next = k + 1;
  intern(t, name)->taken = true;
  return name;
}
