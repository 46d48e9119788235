/* size.c — what counts as a symbolic size (contract in size.h). */
#include "merge/size.h"

#include <stdlib.h>

void merge_sizes_note(merge_sizes *s, expr *size) {
  size_t before = s->n;
  expr_collect_arrays(size, &s->arrays, &s->n, &s->cap);
  for (size_t k = before; k < s->n; k++) expr_array_ref(s->arrays[k]);
}

void merge_sizes_note_store(merge_sizes *s, expr *offset, expr *value) {
  if (!expr_is_const(offset) && expr_is_const(value) && value->u.value == 0)
    merge_sizes_note(s, offset);
}

static bool is_zero(const expr *e) { return expr_is_const(e) && e->u.value == 0; }

void merge_sizes_note_assume(merge_sizes *s, expr *cond) {
  switch (cond->kind) {
  case EXPR_AND: /* C's `(a) & (b)` is a wider AND of zero-extended conditions */
    merge_sizes_note_assume(s, cond->kid[0]);
    merge_sizes_note_assume(s, cond->kid[1]);
    return;
  case EXPR_ZEXT:
    if (cond->kid[0]->width == 1) merge_sizes_note_assume(s, cond->kid[0]);
    return;
  case EXPR_NE: /* x != 0, as C tests an int */
    if (is_zero(cond->kid[0]) || is_zero(cond->kid[1]))
      merge_sizes_note_assume(s, is_zero(cond->kid[0]) ? cond->kid[1] : cond->kid[0]);
    return;
  case EXPR_NOT: /* ¬(0 = x), the same */
    if (cond->width == 1 && cond->kid[0]->kind == EXPR_EQ) {
      expr *eq = cond->kid[0];
      if (is_zero(eq->kid[0]) || is_zero(eq->kid[1]))
        merge_sizes_note_assume(s, is_zero(eq->kid[0]) ? eq->kid[1] : eq->kid[0]);
    }
    return;
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_SLT:
  case EXPR_SLE:
    if (!expr_is_const(cond->kid[0]) && expr_is_const(cond->kid[1]))
      merge_sizes_note(s, cond->kid[0]);
    return;
  default: return;
  }
}

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
  switch (c->kind) {
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_UGT:
  case EXPR_UGE:
  case EXPR_SLT:
  case EXPR_SLE:
  case EXPR_SGT:
  case EXPR_SGE: break;
  default: return;
  }
  if (!s->n || expr_is_const(c->kid[0]) || expr_is_const(c->kid[1])) return;
  for (int side = 0; side < 2; side++)
    if (reads_other(s, c->kid[side]) && merge_sizes_reads(s, c->kid[1 - side])) {
      merge_sizes_note(s, c->kid[side]);
      return;
    }
}

bool merge_sizes_reads(const merge_sizes *s, expr *cond) {
  expr_array **arrays = NULL;
  size_t n = 0, cap = 0;
  expr_collect_arrays(cond, &arrays, &n, &cap);
  bool found = false;
  for (size_t i = 0; i < n && !found; i++)
    for (size_t k = 0; k < s->n && !found; k++) found = arrays[i] == s->arrays[k];
  free(arrays);
  return found;
}

void merge_sizes_free(merge_sizes *s) {
  for (size_t k = 0; k < s->n; k++) expr_array_unref(s->arrays[k]);
  free(s->arrays);
  *s = (merge_sizes){0};
}
