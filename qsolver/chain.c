/*
 * chain.c — the solver front: assembles the stage chain (the one place that decides its
 * order), runs requests through it with per-stage accounting, and builds the public
 * operations (must/may/value/model) on the one primitive request.
 *
 * Arrays, whatever their size, cost Z3 what their reads cost: the last stage (z3_backend.c)
 * blasts every byte a quantifier-free query reads at a constant index into an 8-bit
 * constant, for arrays of any capacity, and keeps the array theory only for a read of an
 * array larger than qs_options.blast_max_bytes (default 256) at a symbolic index, and for
 * quantified queries. Measured choice (issue 25, eval/README.md's capacity table): the array
 * theory past 256 bytes made the string scan 25x slower (13.9 s against 0.56 s CPU at its
 * capacity); test_qsolver compares the encodings, test_cells_mixed the mixed queries.
 */
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <math.h>
#include <time.h>

/* ---- shared helpers ------------------------------------------------------------------- */

double qs_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void *qs_xrealloc(void *p, size_t bytes) { return xrealloc(p, bytes); }

void qs_reserve(void **v, size_t *cap, size_t need, size_t size) {
  if (need <= *cap) return;
  size_t c = *cap ? *cap : 8;
  while (c < need) c *= 2;
  *v = qs_xrealloc(*v, c * size);
  *cap = c;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

size_t qs_sorted_ids(const qs_req *rq, uint64_t **ids, size_t *cap) {
  QS_RESERVE(*ids, *cap, rq->n);
  for (size_t i = 0; i < rq->n; i++) (*ids)[i] = rq->f[i]->id;
  qsort(*ids, rq->n, sizeof **ids, cmp_u64);
  return rq->n;
}

uint64_t qs_ids_hash(const uint64_t *ids, size_t n) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
  for (size_t i = 0; i < n; i++) h = hmap_hash(h ^ ids[i]) + i;
  return h ? h : 1;
}

uint64_t qs_ids_signature(const uint64_t *ids, size_t n) {
  uint64_t sig = 0;
  for (size_t i = 0; i < n; i++) sig |= 1ULL << (hmap_hash(ids[i]) & 63);
  return sig;
}

/* From the largest id down, each found by galloping back from where the last one was: the
 * newest formulas (largest ids) are the ones that tell two path conditions apart, so a
 * failing check usually stops after one search, not after a walk over both sets (the cex
 * cache's subset checks were 16% of memspn's time at capacity 1024, where every set holds
 * ~1000 ids and the 64-bit signature is all ones). */
bool qs_ids_subset(const uint64_t *a, size_t na, const uint64_t *b, size_t nb) {
  if (na > nb) return false;
  size_t hi = nb; /* a[i] can only be in b[0, hi) */
  for (size_t i = na; i-- > 0;) {
    if (hi <= i) return false; /* fewer candidates left than ids to find */
    uint64_t x = a[i];
    size_t step = 1, lo = hi;
    while (lo > 0 && b[lo - 1] > x) { /* gallop: b[lo..hi) > x */
      size_t next = lo > step ? lo - step : 0;
      if (b[next] > x) {
        lo = next;
        step *= 2;
      } else {
        /* b[next] <= x < b[lo]: binary search in (next, lo) */
        size_t l = next, h = lo - 1; /* invariant: b[l] <= x, b[h + 1] > x */
        while (l < h) {
          size_t m = l + (h - l + 1) / 2;
          if (b[m] <= x) l = m;
          else
            h = m - 1;
        }
        lo = l + 1;
        break;
      }
    }
    /* b[lo - 1] <= x < b[lo] (within [0, hi)) */
    if (lo == 0 || b[lo - 1] != x) return false;
    hi = lo - 1;
  }
  return true;
}

size_t qs_ids_missing(const uint64_t *ids, size_t n, const uint64_t *has, size_t nh,
                      size_t *missing) {
  size_t lo = 0, hi = n < nh ? n : nh;
  while (hi - lo > 16) { /* the longest common prefix, by halves compared with memcmp */
    size_t mid = lo + (hi - lo) / 2;
    if (memcmp(ids + lo, has + lo, (mid - lo) * sizeof *ids) == 0) lo = mid;
    else
      hi = mid;
  }
  size_t j = lo, count = 0;
  for (size_t i = lo; i < n; i++) {
    while (j < nh && has[j] < ids[i]) j++;
    if (j < nh && has[j] == ids[i]) j++;
    else
      missing[count++] = i;
  }
  return count;
}

const uint64_t *qs_cell_memo_get(qs_cell_memo *m, expr *f, qs_cell_collector *collect,
                                 size_t *count) {
  uint64_t v;
  if (qs_idmap_get(&m->map, f->id, &v)) {
    *count = (size_t)(v & ((1u << 24) - 1));
    return m->pool + (v >> 24);
  }
  size_t n = 0;
  collect(f, &m->collect, &n, &m->collect_cap);
  *count = n;
  if (n >= QS_CELL_MEMO_MAX) return m->collect; /* too many to remember */
  if (m->npool + n > QS_CELL_MEMO_MAX) {
    qs_idmap_reset(&m->map, 1024);
    m->npool = 0;
  }
  QS_RESERVE(m->pool, m->pool_cap, m->npool + n);
  memcpy(m->pool + m->npool, m->collect, n * sizeof *m->pool);
  qs_idmap_put(&m->map, f->id, (uint64_t)m->npool << 24 | n);
  m->npool += n;
  return m->pool + m->npool - n;
}

void qs_cell_memo_free(qs_cell_memo *m) {
  qs_idmap_free(&m->map);
  free(m->pool);
  free(m->collect);
}

void qs_push_unseen(qs_idmap *seen, expr ***stack, size_t *depth, size_t *cap, expr *e) {
  uint64_t dummy;
  if (qs_idmap_get(seen, e->id, &dummy)) return;
  qs_idmap_put(seen, e->id, 0);
  qs_reserve((void **)stack, cap, *depth + 1, sizeof **stack);
  (*stack)[(*depth)++] = e;
}

bool qs_reads_at_symbolic_index(expr *const *f, size_t n, qs_idmap *seen, expr ***stack,
                                size_t *cap) {
  qs_idmap_reset(seen, 64);
  size_t depth = 0;
  for (size_t i = 0; i < n; i++) qs_push_unseen(seen, stack, &depth, cap, f[i]);
  while (depth) {
    expr *e = (*stack)[--depth];
    if (e->kind == EXPR_READ) {
      if (!expr_is_const(e->kid[0])) return true;
      for (expr_update *u = e->u.read.updates; u; u = u->next) {
        qs_push_unseen(seen, stack, &depth, cap, u->index);
        qs_push_unseen(seen, stack, &depth, cap, u->value);
      }
    }
    for (unsigned k = 0; k < e->nkids; k++) qs_push_unseen(seen, stack, &depth, cap, e->kid[k]);
  }
  return false;
}

static bool holds_forall(expr *const *f, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (f[i]->has_forall) return true;
  return false;
}

bool qs_model_satisfies(expr *const *f, size_t n, const expr_assignment *m) {
  return expr_eval_all_true(f, n, m);
}

expr_assignment *qs_model_filter(const expr_assignment *m,
                                 bool (*keep)(const expr_array *a, void *ctx), void *ctx) {
  expr_assignment *out = expr_assignment_new();
  for (size_t i = 0; m && i < m->count; i++) {
    const expr_binding *b = &m->bindings[i];
    if (keep(b->array, ctx)) expr_assignment_set(out, b->array, b->bytes, b->len);
  }
  return out;
}

size_t qs_model_bytes(const expr_assignment *m) {
  size_t total = 0;
  for (size_t i = 0; m && i < m->count; i++) total += m->bindings[i].len + sizeof(expr_binding);
  return total;
}

/* ---- running stages --------------------------------------------------------------------- */

void qs_stage_run(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  double down = st->down_seconds;
  unsigned fwd = st->forwarded;
  bool itself = st->answered_itself;
  st->down_seconds = 0;
  st->forwarded = 0;
  st->answered_itself = false;
  st->stats.queries++;
  qs_ans_init(ans);
  double t0 = qs_now();
  st->ops->solve(st, rq, ans);
  double total = qs_now() - t0, own = total - st->down_seconds;
  st->stats.seconds += own > 0 ? own : 0;
  if (total > st->stats.slowest_seconds) st->stats.slowest_seconds = total;
  if (total > 1.0) st->stats.over_1s++;
  assert(ans->status == QS_SAT || !ans->model);
  /* a stage's request holds a forall only when the outside query did (stages rewrite, split
   * and expand formulas; none makes a forall): the path's depth is not walked per stage */
  bool forall = st->solver->query_forall && holds_forall(rq->f, rq->n);
  if (!st->forwarded || st->answered_itself) {
    /* the innermost stage that decides a request holding a forall decided it (the
     * quantified stage claims its answers itself: it forwards only sub-queries) */
    if (forall) st->solver->forall_decider = st;
    st->stats.answered++;
    if (ans->status == QS_SAT) st->stats.sat++;
    else if (ans->status == QS_UNSAT)
      st->stats.unsat++;
    else
      st->stats.unknown++;
  } else if (forall && !st->solver->forall_decider) {
    /* it forwarded, but no stage below saw the forall: this stage's answer did without it
     * (independence dropped the forall's group, or another group was unsat first) */
    st->solver->forall_decider = st;
  }
  /* Restore the caller's view: a stage is never re-entered, but keep this robust anyway. */
  st->down_seconds = down;
  st->forwarded = fwd;
  st->answered_itself = itself;
}

void qs_forward(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  assert(st->next);
  st->forwarded++;
  double t0 = qs_now();
  qs_stage_run(st->next, rq, ans);
  st->down_seconds += qs_now() - t0;
}

/* ---- assembly --------------------------------------------------------------------------- */

qs_options qs_default_options(void) {
  return (qs_options){.timeout_ms = 10000,
                      .quant_timeout_ms = 10000,
                      .quantified = true,
                      .fallback = QS_FALLBACK_BOTH,
                      .validate_quantified = false,
                      .independence = true,
                      .validity_cache = true,
                      .cex_cache = true,
                      .relax = true,
                      .units = true,
                      .forall_slice = false, /* see qsolver.h */
                      .incremental = true,
                      .int_lanes = 1u << QS_LANE_SCALAR,
                      .blast_max_bytes = 256,
                      .smt2_dir = NULL};
}

static void add_stage(qsolver *s, qs_stage *st) {
  assert(s->nstages < QS_MAX_STAGES);
  st->solver = s;
  st->stats.name = st->ops->name;
  if (s->nstages) s->stages[s->nstages - 1]->next = st;
  s->stages[s->nstages++] = st;
}

qsolver *qs_new(const qs_options *opt) {
  qsolver *s = xcalloc(1, sizeof *s);
  s->opt = opt ? *opt : qs_default_options();
  qs_set_smt2_dir(s, s->opt.smt2_dir);
  s->last_reason = "";
  s->deadline = INFINITY;
  /* The chain. Cheap syntactic answers first; independence before the caches so that they
   * key on the sliced sets, which recur far more often than whole path conditions; the
   * exact-match cache before the subset/model search; the quantified procedure after the
   * caches (a cached model or unsat core answers a quantified query as well) and just in
   * front of Z3, which it calls for each quantifier-free query it builds, and the relaxed
   * stage just before it (a quantified request it answers never reaches the procedure);
   * the unit stage, which can only spare Z3 a query, and Z3 last. */
  add_stage(s, qs_constant_stage_new(s));
  if (s->opt.independence) add_stage(s, qs_independence_stage_new(s));
  if (s->opt.validity_cache) add_stage(s, qs_validity_stage_new(s));
  if (s->opt.cex_cache) add_stage(s, qs_cex_stage_new(s));
  if (s->opt.relax) add_stage(s, qs_relax_stage_new(s));
  if (s->opt.quantified) add_stage(s, qs_quant_stage_new(s));
  if (s->opt.units) add_stage(s, qs_units_stage_new(s));
  add_stage(s, qs_z3_stage_new(s));
  return s;
}

void qs_free(qsolver *s) {
  if (!s) return;
  for (size_t i = 0; i < s->nstages; i++) s->stages[i]->ops->destroy(s->stages[i]);
  free(s->smt2_dir);
  free(s->with);
  free(s->vids);
  free(s);
}

void qs_set_smt2_dir(qsolver *s, const char *dir) {
  char *copy = dir ? xstrdup(dir) : NULL;
  free(s->smt2_dir);
  s->smt2_dir = copy;
  s->opt.smt2_dir = copy;
}

void qs_set_timeout(qsolver *s, unsigned timeout_ms) { s->opt.timeout_ms = timeout_ms; }

void qs_set_time_left(qsolver *s, unsigned left_ms) { s->deadline = qs_now() + left_ms / 1000.0; }

void qs_set_interrupt(qsolver *s, volatile sig_atomic_t *flag) { s->interrupted = flag; }

unsigned qs_check_limit(const qsolver *s, unsigned ms, bool *stop) {
  *stop = false;
  if (s->interrupted && *s->interrupted && !s->interrupted_at_start) {
    *stop = true;
    return ms;
  }
  if (s->deadline >= INFINITY) return ms;
  double left_ms = ceil((s->deadline - qs_now()) * 1000);
  if (left_ms < 1) {
    *stop = true;
    return ms;
  }
  return !ms || left_ms < ms ? (unsigned)left_ms : ms;
}

/* ---- the primitive request ---------------------------------------------------------------- */

/* The caller's model: exactly the requested arrays, capacity bytes each. A constant array
 * is its init; an array the chain's model does not bind is all zeros, which is how
 * evaluation read it, so the result is still a model. */
static expr_assignment *final_model(const expr_assignment *m, expr_array *const *arrays,
                                    size_t narrays) {
  expr_assignment *out = expr_assignment_new();
  uint8_t *buf = NULL;
  size_t cap = 0;
  for (size_t i = 0; i < narrays; i++) {
    expr_array *a = arrays[i];
    QS_RESERVE(buf, cap, a->capacity);
    memset(buf, 0, a->capacity);
    if (a->init) {
      memcpy(buf, a->init, a->capacity);
    } else {
      const expr_binding *b = m ? expr_assignment_find(m, a) : NULL;
      if (b) memcpy(buf, b->bytes, b->len < a->capacity ? b->len : a->capacity);
    }
    expr_assignment_set(out, a, buf, a->capacity);
  }
  free(buf);
  return out;
}

qs_status qs_solve(qsolver *s, const qs_query *q, qs_result *r) {
  assert(q->assumed <= q->count);
  /* The formulas past the prefix shared with the last request (ids are never reused: the
   * same id is the same formula, checked already) */
  size_t same = 0, lim = q->count < s->nvids ? q->count : s->nvids;
  while (same < lim && s->vids[same] == q->formulas[same]->id) same++;
  QS_RESERVE(s->vids, s->vids_cap, q->count);
  if (s->vforall >= same) s->vforall = SIZE_MAX;
  for (size_t i = same; i < q->count; i++) {
    assert(q->formulas[i]->width == 1 && !q->formulas[i]->has_bvar);
    if (q->formulas[i]->has_forall && s->vforall == SIZE_MAX) s->vforall = i;
    s->vids[i] = q->formulas[i]->id;
  }
  s->nvids = q->count;
  bool forall = s->vforall != SIZE_MAX;
  qs_req rq = {.same = same,
               .f = q->formulas,
               .n = q->count,
               .assumed = q->assumed,
               .want_model = q->want_model,
               .arrays = q->arrays,
               .narrays = q->narrays};
  qs_ans ans;
  s->forall_decider = NULL;
  bool outside = !s->depth, measured = outside && !s->excluded;
  bool tagged = measured && s->effort_tag && !forall;
  uint64_t effort0 = outside && (forall || tagged || s->excluded) ? qs_effort(s) : 0;
  uint64_t unmeasured0 = s->unmeasured_effort;
  if (!s->depth++) s->interrupted_at_start = s->interrupted && *s->interrupted;
  bool outer_forall = s->query_forall;
  s->query_forall = forall;
  qs_stage_run(s->stages[0], &rq, &ans);
  s->query_forall = outer_forall;
  s->depth--;
  s->split.queries += measured;
  if (outside && !measured) s->unmeasured_effort = unmeasured0 + (qs_effort(s) - effort0);
  if ((measured && forall) || tagged) { /* the query's own effort, its unmeasured parts left out */
    uint64_t spent = qs_effort(s) - effort0 - (s->unmeasured_effort - unmeasured0);
    if (forall) {
      s->split.forall_queries++;
      s->split.forall_effort += spent;
    } else {
      s->split.tagged_queries++;
      s->split.tagged_effort += spent;
    }
  }
  if (forall) {
    s->quant.asked++;
    if (ans.status == QS_UNKNOWN) s->quant.asked_unknown++;
    /* every stage's request held the forall down to the one that answered without
     * forwarding it or that claimed it (qs_stage_run): asked = the sum of forall_decided */
    assert(s->forall_decider);
    s->forall_decider->stats.forall_decided++;
  }
  r->status = ans.status;
  r->reason = ans.status == QS_UNKNOWN ? (ans.reason && *ans.reason ? ans.reason : "unknown") : "";
  r->model = NULL;
  if (q->want_model && ans.status == QS_SAT)
    r->model = final_model(ans.model, q->arrays, q->narrays);
  expr_assignment_free(ans.model);
  s->last_reason = r->reason;
  return r->status;
}

/* ---- the operations --------------------------------------------------------------------- */

qs_status qs_check_sat(qsolver *s, expr *const *constraints, size_t n) {
  qs_query q = {.formulas = constraints, .count = n, .assumed = 0};
  qs_result r;
  return qs_solve(s, &q, &r);
}

/* constraints ∧ extra, with the constraints assumed satisfiable. An outside query copies them
 * into the solver's buffer (no allocation per query); a query asked from inside the chain
 * into its own, since the outside one's is in use. */
static qs_status solve_with(qsolver *s, expr *const *constraints, size_t n, expr *extra) {
  expr *stack[16];
  expr **f = stack;
  if (n + 1 > 16 && !s->depth) {
    QS_RESERVE(s->with, s->with_cap, n + 1);
    f = s->with;
  } else if (n + 1 > 16) {
    f = qs_xrealloc(NULL, (n + 1) * sizeof *f);
  }
  if (n) memcpy(f, constraints, n * sizeof *f);
  f[n] = extra;
  qs_query q = {.formulas = f, .count = n + 1, .assumed = n};
  qs_result r;
  qs_status st = qs_solve(s, &q, &r);
  if (f != stack && f != s->with) free(f);
  return st;
}

qs_status qs_must_be_true(qsolver *s, expr *const *constraints, size_t n, expr *e, bool *out) {
  assert(e->width == 1);
  expr *ne = expr_not(e);
  qs_status st = solve_with(s, constraints, n, ne);
  expr_unref(ne);
  if (st != QS_UNKNOWN) *out = st == QS_UNSAT;
  return st;
}

qs_status qs_may_be_true(qsolver *s, expr *const *constraints, size_t n, expr *e, bool *out) {
  assert(e->width == 1);
  qs_status st = solve_with(s, constraints, n, e);
  if (st != QS_UNKNOWN) *out = st == QS_SAT;
  return st;
}

qs_status qs_get_value(qsolver *s, expr *const *constraints, size_t n, expr *e, u128 *out) {
  assert(!e->has_bvar);
  if (expr_is_const(e)) {
    *out = e->u.value;
    s->last_reason = "";
    return QS_SAT;
  }
  expr_array **arrays = NULL;
  size_t narrays = 0, cap = 0;
  expr_collect_arrays(e, &arrays, &narrays, &cap);
  qs_query q = {.formulas = constraints,
                .count = n,
                .assumed = n,
                .want_model = true,
                .arrays = arrays,
                .narrays = narrays};
  qs_result r;
  qs_status st = qs_solve(s, &q, &r);
  if (st == QS_SAT) {
    u128 v;
    if (expr_eval(e, r.model, (uint64_t)1 << 20, &v) == EXPR_EVAL_OK) {
      *out = v;
    } else {
      st = QS_UNKNOWN;
      s->last_reason = "value does not evaluate";
    }
  }
  expr_assignment_free(r.model);
  free(arrays);
  return st;
}

qs_status qs_get_model(qsolver *s, expr *const *constraints, size_t n, expr_array *const *arrays,
                       size_t narrays, expr_assignment **out) {
  qs_query q = {.formulas = constraints,
                .count = n,
                .assumed = n,
                .want_model = true,
                .arrays = arrays,
                .narrays = narrays};
  qs_result r;
  qs_status st = qs_solve(s, &q, &r);
  *out = r.model;
  return st;
}

const char *qs_last_reason(const qsolver *s) { return s->last_reason; }

/* ---- counters ----------------------------------------------------------------------------- */

size_t qs_stage_count(const qsolver *s) { return s->nstages; }

const char *qs_qstep_name(qs_qstep step) {
  static const char *const names[QS_QSTEP_COUNT] = {"slice",  "strip",           "duplicate",
                                                    "repair", "fallback_expand", "fallback_z3"};
  assert(step < QS_QSTEP_COUNT);
  return names[step];
}

const qs_quant_stats *qs_quant_stats_of(const qsolver *s) { return &s->quant; }

const qs_stage_stats *qs_stage_at(const qsolver *s, size_t i) {
  return i < s->nstages ? &s->stages[i]->stats : NULL;
}

const qs_stage_stats *qs_stats(const qsolver *s, const char *name) {
  for (size_t i = 0; i < s->nstages; i++)
    if (strcmp(s->stages[i]->stats.name, name) == 0) return &s->stages[i]->stats;
  return NULL;
}

/* "quantified": the quantified stage's counters, under the names qs_qstep_name gives, then
 * the forall queries asked from outside with the stage that decided each, and the
 * --validate-qsolver re-checks (qsolver.h, qs_quant_stats). */
static void quant_stats_json(json_writer *j, const qsolver *s) {
  const qs_quant_stats *q = &s->quant;
  json_object_begin(j);
  json_key_uint(j, "queries", q->queries);
  json_key(j, "answered");
  json_object_begin(j);
  for (int k = 0; k < QS_QSTEP_COUNT; k++)
    json_key_uint(j, qs_qstep_name((qs_qstep)k), q->answered[k]);
  json_object_end(j);
  json_key_uint(j, "unknown", q->unknown);
  json_key(j, "seconds");
  json_object_begin(j);
  for (int k = 0; k < QS_QSTEP_COUNT; k++) {
    json_key(j, qs_qstep_name((qs_qstep)k));
    json_double(j, q->seconds[k]);
  }
  json_object_end(j);
  json_key(j, "effort");
  json_object_begin(j);
  for (int k = 0; k < QS_QSTEP_COUNT; k++)
    json_key_uint(j, qs_qstep_name((qs_qstep)k), q->effort[k]);
  json_object_end(j);
  JSON_COUNTERS(j, {"strip_conjuncts", q->strip_conjuncts}, {"strip_instances", q->strip_instances},
                {"strip_folded", q->strip_folded}, {"scan_lemmas", q->scan_lemmas},
                {"slice_dear", q->slice_dear}, {"disagreements", q->disagreements},
                {"asked", q->asked});
  json_key(j, "asked_decided_by");
  json_object_begin(j);
  for (size_t i = 0; i < s->nstages; i++)
    json_key_uint(j, s->stages[i]->stats.name, s->stages[i]->stats.forall_decided);
  json_object_end(j);
  JSON_COUNTERS(j, {"asked_unknown", q->asked_unknown}, {"rechecked", q->rechecked},
                {"rechecked_from_cache", q->rechecked_from_cache},
                {"recheck_unknown", q->recheck_unknown},
                {"models_unconfirmed", q->models_unconfirmed});
  json_object_end(j);
}

static void stage_stats_json(json_writer *j, const qs_stage_stats *st, bool is_z3) {
  json_object_begin(j);
  JSON_COUNTERS(j, {"queries", st->queries}, {"answered", st->answered}, {"sat", st->sat},
                {"unsat", st->unsat}, {"unknown", st->unknown});
  json_key(j, "seconds");
  json_double(j, st->seconds);
  json_key(j, "slowest_s");
  json_double(j, st->slowest_seconds);
  json_key_uint(j, "over_1s", st->over_1s);
  if (is_z3) {
    json_key_uint(j, "in_integers", st->in_integers);
    json_key_uint(j, "simplified", st->simplified);
    json_key_uint(j, "alone", st->alone);
    json_key_uint(j, "alone_effort", st->alone_effort);
    json_key_uint(j, "model_faults", st->model_faults);
  }
  json_object_end(j);
}

void qs_write_stats(json_writer *j, const qsolver *s) {
  /* The first stage sees every query whole. */
  const qs_stage_stats *whole = s->nstages ? &s->stages[0]->stats : NULL;
  double solver_seconds = 0;
  for (size_t i = 0; i < s->nstages; i++) solver_seconds += s->stages[i]->stats.seconds;
  json_key_uint(j, "queries", whole ? whole->queries : 0);
  json_key(j, "queries_by_stage");
  json_object_begin(j);
  for (size_t i = 0; i < s->nstages; i++) {
    json_key(j, s->stages[i]->stats.name);
    stage_stats_json(j, &s->stages[i]->stats, i + 1 == s->nstages); /* Z3 comes last */
  }
  json_object_end(j);
  json_key(j, "quantified");
  quant_stats_json(j, s);
  json_key(j, "solver_time_s");
  json_double(j, solver_seconds);
  json_key(j, "slowest_query_s");
  json_double(j, whole ? whole->slowest_seconds : 0);
  json_key_uint(j, "queries_over_1s", whole ? whole->over_1s : 0);
  json_key_uint(j, "solver_effort", qs_effort(s));
  qs_effort_split split = qs_effort_split_of(s);
  json_key(j, "effort_split");
  json_object_begin(j);
  json_key_uint(j, "queries", split.queries);
  json_key_uint(j, "forall_queries", split.forall_queries);
  json_key_uint(j, "effort", split.effort);
  json_key_uint(j, "forall_effort", split.forall_effort);
  json_key_uint(j, "tagged_queries", split.tagged_queries);
  json_key_uint(j, "tagged_effort", split.tagged_effort);
  json_object_end(j);
}

qs_effort_split qs_effort_split_of(const qsolver *s) {
  qs_effort_split split = s->split;
  split.effort = qs_effort(s) - s->unmeasured_effort;
  return split;
}

void qs_effort_split_tag(qsolver *s, bool on) { s->effort_tag = on; }

void qs_effort_split_exclude(qsolver *s, bool on) {
  assert(on || s->excluded);
  s->excluded += on ? 1 : -1u;
}

uint64_t qs_effort(const qsolver *s) {
  for (size_t i = s->nstages; i-- > 0;) /* Z3 comes last */
    if (strcmp(s->stages[i]->stats.name, "z3") == 0) return qs_z3_effort(s->stages[i]);
  return 0;
}
