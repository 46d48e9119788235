/*
 * test_cells_bounds.c — unit tests of qsolver/bounds (the independence stage's first step):
 * random requests over a 6-byte buffer s written at a symbolic index n (and at n + 1, which
 * no bound names), with bounds on n among the formulas, rewritten by qs_bounds_apply. The
 * rewritten request must be equivalent to the original on every assignment of a small
 * domain (n over 0..8, the bytes of s over {0, 'a'}, the written value over {0, 'a'}):
 * a read freed from a write the bounds do not exclude, a bound dropped that no kept bound
 * implies, a rewrite resting on a rewritten formula, or "contradicting bounds" on a
 * satisfiable request each shows up as an assignment on which the two differ. The memo is exercised
 * too: the same formulas come back under other bounds (the decisions then differ, and the rewrite
 * must follow them). Finally the memspn shape: under i < n, s[i] through s[n] = 0 reads
 * the input byte and the looser bounds are dropped.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "check.h"
#include "engine/core/expr.h"
#include "qsolver/bounds.h"

static uint64_t rng = 0x2545f4914f6cdd1dULL;
static unsigned rnd(unsigned n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* Every expression built here, released at the end. */
static expr *made[1 << 16];
static size_t nmade;
static expr *keep(expr *e) {
  if (nmade == sizeof made / sizeof *made) abort();
  made[nmade++] = e;
  return e;
}
static expr *c64(uint64_t v) { return keep(expr_const(64, v)); }
static expr *c8(uint64_t v) { return keep(expr_const(8, v)); }

enum { CAP = 6, NMAX = 8 };

typedef struct world {
  expr_array *N, *S, *V;
  expr *n;        /* zext(N[0]): the bounded index */
  expr_update *u; /* s[n] = V[0] on s[n + 1] = 'a' (newest first) */
  expr_update *z; /* s[n] = 0 on s[n + 1] = 'a': 'a' = s[k] through it says n ≠ k */
} world;

static expr *read_s(world *w, uint64_t k) { return keep(expr_read(w->S, w->u, c64(k))); }

/* A bound on n: c < n, n < c, c ≤ n, n ≤ c, c = n, or a negation of one. */
static expr *rand_bound(world *w) {
  expr *c = c64(rnd(NMAX + 1));
  expr *f;
  switch (rnd(5)) {
  case 0: f = keep(expr_ult(c, w->n)); break;
  case 1: f = keep(expr_ult(w->n, c)); break;
  case 2: f = keep(expr_ule(c, w->n)); break;
  case 3: f = keep(expr_ule(w->n, c)); break;
  default: return keep(expr_eq(c, w->n));
  }
  return rnd(3) == 0 ? keep(expr_not(f)) : f;
}

/* A formula over s read through the writes (a bound in form on a non-plain term, too), or
 * an exclusion n ≠ k. */
static expr *rand_other(world *w) {
  uint64_t k = rnd(CAP);
  expr *r = rnd(2) ? read_s(w, k) : keep(expr_read(w->S, w->z, c64(k)));
  switch (rnd(5)) {
  case 4: /* near n's low end half the time, where it moves the end */
    return keep(expr_not(keep(expr_eq(c64(rnd(2) ? rnd(3) : rnd(NMAX + 1)), w->n))));
  case 0: return keep(expr_eq(c8(rnd(4) ? 'a' : 0), r)); /* 0: no exclusion through s[n] = 0 */
  case 1: return keep(expr_not(keep(expr_eq(c8(0), r))));
  case 2: return keep(expr_ult(c8(rnd(2) ? 0 : 'a' - 1), r));
  default: { /* a two-byte read, and a byte compared with another */
    if (k + 1 < CAP && rnd(2))
      return keep(
          expr_ult(keep(expr_read_le(w->S, w->u, c64(k), 2)), keep(expr_const(16, 0x6100))));
    return keep(expr_eq(r, read_s(w, rnd(CAP))));
  }
  }
}

/* The string scan's formulas near n's low end: c = s[k] through s[n] = 0 (an exclusion
 * n ≠ k when c ≠ 0), n ≠ k itself, or a bound. */
static expr *rand_scan(world *w) {
  uint64_t k = rnd(4);
  switch (rnd(3)) {
  case 0: return keep(expr_eq(c8(rnd(4) ? 'a' : 0), keep(expr_read(w->S, w->z, c64(k)))));
  case 1: return keep(expr_not(keep(expr_eq(c64(k), w->n))));
  default: return rand_bound(w);
  }
}

/* Do the two requests agree on every assignment of the domain? Counts the assignments
 * satisfying the original in *sat. */
static bool equivalent(world *w, expr *const *a, size_t na, expr *const *b, size_t nb,
                       unsigned *sat) {
  bool same = true;
  for (unsigned n = 0; n <= NMAX; n++)
    for (unsigned bits = 0; bits < (1u << CAP); bits++)
      for (unsigned v = 0; v < 2; v++) {
        uint8_t nb8 = (uint8_t)n, vb = v ? 'a' : 0, sb[CAP];
        for (unsigned k = 0; k < CAP; k++) sb[k] = bits >> k & 1 ? 'a' : 0;
        expr_assignment *m = expr_assignment_new();
        expr_assignment_set(m, w->N, &nb8, 1);
        expr_assignment_set(m, w->S, sb, CAP);
        expr_assignment_set(m, w->V, &vb, 1);
        bool ta = expr_eval_all_true(a, na, m), tb = expr_eval_all_true(b, nb, m);
        expr_assignment_free(m);
        *sat += ta;
        if (ta != tb) same = false;
      }
  return same;
}

static void check_random(world *w) {
  qs_bounds *b = qs_bounds_new();
  unsigned unsat = 0, satisfiable = 0, changed = 0, added = 0;
  uint64_t rewritten = 0, dropped = 0;
  for (int round = 0; round < 800; round++) {
    expr *f[12], *out[3 * 12];
    size_t n = 2 + rnd(9), nout = 0, assumed = 0;
    bool scan = rnd(3) == 0;
    for (size_t i = 0; i < n; i++)
      f[i] = scan ? rand_scan(w) : rnd(2) ? rand_bound(w) : rand_other(w);
    qs_req rq = {.f = f, .n = n, .assumed = rnd(4) ? 1 + rnd((unsigned)n) : 0};
    uint64_t rw0 = rewritten, dr0 = dropped;
    bool ok = qs_bounds_apply(b, &rq, out, &nout, &assumed, &rewritten, &dropped);
    unsigned sat = 0;
    if (!ok) { /* contradicting bounds: an unsat subset of the request */
      CHECK(equivalent(w, f, n, (expr *[]){keep(expr_false())}, 1, &sat));
      CHECK_EQ_U64(sat, 0);
      unsigned out_sat = 0;
      CHECK(equivalent(w, out, nout, (expr *[]){keep(expr_false())}, 1, &out_sat));
      CHECK_EQ_U64(out_sat, 0);
      CHECK(nout >= 1 && nout <= qs_bounds_room(n));
      for (size_t i = 0; i < nout; i++) { /* the request's, or an exclusions' bound */
        bool in = out[i]->kind == EXPR_ULE &&
                  (out[i]->kid[0]->kind == EXPR_CONST || out[i]->kid[1]->kind == EXPR_CONST);
        for (size_t k = 0; k < n; k++) in = in || out[i] == f[k];
        CHECK(in);
        expr_unref(out[i]);
      }
      unsat++;
      continue;
    }
    CHECK(nout <= qs_bounds_room(n));
    CHECK(assumed <= nout && assumed <= rq.assumed + 4);
    /* two ends of two terms: n, and its byte, to which the constructors narrow n = k */
    CHECK(nout + (dropped - dr0) >= n && nout + (dropped - dr0) <= n + 4);
    added += nout + (dropped - dr0) > n;
    CHECK(equivalent(w, f, n, out, nout, &sat));
    satisfiable += sat > 0;
    changed += rewritten != rw0 || dropped != dr0;
    for (size_t i = 0; i < nout; i++) expr_unref(out[i]);
  }
  /* every outcome was exercised */
  CHECK(unsat > 20);
  CHECK(satisfiable > 100);
  CHECK(changed > 100);
  CHECK(rewritten > 100);
  CHECK(dropped > 15);
  CHECK(added > 50);
  qs_bounds_free(b);
}

/* memspn's path at depth 3: n ≤ 5, 0 < n, 1 < n, 2 < n, s[0..3) = 'a'. */
static void check_memspn_shape(world *w) {
  qs_bounds *b = qs_bounds_new();
  expr *f[8], *out[8];
  size_t n = 0, nout, assumed;
  uint64_t rewritten = 0, dropped = 0;
  f[n++] = keep(expr_ule(w->n, c64(5)));
  for (uint64_t k = 0; k < 3; k++) {
    f[n++] = keep(expr_ult(c64(k), w->n));
    f[n++] = keep(expr_eq(c8('a'), read_s(w, k)));
  }
  qs_req rq = {.f = f, .n = n, .assumed = n}; /* all of it the path */
  CHECK(qs_bounds_apply(b, &rq, out, &nout, &assumed, &rewritten, &dropped));
  CHECK_EQ_U64(dropped, 2);   /* 0 < n and 1 < n: implied by 2 < n */
  CHECK_EQ_U64(rewritten, 3); /* s[0], s[1], s[2] past s[n] = V[0] */
  CHECK_EQ_U64(nout, 5);
  /* s[0] and s[1] lie below n + 1 (n ≥ 3) too, but no bound names n + 1: the read keeps
   * that write and drops only the one at n. */
  CHECK(out[2]->kind == EXPR_EQ);
  const expr *r = out[2]->kid[1];
  CHECK(r->kind == EXPR_READ && r->u.read.updates && !r->u.read.updates->next);
  unsigned sat = 0;
  CHECK(equivalent(w, f, n, out, nout, &sat));
  CHECK(sat > 0);
  for (size_t i = 0; i < nout; i++) expr_unref(out[i]);
  /* Asked again, the memo answers, with the same formulas. */
  expr *again[8];
  uint64_t rw2 = 0, dr2 = 0;
  CHECK(qs_bounds_apply(b, &rq, again, &nout, &assumed, &rw2, &dr2));
  CHECK_EQ_U64(rw2, 3);
  CHECK_EQ_U64(nout, 5);
  /* Without 2 < n, s[2] may be the written byte: it keeps the write. */
  rq.n = rq.assumed = n - 2;
  uint64_t rw3 = 0, dr3 = 0;
  CHECK(qs_bounds_apply(b, &rq, out, &nout, &assumed, &rw3, &dr3));
  CHECK(equivalent(w, f, n - 2, out, nout, &sat));
  for (size_t i = 0; i < nout; i++) expr_unref(out[i]);
  for (size_t i = 0; i < 5; i++) expr_unref(again[i]);
  qs_bounds_free(b);
}

/* The string scan's path at depth 3: n ≤ 5, 'a' = s[0..3) through s[n] = 0, which says
 * n ∉ {0, 1, 2}: 3 ≤ n ends the path, and the reads skip the write at n. */
static void check_scan_shape(world *w) {
  qs_bounds *b = qs_bounds_new();
  expr *f[8], *out[3 * 8];
  size_t n = 0, nout, assumed;
  uint64_t rewritten = 0, dropped = 0;
  f[n++] = keep(expr_ule(w->n, c64(5)));
  for (uint64_t k = 0; k < 3; k++)
    f[n++] = keep(expr_eq(c8('a'), keep(expr_read(w->S, w->z, c64(k)))));
  f[n++] = keep(expr_eq(c8('a'), keep(expr_read(w->S, w->z, c64(3))))); /* the question */
  qs_req rq = {.f = f, .n = n, .assumed = n - 1};
  CHECK(qs_bounds_apply(b, &rq, out, &nout, &assumed, &rewritten, &dropped));
  CHECK_EQ_U64(rewritten, 3);
  CHECK_EQ_U64(nout, n + 1);
  CHECK_EQ_U64(assumed, n);
  CHECK(out[n - 1] == keep(expr_ule(c64(3), w->n))); /* after the path, before the question */
  CHECK(out[n] == f[n - 1]);                         /* n = 3 may still read the 0 */
  unsigned sat = 0;
  CHECK(equivalent(w, f, n, out, nout, &sat));
  CHECK(sat > 0);
  for (size_t i = 0; i < nout; i++) expr_unref(out[i]);
  qs_bounds_free(b);
}

/* The path mode: random paths that share prefixes with the one before (popped to a random
 * depth, pushed on), each with a random question. The levels that go out, the terms' moved
 * ends and the rewritten question must be equivalent to the path and the question on every
 * assignment of the domain; a question contradicting the path's bounds must give an unsat
 * set implied by the request. */
static void check_path_mode(world *w) {
  qs_bounds *b = qs_bounds_new();
  expr *path[16], *out[3 * 17];
  size_t depth = 0;
  unsigned checked = 0, empty = 0, kept = 0;
  uint64_t rewritten = 0;
  expr *byte = keep(expr_read(w->N, NULL, c64(0))); /* n's byte: the constructors bound it */
  for (int round = 0; round < 600; round++) {
    depth = depth ? rnd((unsigned)depth + 1) : 0;
    size_t stood = depth; /* path[0..stood) as at the last sync (every other round: known) */
    size_t grow = 1 + rnd(4);
    while (grow-- && depth < 12)
      path[depth++] = rnd(3) == 0 ? rand_scan(w) : rnd(2) ? rand_bound(w) : rand_other(w);
    size_t m = round % 2 ? qs_bounds_path_sync_from(b, path, depth, stood)
                         : qs_bounds_path_sync(b, path, depth);
    CHECK(m >= stood);
    kept += m > 0;
    if (!qs_bounds_path_ok(b)) continue;
    expr *q = rnd(2) ? rand_bound(w) : rand_other(w);
    path[depth] = q;
    size_t n = 0, assumed = 0;
    unsigned sat = 0;
    if (!qs_bounds_path_question(b, &q, 1, out, &n, &assumed, &rewritten)) {
      CHECK(equivalent(w, path, depth + 1, (expr *[]){keep(expr_false())}, 1, &sat));
      CHECK_EQ_U64(sat, 0);
      unsigned out_sat = 0;
      CHECK(equivalent(w, out, n, (expr *[]){keep(expr_false())}, 1, &out_sat));
      CHECK_EQ_U64(out_sat, 0);
      for (size_t i = 0; i < n; i++) expr_unref(out[i]);
      empty++;
      continue;
    }
    CHECK_EQ_U64(n, 1);
    expr *set[3 * 17];
    size_t ns = 0;
    set[ns++] = out[0];
    for (size_t k = 0; k < depth; k++) {
      const expr *term;
      expr *g = qs_bounds_path_level(b, k, &term);
      if (qs_bounds_path_present(b, k)) set[ns++] = expr_ref(g);
    }
    qs_bounds_path_excl(b, w->n, set, &ns);
    qs_bounds_path_excl(b, byte, set, &ns);
    CHECK(equivalent(w, path, depth + 1, set, ns, &sat));
    for (size_t i = 0; i < ns; i++) expr_unref(set[i]);
    checked++;
  }
  qs_bounds_path_sync(b, path, 0);
  CHECK(checked > 300);
  CHECK(empty > 10);
  CHECK(kept > 300);
  CHECK(rewritten > 50);
  qs_bounds_free(b);
}

int main(void) {
  world w;
  w.N = expr_array_new("n", keep(expr_const(64, 1)), 1, true, NULL);
  w.S = expr_array_new("s", keep(expr_const(64, CAP)), CAP, true, NULL);
  w.V = expr_array_new("v", keep(expr_const(64, 1)), 1, true, NULL);
  w.n = keep(expr_zext(keep(expr_read(w.N, NULL, c64(0))), 64));
  expr_update *u1 = expr_update_push(w.S, NULL, keep(expr_add(c64(1), w.n)), c8('a'));
  w.u = expr_update_push(w.S, u1, w.n, keep(expr_read(w.V, NULL, c64(0))));
  w.z = expr_update_push(w.S, u1, w.n, c8(0));
  check_memspn_shape(&w);
  check_scan_shape(&w);
  check_random(&w);
  check_path_mode(&w);
  expr_update_unref(w.u);
  expr_update_unref(w.z);
  expr_update_unref(u1);
  for (size_t i = nmade; i-- > 0;) expr_unref(made[i]);
  expr_array_unref(w.N);
  expr_array_unref(w.S);
  expr_array_unref(w.V);
  return check_exit();
}
