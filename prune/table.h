/*
 * table — the subsumption table (TracerX's, 000 §5.2): finished nodes' interpolants keyed by
 * program point and call stack, each with the snapshot of what the node's subtree could
 * observe. A state at the same point is subsumed by an entry when
 *   1. its call stack is the entry's (the same function and instruction in every frame),
 *      with the same life-cycle step, the same stack objects and variadic areas per frame;
 *   2. every register relevant there (prune/relevance.h) holds the same expression up to a
 *      renaming σ of the inputs each made on its own (prune/rename.h; hash-consing makes
 *      equal expressions the same node, so without fresh inputs σ is the identity) — a
 *      register counted as a variable holds, in the node, a variable σ maps to the state's
 *      value, whatever it is;
 *   3. its memory has the same objects bound (so the same allocation sites, and addresses)
 *      with the same bytes up to σ (shared contents, or byte by byte up to
 *      PRUNE_MEM_COMPARE_MAX);
 *   4. its path condition implies σ of the entry's interpolant (the caller asks the solver).
 * 1–3 make the state's subtree the node's, up to σ and the path condition; 4 is the
 * interpolant.
 *
 * Contract: an entry owns references to its expressions, objects and a memory clone; the
 * table owns its entries. The relevance of a register is the caller's (a callback), so the
 * table does not depend on how it is computed.
 */
#ifndef SYMQ_PRUNE_TABLE_H
#define SYMQ_PRUNE_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "engine/core/hashmap.h"
#include "engine/core/memory.h"
#include "engine/core/state.h"
#include "prune/rename.h"

enum { PRUNE_MEM_COMPARE_MAX = 4096 }; /* bytes compared one by one in an unshared object */

/* How register reg of frame `frame` (0 = outermost) of st counts at st's point: not at all,
 * by its value (matched up to σ), or as a *variable* (prune/data.h: the node held a fresh
 * variable there, which σ maps to whatever the state holds; the print ignores the value). */
typedef enum prune_reg_kind {
  PRUNE_REG_IGNORED,
  PRUNE_REG_EXACT,
  PRUNE_REG_VARIABLE
} prune_reg_kind;
typedef prune_reg_kind (*prune_relevant_fn)(void *ctx, const state *st, uint32_t frame,
                                            uint32_t reg);

typedef struct prune_reg {
  uint32_t frame, reg;
  expr *value;   /* owned reference, may be NULL */
  bool variable; /* PRUNE_REG_VARIABLE */
} prune_reg;

typedef struct prune_snapshot {
  uint32_t nframes;
  uint32_t *funcs, *pcs; /* per frame */
  uint32_t *nallocas;    /* per frame */
  mem_object ***allocas; /* per frame: borrowed pointers, compared only */
  mem_object **varargs;  /* per frame, compared only */
  prune_reg *regs;       /* the relevant registers */
  size_t nregs;
  mem_space *mem;      /* a clone of the state's memory */
  expr_array **inputs; /* the state's symbolic arrays (owned references) */
  size_t ninputs;
  uint32_t lifecycle, pointer_forks;
  uint64_t hash; /* of the call stack */
  uint64_t key;  /* the table's: the stack and the print every matching state shares */
} prune_snapshot;

typedef struct prune_entry {
  prune_snapshot snap;
  expr **interpolant; /* owned references: a conjunction; none = true */
  size_t ninterpolant;
} prune_entry;

typedef struct prune_table {
  hmap index; /* key (never 0) → bucket + 1 */
  struct prune_bucket *buckets;
  size_t nbuckets, cap_buckets;
  size_t nentries;
} prune_table;

/* The snapshot of st (its memory is cloned, O(1)); relevant decides which registers count. */
void prune_snapshot_take(prune_snapshot *s, state *st, prune_relevant_fn relevant, void *ctx);
void prune_snapshot_free(prune_snapshot *s);
/* The print of st at its point (see prune_table_at): a snapshot st matches has st's
 * print as its `key`. */
uint64_t prune_state_key(state *st, prune_relevant_fn relevant, void *ctx);
/* Conditions 1–3 above; r (begun with s's inputs and st) holds σ afterwards. */
bool prune_snapshot_matches(const prune_snapshot *s, state *st, prune_rename *r);

void prune_table_init(prune_table *t);
void prune_table_free(prune_table *t);
/* Adds an entry, taking the snapshot and the interpolant's references (the array too). */
void prune_table_add(prune_table *t, prune_snapshot *snap, expr **interpolant, size_t n);
/* The entries that can match st, in insertion order: *count of them, borrowed until the next
 * prune_table_add (NULL when none). The index's key is the call stack and a *print* of the
 * state there that every match preserves (each relevant register's constant value, or its
 * operator and width; the objects bound; each small object's bytes when all are concrete),
 * so a state is compared only with the entries whose print is its own; relevant must be
 * the one the snapshots were taken with. */
prune_entry *const *prune_table_at(const prune_table *t, state *st, prune_relevant_fn relevant,
                                   void *ctx, size_t *count);

#endif
