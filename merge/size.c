/* size.c — what counts as a symbolic size (contract in size.h). */
#include "merge/size.h"

#include <stdlib.h>

#include "engine/core/xalloc.h"

/* Notes size's arrays; weak: as weak sizes (an array noted strongly is never weak). */
static void note(merge_sizes *s, expr *size, bool weak) {
  size_t before = s->n;
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(size, &arrays, &n, &cap);
  for (size_t i = 0; i < n; i++) {
    size_t k = 0;
    while (k < s->n && s->arrays[k] != arrays[i]) k++;
    if (k == s->n) {
      if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 8;
        s->arrays = xrealloc(s->arrays, s->cap * sizeof *s->arrays);
        s->weak = xrealloc(s->weak, s->cap * sizeof *s->weak);
      }
      s->arrays[s->n] = arrays[i];
      s->weak[s->n++] = weak;
      expr_array_ref(arrays[i]);
    } else if (!weak) {
      s->weak[k] = false;
    }
  }
  (void)before;
  free(arrays);
}

void merge_sizes_note(merge_sizes *s, expr *size) { note(s, size, false); }

void merge_sizes_note_store(merge_sizes *s, expr *offset, expr *value) {
  if (!expr_is_const(offset) && expr_is_const(value) && value->u.value == 0) note(s, offset, false);
}

static bool is_zero(const expr *e) { return expr_is_const(e) && e->u.value == 0; }

/* weak: reached through C's int-valued forms (sizes of kind 3 found there are weak ones) */
static void note_assume(merge_sizes *s, expr *cond, bool weak) {
  switch (cond->kind) {
  case EXPR_AND: /* C's `(a) & (b)` is a wider AND of zero-extended conditions */
    note_assume(s, cond->kid[0], weak || cond->width != 1);
    note_assume(s, cond->kid[1], weak || cond->width != 1);
    return;
  case EXPR_ZEXT:
    if (cond->kid[0]->width == 1) note_assume(s, cond->kid[0], true);
    return;
  case EXPR_NE: /* x != 0, as C tests an int */
    if (is_zero(cond->kid[0]) || is_zero(cond->kid[1]))
      note_assume(s, is_zero(cond->kid[0]) ? cond->kid[1] : cond->kid[0], true);
    return;
  case EXPR_NOT: /* ¬(0 = x), the same */
    if (cond->width == 1 && cond->kid[0]->kind == EXPR_EQ) {
      expr *eq = cond->kid[0];
      if (is_zero(eq->kid[0]) || is_zero(eq->kid[1]))
        note_assume(s, is_zero(eq->kid[0]) ? eq->kid[1] : eq->kid[0], true);
    }
    return;
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_SLT:
  case EXPR_SLE:
    if (!expr_is_const(cond->kid[0]) && expr_is_const(cond->kid[1])) note(s, cond->kid[0], weak);
    return;
  default: return;
  }
}

void merge_sizes_note_assume(merge_sizes *s, expr *cond) { note_assume(s, cond, false); }

/* Does e read an array that is not (yet) a size? */
static bool reads_other(const merge_sizes *s, expr *e) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(e, &arrays, &n, &cap);
  bool other = false;
  for (size_t i = 0; i < n && !other; i++) {
    bool size = false;
    for (size_t k = 0; k < s->n && !size; k++) size = arrays[i] == s->arrays[k];
    other = !size;
  }
  free(arrays);
  return other;
}

void merge_sizes_note_bound(merge_sizes *s, expr *c) {
  while (c->kind == EXPR_NOT && c->width == 1) c = c->kid[0];
  if (!expr_kind_is_ordering(c->kind)) return;
  if (!s->n || expr_is_const(c->kid[0]) || expr_is_const(c->kid[1])) return;
  for (int side = 0; side < 2; side++)
    if (reads_other(s, c->kid[side]) && merge_sizes_reads(s, c->kid[1 - side])) {
      note(s, c->kid[side], true);
      return;
    }
}

merge_size_kind merge_sizes_reads_kind(const merge_sizes *s, expr *cond) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(cond, &arrays, &n, &cap);
  merge_size_kind kind = MERGE_SIZE_NONE;
  for (size_t i = 0; i < n && kind != MERGE_SIZE_STRONG; i++)
    for (size_t k = 0; k < s->n; k++)
      if (arrays[i] == s->arrays[k]) kind = s->weak[k] ? MERGE_SIZE_WEAK : MERGE_SIZE_STRONG;
  free(arrays);
  return kind;
}

bool merge_sizes_reads(const merge_sizes *s, expr *cond) {
  return merge_sizes_reads_kind(s, cond) != MERGE_SIZE_NONE;
}

void merge_sizes_free(merge_sizes *s) {
  for (size_t k = 0; k < s->n; k++) expr_array_unref(s->arrays[k]);
  free(s->arrays);
  free(s->weak);
  *s = (merge_sizes){0};
}
