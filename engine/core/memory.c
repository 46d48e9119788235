/*
 * memory.c — objects, copy-on-write contents and address spaces (contract in memory.h).
 *
 * A content keeps two representations of the same bytes:
 *
 *   byte cache   concrete[i], overridden by symbolic[i] when that is non-NULL
 *                (valid while `bytes_valid`: no write at a symbolic offset yet)
 *   array view   read(base, updates, i): built on the first symbolic-offset access; from
 *                then on every write is pushed on `updates` too
 *
 * Constant-offset accesses use the cache and cost O(bytes); only objects that are really
 * indexed symbolically pay for update lists, and they pay once per write.
 */
#include "engine/core/memory.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mem_content {
  uint32_t refcount;
  uint64_t capacity;
  uint8_t *concrete;
  expr **symbolic; /* NULL, or capacity entries (NULL entries are concrete) */
  bool bytes_valid;
  expr_array *input; /* the symbolic array the object was made of, or NULL */
  expr_array *base;  /* the view: NULL until built */
  expr_update *updates;
  char *name; /* for the names of view arrays */
  unsigned views;
};

typedef struct mem_entry {
  mem_object *object;
  mem_content *content;
} mem_entry;

typedef struct mem_entries {
  uint32_t refcount;
  size_t count, cap;
  mem_entry *items; /* sorted by object address */
} mem_entries;

struct mem_space {
  mem_entries *entries;
};

static mem_stats stats;

mem_stats mem_get_stats(void) { return stats; }

void mem_stats_json(json_writer *j, const mem_stats *s) {
  json_object_begin(j);
  JSON_COUNTERS(j, {"copies_on_write", s->copies_on_write}, {"symbolic_reads", s->symbolic_reads},
                {"symbolic_writes", s->symbolic_writes});
  json_object_end(j);
}

/* ---- addresses ---------------------------------------------------------------------- */

enum { RED_ZONE = 16 };

void mem_allocator_init(mem_allocator *a) {
  a->next[MEM_FUNCTION] = 0x00010000ULL; /* above a null page of 64 KiB */
  a->next[MEM_GLOBAL] = 0x10000000ULL;
  a->next[MEM_HEAP] = 0x100000000ULL;
  a->next[MEM_STACK] = 0x7f0000000000ULL;
}

uint64_t mem_allocator_take(mem_allocator *a, mem_kind kind, uint64_t capacity, uint64_t align) {
  if (align < 16) align = 16;
  assert((align & (align - 1)) == 0);
  uint64_t address = (a->next[kind] + align - 1) & ~(align - 1);
  a->next[kind] = address + capacity + RED_ZONE;
  return address;
}

/* ---- objects ------------------------------------------------------------------------ */

mem_object *mem_object_new(uint64_t id, uint64_t address, uint64_t capacity, expr *size,
                           mem_kind kind, const char *name) {
  mem_object *o = xcalloc(1, sizeof *o);
  o->id = id;
  o->address = address;
  o->capacity = capacity;
  o->size = size ? expr_ref(size) : expr_const(64, capacity);
  o->kind = kind;
  o->name = xstrdup(name ? name : "object");
  o->refcount = 1;
  return o;
}

mem_object *mem_object_ref(mem_object *o) {
  if (o) o->refcount++;
  return o;
}

void mem_object_unref(mem_object *o) {
  if (!o || --o->refcount) return;
  expr_unref(o->size);
  free(o->name);
  free(o);
}

/* ---- contents ----------------------------------------------------------------------- */

static mem_content *content_new(const mem_object *o) {
  mem_content *c = xcalloc(1, sizeof *c);
  c->refcount = 1;
  c->capacity = o->capacity;
  c->concrete = xcalloc(o->capacity, 1);
  c->bytes_valid = true;
  c->name = xstrdup(o->name);
  return c;
}

static void content_drop_bytes(mem_content *c) {
  if (c->symbolic) {
    for (uint64_t i = 0; i < c->capacity; i++) expr_unref(c->symbolic[i]);
    free(c->symbolic);
    c->symbolic = NULL;
  }
}

static void content_unref(mem_content *c) {
  if (!c || --c->refcount) return;
  content_drop_bytes(c);
  free(c->concrete);
  expr_array_unref(c->input);
  expr_array_unref(c->base);
  expr_update_unref(c->updates);
  free(c->name);
  free(c);
}

static mem_content *content_copy(const mem_content *c) {
  stats.copies_on_write++;
  mem_content *d = xcalloc(1, sizeof *d);
  *d = *c;
  d->refcount = 1;
  d->concrete = xmalloc(c->capacity);
  memcpy(d->concrete, c->concrete, c->capacity);
  if (c->symbolic) {
    d->symbolic = xmalloc(c->capacity * sizeof *d->symbolic);
    for (uint64_t i = 0; i < c->capacity; i++) d->symbolic[i] = expr_ref(c->symbolic[i]);
  }
  expr_array_ref(d->input);
  expr_array_ref(d->base);
  expr_update_ref(d->updates);
  d->name = xstrdup(c->name);
  return d;
}

/* The byte at constant offset i from the cache: a new reference. */
static expr *cached_byte(const mem_content *c, uint64_t i) {
  if (c->symbolic && c->symbolic[i]) return expr_ref(c->symbolic[i]);
  return expr_const(8, c->concrete[i]);
}

static void push_update(mem_content *c, expr *index, expr *byte) {
  expr_update *u = expr_update_push(c->base, c->updates, index, byte);
  expr_update_unref(c->updates);
  c->updates = u;
}

/* Builds the array view of the cache (see the file comment). */
static void build_view(mem_content *c) {
  if (c->base) return;
  stats.views_built++;
  assert(c->bytes_valid);
  if (c->input) {
    c->base = expr_array_ref(c->input);
  } else {
    char name[256];
    snprintf(name, sizeof name, "%s.contents%u", c->name, ++c->views);
    expr *size = expr_const(64, c->capacity);
    c->base = expr_array_new(name, size, c->capacity, false, c->concrete);
    expr_unref(size);
  }
  for (uint64_t i = 0; c->symbolic && i < c->capacity; i++) {
    expr *index = expr_const(64, i);
    expr *initial = expr_read(c->base, NULL, index);
    expr *now = cached_byte(c, i);
    if (now != initial) push_update(c, index, now);
    expr_unref(index);
    expr_unref(initial);
    expr_unref(now);
  }
}

/* ---- spaces --------------------------------------------------------------------------- */

mem_space *mem_space_new(void) {
  mem_space *s = xcalloc(1, sizeof *s);
  s->entries = xcalloc(1, sizeof *s->entries);
  s->entries->refcount = 1;
  return s;
}

mem_space *mem_space_clone(mem_space *s) {
  mem_space *d = xcalloc(1, sizeof *d);
  d->entries = s->entries;
  d->entries->refcount++;
  return d;
}

static void entries_unref(mem_entries *e) {
  if (--e->refcount) return;
  for (size_t i = 0; i < e->count; i++) {
    mem_object_unref(e->items[i].object);
    content_unref(e->items[i].content);
  }
  free(e->items);
  free(e);
}

void mem_space_free(mem_space *s) {
  if (!s) return;
  entries_unref(s->entries);
  free(s);
}

/* Makes s's entry list its own before a change to it. */
static mem_entries *own_entries(mem_space *s) {
  mem_entries *e = s->entries;
  if (e->refcount == 1) return e;
  mem_entries *d = xcalloc(1, sizeof *d);
  d->refcount = 1;
  d->count = d->cap = e->count;
  d->items = xmalloc(e->count * sizeof *d->items);
  for (size_t i = 0; i < e->count; i++) {
    d->items[i].object = mem_object_ref(e->items[i].object);
    d->items[i].content = e->items[i].content;
    d->items[i].content->refcount++;
  }
  e->refcount--;
  s->entries = d;
  return d;
}

size_t mem_space_count(const mem_space *s) { return s->entries->count; }

const mem_object *mem_space_object_at(const mem_space *s, size_t i) {
  return i < s->entries->count ? s->entries->items[i].object : NULL;
}

/* The index of the last entry whose address is ≤ addr, or SIZE_MAX. */
static size_t entry_at_or_below(const mem_entries *e, uint64_t addr) {
  size_t lo = 0, hi = e->count;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (e->items[mid].object->address <= addr) lo = mid + 1;
    else
      hi = mid;
  }
  return lo ? lo - 1 : SIZE_MAX;
}

const mem_object *mem_space_find(const mem_space *s, uint64_t addr) {
  size_t i = entry_at_or_below(s->entries, addr);
  if (i == SIZE_MAX) return NULL;
  const mem_object *o = s->entries->items[i].object;
  return addr - o->address < o->capacity ? o : NULL;
}

static size_t entry_index(const mem_space *s, const mem_object *o) {
  size_t i = entry_at_or_below(s->entries, o->address);
  return i != SIZE_MAX && s->entries->items[i].object == o ? i : SIZE_MAX;
}

const mem_object *mem_space_find_id(const mem_space *s, uint64_t id) {
  for (size_t i = 0; i < s->entries->count; i++)
    if (s->entries->items[i].object->id == id) return s->entries->items[i].object;
  return NULL;
}

static void insert_entry(mem_space *s, mem_object *o, mem_content *c) {
  mem_entries *e = own_entries(s);
  size_t at = entry_at_or_below(e, o->address);
  at = at == SIZE_MAX ? 0 : at + 1;
  assert(at == 0 || e->items[at - 1].object->address != o->address);
  if (e->count == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->items = xreallocarray(e->items, e->cap, sizeof *e->items);
  }
  memmove(&e->items[at + 1], &e->items[at], (e->count - at) * sizeof *e->items);
  e->items[at] = (mem_entry){mem_object_ref(o), c};
  e->count++;
}

void mem_space_bind(mem_space *s, mem_object *o, const uint8_t *init) {
  mem_content *c = content_new(o);
  if (init) memcpy(c->concrete, init, o->capacity);
  insert_entry(s, o, c);
}

void mem_space_bind_symbolic(mem_space *s, mem_object *o, expr_array *a) {
  assert(a->capacity >= o->capacity);
  mem_content *c = content_new(o);
  c->input = expr_array_ref(a);
  c->symbolic = xcalloc(o->capacity, sizeof *c->symbolic);
  for (uint64_t i = 0; i < o->capacity; i++) {
    expr *index = expr_const(64, i);
    c->symbolic[i] = expr_read(a, NULL, index);
    expr_unref(index);
  }
  insert_entry(s, o, c);
}

bool mem_space_unbind(mem_space *s, const mem_object *o) {
  size_t i = entry_index(s, o);
  if (i == SIZE_MAX) return false;
  mem_entries *e = own_entries(s);
  mem_object_unref(e->items[i].object);
  content_unref(e->items[i].content);
  memmove(&e->items[i], &e->items[i + 1], (e->count - i - 1) * sizeof *e->items);
  e->count--;
  return true;
}

/* The content of o in s, for reading (shared is fine). */
static mem_content *content_for_read(mem_space *s, const mem_object *o) {
  size_t i = entry_index(s, o);
  assert(i != SIZE_MAX && "object not bound in this space");
  return s->entries->items[i].content;
}

/* The content of o in s, made private to s first. */
static mem_content *content_for_write(mem_space *s, const mem_object *o) {
  size_t i = entry_index(s, o);
  assert(i != SIZE_MAX && "object not bound in this space");
  mem_entries *e = own_entries(s);
  mem_content *c = e->items[i].content;
  if (c->refcount > 1) {
    mem_content *d = content_copy(c);
    c->refcount--;
    e->items[i].content = d;
    c = d;
  }
  return c;
}

expr *mem_read(mem_space *s, const mem_object *o, expr *offset, unsigned nbytes) {
  assert(offset->width == 64 && nbytes >= 1 && nbytes <= 16);
  mem_content *c = content_for_read(s, o);
  if (expr_is_const(offset) && c->bytes_valid) {
    uint64_t at = (uint64_t)offset->u.value;
    assert(at <= c->capacity && nbytes <= c->capacity - at);
    expr *result = cached_byte(c, at);
    for (unsigned k = 1; k < nbytes; k++) {
      expr *byte = cached_byte(c, at + k);
      expr *wider = expr_concat(byte, result);
      expr_unref(byte);
      expr_unref(result);
      result = wider;
    }
    return result;
  }
  stats.symbolic_reads += !expr_is_const(offset);
  build_view(c); /* a pure function of the bytes: safe on a shared content */
  return expr_read_le(c->base, c->updates, offset, nbytes);
}

/* The distinct leaves of an ite DAG over constant offsets, each below limit (at most
 * ITE_OFFSETS of them, *budget ite nodes walked); false for any other offset. */
#define ITE_OFFSETS 16
static bool ite_offsets(const expr *e, uint64_t limit, uint64_t *at, size_t *n, unsigned *budget) {
  if (e->kind == EXPR_CONST) {
    if ((uint64_t)e->u.value >= limit) return false;
    for (size_t k = 0; k < *n; k++)
      if (at[k] == (uint64_t)e->u.value) return true;
    if (*n == ITE_OFFSETS) return false;
    at[(*n)++] = (uint64_t)e->u.value;
    return true;
  }
  if (e->kind != EXPR_ITE || !*budget) return false;
  --*budget;
  return ite_offsets(e->kid[1], limit, at, n, budget) &&
         ite_offsets(e->kid[2], limit, at, n, budget);
}

void mem_write(mem_space *s, const mem_object *o, expr *offset, expr *value) {
  assert(offset->width == 64 && value->width % 8 == 0 && value->width <= 128);
  assert(!o->read_only);
  unsigned nbytes = value->width / 8;
  uint64_t cells[ITE_OFFSETS];
  size_t ncells = 0;
  unsigned budget = 256;
  /* a write at a merged pointer (an ite over constant offsets) is a guarded write at each:
   * the bytes stay known cells, not an update at a symbolic index every later read of the
   * object must see through (apr_collapse_spaces' `*dest = 0` after its loop merged) */
  if (offset->kind == EXPR_ITE && nbytes <= o->capacity &&
      ite_offsets(offset, o->capacity - nbytes + 1, cells, &ncells, &budget)) {
    for (size_t k = 0; k < ncells; k++) {
      expr *cell = expr_const(64, cells[k]), *hit = expr_eq(offset, cell);
      expr *old = mem_read(s, o, cell, nbytes), *guarded = expr_ite(hit, value, old);
      mem_write(s, o, cell, guarded);
      expr_unref(guarded);
      expr_unref(old);
      expr_unref(hit);
      expr_unref(cell);
    }
    return;
  }
  mem_content *c = content_for_write(s, o);
  bool constant_offset = expr_is_const(offset);
  if (!constant_offset) {
    stats.symbolic_writes++;
    build_view(c);
  }
  for (unsigned k = 0; k < nbytes; k++) {
    expr *byte = expr_extract(value, 8 * k, 8);
    if (c->base) {
      expr *delta = expr_const(64, k);
      expr *index = expr_add(offset, delta);
      push_update(c, index, byte);
      expr_unref(delta);
      expr_unref(index);
    }
    if (constant_offset && c->bytes_valid) {
      uint64_t at = (uint64_t)offset->u.value + k;
      assert(at < c->capacity);
      if (expr_is_const(byte)) {
        c->concrete[at] = (uint8_t)byte->u.value;
        if (c->symbolic) {
          expr_unref(c->symbolic[at]);
          c->symbolic[at] = NULL;
        }
      } else {
        if (!c->symbolic) c->symbolic = xcalloc(c->capacity, sizeof *c->symbolic);
        expr_unref(c->symbolic[at]);
        c->symbolic[at] = expr_ref(byte);
      }
    }
    expr_unref(byte);
  }
  if (!constant_offset && c->bytes_valid) {
    c->bytes_valid = false; /* only the view knows which byte the write hit */
    content_drop_bytes(c);
  }
}

bool mem_read_concrete(mem_space *s, const mem_object *o, uint64_t offset, uint8_t *out, size_t n) {
  mem_content *c = content_for_read(s, o);
  if (offset > c->capacity || n > c->capacity - offset) return false;
  if (c->bytes_valid) {
    for (size_t k = 0; k < n; k++) {
      if (c->symbolic && c->symbolic[offset + k]) return false;
      out[k] = c->concrete[offset + k];
    }
    return true;
  }
  for (size_t k = 0; k < n; k++) {
    expr *index = expr_const(64, offset + k);
    expr *byte = expr_read(c->base, c->updates, index);
    bool concrete = expr_is_const(byte);
    if (concrete) out[k] = (uint8_t)byte->u.value;
    expr_unref(index);
    expr_unref(byte);
    if (!concrete) return false;
  }
  return true;
}

bool mem_shares_contents(const mem_space *a, const mem_space *b, const mem_object *o) {
  if (a->entries == b->entries) return entry_index(a, o) != SIZE_MAX; /* one list: one index */
  size_t i = entry_index(a, o), j = entry_index(b, o);
  return i != SIZE_MAX && j != SIZE_MAX &&
         a->entries->items[i].content == b->entries->items[j].content;
}

/* Whether byte i reads as the same expression from the caches of a and b (cached_byte's
 * results pointer-equal), told from what they store: a constant is interned, so two reads of
 * the same value are one expression. */
static bool cached_bytes_same(const mem_content *a, const mem_content *b, uint64_t i) {
  const expr *x = a->symbolic ? a->symbolic[i] : NULL, *y = b->symbolic ? b->symbolic[i] : NULL;
  if (x && y) return x == y;
  if (!x && !y) return a->concrete[i] == b->concrete[i];
  const expr *e = x ? x : y; /* one stored expression, the other a concrete byte */
  uint8_t v = x ? b->concrete[i] : a->concrete[i];
  return expr_is_const(e) && e->width == 8 && e->u.value == v;
}

uint64_t mem_bytes_differing(mem_space *const *spaces, size_t n, const mem_object *o,
                             bool *differ) {
  const mem_content **c = xmalloc((n + 1) * sizeof *c);
  bool cached = true;
  for (size_t j = 0; j < n; j++) {
    c[j] = content_for_read(spaces[j], o);
    cached &= c[j]->bytes_valid;
  }
  uint64_t count = 0;
  for (uint64_t b = 0; b < o->capacity; b++) {
    bool same = cached;
    for (size_t j = 1; j < n && same; j++) same = c[j] == c[0] || cached_bytes_same(c[0], c[j], b);
    differ[b] = !same;
    count += !same;
  }
  free(c);
  return count;
}

bool mem_same_objects(const mem_space *a, const mem_space *b) {
  if (a->entries == b->entries) return true;
  if (a->entries->count != b->entries->count) return false;
  for (size_t i = 0; i < a->entries->count; i++)
    if (a->entries->items[i].object != b->entries->items[i].object) return false;
  return true;
}
