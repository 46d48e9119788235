/* core.c — the conjuncts an unsatisfiable question needs, by shared cells (core.h). */
#include "prune/core.h"

#include <stdlib.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

static size_t find(size_t *parent, size_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

static void unite(size_t *parent, size_t a, size_t b) {
  a = find(parent, a), b = find(parent, b);
  if (a != b) parent[a < b ? b : a] = a < b ? a : b;
}

size_t prune_core_slice(expr *const *pc, size_t n, expr *const *query, size_t nquery, size_t *out) {
  size_t total = n + nquery;
  uint64_t **cells = xcalloc(total + 1, sizeof *cells);
  size_t *ncells = xcalloc(total + 1, sizeof *ncells), *parent = xcalloc(total + 1, sizeof *parent);
  hmap whole = {0}, owner = {0};
  hmap_reset(&whole, 16);
  for (size_t k = 0; k < total; k++) {
    size_t cap = 0;
    parent[k] = k;
    expr_collect_cells(k < n ? pc[k] : query[k - n], &cells[k], &ncells[k], &cap);
    for (size_t c = 0; c < ncells[k]; c++)
      if (expr_cell_is_whole(cells[k][c]))
        hmap_put(&whole, expr_cell(expr_cell_array(cells[k][c]), EXPR_CELL_WHOLE), 1);
  }
  /* an array read whole anywhere is one cell everywhere */
  hmap_reset(&owner, 64);
  for (size_t k = 0; k < total; k++)
    for (size_t c = 0; c < ncells[k]; c++) {
      uint64_t cell = cells[k][c];
      uint64_t as_whole = expr_cell(expr_cell_array(cell), EXPR_CELL_WHOLE);
      if (hmap_get(&whole, as_whole, NULL)) cell = as_whole;
      uint64_t first;
      if (hmap_get(&owner, cell, &first)) unite(parent, (size_t)first, k);
      else
        hmap_put(&owner, cell, k);
    }
  size_t count = 0;
  for (size_t k = 0; k < n; k++) {
    bool needed = false;
    for (size_t q = n; q < total && !needed; q++) needed = find(parent, k) == find(parent, q);
    if (needed) out[count++] = k;
  }
  for (size_t k = 0; k < total; k++) free(cells[k]);
  free(cells), free(ncells), free(parent);
  hmap_free(&whole), hmap_free(&owner);
  return count;
}
