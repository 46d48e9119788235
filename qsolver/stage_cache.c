/*
 * stage_cache.c — the two caches between independence and Z3.
 *
 * validity cache: exact match on the formula set (its sorted ids; ids are never reused, so
 * an entry can never be stale). Stores sat or unsat, and the model when one was computed.
 * The VC_HELD newest entries hold a reference to each of their formulas: a question the
 * engine builds, asks and drops (a branch condition, the sliced question of a sibling path)
 * would otherwise be freed, and built again later it would be interned as a new node with a
 * new id — the same question missing the cache and going to Z3 again (APR unescape_url at
 * capacity 5 under forking: 388 of its 2,289 Z3 queries repeated one asked at most 9 Z3
 * queries before, 122 k of 1.42 M effort). Only the newest: the repeats come soon, and held
 * by every entry, the formulas of long-gone states (merged values, their update lists) would
 * stay alive as long as the cache, up to its 65,536 entries.
 *
 * counterexample cache (KLEE's idea, simplified to linear scans over bounded rings, which
 * evict the oldest entry — deterministic, and cheap at these sizes thanks to a 64-bit
 * signature that rejects most candidates without touching their ids):
 *   - a stored unsat set that is a subset of the query → unsat;
 *   - a stored sat set that is a superset of the query → its model;
 *   - a stored model that evaluates every formula to true → that model (unbound arrays
 *     read as 0 during evaluation, so with them as zeros it is a real model). Each entry
 *     keeps the verdicts of the formulas its model was evaluated on (formula ids are never
 *     reused and a stored model never changes, so a verdict cannot go stale), and the last
 *     formula its model falsified, which rules the entry out at once for any request that
 *     holds it.
 * Requests it forwards always ask for a model, since models are what it learns from.
 * With --validate-qsolver, an answer either cache gives to a request holding a forall is
 * re-checked by the quantified stage (qs_quant_recheck).
 */
#include "qsolver/quant.h"
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"

#include <assert.h>

/* ---- validity cache ------------------------------------------------------------------------ */

typedef struct vc_entry {
  uint64_t hash;
  struct vc_entry *chain; /* the table's link */
  uint64_t *ids;
  size_t n;
  expr **held; /* a reference to each formula of the set, so that its ids stay its own */
  size_t nheld;
  qs_status status;
  expr_assignment *model; /* NULL for unsat, or sat without a model yet */
} vc_entry;

/* Entries whose formulas are held (see the header): a ring, the oldest let go first. */
#define VC_HELD 1024

typedef struct validity_stage {
  qs_stage base;
  hchain table; /* of vc_entry, by the hash of their ids */
  vc_entry *held[VC_HELD];
  size_t nheld, held_next; /* entries in the ring; the slot the next one takes */
  size_t model_bytes;
  uint64_t *ids;
  size_t ids_cap;
} validity_stage;

/* Past either bound the table starts over: simpler than LRU and still deterministic. */
#define VC_MAX_ENTRIES ((size_t)1 << 16)
#define VC_MAX_MODEL_BYTES ((size_t)64 << 20)

#define VC_LINK offsetof(vc_entry, chain)

/* e's formulas are no longer held by it. */
static void vc_let_go(vc_entry *e) {
  for (size_t k = 0; k < e->nheld; k++) expr_unref(e->held[k]);
  free(e->held);
  e->held = NULL;
  e->nheld = 0;
}

/* e, whose request rq the stages below just answered, holds rq's formulas unless it does
 * already; the oldest holding entry lets go of its own. */
static void vc_hold(validity_stage *v, vc_entry *e, const qs_req *rq) {
  if (e->held || !rq->n) return;
  if (v->nheld == VC_HELD) vc_let_go(v->held[v->held_next]);
  else
    v->nheld++;
  v->held[v->held_next] = e;
  v->held_next = (v->held_next + 1) % VC_HELD;
  e->held = qs_xrealloc(NULL, rq->n * sizeof *e->held);
  for (size_t k = 0; k < rq->n; k++) e->held[e->nheld++] = expr_ref(rq->f[k]);
}

static void vc_clear(validity_stage *v) {
  for (size_t i = 0; v->table.buckets && i <= v->table.mask; i++)
    for (vc_entry *e = v->table.buckets[i], *next; e; e = next) {
      next = e->chain;
      vc_let_go(e);
      free(e->ids);
      expr_assignment_free(e->model);
      free(e);
    }
  hchain_free(&v->table);
  v->model_bytes = 0;
  v->nheld = v->held_next = 0;
}

static vc_entry *vc_find(const validity_stage *v, uint64_t h, const uint64_t *ids, size_t n) {
  if (!v->table.buckets) return NULL;
  for (vc_entry *e = hchain_bucket(&v->table, h); e; e = e->chain)
    if (e->hash == h && e->n == n && memcmp(e->ids, ids, n * sizeof *ids) == 0) return e;
  return NULL;
}

static vc_entry *vc_insert(validity_stage *v, uint64_t h, const uint64_t *ids, size_t n) {
  if (v->table.count >= VC_MAX_ENTRIES || v->model_bytes >= VC_MAX_MODEL_BYTES) vc_clear(v);
  vc_entry *e = vc_find(v, h, ids, n);
  if (e) return e;
  if (hchain_is_full(&v->table)) hchain_grow(&v->table, 256, VC_LINK, offsetof(vc_entry, hash));
  e = xcalloc(1, sizeof *e);
  e->hash = h;
  e->ids = qs_xrealloc(NULL, n * sizeof *ids);
  memcpy(e->ids, ids, n * sizeof *ids);
  e->n = n;
  hchain_insert(&v->table, e, h, VC_LINK);
  return e;
}

static void validity_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  validity_stage *v = (validity_stage *)st;
  size_t n = qs_sorted_ids(rq, &v->ids, &v->ids_cap);
  uint64_t h = qs_ids_hash(v->ids, n);
  vc_entry *e = vc_find(v, h, v->ids, n);
  if (e && (e->status == QS_UNSAT || !rq->want_model || e->model)) {
    ans->status = e->status;
    if (e->status == QS_SAT && rq->want_model) ans->model = expr_assignment_copy(e->model);
    qs_quant_recheck(st->solver, rq, ans, "validity_cache", true);
    return;
  }
  qs_forward(st, rq, ans);
  if (ans->status == QS_UNKNOWN)
    return; /* a timeout may not recur with more time or another order */
  /* v->ids is still this request's: no stage below shares this stage's buffer. */
  e = vc_insert(v, h, v->ids, n);
  vc_hold(v, e, rq);
  e->status = ans->status;
  if (ans->model && !e->model) {
    e->model = expr_assignment_copy(ans->model);
    v->model_bytes += qs_model_bytes(e->model);
  }
}

static void validity_destroy(qs_stage *st) {
  validity_stage *v = (validity_stage *)st;
  vc_clear(v);
  free(v->ids);
  free(v);
}

static const qs_stage_ops validity_ops = {"validity_cache", validity_solve, validity_destroy};

qs_stage *qs_validity_stage_new(qsolver *s) {
  validity_stage *v = xcalloc(1, sizeof *v);
  v->base.ops = &validity_ops;
  return &v->base;
}

/* ---- counterexample cache ------------------------------------------------------------------ */

/* Verdicts a sat entry keeps on the formulas its model was evaluated on, at most (then it
 * starts over). */
#define CEX_VERDICTS 512

typedef struct cex_entry {
  uint64_t *ids; /* sorted */
  size_t n;
  uint64_t sig;
  expr_assignment *model; /* NULL in the unsat ring */
  /* formula id → 1 the model satisfies it, 2 it falsifies it: what evaluation found */
  qs_idmap verdicts;
  uint64_t falsified; /* the id + 1 of the last formula found false, 0: none */
} cex_entry;

typedef struct cex_ring {
  cex_entry *e;
  size_t cap, count, head; /* head: the next slot to fill (the oldest once full) */
  /* By slot, the entries' signatures as a request's is tested against them: x & mask == 0
   * (mask ~sig) means e->sig ⊆ sig in the unsat ring (stored as is), sig ⊆ e->sig in the sat
   * ring (stored complemented): one flat array walked without touching the entries. */
  uint64_t *tests;
  bool complemented;
} cex_ring;

#define CEX_UNSAT_CAP 1024
#define CEX_SAT_CAP 256
/* Models tried by evaluation per query, newest first: every model the ring holds. The
 * newest 32 alone missed the models of states that resume after a long subtree (a region's
 * states held at an exit and released forked, DFS's older siblings): on wget uri_merge
 * (capacity 5, pat) its 161 resumed states each went to Z3 at the next branch. Trying all
 * 256 (their verdicts memoized per entry, falsified ones ruled out first), pat/none Z3
 * effort went 1.12 → 0.99 there, 1.17 → 0.94 on busybox kill_signum, 1.14 → 0.90 on wget
 * base64, forking's own effort 1.00–0.77× and its CPU no higher on the campaign's drivers
 * (eval/real/RESULTS.md, "Every cached model tried"). */
#define CEX_MAX_EVALS CEX_SAT_CAP

typedef struct cex_stage {
  qs_stage base;
  cex_ring unsat, sat;
  uint64_t *ids;
  size_t ids_cap;
  expr **rest; /* the formulas a candidate model is not yet known to satisfy */
  size_t rest_cap;
  expr **sorted; /* the request's formulas in the order of c->ids */
  size_t sorted_cap;
  size_t *missing; /* positions in c->ids of the ids a cached entry lacks */
  size_t missing_cap;
} cex_stage;

static void ring_init(cex_ring *r, size_t cap, bool complemented) {
  r->e = xcalloc(cap, sizeof *r->e);
  r->tests = xcalloc(cap, sizeof *r->tests);
  r->cap = cap;
  r->complemented = complemented;
}

static void ring_push(cex_ring *r, const uint64_t *ids, size_t n, uint64_t sig,
                      expr_assignment *model) {
  cex_entry *e = &r->e[r->head];
  if (r->count == r->cap) {
    free(e->ids);
    expr_assignment_free(e->model);
    qs_idmap_free(&e->verdicts);
  } else {
    r->count++;
  }
  e->ids = qs_xrealloc(NULL, n * sizeof *ids);
  memcpy(e->ids, ids, n * sizeof *ids);
  e->n = n;
  e->sig = sig;
  r->tests[r->head] = r->complemented ? ~sig : sig;
  e->model = model;
  e->verdicts = (qs_idmap){0};
  e->falsified = 0;
  r->head = (r->head + 1) % r->cap;
}

/* The slot of the entry just older than `slot` (the newest is ring_prev(r, r->head)): the
 * rings are walked newest first by stepping back, without a division per entry (the walks of
 * full rings were most of this stage's time on memspn at capacity 1024). */
static size_t ring_prev(const cex_ring *r, size_t slot) { return slot ? slot - 1 : r->cap - 1; }

/* From the k-th newest entry on (its slot `slot`), the newest whose test passes the mask (see
 * cex_ring): its k, *slot its slot; r->count when none does. */
static size_t ring_next_fit(const cex_ring *r, size_t k, size_t *slot, uint64_t mask) {
  size_t i = *slot;
  while (k < r->count) {
    size_t stop = i + 1 < r->count - k ? 0 : i + 1 - (r->count - k); /* this run's last slot */
    for (;; i--, k++) {
      if (!(r->tests[i] & mask)) {
        *slot = i;
        return k;
      }
      if (i == stop) break;
    }
    k++;
    i = r->cap - 1; /* the older part, from the array's end */
  }
  return k;
}

static void ring_free(cex_ring *r) {
  for (size_t i = 0; i < r->count; i++) {
    free(r->e[i].ids);
    expr_assignment_free(r->e[i].model);
    qs_idmap_free(&r->e[i].verdicts);
  }
  free(r->e);
  free(r->tests);
}

static int cmp_formula_id(const void *a, const void *b) {
  uint64_t x = (*(expr *const *)a)->id, y = (*(expr *const *)b)->id;
  return (x > y) - (x < y);
}

static void answer_sat(qs_stage *st, const qs_req *rq, qs_ans *ans, const expr_assignment *m) {
  ans->status = QS_SAT;
  if (rq->want_model) ans->model = expr_assignment_copy(m);
  /* --validate-qsolver: the cached model itself is what is re-checked */
  qs_ans checked = {.status = QS_SAT, .model = (expr_assignment *)m};
  qs_quant_recheck(st->solver, rq, &checked, "cex_cache", true);
}

static bool has_id(const uint64_t *ids, size_t n, uint64_t id) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (ids[mid] < id) lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && ids[lo] == id;
}

/* Does e's model satisfy every formula of f[0..n)? Each formula's verdict is kept with the
 * entry: the same cached models are tried on one path's requests over and over, on formulas
 * the previous tries evaluated already (a merged state's requests carry its whole path
 * condition: on eval/bench_forall_tax 20,638 evaluations were of 4,694 distinct model and
 * formula pairs), and fail on the same formula each time (a branch the model's path took the
 * other way), which the next request is then checked for first. Formulas holding a forall
 * last: their evaluation expands them. */
static bool satisfies_all(cex_entry *e, expr *const *f, size_t n) {
  for (int pass = 0; pass < 2; pass++)
    for (size_t i = 0; i < n; i++) {
      if (f[i]->has_forall != (pass == 1)) continue;
      uint64_t v;
      if (!qs_idmap_get(&e->verdicts, f[i]->id, &v)) {
        v = qs_model_satisfies(&f[i], 1, e->model) ? 1 : 2;
        if (e->verdicts.count >= CEX_VERDICTS) qs_idmap_reset(&e->verdicts, 64);
        qs_idmap_put(&e->verdicts, f[i]->id, v);
      }
      if (v == 2) {
        e->falsified = f[i]->id + 1;
        return false;
      }
    }
  return true;
}

static void cex_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  cex_stage *c = (cex_stage *)st;
  size_t n = qs_sorted_ids(rq, &c->ids, &c->ids_cap);
  uint64_t sig = qs_ids_signature(c->ids, n);
  size_t slot = ring_prev(&c->unsat, c->unsat.head);
  for (size_t k = 0; (k = ring_next_fit(&c->unsat, k, &slot, ~sig)) < c->unsat.count;
       k++, slot = ring_prev(&c->unsat, slot)) {
    const cex_entry *e = &c->unsat.e[slot];
    assert(!(e->sig & ~sig));
    if (qs_ids_subset(e->ids, e->n, c->ids, n)) {
      ans->status = QS_UNSAT;
      qs_quant_recheck(st->solver, rq, ans, "cex_cache", true);
      return;
    }
  }
  slot = ring_prev(&c->sat, c->sat.head);
  for (size_t k = 0; (k = ring_next_fit(&c->sat, k, &slot, sig)) < c->sat.count;
       k++, slot = ring_prev(&c->sat, slot)) {
    const cex_entry *e = &c->sat.e[slot];
    assert(!(sig & ~e->sig));
    if (qs_ids_subset(c->ids, n, e->ids, e->n)) {
      answer_sat(st, rq, ans, e->model);
      return;
    }
  }
  QS_RESERVE(c->rest, c->rest_cap, n);
  QS_RESERVE(c->sorted, c->sorted_cap, n);
  QS_RESERVE(c->missing, c->missing_cap, n);
  memcpy(c->sorted, rq->f, n * sizeof *c->sorted);
  qsort(c->sorted, n, sizeof *c->sorted, cmp_formula_id);
  /* The formulas each candidate model is not known to satisfy, by one merge per entry (a
   * binary search per formula was 15% of memspn's time at capacity 1024). */
  slot = c->sat.head;
  for (size_t k = 0; k < c->sat.count && k < CEX_MAX_EVALS; k++) {
    slot = ring_prev(&c->sat, slot);
    cex_entry *e = &c->sat.e[slot];
    if (e->falsified && has_id(c->ids, n, e->falsified - 1)) continue;
    size_t nrest = qs_ids_missing(c->ids, n, e->ids, e->n, c->missing);
    for (size_t i = 0; i < nrest; i++) c->rest[i] = c->sorted[c->missing[i]];
    if (satisfies_all(e, c->rest, nrest)) {
      answer_sat(st, rq, ans, e->model);
      return;
    }
  }
  qs_req sub = *rq;
  sub.want_model = true;
  qs_forward(st, &sub, ans);
  /* c->ids is still this request's: no stage below shares this stage's buffer. */
  if (ans->status == QS_UNSAT) {
    ring_push(&c->unsat, c->ids, n, sig, NULL);
  } else if (ans->status == QS_SAT && ans->model) {
    ring_push(&c->sat, c->ids, n, sig, expr_assignment_copy(ans->model));
    if (!rq->want_model) {
      expr_assignment_free(ans->model);
      ans->model = NULL;
    }
  }
}

static void cex_destroy(qs_stage *st) {
  cex_stage *c = (cex_stage *)st;
  ring_free(&c->unsat);
  ring_free(&c->sat);
  free(c->ids);
  free(c->rest);
  free(c->sorted);
  free(c->missing);
  free(c);
}

static const qs_stage_ops cex_ops = {"cex_cache", cex_solve, cex_destroy};

qs_stage *qs_cex_stage_new(qsolver *s) {
  cex_stage *c = xcalloc(1, sizeof *c);
  c->base.ops = &cex_ops;
  ring_init(&c->unsat, CEX_UNSAT_CAP, false);
  ring_init(&c->sat, CEX_SAT_CAP, true);
  return &c->base;
}
