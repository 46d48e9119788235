/*
 * stage_basic.c — the two syntactic stages at the head of the chain.
 *
 * constant: drops formulas that are constant true and duplicates, answers unsat on a
 * constant false or on a formula whose negation (as expr_not builds it, hash-consed) is
 * also present — the common "branch on a condition already on the path" — and sat on an
 * empty set.
 *
 * independence: first rewrites the request under its own bounds (qsolver/bounds.h: a read
 * at a constant index skips the writes at indices the path's bounds keep away from it, and
 * bounds implied by tighter ones go), then groups formulas that read a common cell,
 * transitively (union-find over the formulas, keyed by cell), as KLEE's independent element
 * sets do: a cell is a byte of an array read at a constant index through no writes, or a
 * whole array when any formula of the request reads it otherwise (a symbolic index, through
 * writes). An array's size is no cell of its reads (expr_collect_value_cells): no read's
 * value depends on it, and counting it tied every byte of a buffer of symbolic size to the
 * size's formulas. memspn under pat at capacity 1024 (the path knows i < n before it reads
 * s[i] through the write s[n] = 0): 13.9 s → 1.8 s CPU, each query now the size's tightest
 * bound, the new byte and the question instead of the path's ~2000 formulas. A group made only of
 * assumed formulas that reads no requested array is satisfiable by the precondition and
 * shares no variable with the rest, so it is dropped. The remaining groups share no cell,
 * so each is solved on its own (smaller, and far more often repeated, which is what the
 * caches feed on) and the models are merged, each group giving the bytes it reads. A fresh
 * constant such as a merge's K is an array like any other, so the constraints that use it
 * stay together, as they must. Slicing by byte rather than by array took the OID decoder
 * (eval/bench_solver.py) from 3955 to 8455 paths in 20 s. A read at a constant index
 * through writes is its own bytes (and the writes' terms), not the whole array.
 * A request with a path takes the path's components kept along the prefix (bounds.h's path
 * mode: levels pushed and popped with undo, a union-find over their cells without path
 * compression) and slices only the question with the components it or a requested array
 * reads; the constant stage keeps its duplicate check along the prefix the same way. Of a
 * needed component's nodes only the terms', the levels that are no one-sided bound and the
 * bounds' tightest ends can go out, and a request visits those alone (memspn under pat at
 * 1024: its components are mostly bounds on n, of which the path keeps two).
 * The work per sliced request is linear in its formulas: they are bucketed by component in one
 * pass, a component's model bytes are merged in place, and a component that only pins one
 * byte (c = a[k]) gives that byte without a query — the string scan's model requests have
 * one per byte of the prefix (CAP 2048: 2.1M sub-requests, 52.9 s → 9.0 s wall).
 */
#include "qsolver/bounds.h"
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"

#include <assert.h>

/* ---- constant ---------------------------------------------------------------------------- */

typedef struct constant_stage {
  qs_stage base;
  qs_idmap seen;
  expr **kept;
  size_t kept_cap;
  /* The last request's path (its assumed formulas' ids: ids are never reused, and the
   * solver keeps no reference to a caller's formula), kept so that the next one only looks at
   * what follows their common prefix: path[i] went out as pkept[nkept_at[i]] when
   * kept_here[i] (pkept's pointers are the caller's while their ids stand in the path);
   * pseen maps a kept path formula's id to its position (an entry is stale when that
   * position now holds another formula or lies past the path). */
  uint64_t *path;
  size_t *nkept_at;
  bool *kept_here;
  size_t npath, path_cap, at_cap, here_cap, first_false; /* SIZE_MAX: no false formula */
  qs_idmap pseen;
  expr **pkept; /* the path's kept formulas, then the question's */
  size_t pkept_cap;
  /* pkept[0..stable) have stood since the last request forwarded with a path (its qs_req.same
   * for the next one; 0 before the first) */
  size_t stable;
  /* The leading formulas of the request that stood since the last path sync, by qs_solve's
   * qs_req.same on the requests since (0 before the first) */
  size_t known;
} constant_stage;

/* The kept formulas f[0..n) (the first `assumed` the path's) go on; none left is sat. */
static void constant_forward(qs_stage *st, const qs_req *rq, expr **f, size_t n, size_t assumed,
                             qs_ans *ans) {
  if (n == 0) {
    ans->status = QS_SAT;
    if (rq->want_model) ans->model = expr_assignment_new();
    return;
  }
  qs_req sub = *rq;
  sub.f = f;
  sub.n = n;
  sub.assumed = assumed;
  qs_forward(st, &sub, ans);
}

/* Is f among the kept formulas of the path's first n? */
static bool path_seen(const constant_stage *c, const expr *f, size_t n) {
  uint64_t pos;
  return qs_idmap_get(&c->pseen, f->id, &pos) && pos < n && c->path[pos] == f->id &&
         c->kept_here[pos];
}

/* Makes c->path the request's assumed formulas: pops to the common prefix, pushes the rest
 * (each dropped when constant true or a duplicate of one before it). */
static void constant_path_sync(constant_stage *c, const qs_req *rq) {
  size_t lim = rq->assumed < c->npath ? rq->assumed : c->npath, m = c->known < lim ? c->known : lim;
  c->known = SIZE_MAX;
  assert(!m || c->path[m - 1] == rq->f[m - 1]->id);
  while (m < lim && c->path[m] == rq->f[m]->id) m++;
  if (c->npath && c->nkept_at[m] < c->stable) c->stable = c->nkept_at[m]; /* the rest goes */
  if (!c->npath) c->stable = 0;
  c->npath = m;
  if (c->first_false >= m) c->first_false = SIZE_MAX;
  if (c->pseen.count > 4 * (size_t)m + 1024) { /* stale entries: rebuilt from the prefix */
    qs_idmap_reset(&c->pseen, m);
    for (size_t i = 0; i < m; i++)
      if (c->kept_here[i]) qs_idmap_put(&c->pseen, c->path[i], i);
  }
  QS_RESERVE(c->path, c->path_cap, rq->assumed);
  QS_RESERVE(c->nkept_at, c->at_cap, rq->assumed + 1);
  QS_RESERVE(c->kept_here, c->here_cap, rq->assumed);
  QS_RESERVE(c->pkept, c->pkept_cap, rq->n);
  if (!m) c->nkept_at[0] = 0;
  for (size_t i = m; i < rq->assumed; i++) {
    expr *f = rq->f[i];
    size_t nk = c->nkept_at[i];
    c->path[i] = f->id;
    c->kept_here[i] = false;
    if (expr_is_false(f) && c->first_false == SIZE_MAX) c->first_false = i;
    if (!expr_is_true(f) && !path_seen(c, f, i)) {
      c->kept_here[i] = true;
      qs_idmap_put(&c->pseen, f->id, i);
      c->pkept[nk++] = f;
    }
    c->nkept_at[i + 1] = nk;
    c->npath = i + 1;
  }
}

/* constant_solve for a request with a path: the path's part comes from the kept prefix. */
static void constant_solve_path(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  constant_stage *c = (constant_stage *)st;
  constant_path_sync(c, rq);
  if (c->first_false != SIZE_MAX) {
    ans->status = QS_UNSAT;
    return;
  }
  size_t assumed = c->nkept_at[rq->assumed], n = assumed;
  st->stats.formulas_dropped += rq->assumed - assumed;
  for (size_t i = rq->assumed; i < rq->n; i++) {
    expr *f = rq->f[i];
    if (expr_is_false(f)) {
      ans->status = QS_UNSAT;
      return;
    }
    bool dup = expr_is_true(f) || path_seen(c, f, rq->assumed);
    for (size_t j = assumed; j < n && !dup; j++) dup = c->pkept[j] == f;
    if (dup) {
      st->stats.formulas_dropped++;
      continue;
    }
    c->pkept[n++] = f;
  }
  /* The assumed formulas are jointly satisfiable: only the others can clash. */
  for (size_t i = assumed; i < n; i++) {
    expr *nf = expr_not(c->pkept[i]);
    bool clash = path_seen(c, nf, rq->assumed);
    for (size_t j = assumed; j < n && !clash; j++) clash = c->pkept[j] == nf;
    expr_unref(nf);
    if (clash) {
      ans->status = QS_UNSAT;
      return;
    }
  }
  qs_req with = *rq;
  with.same = 0;
  if (assumed) { /* a request with a path below: what stood since the last one */
    with.same = c->stable < assumed ? c->stable : assumed;
    c->stable = SIZE_MAX;
  }
  constant_forward(st, &with, c->pkept, n, assumed, ans);
}

static void constant_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  constant_stage *c = (constant_stage *)st;
  if (rq->same < c->known) c->known = rq->same;
  if (rq->assumed) {
    constant_solve_path(st, rq, ans);
    return;
  }
  qs_idmap_reset(&c->seen, rq->n);
  QS_RESERVE(c->kept, c->kept_cap, rq->n);
  size_t n = 0, assumed = 0;
  for (size_t i = 0; i < rq->n; i++) {
    expr *f = rq->f[i];
    uint64_t dummy;
    if (expr_is_false(f)) {
      ans->status = QS_UNSAT;
      return;
    }
    if (expr_is_true(f) || qs_idmap_get(&c->seen, f->id, &dummy)) {
      st->stats.formulas_dropped++;
      continue;
    }
    qs_idmap_put(&c->seen, f->id, 0);
    c->kept[n++] = f;
    if (i < rq->assumed) assumed++;
  }
  /* The assumed formulas are jointly satisfiable: only the others can clash. */
  for (size_t i = rq->assumed ? assumed : 0; i < n; i++) {
    expr *nf = expr_not(c->kept[i]);
    uint64_t dummy;
    bool clash = qs_idmap_get(&c->seen, nf->id, &dummy);
    expr_unref(nf);
    if (clash) {
      ans->status = QS_UNSAT;
      return;
    }
  }
  constant_forward(st, rq, c->kept, n, assumed, ans);
}

static void constant_destroy(qs_stage *st) {
  constant_stage *c = (constant_stage *)st;
  free(c->path);
  free(c->nkept_at);
  free(c->kept_here);
  qs_idmap_free(&c->pseen);
  free(c->pkept);
  qs_idmap_free(&c->seen);
  free(c->kept);
  free(c);
}

static const qs_stage_ops constant_ops = {"constant", constant_solve, constant_destroy};

qs_stage *qs_constant_stage_new(qsolver *s) {
  constant_stage *c = xcalloc(1, sizeof *c);
  c->base.ops = &constant_ops;
  c->first_false = SIZE_MAX;
  return &c->base;
}

/* ---- independence -------------------------------------------------------------------------- */

/* Per-array slot of the current request. */
typedef struct array_slot {
  uint64_t whole;     /* == stamp: some formula reads the array as a whole */
  uint64_t requested; /* == stamp: the caller wants the array in the model */
  uint64_t touched;   /* == touch: the component being solved reads the array */
} array_slot;

typedef struct independence_stage {
  qs_stage base;
  qs_cell_memo cells; /* formulas' cells (expr_collect_value_cells) */
  /* Per request. */
  array_slot *slots; /* by array id */
  size_t slots_cap;
  uint64_t stamp, touch;
  qs_idmap owner; /* cell → the first formula reading it (whole cells for whole arrays) */
  uint32_t *parent, *comp_of_root;
  size_t parent_cap, comp_cap;
  bool *needed;
  size_t needed_cap;
  expr **sub_f;
  size_t sub_f_cap;
  expr_array **sub_arrays;
  size_t sub_arrays_cap;
  uint32_t *comp_no; /* by root: its component's number */
  size_t *start;     /* component c's formulas: order[start[c] .. start[c + 1]) */
  uint32_t *order;
  size_t comp_no_cap, start_cap, order_cap;
  uint64_t *ccells; /* the cells of the component being solved */
  size_t ccells_cap;
  qs_bounds *bounds; /* the request's bounds and the reads they free from writes */
  expr **bounded;    /* the request after qs_bounds_apply (references) */
  size_t bounded_cap;
  /* The path's components kept along the prefix (bounds.h's path mode): a node per level, and
   * one per term after its level of the path's first exclusion on it (the term's moved ends'
   * bounds), united when they read a common cell; undone node by node as levels go. */
  size_t nlev;                    /* levels pushed, as many as the bounds' */
  size_t *lev_node;               /* level k's node */
  uint32_t *up, *size;            /* union by size, no path compression (undo) */
  uint32_t *node_level;           /* UINT32_MAX: a term's node */
  const expr **node_term;         /* a term's node's term */
  size_t *node_cells, *node_mark; /* offsets into pcells and plog before the node's */
  uint64_t *need;                 /* by root: == ind->stamp when the request needs it */
  uint32_t *next;                 /* each component's nodes in a ring (spliced by union) */
  const expr_array *pin_array;    /* pinned_byte's last binding (NULL: look it up), valid */
  uint8_t *pin_bytes;             /* while nothing else sets the model's bindings */
  uint32_t *roots, *members;      /* scratch: a request's needed roots, their nodes */
  size_t roots_cap, members_cap;
  uint32_t *first;      /* by root: its first formula in a request without a */
  uint64_t *first_seen; /* question, when first_seen == ind->stamp */
  size_t nnodes, lev_cap, node_cap;
  uint64_t *pcells;
  size_t npcells, pcells_cap;
  qs_idmap powner; /* cell → the first node reading it */
  uint64_t *plog;  /* undo: cell << 1 (owner put) | child << 1 | 1 (union) */
  size_t nplog, plog_cap;
  size_t whole_nodes; /* nodes reading an array as a whole (path mode declines) */
  const expr **excl;  /* scratch: the terms whose nodes a request needs */
  size_t excl_cap;
  /* Each component's candidates in a ring of their own (spliced and split with `next`'s):
   * the nodes that can go out whatever the later levels (terms' nodes, levels that are no
   * one-sided bound). With the bounds' tightest ends (qs_bounds_path_ends) they are a superset
   * of the nodes a request with a question takes from its components, so that it need not
   * visit every node of them (memspn under pat at 1024: the size's component holds the path's
   * ~1000 bounds on n, of which two go out). */
  uint32_t *chead; /* by root: a candidate of its component (UINT32_MAX: none) */
  uint32_t *cnext, *csize;
  size_t *ends;  /* scratch: the bounds' tightest ends */
  uint32_t *via; /* scratch: the nodes a request visits, ascending */
  size_t ends_cap, via_cap;
  /* The leading path formulas that stood since the bounds' last sync, by the constant
   * stage's qs_req.same on the requests with a path since (0 before the first) */
  size_t known;
} independence_stage;

static const uint64_t *formula_cells(independence_stage *ind, expr *f, size_t *count) {
  return qs_cell_memo_get(&ind->cells, f, expr_collect_value_cells, count);
}

static uint32_t find(uint32_t *parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

static void unite(uint32_t *parent, uint32_t a, uint32_t b) {
  a = find(parent, a);
  b = find(parent, b);
  /* The smaller index becomes the root, so roots (and component order) are deterministic. */
  if (a < b) parent[b] = a;
  else if (b < a)
    parent[a] = b;
}

static array_slot *slot_of(independence_stage *ind, uint32_t array_id) {
  if (array_id >= ind->slots_cap) {
    size_t old = ind->slots_cap;
    QS_RESERVE(ind->slots, ind->slots_cap, (size_t)array_id + 1);
    memset(ind->slots + old, 0, (ind->slots_cap - old) * sizeof *ind->slots);
  }
  return &ind->slots[array_id];
}

/* The cell as this request slices: a byte of an array some formula reads as a whole is
 * the whole array. */
static uint64_t request_cell(independence_stage *ind, uint64_t cell) {
  uint32_t a = expr_cell_array(cell);
  return ind->slots[a].whole == ind->stamp ? expr_cell(a, EXPR_CELL_WHOLE) : cell;
}

/* Copies into `merged` the bytes of `b` that the component being solved owns: all of an
 * array it reads as a whole, else the bytes it reads (cells[0..ncells), its formulas'
 * cells). Other components own the others. In place: a model of one byte per component
 * over a buffer of thousands cost a copy of the buffer per component. */
static void merge_owned(independence_stage *ind, expr_assignment *merged, const expr_binding *b,
                        const uint64_t *cells, size_t ncells) {
  expr_array *a = b->array;
  if (a->id >= ind->slots_cap || ind->slots[a->id].touched != ind->touch) return;
  if (ind->slots[a->id].whole == ind->stamp) {
    expr_assignment_set(merged, a, b->bytes, b->len);
    return;
  }
  const expr_binding *old = expr_assignment_find(merged, a);
  if (!old || old->len < b->len) { /* grown to b's length, zeros past the old bytes */
    uint8_t *grown = xcalloc(b->len ? b->len : 1, 1);
    if (old && old->len) memcpy(grown, old->bytes, old->len);
    expr_assignment_set(merged, a, grown, b->len);
    free(grown);
    old = expr_assignment_find(merged, a);
  }
  uint8_t *bytes = old->bytes; /* merged's own copy */
  for (size_t k = 0; k < ncells; k++) {
    uint64_t byte = (uint32_t)cells[k];
    if (expr_cell_array(cells[k]) != a->id || expr_cell_is_whole(cells[k])) continue;
    byte--; /* expr_cell stores byte + 1 */
    if (byte < b->len) bytes[byte] = b->bytes[byte];
  }
}

/* A component of one formula c = a[k], a byte of an array without initial contents read at a
 * constant index within its capacity through no writes, is satisfied by that byte alone:
 * merged gets it here (when a is requested), without a query. The string scan's model
 * requests have one such component per byte of the prefix: a query each was quadratic. */
static bool pinned_byte(independence_stage *ind, expr_assignment *merged, const expr *f) {
  const expr *c, *r;
  if (!qs_eq_const(f, &c, &r) || r->kind != EXPR_READ || r->width != 8 || r->u.read.updates ||
      r->kid[0]->kind != EXPR_CONST || r->kid[0]->u.value >= r->u.read.array->capacity ||
      r->u.read.array->init)
    return false;
  expr_array *a = r->u.read.array;
  if (!merged || a->id >= ind->slots_cap || ind->slots[a->id].requested != ind->stamp) return true;
  if (a == ind->pin_array) { /* the same array's binding as the last byte's */
    ind->pin_bytes[(size_t)r->kid[0]->u.value] = (uint8_t)c->u.value;
    return true;
  }
  const expr_binding *old = expr_assignment_find(merged, a);
  if (!old || old->len < a->capacity) {
    uint8_t *grown = xcalloc(a->capacity, 1);
    if (old && old->len) memcpy(grown, old->bytes, old->len);
    expr_assignment_set(merged, a, grown, a->capacity);
    free(grown);
    old = expr_assignment_find(merged, a);
  }
  old->bytes[(size_t)r->kid[0]->u.value] = (uint8_t)c->u.value;
  ind->pin_array = a;
  ind->pin_bytes = old->bytes;
  return true;
}

static void slice_solve(qs_stage *st, const qs_req *rq, expr_assignment *merged, qs_ans *ans);

static void independence_slice(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  independence_stage *ind = (independence_stage *)st;
  size_t n = rq->n, total = 0;
  ind->stamp++;
  QS_RESERVE(ind->parent, ind->parent_cap, n);
  QS_RESERVE(ind->needed, ind->needed_cap, n);
  QS_RESERVE(ind->comp_of_root, ind->comp_cap, n);
  for (size_t k = 0; k < rq->narrays; k++) slot_of(ind, rq->arrays[k]->id)->requested = ind->stamp;
  /* Which arrays are read as a whole, and which formulas read a requested array. */
  for (size_t i = 0; i < n; i++) {
    ind->parent[i] = (uint32_t)i;
    ind->needed[i] = rq->assumed == 0 || i >= rq->assumed;
    size_t nc;
    const uint64_t *cells = formula_cells(ind, rq->f[i], &nc);
    total += nc;
    for (size_t k = 0; k < nc; k++) {
      array_slot *sl = slot_of(ind, expr_cell_array(cells[k]));
      if (expr_cell_is_whole(cells[k])) sl->whole = ind->stamp;
      if (sl->requested == ind->stamp) ind->needed[i] = true;
    }
  }
  /* Formulas reading a common cell are in one group. */
  qs_idmap_reset(&ind->owner, total);
  for (size_t i = 0; i < n; i++) {
    size_t nc;
    const uint64_t *cells = formula_cells(ind, rq->f[i], &nc);
    for (size_t k = 0; k < nc; k++) {
      uint64_t cell = request_cell(ind, cells[k]), first;
      if (qs_idmap_get(&ind->owner, cell, &first)) unite(ind->parent, (uint32_t)first, (uint32_t)i);
      else
        qs_idmap_put(&ind->owner, cell, i);
    }
  }
  for (size_t i = 0; i < n; i++)
    if (ind->needed[i]) ind->needed[find(ind->parent, (uint32_t)i)] = true;
  slice_solve(st, rq, NULL, ans);
}

/* Solves the request by the groups in ind->parent (the smallest index of a group its root)
 * that ind->needed marks, with the current stamp's slots; merged (owned; NULL: none yet)
 * holds the bytes given already, under which the groups' models are laid. */
static void slice_solve(qs_stage *st, const qs_req *rq, expr_assignment *merged, qs_ans *ans) {
  independence_stage *ind = (independence_stage *)st;
  size_t n = rq->n;
  /* Components in order of their first formula (their root, the smallest index). */
  size_t ncomp = 0, kept = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t r = find(ind->parent, (uint32_t)i);
    if (!ind->needed[r]) continue;
    kept++;
    if (r == i) ind->comp_of_root[ncomp++] = r;
  }
  st->stats.formulas_dropped += n - kept;
  if (ncomp == 0) {
    ans->status = QS_SAT;
    if (rq->want_model) ans->model = merged ? merged : expr_assignment_new();
    else
      expr_assignment_free(merged);
    return;
  }
  if (ncomp == 1 && kept == n && !merged) {
    qs_forward(st, rq, ans);
    return;
  }
  if (!merged && rq->want_model) merged = expr_assignment_new();
  ind->pin_array = NULL;
  QS_RESERVE(ind->sub_f, ind->sub_f_cap, n);
  QS_RESERVE(ind->sub_arrays, ind->sub_arrays_cap, rq->narrays);
  /* The kept formulas by component, in index order within each (one pass, not one scan of
   * the request per component: the string scan's model requests have a component per
   * byte). */
  QS_RESERVE(ind->comp_no, ind->comp_no_cap, n);
  QS_RESERVE(ind->start, ind->start_cap, ncomp + 1);
  QS_RESERVE(ind->order, ind->order_cap, kept);
  for (size_t c = 0; c <= ncomp; c++) ind->start[c] = 0;
  for (size_t c = 0; c < ncomp; c++) ind->comp_no[ind->comp_of_root[c]] = (uint32_t)c;
  for (size_t i = 0; i < n; i++) {
    uint32_t r = find(ind->parent, (uint32_t)i);
    if (ind->needed[r]) ind->start[ind->comp_no[r] + 1]++;
  }
  for (size_t c = 0; c < ncomp; c++) ind->start[c + 1] += ind->start[c];
  for (size_t i = 0; i < n; i++) {
    uint32_t r = find(ind->parent, (uint32_t)i);
    if (ind->needed[r]) ind->order[ind->start[ind->comp_no[r]]++] = (uint32_t)i;
  }
  for (size_t c = ncomp; c > 0; c--) ind->start[c] = ind->start[c - 1];
  ind->start[0] = 0;
  for (size_t c = 0; c < ncomp; c++) {
    if (ind->start[c + 1] - ind->start[c] == 1 &&
        pinned_byte(ind, merged, rq->f[ind->order[ind->start[c]]]))
      continue;
    qs_req sub = {.f = ind->sub_f, .want_model = rq->want_model, .arrays = ind->sub_arrays};
    size_t nccells = 0;
    ind->touch++;
    for (size_t j = ind->start[c]; j < ind->start[c + 1]; j++) {
      size_t i = ind->order[j];
      ind->sub_f[sub.n++] = rq->f[i];
      if (i < rq->assumed) sub.assumed++;
      size_t nc;
      const uint64_t *cells = formula_cells(ind, rq->f[i], &nc);
      QS_RESERVE(ind->ccells, ind->ccells_cap, nccells + nc);
      for (size_t k = 0; k < nc; k++) {
        ind->slots[expr_cell_array(cells[k])].touched = ind->touch;
        ind->ccells[nccells++] = cells[k];
      }
    }
    for (size_t k = 0; k < rq->narrays; k++)
      if (ind->slots[rq->arrays[k]->id].touched == ind->touch)
        ind->sub_arrays[sub.narrays++] = rq->arrays[k];
    qs_ans part;
    qs_forward(st, &sub, &part);
    if (part.status != QS_SAT) {
      expr_assignment_free(merged);
      *ans = part;
      return;
    }
    for (size_t b = 0; merged && part.model && b < part.model->count; b++)
      merge_owned(ind, merged, &part.model->bindings[b], ind->ccells, nccells);
    ind->pin_array = NULL; /* merge_owned may have replaced a binding's bytes */
    qs_ans_clear(&part);
  }
  ans->status = QS_SAT;
  ans->model = merged;
}

/* ---- independence: the path's components along the prefix ---------------------------------- */

static uint32_t pfind(const independence_stage *ind, uint32_t x) {
  while (ind->up[x] != x) x = ind->up[x];
  return x;
}

/* Joins the rings (by `next`) through x and y into one, or splits a ring joined so back into
 * the two: the same swap of their successors. */
static void ring_swap(uint32_t *next, uint32_t x, uint32_t y) {
  uint32_t t = next[x];
  next[x] = next[y];
  next[y] = t;
}

static void punite(independence_stage *ind, uint32_t a, uint32_t b) {
  a = pfind(ind, a);
  b = pfind(ind, b);
  if (a == b) return;
  if (ind->size[a] < ind->size[b] || (ind->size[a] == ind->size[b] && b < a)) {
    uint32_t t = a;
    a = b;
    b = t;
  }
  ind->up[b] = a; /* the larger (on a tie the older) stays the root */
  ind->size[a] += ind->size[b];
  ind->csize[a] += ind->csize[b];
  uint32_t ha = ind->chead[a], hb = ind->chead[b];
  if (hb != UINT32_MAX && ha == UINT32_MAX) {
    ind->chead[a] = hb;
  } else if (hb != UINT32_MAX) {
    ring_swap(ind->cnext, ha, hb);
  }
  ring_swap(ind->next, a, b); /* the two rings become one (pnode_pop splits them) */
  QS_RESERVE(ind->plog, ind->plog_cap, ind->nplog + 1);
  ind->plog[ind->nplog++] = (uint64_t)b << 1 | 1;
}

/* A node reading cells[0..n) (of the level `level`, or of the term `term`). */
static void pnode_push(independence_stage *ind, uint32_t level, const expr *term,
                       const uint64_t *cells, size_t n) {
  size_t i = ind->nnodes;
  if (i + 1 > ind->node_cap) { /* every per-node array grows to the same capacity */
    size_t cap = ind->node_cap ? 2 * ind->node_cap : 64;
    ind->up = qs_xrealloc(ind->up, cap * sizeof *ind->up);
    ind->size = qs_xrealloc(ind->size, cap * sizeof *ind->size);
    ind->node_level = qs_xrealloc(ind->node_level, cap * sizeof *ind->node_level);
    ind->node_term = qs_xrealloc(ind->node_term, cap * sizeof *ind->node_term);
    ind->node_cells = qs_xrealloc(ind->node_cells, cap * sizeof *ind->node_cells);
    ind->node_mark = qs_xrealloc(ind->node_mark, cap * sizeof *ind->node_mark);
    ind->need = qs_xrealloc(ind->need, cap * sizeof *ind->need);
    memset(ind->need + ind->node_cap, 0, (cap - ind->node_cap) * sizeof *ind->need);
    ind->next = qs_xrealloc(ind->next, cap * sizeof *ind->next);
    ind->first = qs_xrealloc(ind->first, cap * sizeof *ind->first);
    ind->first_seen = qs_xrealloc(ind->first_seen, cap * sizeof *ind->first_seen);
    memset(ind->first_seen + ind->node_cap, 0, (cap - ind->node_cap) * sizeof *ind->first_seen);
    ind->chead = qs_xrealloc(ind->chead, cap * sizeof *ind->chead);
    ind->cnext = qs_xrealloc(ind->cnext, cap * sizeof *ind->cnext);
    ind->csize = qs_xrealloc(ind->csize, cap * sizeof *ind->csize);
    ind->node_cap = cap;
  }
  ind->up[i] = (uint32_t)i;
  ind->next[i] = (uint32_t)i;
  ind->size[i] = 1;
  ind->node_level[i] = level;
  ind->node_term[i] = term;
  ind->node_cells[i] = ind->npcells;
  ind->node_mark[i] = ind->nplog;
  ind->nnodes++;
  QS_RESERVE(ind->pcells, ind->pcells_cap, ind->npcells + n + 1);
  if (n) memcpy(ind->pcells + ind->npcells, cells, n * sizeof *cells); /* cells NULL when n = 0 */
  ind->npcells += n;
  bool cand = level == UINT32_MAX || !qs_bounds_path_one_sided(ind->bounds, level);
  ind->chead[i] = cand ? (uint32_t)i : UINT32_MAX;
  ind->cnext[i] = (uint32_t)i;
  ind->csize[i] = cand;
  for (size_t k = 0; k < n; k++) {
    uint64_t owner;
    slot_of(ind, expr_cell_array(cells[k]));              /* sized for slice_solve */
    if (expr_cell_is_whole(cells[k])) ind->whole_nodes++; /* undone by the node's cells */
    if (qs_idmap_get(&ind->powner, cells[k], &owner)) {
      punite(ind, (uint32_t)owner, (uint32_t)i);
    } else {
      qs_idmap_put(&ind->powner, cells[k], i);
      QS_RESERVE(ind->plog, ind->plog_cap, ind->nplog + 1);
      ind->plog[ind->nplog++] = cells[k] << 1;
    }
  }
}

static void pnode_pop(independence_stage *ind) {
  size_t i = --ind->nnodes;
  while (ind->nplog > ind->node_mark[i]) {
    uint64_t e = ind->plog[--ind->nplog];
    if (e & 1) {
      uint32_t b = (uint32_t)(e >> 1), a = ind->up[b];
      ind->size[a] -= ind->size[b];
      ind->up[b] = b;
      ring_swap(ind->next, a, b);
      ind->csize[a] -= ind->csize[b];
      uint32_t ha = ind->chead[a], hb = ind->chead[b];
      if (hb != UINT32_MAX && ha == hb) { /* a had none of its own */
        ind->chead[a] = UINT32_MAX;
      } else if (hb != UINT32_MAX) {
        ring_swap(ind->cnext, ha, hb);
      }
    } else {
      qs_idmap_erase(&ind->powner, e >> 1);
    }
  }
  for (size_t k = ind->node_cells[i]; k < ind->npcells; k++)
    if (expr_cell_is_whole(ind->pcells[k])) ind->whole_nodes--;
  ind->npcells = ind->node_cells[i];
}

/* Does node i read an array the current request asks a model of? */
static bool reads_requested(const independence_stage *ind, size_t i) {
  size_t end = i + 1 < ind->nnodes ? ind->node_cells[i + 1] : ind->npcells;
  for (size_t k = ind->node_cells[i]; k < end; k++)
    if (ind->slots[expr_cell_array(ind->pcells[k])].requested == ind->stamp) return true;
  return false;
}

/* Marks root r needed by the current request (listed once in ind->roots). */
static void need_root(independence_stage *ind, uint32_t r, size_t *nroots, size_t *total) {
  if (ind->need[r] == ind->stamp) return;
  ind->need[r] = ind->stamp;
  QS_RESERVE(ind->roots, ind->roots_cap, *nroots + 1);
  ind->roots[(*nroots)++] = r;
  *total += ind->size[r];
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* Into ind->via, ascending and each once, the candidates of the needed roots' components
 * and the nodes of the bounds' tightest ends: a superset of the nodes that a request with a
 * question takes (a needed term's node or present level). Their count, or SIZE_MAX when they
 * are not much fewer than the needed components' nodes (`total`). */
static size_t visit_nodes(independence_stage *ind, size_t nroots, size_t total) {
  size_t terms = qs_bounds_path_terms(ind->bounds), ctotal = 0;
  for (size_t j = 0; j < nroots; j++) ctotal += ind->csize[ind->roots[j]];
  if (2 * (ctotal + 2 * terms) > total) return SIZE_MAX;
  QS_RESERVE(ind->via, ind->via_cap, ctotal + 2 * terms + 1);
  QS_RESERVE(ind->ends, ind->ends_cap, 2 * terms + 1);
  size_t n = 0;
  for (size_t j = 0; j < nroots; j++) {
    uint32_t h = ind->chead[ind->roots[j]], x = h;
    if (h == UINT32_MAX) continue;
    do {
      ind->via[n++] = x;
      x = ind->cnext[x];
    } while (x != h);
  }
  assert(n == ctotal);
  size_t ne = qs_bounds_path_ends(ind->bounds, ind->ends);
  for (size_t j = 0; j < ne; j++) ind->via[n++] = (uint32_t)ind->lev_node[ind->ends[j]];
  if (n > 1) qsort(ind->via, n, sizeof *ind->via, cmp_u32);
  size_t m = 0;
  for (size_t j = 0; j < n; j++)
    if (!m || ind->via[m - 1] != ind->via[j]) ind->via[m++] = ind->via[j];
  return m;
}

/* The path's levels as the bounds have them for f[0..n). */
static void path_sync(independence_stage *ind, expr *const *f, size_t n) {
  size_t m = qs_bounds_path_sync_from(ind->bounds, f, n, ind->known);
  ind->known = SIZE_MAX;
  if (m < ind->nlev) {
    while (ind->nnodes > ind->lev_node[m]) pnode_pop(ind);
    ind->nlev = m;
  }
  QS_RESERVE(ind->lev_node, ind->lev_cap, n);
  for (size_t k = ind->nlev; k < n; k++) {
    const expr *term;
    expr *g = qs_bounds_path_level(ind->bounds, k, &term);
    size_t nc = 0;
    const uint64_t *cells = g ? formula_cells(ind, g, &nc) : NULL;
    ind->lev_node[k] = ind->nnodes;
    pnode_push(ind, (uint32_t)k, NULL, cells, nc);
    if (term) {
      cells = formula_cells(ind, (expr *)term, &nc);
      pnode_push(ind, UINT32_MAX, term, cells, nc);
    }
  }
  ind->nlev = n;
}

/* The request through the path's kept components: the question rewritten, the components of
 * the path that it or a requested array reads (whole, so slicing them gives what slicing the
 * whole request would), their terms' exclusion bounds, into ind->bounded, then sliced. False
 * when the path mode does not apply (an array read as a whole, the path's bounds contradict):
 * then nothing was answered. */
static bool independence_path(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  independence_stage *ind = (independence_stage *)st;
  path_sync(ind, rq->f, rq->assumed);
  if (ind->whole_nodes || !qs_bounds_path_ok(ind->bounds)) return false;
  size_t nq = rq->n - rq->assumed, n = 0, assumed = 0;
  QS_RESERVE(ind->bounded, ind->bounded_cap, qs_bounds_room(rq->n));
  uint64_t rewritten = 0;
  expr **f = ind->bounded;
  qs_req sub = *rq;
  sub.f = f;
  if (!qs_bounds_path_question(ind->bounds, rq->f + rq->assumed, nq, f, &n, &assumed,
                               &rewritten)) { /* unsat by one term's bounds */
    sub.n = n;
    sub.assumed = assumed;
    st->stats.formulas_dropped += rq->n - n;
    independence_slice(st, &sub, ans);
    for (size_t i = 0; i < n; i++) expr_unref(f[i]);
    return true;
  }
  ind->stamp++;
  bool whole = false;
  size_t nroots = 0, total = 0;    /* needed roots, their nodes */
  for (size_t i = 0; i < n; i++) { /* the question's cells need their components */
    size_t nc;
    const uint64_t *cells = formula_cells(ind, f[i], &nc);
    for (size_t k = 0; k < nc; k++) {
      uint64_t owner;
      whole |= expr_cell_is_whole(cells[k]);
      if (qs_idmap_get(&ind->powner, cells[k], &owner))
        need_root(ind, pfind(ind, (uint32_t)owner), &nroots, &total);
    }
  }
  if (whole) {
    for (size_t i = 0; i < n; i++) expr_unref(f[i]);
    return false;
  }
  /* A request without a question (a model at a path's end) gives a component of one pinned
   * byte its byte here, decided as its node comes (a model of the whole buffer would
   * otherwise list and slice every byte's formula again). */
  bool lone = n == 0 && rq->n > 1; /* one formula: forwarded whole, as independence_slice does */
  ind->pin_array = NULL;
  expr_assignment *merged = lone && rq->want_model ? expr_assignment_new() : NULL;
  for (size_t k = 0; k < rq->narrays; k++) slot_of(ind, rq->arrays[k]->id)->requested = ind->stamp;
  for (size_t i = 0; rq->narrays && i < ind->nnodes; i++) { /* the requested arrays' */
    uint32_t r = pfind(ind, (uint32_t)i);
    if ((!lone || ind->size[r] > 1) && reads_requested(ind, i)) need_root(ind, r, &nroots, &total);
  }
  /* The question moves to the end; the needed path levels in order, then the terms' bounds;
   * each path formula's root node in ind->order (scratch until slice_solve). */
  size_t room = qs_bounds_room(rq->n);
  memmove(f + room - n, f, n * sizeof *f);
  size_t q0 = room - n, out = 0, nexcl = 0;
  QS_RESERVE(ind->order, ind->order_cap, room);
  /* The needed nodes: from their components' rings when they are few (a branch's question
   * reads a component or two of a long path), else by a scan of the path. */
  size_t nvia = lone ? SIZE_MAX : visit_nodes(ind, nroots, total);
  bool few = nvia == SIZE_MAX && !lone && total * 8 < ind->nnodes;
  if (few) {
    QS_RESERVE(ind->members, ind->members_cap, total);
    size_t m = 0;
    for (size_t j = 0; j < nroots; j++) {
      uint32_t r = ind->roots[j], x = r;
      do {
        ind->members[m++] = x;
        x = ind->next[x];
      } while (x != r);
    }
    assert(m == total);
    if (m > 1) qsort(ind->members, m, sizeof *ind->members, cmp_u32); /* NULL when m = 0 */
  }
  size_t nvisit = few ? total : nvia != SIZE_MAX ? nvia : ind->nnodes;
  for (size_t j = 0; j < nvisit; j++) {
    size_t i = few ? ind->members[j] : nvia != SIZE_MAX ? ind->via[j] : j;
    uint32_t r = pfind(ind, (uint32_t)i);
    uint32_t k = ind->node_level[i];
    if (lone && ind->size[r] == 1) { /* its own component, needed if it reads a requested array */
      const expr *term;
      if (!reads_requested(ind, i)) continue;
      if (k != UINT32_MAX && qs_bounds_path_present(ind->bounds, k) &&
          pinned_byte(ind, merged, qs_bounds_path_level(ind->bounds, k, &term)))
        continue;
      need_root(ind, r, &nroots, &total);
    }
    if (ind->need[r] != ind->stamp) continue;
    if (k == UINT32_MAX) {
      QS_RESERVE(ind->excl, ind->excl_cap, nexcl + 1);
      ind->excl[nexcl++] = ind->node_term[i];
    } else if (qs_bounds_path_present(ind->bounds, k)) {
      const expr *term;
      ind->order[out] = r;
      f[out++] = qs_bounds_path_level(ind->bounds, k, &term); /* the level's, while it stands */
    }
  }
  size_t borrowed = out;
  for (size_t j = 0; j < nexcl; j++) {
    size_t before = out;
    qs_bounds_path_excl(ind->bounds, ind->excl[j], f, &out);
    uint64_t owner;
    for (size_t i = before; i < out; i++) { /* a term's node's root: its cells' owners' */
      size_t nc;
      const uint64_t *cells = formula_cells(ind, f[i], &nc);
      bool found = nc && qs_idmap_get(&ind->powner, cells[0], &owner);
      assert(found);
      ind->order[i] = found ? pfind(ind, (uint32_t)owner) : UINT32_MAX;
    }
  }
  assert(out <= q0);
  sub.assumed = out;
  memmove(f + out, f + q0, n * sizeof *f);
  sub.n = out + n;
  st->stats.formulas_dropped += rq->n > sub.n ? rq->n - sub.n : 0;
  if (lone) { /* no question: the path's own components, without slicing them anew */
    QS_RESERVE(ind->parent, ind->parent_cap, out);
    QS_RESERVE(ind->needed, ind->needed_cap, out);
    for (size_t i = 0; i < out; i++) { /* the first formula of each root is the group's root */
      uint32_t r = ind->order[i];
      ind->needed[i] = true;
      if (ind->first_seen[r] != ind->stamp) {
        ind->first_seen[r] = ind->stamp;
        ind->first[r] = (uint32_t)i;
      }
      ind->parent[i] = ind->first[r];
    }
    QS_RESERVE(ind->comp_of_root, ind->comp_cap, out);
    slice_solve(st, &sub, merged, ans);
  } else {
    independence_slice(st, &sub, ans);
  }
  for (size_t i = borrowed; i < sub.n; i++) expr_unref(f[i]);
  return true;
}

static void independence_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  independence_stage *ind = (independence_stage *)st;
  if (rq->assumed && rq->same < ind->known) ind->known = rq->same;
  if (rq->assumed && !st->solver->query_forall && independence_path(st, rq, ans)) return;
  QS_RESERVE(ind->bounded, ind->bounded_cap, qs_bounds_room(rq->n));
  qs_req bounded = *rq;
  uint64_t rewritten = 0, implied = 0; /* implied bounds are not counted as sliced away */
  if (!qs_bounds_apply(ind->bounds, rq, ind->bounded, &bounded.n, &bounded.assumed, &rewritten,
                       &implied))
    st->stats.formulas_dropped += rq->n - bounded.n; /* all but a contradiction's bounds */
  /* The formulas stay referenced while the slices are solved (a rewritten one may be held by
   * nothing else once the bounds' memo starts over); stages below never call back into the
   * chain's head, so ind->bounded is not reused before they return. */
  bounded.f = ind->bounded;
  independence_slice(st, &bounded, ans);
  for (size_t i = 0; i < bounded.n; i++) expr_unref(ind->bounded[i]);
}

static void independence_destroy(qs_stage *st) {
  independence_stage *ind = (independence_stage *)st;
  qs_bounds_free(ind->bounds);
  free(ind->bounded);
  free(ind->lev_node);
  free(ind->up);
  free(ind->size);
  free(ind->node_level);
  free(ind->node_term);
  free(ind->node_cells);
  free(ind->node_mark);
  free(ind->need);
  free(ind->next);
  free(ind->roots);
  free(ind->members);
  free(ind->first);
  free(ind->first_seen);
  free(ind->pcells);
  free(ind->plog);
  free(ind->excl);
  free(ind->chead);
  free(ind->cnext);
  free(ind->csize);
  free(ind->ends);
  free(ind->via);
  qs_idmap_free(&ind->powner);
  qs_cell_memo_free(&ind->cells);
  qs_idmap_free(&ind->owner);
  free(ind->slots);
  free(ind->comp_no);
  free(ind->start);
  free(ind->order);
  free(ind->ccells);
  free(ind->parent);
  free(ind->comp_of_root);
  free(ind->needed);
  free(ind->sub_f);
  free(ind->sub_arrays);
  free(ind);
}

static const qs_stage_ops independence_ops = {"independence", independence_solve,
                                              independence_destroy};

qs_stage *qs_independence_stage_new(qsolver *s) {
  independence_stage *ind = xcalloc(1, sizeof *ind);
  ind->base.ops = &independence_ops;
  ind->bounds = qs_bounds_new();
  return &ind->base;
}
