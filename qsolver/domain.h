/*
 * domain.h — private to qsolver/ (and its tests): a conjunction of scalar formulas decided by
 * enumerating its variables over the small ranges its own bounds give them (domain.c).
 *
 * A merged state's bounds questions are its case: after PAT merges a loop, each access to
 * s[K + c] asks whether K + c stays below the buffer's size, where a forked state reads at a
 * constant address and asks nothing. The relaxed stage hands such a question down as a
 * component of its scalar part — K ≤ 31, K ≤ n ≤ 32, ¬(K + c in bounds) — which Z3 answers in
 * ~1.5 M instructions, an enumeration of K over 0..31 in a few thousand.
 *
 * Contract: f[0..n) are width-1 formulas, borrowed. A variable is a read at a constant index,
 * through no writes, of an array without initial contents, entirely below its capacity; the
 * formulas must read arrays only so (and the variables of one array must not overlap), else
 * the answer is QS_UNKNOWN. Each variable's range comes from the formulas that bound it alone
 * (v ≤ c, c < v, v = c, and their negations, unsigned); every variable needs one of at most
 * QS_DOMAIN_MAX values. The answer is exact: QS_UNSAT when no point of the ranges satisfies
 * every formula (outside them one of the bounds fails), QS_SAT with a model (new, binding
 * each variable's array to `capacity` bytes, all others read as 0) checked by evaluation on
 * every formula; QS_UNKNOWN when the shape is not one of these or the enumeration would take
 * more than its budget of evaluations. Deterministic. Not thread-safe (expr is not).
 */
#ifndef SYMQ_QSOLVER_DOMAIN_H
#define SYMQ_QSOLVER_DOMAIN_H

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

/* Values a variable's range may hold, at most. */
#define QS_DOMAIN_MAX 256
/* Formula evaluations an enumeration may make before it gives up (QS_UNKNOWN): an evaluation
 * of such a formula costs ~5 k instructions, a Z3 query on it ~1.5 M. */
#define QS_DOMAIN_EVALS 256

typedef struct qs_domain qs_domain;
qs_domain *qs_domain_new(void);
void qs_domain_free(qs_domain *d); /* NULL is allowed */
qs_status qs_domain_solve(qs_domain *d, expr *const *f, size_t n, expr_assignment **model);

#endif
