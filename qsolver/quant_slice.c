/*
 * quant_slice.c — the slice step of the quantified procedure (contract in quant.h), run by
 * stage_quant.c before strip: a request whose path condition holds a forall (a PAT-merged
 * state's) is answered, when it can be, without the forall's cost, from the state's last
 * model and from the part of the request the question actually reaches.
 *
 * A forall reads its array at a symbolic index, so to independence it reads the whole array:
 * every later question on any byte of that array carries the forall and the whole path
 * condition on the array to the procedure, whose strip asks Z3 all of it. Here, for a request
 * whose formulas holding a forall all belong to the path condition (a question holding one,
 * such as merge validation's ¬∀, is left to the procedure), with seeds = the question and
 * the path condition's formulas the last model breaks (a sibling's model breaks the branch
 * taken last):
 *   1. model: the last model kept for the request's first forall (the state's, or a
 *      sibling's: they share the forall node) is the answer if it satisfies every formula,
 *      each forall expanded over its range.
 *   2. fixed group: every read at a constant index of an array a forall's bound reads (a
 *      merge's K) is replaced by its value in the last model, `read = value` added; the
 *      seeds' group of that — the formulas without a forall sharing a cell with a seed,
 *      transitively, as independence groups them — is solved. Reads such as s[K + 3] now
 *      sit at constant indices, so the group is what a forked state would ask. Its unsat
 *      proves nothing (the values were one choice).
 *   3. narrow group: the seeds' group in the request as it is, linked only through bytes at
 *      constant indices, and joined only by formulas with no read at a symbolic index (the
 *      seeds aside): bounds such as K ≤ n ≤ 24 that prove a pointer in bounds, without the
 *      reads that would pull in the whole path condition on the forall's array. It is a
 *      subset of the request: its unsat is final.
 * A group's model m is laid over the last model M on the cells the group reads under m
 * (every read's index evaluated under m): the group's formulas read the same bytes under
 * the result as under m, so they still hold; the rest keep M's bytes. If a forall's range
 * then holds a byte that breaks it, the cells read at i = lo+1..hi take the value read at
 * i = lo (qs_quant_duplicate, the cells m fixed left alone). The result is the answer only
 * if it satisfies the whole request under evaluation. Anything else goes on to strip, and
 * the model the stage answers with is kept as the forall's last one (qs_slice_keep).
 * Sound by construction: unsat only from a subset of the request's formulas, sat only with
 * a model of the whole request checked by evaluation. Groups go to Z3 as the relaxed
 * stage's fixed requests do (no incremental scopes: they share no prefix worth keeping).
 * Deterministic: the models kept are a ring over forall node ids.
 */
#include "qsolver/quant.h"
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"

/* Instances a request whose foralls range over constants is expanded to, at most. */
#define CONST_EXPAND_MAX ((uint64_t)4096)
/* Forall nodes whose last model is kept (the oldest is evicted). */
#define FORALL_MODELS 16
/* Evaluation of a forall over a longer range is not attempted (it then counts as false). */
#define SLICE_RANGE_MAX ((uint64_t)1 << 16)

/* A byte of an array a model is laid over on. */
typedef struct slice_cell {
  expr_array *array; /* borrowed from the request */
  uint64_t index;
} slice_cell;

struct qs_slice {
  qs_stage *st; /* the quantified stage, during a call: what sub-requests go through */
  uint64_t keys[FORALL_MODELS]; /* forall formula id + 1; 0 = free */
  expr_assignment *models[FORALL_MODELS];
  size_t next;
  /* Per request: each formula's syntactic cells, [start[i], start[i + 1]) in `cells`. */
  uint64_t *cells, *collect;
  size_t cells_cap, collect_cap;
  size_t *start;
  size_t start_cap;
  bool *in, *seed, *fixed_seed;
  size_t in_cap, seed_cap, fixed_seed_cap;
  qs_idmap group;  /* cell → 1: the group's syntactic cells */
  qs_idmap arrays; /* array id → 1 (some byte read) | 2 (read whole) */
  expr **sub;
  size_t sub_cap;
  slice_cell *read;
  size_t read_cap;
  qs_idmap seen;
  expr **stack;
  size_t stack_cap;
  uint8_t *bytes;
  size_t bytes_cap;
  /* The fixed request: the reads of the foralls' bound arrays and their values. */
  expr_array **bound;
  size_t nbound, bound_cap;
  expr **reads, **values, **fixed;
  size_t reads_cap, values_cap, fixed_cap;
};

/* ---- the models kept ------------------------------------------------------------------------ */

static const expr_assignment *last_model(const qs_slice *fs, uint64_t key) {
  for (size_t k = 0; k < FORALL_MODELS; k++)
    if (fs->keys[k] == key + 1) return fs->models[k];
  return NULL;
}

static void keep_model(qs_slice *fs, uint64_t key, const expr_assignment *m) {
  size_t slot = fs->next;
  for (size_t k = 0; k < FORALL_MODELS; k++)
    if (fs->keys[k] == key + 1) slot = k;
  if (slot == fs->next) fs->next = (fs->next + 1) % FORALL_MODELS;
  expr_assignment_free(fs->models[slot]);
  fs->models[slot] = expr_assignment_copy(m);
  fs->keys[slot] = key + 1;
}

/* ---- the question's group ------------------------------------------------------------------- */

static bool group_touches(qs_slice *fs, uint64_t cell) {
  uint64_t flags = 0, dummy;
  qs_idmap_get(&fs->arrays, expr_cell_array(cell), &flags);
  if (expr_cell_is_whole(cell)) return flags != 0;
  return (flags & 2) || qs_idmap_get(&fs->group, cell, &dummy);
}

static void group_add(qs_slice *fs, uint64_t cell) {
  uint64_t flags = 0;
  uint32_t a = expr_cell_array(cell);
  qs_idmap_get(&fs->arrays, a, &flags);
  if (expr_cell_is_whole(cell)) {
    flags |= 2;
  } else {
    flags |= 1;
    qs_idmap_put(&fs->group, cell, 1);
  }
  qs_idmap_put(&fs->arrays, a, flags);
}

/* Does the cell link formulas into a group? Every cell does; in a narrow group only a byte at
 * a constant index (not a whole array), and only formulas reading no array at a symbolic
 * index join it (question_group): a merge's bounds on K and n, without the reads of the
 * forall's array that would pull in the whole path condition on it. */
static bool links(uint64_t cell, bool narrow) { return !narrow || !expr_cell_is_whole(cell); }

/* The formulas of f[0..n) without a forall that share a cell with a seed (seed[i]: the
 * question's formulas, and those of the path condition the last model breaks), transitively,
 * into fs->sub (in order); their count. A narrow group links formulas through fewer cells (links):
 * a subset of the request still, so its unsat is as final, and far smaller where the foralls' array
 * is read at symbolic indices. */
static size_t question_group(qs_slice *fs, expr *const *f, size_t n, const bool *seed,
                             bool narrow) {
  size_t total = 0;
  QS_RESERVE(fs->start, fs->start_cap, n + 1);
  QS_RESERVE(fs->in, fs->in_cap, n);
  for (size_t i = 0; i < n; i++) {
    fs->start[i] = total;
    fs->in[i] = false;
    if (f[i]->has_forall) continue;
    size_t nc = 0;
    expr_collect_cells(f[i], &fs->collect, &nc, &fs->collect_cap);
    QS_RESERVE(fs->cells, fs->cells_cap, total + nc);
    memcpy(fs->cells + total, fs->collect, nc * sizeof *fs->cells);
    total += nc;
  }
  fs->start[n] = total;
  qs_idmap_reset(&fs->group, total);
  qs_idmap_reset(&fs->arrays, 16);
  /* Passes until nothing joins: each pass adds every formula touching the group so far. */
  for (bool grew = true; grew;) {
    grew = false;
    for (size_t i = 0; i < n; i++) {
      if (fs->in[i] || f[i]->has_forall) continue;
      bool joins = seed[i], whole = false;
      for (size_t k = fs->start[i]; k < fs->start[i + 1] && !joins; k++)
        joins = links(fs->cells[k], narrow) && group_touches(fs, fs->cells[k]);
      for (size_t k = fs->start[i]; narrow && k < fs->start[i + 1]; k++)
        whole |= expr_cell_is_whole(fs->cells[k]);
      if (whole && !seed[i]) continue; /* narrow: no reads at symbolic indices but the seeds' */
      if (!joins) continue;
      fs->in[i] = grew = true;
      for (size_t k = fs->start[i]; k < fs->start[i + 1]; k++)
        if (links(fs->cells[k], narrow)) group_add(fs, fs->cells[k]);
    }
  }
  size_t count = 0;
  QS_RESERVE(fs->sub, fs->sub_cap, n);
  for (size_t i = 0; i < n; i++)
    if (fs->in[i]) fs->sub[count++] = f[i];
  return count;
}

/* ---- laying a model over another ---------------------------------------------------------------
 */

/* The bytes formulas f[0..n) read under m (every read's index evaluated), into fs->read. */
static size_t cells_read(qs_slice *fs, expr *const *f, size_t n, const expr_assignment *m) {
  qs_idmap_reset(&fs->seen, 64);
  size_t depth = 0, count = 0;
  for (size_t i = 0; i < n; i++)
    qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, f[i]);
  while (depth) {
    expr *e = fs->stack[--depth];
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, e->kid[k]);
    if (e->kind != EXPR_READ) continue;
    for (expr_update *u = e->u.read.updates; u; u = u->next) {
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, u->index);
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, u->value);
    }
    u128 idx;
    if (e->has_bvar || expr_eval(e->kid[0], m, SLICE_RANGE_MAX, &idx) != EXPR_EVAL_OK) continue;
    for (unsigned b = 0; b < (e->width + 7) / 8u; b++) {
      QS_RESERVE(fs->read, fs->read_cap, count + 1);
      fs->read[count++] = (slice_cell){e->u.read.array, (uint64_t)idx + b};
    }
  }
  return count;
}

static int cmp_cell(const void *x, const void *y) {
  const slice_cell *a = x, *b = y;
  if (a->array->id != b->array->id) return a->array->id < b->array->id ? -1 : 1;
  return (a->index > b->index) - (a->index < b->index);
}

/* m with the bytes cells[0..n) take in `from` (0 where `from` binds none); a new copy.
 * Sorts cells. */
static expr_assignment *overlay(qs_slice *fs, const expr_assignment *m, const expr_assignment *from,
                                slice_cell *cells, size_t n) {
  expr_assignment *out = m ? expr_assignment_copy(m) : expr_assignment_new();
  qsort(cells, n, sizeof *cells, cmp_cell);
  for (size_t i = 0, end; i < n; i = end) {
    expr_array *a = cells[i].array;
    for (end = i + 1; end < n && cells[end].array == a;) end++;
    if (a->init) continue; /* its bytes are fixed */
    const expr_binding *to = expr_assignment_find(out, a), *src = expr_assignment_find(from, a);
    QS_RESERVE(fs->bytes, fs->bytes_cap, a->capacity ? a->capacity : 1);
    memset(fs->bytes, 0, a->capacity);
    if (to) memcpy(fs->bytes, to->bytes, to->len < a->capacity ? to->len : a->capacity);
    for (size_t j = i; j < end; j++) {
      uint64_t at = cells[j].index; /* past the capacity every model reads 0 */
      if (at < a->capacity) fs->bytes[at] = src && at < src->len ? src->bytes[at] : 0;
    }
    expr_assignment_set(out, a, fs->bytes, a->capacity);
  }
  return out;
}

/* ---- the fixed request --------------------------------------------------------------------- */

static void release(expr **v, size_t n) {
  for (size_t i = 0; i < n; i++) expr_unref(v[i]);
}

static void push(expr ***v, size_t *n, size_t *cap, expr *e) {
  qs_reserve((void **)v, cap, *n + 1, sizeof **v);
  (*v)[(*n)++] = e;
}

/* The arrays the bounds of the request's foralls read (a merge's K), into fs->bound. */
static void bound_arrays(qs_slice *fs, const qs_req *rq) {
  qs_idmap_reset(&fs->seen, 64);
  size_t depth = 0;
  fs->nbound = 0;
  for (size_t i = 0; i < rq->n; i++)
    if (rq->f[i]->has_forall)
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, rq->f[i]);
  while (depth) {
    expr *e = fs->stack[--depth];
    if (!e->has_forall) continue;
    if (e->kind == EXPR_FORALL) {
      expr_collect_arrays(e->kid[1], &fs->bound, &fs->nbound, &fs->bound_cap);
      expr_collect_arrays(e->kid[2], &fs->bound, &fs->nbound, &fs->bound_cap);
    }
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, e->kid[k]);
  }
}

static bool is_bound(const qs_slice *fs, const expr_array *a) {
  for (size_t i = 0; i < fs->nbound; i++)
    if (fs->bound[i] == a) return true;
  return false;
}

/* The request's formulas without a forall with every read of a bound array at a constant
 * index (through no writes) replaced by its value in m, then `read = value` for each, into
 * fs->fixed (new references), with their seeds in fs->fixed_seed (a formula's own; the
 * equalities are none). Returns the count, or 0 when no bound array is read or a formula
 * became false (then the fixed request is unsat, which proves nothing: the values were one
 * choice). */
static size_t fixed_request(qs_slice *fs, const qs_req *rq, const bool *seed,
                            const expr_assignment *m) {
  qs_idmap_reset(&fs->seen, 64);
  size_t depth = 0, nreads = 0, n = 0;
  for (size_t i = 0; i < rq->n; i++)
    if (!rq->f[i]->has_forall)
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, rq->f[i]);
  while (depth) {
    expr *e = fs->stack[--depth];
    if (e->kind == EXPR_READ && !e->u.read.updates && expr_is_const(e->kid[0]) &&
        is_bound(fs, e->u.read.array)) {
      u128 v;
      if (expr_eval(e, m, SLICE_RANGE_MAX, &v) != EXPR_EVAL_OK) continue;
      push(&fs->reads, &nreads, &fs->reads_cap, e);
      QS_RESERVE(fs->values, fs->values_cap, nreads);
      fs->values[nreads - 1] = expr_const(e->width, v);
      continue;
    }
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&fs->seen, &fs->stack, &depth, &fs->stack_cap, e->kid[k]);
  }
  bool ok = nreads > 0;
  QS_RESERVE(fs->fixed_seed, fs->fixed_seed_cap, rq->n + nreads);
  for (size_t i = 0; i < rq->n && ok; i++) {
    if (rq->f[i]->has_forall) continue;
    expr *g = expr_substitute(rq->f[i], fs->reads, fs->values, nreads);
    ok = !expr_is_false(g);
    if (expr_is_true(g) || !ok) {
      expr_unref(g);
      continue;
    }
    fs->fixed_seed[n] = seed[i];
    push(&fs->fixed, &n, &fs->fixed_cap, g);
  }
  for (size_t k = 0; k < nreads && ok; k++) {
    fs->fixed_seed[n] = false;
    push(&fs->fixed, &n, &fs->fixed_cap, expr_eq(fs->reads[k], fs->values[k]));
  }
  for (size_t k = 0; k < nreads; k++) expr_unref(fs->values[k]);
  if (!ok) release(fs->fixed, n);
  return ok ? n : 0;
}

/* ---- the stage ------------------------------------------------------------------------------- */

/* Do the request's formulas holding a forall all belong to its path condition? *key: the
 * first one's id (the state's forall: its descendants and siblings share the node). */
static bool forall_in_path_condition(const qs_req *rq, uint64_t *key) {
  bool any = false;
  for (size_t i = 0; i < rq->n; i++) {
    if (!rq->f[i]->has_forall) continue;
    if (rq->assumed && i >= rq->assumed) return false;
    if (!any) *key = rq->f[i]->id;
    any = true;
  }
  return any;
}

/* Answers sat with m (owned) if m satisfies the whole request; keeps it as the forall's last
 * model. */
static bool accept(qs_slice *fs, const qs_req *rq, uint64_t key, expr_assignment *m, qs_ans *ans) {
  if (!m || !qs_model_satisfies(rq->f, rq->n, m)) {
    expr_assignment_free(m);
    return false;
  }
  keep_model(fs, key, m);
  ans->status = QS_SAT;
  if (rq->want_model) ans->model = m;
  else
    expr_assignment_free(m);
  return true;
}

/* A group's model m, laid over the last model, then duplicated if need be, as the answer. */
static bool accept_slice(qs_slice *fs, const qs_req *rq, uint64_t key, size_t ngroup,
                         const expr_assignment *m, qs_ans *ans) {
  size_t nread = cells_read(fs, fs->sub, ngroup, m);
  expr_assignment *laid = overlay(fs, last_model(fs, key), m, fs->read, nread);
  if (qs_model_satisfies(rq->f, rq->n, laid)) return accept(fs, rq, key, laid, ans);
  qs_quant *q = qs_quant_new(rq->f, rq->n);
  qs_cells *fixed = qs_cells_new();
  for (size_t i = 0; i < nread; i++) qs_cells_add(fixed, fs->read[i].array, fs->read[i].index);
  expr_assignment *dup = qs_quant_duplicate(q, laid, fixed);
  bool ok = accept(fs, rq, key, dup, ans);
  qs_cells_free(fixed);
  qs_quant_free(q);
  expr_assignment_free(laid);
  return ok;
}

/* Solves the group of the question in `rq` (fs->sub after question_group) as a request of its
 * own; on sat, its model laid over the last model is tried as the answer to `orig`. Returns
 * the group's status (QS_UNKNOWN when there is no group); *answered when `orig` got its
 * answer (sat; the caller decides what unsat means). */
static qs_status solve_group(qs_slice *fs, expr *const *f, size_t n, const bool *seed, bool narrow,
                             const qs_req *orig, uint64_t key, qs_ans *ans, bool *answered) {
  size_t ngroup = question_group(fs, f, n, seed, narrow);
  if (!ngroup) return QS_UNKNOWN;
  qs_req sub = {.f = fs->sub,
                .n = ngroup,
                .assumed = 0, /* solve every part: the model must bind all the group reads */
                .want_model = true,
                .arrays = orig->arrays,
                .narrays = orig->narrays,
                /* groups share no prefix worth Z3's scopes: solved anew, as the relaxed
                 * stage's fixed requests are */
                .lane = QS_LANE_FIXED};
  qs_ans sa;
  qs_forward(fs->st, &sub, &sa);
  qs_status st = sa.status;
  if (st == QS_SAT && sa.model) *answered = accept_slice(fs, orig, key, ngroup, sa.model, ans);
  qs_ans_clear(&sa);
  return st;
}

/* Every forall's bounds are constants, and their ranges hold at most CONST_EXPAND_MAX
 * instances in all: the expansion over them is the query itself. */
static bool constant_ranges(const qs_quant *q, uint64_t *low, uint64_t *high) {
  uint64_t total = 0;
  for (size_t k = 0; k < qs_quant_forall_count(q); k++) {
    expr *fa = qs_quant_forall_at(q, k);
    if (!expr_is_const(fa->kid[1]) || !expr_is_const(fa->kid[2]) || fa->kid[3]->has_forall)
      return false; /* nested foralls are left to the procedure and its fallbacks */
    low[k] = (uint64_t)fa->kid[1]->u.value;
    high[k] = (uint64_t)fa->kid[2]->u.value;
    if (high[k] >= low[k]) total += high[k] - low[k] + 1;
    if (high[k] >= low[k] && (high[k] - low[k] >= CONST_EXPAND_MAX || total > CONST_EXPAND_MAX))
      return false;
  }
  return true;
}

/* Step 0: a request whose foralls all range over constants (the relaxed stage's fixed
 * requests: K replaced by its value) is its expansion; its instances are byte equalities the
 * unit stage answers from. */
static bool expand_constant(qs_slice *fs, const qs_quant *q, const qs_req *rq, qs_ans *ans) {
  size_t nfa = qs_quant_forall_count(q);
  uint64_t *low = qs_xrealloc(NULL, (nfa + 1) * sizeof *low);
  uint64_t *high = qs_xrealloc(NULL, (nfa + 1) * sizeof *high);
  bool answered = false;
  if (nfa && constant_ranges(q, low, high)) {
    expr **ex = NULL;
    size_t nex = qs_quant_expand(q, low, high, &ex), n = 0;
    /* Its conjunctions split into conjuncts (borrowed from ex): each instance on its own,
     * a byte equality the unit stage reads as a pin. */
    for (size_t i = 0; i < nex; i++) push(&fs->stack, &n, &fs->stack_cap, ex[i]);
    size_t nconj = 0;
    while (n) {
      expr *e = fs->stack[--n];
      if (e->kind == EXPR_AND && e->width == 1) {
        push(&fs->stack, &n, &fs->stack_cap, e->kid[1]);
        push(&fs->stack, &n, &fs->stack_cap, e->kid[0]);
      } else if (!expr_is_true(e)) {
        push(&fs->sub, &nconj, &fs->sub_cap, e);
      }
    }
    qs_req sub = *rq;
    sub.f = fs->sub;
    sub.n = nconj;
    sub.assumed = 0;
    sub.want_model = true;
    qs_ans ea;
    qs_forward(fs->st, &sub, &ea);
    if (ea.status == QS_UNSAT) {
      ans->status = QS_UNSAT;
      answered = true;
    } else if (ea.status == QS_SAT && ea.model) {
      uint64_t key = 0;
      expr_assignment *m = ea.model;
      ea.model = NULL;
      if (forall_in_path_condition(rq, &key)) {
        answered = accept(fs, rq, key, m, ans);
      } else if (qs_model_satisfies(rq->f, rq->n, m)) {
        ans->status = QS_SAT;
        ans->model = rq->want_model ? m : NULL;
        if (!rq->want_model) expr_assignment_free(m);
        answered = true;
      } else {
        expr_assignment_free(m);
      }
    }
    qs_ans_clear(&ea);
    qs_formulas_free(ex, nex);
  }
  free(low);
  free(high);
  return answered;
}

bool qs_slice_answer(qs_slice *fs, struct qs_stage *st, const qs_quant *q, const qs_req *rq,
                     qs_ans *ans) {
  fs->st = st;
  if (expand_constant(fs, q, rq, ans)) {
    fs->st = NULL;
    return true;
  }
  uint64_t key = 0;
  if (!forall_in_path_condition(rq, &key)) {
    fs->st = NULL;
    return false;
  }
  bound_arrays(fs, rq);
  /* 1. The last model. The seeds of the groups below: the question, and the formulas of the
   * path condition the last model breaks (a sibling's model breaks the branch taken last). */
  const expr_assignment *last = last_model(fs, key);
  QS_RESERVE(fs->seed, fs->seed_cap, rq->n);
  bool holds = last != NULL;
  for (size_t i = 0; i < rq->n; i++) {
    bool question = !rq->assumed || i >= rq->assumed;
    fs->seed[i] = question || (last && !qs_model_satisfies(&rq->f[i], 1, last));
    holds = holds && (!fs->seed[i] || qs_model_satisfies(&rq->f[i], 1, last));
  }
  bool answered = holds && accept(fs, rq, key, expr_assignment_copy(last), ans);
  /* 2. The seeds' group with the foralls' bounds fixed to the last model's values. */
  size_t nfixed = last && !answered ? fixed_request(fs, rq, fs->seed, last) : 0;
  if (nfixed) {
    solve_group(fs, fs->fixed, nfixed, fs->fixed_seed, false, rq, key, ans, &answered);
    release(fs->fixed, nfixed); /* its unsat proves nothing */
  }
  /* 3. The seeds' narrow group: its unsat is final. */
  if (!answered) {
    qs_status gs = solve_group(fs, rq->f, rq->n, fs->seed, true, rq, key, ans, &answered);
    if (gs == QS_UNSAT) {
      ans->status = QS_UNSAT;
      answered = true;
    }
  }
  fs->st = NULL;
  return answered;
}

void qs_slice_keep(qs_slice *fs, const qs_req *rq, const expr_assignment *m) {
  uint64_t key = 0;
  if (m && forall_in_path_condition(rq, &key)) keep_model(fs, key, m);
}

void qs_slice_free(qs_slice *fs) {
  if (!fs) return;
  for (size_t k = 0; k < FORALL_MODELS; k++) expr_assignment_free(fs->models[k]);
  free(fs->cells);
  free(fs->collect);
  free(fs->start);
  free(fs->in);
  free(fs->seed);
  free(fs->fixed_seed);
  qs_idmap_free(&fs->group);
  qs_idmap_free(&fs->arrays);
  free(fs->sub);
  free(fs->read);
  qs_idmap_free(&fs->seen);
  free(fs->stack);
  free(fs->bytes);
  free(fs->bound);
  free(fs->reads);
  free(fs->values);
  free(fs->fixed);
  free(fs);
}

qs_slice *qs_slice_new(void) { return xcalloc(1, sizeof(qs_slice)); }
