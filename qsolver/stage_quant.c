/*
 * stage_quant.c — the quantified stage: the paper's procedure (quant.h) run in front of Z3.
 *
 * A request without a forall is forwarded untouched. One with a forall goes through
 *   slice                        (foralls over constant ranges: their expansion; foralls
 *                                 all in the path condition: the forall's last model, the
 *                                 question's group; quant_slice.c)
 *   strip → duplicate → repair   (when every forall is a top-level clause)
 *   fallback: expand and/or Z3   (qs_options.fallback)
 * and each answer is counted under the step that gave it (qsolver->quant). Every
 * quantifier-free query a step builds is forwarded to Z3 as a request of its own.
 *
 * What makes an answer final: strip's unsat (the stripped query is implied by the query);
 * a model that satisfies the whole query under evaluation (each forall expanded over the
 * model's range); the expansion's answer, which is equivalent to the query once the range
 * of every forall is proved bounded by the query's quantifier-free conjuncts; Z3's own answer
 * on the quantified query. Anything else — a timeout, unknown, an expansion too large —
 * leaves the query unknown, with the reason.
 *
 * --validate-qsolver: every answer not from the expansion, and every answer the validity and
 * counterexample caches and the relaxed stage give to a request holding a forall
 * (qs_quant_recheck), is
 * re-solved by Z3 on the expansion (or, when no bounded expansion exists, on the quantified
 * query); a sat/unsat contradiction is counted in `disagreements` and printed, a re-check
 * that comes back unknown in `recheck_unknown` and reported. Models the procedure did not
 * check itself (the Z3 fallback's, the caches') are evaluated on the expansion (else the
 * query); one that fails is counted in `models_unconfirmed` and reported.
 */
#include "qsolver/quant.h"
#include "engine/core/xalloc.h"
#include "qsolver/stage.h"

#include <assert.h>
#include <inttypes.h>
#include <string.h>

/* Instances the expansion may have in all (sum of the forall ranges). */
#define EXPAND_MAX ((uint64_t)4096)
/* Stripped formulas kept alive (see `kept`) before all are let go and collecting starts
 * over. */
#define KEPT_MAX ((size_t)4096)

/* Foralls whose last strip's cost is remembered; the cost past which the slice step runs
 * first for a forall's requests even when it is off (dear_strip). */
#define DEAR_FORALLS 16
#define STRIP_DEAR_EFFORT ((uint64_t)100000)
#define SLICE_TRIALS 8

typedef struct quant_stage {
  qs_stage base;
  char reason[240];
  qs_slice *slice; /* the slice step's state: the foralls' last models */
  /* The stripped queries' formulas, one reference each. A clause's instances are built
   * anew by every strip; were they freed in between, each strip would make them under new
   * ids (ids are never reused), and Z3's incremental lane, which keeps the prefix of equal
   * ids asserted, would re-assert (re-blast) every instance at every query of a merged
   * state: 72% of libpng text's instructions under pat. Kept, the expressions intern to
   * the same nodes, and one state's queries share their instances as they share its path
   * condition (qs_quant_strip places them in the path's order). */
  qs_idmap kept_ids;
  expr **kept;
  size_t nkept, kept_cap;
  /* Scan equalities asked (scan_equal): per pair of scans and the path prefix they were
   * asked on, whether it was proved. `keys` holds each one's key words (the prefix's formula
   * ids, then the two foralls' ids), `lemma_at` maps a key's hash to its entry + 1. */
  struct scan_lemma {
    size_t key, nkey; /* in keys */
    uint8_t state;    /* LEMMA_PROVED, LEMMA_NOT, LEMMA_ASKING */
  } * lemmas;
  size_t nlemmas, lemmas_cap;
  uint64_t *keys;
  size_t nkeys, keys_cap;
  qs_idmap lemma_at;
  unsigned depth; /* quant_solve's nesting: a scan equality is proved by a request of its own */
  /* What the last strip of a request whose first forall is dear_key[k] − 1 cost (Z3's
   * effort, deterministic): a ring, the oldest evicted (see dear_strip). */
  uint64_t dear_key[DEAR_FORALLS], dear_effort[DEAR_FORALLS];
  size_t dear_next;
  /* The slice step's record over the run where dear_strip put it first: requests tried,
   * answered, and Z3's effort spent on them. */
  uint64_t slice_tried, slice_answered, slice_effort;
} quant_stage;

enum { LEMMA_PROVED = 1, LEMMA_NOT, LEMMA_ASKING };
/* Scan equalities remembered before all are let go; pairs tried per request. */
#define LEMMAS_MAX ((size_t)4096)
#define SCAN_PAIRS_MAX 8

/* Takes a reference to f[0..n) until KEPT_MAX formulas are kept (then all are let go). */
static void keep_stripped(quant_stage *qs, expr *const *f, size_t n) {
  if (qs->nkept + n > KEPT_MAX) {
    qs_formulas_free(qs->kept, qs->nkept);
    qs->kept = NULL;
    qs->nkept = qs->kept_cap = 0;
    qs_idmap_free(&qs->kept_ids);
  }
  for (size_t i = 0; i < n; i++) {
    uint64_t v;
    if (qs_idmap_get(&qs->kept_ids, f[i]->id, &v)) continue;
    qs_idmap_put(&qs->kept_ids, f[i]->id, 1);
    QS_RESERVE(qs->kept, qs->kept_cap, qs->nkept + 1);
    qs->kept[qs->nkept++] = expr_ref(f[i]);
  }
}

static qs_quant_stats *stats_of(quant_stage *qs) { return &qs->base.solver->quant; }

/* What a step of the procedure spends, its Z3 calls included: seconds, and Z3's effort (their
 * deterministic twin). meter_start before the step, meter_add after it. */
typedef struct step_meter {
  double t0;
  uint64_t e0;
} step_meter;

static step_meter meter_start(const quant_stage *qs) {
  return (step_meter){qs_now(), qs_effort(qs->base.solver)};
}

static void meter_add(quant_stage *qs, qs_qstep step, step_meter m) {
  qs_quant_stats *stats = stats_of(qs);
  stats->seconds[step] += qs_now() - m.t0;
  stats->effort[step] += qs_effort(qs->base.solver) - m.e0;
}

/* Forwards a quantifier-free (or, for Z3, any) conjunction as a request of its own. */
static void solve_formulas(quant_stage *qs, expr *const *f, size_t n, bool want_model,
                           const qs_req *orig, qs_ans *ans) {
  qs_req rq = {.f = f,
               .n = n,
               .assumed = 0,
               .want_model = want_model,
               .arrays = orig->arrays,
               .narrays = orig->narrays,
               .lane = orig->lane};
  qs_forward(&qs->base, &rq, ans);
}

static const char *status_name(qs_status s) {
  return s == QS_SAT ? "sat" : s == QS_UNSAT ? "unsat" : "unknown";
}

/* ---- the procedure ------------------------------------------------------------------------- */

static bool not_witness(const expr_array *a, void *q) { return !qs_quant_is_witness(q, a); }

/* Accepts model m (owned) as the answer if it satisfies the whole query; the answer does
 * not bind the procedure's own witnesses. */
static bool accept_model(const qs_quant *q, const qs_req *rq, expr_assignment *m, qs_ans *ans) {
  if (!m || !qs_quant_holds(q, m)) {
    expr_assignment_free(m);
    return false;
  }
  ans->status = QS_SAT;
  if (rq->want_model) ans->model = qs_model_filter(m, not_witness, (void *)q);
  expr_assignment_free(m);
  return true;
}

/* Strip, duplicate, repair. Returns the step that answered, or QS_QSTEP_COUNT. */
static qs_qstep procedure(quant_stage *qs, const qs_quant *q, const qs_req *rq, qs_ans *ans) {
  step_meter meter = meter_start(qs);
  expr **stripped = NULL;
  size_t nstripped = qs_quant_strip(q, &stripped), nqf;
  qs_quant_qf(q, &nqf);
  assert(nstripped >= nqf); /* every conjunct, then the instances */
  stats_of(qs)->strip_conjuncts += nqf;
  stats_of(qs)->strip_instances += nstripped - nqf;
  stats_of(qs)->strip_folded += qs_quant_folded(q);
  keep_stripped(qs, stripped, nstripped);
  /* Quantifier-free: encoded as the engine's own queries are (arrays blasted, a large one
   * read at a symbolic index in the array theory). Keeping every array of a stripped query
   * that reads at a symbolic index in the array theory, as once measured to pay on chained
   * memspn's second loop (which the relaxed stage now answers: its instructions did not
   * move), made it 4-15x slower on real code (json-c string_get_double: 60 ms against 4 ms
   * a strip; eval/README.md). */
  qs_req srq = {.f = stripped,
                .n = nstripped,
                .want_model = true,
                .arrays = rq->arrays,
                .narrays = rq->narrays,
                .lane = rq->lane};
  qs_ans sa;
  qs_forward(&qs->base, &srq, &sa);
  qs_qstep answered = QS_QSTEP_COUNT;
  expr_assignment *m = NULL, *dup = NULL;
  if (sa.status == QS_UNSAT) {
    ans->status = QS_UNSAT;
    answered = QS_QSTEP_STRIP;
  } else if (sa.status == QS_SAT) {
    m = sa.model;
    sa.model = NULL;
    if (accept_model(q, rq, expr_assignment_copy(m), ans)) answered = QS_QSTEP_STRIP;
  }
  qs_ans_clear(&sa);
  meter_add(qs, QS_QSTEP_STRIP, meter);
  if (answered != QS_QSTEP_COUNT || !m) goto done;

  meter = meter_start(qs);
  dup = qs_quant_duplicate(q, m, NULL);
  if (accept_model(q, rq, expr_assignment_copy(dup), ans)) answered = QS_QSTEP_DUPLICATE;
  meter_add(qs, QS_QSTEP_DUPLICATE, meter);
  if (answered != QS_QSTEP_COUNT) goto done;

  meter = meter_start(qs);
  qs_cells *conflicts = qs_cells_new();
  expr **repair = NULL;
  size_t nrepair = qs_quant_repair_query(q, dup, stripped, nstripped, &repair, conflicts);
  qs_ans ra;
  solve_formulas(qs, repair, nrepair, true, rq, &ra);
  if (ra.status == QS_SAT) {
    /* The repaired model as it is, then duplicated around the cells it constrains. */
    if (accept_model(q, rq, expr_assignment_copy(ra.model), ans) ||
        accept_model(q, rq, qs_quant_duplicate(q, ra.model, conflicts), ans))
      answered = QS_QSTEP_REPAIR;
  }
  qs_ans_clear(&ra);
  qs_formulas_free(repair, nrepair);
  qs_cells_free(conflicts);
  meter_add(qs, QS_QSTEP_REPAIR, meter);

done:
  expr_assignment_free(m);
  expr_assignment_free(dup);
  qs_formulas_free(stripped, nstripped);
  return answered;
}

/* ---- a strip that costs ---------------------------------------------------------------------- */

static size_t dear_slot(const quant_stage *qs, const qs_quant *q) {
  uint64_t key = qs_quant_forall_at(q, 0)->id + 1;
  for (size_t k = 0; k < DEAR_FORALLS; k++)
    if (qs->dear_key[k] == key) return k;
  return DEAR_FORALLS;
}

/* Was the last strip of a request on q's first forall (the merged state's, shared with its
 * siblings) dearer than STRIP_DEAR_EFFORT? Then the slice step goes first: on json-c
 * string_serialize (capacity 4, pat-inc) a strip cost Z3 ~400,000 (the merged state's whole
 * path condition and 33 instances) where the question's group cost ~46,000, while on libpng
 * text a strip costs ~11,000 and the slice step's groups, asked without the lane's prefix,
 * cost more than they save (+60% effort at capacity 12 with the step always on;
 * eval/real/RESULTS.md, "The slice step where strip is dear"). A slice answer leaves the
 * remembered cost as it was, so the step stays first until a strip it fell through to is
 * cheap again. After SLICE_TRIALS tries over the run it goes first only while its answers,
 * each counted at the cost of the strip in front of it, outweigh what all its tries cost
 * (libpng splt at capacity 12: +19% effort without that limit, 21 answers for 3.8 M); once
 * they do not, only a dearer strip brings it back. Effort is deterministic, so is the
 * choice. */
static bool dear_strip(const quant_stage *qs, const qs_quant *q) {
  size_t k = dear_slot(qs, q);
  if (k == DEAR_FORALLS || qs->dear_effort[k] <= STRIP_DEAR_EFFORT) return false;
  if (qs->slice_tried < SLICE_TRIALS) return true;
  /* the strips its answers saved, at this one's cost, against what all its tries cost */
  return (u128)qs->slice_answered * qs->dear_effort[k] > qs->slice_effort;
}

static void strip_cost(quant_stage *qs, const qs_quant *q, uint64_t effort) {
  size_t k = dear_slot(qs, q);
  if (k == DEAR_FORALLS) {
    k = qs->dear_next;
    qs->dear_next = (qs->dear_next + 1) % DEAR_FORALLS;
    qs->dear_key[k] = qs_quant_forall_at(q, 0)->id + 1;
  }
  qs->dear_effort[k] = effort;
}

/* ---- the expansion ------------------------------------------------------------------------- */

/* Is hi ≤ bound in every model of the quantifier-free conjuncts? QS_UNKNOWN on a timeout. */
static qs_status bounded_by(quant_stage *qs, const qs_quant *q, const qs_req *rq, expr *hi,
                            uint64_t bound) {
  size_t nqf;
  expr *const *qf = qs_quant_qf(q, &nqf);
  expr **f = qs_xrealloc(NULL, (nqf + 1) * sizeof *f);
  memcpy(f, qf, nqf * sizeof *f);
  expr *b = expr_const(hi->width, bound);
  f[nqf] = expr_ugt(hi, b);
  qs_ans a;
  solve_formulas(qs, f, nqf + 1, false, rq, &a);
  qs_status st = a.status;
  qs_ans_clear(&a);
  expr_unref(f[nqf]);
  expr_unref(b);
  free(f);
  return st == QS_UNSAT ? QS_SAT : st == QS_SAT ? QS_UNSAT : QS_UNKNOWN;
}

/* The least proved upper bound of hi within [low, low + budget), by the syntactic candidates
 * first and a binary search otherwise. False when none exists or the solver gave up. */
static bool upper_bound(quant_stage *qs, const qs_quant *q, const qs_req *rq, expr *hi,
                        uint64_t low, uint64_t budget, uint64_t *out) {
  uint64_t cand[8];
  size_t nc = qs_quant_upper_candidates(q, hi, cand, 8);
  bool found = false;
  for (size_t i = 0; i < nc; i++)
    if (cand[i] >= low && cand[i] - low < budget && (!found || cand[i] < *out) &&
        bounded_by(qs, q, rq, hi, cand[i]) == QS_SAT) {
      *out = cand[i];
      found = true;
    }
  if (found) return true;
  if (hi->kind == EXPR_CONST) {
    *out = (uint64_t)hi->u.value;
    return *out >= low ? *out - low < budget : (*out = low, true);
  }
  uint64_t top = low + budget - 1;
  if (top < low || bounded_by(qs, q, rq, hi, top) != QS_SAT) return false;
  /* hi ≤ top is proved; find the least proved bound in [low, top]. (A bound below low
   * means an empty range; low itself is then as good as any.) */
  uint64_t a = low, b = top;
  while (a < b) {
    uint64_t mid = a + (b - a) / 2;
    qs_status st = bounded_by(qs, q, rq, hi, mid);
    if (st == QS_UNKNOWN) break; /* keep the bound proved so far */
    if (st == QS_SAT) b = mid;
    else
      a = mid + 1;
  }
  *out = b;
  return true;
}

/* The expanded query (count returned, *out new), or 0 with the reason when no bounded
 * expansion of at most EXPAND_MAX instances is proved. */
static size_t expansion(quant_stage *qs, const qs_quant *q, const qs_req *rq, expr ***out,
                        const char **why) {
  size_t nfa = qs_quant_forall_count(q);
  uint64_t *low = qs_xrealloc(NULL, nfa * sizeof *low),
           *high = qs_xrealloc(NULL, nfa * sizeof *high);
  uint64_t used = 0;
  size_t n = 0;
  *why = "";
  for (size_t k = 0; k < nfa; k++) {
    expr *fa = qs_quant_forall_at(q, k), *lo = fa->kid[1], *hi = fa->kid[2];
    low[k] = lo->kind == EXPR_CONST ? (uint64_t)lo->u.value : 0;
    if (!upper_bound(qs, q, rq, hi, low[k], EXPAND_MAX - used, &high[k])) {
      *why = "no bounded expansion within 4096 instances";
      goto out;
    }
    used += high[k] >= low[k] ? high[k] - low[k] + 1 : 0;
  }
  n = qs_quant_expand(q, low, high, out);
out:
  free(low);
  free(high);
  return n;
}

/* ---- scan equalities ------------------------------------------------------------------------ */

static void quant_solve(qs_stage *st, const qs_req *rq, qs_ans *ans);

/* Does the query's prefix rq->f[0..p->pos] imply p->a = p->b? Asked once per pair and prefix
 * (a state's path only grows, so its later questions find the answer), as a request of its
 * own — ¬(a = b) under the prefix — through this stage: only its unsat counts. */
static bool scan_equal(quant_stage *qs, const qs_req *rq, const qs_scan_pair *p) {
  size_t nkey = p->pos + 3;
  QS_RESERVE(qs->keys, qs->keys_cap, qs->nkeys + nkey);
  uint64_t *key = qs->keys + qs->nkeys;
  for (size_t i = 0; i <= p->pos; i++) key[i] = rq->f[i]->id;
  key[p->pos + 1] = p->first->id;
  key[p->pos + 2] = p->second->id;
  uint64_t h = qs_ids_hash(key, nkey), at;
  if (qs_idmap_get(&qs->lemma_at, h, &at)) {
    const struct scan_lemma *l = &qs->lemmas[at - 1];
    if (l->nkey == nkey && !memcmp(qs->keys + l->key, key, nkey * sizeof *key))
      return l->state == LEMMA_PROVED;
    return false; /* another key's hash: not asked (rare; never a wrong lemma) */
  }
  size_t index = qs->nlemmas;
  QS_RESERVE(qs->lemmas, qs->lemmas_cap, qs->nlemmas + 1);
  qs->lemmas[qs->nlemmas++] = (struct scan_lemma){qs->nkeys, nkey, LEMMA_ASKING};
  qs->nkeys += nkey;
  qs_idmap_put(&qs->lemma_at, h, index + 1);
  expr **f = xmalloc((p->pos + 2) * sizeof *f);
  memcpy(f, rq->f, (p->pos + 1) * sizeof *f);
  expr *eq = expr_eq(p->a, p->b);
  f[p->pos + 1] = expr_not(eq);
  expr_unref(eq);
  qs_req sub = {.f = f,
                .n = p->pos + 2,
                .assumed = 0,
                .want_model = false,
                .arrays = rq->arrays,
                .narrays = rq->narrays,
                .lane = rq->lane};
  qs_ans a;
  qs_ans_init(&a);
  quant_solve(&qs->base, &sub, &a);
  bool proved = a.status == QS_UNSAT;
  qs_ans_clear(&a);
  expr_unref(f[p->pos + 1]);
  free(f);
  qs->lemmas[index].state = proved ? LEMMA_PROVED : LEMMA_NOT;
  if (proved) stats_of(qs)->scan_lemmas++;
  return proved;
}

/* rq with each proved scan equality a = b placed after the last formula it rests on (*out
 * new, its lemmas owned: scan_lemmas_free), or false when there is none. The request is
 * equivalent to rq (each lemma is implied by the formulas before it). */
static bool with_scan_lemmas(quant_stage *qs, const qs_quant *q, const qs_req *rq, qs_req *out,
                             expr **owned, size_t *nowned) {
  if (qs->depth == 1 && qs->nlemmas >= LEMMAS_MAX) { /* only outside any proof in progress */
    qs->nlemmas = qs->nkeys = 0;
    qs_idmap_free(&qs->lemma_at);
    qs->lemma_at = (qs_idmap){0};
  }
  qs_scan_pair pairs[SCAN_PAIRS_MAX];
  size_t np = qs_quant_scan_pairs(q, pairs, SCAN_PAIRS_MAX), nproved = 0;
  bool proved[SCAN_PAIRS_MAX];
  for (size_t i = 0; i < np; i++) nproved += proved[i] = scan_equal(qs, rq, &pairs[i]);
  if (!nproved) return false;
  expr **f = xmalloc((rq->n + nproved) * sizeof *f);
  size_t n = 0;
  for (size_t i = 0; i < rq->n; i++) {
    f[n++] = rq->f[i];
    for (size_t k = 0; k < np; k++)
      if (proved[k] && pairs[k].pos == i)
        f[n++] = owned[(*nowned)++] = expr_eq(pairs[k].a, pairs[k].b);
  }
  *out = *rq;
  out->f = f;
  out->n = n;
  out->assumed = 0;
  return true;
}

static void scan_lemmas_free(const qs_req *with, expr **owned, size_t nowned) {
  for (size_t i = 0; i < nowned; i++) expr_unref(owned[i]);
  free((void *)with->f);
}

/* ---- the stage ----------------------------------------------------------------------------- */

static void set_unknown(quant_stage *qs, qs_ans *ans, const char *what, const char *detail) {
  qs_ans_clear(ans);
  snprintf(qs->reason, sizeof qs->reason, "quantified: %s%s%s", what, *detail ? ": " : "", detail);
  ans->status = QS_UNKNOWN;
  ans->reason = qs->reason;
}

/* The expansion fallback; true when it answered. */
static bool fallback_expand(quant_stage *qs, const qs_quant *q, const qs_req *rq, qs_ans *ans,
                            char *why, size_t why_size) {
  expr **ex = NULL;
  const char *reason;
  size_t n = expansion(qs, q, rq, &ex, &reason);
  if (!n) {
    snprintf(why, why_size, "%s", reason);
    return false;
  }
  qs_ans ea;
  solve_formulas(qs, ex, n, rq->want_model, rq, &ea);
  qs_formulas_free(ex, n);
  bool ok = ea.status == QS_UNSAT || (ea.status == QS_SAT && !rq->want_model);
  if (ea.status == QS_SAT && rq->want_model) {
    ok = accept_model(q, rq, ea.model, ans);
    ea.model = NULL;
    if (!ok) snprintf(why, why_size, "the expansion's model fails the query");
  } else if (ea.status == QS_UNKNOWN) {
    snprintf(why, why_size, "expansion: %s", ea.reason);
  }
  if (ok) ans->status = ea.status;
  qs_ans_clear(&ea);
  return ok;
}

/* Z3 on the query itself: its answer is taken as it is, model included (as the chain did
 * before this stage existed). Its model cannot always be checked by evaluation: a forall
 * over a range far past the arrays' capacity (hi = K − 1 with K = 0) is true in Z3's model
 * (a constant array) but not on the capacity bytes the model keeps. */
static bool fallback_z3(quant_stage *qs, const qs_req *rq, qs_ans *ans, char *why,
                        size_t why_size) {
  qs_forward(&qs->base, rq, ans);
  if (ans->status != QS_UNKNOWN) return true;
  snprintf(why, why_size, "z3: %s", ans->reason);
  qs_ans_clear(ans);
  return false;
}

/* --validate-qsolver: Z3 on the expansion (else on the query) must not contradict `answer`,
 * which `source` gave; `model` (a model the procedure did not check itself, or NULL) must
 * satisfy the expansion (else the query) under evaluation. A re-check that comes back
 * unknown confirms nothing: it is counted and reported. */
static void recheck(quant_stage *qs, const qs_quant *q, const qs_req *rq, const char *source,
                    qs_status answer, const expr_assignment *model) {
  qs_quant_stats *stats = stats_of(qs);
  uint64_t effort0 = qs_effort(qs->base.solver); /* left out of qs_effort_split */
  expr **ex = NULL;
  const char *why;
  size_t n = expansion(qs, q, rq, &ex, &why);
  const char *what = n ? "expanded" : "quantified";
  qs_ans va;
  if (n) solve_formulas(qs, ex, n, false, rq, &va);
  else
    solve_formulas(qs, rq->f, rq->n, false, rq, &va);
  stats->rechecked++;
  if (va.status == QS_UNKNOWN) {
    stats->recheck_unknown++;
    fprintf(stderr,
            "symq: warning: qsolver re-check unknown: %s answered %s, z3 on the %s query: %s\n",
            source, status_name(answer), what, va.reason && *va.reason ? va.reason : "unknown");
  } else if (va.status != answer) {
    stats->disagreements++;
    fprintf(stderr, "symq: error: qsolver disagreement: %s answered %s, z3 on the %s query %s\n",
            source, status_name(answer), what, status_name(va.status));
  }
  if (model && !(n ? qs_model_satisfies(ex, n, model) : qs_quant_holds(q, model))) {
    stats->models_unconfirmed++;
    fprintf(stderr,
            "symq: warning: qsolver re-check: %s's model fails the %s query under "
            "evaluation\n",
            source, what);
  }
  qs_formulas_free(ex, n);
  qs_ans_clear(&va);
  qs->base.solver->unmeasured_effort += qs_effort(qs->base.solver) - effort0;
}

/* The answer of step `step`, re-checked (the expansion's is Z3's on the expansion already). */
static void validate(quant_stage *qs, const qs_quant *q, const qs_req *rq, qs_qstep step,
                     const qs_ans *ans) {
  if (step == QS_QSTEP_FALLBACK_EXPAND) return;
  /* the procedure's models satisfy the whole query (accept_model); Z3's are taken as given */
  recheck(qs, q, rq, qs_qstep_name(step), ans->status,
          step == QS_QSTEP_FALLBACK_Z3 ? ans->model : NULL);
}

static bool holds_forall(const qs_req *rq) {
  for (size_t i = 0; i < rq->n; i++)
    if (rq->f[i]->has_forall) return true;
  return false;
}

static const qs_stage_ops quant_ops;

bool qs_quant_recheck(qsolver *s, const qs_req *rq, const qs_ans *ans, const char *source,
                      bool from_cache) {
  if (!s->opt.validate_quantified || ans->status == QS_UNKNOWN || !holds_forall(rq)) return false;
  quant_stage *qs = NULL;
  for (size_t i = 0; i < s->nstages && !qs; i++)
    if (s->stages[i]->ops == &quant_ops) qs = (quant_stage *)s->stages[i];
  if (!qs) return false; /* --quantified=off: Z3 alone, nothing to re-check against */
  /* the stage is not running: what its forwarding records belongs to no call of its own */
  unsigned forwarded = qs->base.forwarded;
  double down = qs->base.down_seconds;
  qs_quant *q = qs_quant_new(rq->f, rq->n);
  if (from_cache) s->quant.rechecked_from_cache++;
  recheck(qs, q, rq, source, ans->status, ans->model);
  qs_quant_free(q);
  qs->base.forwarded = forwarded;
  qs->base.down_seconds = down;
  return true;
}

static void quant_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  quant_stage *qs = (quant_stage *)st;
  if (!holds_forall(rq)) {
    qs_forward(st, rq, ans);
    return;
  }
  const qs_options *opt = &st->solver->opt;
  qs_quant_stats *stats = stats_of(qs);
  stats->queries++;
  qs_quant *q = qs_quant_new(rq->f, rq->n);
  const qs_req *asked = rq; /* the request as it came: what validation re-checks */
  qs_req lemmas;
  expr *owned[SCAN_PAIRS_MAX];
  size_t nowned = 0;
  qs->depth++;
  bool has_lemmas = qs_quant_strippable(q) && with_scan_lemmas(qs, q, rq, &lemmas, owned, &nowned);
  qs->depth--;
  if (has_lemmas) {
    qs_quant_free(q);
    q = qs_quant_new(lemmas.f, lemmas.n);
    rq = &lemmas;
  }
  qs_qstep step = QS_QSTEP_COUNT;
  bool dear = !opt->forall_slice && dear_strip(qs, q);
  if (opt->forall_slice || dear) {
    step_meter meter = meter_start(qs);
    if (qs_slice_answer(qs->slice, st, q, rq, ans)) step = QS_QSTEP_SLICE;
    meter_add(qs, QS_QSTEP_SLICE, meter);
    if (dear) {
      stats->slice_dear++;
      qs->slice_tried++;
      qs->slice_answered += step == QS_QSTEP_SLICE;
      qs->slice_effort += qs_effort(st->solver) - meter.e0;
    }
  }
  if (step == QS_QSTEP_COUNT && qs_quant_strippable(q)) {
    uint64_t before = stats->effort[QS_QSTEP_STRIP];
    step = procedure(qs, q, rq, ans);
    strip_cost(qs, q, stats->effort[QS_QSTEP_STRIP] - before);
  }
  char why_expand[200] = "", why_z3[200] = "";
  if (step == QS_QSTEP_COUNT && opt->fallback != QS_FALLBACK_Z3) {
    step_meter meter = meter_start(qs);
    if (fallback_expand(qs, q, rq, ans, why_expand, sizeof why_expand))
      step = QS_QSTEP_FALLBACK_EXPAND;
    meter_add(qs, QS_QSTEP_FALLBACK_EXPAND, meter);
  }
  /* a scan equality's proof (scan_equal) is not worth Z3's quantifier reasoning: unproved,
   * the question is asked without the lemma, as it was before */
  bool proving = qs->depth > 0;
  if (step == QS_QSTEP_COUNT && opt->fallback != QS_FALLBACK_EXPAND && !proving) {
    step_meter meter = meter_start(qs);
    if (fallback_z3(qs, rq, ans, why_z3, sizeof why_z3)) step = QS_QSTEP_FALLBACK_Z3;
    meter_add(qs, QS_QSTEP_FALLBACK_Z3, meter);
  }
  if (step == QS_QSTEP_COUNT) {
    if (!proving) stats->unknown++; /* an unproved lemma is no unknown answer */
    set_unknown(qs, ans, *why_expand ? why_expand : why_z3, *why_expand ? why_z3 : "");
  } else {
    stats->answered[step]++;
    if (opt->validate_quantified) {
      qs_quant *qa = has_lemmas ? qs_quant_new(asked->f, asked->n) : q;
      validate(qs, qa, asked, step, ans);
      if (qa != q) qs_quant_free(qa);
    }
    /* the state's last model, for the slice step of its next request */
    if (step != QS_QSTEP_SLICE && ans->model)
      qs_slice_keep(qs->slice, rq, ans->model);
  }
  qs_quant_free(q);
  if (has_lemmas) scan_lemmas_free(&lemmas, owned, nowned);
  st->solver->forall_decider = st; /* its answer, whatever its sub-queries' stages were */
}

static void quant_destroy(qs_stage *st) {
  quant_stage *qs = (quant_stage *)st;
  qs_slice_free(qs->slice);
  qs_formulas_free(qs->kept, qs->nkept);
  qs_idmap_free(&qs->kept_ids);
  free(qs->lemmas);
  free(qs->keys);
  qs_idmap_free(&qs->lemma_at);
  free(qs);
}

static const qs_stage_ops quant_ops = {"quantified_procedure", quant_solve, quant_destroy};

qs_stage *qs_quant_stage_new(qsolver *s) {
  (void)s;
  quant_stage *qs = xcalloc(1, sizeof *qs);
  qs->base.ops = &quant_ops;
  qs->slice = qs_slice_new();
  return &qs->base;
}
