/* size.c — what counts as a symbolic size (contract in size.h). */
#include "merge/size.h"

#include <stdlib.h>

void merge_sizes_note(merge_sizes *s, expr *size) {
  size_t before = s->n;
  expr_collect_arrays(size, &s->arrays, &s->n, &s->cap);
  for (size_t k = before; k < s->n; k++) expr_array_ref(s->arrays[k]);
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
