/*
 * expr — symq's expression language: an immutable, hash-consed, reference-counted DAG of
 * bit-vector terms over symbolic byte arrays, with bound variables and bounded `forall`.
 *
 * Contract
 *   - Every node is interned: two constructions of the same structure return the same
 *     pointer, so pointer equality is structural equality and every cache keys on the node
 *     (or its `id`, which is never reused).
 *   - Ownership: every function that returns an `expr *`, `expr_array *` or `expr_update *`
 *     returns a NEW reference the caller must release (`expr_unref`, `expr_array_unref`,
 *     `expr_update_unref`). Arguments are BORROWED: constructors take their own references.
 *     NULL is never returned (out of memory ends the run in `xalloc_oom`).
 *   - Booleans are bit-vectors of width 1 (1 = true). Widths are 1..128; constants of any
 *     width are exact (`u128`). Array indices are 64-bit, array cells 8-bit.
 *   - Constructors simplify: constant folding with the exact SMT-LIB semantics that Z3 uses
 *     (division by zero: udiv → all ones, urem → dividend, sdiv → ±1, srem → dividend;
 *     shifts by ≥ width → 0 or sign fill), canonical operand order (a constant first, then
 *     by id), neutral and absorbing elements, read-over-write at constant indices, and
 *     merging of adjacent byte reads into one little-endian wide read, division by constants
 *     folded ((x udiv c1) udiv c2 = x udiv c1·c2; a comparison of x udiv c with a constant
 *     becomes one of x, e.g. 0 = x udiv c is x <u c), a division or remainder of extended
 *     operands (or constants) done at the narrow width that holds it exactly (sdiv and a
 *     udiv by a symbolic divisor one bit wider: the minimum / −1 and division by zero), and
 *     (x div y)·y + x rem y = x, x − (x div y)·y = x rem y. `ne`, `ugt`, `uge`,
 *     `sgt`, `sge` and `implies` are built from the canonical kinds; `sub x c` is `add -c x`.
 *   - A `forall` body may mention only its own bound variable (no nesting across binders).
 *   - Not thread-safe: one process-wide unique table.
 */
#ifndef SYMQ_EXPR_H
#define SYMQ_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "engine/core/json.h"

typedef unsigned __int128 u128;

typedef enum expr_kind {
  EXPR_CONST,
  EXPR_READ,   /* width/8 bytes of an array at index, little-endian, through an update list */
  EXPR_BVAR,   /* a bound variable; only meaningful under its forall */
  EXPR_FORALL, /* kids: bvar, lo, hi, body — ∀ bvar. lo ≤u bvar ≤u hi → body */
  /* arithmetic and bitwise, both operands and result of one width */
  EXPR_ADD,
  EXPR_SUB,
  EXPR_MUL,
  EXPR_UDIV,
  EXPR_SDIV,
  EXPR_UREM,
  EXPR_SREM,
  EXPR_SHL,
  EXPR_LSHR,
  EXPR_ASHR,
  EXPR_AND,
  EXPR_OR,
  EXPR_XOR,
  EXPR_NOT,
  /* comparisons, result width 1; only EQ ULT ULE SLT SLE survive canonicalisation */
  EXPR_EQ,
  EXPR_NE,
  EXPR_ULT,
  EXPR_ULE,
  EXPR_UGT,
  EXPR_UGE,
  EXPR_SLT,
  EXPR_SLE,
  EXPR_SGT,
  EXPR_SGE,
  /* width changes and selection */
  EXPR_ZEXT,
  EXPR_SEXT,
  EXPR_EXTRACT,
  EXPR_CONCAT,
  EXPR_ITE,
  EXPR_KIND_COUNT
} expr_kind;

/* A comparison (EQ … SGE, result width 1); an ordering is one of them other than EQ and NE. */
static inline bool expr_kind_is_comparison(expr_kind k) { return k >= EXPR_EQ && k <= EXPR_SGE; }
static inline bool expr_kind_is_ordering(expr_kind k) { return k >= EXPR_ULT && k <= EXPR_SGE; }

typedef struct expr expr;
typedef struct expr_array expr_array;
typedef struct expr_update expr_update;

/* An array of bytes. Its size is an expression (64-bit, constant or symbolic); `capacity`
 * bytes back it concretely. Inputs are written to tests; other arrays (fresh constants such
 * as a merge's K) are not. `init`, when non-NULL, gives the initial bytes of a constant
 * array (capacity of them); otherwise the initial contents are unconstrained. */
struct expr_array {
  const char *name; /* unique in a run; owned */
  uint32_t id;      /* creation order: deterministic */
  uint32_t refcount;
  expr *size; /* owned reference, width 64 */
  uint64_t capacity;
  bool is_input;
  const uint8_t *init; /* owned copy or NULL */
};

/* One write of a persistent update list, newest first; lists are shared by suffix. Every
 * entry belongs to one array (its root), so a translation can be cached per entry. */
struct expr_update {
  expr_array *array; /* the root: owned reference */
  expr_update *next; /* owned reference or NULL; same array */
  expr *index;       /* width 64 */
  expr *value;       /* width 8 */
  uint64_t hash;
  uint64_t id; /* creation order, never reused */
  uint32_t refcount;
  uint32_t length;    /* number of writes in the list from here */
  bool has_forall;    /* an index or value of the list from here is or contains a forall */
  expr_update *chain; /* unique-table chain; private */
};

struct expr {
  expr_kind kind;
  uint16_t width;
  uint8_t nkids;
  bool has_bvar;   /* mentions a bound variable not bound inside it */
  bool has_forall; /* is or contains a forall, in its update lists too */
  uint32_t refcount;
  uint64_t id;    /* creation order, never reused */
  uint64_t hash;  /* structural */
  uint64_t phash; /* pattern hash (see expr_phash) */
  expr *chain;    /* unique-table chain; private */
  union {
    u128 value; /* CONST */
    struct {
      expr_array *array;
      expr_update *updates;
    } read; /* READ: kid[0] = index */
    struct {
      uint32_t lo;
    } extract; /* EXTRACT: bit offset */
    struct {
      uint32_t var;
      const char *name;
    } bvar; /* BVAR */
  } u;
  expr *kid[4];
};

/* ---- lifetime ----------------------------------------------------------------------- */
expr *expr_ref(expr *e);
void expr_unref(expr *e);     /* NULL is allowed; release is iterative */
size_t expr_live_count(void); /* nodes alive: for leak checks in tests */
size_t expr_live_arrays(void);
size_t expr_live_updates(void);

/* ---- constants ---------------------------------------------------------------------- */
u128 expr_mask(unsigned width);               /* the low `width` bits set */
expr *expr_const(unsigned width, u128 value); /* value is truncated to width */
expr *expr_true(void);
expr *expr_false(void);
expr *expr_bool(bool b);
bool expr_is_const(const expr *e);
bool expr_is_true(const expr *e);
bool expr_is_false(const expr *e);

/* ---- arrays, update lists, reads ---------------------------------------------------- */
expr_array *expr_array_new(const char *name, expr *size, uint64_t capacity, bool is_input,
                           const uint8_t *init /* NULL or capacity bytes, copied */);
expr_array *expr_array_ref(expr_array *a);
void expr_array_unref(expr_array *a);
/* A write of `value` (width 8) at `index` (width 64) to array `a` on top of `next`
 * (NULL, or a list of the same array). */
expr_update *expr_update_push(expr_array *a, expr_update *next, expr *index, expr *value);
expr_update *expr_update_ref(expr_update *u);
void expr_update_unref(expr_update *u);
/* One byte; index width 64; `updates` is NULL or a list of `a`. */
expr *expr_read(expr_array *a, expr_update *updates, expr *index);
/* Cheap facts about an index: its low `known` bits are `value` whatever the variables are
 * (c + k·x with 2^t dividing k: t bits). expr_read skips a write whose index's known low bits
 * differ from the read's (8·i + 4 never meets 8·j), as it skips one at another constant. */
typedef struct expr_low_bits {
  u128 value;
  unsigned known;
} expr_low_bits;
expr_low_bits expr_known_low_bits(const expr *e);
bool expr_low_bits_differ(expr_low_bits a, expr_low_bits b);
/* nbytes (1..16) little-endian bytes starting at index: a concat of byte reads, folded. */
expr *expr_read_le(expr_array *a, expr_update *updates, expr *index, unsigned nbytes);

/* ---- operators ---------------------------------------------------------------------- */
expr *expr_binary(expr_kind kind, expr *a, expr *b); /* any two-operand kind above */
expr *expr_add(expr *a, expr *b);
expr *expr_sub(expr *a, expr *b);
expr *expr_mul(expr *a, expr *b);
expr *expr_udiv(expr *a, expr *b);
expr *expr_sdiv(expr *a, expr *b);
expr *expr_urem(expr *a, expr *b);
expr *expr_srem(expr *a, expr *b);
expr *expr_shl(expr *a, expr *b);
expr *expr_lshr(expr *a, expr *b);
expr *expr_ashr(expr *a, expr *b);
expr *expr_and(expr *a, expr *b);
expr *expr_or(expr *a, expr *b);
expr *expr_xor(expr *a, expr *b);
expr *expr_not(expr *a); /* bitwise; boolean not at width 1 */
expr *expr_eq(expr *a, expr *b);
expr *expr_ne(expr *a, expr *b);
expr *expr_ult(expr *a, expr *b);
expr *expr_ule(expr *a, expr *b);
expr *expr_ugt(expr *a, expr *b);
expr *expr_uge(expr *a, expr *b);
expr *expr_slt(expr *a, expr *b);
expr *expr_sle(expr *a, expr *b);
expr *expr_sgt(expr *a, expr *b);
expr *expr_sge(expr *a, expr *b);
expr *expr_implies(expr *a, expr *b);     /* width 1: or(not a, b) */
expr *expr_zext(expr *a, unsigned width); /* width ≥ a's */
expr *expr_sext(expr *a, unsigned width); /* width ≥ a's */
expr *expr_extract(expr *a, unsigned lo, unsigned width);
expr *expr_concat(expr *hi, expr *lo);
expr *expr_ite(expr *cond, expr *then, expr *otherwise);
/* Resize to `width`: zext (or sext when `is_signed`) when wider, extract when narrower. */
expr *expr_resize(expr *a, unsigned width, bool is_signed);

/* ---- bound variables and forall ------------------------------------------------------ */
/* A fresh bound variable: each call yields a distinct one. */
expr *expr_bvar_fresh(unsigned width, const char *name);
/* ∀ bvar. lo ≤u bvar ≤u hi → body. lo and hi have bvar's width and mention no bvar. */
expr *expr_forall(expr *bvar, expr *lo, expr *hi, expr *body);

/* ---- hashes ------------------------------------------------------------------------- */
/* The pattern hash of pat-merge.md §4: all constants alike, `c + x` as `x`, a read at any
 * constant index alike, update lists ignored, a condition and its negation distinct. */
static inline uint64_t expr_phash(const expr *e) { return e->phash; }
uint64_t expr_phash_salted(const expr *e, uint64_t salt); /* salt: the branch's id */

/* ---- evaluation, substitution, printing ---------------------------------------------- */
/* Concrete bytes for arrays. Bytes past `len` and arrays without an entry read as 0 (a
 * constant array's `init` bytes always win), so any assignment is total. Bound variables get
 * their values only from the forall that binds them, during evaluation. */
typedef struct expr_binding {
  expr_array *array; /* owned reference */
  uint8_t *bytes;    /* owned */
  size_t len;
} expr_binding;

typedef struct expr_assignment {
  expr_binding *bindings; /* sorted by array id */
  size_t count, cap;
} expr_assignment;

expr_assignment *expr_assignment_new(void);
void expr_assignment_free(expr_assignment *m);
/* Sets the bytes of `a` (copied); replaces an earlier binding. */
void expr_assignment_set(expr_assignment *m, expr_array *a, const uint8_t *bytes, size_t len);
const expr_binding *expr_assignment_find(const expr_assignment *m, const expr_array *a);
expr_assignment *expr_assignment_copy(const expr_assignment *m);

typedef enum { EXPR_EVAL_OK, EXPR_EVAL_FREE_BVAR, EXPR_EVAL_RANGE_TOO_LARGE } expr_eval_status;
/* Evaluates e (which must not mention a free bound variable). A forall is expanded over
 * its range; ranges longer than `max_forall_range` give EXPR_EVAL_RANGE_TOO_LARGE. */
expr_eval_status expr_eval(const expr *e, const expr_assignment *m, uint64_t max_forall_range,
                           u128 *out);
/* True iff every formula is non-zero under m (and each evaluates). */
bool expr_eval_all_true(expr *const *formulas, size_t n, const expr_assignment *m);

/* e's operator (and immediates; a read keeps its array and update list) over new operands
 * kids[0..e->nkids), built with the simplifying constructors. */
expr *expr_with_kids(expr *e, expr *const *kids);

/* Replaces every occurrence of from[i] by to[i] (same widths), rebuilding with the
 * simplifying constructors. When every from[i] is a bound variable, a subterm that
 * mentions none and an update list come back as they are, not rebuilt. */
expr *expr_substitute(expr *e, expr *const *from, expr *const *to, size_t n);

/* The distinct nodes (and update-list entries) reachable from roots[0..n): a DAG's size. */
size_t expr_dag_size(expr *const *roots, size_t n);

/* Collects the distinct arrays e reads (through reads, update lists and array sizes),
 * appended to *out (borrowed pointers) in first-seen order, skipping those already there. */
void expr_collect_arrays(expr *e, expr_array ***out, size_t *count, size_t *cap);
/* The same for the n roots together, in one walk (a node they share is visited once). */
void expr_collect_arrays_of(expr *const *roots, size_t n, expr_array ***out, size_t *count,
                            size_t *cap);

/* The cells e depends on, finer than its arrays (for independence slicing): a read at a
 * constant index below the capacity through no writes depends on its bytes only; any other
 * read (symbolic index, through writes) on its whole array. Cells are
 * expr_cell(array id, byte) or expr_cell(array id, EXPR_CELL_WHOLE), appended to *out
 * (possibly repeated); reads in update lists and array sizes count like any other. */
#define EXPR_CELL_WHOLE ((uint64_t)0xffffffff)
static inline uint64_t expr_cell(uint32_t array_id, uint64_t byte) {
  return (uint64_t)array_id << 32 | (byte == EXPR_CELL_WHOLE ? 0 : byte + 1);
}
static inline uint32_t expr_cell_array(uint64_t cell) { return (uint32_t)(cell >> 32); }
static inline bool expr_cell_is_whole(uint64_t cell) { return (uint32_t)cell == 0; }
void expr_collect_cells(expr *e, uint64_t **out, size_t *count, size_t *cap);
/* The cells e's value depends on: expr_collect_cells without the arrays' sizes, which no
 * read's value depends on (a read is its bytes, 0 past the capacity, whatever the size),
 * and with a read at a constant index within the capacity through writes as its own bytes
 * (the writes' indices and values are walked like any other term): its value is those
 * bytes or a write's value, never another byte of the array. */
void expr_collect_value_cells(expr *e, uint64_t **out, size_t *count, size_t *cap);

/* SMT-LIB 2: declarations of the arrays, one define-fun per shared node, the asserts and
 * (check-sat). Replayable with the `z3` command. */
void expr_print_smtlib(FILE *f, expr *const *formulas, size_t n);
/* A compact human-readable form, for messages and tests. */
void expr_print(FILE *f, const expr *e);
char *expr_to_string(const expr *e); /* malloc'd */
const char *expr_kind_name(expr_kind k);

/* Counters kept by the constructors (for stats.json). */
typedef struct expr_stats {
  uint64_t created, interned_hits, folded, rewrites, read_over_write, reads_merged;
} expr_stats;
expr_stats expr_get_stats(void);
/* The "expressions" object of stats.json: "created", "interned_hits", "folded", "rewrites". */
void expr_stats_json(json_writer *j, const expr_stats *s);

#endif
