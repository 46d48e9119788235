/*
 * bounds.c — a request's unsigned bounds, and the reads they free from writes (bounds.h).
 */
#include "qsolver/bounds.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdint.h>

/* The request's interval on one term: on[PATH] from the path's bounds (the assumed
 * formulas; all of them when none is assumed), on[ALL] from every bound, and which formulas
 * gave the path interval's ends. */
enum { PATH, ALL };
typedef struct interval {
  u128 lo[2], hi[2];
  size_t lo_f, hi_f; /* SIZE_MAX: the type's own end */
  const expr *x;
  bool excluded;           /* a path formula excludes a point of x (see exclusion) */
  u128 bound_lo, bound_hi; /* the path interval from bounds alone, before exclusions */
} interval;

/* One read-over-write decision a cached rewrite took: was the write at index x (a term)
 * skipped for the read of bytes [first, last]? */
typedef struct decision {
  uint64_t x;
  uint64_t first, last;
  bool skipped;
} decision;

typedef struct rewrite {
  expr *result; /* NULL: the formula itself */
  size_t dec_off, dec_n;
} rewrite;

enum { NOT_BOUND, LOWER, UPPER, EQUAL };

/* A level of the path mode: one path formula as it goes out. */
typedef struct level {
  expr *out;       /* the formula rewritten under the intervals of its prefix (the caller's while
                      its id stands at this level, unless owned) */
  bool owned;      /* out is a rewrite of the bounds' own (a reference) */
  uint32_t term;   /* its bound's or exclusion's term (index into piv), or UINT32_MAX */
  uint8_t kind;    /* as_bound's */
  bool gone;       /* an exclusion ¬(k = x) with k outside x's interval once pushed */
  bool first_excl; /* the first exclusion on its term (whose node the term's bounds join) */
  size_t log_mark; /* nlog before its changes */
} level;

/* One change of the path mode, undone when its level (or question) goes. */
enum { UNDO_INTERVAL, UNDO_NEW_TERM, UNDO_EXCL, UNDO_EMPTY };
typedef struct undo {
  uint8_t what;
  uint32_t term;
  uint64_t key;
  interval old;
} undo;

struct qs_bounds {
  uint64_t stamp; /* ivmap values: stamp << 32 | index into iv (this request's only) */
  qs_idmap ivmap; /* term id → its interval */
  interval *iv;
  size_t niv, iv_cap;
  uint8_t *kind; /* per formula of the request */
  size_t kind_cap;
  qs_idmap memo; /* formula id → index into rw */
  rewrite *rw;
  size_t nrw, rw_cap;
  decision *dec;
  size_t ndec, dec_cap;
  qs_idmap plain; /* term id → plain_term_walk's answer */
  qs_idmap excl;  /* (point << 32 | term id) of each path exclusion → 0 (this request's) */
  qs_idmap seen;  /* walk scratch */
  expr **stack;
  size_t stack_cap;
  expr **from, **to;
  size_t from_cap, to_cap;
  /* Path mode (qs_bounds_path_*): the path's intervals, kept along a prefix with undo. */
  bool path_mode; /* interval_of reads piv (else iv, by stamp) */
  qs_idmap pmap;  /* term id → index into piv */
  interval *piv;
  size_t npiv, piv_cap;
  qs_idmap pexcl; /* exclusion keys of the path → the level that added them */
  level *lev;
  uint64_t *pf; /* the levels' formulas' ids (never reused), for the prefix comparison: the
                   solver keeps no reference to a caller's formula */
  size_t nlev, lev_cap, pf_cap;
  undo *log;
  size_t nlog, log_cap;
  size_t question_mark; /* nlog before the current question's changes */
  size_t empty_levels;  /* levels whose bounds contradict on their own (path mode declines) */
};

/* Past these the memo starts over (deterministically). */
#define MEMO_MAX_REWRITES ((size_t)1 << 18)
#define MEMO_MAX_DECISIONS ((size_t)1 << 20)
#define PLAIN_MAX ((size_t)1 << 16)

qs_bounds *qs_bounds_new(void) { return xcalloc(1, sizeof(qs_bounds)); }

static void memo_clear(qs_bounds *b) {
  for (size_t i = 0; i < b->nrw; i++) expr_unref(b->rw[i].result);
  b->nrw = b->ndec = 0;
  qs_idmap_reset(&b->memo, 0);
}

static void path_pop(qs_bounds *b);

void qs_bounds_free(qs_bounds *b) {
  if (!b) return;
  while (b->nlev) path_pop(b);
  qs_idmap_free(&b->pmap);
  qs_idmap_free(&b->pexcl);
  free(b->piv);
  free(b->lev);
  free(b->pf);
  free(b->log);
  memo_clear(b);
  qs_idmap_free(&b->memo);
  qs_idmap_free(&b->ivmap);
  qs_idmap_free(&b->seen);
  qs_idmap_free(&b->excl);
  qs_idmap_free(&b->plain);
  free(b->iv);
  free(b->kind);
  free(b->rw);
  free(b->dec);
  free(b->stack);
  free(b->from);
  free(b->to);
  free(b);
}

/* f as a bound on a term: the term, the interval f allows, and its kind (NOT_BOUND when f
 * is not a bound). */
static int as_bound(const expr *f, const expr **x, u128 *lo, u128 *hi) {
  bool neg = false;
  if (f->kind == EXPR_NOT) {
    f = f->kid[0];
    neg = true;
  }
  if (f->kind != EXPR_ULT && f->kind != EXPR_ULE && (f->kind != EXPR_EQ || neg)) return NOT_BOUND;
  const expr *a = f->kid[0], *c = f->kid[1];
  bool const_left = a->kind == EXPR_CONST;
  if (const_left == (c->kind == EXPR_CONST)) return NOT_BOUND;
  if (const_left) {
    const expr *t = a;
    a = c;
    c = t;
  }
  /* now a is the term, c the constant; const_left: f was c op a */
  u128 k = c->u.value, max = expr_mask(a->width);
  *x = a;
  *lo = 0;
  *hi = max;
  if (f->kind == EXPR_EQ) {
    *lo = *hi = k;
    return EQUAL;
  }
  /* x > k, x ≥ k, x < k or x ≤ k, after the negation */
  bool strict = f->kind == EXPR_ULT, lower = const_left; /* c < x, c ≤ x: lower bounds */
  if (neg) { /* ¬(c < x) = x ≤ c; ¬(c ≤ x) = x < c; ¬(x < c) = x ≥ c; ¬(x ≤ c) = x > c */
    strict = !strict;
    lower = !lower;
  }
  if (lower) {
    if (strict && k == max) return NOT_BOUND; /* false: the constructors fold it anyway */
    *lo = strict ? k + 1 : k;
    return LOWER;
  }
  if (strict && k == 0) return NOT_BOUND;
  *hi = strict ? k - 1 : k;
  return UPPER;
}

/* Is x a small term that reads through no writes (so that a bound on it is never rewritten,
 * and the intervals rest on formulas kept as they are)? At most 16 nodes are looked at. */
static bool plain_term_walk(const expr *x) {
  const expr *todo[16];
  size_t n = 0, seen = 0;
  todo[n++] = x;
  while (n) {
    const expr *e = todo[--n];
    if (++seen > 16) return false;
    if (e->kind == EXPR_READ && e->u.read.updates) return false;
    for (unsigned k = 0; k < e->nkids; k++) {
      if (n == 16) return false;
      todo[n++] = e->kid[k];
    }
  }
  return true;
}

/* plain_term_walk, remembered by term id (ids are never reused): every request asks it of
 * the same few terms once per formula. */
static bool plain_term(qs_bounds *b, const expr *x) {
  uint64_t v;
  if (qs_idmap_get(&b->plain, x->id, &v)) return v;
  if (b->plain.count > PLAIN_MAX) qs_idmap_reset(&b->plain, 0);
  bool plain = plain_term_walk(x);
  qs_idmap_put(&b->plain, x->id, plain);
  return plain;
}

/* Does f imply x ≠ k for a plain term x and a constant k (returned)? Either f is ¬(k = x),
 * or f is c = s[k] for a byte s[k] whose newest write that may be at k is at index x with a
 * constant value v ≠ c (writes at other constant indices skipped): s[k] = c then needs
 * x ≠ k. The string scan's 'a' = s[i] through s[n] = 0 says n ≠ i this way. */
static bool exclusion(qs_bounds *b, const expr *f, const expr **x, u128 *k) {
  bool neg = f->kind == EXPR_NOT;
  if (neg) f = f->kid[0];
  const expr *a, *c;
  if (!qs_eq_const(f, &a, &c)) return false;
  if (neg) {
    *x = c;
    *k = a->u.value;
    return plain_term(b, c);
  }
  if (c->kind != EXPR_READ || c->width != 8 || c->kid[0]->kind != EXPR_CONST) return false;
  u128 at = c->kid[0]->u.value;
  const expr_update *u = c->u.read.updates;
  while (u && u->index->kind == EXPR_CONST && u->index->u.value != at) u = u->next;
  if (!u || u->index->kind == EXPR_CONST || u->value->kind != EXPR_CONST ||
      u->value->u.value == a->u.value || !plain_term(b, u->index))
    return false;
  *x = u->index;
  *k = at;
  return true;
}

/* The key of "x ≠ k" in b->excl; false when it has none (the exclusion is not used). */
static bool exclusion_key(const expr *x, u128 k, uint64_t *key) {
  if (k > UINT32_MAX || x->id > UINT32_MAX) return false;
  *key = (uint64_t)k << 32 | x->id;
  return true;
}

static bool is_excluded(const qs_bounds *b, const expr *x, u128 k) {
  uint64_t key, v;
  return exclusion_key(x, k, &key) && qs_idmap_get(b->path_mode ? &b->pexcl : &b->excl, key, &v);
}

/* The path's formulas: the assumed ones, or all when none is assumed. A path formula is
 * rewritten, and a path bound dropped, by the path's bounds alone, so that it reads the same
 * whatever question comes with it: the incremental lanes keep the path asserted as the
 * prefix the questions share (a question n ≤ 0 once dropped the path's n ≤ CAP and rewrote
 * its reads, so every query started the lane over: the string scan took 12× longer). */
static bool on_path(const qs_req *rq, size_t i) { return !rq->assumed || i < rq->assumed; }

static interval *interval_of(const qs_bounds *b, uint64_t id) {
  uint64_t v;
  if (b->path_mode) return qs_idmap_get(&b->pmap, id, &v) ? &b->piv[v] : NULL;
  if (!qs_idmap_get(&b->ivmap, id, &v) || v >> 32 != b->stamp) return NULL;
  return &b->iv[(uint32_t)v];
}

/* Does the request's interval on term x miss every byte of [first, last]? */
static bool misses(const qs_bounds *b, int which, uint64_t x, uint64_t first, uint64_t last) {
  const interval *iv = interval_of(b, x);
  return iv && (iv->hi[which] < first || iv->lo[which] > last);
}

/* x's interval in this request, created as the whole type when x has none yet. */
static interval *interval_new(qs_bounds *b, const expr *x) {
  interval *iv = interval_of(b, x->id);
  if (iv) return iv;
  QS_RESERVE(b->iv, b->iv_cap, b->niv + 1);
  iv = &b->iv[b->niv];
  u128 max = expr_mask(x->width);
  *iv = (interval){{0, 0}, {max, max}, SIZE_MAX, SIZE_MAX, x, false, 0, 0};
  qs_idmap_put(&b->ivmap, x->id, b->stamp << 32 | b->niv++);
  return iv;
}

/* The path's exclusions raise the low end of a term's path interval past the points they
 * exclude, and lower its high end likewise: n ≤ CAP with n ≠ 0, …, n ≠ i - 1 is i ≤ n ≤ CAP.
 * An end stops short of emptying the interval (an unsat path is Z3's to find). */
static void apply_exclusions(qs_bounds *b, const qs_req *rq) {
  qs_idmap_reset(&b->excl, rq->n); /* sized once: an empty reset shrank it every request */
  bool any = false;
  for (size_t i = 0; i < rq->n; i++) {
    const expr *x;
    u128 k;
    uint64_t key;
    if (b->kind[i] != NOT_BOUND || !on_path(rq, i) || !exclusion(b, rq->f[i], &x, &k) ||
        k > expr_mask(x->width) || !exclusion_key(x, k, &key))
      continue;
    interval *iv = interval_new(b, x);
    if (!iv->excluded) {
      iv->excluded = true;
      iv->bound_lo = iv->lo[PATH];
      iv->bound_hi = iv->hi[PATH];
    }
    qs_idmap_put(&b->excl, key, 0);
    any = true;
  }
  for (size_t v = 0; any && v < b->niv; v++) {
    interval *iv = &b->iv[v];
    if (!iv->excluded) continue;
    while (iv->lo[PATH] < iv->hi[PATH] && is_excluded(b, iv->x, iv->lo[PATH])) iv->lo[PATH]++;
    while (iv->hi[PATH] > iv->lo[PATH] && is_excluded(b, iv->x, iv->hi[PATH])) iv->hi[PATH]--;
    if (iv->lo[PATH] > iv->lo[ALL]) iv->lo[ALL] = iv->lo[PATH];
    if (iv->hi[PATH] < iv->hi[ALL]) iv->hi[ALL] = iv->hi[PATH];
  }
}

/* lo ≤ x and x ≤ hi for each end of iv the exclusions moved past its bounds' (new
 * references into f at *out). */
static void emit_moved_ends(const interval *iv, expr **f, size_t *out) {
  expr *x = (expr *)iv->x;
  if (iv->lo[PATH] > iv->bound_lo) {
    expr *c = expr_const(x->width, iv->lo[PATH]);
    f[(*out)++] = expr_ule(c, x);
    expr_unref(c);
  }
  if (iv->hi[PATH] < iv->bound_hi) {
    expr *c = expr_const(x->width, iv->hi[PATH]);
    f[(*out)++] = expr_ule(x, c);
    expr_unref(c);
  }
}

/* The bounds the exclusions added (new references into f at *out): lo ≤ x and x ≤ hi for
 * each end apply_exclusions moved (only the empty interval's, when one is empty). */
static void emit_exclusion_bounds(const qs_bounds *b, const interval *empty, expr **f,
                                  size_t *out) {
  for (size_t v = 0; v < b->niv; v++) {
    const interval *iv = &b->iv[v];
    if (iv->excluded && (!empty || iv == empty)) emit_moved_ends(iv, f, out);
  }
}

static bool decisions_hold(const qs_bounds *b, int which, const rewrite *r) {
  for (size_t i = 0; i < r->dec_n; i++) {
    const decision *d = &b->dec[r->dec_off + i];
    if (misses(b, which, d->x, d->first, d->last) != d->skipped) return false;
  }
  return true;
}

/* f rewritten under the request's intervals (borrowed: f itself or the memo's), its decisions
 * recorded from b->ndec on. */
static expr *rewrite_formula(qs_bounds *b, int which, expr *f) {
  uint64_t v;
  if (qs_idmap_get(&b->memo, f->id, &v) && decisions_hold(b, which, &b->rw[v]))
    return b->rw[v].result ? b->rw[v].result : f;
  size_t dec_off = b->ndec, nfrom = 0, depth = 0;
  qs_idmap_reset(&b->seen, 16);
  qs_push_unseen(&b->seen, &b->stack, &depth, &b->stack_cap, f);
  while (depth) {
    expr *e = b->stack[--depth];
    for (unsigned k = 0; k < e->nkids; k++)
      qs_push_unseen(&b->seen, &b->stack, &depth, &b->stack_cap, e->kid[k]);
    if (e->kind != EXPR_READ || !e->u.read.updates || e->kid[0]->kind != EXPR_CONST ||
        e->width % 8 || e->kid[0]->u.value > UINT64_MAX - e->width / 8)
      continue;
    uint64_t first = (uint64_t)e->kid[0]->u.value, last = first + e->width / 8 - 1;
    expr_update *u = e->u.read.updates;
    for (; u; u = u->next) {
      bool skip;
      if (u->index->kind == EXPR_CONST) {
        skip = u->index->u.value < first || u->index->u.value > last;
      } else {
        skip = misses(b, which, u->index->id, first, last);
        QS_RESERVE(b->dec, b->dec_cap, b->ndec + 1);
        b->dec[b->ndec++] = (decision){u->index->id, first, last, skip};
      }
      if (!skip) break;
    }
    if (u == e->u.read.updates) continue;
    QS_RESERVE(b->from, b->from_cap, nfrom + 1);
    QS_RESERVE(b->to, b->to_cap, nfrom + 1);
    b->from[nfrom] = e;
    b->to[nfrom++] = expr_read_le(e->u.read.array, u, e->kid[0], e->width / 8);
  }
  expr *result = nfrom ? expr_substitute(f, b->from, b->to, nfrom) : NULL;
  for (size_t i = 0; i < nfrom; i++) expr_unref(b->to[i]);
  if (result == f) {
    expr_unref(result);
    result = NULL;
  }
  if (qs_idmap_get(&b->memo, f->id, &v)) { /* its decisions no longer hold: replaced */
    expr_unref(b->rw[v].result);
  } else {
    QS_RESERVE(b->rw, b->rw_cap, b->nrw + 1);
    v = b->nrw++;
    qs_idmap_put(&b->memo, f->id, v);
  }
  b->rw[v] = (rewrite){result, dec_off, b->ndec - dec_off};
  return result ? result : f;
}

bool qs_bounds_apply(qs_bounds *b, const qs_req *rq, expr **f, size_t *n, size_t *assumed,
                     uint64_t *rewritten, uint64_t *dropped) {
  bool forall = false;
  for (size_t i = 0; i < rq->n && !forall; i++) forall = rq->f[i]->has_forall;
  if (b->nrw > MEMO_MAX_REWRITES || b->ndec > MEMO_MAX_DECISIONS) memo_clear(b);
  /* The intervals (a new stamp invalidates the last request's). */
  b->stamp = (b->stamp + 1) & 0xffffffffu;
  if (!b->stamp) { /* wrapped: no stale entry may match */
    qs_idmap_reset(&b->ivmap, rq->n);
    b->stamp = 1;
  }
  b->niv = 0;
  QS_RESERVE(b->kind, b->kind_cap, rq->n);
  for (size_t i = 0; i < rq->n; i++) {
    const expr *x;
    u128 lo, hi;
    b->kind[i] = forall ? NOT_BOUND : (uint8_t)as_bound(rq->f[i], &x, &lo, &hi);
    if (b->kind[i] != NOT_BOUND && !plain_term(b, x)) b->kind[i] = NOT_BOUND; /* rewritten below */
    if (b->kind[i] == NOT_BOUND) continue;
    interval *iv = interval_new(b, x);
    /* the first of the path's tightest bounds at each end is the one kept */
    if (on_path(rq, i) && b->kind[i] != UPPER && (iv->lo_f == SIZE_MAX || lo > iv->lo[PATH])) {
      iv->lo[PATH] = lo;
      iv->lo_f = i;
    }
    if (on_path(rq, i) && b->kind[i] != LOWER && (iv->hi_f == SIZE_MAX || hi < iv->hi[PATH])) {
      iv->hi[PATH] = hi;
      iv->hi_f = i;
    }
    if (lo > iv->lo[ALL]) iv->lo[ALL] = lo;
    if (hi < iv->hi[ALL]) iv->hi[ALL] = hi;
  }
  if (!forall) apply_exclusions(b, rq);
  /* Two bounds on one term contradict: the request is unsat, and so are its bounds on that
   * term alone (the tightest of each end stay below), which is all that goes on — the
   * whole path, unrewritten, cost an incremental lane its prefix twice a path. */
  const interval *empty = NULL;
  for (size_t k = 0; k < b->niv && !empty; k++)
    if (b->iv[k].lo[ALL] > b->iv[k].hi[ALL]) empty = &b->iv[k];
  size_t out = 0, out_assumed = 0;
  for (size_t i = 0; i < rq->n; i++) {
    expr *g = rq->f[i];
    const expr *x = NULL;
    u128 lo, hi;
    if (i == rq->assumed && i) { /* the exclusions' bounds end the path */
      size_t before = out;
      emit_exclusion_bounds(b, empty, f, &out);
      out_assumed += out - before;
    }
    if (b->kind[i] != NOT_BOUND) as_bound(g, &x, &lo, &hi);
    if (!x && !forall && g->kind == EXPR_NOT && i < rq->assumed && exclusion(b, g, &x, &lo)) {
      /* ¬(k = x) on the path with k outside x's path interval: implied (by a kept bound or
       * by an exclusion's bound) */
      const interval *iv = interval_of(b, x->id);
      if (!empty && iv && (lo < iv->lo[PATH] || lo > iv->hi[PATH])) {
        (*dropped)++;
        continue;
      }
      x = NULL;
    }
    if (empty && (!x || interval_of(b, x->id) != empty)) continue;
    if (b->kind[i] == LOWER || b->kind[i] == UPPER) {
      const interval *iv = interval_of(b, x->id);
      /* a tighter one on the path holds (a question stays; nothing goes from a request
       * without a path, so that a set is one cache key whichever way it is asked) */
      if (i < rq->assumed && (b->kind[i] == LOWER ? iv->lo_f : iv->hi_f) != i) {
        (*dropped)++;
        continue;
      }
    } else if (b->kind[i] == NOT_BOUND && !forall && b->niv) {
      expr *r = rewrite_formula(b, on_path(rq, i) ? PATH : ALL, g);
      *rewritten += r != g;
      g = r;
    }
    f[out++] = expr_ref(g);
    if (i < rq->assumed) out_assumed++;
  }
  if (!rq->assumed || rq->assumed == rq->n) {
    size_t before = out;
    emit_exclusion_bounds(b, empty, f, &out);
    if (rq->assumed) out_assumed += out - before;
  }
  *n = out;
  *assumed = out_assumed;
  return !empty;
}

/* ---- path mode -------------------------------------------------------------------------- */

static void log_push(qs_bounds *b, undo u) {
  QS_RESERVE(b->log, b->log_cap, b->nlog + 1);
  b->log[b->nlog++] = u;
}

static void log_interval(qs_bounds *b, uint32_t t) {
  log_push(b, (undo){.what = UNDO_INTERVAL, .term = t, .old = b->piv[t]});
}

/* x's path interval, created (and logged) as the whole type when x has none. */
static uint32_t path_term(qs_bounds *b, const expr *x) {
  uint64_t v;
  if (qs_idmap_get(&b->pmap, x->id, &v)) return (uint32_t)v;
  QS_RESERVE(b->piv, b->piv_cap, b->npiv + 1);
  u128 max = expr_mask(x->width);
  b->piv[b->npiv] = (interval){{0, 0}, {max, max}, SIZE_MAX, SIZE_MAX, x, false, 0, max};
  qs_idmap_put(&b->pmap, x->id, b->npiv);
  log_push(b, (undo){.what = UNDO_NEW_TERM, .term = (uint32_t)b->npiv, .key = x->id});
  return (uint32_t)b->npiv++;
}

static void undo_to(qs_bounds *b, size_t mark) {
  while (b->nlog > mark) {
    const undo *u = &b->log[--b->nlog];
    switch (u->what) {
    case UNDO_INTERVAL: b->piv[u->term] = u->old; break;
    case UNDO_NEW_TERM:
      assert(u->term + 1 == b->npiv);
      b->npiv--;
      qs_idmap_erase(&b->pmap, u->key); /* the term's id: its level's formula may be gone */
      break;
    case UNDO_EXCL: qs_idmap_erase(&b->pexcl, u->key); break;
    default: b->empty_levels--; break;
    }
  }
}

/* The path interval of iv from its bounds (bound_lo, bound_hi) and its exclusions, which
 * move the ends past the points they exclude as apply_exclusions does (the ends only move
 * inwards as the path grows, so walking on from the last ones gives the same ends). */
static void path_walk(qs_bounds *b, interval *iv) {
  if (iv->lo[PATH] < iv->bound_lo) iv->lo[PATH] = iv->bound_lo;
  if (iv->hi[PATH] > iv->bound_hi) iv->hi[PATH] = iv->bound_hi;
  if (iv->excluded) {
    while (iv->lo[PATH] < iv->hi[PATH] && is_excluded(b, iv->x, iv->lo[PATH])) iv->lo[PATH]++;
    while (iv->hi[PATH] > iv->lo[PATH] && is_excluded(b, iv->x, iv->hi[PATH])) iv->hi[PATH]--;
  }
  iv->lo[ALL] = iv->lo[PATH];
  iv->hi[ALL] = iv->hi[PATH];
}

static void path_push(qs_bounds *b, expr *f) {
  size_t k = b->nlev;
  QS_RESERVE(b->lev, b->lev_cap, k + 1);
  QS_RESERVE(b->pf, b->pf_cap, k + 1);
  level *L = &b->lev[k];
  *L = (level){.out = NULL, .term = UINT32_MAX, .log_mark = b->nlog};
  b->pf[k] = f->id;
  b->nlev++;
  const expr *x;
  u128 lo, hi;
  int kind = f->has_forall ? NOT_BOUND : as_bound(f, &x, &lo, &hi);
  if (kind != NOT_BOUND && !plain_term(b, x)) kind = NOT_BOUND;
  L->kind = (uint8_t)kind;
  if (kind != NOT_BOUND) { /* the first of the tightest bounds at each end is the one kept */
    uint32_t t = path_term(b, x);
    log_interval(b, t);
    interval *iv = &b->piv[t];
    L->term = t;
    if (kind != UPPER && (iv->lo_f == SIZE_MAX || lo > iv->bound_lo)) {
      iv->bound_lo = lo;
      iv->lo_f = k;
    }
    if (kind != LOWER && (iv->hi_f == SIZE_MAX || hi < iv->bound_hi)) {
      iv->bound_hi = hi;
      iv->hi_f = k;
    }
    path_walk(b, iv);
    if (iv->bound_lo > iv->bound_hi) {
      log_push(b, (undo){.what = UNDO_EMPTY});
      b->empty_levels++;
    }
    L->out = f;
    return;
  }
  u128 ek;
  if (!f->has_forall && exclusion(b, f, &x, &ek)) {
    uint32_t t = path_term(b, x);
    interval *iv = &b->piv[t];
    uint64_t key;
    L->term = t;
    if (ek <= expr_mask(x->width) && exclusion_key(x, ek, &key) &&
        !qs_idmap_get(&b->pexcl, key, NULL)) {
      log_interval(b, t);
      L->first_excl = !iv->excluded;
      iv->excluded = true;
      qs_idmap_put(&b->pexcl, key, k);
      log_push(b, (undo){.what = UNDO_EXCL, .key = key});
      path_walk(b, iv);
    }
    if (f->kind == EXPR_NOT && (ek < iv->lo[PATH] || ek > iv->hi[PATH])) {
      L->gone = true; /* implied by a kept bound or by the exclusions' bound */
      return;
    }
  }
  expr *r = rewrite_formula(b, PATH, f);
  L->owned = r != f;
  L->out = L->owned ? expr_ref(r) : f;
}

static void path_pop(qs_bounds *b) {
  level *L = &b->lev[--b->nlev];
  undo_to(b, L->log_mark);
  if (L->owned) expr_unref(L->out);
}

size_t qs_bounds_path_sync(qs_bounds *b, expr *const *f, size_t n) {
  return qs_bounds_path_sync_from(b, f, n, 0);
}

size_t qs_bounds_path_sync_from(qs_bounds *b, expr *const *f, size_t n, size_t known) {
  if (b->nrw > MEMO_MAX_REWRITES || b->ndec > MEMO_MAX_DECISIONS) memo_clear(b);
  size_t lim = n < b->nlev ? n : b->nlev, m = known < lim ? known : lim;
  assert(!m || b->pf[m - 1] == f[m - 1]->id);
  while (m < lim && b->pf[m] == f[m]->id) m++;
  b->path_mode = true;
  while (b->nlev > m) path_pop(b);
  for (size_t k = m; k < n; k++) path_push(b, f[k]);
  b->path_mode = false;
  return m;
}

bool qs_bounds_path_ok(const qs_bounds *b) { return !b->empty_levels; }

expr *qs_bounds_path_level(const qs_bounds *b, size_t k, const expr **first_excl) {
  assert(k < b->nlev);
  const level *L = &b->lev[k];
  *first_excl = L->first_excl ? b->piv[L->term].x : NULL;
  return L->out;
}

bool qs_bounds_path_present(const qs_bounds *b, size_t k) {
  const level *L = &b->lev[k];
  if (L->kind == LOWER) return b->piv[L->term].lo_f == k;
  if (L->kind == UPPER) return b->piv[L->term].hi_f == k;
  return L->out != NULL;
}

bool qs_bounds_path_one_sided(const qs_bounds *b, size_t k) {
  assert(k < b->nlev);
  return b->lev[k].kind == LOWER || b->lev[k].kind == UPPER;
}

size_t qs_bounds_path_terms(const qs_bounds *b) { return b->npiv; }

size_t qs_bounds_path_ends(const qs_bounds *b, size_t *out) {
  size_t n = 0;
  for (size_t t = 0; t < b->npiv; t++) {
    const interval *iv = &b->piv[t];
    if (iv->lo_f < b->nlev) out[n++] = iv->lo_f;
    if (iv->hi_f < b->nlev) out[n++] = iv->hi_f;
  }
  return n;
}

void qs_bounds_path_excl(const qs_bounds *b, const expr *x, expr **f, size_t *n) {
  uint64_t v;
  if (qs_idmap_get(&b->pmap, x->id, &v)) emit_moved_ends(&b->piv[v], f, n);
}

bool qs_bounds_path_question(qs_bounds *b, expr *const *q, size_t nq, expr **f, size_t *n,
                             size_t *assumed, uint64_t *rewritten) {
  size_t mark = b->nlog;
  uint32_t empty = UINT32_MAX;
  QS_RESERVE(b->kind, b->kind_cap, nq);
  b->path_mode = true;
  for (size_t i = 0; i < nq; i++) { /* the question's bounds narrow the ALL intervals */
    const expr *x;
    u128 lo, hi;
    b->kind[i] = (uint8_t)(q[i]->has_forall ? NOT_BOUND : as_bound(q[i], &x, &lo, &hi));
    if (b->kind[i] != NOT_BOUND && !plain_term(b, x)) b->kind[i] = NOT_BOUND;
    if (b->kind[i] == NOT_BOUND) continue;
    uint32_t t = path_term(b, x);
    log_interval(b, t);
    interval *iv = &b->piv[t];
    if (lo > iv->lo[ALL]) iv->lo[ALL] = lo;
    if (hi < iv->hi[ALL]) iv->hi[ALL] = hi;
    if (iv->lo[ALL] > iv->hi[ALL] && empty == UINT32_MAX) empty = t;
  }
  *n = *assumed = 0;
  if (empty == UINT32_MAX) {
    for (size_t i = 0; i < nq; i++) {
      expr *r = b->kind[i] == NOT_BOUND ? rewrite_formula(b, ALL, q[i]) : q[i];
      *rewritten += r != q[i];
      f[(*n)++] = expr_ref(r);
    }
  } else { /* as qs_bounds_apply: the path's bounds on that term, its exclusions', the question's */
    for (size_t k = 0; k < b->nlev; k++)
      if (b->lev[k].term == empty && b->lev[k].kind != NOT_BOUND && qs_bounds_path_present(b, k))
        f[(*n)++] = expr_ref(b->lev[k].out);
    emit_moved_ends(&b->piv[empty], f, n);
    *assumed = *n;
    for (size_t i = 0; i < nq; i++) {
      const expr *x;
      u128 lo, hi;
      if (b->kind[i] == NOT_BOUND) continue;
      as_bound(q[i], &x, &lo, &hi);
      if (interval_of(b, x->id) == &b->piv[empty]) f[(*n)++] = expr_ref(q[i]);
    }
  }
  undo_to(b, mark);
  b->path_mode = false;
  return empty == UINT32_MAX;
}
