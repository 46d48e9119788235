/*
 * quant.c — the pieces of the quantified procedure (contract in quant.h): analysing a query
 * into conjuncts and clauses, stripping, duplicating, building the repair query and the
 * expansion. No solving happens here; stage_quant.c drives the solver.
 */
#include "qsolver/quant.h"
#include "engine/core/xalloc.h"

#include "qsolver/stage.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Evaluation of a range longer than this is not attempted (duplicate, repair), and the
 * check of a whole query treats such a forall as not holding (expr_eval_all_true). */
#define QUANT_RANGE_MAX ((uint64_t)1 << 16)
/* Trigger terms instantiated per clause by strip. */
#define QUANT_TRIGGERS_MAX 64
/* Arrays larger than this are not fixed by repair (the fixing would dwarf the query). */
#define QUANT_FIX_BYTES_MAX 4096

typedef struct qclause {
  expr *forall, *bvar, *lo, *hi, *body; /* borrowed */
  size_t pos;                           /* the query's formula it comes from */
  expr **qreads;                        /* reads in body whose index mentions bvar */
  size_t nqreads, qreads_cap;
} qclause;

/* A read in a quantifier-free conjunct: the array and its (closed) index. */
typedef struct plain_read {
  expr_array *array;
  expr *index;
  unsigned nbytes;
  size_t pos; /* the first of the query's formulas that reads it */
} plain_read;

struct qs_quant {
  expr *const *f;
  size_t n;
  expr **qf; /* borrowed conjuncts */
  size_t nqf, qf_cap;
  size_t *qf_pos; /* per conjunct, the query's formula it comes from */
  size_t qf_pos_cap;
  size_t cur_pos; /* while analysing: the formula being split into conjuncts */
  qclause *cl;
  size_t ncl, cl_cap;
  bool nested;
  size_t nfolded; /* clauses replaced by an equality of ranges (fold_rescans) */
  expr **foralls; /* every distinct forall node, borrowed */
  size_t nforalls, foralls_cap;
  expr_array **arrays; /* every array of the query, borrowed */
  size_t narrays, arrays_cap;
  expr_array **qarrays; /* arrays read through a bound variable */
  size_t nqarrays, qarrays_cap;
  plain_read *reads; /* reads of the quantifier-free conjuncts */
  size_t nreads, reads_cap;
  expr **owned; /* conjuncts built here (negations pushed in, existentials' witnesses) */
  size_t nowned, owned_cap;
  expr_array **witnesses; /* the fresh constants standing for existentials' variables */
  size_t nwitnesses, witnesses_cap;
};

/* ---- small helpers ---------------------------------------------------------------------- */

static void push_expr(expr ***v, size_t *n, size_t *cap, expr *e) {
  qs_reserve((void **)v, cap, *n + 1, sizeof **v);
  (*v)[(*n)++] = e;
}

static bool has_array(expr_array *const *v, size_t n, const expr_array *a) {
  for (size_t i = 0; i < n; i++)
    if (v[i] == a) return true;
  return false;
}

void qs_formulas_free(expr **f, size_t n) {
  for (size_t i = 0; i < n; i++) expr_unref(f[i]);
  free(f);
}

/* Visits every node of the DAGs under roots once (update lists' terms included). */
typedef struct walker {
  qs_idmap seen;
  expr **stack;
  size_t n, cap;
} walker;

static void walk_push(walker *w, expr *e) {
  qs_push_unseen(&w->seen, &w->stack, &w->n, &w->cap, e);
}

/* Pops the next node, pushing its kids; NULL when done. */
static expr *walk_next(walker *w) {
  if (!w->n) return NULL;
  expr *e = w->stack[--w->n];
  for (unsigned k = 0; k < e->nkids; k++) walk_push(w, e->kid[k]);
  if (e->kind == EXPR_READ)
    for (expr_update *u = e->u.read.updates; u; u = u->next) {
      walk_push(w, u->index);
      walk_push(w, u->value);
    }
  return e;
}

static void walk_free(walker *w) {
  qs_idmap_free(&w->seen);
  free(w->stack);
}

static bool eval_u64(expr *e, const expr_assignment *m, uint64_t *out) {
  u128 v;
  if (expr_eval(e, m, QUANT_RANGE_MAX, &v) != EXPR_EVAL_OK) return false;
  *out = (uint64_t)v;
  return true;
}

/* e with the clause's bound variable replaced by t (new reference). */
static expr *at_term(const qclause *c, expr *e, expr *t) {
  return expr_substitute(e, &c->bvar, &t, 1);
}

static expr *at_value(const qclause *c, expr *e, uint64_t v) {
  expr *t = expr_const(c->bvar->width, v);
  expr *r = at_term(c, e, t);
  expr_unref(t);
  return r;
}

/* ¬(lo ≤ t ≤ hi) ∨ φ(t): implied by the clause for any term t. */
static expr *instantiate(const qclause *c, expr *t) {
  expr *ge = expr_ule(c->lo, t), *le = expr_ule(t, c->hi);
  expr *in = expr_and(ge, le);
  expr *body = at_term(c, c->body, t);
  expr *r = expr_implies(in, body);
  expr_unref(ge);
  expr_unref(le);
  expr_unref(in);
  expr_unref(body);
  return r;
}

/* The range of a clause under m, when it is non-empty and short enough to walk. */
static bool clause_range(const qclause *c, const expr_assignment *m, uint64_t *lo, uint64_t *hi) {
  return eval_u64(c->lo, m, lo) && eval_u64(c->hi, m, hi) && *lo <= *hi &&
         *hi - *lo < QUANT_RANGE_MAX;
}

/* ---- analysis ----------------------------------------------------------------------------- */

static void add_conjunct(qs_quant *q, expr *e);

/* A conjunct built here: kept alive by the qs_quant, then analysed like any other. */
static void add_owned(qs_quant *q, expr *e) {
  push_expr(&q->owned, &q->nowned, &q->owned_cap, e);
  add_conjunct(q, e);
}

/* A fresh constant of the bound variable's width, over an array of its own that no test
 * shows: the witness of an existential. */
static expr *new_witness(qs_quant *q, const expr *bvar) {
  static uint64_t count; /* names are unique in a run (expr.h); creation order is fixed */
  char name[40];
  snprintf(name, sizeof name, "qs_witness%" PRIu64, count++);
  unsigned nbytes = (bvar->width + 7) / 8;
  expr *size = expr_const(64, nbytes), *zero = expr_const(64, 0);
  expr_array *a = expr_array_new(name, size, nbytes, false, NULL);
  QS_RESERVE(q->witnesses, q->witnesses_cap, q->nwitnesses + 1);
  q->witnesses[q->nwitnesses++] = a;
  expr *rd = expr_read_le(a, NULL, zero, nbytes);
  expr *w = rd->width == bvar->width ? expr_ref(rd) : expr_extract(rd, 0, bvar->width);
  expr_unref(rd);
  expr_unref(zero);
  expr_unref(size);
  return w;
}

/* ¬∀i. lo ≤ i ≤ hi → φ(i) at the top level is ∃i. lo ≤ i ≤ hi ∧ ¬φ(i): it becomes
 * lo ≤ w ≤ hi ∧ ¬φ(w) over a fresh witness w (Skolemization). That is equisatisfiable with
 * the conjunct and implies it, so the stripped query stays implied by the query (for the
 * right w) and its models, checked against the query itself, stay final. Negations of `or`
 * are pushed in first, so the negated clauses of a disjunction are found too. */
static bool add_negated(qs_quant *q, expr *e) {
  if (e->kind == EXPR_OR) {
    add_owned(q, expr_not(e->kid[0]));
    add_owned(q, expr_not(e->kid[1]));
    return true;
  }
  if (e->kind != EXPR_FORALL || e->kid[3]->has_forall) return false;
  expr *w = new_witness(q, e->kid[0]);
  expr *ge = expr_ule(e->kid[1], w), *le = expr_ule(w, e->kid[2]);
  expr *body = expr_substitute(e->kid[3], &e->kid[0], &w, 1);
  add_owned(q, ge);
  add_owned(q, le);
  add_owned(q, expr_not(body));
  expr_unref(body);
  expr_unref(w);
  return true;
}

static void add_conjunct(qs_quant *q, expr *e) {
  if (e->width == 1 && e->kind == EXPR_AND) {
    add_conjunct(q, e->kid[0]);
    add_conjunct(q, e->kid[1]);
    return;
  }
  if (!e->has_forall) {
    QS_RESERVE(q->qf_pos, q->qf_pos_cap, q->nqf + 1);
    q->qf_pos[q->nqf] = q->cur_pos;
    push_expr(&q->qf, &q->nqf, &q->qf_cap, e);
    return;
  }
  if (e->kind == EXPR_NOT && e->width == 1 && add_negated(q, e->kid[0])) return;
  if (e->kind != EXPR_FORALL) {
    q->nested = true;
    return;
  }
  qs_reserve((void **)&q->cl, &q->cl_cap, q->ncl + 1, sizeof *q->cl);
  qclause *c = &q->cl[q->ncl++];
  *c = (qclause){.forall = e,
                 .bvar = e->kid[0],
                 .lo = e->kid[1],
                 .hi = e->kid[2],
                 .body = e->kid[3],
                 .pos = q->cur_pos};
  walker w = {0};
  walk_push(&w, c->body);
  for (expr *x; (x = walk_next(&w));) {
    if (x->kind != EXPR_READ || !x->kid[0]->has_bvar) continue;
    push_expr(&c->qreads, &c->nqreads, &c->qreads_cap, x);
    if (!has_array(q->qarrays, q->nqarrays, x->u.read.array)) {
      QS_RESERVE(q->qarrays, q->qarrays_cap, q->nqarrays + 1);
      q->qarrays[q->nqarrays++] = x->u.read.array;
    }
  }
  walk_free(&w);
}

/* Where a quantifier-free conjunct equal to e (by node: expressions are interned) sits:
 * the query's formula it comes from, or SIZE_MAX when there is none. */
static size_t conjunct_pos(const qs_quant *q, const expr *e) {
  for (size_t i = 0; i < q->nqf; i++)
    if (q->qf[i] == e) return q->qf_pos[i];
  return SIZE_MAX;
}

/* Where the query says the clause's body fails just past its range, ¬φ(hi + 1) (a scan's
 * exit: the byte after the last one the loop passed), or SIZE_MAX. */
static size_t terminator_pos(const qs_quant *q, const qclause *c) {
  expr *one = expr_const(c->hi->width, 1), *next = expr_add(c->hi, one);
  expr *body = at_term(c, c->body, next), *fails = expr_not(body);
  size_t pos = conjunct_pos(q, fails);
  expr_unref(fails);
  expr_unref(body);
  expr_unref(next);
  expr_unref(one);
  return pos;
}

/* Two scans of the same bytes: clauses ∀i. lo ≤ i ≤ a → φ(i) and ∀i. lo ≤ i ≤ b → φ(i)
 * with the same lo ∈ {0, 1} and the same body, each with its terminator ¬φ(a + 1), ¬φ(b + 1)
 * among the conjuncts. Then a = b: were a < b, a + 1 (no wrap, being ≤ b; ≥ lo, as lo ≤ 1
 * and a + 1 ≠ 0) would lie in the second range, where φ holds, against ¬φ(a + 1); b < a
 * likewise. Conversely a = b makes the two clauses one. So the later clause is replaced by
 * the conjunct a = b — an equivalent query, with one clause fewer to instantiate: what a
 * merged state's strlen over the bytes an earlier merged loop already scanned leaves (libpng
 * text: png_set_text_2's strlen(key) after png_handle_tEXt's keyword loop). The query's own
 * formulas are untouched (models are checked against them; the expansion expands every
 * forall), so only strip, duplicate and repair see the fold. */
static void fold_rescans(qs_quant *q) {
  for (size_t k = 1; k < q->ncl; k++) {
    qclause *c2 = &q->cl[k];
    if (!expr_is_const(c2->lo) || c2->lo->u.value > 1 || c2->hi->width != c2->bvar->width) continue;
    size_t t2 = SIZE_MAX;
    for (size_t j = 0; j < k; j++) {
      const qclause *c1 = &q->cl[j];
      if (c1->lo != c2->lo || c1->hi == c2->hi || c1->hi->width != c2->hi->width ||
          c1->bvar->width != c2->bvar->width)
        continue;
      expr *renamed = expr_substitute(c2->body, &c2->bvar, (expr **)&c1->bvar, 1);
      bool same = renamed == c1->body;
      expr_unref(renamed);
      if (!same) continue;
      if (t2 == SIZE_MAX && (t2 = terminator_pos(q, c2)) == SIZE_MAX) break;
      size_t t1 = terminator_pos(q, c1);
      if (t1 == SIZE_MAX) continue;
      size_t pos = c2->pos;
      if (t1 > pos) pos = t1;
      if (t2 > pos) pos = t2;
      expr *eq = expr_eq(c1->hi, c2->hi);
      push_expr(&q->owned, &q->nowned, &q->owned_cap, eq);
      QS_RESERVE(q->qf_pos, q->qf_pos_cap, q->nqf + 1);
      q->qf_pos[q->nqf] = pos;
      push_expr(&q->qf, &q->nqf, &q->qf_cap, eq);
      free(c2->qreads);
      memmove(c2, c2 + 1, (q->ncl - k - 1) * sizeof *c2);
      q->ncl--;
      q->nfolded++;
      k--;
      break;
    }
  }
}

size_t qs_quant_scan_pairs(const qs_quant *q, qs_scan_pair *out, size_t max) {
  size_t n = 0;
  for (size_t k = 1; k < q->ncl && n < max; k++) {
    const qclause *c2 = &q->cl[k];
    if (!expr_is_const(c2->lo) || c2->lo->u.value > 1 || c2->hi->width != c2->bvar->width) continue;
    size_t t2 = terminator_pos(q, c2);
    if (t2 == SIZE_MAX) continue;
    for (size_t j = 0; j < k && n < max; j++) {
      const qclause *c1 = &q->cl[j];
      if (!expr_is_const(c1->lo) || c1->lo->u.value > 1 || c1->hi == c2->hi ||
          c1->hi->width != c2->hi->width || c1->hi->width != c1->bvar->width)
        continue;
      size_t t1 = terminator_pos(q, c1);
      if (t1 == SIZE_MAX) continue;
      size_t pos = c2->pos > c1->pos ? c2->pos : c1->pos;
      if (t1 > pos) pos = t1;
      if (t2 > pos) pos = t2;
      /* the bounds right after (a merge's K ≤ CAP): what bounds the proof's expansion */
      while (pos + 1 < q->n && q->f[pos + 1]->kind == EXPR_ULE &&
             expr_is_const(q->f[pos + 1]->kid[1]) &&
             (q->f[pos + 1]->kid[0] == c1->hi || q->f[pos + 1]->kid[0] == c2->hi))
        pos++;
      out[n++] = (qs_scan_pair){c1->forall, c2->forall, c1->hi, c2->hi, pos};
    }
  }
  return n;
}

qs_quant *qs_quant_new(expr *const *f, size_t n) {
  qs_quant *q = xcalloc(1, sizeof *q);
  q->f = f;
  q->n = n;
  for (size_t i = 0; i < n; i++) {
    q->cur_pos = i;
    add_conjunct(q, f[i]);
    expr_collect_arrays(f[i], &q->arrays, &q->narrays, &q->arrays_cap);
  }
  walker w = {0};
  for (size_t i = 0; i < n; i++)
    if (f[i]->has_forall) walk_push(&w, f[i]);
  for (expr *x; (x = walk_next(&w));)
    if (x->kind == EXPR_FORALL) push_expr(&q->foralls, &q->nforalls, &q->foralls_cap, x);
  walk_free(&w);
  /* The reads of the quantifier-free conjuncts: where triggers come from. One conjunct's
   * walk ends before the next one's starts, so a read belongs to the first that has it. */
  w = (walker){0};
  for (size_t i = 0; i < q->nqf; i++) {
    walk_push(&w, q->qf[i]);
    for (expr *x; (x = walk_next(&w));)
      if (x->kind == EXPR_READ && !x->has_bvar &&
          has_array(q->qarrays, q->nqarrays, x->u.read.array)) {
        QS_RESERVE(q->reads, q->reads_cap, q->nreads + 1);
        q->reads[q->nreads++] =
            (plain_read){x->u.read.array, x->kid[0], x->width / 8u, q->qf_pos[i]};
      }
  }
  walk_free(&w);
  fold_rescans(q);
  return q;
}

void qs_quant_free(qs_quant *q) {
  if (!q) return;
  for (size_t i = 0; i < q->ncl; i++) free(q->cl[i].qreads);
  free(q->cl);
  free(q->qf);
  free(q->qf_pos);
  free(q->foralls);
  free(q->arrays);
  free(q->qarrays);
  free(q->reads);
  qs_formulas_free(q->owned, q->nowned);
  for (size_t i = 0; i < q->nwitnesses; i++) expr_array_unref(q->witnesses[i]);
  free(q->witnesses);
  free(q);
}

bool qs_quant_strippable(const qs_quant *q) { return !q->nested && q->nforalls > 0; }

bool qs_quant_is_witness(const qs_quant *q, const expr_array *a) {
  return has_array(q->witnesses, q->nwitnesses, a);
}

bool qs_quant_holds(const qs_quant *q, const expr_assignment *m) {
  return expr_eval_all_true(q->f, q->n, m);
}

size_t qs_quant_forall_count(const qs_quant *q) { return q->nforalls; }
size_t qs_quant_folded(const qs_quant *q) { return q->nfolded; }
expr *qs_quant_forall_at(const qs_quant *q, size_t k) { return q->foralls[k]; }
expr *const *qs_quant_qf(const qs_quant *q, size_t *n) {
  *n = q->nqf;
  return q->qf;
}

/* ---- strip -------------------------------------------------------------------------------- */

/* t − x, with x cancelled when t adds it (the offset K1 in s[K1 + c] against s[K1 + i − 1]):
 * the trigger then is a constant, which instances share and Z3 sees at once. */
static expr *minus(expr *t, expr *x) {
  if (t == x) return expr_const(t->width, 0);
  if (t->kind == EXPR_ADD && t->kid[0] == x) return expr_ref(t->kid[1]);
  if (t->kind == EXPR_ADD && t->kid[1] == x) return expr_ref(t->kid[0]);
  return expr_sub(t, x);
}

/* The term t with pattern(t) = target, for an index pattern built from the bound variable by
 * adding or subtracting closed terms and changing width; NULL otherwise. Any t is sound
 * (instantiations are guarded), so width changes are inverted loosely. */
static expr *invert_index(expr *pattern, expr *target) {
  expr *t = expr_ref(target);
  while (pattern->kind != EXPR_BVAR) {
    expr *next = NULL, *r = NULL;
    switch (pattern->kind) {
    case EXPR_ADD: /* an offset: a constant, or a closed term (s[K1 + i − 1]) */
      if (!pattern->kid[0]->has_bvar) {
        r = minus(t, pattern->kid[0]);
        next = pattern->kid[1];
      } else if (!pattern->kid[1]->has_bvar) {
        r = minus(t, pattern->kid[1]);
        next = pattern->kid[0];
      }
      break;
    case EXPR_SUB:
      if (!pattern->kid[1]->has_bvar) {
        r = expr_add(t, pattern->kid[1]);
        next = pattern->kid[0];
      } else if (!pattern->kid[0]->has_bvar) {
        r = expr_sub(pattern->kid[0], t);
        next = pattern->kid[1];
      }
      break;
    case EXPR_ZEXT:
    case EXPR_SEXT:
      r = expr_extract(t, 0, pattern->kid[0]->width);
      next = pattern->kid[0];
      break;
    case EXPR_EXTRACT:
      if (pattern->u.extract.lo == 0) {
        r = expr_zext(t, pattern->kid[0]->width);
        next = pattern->kid[0];
      }
      break;
    default: break;
    }
    expr_unref(t);
    if (!next) {
      expr_unref(r);
      return NULL;
    }
    t = r;
    pattern = next;
  }
  return t;
}

/* t = hi + d for a small constant d > 0: the instance's guard holds only if hi + d wraps, and
 * then a model is still checked against the full query. Leaving such instances out keeps the
 * stripped query from growing with every read a later loop makes past the clause's range
 * (chained memspn reads s[K1 + c] for every c); strip's UNSAT stays final because fewer
 * instances only weaken the stripped query. */
static bool past_upper_bound(const qclause *c, const expr *t) {
  if (t->kind != EXPR_ADD) return false;
  const expr *d = t->kid[0] == c->hi ? t->kid[1] : t->kid[1] == c->hi ? t->kid[0] : NULL;
  return d && expr_is_const(d) && d->u.value != 0 && d->u.value < ((u128)1 << (d->width - 1));
}

/* A formula of the stripped query and where it goes: after the query's formula `pos` (the
 * conjuncts of that formula first, then the instances it brings in), in the order made. */
typedef struct placed {
  expr *e;
  size_t pos, seq;
  bool instance;
} placed;

static int placed_cmp(const void *a, const void *b) {
  const placed *x = a, *y = b;
  if (x->pos != y->pos) return x->pos < y->pos ? -1 : 1;
  if (x->instance != y->instance) return x->instance ? 1 : -1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Adds trigger term t (owned; NULL: none) placed after formula pos, unless it is there
 * already (then placed where it came first). */
static void add_term(expr ***terms, size_t **tpos, size_t *n, size_t *cap, expr *t, size_t pos) {
  if (!t) return;
  for (size_t j = 0; j < *n; j++)
    if ((*terms)[j] == t) {
      expr_unref(t);
      if (pos < (*tpos)[j]) (*tpos)[j] = pos;
      return;
    }
  (*tpos)[*n] = pos;
  push_expr(terms, n, cap, t);
}

size_t qs_quant_strip(const qs_quant *q, expr ***out) {
  placed *v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < q->nqf; i++) {
    QS_RESERVE(v, cap, n + 1);
    v[n] = (placed){expr_ref(q->qf[i]), q->qf_pos[i], n, false};
    n++;
  }
  expr **terms = NULL;
  size_t *tpos = NULL;
  size_t nterms = 0, terms_cap = 0, tpos_cap = 0;
  for (size_t k = 0; k < q->ncl; k++) {
    const qclause *c = &q->cl[k];
    nterms = 0;
    QS_RESERVE(tpos, tpos_cap, QUANT_TRIGGERS_MAX);
    tpos[nterms] = c->pos;
    push_expr(&terms, &nterms, &terms_cap, expr_ref(c->lo));
    tpos[nterms] = c->pos;
    push_expr(&terms, &nterms, &terms_cap, expr_ref(c->hi));
    /* Triggers: a read of the same array elsewhere, at the index this clause reads at i;
     * the last formulas' reads first (the question's, when the cap binds). */
    for (size_t r = 0; r < c->nqreads && nterms < QUANT_TRIGGERS_MAX; r++) {
      expr *qr = c->qreads[r];
      for (size_t p = q->nreads; p-- > 0 && nterms < QUANT_TRIGGERS_MAX;) {
        const plain_read *pr = &q->reads[p];
        if (pr->array != qr->u.read.array) continue;
        size_t at_pos = pr->pos > c->pos ? pr->pos : c->pos;
        for (unsigned b = 0; b < pr->nbytes && nterms < QUANT_TRIGGERS_MAX; b++) {
          expr *off = expr_const(64, b), *at = expr_add(pr->index, off);
          add_term(&terms, &tpos, &nterms, &terms_cap, invert_index(qr->kid[0], at), at_pos);
          expr_unref(off);
          expr_unref(at);
        }
      }
    }
    /* … and the indices the clause's reads are written at, where the write contradicts the
     * body (s[n] = 0 under ∀i. s[i] = 'a': the instance at n, ¬(lo ≤ n ≤ hi), is what
     * refutes K > n). Not every write: libpng text's buffer writes gave instances that made
     * its pat run 40-60% costlier (7.5 G -> 10.6-11.9 G instructions) and answered nothing. */
    for (size_t r = 0; r < c->nqreads && nterms < QUANT_TRIGGERS_MAX; r++) {
      expr *qr = c->qreads[r];
      for (expr_update *u = qr->u.read.updates; u && nterms < QUANT_TRIGGERS_MAX; u = u->next)
        for (unsigned b = 0; b < qr->width / 8u && nterms < QUANT_TRIGGERS_MAX; b++) {
          expr *off = expr_const(u->index->width, b), *at = expr_sub(u->index, off);
          expr *t = invert_index(qr->kid[0], at);
          expr_unref(off);
          expr_unref(at);
          if (!t) continue;
          expr *body = at_term(c, c->body, t);
          bool contradicts = expr_is_false(body);
          expr_unref(body);
          if (contradicts) add_term(&terms, &tpos, &nterms, &terms_cap, t, c->pos);
          else
            expr_unref(t);
        }
    }
    for (size_t j = 0; j < nterms; j++) {
      if (past_upper_bound(c, terms[j])) {
        expr_unref(terms[j]);
        continue;
      }
      expr *inst = instantiate(c, terms[j]);
      if (expr_is_true(inst)) {
        expr_unref(inst);
      } else {
        QS_RESERVE(v, cap, n + 1);
        v[n] = (placed){inst, tpos[j], n, true};
        n++;
      }
      expr_unref(terms[j]);
    }
  }
  free(terms);
  free(tpos);
  if (n > 1) qsort(v, n, sizeof *v, placed_cmp); /* v is NULL when n = 0 */
  expr **f = xmalloc((n ? n : 1) * sizeof *f);
  for (size_t i = 0; i < n; i++) f[i] = v[i].e;
  free(v);
  *out = f;
  return n;
}

/* ---- cells --------------------------------------------------------------------------------- */

/* Cells are keyed by array id and byte index; indices past an array's capacity are never
 * bound by a model, so they are never cells. */
struct qs_cells {
  qs_idmap map;
};

static bool cell_key(const expr_array *a, uint64_t index, uint64_t *key) {
  if (index >= a->capacity || index >= ((uint64_t)1 << 40)) return false;
  *key = ((uint64_t)a->id << 40) | index;
  return true;
}

qs_cells *qs_cells_new(void) {
  qs_cells *c = xcalloc(1, sizeof *c);
  return c;
}

void qs_cells_free(qs_cells *c) {
  if (!c) return;
  qs_idmap_free(&c->map);
  free(c);
}

bool qs_cells_has(const qs_cells *c, const expr_array *a, uint64_t index) {
  uint64_t key, dummy;
  return c && cell_key(a, index, &key) && qs_idmap_get(&c->map, key, &dummy);
}

size_t qs_cells_count(const qs_cells *c) { return c ? c->map.count : 0; }

void qs_cells_add(qs_cells *c, const expr_array *a, uint64_t index) {
  uint64_t key;
  if (cell_key(a, index, &key)) qs_idmap_put(&c->map, key, 0);
}

/* Every cell of an array read through a bound variable that a closed formula reads under
 * m: the only cells that select instances and that duplication could overwrite. */
static void cells_of(const qs_quant *q, qs_cells *c, expr *e, const expr_assignment *m) {
  walker w = {0};
  walk_push(&w, e);
  for (expr *x; (x = walk_next(&w));) {
    uint64_t idx;
    if (x->kind == EXPR_READ && !x->has_bvar &&
        has_array(q->qarrays, q->nqarrays, x->u.read.array) && eval_u64(x->kid[0], m, &idx))
      for (unsigned b = 0; b < x->width / 8u; b++) qs_cells_add(c, x->u.read.array, idx + b);
  }
  walk_free(&w);
}

/* ---- duplicate ----------------------------------------------------------------------------- */

/* The bytes of a in m as a writable buffer of its full capacity (bound first if needed). */
static uint8_t *writable_bytes(expr_assignment *m, expr_array *a) {
  const expr_binding *b = expr_assignment_find(m, a);
  if (!b || b->len < a->capacity) {
    uint8_t *buf = xcalloc(a->capacity ? a->capacity : 1, 1);
    if (b) memcpy(buf, b->bytes, b->len);
    expr_assignment_set(m, a, buf, a->capacity);
    free(buf);
    b = expr_assignment_find(m, a);
  }
  return b->bytes;
}

expr_assignment *qs_quant_duplicate(const qs_quant *q, const expr_assignment *m,
                                    const qs_cells *skip) {
  expr_assignment *out = m ? expr_assignment_copy(m) : expr_assignment_new();
  for (size_t k = 0; k < q->ncl; k++) {
    const qclause *c = &q->cl[k];
    uint64_t lo, hi;
    if (!clause_range(c, m, &lo, &hi)) continue;
    for (size_t r = 0; r < c->nqreads; r++) {
      expr *qr = c->qreads[r];
      expr_array *a = qr->u.read.array;
      if (a->init) continue;
      /* The value read at i = lo, as the model (before any copying) has it. */
      expr *first = at_value(c, qr, lo);
      u128 value;
      bool ok = expr_eval(first, m, QUANT_RANGE_MAX, &value) == EXPR_EVAL_OK;
      expr_unref(first);
      if (!ok) continue;
      unsigned nbytes = qr->width / 8u;
      for (uint64_t i = lo + 1; i <= hi && i > lo; i++) {
        expr *index = at_value(c, qr->kid[0], i);
        uint64_t idx;
        ok = eval_u64(index, m, &idx);
        expr_unref(index);
        if (!ok) continue;
        for (unsigned b = 0; b < nbytes; b++) {
          uint64_t cell = idx + b;
          if (cell >= a->capacity || qs_cells_has(skip, a, cell)) continue;
          writable_bytes(out, a)[cell] = (uint8_t)(value >> (8 * b));
        }
      }
    }
  }
  return out;
}

/* ---- repair -------------------------------------------------------------------------------- */

/* Does some read through i of clause c, at i = v, touch a cell of `cells` under m? When
 * `touched` is given, every cell those reads touch is added to it. */
static bool instance_touches(const qclause *c, uint64_t v, const expr_assignment *m,
                             const qs_cells *cells, qs_cells *touched) {
  bool hit = false;
  for (size_t r = 0; r < c->nqreads && (touched || !hit); r++) {
    expr *qr = c->qreads[r];
    expr *index = at_value(c, qr->kid[0], v);
    uint64_t idx;
    bool ok = eval_u64(index, m, &idx);
    expr_unref(index);
    for (unsigned b = 0; ok && b < qr->width / 8u; b++) {
      hit |= qs_cells_has(cells, qr->u.read.array, idx + b);
      if (touched) qs_cells_add(touched, qr->u.read.array, idx + b);
    }
  }
  return hit;
}

/* Constraints fixing the bytes of a to their values in m, 8 bytes at a time. */
static void fix_array(expr ***v, size_t *n, size_t *cap, expr_array *a, const expr_assignment *m) {
  const expr_binding *b = expr_assignment_find(m, a);
  for (uint64_t at = 0; at < a->capacity; at += 8) {
    unsigned nb = a->capacity - at < 8 ? (unsigned)(a->capacity - at) : 8;
    u128 value = 0;
    for (unsigned k = 0; k < nb; k++)
      if (b && at + k < b->len) value |= (u128)b->bytes[at + k] << (8 * k);
    expr *idx = expr_const(64, at);
    expr *rd = expr_read_le(a, NULL, idx, nb);
    expr *val = expr_const(8 * nb, value);
    push_expr(v, n, cap, expr_eq(rd, val));
    expr_unref(idx);
    expr_unref(rd);
    expr_unref(val);
  }
}

size_t qs_quant_repair_query(const qs_quant *q, const expr_assignment *m, expr *const *stripped,
                             size_t nstripped, expr ***out, qs_cells *conflicts) {
  /* Conflicts: the cells read by violated conjuncts and violated instances. */
  for (size_t i = 0; i < q->nqf; i++) {
    u128 v;
    if (expr_eval(q->qf[i], m, QUANT_RANGE_MAX, &v) == EXPR_EVAL_OK && !v)
      cells_of(q, conflicts, q->qf[i], m);
  }
  for (size_t k = 0; k < q->ncl; k++) {
    const qclause *c = &q->cl[k];
    uint64_t lo, hi;
    if (!clause_range(c, m, &lo, &hi)) continue;
    for (uint64_t i = lo; i <= hi && i >= lo; i++) {
      expr *inst = at_value(c, c->body, i);
      u128 v;
      if (expr_eval(inst, m, QUANT_RANGE_MAX, &v) == EXPR_EVAL_OK && !v)
        cells_of(q, conflicts, inst, m);
      expr_unref(inst);
    }
  }
  expr **v = NULL;
  size_t n = 0, cap = 0;
  for (size_t i = 0; i < nstripped; i++) push_expr(&v, &n, &cap, expr_ref(stripped[i]));
  /* The instantiations that constrain a conflict cell. The cells they read are constrained
   * explicitly by the repair query too: they join the set after the selection. */
  qs_cells *added = qs_cells_new();
  for (size_t k = 0; k < q->ncl; k++) {
    const qclause *c = &q->cl[k];
    uint64_t lo, hi;
    if (!clause_range(c, m, &lo, &hi)) continue;
    for (uint64_t i = lo; i <= hi && i >= lo; i++) {
      if (!instance_touches(c, i, m, conflicts, NULL)) continue;
      instance_touches(c, i, m, conflicts, added);
      expr *t = expr_const(c->bvar->width, i);
      expr *inst = instantiate(c, t);
      expr_unref(t);
      if (expr_is_true(inst)) expr_unref(inst);
      else
        push_expr(&v, &n, &cap, inst);
    }
  }
  for (size_t i = 0; i < added->map.cap; i++)
    if (added->map.keys[i]) qs_idmap_put(&conflicts->map, added->map.keys[i] - 1, 0);
  qs_cells_free(added);
  /* Everything not read through a bound variable keeps its value in m. */
  for (size_t i = 0; i < q->narrays; i++) {
    expr_array *a = q->arrays[i];
    if (!a->init && a->capacity <= QUANT_FIX_BYTES_MAX && !has_array(q->qarrays, q->nqarrays, a))
      fix_array(&v, &n, &cap, a, m);
  }
  *out = v;
  return n;
}

/* ---- expansion ----------------------------------------------------------------------------- */

size_t qs_quant_upper_candidates(const qs_quant *q, expr *hi, uint64_t *out, size_t max) {
  size_t n = 0;
  for (size_t i = 0; i < q->nqf && n < max; i++) {
    expr *e = q->qf[i];
    if (e->kind == EXPR_ULE && e->kid[0] == hi && e->kid[1]->kind == EXPR_CONST)
      out[n++] = (uint64_t)e->kid[1]->u.value;
    else if (e->kind == EXPR_ULT && e->kid[0] == hi && e->kid[1]->kind == EXPR_CONST &&
             e->kid[1]->u.value > 0)
      out[n++] = (uint64_t)e->kid[1]->u.value - 1;
    else if (e->kind == EXPR_EQ && e->kid[1] == hi && e->kid[0]->kind == EXPR_CONST)
      out[n++] = (uint64_t)e->kid[0]->u.value;
  }
  return n;
}

size_t qs_quant_expand(const qs_quant *q, const uint64_t *low, const uint64_t *high, expr ***out) {
  expr **to = xcalloc(q->nforalls ? q->nforalls : 1, sizeof *to);
  for (size_t k = 0; k < q->nforalls; k++) {
    expr *fa = q->foralls[k];
    qclause c = {
        .forall = fa, .bvar = fa->kid[0], .lo = fa->kid[1], .hi = fa->kid[2], .body = fa->kid[3]};
    expr *conj = expr_true();
    for (uint64_t i = low[k]; i <= high[k] && i >= low[k]; i++) {
      expr *t = expr_const(c.bvar->width, i);
      expr *inst = instantiate(&c, t);
      expr *next = expr_and(conj, inst);
      expr_unref(t);
      expr_unref(inst);
      expr_unref(conj);
      conj = next;
      if (i == UINT64_MAX) break;
    }
    to[k] = conj;
  }
  expr **v = xmalloc((q->n ? q->n : 1) * sizeof *v);
  for (size_t i = 0; i < q->n; i++)
    v[i] = q->f[i]->has_forall ? expr_substitute(q->f[i], q->foralls, to, q->nforalls)
                               : expr_ref(q->f[i]);
  for (size_t k = 0; k < q->nforalls; k++) expr_unref(to[k]);
  free(to);
  *out = v;
  return q->n;
}
