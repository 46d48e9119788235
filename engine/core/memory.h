/*
 * memory — the executor's memory: objects at deterministic concrete addresses, their
 * per-state contents with copy-on-write between forked states, and reads and writes at
 * constant or symbolic offsets.
 *
 * Model
 *   - A mem_object is what an allocation created: a base address, a concrete capacity (the
 *     bytes that back it) and a size expression (a constant equal to the capacity, or a
 *     symbolic size ≤ capacity for symbolic-size objects). Objects are immutable and shared
 *     by all states; addresses are never reused, so a dangling pointer never lands in a
 *     newer object.
 *   - A mem_content is one state's bytes of one object. While every access uses constant
 *     offsets, each byte is a concrete value or an expression (fast path). The first access
 *     at a symbolic offset builds the array view — a base array plus an update list — and
 *     from then on every write is also pushed on the update list, so the view stays exact;
 *     a write at a symbolic offset leaves only the view.
 *   - A mem_space is one state's map from objects to contents, sorted by address. Forking
 *     a state shares the space and every content; the first write through a shared one
 *     copies it (copy-on-write), so forked states never see each other's writes.
 *
 * Contract
 *   - Offsets and addresses are 64-bit expressions; values are expressions of 8·n bits,
 *     stored little-endian. The caller checks bounds first (offset + n ≤ size): these
 *     functions assert on constant out-of-range offsets and do not check symbolic ones.
 *   - Returned expressions are new references; arguments are borrowed (expr.h's rule).
 *   - mem_space_clone is O(1); the copies happen lazily on write.
 */
#ifndef SYMQ_MEMORY_H
#define SYMQ_MEMORY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "engine/core/json.h"

typedef enum mem_kind { MEM_GLOBAL, MEM_STACK, MEM_HEAP, MEM_FUNCTION } mem_kind;

typedef struct mem_object {
  uint64_t id;       /* creation order */
  uint64_t address;  /* base, concrete */
  uint64_t capacity; /* concrete bytes backing the object */
  expr *size;        /* width 64: the constant capacity, or a symbolic size ≤ capacity */
  mem_kind kind;
  bool read_only;
  char *name; /* for messages: the global's or variable's name, or "malloc" … */
  uint32_t refcount;
} mem_object;

typedef struct mem_content mem_content;
typedef struct mem_space mem_space;

/* ---- addresses ---------------------------------------------------------------------- */
/* Deterministic bump allocation per kind, in separate ranges, with a red zone between
 * objects and a 16-byte alignment (or `align` when larger), never reused. */
typedef struct mem_allocator {
  uint64_t next[4]; /* indexed by mem_kind */
} mem_allocator;

void mem_allocator_init(mem_allocator *a);
uint64_t mem_allocator_take(mem_allocator *a, mem_kind kind, uint64_t capacity, uint64_t align);

/* ---- objects ------------------------------------------------------------------------ */
/* size: NULL for a concrete size equal to capacity; otherwise borrowed. */
mem_object *mem_object_new(uint64_t id, uint64_t address, uint64_t capacity, expr *size,
                           mem_kind kind, const char *name);
mem_object *mem_object_ref(mem_object *o);
void mem_object_unref(mem_object *o);

/* ---- spaces --------------------------------------------------------------------------- */
mem_space *mem_space_new(void);
mem_space *mem_space_clone(mem_space *s); /* O(1): shares everything until a write */
void mem_space_free(mem_space *s);        /* NULL is allowed */
size_t mem_space_count(const mem_space *s);
const mem_object *mem_space_object_at(const mem_space *s, size_t i); /* by address order */

/* Binds a new object with zero bytes (or `init`, capacity bytes, when non-NULL). */
void mem_space_bind(mem_space *s, mem_object *o, const uint8_t *init);
/* Binds a new object whose bytes are the symbolic array `a` (capacity bytes). */
void mem_space_bind_symbolic(mem_space *s, mem_object *o, expr_array *a);
/* Removes the object (free, stack frame exit). Returns false if it was not bound. */
bool mem_space_unbind(mem_space *s, const mem_object *o);
/* The object whose [address, address + capacity) holds addr, or NULL. */
const mem_object *mem_space_find(const mem_space *s, uint64_t addr);
/* The bound object with this id, or NULL. */
const mem_object *mem_space_find_id(const mem_space *s, uint64_t id);

/* ---- contents ----------------------------------------------------------------------- */
/* nbytes (1..16) little-endian at offset (width 64) of o's contents in s. */
expr *mem_read(mem_space *s, const mem_object *o, expr *offset, unsigned nbytes);
/* Writes value (width 8·nbytes) at offset; copies the contents first if shared. */
void mem_write(mem_space *s, const mem_object *o, expr *offset, expr *value);
/* Concrete bytes [offset, offset + n) if every one of them is concrete; false otherwise. */
bool mem_read_concrete(mem_space *s, const mem_object *o, uint64_t offset, uint8_t *out, size_t n);

/* Whether a and b hold o's bytes in the very same content (shared since a fork, neither
 * written since): then they are equal without a look at any byte. */
bool mem_shares_contents(const mem_space *a, const mem_space *b, const mem_object *o);
/* Flags in differ[b] (o->capacity entries) each byte b of o that may not read as one and the
 * same expression in all n spaces (mem_read(spaces[j], o, b, 1) pointer-equal for every j),
 * and returns how many: a byte is left unflagged only where every space keeps it in its
 * cache and they store the same value (expressions are interned), so no expression is built;
 * where some space's bytes are not cached (a write at a symbolic offset) every byte is
 * flagged, for the caller to read. A merge compares its members' bytes this way and reads
 * only the flagged ones. */
uint64_t mem_bytes_differing(mem_space *const *spaces, size_t n, const mem_object *o, bool *differ);
/* Whether a and b have exactly the same objects bound. */
bool mem_same_objects(const mem_space *a, const mem_space *b);

/* Counters for stats.json. */
typedef struct mem_stats {
  uint64_t copies_on_write, symbolic_reads, symbolic_writes, views_built;
} mem_stats;
mem_stats mem_get_stats(void);
/* The "memory" object of stats.json: "copies_on_write", "symbolic_reads", "symbolic_writes". */
void mem_stats_json(json_writer *j, const mem_stats *s);

#endif
