/*
 * bounds.h — private to qsolver/: a request's unsigned bounds on its terms, and the reads
 * those bounds free from writes (the independence stage's first step).
 *
 * Contract: qs_bounds_apply(b, rq, f, &n, &assumed) writes into f an equivalent set of
 * formulas (a model of either is a model of the other, restricted to what they read), each
 * f[i] a new reference the caller releases.
 *   - A bound is a formula c <u x, x <u c, c ≤u x, x ≤u c or c = x, or the negation of one of
 *     the first four, with c a constant and x a small term that reads through no writes
 *     (plain_term). The bounds on one term x meet in an interval; when one is empty (two
 *     formulas contradict) only the bounds on that term go on (unsat as the request is), for
 *     the stages below to answer.
 *     Bounds are kept as they are and only they give intervals, so no rewrite rests on a
 *     rewritten formula (no circular argument: the kept bounds imply the intervals, under
 *     which each rewritten formula is equivalent to its original).
 *   - The path's formulas (the assumed ones; all when none is) are rewritten by the path's
 *     bounds alone, so that the path reads the same whatever the question (the incremental
 *     lanes keep it asserted as the questions' common prefix); the question by all bounds.
 *   - A one-sided bound among the assumed formulas implied by a tighter one among them on
 *     the same x is dropped (the first of the tightest stays; equalities and questions
 *     stay: a question the path implies is still asked; a request with no assumed formula
 *     keeps all, so that a set is one cache key whichever way it is asked). The path
 *     condition's i < n for every i below the current one is then one formula, not the
 *     path's depth.
 *   - An exclusion on the path — ¬(k = x), or c = s[k] read through a newest possible write
 *     at x of a constant other than c, which needs x ≠ k — moves an end of x's path interval
 *     past the points excluded there, and the bound of the moved end (k ≤u x or x ≤u k, a
 *     new formula) closes the path's formulas; an exclusion ¬(k = x) outside the interval
 *     is then dropped. The string scan's n ≤ CAP and 'a' = s[0..i) through s[n] = 0 become
 *     i ≤ n ≤ CAP and the input bytes: each question reads n's interval and one byte, not the
 *     path (its forking time at capacity 512: 5.3 s → 0.9 s). The new bound rests on the
 *     original formulas and the rewrites on the new bound, so the set stays equivalent.
 *   - In every other formula, a read at a constant index skips the newest writes of its
 *     update list whose index is a constant elsewhere or a term whose interval misses every
 *     byte read: a path that knows i < n reads s[i] past the write s[n] = 0 as the input
 *     byte itself, which independence then slices apart from n and from the other bytes.
 *   - A request holding a forall is left as it is (the quantified stages read it as built).
 * A formula's rewrite is cached with the decisions it took (which write index missed which
 * byte range) and reused while the request's intervals take the same ones, so a path's
 * formulas are rewritten once, not at every query.
 */
#ifndef SYMQ_QSOLVER_BOUNDS_H
#define SYMQ_QSOLVER_BOUNDS_H

#include "qsolver/stage.h"

typedef struct qs_bounds qs_bounds;

qs_bounds *qs_bounds_new(void);
void qs_bounds_free(qs_bounds *b);

/* f is c = t or t = c with c a constant and t not: c and t (also for the independence stage's
 * pinned bytes). */
static inline bool qs_eq_const(const expr *f, const expr **c, const expr **t) {
  if (f->kind != EXPR_EQ) return false;
  bool left = f->kid[0]->kind == EXPR_CONST;
  *c = f->kid[left ? 0 : 1];
  *t = f->kid[left ? 1 : 0];
  return (*c)->kind == EXPR_CONST && (*t)->kind != EXPR_CONST;
}

/* The room f needs for a request of n formulas: each may come out, and each exclusion (a
 * path formula implying x ≠ k) may add a bound at either end of x's interval. */
static inline size_t qs_bounds_room(size_t n) { return 3 * n; }

/* f has room for qs_bounds_room(rq->n) formulas: f[0..*n) (new references), the first
 * *assumed of them the path's (rq's assumed formulas in rq's order, then the exclusions'
 * bounds); *rewritten and *dropped count the formulas changed and left out. False when two
 * bounds contradict: f is then rq's bounds on that term and the exclusions' bound on it, if
 * any (unsat, and implied by rq). */
bool qs_bounds_apply(qs_bounds *b, const qs_req *rq, expr **f, size_t *n, size_t *assumed,
                     uint64_t *rewritten, uint64_t *dropped);

/* ---- path mode: the path's bounds kept along a prefix -------------------------------------
 * The path formulas (a request's assumed ones, after the constant stage) are levels of a
 * stack that the next request pops to its common prefix with the last and pushes on from
 * there, so a request costs what its new formulas cost, not the path's depth. A level is its
 * formula as it goes out: a bound as it is, an exclusion ¬(k = x) outside x's interval gone,
 * any other formula rewritten under the intervals of the path up to and including it (not
 * under later bounds: each such rewrite is still equivalent under the path's later, narrower
 * intervals, only sliced less finely than qs_bounds_apply would). A one-sided bound goes out
 * while it is the first of its term's tightest; the moved ends' bounds of a term come from
 * qs_bounds_path_excl. The levels and the exclusions' bounds of the path, with the question
 * from qs_bounds_path_question, form a set equivalent to the request (as qs_bounds_apply's).
 * A request holding a forall must not use it. A level knows its formula by id (ids are never
 * reused: a formula of the same id at the same place is the same, alive one) and keeps no
 * reference to it, as the solver's contract asks; it owns its rewrite. */

/* Makes the levels f[0..n) (each ends up as pushed after the ones before it); returns how
 * many of them were kept from the last call. */
size_t qs_bounds_path_sync(qs_bounds *b, expr *const *f, size_t n);
/* The same, when the caller knows that f[0..known) are the formulas of the last call's f at
 * the same places (alive, so of the same ids): their comparison is skipped (each is a read of
 * a formula: the path's length per request). */
size_t qs_bounds_path_sync_from(qs_bounds *b, expr *const *f, size_t n, size_t known);
/* False while some path term's own bounds contradict (the path is unsat: qs_bounds_apply
 * answers such requests). */
bool qs_bounds_path_ok(const qs_bounds *b);
/* Level k's formula (borrowed; NULL for a gone exclusion, which reads nothing); *first_excl is
 * the term of the path's first exclusion on it when level k is that exclusion, else NULL. */
expr *qs_bounds_path_level(const qs_bounds *b, size_t k, const expr **first_excl);
/* Does level k go out in the current path (a one-sided bound only while the tightest)? */
bool qs_bounds_path_present(const qs_bounds *b, size_t k);
/* Is level k a one-sided bound (fixed when it is pushed)? A level that is not goes out
 * whenever it is present at all; one that is goes out only while it is its term's tightest
 * at its end, which qs_bounds_path_ends lists: together they let a caller visit the levels
 * that may go out without scanning the path. */
bool qs_bounds_path_one_sided(const qs_bounds *b, size_t k);
/* The path's terms (each has up to two ends). */
size_t qs_bounds_path_terms(const qs_bounds *b);
/* The levels that are some path term's tightest one-sided bound at an end, each once per end
 * it gives (a level may give both), into out (room for 2 * qs_bounds_path_terms), in no
 * particular order; their count. Every present one-sided level is among them. */
size_t qs_bounds_path_ends(const qs_bounds *b, size_t *out);
/* The bounds the path's exclusions put on term x's moved ends (new references into f at *n). */
void qs_bounds_path_excl(const qs_bounds *b, const expr *x, expr **f, size_t *n);
/* The question q[0..nq) under the path's intervals and its own bounds, into f (new
 * references, room for qs_bounds_room(nq + levels)): true, f = the question rewritten, *assumed
 * = 0; false when a question bound contradicts the path's intervals: f is then the path's
 * bounds on that term and its exclusions' (*assumed of them), then the question's bounds on it
 * (unsat, implied by the request). */
bool qs_bounds_path_question(qs_bounds *b, expr *const *q, size_t nq, expr **f, size_t *n,
                             size_t *assumed, uint64_t *rewritten);

#endif
