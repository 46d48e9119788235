/*
 * size — what counts as a symbolic *size* (pat-merge.md §2): a loop opens a merge region
 * (under --merge-loops=size) only when its branch condition reads an input array that a
 * size was made of. Today a size is a symbolic allocation size (malloc(n) with n symbolic):
 * the arrays it reads are remembered, and a condition "depends on a size" when it reads one.
 *
 * Contract: the set only grows during a run; it holds a reference to each array.
 */
#ifndef SYMQ_MERGE_SIZE_H
#define SYMQ_MERGE_SIZE_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/expr.h"

typedef struct merge_sizes {
  expr_array **arrays; /* the arrays sizes read: the "size" taint */
  size_t n, cap;
} merge_sizes;

/* size (borrowed) is used as a symbolic allocation size. */
void merge_sizes_note(merge_sizes *s, expr *size);
/* Does cond read one of the arrays a size was made of? */
bool merge_sizes_reads(const merge_sizes *s, expr *cond);
void merge_sizes_free(merge_sizes *s);

#endif
