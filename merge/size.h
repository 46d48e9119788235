/*
 * size — what counts as a symbolic *size* (pat-merge.md §2): a loop opens a merge region
 * (under --merge-loops=size) only when its branch condition reads an input array that a
 * size was made of — directly, or through the update list of a buffer written at a size.
 * A size is an input value that says how far a loop over a buffer runs:
 *   1. a symbolic allocation size: malloc(n) (the paper's symbolic-size buffers);
 *   2. the symbolic index of a terminating write: a store of constant 0 at a symbolic
 *      offset, as in KLEE's idiom `s[n] = 0` over a fixed `char s[CAP]`;
 *   3. a symbolic value assumed as an upper bound: klee_assume(x < k) or (x <= k) with k
 *      constant (also as a conjunct, C's `(a) & (b)` included), as in `klee_assume(n < CAP)`;
 *   4. (--merge-loops=decoded) a length the code decoded from input bytes: a symbolic value
 *      that a path constraint compares (<, ≤, >, ≥, signed or not, or their negation) with a
 *      value reading a size, as libtasn1's `len + len_len > der_len` bounds a DER length by
 *      the input's size, so that the loop `for (k = 0; k < len; k++)` opens a region (issue
 *      26, item 3d; not the default: PAT's synthesis runs before the merge decision and is
 *      costly on such loops).
 * Sizes found through C's int-valued forms (3) and decoded lengths (4) are weak: a loop whose
 * branch reads only weak sizes opens a region only when its body calls no defined function.
 * Values bounded only from below, compared with other symbolic values, or merely read from
 * a buffer are not sizes: a loop over a symbolic string's bytes alone opens no region (use
 * --merge-loops=symbolic). K of a pattern merge counts as a size (merge_sizes_note).
 *
 * Contract: the set only grows during a run; it holds a reference to each array.
 */
#ifndef SYMQ_MERGE_SIZE_H
#define SYMQ_MERGE_SIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/core/expr.h"

typedef struct merge_sizes {
  expr_array **arrays; /* the arrays sizes read: the "size" taint */
  bool *weak;          /* per array: only a weak size (4, or 3 through C's int forms) */
  size_t n, cap;
} merge_sizes;

/* What a condition reads: no size, only weak ones, or a strong one. A loop whose branch
 * reads only weak sizes opens a region only when its body calls no defined function
 * (merge/region.c): a decoded length often bounds a loop that parses nested structure, whose
 * members would hold every path at the exit for the whole parse. */
typedef enum merge_size_kind {
  MERGE_SIZE_NONE,
  MERGE_SIZE_WEAK,
  MERGE_SIZE_STRONG
} merge_size_kind;
merge_size_kind merge_sizes_reads_kind(const merge_sizes *s, expr *cond);

/* size (borrowed) is used as a symbolic allocation size. */
void merge_sizes_note(merge_sizes *s, expr *size);
/* A store of value at (symbolic) offset: a terminating write makes offset a size. */
void merge_sizes_note_store(merge_sizes *s, expr *offset, expr *value);
/* cond (borrowed) was assumed: its constant upper bounds make their values sizes. */
void merge_sizes_note_assume(merge_sizes *s, expr *cond);
/* c was added to a path: a value it bounds by a size becomes one (4 above). */
void merge_sizes_note_bound(merge_sizes *s, expr *c);
/* Does cond read one of the arrays a size was made of? */
bool merge_sizes_reads(const merge_sizes *s, expr *cond);
void merge_sizes_free(merge_sizes *s);

#endif
