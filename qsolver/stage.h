/*
 * stage.h — private to qsolver/: the stage vtable, the request that travels down the chain,
 * and the small helpers the stages share.
 *
 * A stage receives a request, and either answers it or forwards it (possibly rewritten,
 * possibly as several requests) to `next` through qs_forward. The runner (qs_stage_run)
 * does the bookkeeping, so a stage's code only decides.
 *
 * Model invariant between stages: when a request wants a model and the answer is QS_SAT,
 * ans->model satisfies the request's formulas under expr_eval semantics (unbound arrays
 * and bytes read as 0). It may bind arrays the request does not mention (a cached model
 * from another query); whoever merges models restricts them to the arrays that matter.
 */
#ifndef SYMQ_QSOLVER_STAGE_H
#define SYMQ_QSOLVER_STAGE_H

#include "qsolver/qsolver.h"
#include "engine/core/hashmap.h"

#include <stdlib.h>
#include <string.h>

typedef struct qs_req {
  expr *const *f; /* borrowed, width 1 */
  size_t n;
  size_t assumed; /* f[0..assumed) jointly satisfiable by precondition */
  bool want_model;
  expr_array *const *arrays; /* arrays the caller will read from the model */
  size_t narrays;
  unsigned lane; /* < QS_LANES: which incremental Z3 solver takes it, so that a
                    stage's own sequence of growing requests keeps its common
                    prefix asserted apart from the others (0: the engine's) */
  /* appended (issue 25): f[0..same) are the formulas (alive, at the same places) of the
   * previous request of the same source: for the constant stage, the last request qs_solve
   * sent down the chain (qs_solve sets it); for the independence stage, the last request the
   * constant stage forwarded with a path (the constant stage sets it); 0 elsewhere. So that
   * neither stage needs to read its path's prefix to know it stood. */
  size_t same;
} qs_req;

/* Request lanes: the engine's requests (and everything built from them), the relaxed stage's
 * scalar parts, its fixed requests (which share no prefix: Z3 solves them anew, with no
 * incremental solver, z3_backend.c), and the components of its scalar parts (a question's
 * component grows by the question at the end of the path condition's). */
enum { QS_LANE_MAIN, QS_LANE_SCALAR, QS_LANE_FIXED, QS_LANE_PART, QS_LANES };

typedef struct qs_ans {
  qs_status status;
  const char *reason;     /* static, or a buffer of the solver; "" unless unknown */
  expr_assignment *model; /* owned; only when want_model and QS_SAT */
} qs_ans;

typedef struct qs_stage qs_stage;

typedef struct qs_stage_ops {
  const char *name;
  void (*solve)(qs_stage *st, const qs_req *rq, qs_ans *ans);
  void (*destroy)(qs_stage *st);
} qs_stage_ops;

struct qs_stage {
  const qs_stage_ops *ops;
  qs_stage *next; /* NULL for the last stage (Z3) */
  qsolver *solver;
  qs_stage_stats stats;
  double down_seconds;  /* spent in `next` during the current call */
  unsigned forwarded;   /* calls to `next` during the current call */
  bool answered_itself; /* set by a stage whose answer is its own although it forwarded
                           requests of its own making (the relaxed stage) */
};

#define QS_MAX_STAGES 8

struct qsolver {
  qs_options opt;
  char *smt2_dir;
  qs_stage *stages[QS_MAX_STAGES];
  size_t nstages;
  const char *last_reason;
  qs_quant_stats quant;     /* kept by the quantified stage */
  qs_stage *forall_decider; /* the stage that decided the current outside query's forall */
  double deadline;          /* qs_now() past which no Z3 check starts (INFINITY: none) */
  volatile sig_atomic_t *interrupted; /* qs_set_interrupt's flag, or NULL */
  bool interrupted_at_start;          /* the flag was set when the outside query began */
  unsigned depth;                     /* qs_solve calls under way (1: an outside query) */
  /* appended (issue 26): qs_effort_split's counts; the effort it leaves out —
   * --validate-qsolver's re-checks (stage_quant.c) and the queries asked under
   * qs_effort_split_exclude — and how many exclusions are under way */
  qs_effort_split split;
  uint64_t unmeasured_effort;
  unsigned excluded;
  bool query_forall; /* the query qs_solve runs holds a forall */
  bool effort_tag;   /* appended (issue 26): qs_effort_split_tag's */
  /* appended (issue 25): solve_with's buffer for an outside query's constraints and
   * question, kept from one query to the next (a path's queries are as long as the path) */
  expr **with;
  size_t with_cap;
  /* appended (issue 25): the ids of the last request qs_solve sent down the chain and the
   * position of its first formula holding a forall (SIZE_MAX: none), so that the next one
   * checks only the formulas past their common prefix (and tells the chain how long it is:
   * qs_req.same) */
  uint64_t *vids;
  size_t nvids, vids_cap, vforall;
};

/* The stages, each in its own file; qs_new assembles them. */
qs_stage *qs_constant_stage_new(qsolver *s);
qs_stage *qs_independence_stage_new(qsolver *s);
qs_stage *qs_validity_stage_new(qsolver *s);
qs_stage *qs_cex_stage_new(qsolver *s);
qs_stage *qs_relax_stage_new(qsolver *s);
qs_stage *qs_quant_stage_new(qsolver *s);
qs_stage *qs_units_stage_new(qsolver *s);
qs_stage *qs_z3_stage_new(qsolver *s);
/* appended (effort): the Z3 stage's resource count so far (qs_effort, qsolver.h) */
uint64_t qs_z3_effort(const qs_stage *z3);

void qs_stage_run(qs_stage *st, const qs_req *rq, qs_ans *ans);
void qs_forward(qs_stage *st, const qs_req *rq, qs_ans *ans);

static inline void qs_ans_init(qs_ans *a) {
  a->status = QS_UNKNOWN;
  a->reason = "";
  a->model = NULL;
}
static inline void qs_ans_clear(qs_ans *a) {
  expr_assignment_free(a->model);
  qs_ans_init(a);
}

double qs_now(void);
/* The time limit (ms, 0: none) a Z3 check may have: the configured ms, cut to the solver's
 * deadline; *stop when the check must not run at all (deadline passed, or the interrupt
 * flag turned on during the current outside query). */
unsigned qs_check_limit(const qsolver *s, unsigned ms, bool *stop);
void *qs_xrealloc(void *p, size_t bytes);
/* Grows *v (elements of `size` bytes, capacity *cap) to hold at least `need`. */
void qs_reserve(void **v, size_t *cap, size_t need, size_t size);
#define QS_RESERVE(v, cap, need) qs_reserve((void **)&(v), &(cap), (need), sizeof *(v))

/* The formula ids of a request, sorted: the identity of the formula set (the constant stage
 * has removed duplicates). */
size_t qs_sorted_ids(const qs_req *rq, uint64_t **ids, size_t *cap);
/* A hash of the id sequence ids[0..n) (order counts), never 0. */
uint64_t qs_ids_hash(const uint64_t *ids, size_t n);
/* A 64-bit signature of an id set: a subset's bits are a subset of the superset's. */
uint64_t qs_ids_signature(const uint64_t *ids, size_t n);
bool qs_ids_subset(const uint64_t *a, size_t na, const uint64_t *b, size_t nb);
/* The positions i (ascending) of the ids[i] not in has[0..nh) (both sorted) into missing
 * (room for n); their count. Linear after the sets' common prefix, which is found by memcmp:
 * the requests of one path share most of their formulas with the ones cached before. */
size_t qs_ids_missing(const uint64_t *ids, size_t n, const uint64_t *has, size_t nh,
                      size_t *missing);

/* A map from expression ids (or any 64-bit id) to 64-bit values: an hmap whose keys are
 * id + 1 (hmap reserves 0), so a walk over `keys` reads ids back as keys[i] - 1. */
typedef hmap qs_idmap;
static inline bool qs_idmap_get(const qs_idmap *m, uint64_t id, uint64_t *val) {
  return hmap_get(m, id + 1, val);
}
static inline void qs_idmap_put(qs_idmap *m, uint64_t id, uint64_t val) { /* or replaces */
  hmap_put(m, id + 1, val);
}
static inline void qs_idmap_erase(qs_idmap *m, uint64_t id) { hmap_erase(m, id + 1); }
/* Empties the map, sized for about `expect` entries. */
static inline void qs_idmap_reset(qs_idmap *m, size_t expect) { hmap_reset(m, expect); }
static inline void qs_idmap_free(qs_idmap *m) { hmap_free(m); }

/* Formulas' cells (expr_collect_cells or expr_collect_value_cells), remembered by formula id
 * in one pool that starts over (deterministically) when it would pass QS_CELL_MEMO_MAX; a
 * formula of more cells than that is collected afresh each time. The cells returned stay
 * valid until the next call. Zero-initialized; qs_cell_memo_free releases it. */
#define QS_CELL_MEMO_MAX ((size_t)1 << 22)
typedef struct qs_cell_memo {
  qs_idmap map; /* formula id → offset << 24 | count in pool */
  uint64_t *pool, *collect;
  size_t npool, pool_cap, collect_cap;
} qs_cell_memo;
typedef void qs_cell_collector(expr *e, uint64_t **out, size_t *count, size_t *cap);
const uint64_t *qs_cell_memo_get(qs_cell_memo *m, expr *f, qs_cell_collector *collect,
                                 size_t *count);
void qs_cell_memo_free(qs_cell_memo *m);

/* Pushes e on the walk's stack (*stack[0..*depth), capacity *cap) unless seen has it, and
 * records it in seen: one visit per node of a DAG walked with an explicit stack. */
void qs_push_unseen(qs_idmap *seen, expr ***stack, size_t *depth, size_t *cap, expr *e);

/* Does any of f[0..n) read an array at a non-constant index (update lists' terms included)?
 * Such reads are what blasting turns into ite chains over the whole array. seen and the
 * stack (*stack, *cap) are the caller's scratch space. */
bool qs_reads_at_symbolic_index(expr *const *f, size_t n, qs_idmap *seen, expr ***stack,
                                size_t *cap);

/* True iff m satisfies every formula (a forall over a very long range counts as not). */
bool qs_model_satisfies(expr *const *f, size_t n, const expr_assignment *m);

/* A copy of m keeping only the bindings of arrays for which keep(array, ctx) holds. */
expr_assignment *qs_model_filter(const expr_assignment *m,
                                 bool (*keep)(const expr_array *a, void *ctx), void *ctx);
size_t qs_model_bytes(const expr_assignment *m);

#endif
