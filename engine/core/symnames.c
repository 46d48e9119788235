/* symnames.c — unique names for a path's symbolic arrays (contract in symnames.h). */
#include "engine/core/symnames.h"
#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One name seen by the table: taken by an array, and/or requested as a BASE (then next
 * is the first suffix not known to be taken: 0 = the plain name, k = BASE_k). */
typedef struct entry {
  struct entry *link; /* hchain's */
  uint64_t hash;
  uint32_t next;
  bool taken;
  char key[]; /* the name */
} entry;

#define ENTRY_LINK offsetof(entry, link)

struct symnames {
  unsigned refs;
  hchain table; /* of entry, keyed by name */
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
  return t;
}

symnames *symnames_share(symnames *t) {
  t->refs++;
  return t;
}

void symnames_release(symnames *t) {
  if (!t || --t->refs > 0) return;
  for (size_t b = 0; t->table.buckets && b <= t->table.mask; b++)
    for (entry *e = t->table.buckets[b], *next; e; e = next) {
      next = e->link;
      free(e);
    }
  hchain_free(&t->table);
  free(t);
}

uint64_t symnames_probes(const symnames *t) { return t->probes; }

static entry *find(const symnames *t, const char *key, uint64_t hash) {
  if (!t->table.buckets) return NULL;
  for (entry *e = hchain_bucket(&t->table, hash); e; e = e->link)
    if (e->hash == hash && strcmp(e->key, key) == 0) return e;
  return NULL;
}

static entry *add(symnames *t, const char *key, uint64_t hash, uint32_t next, bool taken) {
  if (hchain_is_full(&t->table)) hchain_grow(&t->table, 64, ENTRY_LINK, offsetof(entry, hash));
  size_t len = strlen(key);
  entry *e = xcalloc(1, sizeof *e + len + 1);
  e->hash = hash;
  e->next = next;
  e->taken = taken;
  memcpy(e->key, key, len + 1);
  hchain_insert(&t->table, e, hash, ENTRY_LINK);
  return e;
}

/* key's entry, added when absent. */
static entry *intern(symnames *t, const char *key) {
  uint64_t hash = hash_name(key);
  entry *e = find(t, key, hash);
  return e ? e : add(t, key, hash, 0, false);
}

static symnames *private_copy(symnames *t) {
  symnames *c = symnames_new();
  c->probes = t->probes;
  for (size_t b = 0; t->table.buckets && b <= t->table.mask; b++)
    for (const entry *e = t->table.buckets[b]; e; e = e->link)
      add(c, e->key, e->hash, e->next, e->taken);
  t->refs--;
  return c;
}

static bool is_taken(symnames *t, const char *name) {
  t->probes++;
  const entry *e = find(t, name, hash_name(name));
  return e && e->taken;
}

char *symnames_claim(symnames **tp, const char *base) {
  if ((*tp)->refs > 1) *tp = private_copy(*tp);
  symnames *t = *tp;
  entry *b = intern(t, base);
  uint32_t k = b->next;
  char *name = NULL;
  for (;; k++) {
    assert(k < UINT32_MAX);
    free(name);
    name = k == 0 ? xstrdup(base) : xasprintf("%s_%u", base, k);
    if (!is_taken(t, name)) break;
  }
  /* every suffix below k is taken, and k is now: the next request starts after it */
  b->next = k + 1; /* entries never move: b is still base's */
  intern(t, name)->taken = true;
  return name;
}
