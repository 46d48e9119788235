/*
 * quant.h — private to qsolver/ (and its tests): the pieces of the paper's procedure for
 * quantified queries (§5, Appendix B; pat-merge.md §7), which stage_quant.c runs in order:
 *
 *   slice: the forall's last model, the question's group without the forall (quant_slice.c)
 *   strip → solve; unsat is final, a model of the whole query is final
 *   duplicate the model's cells read at i = lo into those read at lo+1..hi; check
 *   repair: instantiate at the conflict cells, fix everything else, solve, duplicate; check
 *   fallback: the bounded expansion, and/or Z3 on the query itself
 *
 * A query is a conjunction; top-level `and`s are split into conjuncts. A conjunct is either
 * quantifier-free, a clause ∀i. lo ≤ i ≤ hi → φ(i), or the negation of a clause (Skolemized,
 * below). A forall anywhere else (under an `or`, in a clause's body) makes the query "not
 * strippable": only the fallback applies to it.
 *
 * Soundness. Every formula strip and repair add is an instantiation of a clause, guarded by
 * its range, `¬(lo ≤ t ≤ hi) ∨ φ(t)`, which the clause implies for any term t; so the
 * stripped query is implied by the query and its unsat is final. (The paper's e-matching
 * lemma `K = 0 ∨ t < 1 ∨ K < t` is what this instantiation gives together with the constraint
 * that falsifies φ(t); written as the instantiation it stays sound when φ is not a single
 * atom. The bound lemma `index < size` comes from the instantiation at i = hi, whose φ holds
 * the bounds check of the last iteration.) A Skolemized ¬∀ keeps this: for the right witness
 * w the stripped query is implied by the query. Repair also fixes variables to the model, so
 * its unsat proves nothing; only a model it leads to counts, and every model is checked against
 * the whole query by evaluation (each forall expanded over the model's range).
 *
 * Ownership follows expr.h: the query's formulas are borrowed for the life of the qs_quant;
 * formula lists handed out are NEW references in a malloc'd array (qs_formulas_free).
 */
#ifndef SYMQ_QSOLVER_QUANT_H
#define SYMQ_QSOLVER_QUANT_H

#include "engine/core/expr.h"
#include "qsolver/qsolver.h"

typedef struct qs_quant qs_quant;

/* The analysed query; f[0..n) borrowed until qs_quant_free. A top-level negated clause
 * ¬∀i. lo ≤ i ≤ hi → φ(i) (an existential: what validating a merge asks) is Skolemized into
 * quantifier-free conjuncts lo ≤ w ≤ hi, ¬φ(w) over a fresh witness w; a negated `or` is
 * split into negated conjuncts first. */
qs_quant *qs_quant_new(expr *const *f, size_t n);
void qs_quant_free(qs_quant *q);
/* Every forall is a clause or a Skolemized existential (and there is one). */
bool qs_quant_strippable(const qs_quant *q);
/* Is a one of the witnesses qs_quant_new made (bound by the procedure's models only)? */
bool qs_quant_is_witness(const qs_quant *q, const expr_array *a);

void qs_formulas_free(expr **f, size_t n);

/* The stripped query: the quantifier-free conjuncts (a rescan's range equality among them,
 * qs_quant_folded), and per clause its instantiations at lo
 * and hi and at each trigger term (an index another conjunct reads an array at, solved for
 * i through the clause's read of the same array). Returns the count; *out is new.
 * In the query's order: each formula's conjuncts, then the instances it brings in (those at
 * lo and hi after the clause's formula, a trigger's after the first formula reading it, or
 * the clause's if later), so that the stripped queries of one state's path share the prefix
 * its path condition shares and Z3's incremental lane keeps it asserted (z3_backend.c); the
 * question, last in a request, comes last with its own triggers' instances. */
size_t qs_quant_strip(const qs_quant *q, expr ***out);

/* Two terminated scans strip does not fold (their bodies differ: a scan of a copy of the
 * bytes another scan passed): clauses ∀i∈[lo,a]. φ(i), ∀i∈[lo',b]. ψ(i), lo, lo' ≤ 1, with
 * ¬φ(a + 1) and ¬ψ(b + 1) among the conjuncts. Whether a = b follows from the query's formulas
 * up to `pos` (the last of the four) is for a solver to prove (stage_quant.c). */
typedef struct qs_scan_pair {
  expr *first, *second; /* the clauses' forall nodes (borrowed) */
  expr *a, *b;          /* their upper bounds (borrowed) */
  size_t pos;
} qs_scan_pair;
size_t qs_quant_scan_pairs(const qs_quant *q, qs_scan_pair *out, size_t max);

/* True iff m satisfies the whole query (each forall expanded over m's range). */
bool qs_quant_holds(const qs_quant *q, const expr_assignment *m);

/* A set of semantic cells (array, concrete byte index). */
typedef struct qs_cells qs_cells;
qs_cells *qs_cells_new(void);
void qs_cells_free(qs_cells *c);
bool qs_cells_has(const qs_cells *c, const expr_array *a, uint64_t index);
size_t qs_cells_count(const qs_cells *c);
void qs_cells_add(qs_cells *c, const expr_array *a, uint64_t index); /* past capacity: no-op */

/* A copy of m in which, for every clause with lo ≤ hi under m and every read of an array
 * through i, the cells read at i = lo+1..hi take the value read at i = lo, except the cells
 * in `skip` (NULL: none). Arrays with fixed contents are left alone. */
expr_assignment *qs_quant_duplicate(const qs_quant *q, const expr_assignment *m,
                                    const qs_cells *skip);

/* The repair query for a model m that fails the query: the stripped formulas, plus the
 * instantiations (at concrete i) of each clause whose reads through i touch a conflict cell
 * — a cell of an array read through i, read by a violated conjunct or by a violated
 * instance of a clause — plus every
 * array not read through a bound variable fixed to its bytes in m. The conflict cells and
 * the cells the added instantiations read (all that the repair query constrains explicitly,
 * which duplication must then leave alone) are added to `conflicts`. Returns the count;
 * *out is new. */
size_t qs_quant_repair_query(const qs_quant *q, const expr_assignment *m, expr *const *stripped,
                             size_t nstripped, expr ***out, qs_cells *conflicts);

/* ---- the expansion ------------------------------------------------------------------------
 * The distinct forall nodes of the query (anywhere in it), and for each one the range its
 * bound variable can take. The expansion replaces each forall by
 * ⋀_{c=low..high} (¬(lo ≤ c ≤ hi) ∨ φ(c)); it is equivalent to the query when `high` bounds
 * hi in every model of the query's quantifier-free conjuncts (which the expansion keeps), and
 * `low` bounds lo from below. Finding `high` needs a solver: stage_quant.c proves it. */
size_t qs_quant_forall_count(const qs_quant *q);
/* Clauses strip, duplicate and repair do without: a rescan's, replaced by the equality of
 * its range with an earlier scan's (quant.c, fold_rescans). */
size_t qs_quant_folded(const qs_quant *q);
expr *qs_quant_forall_at(const qs_quant *q, size_t k); /* borrowed */
/* The quantifier-free conjuncts of the query (borrowed; NULL-terminated not needed). */
expr *const *qs_quant_qf(const qs_quant *q, size_t *n);
/* Constants c for which a quantifier-free conjunct says hi ≤ c: candidates for `high`. */
size_t qs_quant_upper_candidates(const qs_quant *q, expr *hi, uint64_t *out, size_t max);
/* The expanded query (count returned, *out new); low[k], high[k] for forall k. */
size_t qs_quant_expand(const qs_quant *q, const uint64_t *low, const uint64_t *high, expr ***out);

/* ---- the slice (quant_slice.c) ---------------------------------------------------------------
 * Before strip: a request whose foralls all range over constants, answered by its expansion;
 * one whose foralls are all in its path condition, answered from the forall's last model or
 * from the question's group without the forall (see quant_slice.c). q is rq's analysis.
 * Sub-requests go to st's next stage (qs_forward). True when *ans is set: sat with a model
 * of the whole request checked by evaluation (given only when want_model), or unsat from a
 * subset of the request. */
typedef struct qs_slice qs_slice;
struct qs_stage;
struct qs_req;
struct qs_ans;
qs_slice *qs_slice_new(void);
void qs_slice_free(qs_slice *sl); /* NULL is allowed */
bool qs_slice_answer(qs_slice *sl, struct qs_stage *st, const qs_quant *q, const struct qs_req *rq,
                     struct qs_ans *ans);
/* Keeps m (copied), a model of rq, as the last model of rq's forall. */
void qs_slice_keep(qs_slice *sl, const struct qs_req *rq, const expr_assignment *m);

/* --validate-qsolver for a stage in front of the quantified one (the caches, stage_cache.c;
 * the relaxed stage, stage_relax.c): when the request holds a forall and `source` gave it a
 * sat or unsat answer (with its model, if any), the quantified stage re-checks it with Z3 on
 * the expansion (else on the query), as it does its own answers (stage_quant.c), counting it
 * in rechecked_from_cache too when from_cache. Does nothing without --validate-qsolver or
 * without the quantified stage; returns whether it re-checked. */
struct qs_req;
struct qs_ans;
bool qs_quant_recheck(qsolver *s, const struct qs_req *rq, const struct qs_ans *ans,
                      const char *source, bool from_cache);

#endif
