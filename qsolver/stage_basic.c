/*
 * stage_basic.c — the two syntactic stages at the head of the chain.
 *
 * constant: drops formulas that are constant true and duplicates, answers unsat on a
 * constant false or on a formula whose negation (as expr_not builds it, hash-consed) is
 * also present — the common "branch on a condition already on the path" — and sat on an
 * empty set.
 *
 * independence: groups formulas that share an array, transitively (union-find over the
 * formulas, keyed by array id). A group made only of assumed formulas that holds no
 * requested array is satisfiable by the precondition and does not constrain what the caller
 * reads, so it is dropped. The remaining groups share no array, so each is solved on its
 * own (smaller, and far more often repeated, which is what the caches feed on) and the
 * models are unioned. A fresh constant such as a merge's K is an array like any other, so
 * the constraints that use it stay together, as they must.
 */
#include "qsolver/stage.h"

/* ---- constant ---------------------------------------------------------------------------- */

typedef struct constant_stage {
  qs_stage base;
  qs_idmap seen;
  expr **kept;
  size_t kept_cap;
} constant_stage;

static void constant_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  constant_stage *c = (constant_stage *)st;
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
    if (i < rq->assumed)
      assumed++;
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
  if (n == 0) {
    ans->status = QS_SAT;
    if (rq->want_model)
      ans->model = expr_assignment_new();
    return;
  }
  qs_req sub = *rq;
  sub.f = c->kept;
  sub.n = n;
  sub.assumed = assumed;
  qs_forward(st, &sub, ans);
}

static void constant_destroy(qs_stage *st) {
  constant_stage *c = (constant_stage *)st;
  qs_idmap_free(&c->seen);
  free(c->kept);
  free(c);
}

static const qs_stage_ops constant_ops = {"constant", constant_solve, constant_destroy};

qs_stage *qs_constant_stage_new(qsolver *s) {
  constant_stage *c = calloc(1, sizeof *c);
  if (!c)
    expr_oom();
  c->base.ops = &constant_ops;
  return &c->base;
}

/* ---- independence -------------------------------------------------------------------------- */

/* Per-array slot of the current request: which formula first mentioned the array. */
typedef struct array_slot {
  uint64_t stamp;
  uint32_t formula;
} array_slot;

typedef struct independence_stage {
  qs_stage base;
  /* Memo: formula id → [offset, count) in `pool` of array ids (creation order). */
  qs_idmap memo;
  uint32_t *pool;
  size_t npool, pool_cap;
  expr_array **collect;
  size_t collect_cap;
  /* Per request. */
  array_slot *slots; /* by array id */
  size_t slots_cap;
  uint64_t stamp;
  uint32_t *parent, *comp_of_root;
  size_t parent_cap, comp_cap;
  bool *needed;
  size_t needed_cap;
  expr **sub_f;
  size_t sub_f_cap;
  expr_array **sub_arrays;
  size_t sub_arrays_cap;
  uint32_t cur_root; /* the component whose model bindings are being kept */
} independence_stage;

/* Bounds the memo; past it, start over (deterministically). */
#define MEMO_MAX_POOL ((size_t)1 << 22)

static const uint32_t *formula_arrays(independence_stage *ind, expr *f, size_t *count) {
  uint64_t v;
  if (!qs_idmap_get(&ind->memo, f->id, &v)) {
    size_t n = 0;
    expr_collect_arrays(f, &ind->collect, &n, &ind->collect_cap);
    if (n >= MEMO_MAX_POOL)
      expr_oom(); /* one formula over 4M arrays: not worth a wider encoding */
    if (ind->npool + n > MEMO_MAX_POOL) {
      qs_idmap_reset(&ind->memo, 0);
      ind->npool = 0;
    }
    QS_RESERVE(ind->pool, ind->pool_cap, ind->npool + n);
    for (size_t i = 0; i < n; i++)
      ind->pool[ind->npool + i] = ind->collect[i]->id;
    v = (uint64_t)ind->npool << 24 | n;
    ind->npool += n;
    qs_idmap_put(&ind->memo, f->id, v);
  }
  *count = (size_t)(v & ((1u << 24) - 1));
  return ind->pool + (v >> 24);
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
  if (a < b)
    parent[b] = a;
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

static bool in_current_component(const expr_array *a, void *ctx) {
  independence_stage *ind = ctx;
  if (a->id >= ind->slots_cap || ind->slots[a->id].stamp != ind->stamp)
    return false;
  return find(ind->parent, ind->slots[a->id].formula) == ind->cur_root;
}

static void independence_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  independence_stage *ind = (independence_stage *)st;
  size_t n = rq->n;
  ind->stamp++;
  QS_RESERVE(ind->parent, ind->parent_cap, n);
  QS_RESERVE(ind->needed, ind->needed_cap, n);
  QS_RESERVE(ind->comp_of_root, ind->comp_cap, n);
  for (size_t i = 0; i < n; i++) {
    ind->parent[i] = (uint32_t)i;
    ind->needed[i] = rq->assumed == 0 || i >= rq->assumed;
  }
  for (size_t i = 0; i < n; i++) {
    size_t na;
    const uint32_t *ids = formula_arrays(ind, rq->f[i], &na);
    for (size_t k = 0; k < na; k++) {
      array_slot *sl = slot_of(ind, ids[k]);
      if (sl->stamp == ind->stamp) {
        unite(ind->parent, sl->formula, (uint32_t)i);
      } else {
        sl->stamp = ind->stamp;
        sl->formula = (uint32_t)i;
      }
    }
  }
  for (size_t i = 0; i < n; i++)
    if (ind->needed[i])
      ind->needed[find(ind->parent, (uint32_t)i)] = true;
  for (size_t k = 0; k < rq->narrays; k++) {
    uint32_t id = rq->arrays[k]->id;
    if (id < ind->slots_cap && ind->slots[id].stamp == ind->stamp)
      ind->needed[find(ind->parent, ind->slots[id].formula)] = true;
  }
  /* Components in order of their first formula (their root, the smallest index). */
  size_t ncomp = 0, kept = 0;
  for (size_t i = 0; i < n; i++) {
    uint32_t r = find(ind->parent, (uint32_t)i);
    if (!ind->needed[r])
      continue;
    kept++;
    if (r == i)
      ind->comp_of_root[ncomp++] = r;
  }
  st->stats.formulas_dropped += n - kept;
  if (ncomp == 0) {
    ans->status = QS_SAT;
    if (rq->want_model)
      ans->model = expr_assignment_new();
    return;
  }
  if (ncomp == 1 && kept == n) {
    qs_forward(st, rq, ans);
    return;
  }
  expr_assignment *merged = rq->want_model ? expr_assignment_new() : NULL;
  QS_RESERVE(ind->sub_f, ind->sub_f_cap, n);
  QS_RESERVE(ind->sub_arrays, ind->sub_arrays_cap, rq->narrays);
  for (size_t c = 0; c < ncomp; c++) {
    uint32_t root = ind->comp_of_root[c];
    qs_req sub = {.f = ind->sub_f, .want_model = rq->want_model, .arrays = ind->sub_arrays};
    for (size_t i = root; i < n; i++)
      if (find(ind->parent, (uint32_t)i) == root) {
        ind->sub_f[sub.n++] = rq->f[i];
        if (i < rq->assumed)
          sub.assumed++;
      }
    ind->cur_root = root;
    for (size_t k = 0; k < rq->narrays; k++)
      if (in_current_component(rq->arrays[k], ind))
        ind->sub_arrays[sub.narrays++] = rq->arrays[k];
    qs_ans part;
    qs_forward(st, &sub, &part);
    if (part.status != QS_SAT) {
      expr_assignment_free(merged);
      *ans = part;
      return;
    }
    if (merged) {
      ind->cur_root = root;
      for (size_t b = 0; part.model && b < part.model->count; b++) {
        const expr_binding *bind = &part.model->bindings[b];
        if (in_current_component(bind->array, ind))
          expr_assignment_set(merged, bind->array, bind->bytes, bind->len);
      }
    }
    qs_ans_clear(&part);
  }
  ans->status = QS_SAT;
  ans->model = merged;
}

static void independence_destroy(qs_stage *st) {
  independence_stage *ind = (independence_stage *)st;
  qs_idmap_free(&ind->memo);
  free(ind->pool);
  free(ind->collect);
  free(ind->slots);
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
  independence_stage *ind = calloc(1, sizeof *ind);
  if (!ind)
    expr_oom();
  ind->base.ops = &independence_ops;
  return &ind->base;
}
