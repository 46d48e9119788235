/*
 * testmodel.c — a test's model moved to a canonical point by evaluation (contract in
 * testmodel.h).
 */
#include "engine/out/testmodel.h"

#include <stdbool.h>
#include <stdlib.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

enum { FORALL_COST = 64, MAX_FORALL_RANGE = 4096 };
#define MEMO_MAX_CELLS ((size_t)1 << 22)
#define FOREIGN UINT32_MAX /* a formula reading an array no test binds (a merge's K) */

/* One formula's cells: memo->cells[start .. start + count), constant arrays' left out. */
typedef struct memo_entry {
  size_t start;
  uint32_t count;   /* FOREIGN: see above */
  bool disjunction; /* its bytes keep the model's values (testmodel.h) */
} memo_entry;

struct out_canon {
  hmap by_id; /* formula id + 1 -> index into entries */
  memo_entry *entries;
  size_t nentries, entries_cap;
  uint64_t *cells;
  size_t ncells, cells_cap;
  uint64_t *scratch; /* expr_collect_value_cells' output */
  size_t scratch_cap;
  expr_array **arrays; /* expr_collect_arrays' output */
  size_t arrays_cap;
};

out_canon *out_canon_new(void) { return xcalloc(1, sizeof(out_canon)); }

void out_canon_free(out_canon *c) {
  if (!c) return;
  hmap_free(&c->by_id);
  free(c->entries), free(c->cells), free(c->scratch), free(c->arrays);
  free(c);
}

/* The cells formula f's value reads, without constant arrays' (walked once per formula). */
static memo_entry cells_of(out_canon *c, expr *f) {
  uint64_t at;
  if (hmap_get(&c->by_id, f->id + 1, &at)) return c->entries[at];
  if (c->ncells > MEMO_MAX_CELLS) { /* starts over: a function of f only, so no change */
    hmap_clear(&c->by_id);
    c->nentries = c->ncells = 0;
  }
  size_t narrays = 0, n = 0;
  expr_collect_arrays(f, &c->arrays, &narrays, &c->arrays_cap);
  memo_entry e = {.start = c->ncells};
  for (size_t k = 0; k < narrays; k++)
    if (!c->arrays[k]->is_input && !c->arrays[k]->init) e.count = FOREIGN;
  e.disjunction = f->width == 1 && (f->kind == EXPR_OR || f->kind == EXPR_ITE);
  if (e.count != FOREIGN) {
    expr_collect_value_cells(f, &c->scratch, &n, &c->scratch_cap);
    for (size_t k = 0; k < n; k++) {
      bool constant = false;
      for (size_t a = 0; a < narrays && !constant; a++)
        constant = c->arrays[a]->init && c->arrays[a]->id == expr_cell_array(c->scratch[k]);
      if (constant) continue;
      if (c->ncells == c->cells_cap)
        c->cells = xrealloc(
            c->cells, (c->cells_cap = c->cells_cap ? 2 * c->cells_cap : 256) * sizeof *c->cells);
      c->cells[c->ncells++] = c->scratch[k];
      e.count++;
    }
  }
  if (c->nentries == c->entries_cap)
    c->entries = xrealloc(c->entries, (c->entries_cap = c->entries_cap ? 2 * c->entries_cap : 256) *
                                          sizeof *c->entries);
  c->entries[c->nentries] = e;
  hmap_put(&c->by_id, f->id + 1, c->nentries++);
  return e;
}

typedef struct reader {
  uint64_t cell;    /* expr_cell(array id, byte or EXPR_CELL_WHOLE) */
  uint32_t formula; /* index into the formulas; FOREIGN: a disjunction reads the cell */
} reader;

static int by_cell(const void *a, const void *b) {
  const reader *x = a, *y = b;
  if (x->cell != y->cell) return x->cell < y->cell ? -1 : 1;
  return x->formula < y->formula ? -1 : x->formula > y->formula;
}

static int by_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

typedef struct descent {
  expr *const *formulas;
  reader *readers; /* sorted by cell, then formula; no repeats */
  size_t nreaders;
  uint32_t *which; /* the formulas reading the byte being moved */
  size_t nwhich;
  uint64_t budget;
} descent;

/* Appends the formulas that read `cell` to s->which. */
static void add_readers(descent *s, uint64_t cell) {
  size_t lo = 0, hi = s->nreaders; /* the first reader of cell */
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (s->readers[mid].cell < cell) lo = mid + 1;
    else
      hi = mid;
  }
  for (; lo < s->nreaders && s->readers[lo].cell == cell; lo++)
    s->which[s->nwhich++] = s->readers[lo].formula;
}

/* Whether the model holds every formula of s->which with *byte set to v (left at v); false
 * too when the budget does not cover the evaluations. */
static bool fits(descent *s, const expr_assignment *m, uint8_t *byte, uint8_t v) {
  *byte = v;
  for (size_t k = 0; k < s->nwhich; k++) {
    expr *f = s->formulas[s->which[k]];
    uint64_t cost = f->has_forall ? FORALL_COST : 1;
    if (cost > s->budget) {
      s->budget = 0;
      return false;
    }
    s->budget -= cost;
    u128 value;
    if (expr_eval(f, m, MAX_FORALL_RANGE, &value) != EXPR_EVAL_OK || !value) return false;
  }
  return true;
}

/* The least value of *byte (≤ its own) the search finds with the readers holding: 0, else
 * steps down from the byte's value by 1, 2, 4… while they fit, then a bisection between the
 * last value that did not fit and the last that did — the least of an interval of fitting
 * values reaching up to the byte's, in a number of evaluations logarithmic in the distance. */
static uint8_t least(descent *s, const expr_assignment *m, uint8_t *byte) {
  unsigned hi = *byte; /* fits (or is the model's value) */
  if (fits(s, m, byte, 0)) return 0;
  unsigned lo = 0; /* does not fit */
  for (unsigned step = 1; step < hi - lo && s->budget; step *= 2) {
    if (!fits(s, m, byte, (uint8_t)(hi - step))) {
      lo = hi - step;
      break;
    }
    hi -= step;
  }
  while (hi - lo > 1 && s->budget) {
    unsigned mid = lo + (hi - lo) / 2;
    if (fits(s, m, byte, (uint8_t)mid)) hi = mid;
    else
      lo = mid;
  }
  return (uint8_t)hi;
}

size_t out_canonical_model(out_canon *c, expr *const *formulas, size_t n, expr_array *const *arrays,
                           size_t narrays, expr_assignment *model, uint64_t budget) {
  if (!model || !n || !narrays || n > OUT_CANONICAL_MAX_FORMULAS) return 0;
  descent s = {.formulas = formulas, .budget = budget};
  size_t readers_cap = 0;
  bool bound = true;
  for (size_t i = 0; i < n && bound; i++) {
    memo_entry e = cells_of(c, formulas[i]);
    bound = e.count != FOREIGN;
    for (uint32_t k = 0; bound && k < e.count; k++) {
      uint64_t cell = c->cells[e.start + k];
      bound = false; /* an input of another state's cannot be, but is not bound either */
      for (size_t a = 0; a < narrays && !bound; a++) bound = arrays[a]->id == expr_cell_array(cell);
      if (s.nreaders == readers_cap)
        s.readers = xrealloc(
            s.readers, (readers_cap = readers_cap ? 2 * readers_cap : 64) * sizeof *s.readers);
      s.readers[s.nreaders++] = (reader){cell, e.disjunction ? FOREIGN : (uint32_t)i};
    }
  }
  size_t changed = 0;
  if (bound && s.nreaders) {
    qsort(s.readers, s.nreaders, sizeof *s.readers, by_cell);
    size_t kept = 0; /* repeats out */
    for (size_t k = 0; k < s.nreaders; k++)
      if (!kept || s.readers[kept - 1].cell != s.readers[k].cell ||
          s.readers[kept - 1].formula != s.readers[k].formula)
        s.readers[kept++] = s.readers[k];
    s.nreaders = kept;
    s.which = xcalloc(s.nreaders + 1, sizeof *s.which);
    for (size_t a = 0; a < narrays && s.budget; a++) {
      const expr_binding *b = expr_assignment_find(model, arrays[a]); /* bytes: lowered here */
      for (size_t j = 0; b && j < b->len && s.budget; j++) {
        if (!b->bytes[j]) continue;
        s.nwhich = 0;
        add_readers(&s, expr_cell(arrays[a]->id, j));
        add_readers(&s, expr_cell(arrays[a]->id, EXPR_CELL_WHOLE));
        if (s.nwhich > 1) { /* a formula reading the byte and the whole array: once */
          qsort(s.which, s.nwhich, sizeof *s.which, by_u32);
          size_t w = 1;
          for (size_t k = 1; k < s.nwhich; k++)
            if (s.which[k] != s.which[w - 1]) s.which[w++] = s.which[k];
          s.nwhich = w;
        }
        if (s.nwhich && s.which[s.nwhich - 1] == FOREIGN) continue; /* read by a disjunction */
        uint8_t was = b->bytes[j];
        b->bytes[j] = least(&s, model, &b->bytes[j]);
        changed += b->bytes[j] != was;
      }
    }
    free(s.which);
  }
  free(s.readers);
  return changed;
}
