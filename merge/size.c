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

void merge_sizes_note_assume(merge_sizes *s, expr *cond) {
  switch (cond->kind) {
  case EXPR_AND:
    if (cond->width == 1) {
      merge_sizes_note_assume(s, cond->kid[0]);
      merge_sizes_note_assume(s, cond->kid[1]);
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
