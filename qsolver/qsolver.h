/*
 * qsolver — symq's solver front: a chain of stages behind one small interface, assembled in
 * one place (qs_new):
 *
 *   constant → independence → validity cache → counterexample cache → relaxed → quantified
 *   → units → Z3
 *
 * The quantified stage (qsolver/quant.h) answers queries holding a `forall` with the
 * paper's procedure (strip, duplicate, repair), after a slice step that answers a merged
 * state's question without the forall when the forall's last model or the question's group
 * suffices, and falls back to the bounded expansion and/or Z3's MBQI; quantifier-free queries pass
 * through it untouched. The relaxed stage in front of it first tries a quantified request's scalar
 * part (formulas reading arrays only at constant indices): its unsat is final, and so is a model of
 * the request found with those reads fixed (stage_relax.c).
 *
 * Contract
 *   - Formulas are width-1 `expr *`, BORROWED for the duration of a call. The solver keeps
 *     no expression references afterwards: caches key on node ids, which are never reused,
 *     so a freed formula can never produce a stale hit. Cached models do hold references
 *     to their arrays until qs_free.
 *   - A model handed out (`expr_assignment **`, qs_result.model) is NEW and owned by the
 *     caller; it is NULL unless the status is QS_SAT. It binds every requested array to
 *     exactly `capacity` bytes (a constant array to its `init`); it satisfies the formulas
 *     under expr_eval semantics, provided no read goes past an array's capacity (Z3 leaves
 *     such cells unconstrained while expr_eval reads them as 0; the engine's bounds checks
 *     keep reads below capacity).
 *   - Precondition, as in KLEE: the constraint set (path condition) handed to
 *     qs_must_be_true, qs_may_be_true, qs_get_value and qs_get_model is satisfiable. That is
 *     what makes independence slicing sound: a group of constraints sharing no byte with
 *     the query is then satisfiable on its own and can be dropped. qs_check_sat assumes
 *     nothing (it solves each independent group instead of dropping any).
 *   - QS_UNKNOWN (timeout, incomplete quantifier reasoning) is an answer, never a crash;
 *     qs_last_reason says why. A caller ends the path with that reason. A Z3 error is not
 *     an answer (it means symq built a wrong query): it stops the process with Z3's message.
 *   - Deterministic: the same queries in the same order on a solver built with the same
 *     options give the same answers and models (timeouts aside).
 *   - Not thread-safe (neither is expr). Out of memory ends the run in xalloc_oom.
 */
#ifndef SYMQ_QSOLVER_H
#define SYMQ_QSOLVER_H

#include "engine/core/expr.h"
#include "engine/core/json.h"

#include <signal.h>

typedef enum qs_status { QS_SAT, QS_UNSAT, QS_UNKNOWN } qs_status;

/* What answers a quantified query the procedure could not: the bounded expansion
 * ⋀_{i=lo..max} (i in range → φ(i)) solved quantifier-free, Z3's MBQI on the query itself,
 * or the expansion first and Z3 when the expansion is too large or times out. */
typedef enum qs_fallback { QS_FALLBACK_BOTH, QS_FALLBACK_EXPAND, QS_FALLBACK_Z3 } qs_fallback;

typedef struct qs_options {
  unsigned timeout_ms;       /* per query that reaches Z3; 0 = no limit */
  unsigned quant_timeout_ms; /* per query with a forall that reaches Z3 (MBQI); 0 = none */
  bool quantified;           /* the quantified stage; off: every ∀ query goes to Z3 alone */
  qs_fallback fallback;
  bool validate_quantified; /* re-check every answer of the quantified stage with Z3 on
                               the expanded query; disagreements are counted and printed */
  bool independence;        /* the optional stages, so that eval/ can measure each one */
  bool validity_cache;
  bool cex_cache;
  bool relax;               /* the relaxed stage (quantified requests' scalar part first) */
  bool units;               /* the unit stage (a model from the bytes x = c pins) before Z3 */
  bool forall_slice;        /* the quantified stage's slice step before strip (a merged
                               state's last model, the question's group without the forall);
                               off by default: it gains little with the relaxed stage on
                               (eval/README.md); its requests once exposed wrong answers of
                               the per-cell encoding, since fixed (z3_backend.c); off, it
                               still runs where the last strip was dear (stage_quant.c) */
  bool incremental;         /* keep quantifier-free queries' common prefix asserted in Z3 */
  unsigned int_lanes;       /* a bit per request lane: whose incremental queries Z3 gets in
                               linear integer arithmetic first, when every operator has an
                               exact integer form (default: the relaxed stage's scalar parts,
                               64-bit bounds) */
  unsigned blast_max_bytes; /* in quantifier-free queries, arrays go to Z3 as byte constants
                               (their reads as ite chains) instead of the array theory when
                               their capacity is at most this or every read of them is at a
                               constant index (z3_backend.c); 0 = never */
  const char *smt2_dir;     /* NULL, or a directory (created if missing) receiving every query
                               that reaches Z3 as SMT-LIB 2 (KLEE's --write-smt2s); copied */
  /* appended (issue 26): Z3's random seed ("random_seed": the SMT core's and the SAT core's)
   * on every solver the Z3 stage makes. 0 is Z3's own default, so 0 changes nothing; another
   * seed moves Z3's effort the way a different query order would, which is what tells noise
   * in a ratio of efforts from cost. The same seed twice gives the same run. */
  unsigned z3_seed;
} qs_options;

typedef struct qsolver qsolver;

/* Every stage on, a 10 s timeout for both kinds of query (a path whose query takes longer
 * ends as unknown instead of stalling the run), fallback both, no validation, no dumps. */
qs_options qs_default_options(void);
qsolver *qs_new(const qs_options *opt /* NULL = qs_default_options() */);
void qs_free(qsolver *s); /* NULL is allowed */
/* Sets opt.smt2_dir (copied; NULL: no dumps) after qs_new, before the first query: for a
 * caller that builds the solver before the directory's name is known (symq run builds it
 * while clang compiles the input, before the output directory exists). */
void qs_set_smt2_dir(qsolver *s, const char *dir);
/* Changes the per-query timeout for the queries that follow (0 = no limit); the timeout of
 * quantified queries (quant_timeout_ms) stays as qs_new set it. */
void qs_set_timeout(qsolver *s, unsigned timeout_ms);
/* Bounds the queries that follow by left_ms from now as well (what --max-time leaves): the
 * deadline of every Z3 check, quantified or not, whose own timeout (as qs_new set it) stays;
 * a query's many checks (the quantified procedure's) together cannot outlast it; a check
 * that would start after it is not made. A check the deadline cut, or would have, ends
 * unknown with "timeout (the run's time limit)". */
void qs_set_time_left(qsolver *s, unsigned left_ms);
/* qs_last_reason of a query whose check that deadline (or the interrupt flag below) cut */
#define QS_REASON_RUN_LIMIT "timeout (the run's time limit)"
/* flag (NULL: none; borrowed, e.g. set by a signal handler): a query during which it turns
 * non-zero makes no further Z3 check (its answer is unknown, a timeout, never a guess), so
 * that a SIGTERM in a quantified query ends the query within one check. Queries that start
 * with the flag already set run as usual (the halt's tests), under qs_set_time_left. */
void qs_set_interrupt(qsolver *s, volatile sig_atomic_t *flag);

/* ---- the primitive request ---------------------------------------------------------------
 * A conjunction of formulas. The first `assumed` of them are known to be jointly
 * satisfiable (the path condition); the rest are the question. Independence slicing keeps
 * only the groups of formulas that touch a question formula or a requested array. */
typedef struct qs_query {
  expr *const *formulas;
  size_t count;
  size_t assumed; /* ≤ count; 0 = assume nothing */
  bool want_model;
  expr_array *const *arrays; /* the arrays the model must bind; may be NULL when narrays=0 */
  size_t narrays;
} qs_query;

typedef struct qs_result {
  qs_status status;
  const char *reason;     /* "" unless QS_UNKNOWN; valid until the next call on s */
  expr_assignment *model; /* see the contract; NULL unless want_model and QS_SAT */
} qs_result;

qs_status qs_solve(qsolver *s, const qs_query *q, qs_result *r);

/* ---- the operations the engine uses --------------------------------------------------------
 * Each returns QS_UNKNOWN when the question could not be decided (then *out is untouched).
 * must/may return the status of the underlying query (constraints ∧ ¬e, constraints ∧ e)
 * and set *out. get_value/get_model return QS_SAT with *out set, or QS_UNSAT when the
 * constraints (the part relevant to e / the arrays) turned out unsatisfiable. */
qs_status qs_check_sat(qsolver *s, expr *const *constraints, size_t n);
qs_status qs_must_be_true(qsolver *s, expr *const *constraints, size_t n, expr *e, bool *out);
qs_status qs_may_be_true(qsolver *s, expr *const *constraints, size_t n, expr *e, bool *out);
/* e: any width, no free bound variable. */
qs_status qs_get_value(qsolver *s, expr *const *constraints, size_t n, expr *e, u128 *out);
qs_status qs_get_model(qsolver *s, expr *const *constraints, size_t n, expr_array *const *arrays,
                       size_t narrays, expr_assignment **out);
/* Why the last call gave QS_UNKNOWN ("timeout", "z3 error: model: …", "z3: <reason>"), or "". */
const char *qs_last_reason(const qsolver *s);

/* ---- counters, for stats.json's queries_by_stage ----------------------------------------
 * Per stage: requests that entered it, those it answered itself (the rest it forwarded),
 * the answers it gave by status, formulas it dropped (constant, independence), the time
 * spent in the stage itself, excluding the stages after it, and the slowest request and
 * those over 1 s. Stage names: "constant", "independence", "validity_cache", "cex_cache",
 * "relaxed", "quantified_procedure", "z3"; a stage switched off is absent. (The relaxed
 * stage's "answered" counts the requests it answered from its own sub-requests. The
 * quantified stage forwards every query it gets, so its own "answered" stays 0; what it did
 * is in qs_quant_stats.) */
typedef struct qs_stage_stats {
  const char *name;
  uint64_t queries, answered, sat, unsat, unknown, formulas_dropped;
  uint64_t in_integers; /* Z3's: the requests it decided in linear integer arithmetic */
  uint64_t simplified;  /* Z3's: the terms it simplified when translating them (z3_backend.c) */
  double seconds;
  /* Per request, in this stage and the ones after it (so the first stage's are the whole
   * queries'): the longest time, and the number of requests that took over 1 s. */
  double slowest_seconds;
  uint64_t over_1s;
  /* Of the queries holding a forall that came from outside the solver (qs_quant_stats.asked),
   * those whose forall this stage decided: the innermost stage that answered a request
   * holding the forall by itself (the quantified stage for every answer it gave), else the
   * innermost one whose request held it and whose answer did without it (independence,
   * when it drops the forall's group or another group is unsat first). Each asked query
   * is counted by exactly one stage: the sum over the stages is qs_quant_stats.asked. */
  uint64_t forall_decided;
  /* appended (issue 26): Z3's: models whose construction faulted inside libz3 (z3_guard.h),
   * each answered again by a solver with no history, or unknown ("z3 crashed building a
   * model") */
  uint64_t model_faults;
  /* appended (issue 26): Z3's: the requests the lane's core gave up on, bit-blasted in a
   * context of their own (z3_backend.c, solve_alone), and Z3's effort on them */
  uint64_t alone, alone_effort;
} qs_stage_stats;

size_t qs_stage_count(const qsolver *s);
const qs_stage_stats *qs_stage_at(const qsolver *s, size_t i);      /* in chain order */
const qs_stage_stats *qs_stats(const qsolver *s, const char *name); /* NULL when absent */

/* ---- the quantified stage's counters (stats.json's "quantified") ----------------------
 * asked: queries holding a forall that came from outside the solver (the engine's, merge
 * validation's), each counted once, whichever stages then saw it; asked_unknown: those of
 * them answered unknown; which stage decided each is qs_stage_stats.forall_decided.
 * queries: requests holding a forall that reached the quantified stage — procedure runs,
 * the relaxed stage's sub-requests included, so not the engine's count;
 * answered[step]: those each
 * step answered, sat or unsat (strip, duplicate, repair and the expansion answer sat only
 * with a model that satisfies the whole query under evaluation; Z3's fallback answer is
 * taken as Z3 gives it); unknown: those none answered; seconds[step]:
 * time spent in each step, including the Z3 calls it made; effort[step]: the same calls'
 * Z3 effort (qs_effort), deterministic; disagreements: answers (its own,
 * the caches' and the relaxed stage's) that --validate-qsolver found contradicted by Z3 on
 * the expanded query (by Z3 on the query for the relaxed stage's when the quantified stage
 * is off).
 * --validate-qsolver's re-checks: rechecked: answers re-checked (the quantified stage's,
 * the relaxed stage's, and those the validity and counterexample caches gave to a request
 * holding a forall);
 * rechecked_from_cache: those of them from the caches; recheck_unknown: re-checks that
 * came back unknown (the answer neither confirmed nor contradicted; each is reported on
 * stderr); models_unconfirmed: models from the Z3 fallback, a cache or the relaxed stage
 * that do not satisfy
 * the expansion (or, when none is proved bounded, the query) under evaluation — reported
 * on stderr, not counted as disagreements: evaluation reads a byte past an array's capacity
 * as 0 where Z3's model may not. */
typedef enum qs_qstep {
  QS_QSTEP_SLICE,
  QS_QSTEP_STRIP,
  QS_QSTEP_DUPLICATE,
  QS_QSTEP_REPAIR,
  QS_QSTEP_FALLBACK_EXPAND,
  QS_QSTEP_FALLBACK_Z3,
  QS_QSTEP_COUNT
} qs_qstep;
typedef struct qs_quant_stats {
  uint64_t queries, answered[QS_QSTEP_COUNT], unknown, disagreements;
  double seconds[QS_QSTEP_COUNT];
  uint64_t asked, asked_unknown;
  uint64_t rechecked, rechecked_from_cache, recheck_unknown, models_unconfirmed;
  /* appended (issue 26): Z3's effort (qs_effort) spent in each step, its Z3 calls included —
   * seconds[step]'s deterministic twin, so that a run's quantified cost can be compared by
   * step across machines and loads */
  uint64_t effort[QS_QSTEP_COUNT];
  /* appended (issue 26): over every stripped query, its quantifier-free conjuncts and the
   * instances strip added to them — what a merged state's question hands Z3 besides its
   * path (libpng text at capacity 40 under pat: 41 instances to 29 conjuncts a query) */
  uint64_t strip_conjuncts, strip_instances;
  /* appended (issue 26): over every stripped query, the clauses strip did without — a
   * rescan's, replaced by the equality of its range with an earlier scan's (quant.c,
   * fold_rescans) */
  uint64_t strip_folded;
  /* appended (issue 26): scan equalities proved (stage_quant.c, scan_equal) — a merged
   * state's rescan of a copy equal in length to the scan of the original */
  uint64_t scan_lemmas;
  /* appended (issue 26): requests whose slice step ran, though off, because the last strip
   * on their first forall was dear (stage_quant.c, dear_strip) */
  uint64_t slice_dear;
} qs_quant_stats;
/* "slice", "strip", "duplicate", "repair", "fallback_expand", "fallback_z3". */
const char *qs_qstep_name(qs_qstep step);
const qs_quant_stats *qs_quant_stats_of(const qsolver *s); /* all zero when the stage is off */

/* Writes the solver's members of stats.json into the JSON object open in j, in this order:
 * "queries" (whole requests), "queries_by_stage" ({stage: {"queries", "answered", "sat",
 * "unsat", "unknown", "seconds", "slowest_s", "over_1s"}, …} in chain order, Z3's with
 * "in_integers", "simplified", "alone", "alone_effort" and "model_faults" too), "quantified"
 * (qs_quant_stats: "queries", "answered", "seconds" and "effort" by step, "unknown",
 * "disagreements"), "solver_time_s" (every stage's own time, summed), "slowest_query_s" and
 * "queries_over_1s" (whole requests), "solver_effort" (qs_effort). */
void qs_write_stats(json_writer *j, const qsolver *s);

/* ---- appended (issue 26: solver effort) -----------------------------------------------------
 * The solver's effort so far: Z3's resource count ("rlimit count", the steps its solvers took)
 * summed over every query that reached Z3 since qs_new — a running total that never
 * decreases. Deterministic where time is not: the same queries in the same order give the
 * same total (timeouts aside), so the engine may decide on it (merge/region.c gives a region
 * up when its states cost too much of it). Reading it costs a few Z3 calls, none per query;
 * stats.json has it as "solver_effort". */
uint64_t qs_effort(const qsolver *s);

/* ---- appended (issue 26: what a quantified query costs against a plain one) --------------
 * The engine's queries (qs_solve calls from outside the solver) split by whether they hold a
 * forall, with the effort (qs_effort) each part cost: queries and effort count every outside
 * query, forall_queries and forall_effort those holding a forall (so a plain query's mean
 * effort is (effort − forall_effort) / (queries − forall_queries)). --validate-qsolver's
 * re-checks are left out of both efforts, so the split is the same with validation on or
 * off, and so are the queries asked between qs_effort_split_exclude(s, true) and (s, false)
 * (nested pairs allowed: --validate-merges' checks, which are no query of a path).
 * Deterministic as qs_effort is; stats.json has it as "effort_split" (after
 * "solver_effort"), and the merge decision reports the ratio of the two means with its
 * estimate (merge/decide.c). A forall query, or one excluded, costs two qs_effort reads. */
typedef struct qs_effort_split {
  uint64_t queries, forall_queries;
  uint64_t effort, forall_effort;
  /* appended (issue 26, CFG merges' cost): of the forall-free measured queries, those asked
   * while the engine's tag was on (qs_effort_split_tag) and their effort — the engine tags
   * the queries of states that descend from a CFG merge, so that a merge decision can read
   * what such a state's query cost Z3 against any other plain query */
  uint64_t tagged_queries, tagged_effort;
} qs_effort_split;
qs_effort_split qs_effort_split_of(const qsolver *s);
void qs_effort_split_exclude(qsolver *s, bool on);
/* The queries asked from now on are tagged (on) or not; a tagged plain query costs two
 * qs_effort reads, as a forall one does. */
void qs_effort_split_tag(qsolver *s, bool on);

#endif
