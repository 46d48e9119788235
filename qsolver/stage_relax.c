/*
 * stage_relax.c — the relaxed stage, in front of the quantified procedure: answers a request
 * holding a forall from its "scalar" part when it can, before the procedure builds a stripped
 * query whose reads at symbolic indices Z3 sees as ite chains over a whole array (chained
 * memspn reads s[K1 + c] for every c of its second loop: 65-way ites at capacity 64).
 *
 * A formula is scalar when it holds no forall and reads arrays only at constant indices
 * (bounds such as K1 + c < n + 1, a merge's K against n). Requests without a forall, or
 * with only scalar formulas, are forwarded untouched. Otherwise, with S the scalar formulas:
 *   1. relax: solve S alone, component by component when it splits (below). S is implied
 *      by the request, so its unsat is final. A model of S that satisfies the whole request
 *      under evaluation is final too.
 *   2. fix: with M the model of S, substitute each read of S by its value in M in every
 *      formula (a read at K1 + c becomes one at a constant index) and add read = value for
 *      each; solve that. It implies the request, so a model of it is one of the request —
 *      still checked by evaluation before it is accepted. Its unsat proves nothing (M was one
 *      choice among many).
 *   3. otherwise the request goes on unchanged.
 * Step 1 answers the must-be-true questions on bounds that dominate chained memspn; step 2
 * the branch questions, whose models the cex cache then reuses. Both solve requests that are
 * forwarded down the chain like any other, each kind in a lane of its own (stage.h): the
 * scalar parts of a loop's questions grow by a bound or two each time, and Z3 keeps their
 * common prefix asserted only if the other requests do not pop it in between (replaying
 * chained memspn's 202 scalar parts with the z3 command: 1.4 s so against 3.5 s one by one).
 * Deterministic: nothing depends on addresses.
 */
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"
#include "qsolver/domain.h"
#include "qsolver/quant.h"

/* Models of the scalar parts solved lately and of the quantified requests answered lately,
 * tried before Z3 on a new scalar part: the scalar part of a loop's next question differs
 * from the last one by a bound or two. */
#define RECENT_MODELS 4

typedef struct relax_stage {
  qs_stage base;
  expr_assignment *recent[RECENT_MODELS]; /* owned; recent[next] is the oldest */
  size_t next;
  qs_idmap scalar; /* formula id → 1 scalar, 2 not (ids are never reused) */
  qs_idmap seen;   /* a walk's visited nodes */
  expr **stack, **s, **reads, **values, **fixed, **conj;
  size_t stack_cap, s_cap, reads_cap, values_cap, fixed_cap, conj_cap;
  /* S's components (solve_components): its formulas' cells, the union-find over S, cell →
   * owning formula, arrays read whole, a component's cells. */
  qs_cell_memo cells;
  qs_idmap owner, whole;
  uint64_t *gcells;
  size_t gcells_cap;
  size_t *parent, parent_cap;
  expr **g;
  size_t g_cap;
  expr_array **garrays;
  size_t garrays_cap;
  uint8_t *bytes;
  size_t bytes_cap;
  qs_domain *domain; /* scalar requests decided by enumeration (domain.h) */
} relax_stage;

#define SCALAR_MEMO_MAX ((size_t)1 << 20)

static void push(expr ***v, size_t *n, size_t *cap, expr *e) {
  qs_reserve((void **)v, cap, *n + 1, sizeof **v);
  (*v)[(*n)++] = e;
}

static bool is_scalar(relax_stage *r, expr *f) {
  uint64_t v;
  if (qs_idmap_get(&r->scalar, f->id, &v)) return v == 1;
  /* No forall, and every read (update lists' terms included) at a constant index. */
  bool scalar =
      !f->has_forall && !qs_reads_at_symbolic_index(&f, 1, &r->seen, &r->stack, &r->stack_cap);
  if (r->scalar.count >= SCALAR_MEMO_MAX) qs_idmap_reset(&r->scalar, 1024);
  qs_idmap_put(&r->scalar, f->id, scalar ? 1 : 2);
  return scalar;
}

/* Appends to S the scalar conjuncts of f: f itself when it is scalar, else those of each
 * side of a conjunction. A bound stuck in a conjunction with a read at a symbolic index
 * (K1 < n ∧ s[K1] ≠ 'a', a loop's exit) is then S's too: without it S let K1 = n where the
 * request cannot, the fixed request was false, and the procedure took the request whole. */
static void scalar_conjuncts(relax_stage *r, expr *f, size_t *ns) {
  size_t n = 0;
  QS_RESERVE(r->conj, r->conj_cap, 1);
  r->conj[n++] = f;
  while (n) {
    expr *e = r->conj[--n];
    if (is_scalar(r, e)) {
      push(&r->s, ns, &r->s_cap, e);
    } else if (e->kind == EXPR_AND && e->width == 1) {
      QS_RESERVE(r->conj, r->conj_cap, n + 2);
      r->conj[n++] = e->kid[1]; /* popped second: the conjuncts keep their order */
      r->conj[n++] = e->kid[0];
    }
  }
}

/* The distinct outermost reads of the scalar formulas: each one is a variable of S. */
static size_t collect_reads(relax_stage *r, size_t ns) {
  qs_idmap_reset(&r->seen, 64);
  size_t n = 0, nreads = 0;
  for (size_t i = 0; i < ns; i++) qs_push_unseen(&r->seen, &r->stack, &n, &r->stack_cap, r->s[i]);
  while (n) {
    expr *e = r->stack[--n];
    if (e->kind == EXPR_READ) {
      push(&r->reads, &nreads, &r->reads_cap, e);
      continue;
    }
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&r->seen, &r->stack, &n, &r->stack_cap, e->kid[k]);
  }
  return nreads;
}

static void release(expr **v, size_t n) {
  for (size_t i = 0; i < n; i++) expr_unref(v[i]);
}

static bool accept(const qs_req *rq, qs_ans *got, qs_ans *ans) {
  if (got->status != QS_SAT || !got->model || !qs_model_satisfies(rq->f, rq->n, got->model))
    return false;
  ans->status = QS_SAT;
  if (rq->want_model) {
    ans->model = got->model;
    got->model = NULL;
  }
  return true;
}

/* Step 2: the request with S's reads fixed to their values in m. True when it answered. */
static bool solve_fixed(relax_stage *r, const qs_req *rq, size_t ns, const expr_assignment *m,
                        qs_ans *ans) {
  size_t nreads = collect_reads(r, ns), nvalues = 0, nfixed = 0;
  for (size_t i = 0; i < nreads; i++) {
    u128 v;
    if (expr_eval(r->reads[i], m, 0, &v) != EXPR_EVAL_OK) {
      release(r->values, nvalues);
      return false;
    }
    push(&r->values, &nvalues, &r->values_cap, expr_const(r->reads[i]->width, v));
  }
  bool contradiction = false;
  for (size_t i = 0; i < rq->n && !contradiction; i++) {
    expr *g = expr_substitute(rq->f[i], r->reads, r->values, nreads);
    contradiction = expr_is_false(g);
    if (expr_is_true(g)) expr_unref(g);
    else
      push(&r->fixed, &nfixed, &r->fixed_cap, g);
  }
  for (size_t i = 0; i < nreads; i++)
    push(&r->fixed, &nfixed, &r->fixed_cap, expr_eq(r->reads[i], r->values[i]));
  bool answered = false;
  if (!contradiction) {
    qs_req fixed = {.f = r->fixed,
                    .n = nfixed,
                    .assumed = 0,
                    .want_model = true,
                    .arrays = rq->arrays,
                    .narrays = rq->narrays,
                    .lane = QS_LANE_FIXED};
    qs_ans fa;
    qs_forward(&r->base, &fixed, &fa);
    answered = accept(rq, &fa, ans);
    qs_ans_clear(&fa);
  }
  release(r->fixed, nfixed);
  release(r->values, nvalues);
  return answered;
}

static void remember(relax_stage *r, const expr_assignment *m) {
  expr_assignment_free(r->recent[r->next]);
  r->recent[r->next] = expr_assignment_copy(m);
  r->next = (r->next + 1) % RECENT_MODELS;
}

/* ---- S by its independent parts --------------------------------------------------------------
 * S holds every scalar formula of the path condition, and a PAT-merged state's forall reads
 * its array whole, so independence (in front of the caches) hands the whole path condition
 * down with every question: S is then mostly formulas that share no byte with the question
 * (a branch on s[33] after a loop over s[0..K), the bounds of n). Its reads are all at
 * constant indices, so its cells are exact, and it splits into components — formulas sharing
 * a cell, transitively, as independence groups them — which share no cell. Each component is
 * answered on its own: by a recent model that satisfies it (the path condition's parts, which
 * the last question's model satisfied), else by enumeration over the ranges its own bounds give
 * its variables (domain.h: a merged state's bounds question on K + c), else by the chain below
 * (a small request: the question's own component). One component's unsat is final (a subset of S).
 * The components' models, each laid over the others on the component's cells, make a model of S,
 * which is checked by evaluation on the whole of S before it is used. */

static const uint64_t *formula_cells(relax_stage *r, expr *f, size_t *count) {
  return qs_cell_memo_get(&r->cells, f, expr_collect_cells, count);
}

static size_t uf_find(size_t *parent, size_t i) {
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/* A cell as the group sees it: a byte of an array some formula of S reads whole is the
 * whole array. */
static uint64_t group_cell(relax_stage *r, uint64_t cell) {
  uint64_t dummy;
  uint32_t a = expr_cell_array(cell);
  return qs_idmap_get(&r->whole, a, &dummy) ? expr_cell(a, EXPR_CELL_WHOLE) : cell;
}

/* Splits S (r->s[0..ns)) into its components: r->parent's roots after the call. */
static void components(relax_stage *r, size_t ns) {
  qs_idmap_reset(&r->whole, 16);
  qs_idmap_reset(&r->owner, 64);
  QS_RESERVE(r->parent, r->parent_cap, ns);
  for (size_t i = 0; i < ns; i++) {
    size_t nc;
    const uint64_t *c = formula_cells(r, r->s[i], &nc);
    for (size_t k = 0; k < nc; k++)
      if (expr_cell_is_whole(c[k])) qs_idmap_put(&r->whole, expr_cell_array(c[k]), 1);
  }
  for (size_t i = 0; i < ns; i++) {
    r->parent[i] = i;
    size_t nc;
    const uint64_t *c = formula_cells(r, r->s[i], &nc);
    for (size_t k = 0; k < nc; k++) {
      uint64_t cell = group_cell(r, c[k]), o;
      if (!qs_idmap_get(&r->owner, cell, &o)) {
        qs_idmap_put(&r->owner, cell, i);
        continue;
      }
      size_t x = uf_find(r->parent, i), y = uf_find(r->parent, (size_t)o);
      if (x != y) r->parent[x < y ? y : x] = x < y ? x : y; /* the root: its first formula */
    }
  }
}

/* The component whose root is `root` (its formulas in S's order) into r->g, its cells into
 * r->gcells (*ncells); *gassumed: how many of its formulas are among S's assumed ones.
 * Returns its size. */
static size_t component(relax_stage *r, size_t ns, size_t assumed, size_t root, size_t *gassumed,
                        size_t *ncells) {
  size_t ng = 0, nc_total = 0;
  *gassumed = 0;
  for (size_t i = root; i < ns; i++) {
    if (uf_find(r->parent, i) != root) continue;
    push(&r->g, &ng, &r->g_cap, r->s[i]);
    if (i < assumed) ++*gassumed;
    size_t nc;
    const uint64_t *c = formula_cells(r, r->s[i], &nc);
    QS_RESERVE(r->gcells, r->gcells_cap, nc_total + nc);
    for (size_t k = 0; k < nc; k++) r->gcells[nc_total++] = group_cell(r, c[k]);
  }
  *ncells = nc_total;
  return ng;
}

/* base (copied) with the cells of the component r->g[0..ng) (r->gcells[0..ncells)) taken
 * from `from`; a new assignment. */
static expr_assignment *overlay_group(relax_stage *r, const expr_assignment *base,
                                      const expr_assignment *from, size_t ng, size_t ncells) {
  expr_assignment *out = base ? expr_assignment_copy(base) : expr_assignment_new();
  size_t na = 0;
  for (size_t i = 0; i < ng; i++) expr_collect_arrays(r->g[i], &r->garrays, &na, &r->garrays_cap);
  for (size_t k = 0; k < na; k++) {
    expr_array *a = r->garrays[k];
    if (a->init) continue; /* its bytes are fixed */
    const expr_binding *to = expr_assignment_find(out, a), *src = expr_assignment_find(from, a);
    QS_RESERVE(r->bytes, r->bytes_cap, a->capacity ? a->capacity : 1);
    memset(r->bytes, 0, a->capacity);
    if (to) memcpy(r->bytes, to->bytes, to->len < a->capacity ? to->len : a->capacity);
    for (size_t c = 0; c < ncells; c++) {
      if (expr_cell_array(r->gcells[c]) != a->id) continue;
      bool whole = expr_cell_is_whole(r->gcells[c]);
      uint64_t lo = whole ? 0 : (uint32_t)r->gcells[c] - 1, hi = whole ? a->capacity : lo + 1;
      for (uint64_t at = lo; at < hi && at < a->capacity; at++)
        r->bytes[at] = src && at < src->len ? src->bytes[at] : 0;
    }
    expr_assignment_set(out, a, r->bytes, a->capacity);
  }
  return out;
}

/* A scalar request: by enumeration when its variables' own bounds make that cheap (a merged
 * state's bounds question on K + c), else by the chain below. */
static void solve_small(relax_stage *r, const qs_req *rq, qs_ans *ans) {
  qs_ans_init(ans);
  ans->status = qs_domain_solve(r->domain, rq->f, rq->n, &ans->model);
  if (ans->status == QS_UNKNOWN) qs_forward(&r->base, rq, ans);
}

/* S solved component by component: true when it answered (unsat, or sat with a model of the
 * whole of S, checked by evaluation). False leaves S to the chain below whole. */
static bool split(relax_stage *r, size_t ns) {
  components(r, ns);
  for (size_t i = 1; i < ns; i++)
    if (uf_find(r->parent, i) != 0) return true;
  return false;
}

/* After split: S's components each answered on its own. */
static bool solve_components(relax_stage *r, const qs_req *relaxed, qs_ans *ans) {
  size_t ns = relaxed->n;
  expr_assignment *m = expr_assignment_new();
  qs_status status = QS_SAT;
  for (size_t root = 0; root < ns && status == QS_SAT; root++) {
    if (r->parent[root] != root) continue;
    size_t gassumed, ncells, ng = component(r, ns, relaxed->assumed, root, &gassumed, &ncells);
    const expr_assignment *from = NULL;
    for (size_t k = 0; k < RECENT_MODELS && !from; k++) {
      const expr_assignment *rm = r->recent[(r->next + RECENT_MODELS - 1 - k) % RECENT_MODELS];
      if (rm && qs_model_satisfies(r->g, ng, rm)) from = rm;
    }
    qs_ans ga;
    qs_ans_init(&ga);
    if (!from) {
      qs_req grq = *relaxed;
      grq.f = r->g;
      grq.n = ng;
      grq.assumed = gassumed;
      grq.lane = QS_LANE_PART;
      solve_small(r, &grq, &ga);
      status = ga.status == QS_SAT && !ga.model ? QS_UNKNOWN : ga.status;
      from = ga.model;
    }
    if (status == QS_SAT) {
      expr_assignment *laid = overlay_group(r, m, from, ng, ncells);
      expr_assignment_free(m);
      m = laid;
    }
    qs_ans_clear(&ga);
  }
  bool answered = status == QS_UNSAT; /* a component of S: a subset of it */
  if (answered) {
    ans->status = QS_UNSAT;
  } else if (status == QS_SAT && qs_model_satisfies(relaxed->f, ns, m)) {
    ans->status = QS_SAT;
    ans->model = m;
    m = NULL;
    answered = true;
  }
  expr_assignment_free(m);
  return answered;
}

/* Step 1's answer: a model of S from the recent ones when one satisfies it, else S's answer
 * component by component, else the chain's on S whole. */
static void solve_scalar(relax_stage *r, const qs_req *relaxed, qs_ans *ans) {
  qs_ans_init(ans);
  /* Split, only the newest model is tried on S whole: the components try them all. */
  bool parts = split(r, relaxed->n);
  for (size_t k = 0; k < (parts ? 1 : RECENT_MODELS); k++) {
    const expr_assignment *m = r->recent[(r->next + RECENT_MODELS - 1 - k) % RECENT_MODELS];
    if (m && qs_model_satisfies(relaxed->f, relaxed->n, m)) {
      ans->status = QS_SAT;
      ans->model = expr_assignment_copy(m);
      return;
    }
  }
  if (!parts || !solve_components(r, relaxed, ans)) {
    qs_ans_clear(ans);
    solve_small(r, relaxed, ans);
  }
  if (ans->status == QS_SAT && ans->model) remember(r, ans->model);
}

/* --validate-qsolver: the quantified stage re-checks the answer with Z3 on the expansion, as
 * it does the caches' (qs_quant_recheck); without that stage (--qsolver-procedure=off) the
 * chain below, Z3 on the request, must not contradict it. A re-check that comes back unknown
 * confirms nothing: it is counted and reported. */
static void validate(relax_stage *r, const qs_req *rq, const qs_ans *ans) {
  if (qs_quant_recheck(r->base.solver, rq, ans, "relaxed", false)) return;
  qs_status answer = ans->status;
  qs_quant_stats *stats = &r->base.solver->quant;
  qs_ans va;
  qs_forward(&r->base, rq, &va);
  stats->rechecked++;
  const char *said = answer == QS_SAT ? "sat" : "unsat";
  if (va.status == QS_UNKNOWN) {
    stats->recheck_unknown++;
    fprintf(stderr,
            "symq: warning: qsolver re-check unknown: relaxed answered %s, the chain below: %s\n",
            said, va.reason && *va.reason ? va.reason : "unknown");
  } else if (va.status != answer) {
    stats->disagreements++;
    fprintf(stderr, "symq: error: qsolver disagreement: relaxed answered %s, the chain below %s\n",
            said, va.status == QS_SAT ? "sat" : "unsat");
  }
  qs_ans_clear(&va);
}

static void relax_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  relax_stage *r = (relax_stage *)st;
  bool quantified = false;
  for (size_t i = 0; i < rq->n && !quantified; i++) quantified = rq->f[i]->has_forall;
  size_t ns = 0, assumed = 0;
  for (size_t i = 0; quantified && i < rq->n; i++) {
    scalar_conjuncts(r, rq->f[i], &ns);
    if (i + 1 == rq->assumed)
      assumed = ns; /* S keeps the request's order: its assumed formulas come first */
  }
  if (!quantified || !ns) {
    qs_forward(st, rq, ans);
    return;
  }
  /* Step 1. */
  qs_req relaxed = {.f = r->s,
                    .n = ns,
                    .assumed = assumed,
                    .want_model = true,
                    .arrays = rq->arrays,
                    .narrays = rq->narrays,
                    .lane = QS_LANE_SCALAR};
  qs_ans ra;
  solve_scalar(r, &relaxed, &ra);
  bool answered = ra.status == QS_UNSAT;
  if (answered) ans->status = QS_UNSAT;
  else if (ra.status == QS_SAT && ra.model)
    answered = accept(rq, &ra, ans) || solve_fixed(r, rq, ns, ra.model, ans);
  qs_ans_clear(&ra);
  st->answered_itself = answered;
  if (!answered) {
    qs_ans_clear(ans);
    qs_forward(st, rq, ans);
  } else if (st->solver->opt.validate_quantified) {
    validate(r, rq, ans);
  }
  /* A model of the whole request is one of its scalar part, and of the next request's
   * assumed scalar formulas, more often than not. */
  if (ans->status == QS_SAT && ans->model) remember(r, ans->model);
}

static void relax_destroy(qs_stage *st) {
  relax_stage *r = (relax_stage *)st;
  for (size_t k = 0; k < RECENT_MODELS; k++) expr_assignment_free(r->recent[k]);
  qs_idmap_free(&r->scalar);
  qs_idmap_free(&r->seen);
  qs_cell_memo_free(&r->cells);
  qs_idmap_free(&r->owner);
  qs_idmap_free(&r->whole);
  free(r->gcells);
  free(r->parent);
  free(r->g);
  free(r->garrays);
  free(r->bytes);
  qs_domain_free(r->domain);
  free(r->stack);
  free(r->s);
  free(r->reads);
  free(r->values);
  free(r->fixed);
  free(r->conj);
  free(r);
}

static const qs_stage_ops relax_ops = {"relaxed", relax_solve, relax_destroy};

qs_stage *qs_relax_stage_new(qsolver *s) {
  (void)s;
  relax_stage *r = xcalloc(1, sizeof *r);
  r->base.ops = &relax_ops;
  r->domain = qs_domain_new();
  return &r->base;
}
