/*
 * z3_backend.c — the last stage: translates expressions to Z3 and solves.
 *
 * Translation
 *   - Width-1 expressions become Z3 Bools (so formulas assert directly and comparisons need
 *     no bit-vector wrapper); wider ones bit-vectors of their width. A width-1 operand of a
 *     bit-vector operator is converted with ite(b, #b1, #b0), and back with (= x #b1).
 *   - An array is an (Array (_ BitVec 64) (_ BitVec 8)) constant named after it (sanitised,
 *     suffixed by its id to stay unique); a constant array (init) is a store chain over a
 *     constant-0 array, storing only its non-zero bytes. An update list is a store chain,
 *     cached per update entry (each entry has one root array). A READ of width w is the
 *     concat of w/8 selects, the highest index most significant (little-endian).
 *   - FORALL(i, lo, hi, body) → Z3_mk_forall_const over ¬(lo ≤u i ∧ i ≤u hi) ∨ body, the
 *     bound variable being a Z3 constant of its width.
 *   - Iterative (explicit stack): path conditions can be deep DAGs.
 *   - Reference counting (Z3_mk_context_rc): every AST this file keeps is inc_ref'd: the
 *     per-node cache holds one reference per entry, and every intermediate AST of a query
 *     goes on a temporary list released when the query ends — so no AST created by one API
 *     call can be collected before the next call uses it. The cache is keyed by node id
 *     (never reused) and cleared between queries when it grows large.
 *
 * Blasting (quantifier-free queries only): a blasted array is one 8-bit constant per byte a
 * query reads (a constant array: its init bytes as numerals), created when first named and
 * shared by every query after; a read is an ite chain over the update list, newest write
 * first, down to the array's byte (0 past the capacity, as expr_eval reads), and a read at a
 * symbolic index is an ite over the whole capacity. Three encodings, each with its own caches
 * (use_encoding swaps them, so an AST of one never leaks into a query of another):
 *   - ENC_CELLS, tried first: every array is blasted, whatever its capacity, so a query pays
 *     for the bytes it reads, not for the arrays' sizes (the string scan of issue 25: one
 *     byte per step through the write s[n] = 0, pure bit-vectors on the incremental lanes,
 *     where the array theory took 11.5 s at capacity 262 against 0.3 s at 250). A read of an
 *     array larger than blast_max_bytes at a symbolic index (an ite over its whole capacity
 *     would cost what the array costs) marks its term and every term built on it, through a
 *     blasted read's index and its writes' indices and values too (a mark lost there once
 *     left that read's array-theory term beside the same array's cells, unrelated to them:
 *     wrong answers, test_qsolver's test_cells_mixed), and such a query is translated again
 *     in
 *   - ENC_BLAST: the arrays of at most blast_max_bytes (qs_options) are blasted, the larger
 *     ones stay in the array theory (qfa). blast_max_bytes = 0 blasts nothing: every query
 *     is in ENC_BLAST with no array blasted, the array theory throughout.
 *   - ENC_ARRAYS: quantified queries keep the array theory for every array but the small
 *     constant ones (is_blasted).
 * The encodings agree on every read within an array's capacity (test_qsolver compares them
 * with the array theory on random queries over arrays of 6 to 2000 bytes); a formula that
 * translates without array terms is the same Z3 term in ENC_CELLS and ENC_BLAST (the cells
 * are shared), so the lanes' scopes stay valid across both. Considered and not taken:
 * bounding a symbolic read's ite by the index's range on the path (a cached term would then
 * depend on the query it was built for) and Ackermannizing reads (per-query side
 * constraints against every other read, which the incremental lanes cannot keep in scopes).
 *
 * Solving: four solvers, none carrying Z3's "timeout" parameter (with it Z3 starts a timer
 * thread per check: most of a forking run's system time). Each check is armed instead on the
 * stage's watchdog (z3_watchdog.h: one thread, Z3_interrupt past the deadline) with
 * quant_timeout_ms (quant) or timeout_ms (the others), read from qs_options at every check;
 * an unknown from a check whose deadline passed is a "timeout", whatever reason Z3 gives
 * ("canceled", or "interrupted" from bvs).
 *   - quant (quantified queries) and qfa (quantifier-free ones that still need the array
 *     theory): Z3's simple solver (the SMT core, MBQI on by default), reset after every
 *     query (incremental scopes made array-theory queries slower: eval/bench_solver.py).
 *   - qf (the array-free others): the simple solver used incrementally: the formulas of the
 *     last query stay asserted, one scope each, and the next query pops back to the longest
 *     common prefix (the path condition the executor grows) and pushes the rest. There are
 *     LANE_WAYS qf per request lane (stage.h), so that the relaxed stage's scalar sequences
 *     keep their prefixes, and so do sequences that interleave on one lane (a request goes
 *     to the qf holding the longest prefix of it: lane_pick); the fixed lane's requests
 *     share none and go to bvs directly. It runs
 *     without relevancy propagation (QF_BV's setting) and with a budget of conflicts (a
 *     count, so the outcome is deterministic: QF_MAX_CONFLICTS, SCALAR_MAX_CONFLICTS on the
 *     scalar lane, doubled while under two per formula of the query: query_budget); past
 *     it, qf keeps its scopes for the next query and
 *   - bvs, a tactic solver (simplify → solve-eqs → bit-blast → sat), solves the query anew,
 *     and past ALONE_AFTER_EFFORT the same tactic solves it in a context of its own
 *     (solve_alone: its cost is then the query's alone, not the run's history). A lane whose
 *     core gave up starts over at its next unknown of any kind (a "canceled" from it is then
 *     not taken for a timeout: the tactic decides that query).
 * The QF_ABV tactic gives up on constant arrays as "incomplete", and the default solver's
 * preprocessing made eval/bench_qsolver 3-4× slower. unknown and timeout are answers (qf
 * starts over after one). A Z3 error handler records errors (the default one aborts the
 * process without a word); an error then stops the run with Z3's message (fatal_z3_error).
 *
 * Models: each array of the request is read back from the model by walking the value Z3
 * gives it (store chains over a constant array, or an as-array function interpretation);
 * anything else falls back to evaluating a select per byte, with model completion. A
 * blasted array gives the bytes of the request's cells (expr_collect_value_cells), or every
 * named byte when the request reads it as a whole; the rest, unconstrained, are 0. The model
 * is asked for under a fault guard (z3_guard.h: libz3 4.8.12 sometimes faults building it):
 * after a fault the solver is abandoned for a fresh one and the query solved again (remodel).
 */
#include "qsolver/stage.h"
#include "engine/core/xalloc.h"
#include "qsolver/z3_guard.h"
#include "qsolver/z3_int.h"
#include "qsolver/z3_watchdog.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <z3.h>

typedef struct z3_stage z3_stage;

/* The encodings of arrays (see the header): the array theory, byte constants for the small
 * arrays, byte constants for every array a query reads at constant indices only. */
enum { ENC_ARRAYS, ENC_BLAST, ENC_CELLS, ENC_COUNT };

/* One incremental quantifier-free solver and the formulas asserted in it, one scope each. */
typedef struct qf_lane {
  Z3_solver solver;
  unsigned budget; /* its core's conflicts per query before bvs takes over */
  unsigned limit;  /* the budget its solver carries now (UINT_MAX: to be set) */
  bool gave_up;    /* its core ran out of budget since the lane last started over */
  uint64_t *live;  /* ids of the formulas asserted, one scope each */
  size_t nlive, live_cap;
  uint64_t kept; /* the stage's query count when a query last kept some of its scopes */
} qf_lane;

/* Solvers per request lane (lane_pick). A lane's requests interleave sequences that share
 * no formula (a path condition's growing prefix between requests whose formulas are all
 * new): with one solver each such request popped the path's prefix, and the next query
 * on the path pushed it again. Three ways: pushes on libtasn1 get_tag_der (capacity 10,
 * DFS, merge none) 503 -> 354 in a replay of its requests' formula ids (2: 422; 4: 350). */
#define LANE_WAYS 3

struct z3_stage {
  qs_stage base;
  Z3_context ctx;
  Z3_solver quant;
  Z3_sort bool_sort, arr_sort, bv[129];
  Z3_ast one1, zero1;
  /* Caches; each value is (uintptr_t)ast | flag (ENC_ARRAYS: has a forall; ENC_BLAST: needs
   * the array theory; ENC_CELLS: reads a large array at a symbolic index, so the query is
   * translated again in ENC_BLAST), and holds one Z3 reference. */
  qs_idmap nodes;   /* expr id → AST */
  qs_idmap arrays;  /* array id → AST */
  qs_idmap updates; /* update id → the store chain ending at it */
  /* The other encodings' three caches each, parked while the current one is loaded above
   * (parked[enc] is stale for the loaded encoding). */
  int enc; /* ENC_ARRAYS, ENC_BLAST or ENC_CELLS: whose caches are loaded */
  qs_idmap parked[ENC_COUNT][3];
  /* ENC_BLAST and ENC_CELLS: the byte constants of blasted arrays, created when a query
   * first names them: cell_key(array, byte) → Z3 constant (one reference each). */
  qs_idmap cells;
  Z3_solver bvs; /* the bit-blasting tactic, for array-free queries qf gave up on */
  Z3_solver qfa; /* quantifier-free queries that need the array theory */
  bool incremental;
  uint64_t blast_max_bytes;
  qf_lane lanes[QS_LANES][LANE_WAYS]; /* qf: LANE_WAYS per request lane (qs_req.lane) */
  uint64_t queries;                   /* the queries lane_pick saw */
  /* The lanes of qs_options.int_lanes try linear integer arithmetic first (z3_int.h), in
   * one more incremental solver of their own. */
  unsigned int_lanes;
  z3_int *ints;
  qf_lane int_lane;
  /* Per query. */
  z3_refs tmp;
  expr **stack;
  size_t stack_cap;
  expr_update **ups;
  size_t ups_cap;
  expr_array **collect;
  size_t collect_cap;
  /* The arrays each formula reads, by formula id: value (start << 16 | count) into
   * array_pool. Expressions are immutable and ids never reused, so an entry stays true; the
   * pool holds no references (an entry is read only while its formula, which holds its
   * arrays, is alive). A model's formulas are mostly the last one's (chained memspn at
   * capacity 64: 15,277 walks for 327 models, 4% of the run). */
  qs_idmap array_memo;
  expr_array **array_pool, **one;
  size_t npool, pool_cap, one_cap;
  Z3_ast *asserted;
  size_t asserted_cap;
  uint8_t *bytes, *known;
  size_t bytes_cap, known_cap;
  uint64_t *read_cells; /* a model's request's cells (expr_collect_value_cells) */
  size_t read_cells_cap;
  /* Errors, set by the handler. */
  Z3_error_code err;
  char errmsg[160];
  char reason[200];
  /* the last check was bounded by the run's deadline (--max-time, a halt's budget), not by the
   * query's own timeout: its unknown is the run's limit, which the reason says */
  bool run_limited;
  uint64_t dumped;
  z3_watchdog *watchdog; /* the checks' time limit */
  z3_stage *next_live;
  Z3_solver probe; /* appended (effort): never checked; qs_z3_effort reads the context's
                      resource count through its (near empty) statistics */
  /* appended (issue 26): Z3 faulted building the last model (build_model); how many solvers
   * were abandoned after such a fault (abandon), which keeps the context from ever being
   * deleted (z3_guard.h) */
  bool faulted;
  unsigned abandoned;
  /* appended (issue 26): the context solve_alone made for the query it solves (NULL between
   * queries); the effort spent in such contexts, all deleted since, is in
   * base.stats.alone_effort */
  Z3_context alone;
};

/* The SMT core's conflict budget on an array-free query before the bit-blaster takes it
 * (a count, not a time, so that runs stay deterministic): eval/bench_solver.py measured
 * 100 against 30 and 1000 (README there). */
#define QF_MAX_CONFLICTS 100
/* … and on the relaxed stage's scalar lane, whose must-be-true questions on 64-bit bounds
 * (K1 + c against n, chained memspn) the core proves incrementally in a few hundred
 * conflicts, where bvs pays the whole query again: at capacity 64, 100 gave 5.50 G
 * instructions for the run, 1000 and 5000 gave 4.50 G (callgrind). */
#define SCALAR_MAX_CONFLICTS 1000
/* A lane's budget grows with its query, doubling from the lane's own until it reaches this
 * many conflicts per formula (at most LANE_MAX_CONFLICTS): past the budget bvs solves the
 * whole query anew, which costs what the query's length costs. The string scan's `i <= n`
 * at depth i is unsat only through the path's n != 0, ..., n != i - 1, which the core
 * refutes incrementally where bvs re-blasts the whole path (capacity 512: 11.3 s at 100,
 * 2.7 s now); a short query the core cannot finish (eval/drivers/array_offset.c) still goes
 * to bvs after 100 (a fixed 1000 or 3000 made that run 2x and 4.5x slower). Measured in
 * eval/README.md ("The SMT core's conflict budget"). */
#define LANE_CONFLICTS_PER_FORMULA 2
#define LANE_MAX_CONFLICTS 12800

/* Past this many cached nodes the cache is dropped between queries: Z3 memory otherwise
 * grows with the whole run. */
#define Z3_CACHE_MAX ((size_t)1 << 17)
/* … and the formulas whose arrays are memoized (array_memo). */
#define ARRAY_MEMO_MAX ((size_t)1 << 16)

/* ---- errors ---------------------------------------------------------------------------- */

/* Z3's handler gets no user pointer: find the stage by its context. */
static z3_stage *live_stages;

static void on_z3_error(Z3_context ctx, Z3_error_code code) {
  for (z3_stage *z = live_stages; z; z = z->next_live)
    if (z->ctx == ctx || z->alone == ctx) {
      if (z->err == Z3_OK) {
        z->err = code;
        snprintf(z->errmsg, sizeof z->errmsg, "%s", Z3_get_error_msg(ctx, code));
      }
      return;
    }
}

/* A Z3 error is a query symq built wrongly (an ill-sorted term, a bad parameter) or Z3
 * out of memory: never an answer. Quietly ending the path would hide a wrong verdict, so
 * the run stops here, in every build, with Z3's message. */
static _Noreturn void fatal_z3_error(const z3_stage *z) {
  fprintf(stderr, "symq: internal error: Z3 rejected a query: %s\n", z->errmsg);
  abort();
}

/* ---- references -------------------------------------------------------------------------- */

/* Takes a reference to a fresh AST until the end of the query. NULL (after an error) stays
 * NULL; callers check before passing it on, since Z3 does not check its arguments. */
static Z3_ast keep(z3_stage *z, Z3_ast a) {
  if (!a) {
    if (z->err == Z3_OK) {
      z->err = Z3_EXCEPTION;
      snprintf(z->errmsg, sizeof z->errmsg, "null AST");
    }
    return NULL;
  }
  return z3_refs_hold(z->ctx, &z->tmp, a);
}

static void release_tmp(z3_stage *z) { z3_refs_release(z->ctx, &z->tmp); }

/* a as Z3's rewriter leaves it (simplify_on_translate), held until the end of the query */
static Z3_ast simplified(z3_stage *z, Z3_ast a) {
  z->base.stats.simplified++;
  return keep(z, Z3_simplify(z->ctx, a));
}

static bool cache_get(const qs_idmap *m, uint64_t key, Z3_ast *ast, bool *forall) {
  uint64_t v;
  if (!qs_idmap_get(m, key, &v)) return false;
  *ast = (Z3_ast)(uintptr_t)(v & ~(uint64_t)1);
  if (forall) *forall = v & 1;
  return true;
}

static void cache_put(z3_stage *z, qs_idmap *m, uint64_t key, Z3_ast ast, bool forall) {
  assert(((uintptr_t)ast & 1) == 0);
  Z3_inc_ref(z->ctx, ast);
  qs_idmap_put(m, key, (uint64_t)(uintptr_t)ast | (forall ? 1 : 0));
}

static void cache_drop(z3_stage *z, qs_idmap *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) Z3_dec_ref(z->ctx, (Z3_ast)(uintptr_t)(m->vals[i] & ~(uint64_t)1));
  qs_idmap_free(m);
}

/* ---- translation ------------------------------------------------------------------------- */

/* Each bit-vector term of a quantifier-free encoding is simplified once, when its node is
 * translated, and cached so. Z3's solvers run its rewriter over every formula asserted, with
 * a cache that lives for one assertion, and a merged state's formulas share large DAGs (a
 * read at K + c is an ite over the buffer's capacity through its symbolic writes and the
 * merged cells' ite chains): each question re-simplified them whole, 3.3 M instructions per
 * assert on libpng text at capacity 20 under pat. A term built over simplified children is
 * cheap to simplify, and an asserted formula over simplified terms leaves the solver's
 * rewriter little to do (that run: 9.36 G -> 5.71 G instructions, eval/real/RESULTS.md).
 * The terms stay Z3's own rewrites, so the folding under known indices that keeps these
 * queries tractable is kept; naming subterms by fresh constants instead lost it (42× the
 * effort). Width-1 terms (Bools) are left to the solver: simplifying them too cost as much
 * as it saved. ENC_ARRAYS (quantified queries) is left as it was; flagged terms too (in
 * ENC_CELLS they are translated again, in ENC_BLAST they go to the array theory). */
static bool simplify_on_translate(const z3_stage *z, const expr *e, bool flag) {
  return z->enc != ENC_ARRAYS && !flag && e->width > 1 && e->nkids > 0;
}

static Z3_sort bv_sort(z3_stage *z, unsigned w) {
  assert(w >= 1 && w <= 128);
  if (!z->bv[w]) {
    z->bv[w] = Z3_mk_bv_sort(z->ctx, w);
    Z3_inc_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->bv[w]));
  }
  return z->bv[w];
}

static Z3_ast node_ast(z3_stage *z, const expr *e, bool *forall) {
  Z3_ast a = NULL;
  bool f = false;
  bool hit = cache_get(&z->nodes, e->id, &a, &f);
  assert(hit);
  (void)hit;
  if (forall) *forall |= f;
  return a;
}

static Z3_ast as_bv(z3_stage *z, Z3_ast a, unsigned width) {
  return width == 1 && a ? keep(z, Z3_mk_ite(z->ctx, a, z->one1, z->zero1)) : a;
}

static Z3_ast as_bool(z3_stage *z, Z3_ast a) {
  return a ? keep(z, Z3_mk_eq(z->ctx, a, z->one1)) : NULL;
}

static Z3_ast mk_const(z3_stage *z, unsigned w, u128 v) {
  if (w == 1) return keep(z, v ? Z3_mk_true(z->ctx) : Z3_mk_false(z->ctx));
  if (w <= 64) return keep(z, Z3_mk_unsigned_int64(z->ctx, (uint64_t)v, bv_sort(z, w)));
  char buf[48], *p = buf + sizeof buf;
  *--p = 0;
  do {
    *--p = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  return keep(z, Z3_mk_numeral(z->ctx, p, bv_sort(z, w)));
}

static Z3_symbol symbol(z3_stage *z, const char *prefix, const char *name, uint64_t id) {
  char buf[96];
  size_t n = (size_t)snprintf(buf, sizeof buf, "%s", prefix);
  for (const char *c = name ? name : ""; *c && n < 64; c++)
    buf[n++] = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                       *c == '_' || *c == '.'
                   ? *c
                   : '_';
  snprintf(buf + n, sizeof buf - n, "!%" PRIu64, id);
  return Z3_mk_string_symbol(z->ctx, buf);
}

static Z3_ast array_ast(z3_stage *z, expr_array *a) {
  Z3_ast r;
  if (cache_get(&z->arrays, a->id, &r, NULL)) return r;
  if (!a->init) {
    r = keep(z, Z3_mk_const(z->ctx, symbol(z, "", a->name, a->id), z->arr_sort));
  } else {
    Z3_ast zero = mk_const(z, 8, 0);
    r = zero ? keep(z, Z3_mk_const_array(z->ctx, bv_sort(z, 64), zero)) : NULL;
    for (uint64_t i = 0; r && i < a->capacity; i++) {
      if (!a->init[i]) continue;
      Z3_ast idx = mk_const(z, 64, i), val = mk_const(z, 8, a->init[i]);
      r = idx && val ? keep(z, Z3_mk_store(z->ctx, r, idx, val)) : NULL;
    }
  }
  if (r) cache_put(z, &z->arrays, a->id, r, false);
  return r;
}

/* Every update entry has one root array, so its id alone names the store chain. */
static uint64_t update_key(const expr_array *a, const expr_update *u) {
  assert(u->array == a);
  (void)a;
  return u->id;
}

/* The array as seen through its update list: a store chain, cached per suffix. */
static Z3_ast updated_array(z3_stage *z, expr_array *a, expr_update *updates, bool *forall) {
  size_t n = 0;
  Z3_ast base = NULL;
  bool f = false;
  expr_update *u = updates;
  for (; u; u = u->next) {
    if (cache_get(&z->updates, update_key(a, u), &base, &f)) break;
    QS_RESERVE(z->ups, z->ups_cap, n + 1);
    z->ups[n++] = u;
  }
  if (!u) base = array_ast(z, a);
  while (base && n-- > 0) {
    u = z->ups[n];
    Z3_ast idx = node_ast(z, u->index, &f), val = node_ast(z, u->value, &f);
    base = keep(z, Z3_mk_store(z->ctx, base, idx, val));
    if (base) cache_put(z, &z->updates, update_key(a, u), base, f);
  }
  *forall |= f;
  return base;
}

/* ---- blasting: small arrays as byte constants -------------------------------------------- */

/* Is a read of array a at an index (constant or not) a read of its byte constants? In
 * ENC_ARRAYS only a small constant array is: a lookup table (APR's test_char_table, 256
 * bytes) read at a symbolic index as a store chain cost Z3's array theory seconds on a
 * stripped query of a dozen conjuncts (apr_escape_shell: 6.4 s), as an ite over its non-zero
 * bytes milliseconds. Its bytes are numerals, so no array-theory term of the same array can
 * disagree with them. */
static bool is_blasted(const z3_stage *z, const expr_array *a, bool index_const) {
  if (z->enc == ENC_ARRAYS) return a->init && a->capacity <= z->blast_max_bytes;
  return a->capacity <= z->blast_max_bytes || (z->enc == ENC_CELLS && index_const);
}

/* Byte k of array a: its init byte as a numeral, or an 8-bit constant named after the
 * array and the byte, created on first use and kept (one reference) until the caches are
 * dropped. Only the bytes a query names exist, so a 4096-byte array read at three constant
 * indices costs three constants. */
static uint64_t cell_key(const expr_array *a, uint64_t k) {
  assert(k < ((uint64_t)1 << 31));
  return (uint64_t)a->id << 32 | (uint64_t)1 << 31 | k; /* never 0, the empty key */
}

static Z3_ast blast_cell(z3_stage *z, expr_array *a, uint64_t k) {
  assert(k < a->capacity);
  uint64_t key = cell_key(a, k), v;
  if (qs_idmap_get(&z->cells, key, &v)) return (Z3_ast)(uintptr_t)v;
  Z3_ast b;
  if (a->init) {
    b = Z3_mk_unsigned_int64(z->ctx, a->init[k], bv_sort(z, 8));
  } else {
    char prefix[32];
    snprintf(prefix, sizeof prefix, "b%" PRIu64 "_", k);
    b = Z3_mk_const(z->ctx, symbol(z, prefix, a->name, a->id), bv_sort(z, 8));
  }
  if (!b) { /* the error is reported by the handler */
    if (z->err == Z3_OK) z->err = Z3_EXCEPTION;
    return NULL;
  }
  Z3_inc_ref(z->ctx, b);
  qs_idmap_put(&z->cells, key, (uint64_t)(uintptr_t)b);
  return b;
}

/* The cell if a query named it (else NULL: the byte is unconstrained). */
static Z3_ast named_cell(const z3_stage *z, const expr_array *a, uint64_t k) {
  uint64_t v;
  return qs_idmap_get(&z->cells, cell_key(a, k), &v) ? (Z3_ast)(uintptr_t)v : NULL;
}

static void blast_drop(z3_stage *z) {
  for (size_t i = 0; i < z->cells.cap; i++)
    if (z->cells.keys[i]) Z3_dec_ref(z->ctx, (Z3_ast)(uintptr_t)z->cells.vals[i]);
  qs_idmap_free(&z->cells);
}

/* The byte of a blasted array at `at` through its update list: the newest write whose
 * index may equal `at` wins, as an ite chain down to the array's own byte (an ite over its
 * capacity when `at` is symbolic; 0 past the capacity, as expr_eval reads it). Writes at a
 * constant index other than a constant `at`, and writes whose index's known low bits
 * (at_bits, expr_known_low_bits) differ from `at`'s, are skipped; a write at the very same
 * index (the same Z3 term) ends the chain. *flag gathers the flags of the writes' indices
 * and values the chain takes in (a value may read a large array at a symbolic index: in
 * ENC_CELLS the query must then be translated again, or that read's array-theory term would
 * sit beside the same array's cells, unrelated to them). */
static Z3_ast blast_select(z3_stage *z, expr_array *a, expr_update *ups, Z3_ast at, bool at_const,
                           uint64_t at_value, expr_low_bits at_bits, bool *flag) {
  Z3_ast r = NULL;
  size_t n = 0;
  for (expr_update *u = ups; u; u = u->next) {
    if (at_const && u->index->kind == EXPR_CONST) {
      if ((uint64_t)u->index->u.value != at_value) continue;
      r = node_ast(z, u->value, flag);
      break;
    }
    if (expr_low_bits_differ(expr_known_low_bits(u->index), at_bits))
      continue;                              /* 8·i + 4 never meets 8·j + 1 */
    if (node_ast(z, u->index, NULL) == at) { /* at's own flag is the caller's */
      r = node_ast(z, u->value, flag);
      break;
    }
    QS_RESERVE(z->ups, z->ups_cap, n + 1);
    z->ups[n++] = u;
  }
  if (!r && at_const) {
    r = at_value < a->capacity ? blast_cell(z, a, at_value) : mk_const(z, 8, 0);
  } else if (!r) {
    r = mk_const(z, 8, 0);
    for (uint64_t k = a->capacity; r && k-- > 0;) {
      if (a->init && !a->init[k]) continue;
      Z3_ast idx = mk_const(z, 64, k), cell = blast_cell(z, a, k);
      Z3_ast eq = idx && cell ? keep(z, Z3_mk_eq(z->ctx, at, idx)) : NULL;
      r = eq ? keep(z, Z3_mk_ite(z->ctx, eq, cell, r)) : NULL;
    }
  }
  while (r && n-- > 0) {
    expr_update *u = z->ups[n];
    Z3_ast eq = keep(z, Z3_mk_eq(z->ctx, at, node_ast(z, u->index, flag)));
    r = eq ? keep(z, Z3_mk_ite(z->ctx, eq, node_ast(z, u->value, flag), r)) : NULL;
  }
  return r;
}

static Z3_ast build_blasted_read(z3_stage *z, expr *e, bool *flag) {
  Z3_ast idx = node_ast(z, e->kid[0], flag);
  bool at_const = e->kid[0]->kind == EXPR_CONST;
  uint64_t base = at_const ? (uint64_t)e->kid[0]->u.value : 0;
  unsigned nbytes = e->width / 8;
  Z3_ast r = NULL;
  expr_low_bits index_bits = expr_known_low_bits(e->kid[0]);
  for (unsigned b = nbytes; b-- > 0;) {
    expr_low_bits at_bits = {(index_bits.value + b) & (((u128)1 << index_bits.known) - 1),
                             index_bits.known};
    Z3_ast at = idx;
    if (at_const) {
      at = mk_const(z, 64, base + b);
    } else if (b) {
      Z3_ast off = mk_const(z, 64, b);
      at = off ? keep(z, Z3_mk_bvadd(z->ctx, idx, off)) : NULL;
      /* as a write's index at idx + b is cached (simplify_on_translate), so that
       * blast_select meets that write by the very same term */
      if (at && simplify_on_translate(z, e, false)) at = simplified(z, at);
    }
    Z3_ast byte = at ? blast_select(z, e->u.read.array, e->u.read.updates, at, at_const, base + b,
                                    at_bits, flag)
                     : NULL;
    if (!byte) return NULL;
    r = r ? keep(z, Z3_mk_concat(z->ctx, r, byte)) : byte;
    if (!r) return NULL;
  }
  return r;
}

static Z3_ast build_read(z3_stage *z, expr *e, bool *forall) {
  if (is_blasted(z, e->u.read.array, e->kid[0]->kind == EXPR_CONST))
    return build_blasted_read(z, e, forall);
  /* in ENC_BLAST the flag marks a term that needs the array theory; in ENC_CELLS a term
   * that cannot be blasted (this array theory term is never asserted: z3_solve translates
   * the query again in ENC_BLAST) */
  if (z->enc != ENC_ARRAYS) *forall = true;
  Z3_ast arr = updated_array(z, e->u.read.array, e->u.read.updates, forall);
  Z3_ast idx = node_ast(z, e->kid[0], forall);
  unsigned nbytes = e->width / 8;
  assert(nbytes >= 1 && nbytes * 8 == e->width);
  Z3_ast r = NULL;
  for (unsigned b = nbytes; arr && b-- > 0;) {
    Z3_ast at = idx;
    if (b) {
      Z3_ast off = mk_const(z, 64, b);
      at = off ? keep(z, Z3_mk_bvadd(z->ctx, idx, off)) : NULL;
    }
    Z3_ast sel = at ? keep(z, Z3_mk_select(z->ctx, arr, at)) : NULL;
    if (!sel) return NULL;
    r = r ? keep(z, Z3_mk_concat(z->ctx, r, sel)) : sel;
    if (!r) return NULL;
  }
  return r;
}

static Z3_ast build_forall(z3_stage *z, expr *e, bool *forall) {
  unsigned w = e->kid[0]->width;
  Z3_ast i = node_ast(z, e->kid[0], forall);
  Z3_ast lo = as_bv(z, node_ast(z, e->kid[1], forall), w);
  Z3_ast hi = as_bv(z, node_ast(z, e->kid[2], forall), w);
  Z3_ast body = node_ast(z, e->kid[3], forall);
  Z3_ast ib = as_bv(z, i, w);
  if (!lo || !hi || !ib) return NULL;
  Z3_ast pre[2] = {keep(z, Z3_mk_bvule(z->ctx, lo, ib)), keep(z, Z3_mk_bvule(z->ctx, ib, hi))};
  if (!pre[0] || !pre[1]) return NULL;
  Z3_ast in = keep(z, Z3_mk_and(z->ctx, 2, pre));
  Z3_ast out = in ? keep(z, Z3_mk_not(z->ctx, in)) : NULL;
  if (!out) return NULL;
  Z3_ast disj[2] = {out, body};
  Z3_ast impl = keep(z, Z3_mk_or(z->ctx, 2, disj));
  if (!impl) return NULL;
  Z3_app bound = Z3_to_app(z->ctx, i);
  *forall = true;
  return keep(z, Z3_mk_forall_const(z->ctx, 0, 1, &bound, 0, NULL, impl));
}

typedef Z3_ast (*z3_binop)(Z3_context, Z3_ast, Z3_ast);

static z3_binop bv_binop(expr_kind k) {
  switch (k) {
  case EXPR_ADD: return Z3_mk_bvadd;
  case EXPR_SUB: return Z3_mk_bvsub;
  case EXPR_MUL: return Z3_mk_bvmul;
  case EXPR_UDIV: return Z3_mk_bvudiv;
  case EXPR_SDIV: return Z3_mk_bvsdiv;
  case EXPR_UREM: return Z3_mk_bvurem;
  case EXPR_SREM: return Z3_mk_bvsrem;
  case EXPR_SHL: return Z3_mk_bvshl;
  case EXPR_LSHR: return Z3_mk_bvlshr;
  case EXPR_ASHR: return Z3_mk_bvashr;
  case EXPR_AND: return Z3_mk_bvand;
  case EXPR_OR: return Z3_mk_bvor;
  case EXPR_XOR: return Z3_mk_bvxor;
  case EXPR_ULT: return Z3_mk_bvult;
  case EXPR_ULE: return Z3_mk_bvule;
  case EXPR_UGT: return Z3_mk_bvugt;
  case EXPR_UGE: return Z3_mk_bvuge;
  case EXPR_SLT: return Z3_mk_bvslt;
  case EXPR_SLE: return Z3_mk_bvsle;
  case EXPR_SGT: return Z3_mk_bvsgt;
  case EXPR_SGE: return Z3_mk_bvsge;
  default: return NULL;
  }
}

/* Builds e, whose dependencies are all cached. */
static Z3_ast build(z3_stage *z, expr *e, bool *forall) {
  Z3_context c = z->ctx;
  unsigned w = e->width;
  Z3_ast a = NULL, b = NULL, d = NULL;
  if (e->kind != EXPR_READ && e->kind != EXPR_FORALL) {
    if (e->nkids > 0) a = node_ast(z, e->kid[0], forall);
    if (e->nkids > 1) b = node_ast(z, e->kid[1], forall);
    if (e->nkids > 2) d = node_ast(z, e->kid[2], forall);
  }
  unsigned wa = e->nkids > 0 ? e->kid[0]->width : 0;
  switch (e->kind) {
  case EXPR_CONST: return mk_const(z, w, e->u.value);
  case EXPR_READ: return build_read(z, e, forall);
  case EXPR_BVAR:
    return keep(z, Z3_mk_const(c, symbol(z, "i_", e->u.bvar.name, e->u.bvar.var),
                               w == 1 ? z->bool_sort : bv_sort(z, w)));
  case EXPR_FORALL: return build_forall(z, e, forall);
  case EXPR_NOT: return keep(z, w == 1 ? Z3_mk_not(c, a) : Z3_mk_bvnot(c, a));
  case EXPR_AND:
  case EXPR_OR:
  case EXPR_XOR:
  case EXPR_ADD:
  case EXPR_SUB:
  case EXPR_MUL:
    if (w == 1) {
      Z3_ast two[2] = {a, b};
      if (e->kind == EXPR_AND || e->kind == EXPR_MUL) return keep(z, Z3_mk_and(c, 2, two));
      if (e->kind == EXPR_OR) return keep(z, Z3_mk_or(c, 2, two));
      return keep(z, Z3_mk_xor(c, a, b)); /* xor, and add/sub modulo 2 */
    }
    /* fallthrough */
  case EXPR_UDIV:
  case EXPR_SDIV:
  case EXPR_UREM:
  case EXPR_SREM:
  case EXPR_SHL:
  case EXPR_LSHR:
  case EXPR_ASHR:
    if (w == 1) {
      Z3_ast x = as_bv(z, a, 1), y = as_bv(z, b, 1);
      return x && y ? as_bool(z, keep(z, bv_binop(e->kind)(c, x, y))) : NULL;
    }
    return keep(z, bv_binop(e->kind)(c, a, b));
  case EXPR_EQ:
  case EXPR_NE: {
    Z3_ast eq = keep(z, Z3_mk_eq(c, a, b));
    return e->kind == EXPR_EQ || !eq ? eq : keep(z, Z3_mk_not(c, eq));
  }
  case EXPR_ULT:
  case EXPR_ULE:
  case EXPR_UGT:
  case EXPR_UGE:
  case EXPR_SLT:
  case EXPR_SLE:
  case EXPR_SGT:
  case EXPR_SGE: {
    Z3_ast x = as_bv(z, a, wa), y = as_bv(z, b, wa);
    return x && y ? keep(z, bv_binop(e->kind)(c, x, y)) : NULL;
  }
  case EXPR_ZEXT:
  case EXPR_SEXT: {
    if (w == wa) return a;
    Z3_ast x = as_bv(z, a, wa);
    if (!x) return NULL;
    return keep(z,
                e->kind == EXPR_ZEXT ? Z3_mk_zero_ext(c, w - wa, x) : Z3_mk_sign_ext(c, w - wa, x));
  }
  case EXPR_EXTRACT: {
    if (w == wa) return a;
    unsigned lo = e->u.extract.lo;
    Z3_ast x = keep(z, Z3_mk_extract(c, lo + w - 1, lo, a));
    return w == 1 ? as_bool(z, x) : x;
  }
  case EXPR_CONCAT: {
    Z3_ast hi = as_bv(z, a, wa), lo = as_bv(z, b, e->kid[1]->width);
    return hi && lo ? keep(z, Z3_mk_concat(c, hi, lo)) : NULL;
  }
  case EXPR_ITE: return keep(z, Z3_mk_ite(c, a, b, d));
  case EXPR_KIND_COUNT: break;
  }
  assert(!"unknown expression kind");
  return NULL;
}

static void push(z3_stage *z, size_t *n, expr *e) {
  Z3_ast dummy;
  if (cache_get(&z->nodes, e->id, &dummy, NULL)) return;
  QS_RESERVE(z->stack, z->stack_cap, *n + 1);
  z->stack[(*n)++] = e;
}

/* Translates e (and everything under it) into the node cache; NULL after a Z3 error. */
static Z3_ast translate(z3_stage *z, expr *root, bool *forall) {
  size_t n = 0;
  push(z, &n, root);
  while (n) {
    expr *e = z->stack[n - 1];
    Z3_ast r;
    if (cache_get(&z->nodes, e->id, &r, NULL)) {
      n--;
      continue;
    }
    size_t before = n;
    if (e->kind == EXPR_READ) {
      push(z, &n, e->kid[0]);
      for (expr_update *u = e->u.read.updates;
           u && !cache_get(&z->updates, update_key(e->u.read.array, u), &r, NULL); u = u->next) {
        push(z, &n, u->index);
        push(z, &n, u->value);
      }
    } else {
      for (unsigned k = 0; k < e->nkids; k++) push(z, &n, e->kid[k]);
    }
    if (n != before) continue;
    bool f = false;
    r = build(z, e, &f);
    if (r && simplify_on_translate(z, e, f)) r = simplified(z, r);
    if (!r || z->err != Z3_OK) return NULL;
    cache_put(z, &z->nodes, e->id, r, f || e->kind == EXPR_FORALL);
    n--;
  }
  return node_ast(z, root, forall);
}

/* ---- models ----------------------------------------------------------------------------- */

static bool numeral_u64(z3_stage *z, Z3_ast a, uint64_t *out) {
  return a && Z3_is_numeral_ast(z->ctx, a) && Z3_get_numeral_uint64(z->ctx, a, out);
}

static Z3_decl_kind app_kind(z3_stage *z, Z3_ast a) {
  if (!Z3_is_app(z->ctx, a)) return Z3_OP_UNINTERPRETED;
  return Z3_get_decl_kind(z->ctx, Z3_get_app_decl(z->ctx, Z3_to_app(z->ctx, a)));
}

static void set_byte(z3_stage *z, uint64_t cap, Z3_ast idx, Z3_ast val) {
  uint64_t i, v;
  if (numeral_u64(z, idx, &i) && i < cap && !z->known[i] && numeral_u64(z, val, &v)) {
    z->bytes[i] = (uint8_t)v;
    z->known[i] = 1;
  }
}

/* Reads the model's bytes 0..capacity-1 of array a into z->bytes; false on a Z3 error. */
/* A blasted array's bytes from the model: those of cells[0..ncells) (the request's cells),
 * or every byte a query has named when the request reads the array as a whole; the others
 * are unconstrained by the request, 0. Asking for every named byte cost a model as much as
 * the bytes all earlier queries named (the string scan at capacity 1024: 45% of the run). */
static bool model_cells(z3_stage *z, Z3_model m, expr_array *a, const uint64_t *cells,
                        size_t ncells) {
  bool whole = false;
  for (size_t k = 0; k < ncells && !whole; k++)
    whole = expr_cell_array(cells[k]) == a->id && expr_cell_is_whole(cells[k]);
  for (uint64_t k = 0; k < (whole ? a->capacity : ncells); k++) {
    uint64_t i = k;
    if (!whole) {
      if (expr_cell_array(cells[k]) != a->id || expr_cell_is_whole(cells[k])) continue;
      i = (uint32_t)cells[k] - 1; /* expr_cell stores the byte + 1 */
      if (i >= a->capacity) continue;
    }
    Z3_ast cell = named_cell(z, a, i), bv = NULL;
    uint64_t dv;
    if (!cell) continue;
    if (!Z3_model_eval(z->ctx, m, cell, true, &bv) || !keep(z, bv) || !numeral_u64(z, bv, &dv))
      return false;
    z->bytes[i] = (uint8_t)dv;
  }
  return z->err == Z3_OK;
}

static bool model_array(z3_stage *z, Z3_model m, expr_array *a, const uint64_t *cells,
                        size_t ncells) {
  uint64_t cap = a->capacity;
  QS_RESERVE(z->bytes, z->bytes_cap, cap);
  QS_RESERVE(z->known, z->known_cap, cap);
  memset(z->bytes, 0, cap);
  memset(z->known, 0, cap);
  if (a->init) {
    memcpy(z->bytes, a->init, cap);
    return true;
  }
  if (z->enc != ENC_ARRAYS && (z->enc == ENC_CELLS || a->capacity <= z->blast_max_bytes)) {
    return model_cells(z, m, a, cells, ncells); /* blasted */
  }
  Z3_ast arr = array_ast(z, a), v = NULL;
  if (!arr || !Z3_model_eval(z->ctx, m, arr, true, &v) || !keep(z, v)) return false;
  int fill = -1; /* the value of every byte no store names, when known */
  /* Outer stores are the newer ones: the first store seen for an index wins. */
  while (app_kind(z, v) == Z3_OP_STORE) {
    Z3_app app = Z3_to_app(z->ctx, v);
    set_byte(z, cap, Z3_get_app_arg(z->ctx, app, 1), Z3_get_app_arg(z->ctx, app, 2));
    v = Z3_get_app_arg(z->ctx, app, 0);
  }
  Z3_decl_kind k = app_kind(z, v);
  uint64_t dv;
  if (k == Z3_OP_CONST_ARRAY) {
    if (numeral_u64(z, Z3_get_app_arg(z->ctx, Z3_to_app(z->ctx, v), 0), &dv)) fill = (int)dv;
  } else if (k == Z3_OP_AS_ARRAY) {
    Z3_func_decl fd = Z3_get_as_array_func_decl(z->ctx, v);
    Z3_func_interp fi = fd ? Z3_model_get_func_interp(z->ctx, m, fd) : NULL;
    if (fi) {
      Z3_func_interp_inc_ref(z->ctx, fi);
      unsigned ne = Z3_func_interp_get_num_entries(z->ctx, fi);
      for (unsigned j = 0; j < ne; j++) {
        Z3_func_entry fe = Z3_func_interp_get_entry(z->ctx, fi, j);
        Z3_func_entry_inc_ref(z->ctx, fe);
        set_byte(z, cap, Z3_func_entry_get_arg(z->ctx, fe, 0), Z3_func_entry_get_value(z->ctx, fe));
        Z3_func_entry_dec_ref(z->ctx, fe);
      }
      if (numeral_u64(z, Z3_func_interp_get_else(z->ctx, fi), &dv)) fill = (int)dv;
      Z3_func_interp_dec_ref(z->ctx, fi);
    }
  }
  for (uint64_t i = 0; i < cap; i++) {
    if (z->known[i]) continue;
    if (fill >= 0) {
      z->bytes[i] = (uint8_t)fill;
      continue;
    }
    /* A form we do not walk (a lambda, say): ask for the byte itself. */
    Z3_ast idx = mk_const(z, 64, i), sel = idx ? keep(z, Z3_mk_select(z->ctx, arr, idx)) : NULL;
    Z3_ast bv = NULL;
    if (!sel || !Z3_model_eval(z->ctx, m, sel, true, &bv) || !keep(z, bv) ||
        !numeral_u64(z, bv, &dv))
      return false;
    z->bytes[i] = (uint8_t)dv;
  }
  return z->err == Z3_OK;
}

static int cmp_array_id(const void *a, const void *b) {
  uint32_t x = (*(expr_array *const *)a)->id, y = (*(expr_array *const *)b)->id;
  return (x > y) - (x < y);
}

/* Adds the arrays f reads that z->collect[0..*n) lacks. */
static void formula_arrays(z3_stage *z, expr *f, size_t *n) {
  uint64_t v;
  if (!qs_idmap_get(&z->array_memo, f->id, &v)) {
    size_t count = 0;
    expr_collect_arrays(f, &z->one, &count, &z->one_cap);
    if (count >= ((size_t)1 << 16)) { /* too many to memoize: use them as they are */
      expr_collect_arrays(f, &z->collect, n, &z->collect_cap);
      return;
    }
    if (z->array_memo.count >= ARRAY_MEMO_MAX) {
      qs_idmap_reset(&z->array_memo, 1024);
      z->npool = 0;
    }
    QS_RESERVE(z->array_pool, z->pool_cap, z->npool + count);
    memcpy(z->array_pool + z->npool, z->one, count * sizeof *z->one);
    v = (uint64_t)z->npool << 16 | count;
    z->npool += count;
    qs_idmap_put(&z->array_memo, f->id, v);
  }
  expr_array *const *arrays = z->array_pool + (v >> 16);
  for (size_t k = 0; k < (v & 0xffff); k++) {
    size_t j = 0;
    while (j < *n && z->collect[j] != arrays[k]) j++;
    if (j == *n) {
      QS_RESERVE(z->collect, z->collect_cap, *n + 1);
      z->collect[(*n)++] = arrays[k];
    }
  }
}

/* Every array of the formulas (so that caches above hold complete models) and every
 * requested one. */
static expr_assignment *model_assignment(z3_stage *z, const qs_req *rq, Z3_model m, bool ints) {
  size_t n = 0;
  for (size_t i = 0; i < rq->n; i++) formula_arrays(z, rq->f[i], &n);
  qsort(z->collect, n, sizeof *z->collect, cmp_array_id);
  size_t ncells = 0;
  for (size_t i = 0; !ints && i < rq->n; i++)
    expr_collect_value_cells(rq->f[i], &z->read_cells, &ncells, &z->read_cells_cap);
  expr_assignment *out = expr_assignment_new();
  for (size_t i = 0; i < n; i++) {
    if (ints) /* model_array reserves its own */
      QS_RESERVE(z->bytes, z->bytes_cap, z->collect[i]->capacity);
    if (ints ? !z3_int_model_bytes(z->ints, m, z->collect[i], z->bytes)
             : !model_array(z, m, z->collect[i], z->read_cells, ncells)) {
      expr_assignment_free(out);
      out = NULL;
      break;
    }
    expr_assignment_set(out, z->collect[i], z->bytes, z->collect[i]->capacity);
  }
  return out;
}

static expr_assignment *build_model(z3_stage *z, const qs_req *rq, Z3_solver solver,
                                    bool ints /* solved in the integer encoding */) {
  Z3_model m = z3_guard_get_model(z->ctx, solver, &z->faulted);
  if (!m) return NULL; /* z->faulted: the caller abandons the solver */
  Z3_model_inc_ref(z->ctx, m);
  expr_assignment *out = model_assignment(z, rq, m, ints);
  Z3_model_dec_ref(z->ctx, m);
  return out;
}

/* ---- the stage ---------------------------------------------------------------------------- */

/* Context ctx's resource count (qs_z3_effort), read through solver s's statistics. */
static uint64_t rlimit_count(Z3_context ctx, Z3_solver s) {
  Z3_stats stats = Z3_solver_get_statistics(ctx, s);
  Z3_stats_inc_ref(ctx, stats);
  uint64_t count = 0;
  for (unsigned k = 0, n = Z3_stats_size(ctx, stats); k < n; k++)
    if (strcmp(Z3_stats_get_key(ctx, stats, k), "rlimit count") == 0) {
      count = Z3_stats_is_uint(ctx, stats, k) ? Z3_stats_get_uint_value(ctx, stats, k)
                                              : (uint64_t)Z3_stats_get_double_value(ctx, stats, k);
      break;
    }
  Z3_stats_dec_ref(ctx, stats);
  return count;
}

/* Writes the query before it is solved (so that a query that hangs is on disk), and leaves
 * it open for dump_result. */
static FILE *dump_smt2(z3_stage *z, const qs_req *rq) {
  const char *dir = z->base.solver->smt2_dir;
  if (!dir) return NULL;
  if (z->dumped == 0 && mkdir(dir, 0777) != 0 && errno != EEXIST)
    fprintf(stderr, "symq: cannot create %s: %s\n", dir, strerror(errno));
  char path[4096];
  snprintf(path, sizeof path, "%s/query%06" PRIu64 ".smt2", dir, ++z->dumped);
  FILE *f = fopen(path, "w");
  if (!f) return NULL;
  expr_print_smtlib(f, rq->f, rq->n);
  fflush(f);
  return f;
}

/* The answer and the stage's time, as a comment eval/bench_solver.py reads. */
static void dump_result(FILE *f, const qs_ans *ans, double seconds) {
  if (!f) return;
  static const char *const names[] = {"sat", "unsat", "unknown"};
  fprintf(f, "; symq: %s, %.6f s\n", names[ans->status], seconds);
  fclose(f);
}

static void unknown(z3_stage *z, qs_ans *ans, const char *what) {
  ans->status = QS_UNKNOWN;
  snprintf(z->reason, sizeof z->reason, "%s", what);
  ans->reason = z->reason;
}

/* max_conflicts: the SMT core's own parameter, set only when `conflicts` (qf's budget; 0
 * lifts it). No "timeout": the watchdog keeps time (check). */
static void set_limits(z3_stage *z, Z3_context ctx, Z3_solver s, unsigned max_conflicts,
                       bool conflicts) {
  Z3_params p = Z3_mk_params(ctx);
  Z3_params_inc_ref(ctx, p);
  /* Z3's check would take SIGINT itself (cancelling that query, the signal then lost to
   * symq, which halts the run on it): symq's handler must see every Ctrl-C */
  Z3_params_set_bool(ctx, p, Z3_mk_string_symbol(ctx, "ctrl_c"), false);
  /* --z3-seed (qs_options.z3_seed): both cores read "random_seed"; 0 is Z3's default, left
   * unset so that a run without the option is today's, bit for bit */
  unsigned seed = z->base.solver->opt.z3_seed;
  if (seed) Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "random_seed"), seed);
  if (conflicts) {
    Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "max_conflicts"),
                       max_conflicts ? max_conflicts : UINT_MAX);
    /* A lane's queries are pure bit-vectors, and QF_BV is the configuration Z3 would pick
     * for them were they not incremental (its logic detection runs only on a solver without
     * scopes): no relevancy propagation. Chained memspn at capacity 64: 4.50 G instructions
     * for the run -> 3.43 G (callgrind). */
    Z3_params_set_uint(ctx, p, Z3_mk_string_symbol(ctx, "relevancy"), 0);
  }
  Z3_solver_set_params(ctx, s, p);
  Z3_params_dec_ref(ctx, p);
}

static Z3_solver new_solver(z3_stage *z) {
  Z3_solver s = Z3_mk_simple_solver(z->ctx);
  Z3_solver_inc_ref(z->ctx, s);
  set_limits(z, z->ctx, s, 0, false);
  return s;
}

/* Checks solver s within ms milliseconds (0: no limit); *cut: its deadline passed (an
 * unknown is then a timeout; a sat or unsat that came first stands). */
static Z3_lbool check_in(z3_stage *z, Z3_context ctx, Z3_solver s, unsigned ms, bool *cut) {
  bool stop;
  unsigned limit = qs_check_limit(z->base.solver, ms, &stop);
  z->run_limited = stop || limit != ms;
  ms = limit;
  if (stop) { /* the run's deadline passed, or it was interrupted: no answer */
    *cut = true;
    return Z3_L_UNDEF;
  }
  z3_watchdog_arm_other(z->watchdog, ctx, ms);
  Z3_lbool r = Z3_solver_check(ctx, s);
  *cut = z3_watchdog_disarm(z->watchdog);
  return r;
}

static Z3_lbool check(z3_stage *z, Z3_solver s, unsigned ms, bool *cut) {
  return check_in(z, z->ctx, s, ms, cut);
}

/* Did Z3 give up on the check for want of time (cut: the watchdog's deadline passed)? */
static bool out_of_time_in(Z3_context ctx, Z3_solver s, bool cut) {
  if (cut) return true;
  const char *why = Z3_solver_get_reason_unknown(ctx, s);
  return why && (strstr(why, "timeout") || strstr(why, "canceled"));
}

static bool out_of_time(z3_stage *z, Z3_solver s, bool cut) {
  return out_of_time_in(z->ctx, s, cut);
}

/* The unknown that solver s's check in context ctx returned (cut: its deadline passed): a
 * timeout (or the run's limit, which a --validate-merges check reports), or Z3's reason. */
static void unknown_of_check(z3_stage *z, Z3_context ctx, Z3_solver s, bool cut, qs_ans *ans) {
  if (out_of_time_in(ctx, s, cut)) {
    unknown(z, ans, z->run_limited ? QS_REASON_RUN_LIMIT : "timeout");
    return;
  }
  const char *why = Z3_solver_get_reason_unknown(ctx, s);
  char msg[200];
  snprintf(msg, sizeof msg, "z3: %s", why ? why : "");
  unknown(z, ans, msg);
}

/* Loads the caches of encoding `enc`, parking the others. */
static void use_encoding(z3_stage *z, int enc) {
  if (z->enc == enc) return;
  qs_idmap *cur = z->parked[z->enc], *next = z->parked[enc];
  cur[0] = z->nodes;
  cur[1] = z->arrays;
  cur[2] = z->updates;
  z->nodes = next[0];
  z->arrays = next[1];
  z->updates = next[2];
  memset(next, 0, 3 * sizeof *next);
  z->enc = enc;
}

static void drop_caches(z3_stage *z) {
  cache_drop(z, &z->nodes);
  cache_drop(z, &z->updates);
  cache_drop(z, &z->arrays);
  if (z->enc != ENC_ARRAYS) blast_drop(z);
}

/* simplify → solve-eqs → bit-blast → sat: what the z3 command picks for QF_BV. */
static Z3_solver new_bv_solver(z3_stage *z, Z3_context ctx) {
  static const char *const steps[] = {"simplify", "solve-eqs", "bit-blast", "sat"};
  Z3_tactic t = NULL;
  for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
    Z3_tactic step = Z3_mk_tactic(ctx, steps[i]);
    Z3_tactic_inc_ref(ctx, step);
    if (!t) {
      t = step;
      continue;
    }
    Z3_tactic both = Z3_tactic_and_then(ctx, t, step);
    Z3_tactic_inc_ref(ctx, both);
    Z3_tactic_dec_ref(ctx, t);
    Z3_tactic_dec_ref(ctx, step);
    t = both;
  }
  Z3_solver s = Z3_mk_solver_from_tactic(ctx, t);
  Z3_tactic_dec_ref(ctx, t);
  Z3_solver_inc_ref(ctx, s);
  set_limits(z, ctx, s, 0, false);
  return s;
}

/* Starts a lane over (after its core gave up, an error, or dropped caches). */
static void lane_reset(z3_stage *z, qf_lane *ln) {
  Z3_solver_reset(z->ctx, ln->solver);
  ln->nlive = 0;
  ln->gave_up = false;
  ln->limit = UINT_MAX; /* set again with the next query's budget, to be safe */
}

/* ---- a fault building a model (z3_guard.h) ------------------------------------------------ */

/* Z3 faulted building a model on s: s is left as it is, for ever (its state is mid-way
 * through Z3's construction: a reset or dec_ref could fault again), and its place — a lane,
 * bvs, qfa or quant — gets a fresh solver, returned. */
static Z3_solver abandon(z3_stage *z, Z3_solver s) {
  z->base.stats.model_faults++;
  z->abandoned++;
  z->faulted = false;
  if (s == z->bvs) return z->bvs = new_bv_solver(z, z->ctx);
  if (s == z->qfa) return z->qfa = new_solver(z);
  if (s == z->quant) return z->quant = new_solver(z);
  qf_lane *ln = &z->int_lane;
  for (size_t l = 0; l < QS_LANES && ln->solver != s; l++)
    for (size_t w = 0; w < LANE_WAYS && ln->solver != s; w++) ln = &z->lanes[l][w];
  assert(ln->solver == s);
  ln->solver = new_solver(z);
  ln->nlive = 0;
  ln->gave_up = false;
  ln->limit = UINT_MAX; /* its budget is set with the next query */
  return ln->solver;
}

/* Z3 faulted building the model of rq's sat answer on `faulted`, which is abandoned; rq (its
 * formulas translated in z->asserted) is solved again, and its model built, on a solver with
 * no history of scopes: bvs for a quantifier-free array-free query (its model comes through
 * the SAT solver's model converter, not the SMT core's model generator, which faulted), the
 * fresh solver in the faulted one's place otherwise (smt: the query needs the SMT core). A
 * second fault, or anything but a model, makes the answer unknown, so that the path ends
 * early with the reason. Returns the solver the query was solved again on. */
static Z3_solver remodel(z3_stage *z, const qs_req *rq, Z3_solver faulted, bool smt, unsigned ms,
                         qs_ans *ans) {
  Z3_solver fresh = abandon(z, faulted), again = smt ? fresh : z->bvs;
  for (size_t i = 0; i < rq->n; i++) Z3_solver_assert(z->ctx, again, z->asserted[i]);
  bool timed = false;
  Z3_lbool r = z->err == Z3_OK ? check(z, again, ms, &timed) : Z3_L_UNDEF;
  if (z->err != Z3_OK) fatal_z3_error(z);
  if (r == Z3_L_TRUE) {
    ans->model = build_model(z, rq, again, false);
    if (ans->model) return again;
    if (z->err != Z3_OK) fatal_z3_error(z);
    if (z->faulted) {
      Z3_solver next = abandon(z, again);
      unknown(z, ans, "z3 crashed building a model");
      return next;
    }
  }
  char msg[200];
  snprintf(msg, sizeof msg, "z3 crashed building a model (solved again: %s)",
           r == Z3_L_TRUE                 ? "a byte did not evaluate to a numeral"
           : r == Z3_L_FALSE              ? "unsat"
           : out_of_time(z, again, timed) ? "timeout"
                                          : "unknown");
  unknown(z, ans, msg);
  return again;
}

/* How many of rq's first formulas lane ln holds as its first scopes. */
static size_t lane_prefix(const qf_lane *ln, const qs_req *rq) {
  size_t keep = 0;
  while (keep < ln->nlive && keep < rq->n && ln->live[keep] == rq->f[keep]->id) keep++;
  return keep;
}

/* The way of request lane `lane` that takes rq: the one holding the longest prefix of it
 * (the first on a tie); when none holds any, the one whose scopes were kept longest ago,
 * so that a request sharing nothing replaces the scopes least likely to serve again. */
static qf_lane *lane_pick(z3_stage *z, size_t lane, const qs_req *rq) {
  qf_lane *ways = z->lanes[lane], *best = &ways[0];
  size_t best_keep = lane_prefix(best, rq);
  for (size_t w = 1; w < LANE_WAYS; w++) {
    size_t keep = lane_prefix(&ways[w], rq);
    if (keep > best_keep || (best_keep == 0 && keep == 0 && ways[w].kept < best->kept)) {
      best = &ways[w];
      best_keep = keep;
    }
  }
  z->queries++;
  if (best_keep) best->kept = z->queries;
  return best;
}

/* Asserts asts[0..rq->n) on lane ln, keeping the scopes of the longest common prefix with
 * its last query (one scope per formula). */
static void lane_load(z3_stage *z, qf_lane *ln, const qs_req *rq, Z3_ast *asts) {
  size_t keep = lane_prefix(ln, rq);
  if (keep < ln->nlive) Z3_solver_pop(z->ctx, ln->solver, (unsigned)(ln->nlive - keep));
  QS_RESERVE(ln->live, ln->live_cap, rq->n);
  ln->nlive = keep;
  for (size_t i = keep; i < rq->n; i++) {
    Z3_solver_push(z->ctx, ln->solver);
    Z3_solver_assert(z->ctx, ln->solver, asts[i]);
    ln->live[ln->nlive++] = rq->f[i]->id;
  }
}

/* The conflict budget of lane ln's core on a query of n formulas: the lane's own, doubled
 * while under LANE_CONFLICTS_PER_FORMULA per formula (so that the solver's parameters change
 * a few times a run, not at every query); 0 (no limit) stays 0. */
static unsigned query_budget(const qf_lane *ln, size_t n) {
  uint64_t b = ln->budget, want = (uint64_t)LANE_CONFLICTS_PER_FORMULA * n;
  while (b && b < want && b * 2 <= LANE_MAX_CONFLICTS) b *= 2;
  return (unsigned)b;
}

/* The request in linear integer arithmetic on the int lane: true when that decided it
 * (ans is set). False when a formula has no integer form, or Z3 did not decide (the lane
 * then starts over): the request goes on in bit-vectors, so no question is lost to the
 * integer encoding. */
static bool solve_ints(z3_stage *z, const qs_req *rq, qs_ans *ans) {
  QS_RESERVE(z->asserted, z->asserted_cap, rq->n);
  for (size_t i = 0; i < rq->n; i++) {
    z->asserted[i] = z3_int_formula(z->ints, rq->f[i]);
    if (z->err != Z3_OK) fatal_z3_error(z);
    if (!z->asserted[i]) return false;
  }
  qf_lane *ln = &z->int_lane;
  lane_load(z, ln, rq, z->asserted);
  bool cut = false; /* any unknown, a timeout too, sends the request on to bit-vectors */
  Z3_lbool r =
      z->err == Z3_OK ? check(z, ln->solver, z->base.solver->opt.timeout_ms, &cut) : Z3_L_UNDEF;
  if (z->err != Z3_OK) fatal_z3_error(z);
  if (r == Z3_L_FALSE) {
    ans->status = QS_UNSAT;
    return true;
  }
  if (r == Z3_L_TRUE) {
    expr_assignment *model = rq->want_model ? build_model(z, rq, ln->solver, true) : NULL;
    if (z->err != Z3_OK) fatal_z3_error(z);
    if (!rq->want_model || model) {
      ans->status = QS_SAT;
      ans->model = model;
      return true;
    }
    if (z->faulted) { /* the lane starts over on a fresh solver; bit-vectors decide */
      abandon(z, ln->solver);
      return false;
    }
  }
  lane_reset(z, ln);
  return false;
}

/* What every query ends with. */
static void end_query(z3_stage *z, FILE *dump, const qs_ans *ans, double t0) {
  release_tmp(z);
  z->err = Z3_OK;
  dump_result(dump, ans, qs_now() - t0);
  if (z->nodes.count > Z3_CACHE_MAX) {
    drop_caches(z);
    for (size_t l = 0; l < QS_LANES; l++)
      for (size_t w = 0; w < LANE_WAYS; w++) lane_reset(z, &z->lanes[l][w]);
  }
  if (z3_int_size(z->ints) > Z3_CACHE_MAX) {
    z3_int_clear(z->ints);
    lane_reset(z, &z->int_lane);
  }
}

/* Z3's context fills two tables of 8.5 MB (hash tables of 2^19 slots and a cellar, Z3
 * 4.8.12, seen in its code under gdb) the moment it is made: ~4,100 page faults, 7 of the
 * ~12 ms of CPU it costs, so on a short run that reaches Z3 the largest part of symq's own
 * fixed cost (issue 25). Once per process, before the first context: a block of
 * HEAP_PREP_BYTES is mmapped and freed, which raises glibc's mmap threshold past it (glibc's
 * own dynamic rule, which any large free in a run triggers too), so blocks of that size
 * come from the heap; then a heap block of that size is marked for transparent huge pages
 * and freed, so that the tables land in it and fault 2 MB at a time (~420 faults, ~5 ms,
 * measured on Z3 alone). Where the kernel gives no huge pages (THP off) or another
 * allocator serves malloc (sanitizers), nothing changes but a mapping made and dropped. */
enum { HEAP_PREP_BYTES = 20 << 20 };

static void prepare_heap(void) {
#if defined(__GLIBC__) && defined(MADV_HUGEPAGE)
  static bool done;
  if (done) return;
  done = true;
  const uintptr_t huge = 2u << 20;
  void *volatile big = malloc(HEAP_PREP_BYTES); /* volatile: not elided with its free */
  free(big); /* it was mmapped: freeing it raises the threshold past it */
  size_t n = HEAP_PREP_BYTES - huge;
  char *heap = malloc(n); /* now from the heap's top: where Z3's tables will be */
  if (!heap) return;
  uintptr_t lo = ((uintptr_t)heap + huge - 1) & ~(huge - 1);
  uintptr_t hi = ((uintptr_t)heap + n) & ~(huge - 1);
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* a hint: failure is harmless */
  free(heap);
#endif
}

/* The context, its solvers and the watchdog's thread are made when the first query reaches
 * this stage, not with the chain: most short runs never get here (the earlier stages answer
 * every query), and making them costs ~5 M instructions and a thread (issue 25: symq's
 * fixed cost per run). */
static void z3_open(z3_stage *z) {
  if (z->ctx) return;
  prepare_heap();
  Z3_config cfg = Z3_mk_config();
  z->ctx = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(z->ctx, on_z3_error);
  z->next_live = live_stages;
  live_stages = z;
  z->bool_sort = Z3_mk_bool_sort(z->ctx);
  Z3_inc_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->bool_sort));
  z->arr_sort = Z3_mk_array_sort(z->ctx, bv_sort(z, 64), bv_sort(z, 8));
  Z3_inc_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->arr_sort));
  z->one1 = Z3_mk_unsigned_int64(z->ctx, 1, bv_sort(z, 1));
  Z3_inc_ref(z->ctx, z->one1);
  z->zero1 = Z3_mk_unsigned_int64(z->ctx, 0, bv_sort(z, 1));
  Z3_inc_ref(z->ctx, z->zero1);
  z->watchdog = z3_watchdog_new(z->ctx);
  for (size_t l = 0; l < QS_LANES; l++)
    for (size_t w = 0; w < LANE_WAYS; w++)
      z->lanes[l][w] =
          (qf_lane){.solver = new_solver(z),
                    .limit = UINT_MAX,
                    .budget = l == QS_LANE_SCALAR ? SCALAR_MAX_CONFLICTS : QF_MAX_CONFLICTS};
  z->quant = new_solver(z);
  z->bvs = new_bv_solver(z, z->ctx);
  z->qfa = new_solver(z);
  z->ints = z3_int_new(z->ctx);
  z->int_lane = (qf_lane){.solver = new_solver(z), .limit = UINT_MAX};
  z->probe = new_solver(z);
}

/* Z3's effort bvs may spend on a query in the stage's context before the query is solved in a
 * context of its own (solve_alone): past it, the query is dear enough that the effort the
 * context's history adds or saves decides runs (busybox head_count's dearest query: 6.4 M
 * alone, 9.5 M or 13.5 M in the stage's context after two histories), and a context's setup
 * (a few ms) is small beside it; under it, the stage's context keeps what the query before
 * taught it (kill_signum's digit queries, each a step past the last: up to 0.36 M alone,
 * decided within the lane's budget after their predecessor). The bound is spent again
 * alone. */
#define ALONE_AFTER_EFFORT 1000000

/* Bounds Z3's effort on solver s's checks (rlimit, counted from each check's start; 0: none). */
static void set_rlimit(z3_stage *z, Z3_solver s, unsigned bound) {
  Z3_params p = Z3_mk_params(z->ctx);
  Z3_params_inc_ref(z->ctx, p);
  Z3_params_set_uint(z->ctx, p, Z3_mk_string_symbol(z->ctx, "rlimit"), bound);
  Z3_solver_set_params(z->ctx, s, p);
  Z3_params_dec_ref(z->ctx, p);
}

/* ---- a hard query in a context of its own ------------------------------------------------ */

static void keep_context(Z3_context ctx);

/* Bit-blasts rq (translated in z->asserted), which a lane's core gave up on within its
 * budget and bvs within ALONE_AFTER_EFFORT, in a context made for it and deleted after.
 * Z3's effort on a query depends on everything its context made before it (the terms' ids
 * order the simplifier's arguments, hence the clauses and the SAT solver's choices), so in
 * the stage's own context a hard query's cost was a matter of the run's history: busybox
 * head_count's dearest query, the same formula under forking and pat, cost 13.5 M of effort
 * after the one's queries and 9.5 M after the other's, and pat's run 1.14x forking's CPU
 * for it. Alone, it costs the same 6.4 M after any history. Sets ans and returns true;
 * false, with ans untouched, when Z3 faulted building the model (z3_guard.h: the context is
 * then kept for ever, as an abandoned solver's) and the caller solves the query again on
 * bvs. */
static bool solve_alone(z3_stage *z, const qs_req *rq, unsigned ms, qs_ans *ans) {
  Z3_config cfg = Z3_mk_config();
  Z3_context ctx = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(ctx, on_z3_error);
  z->alone = ctx;
  Z3_solver s = new_bv_solver(z, ctx);
  for (size_t i = 0; i < rq->n && z->err == Z3_OK; i++)
    Z3_solver_assert(ctx, s, Z3_translate(z->ctx, z->asserted[i], ctx));
  bool cut = false;
  Z3_lbool r = z->err == Z3_OK ? check_in(z, ctx, s, ms, &cut) : Z3_L_UNDEF;
  if (z->err != Z3_OK) fatal_z3_error(z);
  z->base.stats.alone++;
  z->base.stats.alone_effort += rlimit_count(ctx, s);
  Z3_model back = NULL; /* the model, in z->ctx */
  if (r == Z3_L_TRUE && rq->want_model) {
    Z3_model m = z3_guard_get_model(ctx, s, &z->faulted);
    if (!m) {
      keep_context(ctx); /* deleting it could fault again */
      z->faulted = false;
      z->base.stats.model_faults++;
      z->alone = NULL;
      return false;
    }
    Z3_model_inc_ref(ctx, m);
    back = Z3_model_translate(ctx, m, z->ctx);
    Z3_model_inc_ref(z->ctx, back);
    Z3_model_dec_ref(ctx, m);
  }
  if (r == Z3_L_FALSE) {
    ans->status = QS_UNSAT;
  } else if (r == Z3_L_TRUE) {
    ans->status = QS_SAT;
    if (back) {
      ans->model = model_assignment(z, rq, back, false);
      Z3_model_dec_ref(z->ctx, back);
      if (z->err != Z3_OK) fatal_z3_error(z);
      if (!ans->model) unknown(z, ans, "z3 error: model: a byte did not evaluate to a numeral");
    }
  } else {
    unknown_of_check(z, ctx, s, cut, ans);
  }
  Z3_solver_dec_ref(ctx, s);
  Z3_del_context(ctx);
  z->alone = NULL;
  return true;
}

static void z3_solve(qs_stage *st, const qs_req *rq, qs_ans *ans) {
  z3_stage *z = (z3_stage *)st;
  double t0 = qs_now();
  z3_open(z);
  FILE *dump = dump_smt2(z, rq);
  z->err = Z3_OK;
  /* Quantified queries keep every array in the array theory; the others blast the small
   * arrays, and go to the bit-vector solver when no array is left. */
  bool quantified = false;
  for (size_t i = 0; i < rq->n && !quantified; i++)
    quantified = rq->f[i]->has_forall; /* update lists included (expr.h) */
  if (!quantified && z->incremental && rq->lane < 32 && (z->int_lanes >> rq->lane & 1) &&
      solve_ints(z, rq, ans)) {
    st->stats.in_integers++;
    end_query(z, dump, ans, t0);
    return;
  }
  /* Quantified queries keep the array theory; the others try
   * ENC_CELLS (every array blasted) and fall back to ENC_BLAST when a formula reads an
   * array larger than blast_max_bytes at a symbolic index. blast_max_bytes = 0: never. */
  bool flag = false; /* ENC_ARRAYS: a forall; ENC_BLAST: an array-theory term */
  int enc = quantified ? ENC_ARRAYS : z->blast_max_bytes ? ENC_CELLS : ENC_BLAST;
  for (;;) {
    use_encoding(z, enc);
    QS_RESERVE(z->asserted, z->asserted_cap, rq->n);
    for (size_t i = 0; i < rq->n; i++) {
      z->asserted[i] = translate(z, rq->f[i], &flag);
      if (!z->asserted[i]) break;
    }
    if (enc != ENC_CELLS || !flag || z->err != Z3_OK) break;
    enc = ENC_BLAST;
    flag = false;
  }
  /* A query sent back from ENC_CELLS reads a large array at a symbolic index, so it needs the
   * array theory and goes to qfa: the lanes only ever hold ENC_CELLS terms (blast_max_bytes
   * > 0) or only ENC_BLAST ones (= 0), never both kinds of one array. */
  assert(enc != ENC_BLAST || !z->blast_max_bytes || flag || z->err != Z3_OK);
  /* Array-theory queries get a fresh solver, as before: incremental scopes made them slower
   * (libc/ctype_tables, lookups in glibc's 768- and 1536-byte tables: 5 s -> 37 s). */
  bool arrays = flag;
  /* The fixed lane's requests share no prefix (each substitutes a new model's values into
   * every formula): scopes would only cost, so they go to bvs directly. */
  bool incremental = !quantified && !arrays && z->incremental && rq->lane != QS_LANE_FIXED;
  qf_lane *ln = incremental ? lane_pick(z, rq->lane < QS_LANES ? rq->lane : 0, rq) : NULL;
  Z3_solver solver = quantified ? z->quant : arrays ? z->qfa : incremental ? ln->solver : z->bvs;
  if (z->err == Z3_OK && incremental) {
    lane_load(z, ln, rq, z->asserted);
    unsigned budget = query_budget(ln, rq->n);
    if (budget != ln->limit) {
      set_limits(z, z->ctx, ln->solver, budget, true);
      ln->limit = budget;
    }
  } else if (z->err == Z3_OK) {
    for (size_t i = 0; i < rq->n; i++) Z3_solver_assert(z->ctx, solver, z->asserted[i]);
  }
  unsigned ms = quantified ? z->base.solver->opt.quant_timeout_ms : z->base.solver->opt.timeout_ms;
  bool timed = false; /* the last check's deadline passed */
  Z3_lbool r = z->err == Z3_OK ? check(z, solver, ms, &timed) : Z3_L_UNDEF;
  bool lane_unknown = r == Z3_L_UNDEF && z->err == Z3_OK && incremental && !flag && ln->budget;
  bool cut = lane_unknown && out_of_time(z, solver, timed);
  if (lane_unknown && (ln->gave_up || !cut)) {
    /* The SMT core gave up within its budget on an array-free query: bit-blast it. The
     * lane keeps its scopes (starting over cost the scalar lane a context setup, ~3 ms,
     * on every other request of chained memspn's second loop), but an unknown of any kind
     * from a lane that gave up before is not trusted as a timeout: the lane starts over
     * and bvs, under its own timeout, decides. */
    if (ln->gave_up && cut) lane_reset(z, ln);
    else
      ln->gave_up = true;
    solver = z->bvs;
    for (size_t i = 0; i < rq->n; i++) Z3_solver_assert(z->ctx, solver, z->asserted[i]);
    uint64_t before = rlimit_count(z->ctx, z->probe);
    set_rlimit(z, solver, ALONE_AFTER_EFFORT);
    r = z->err == Z3_OK ? check(z, solver, ms, &timed) : Z3_L_UNDEF;
    set_rlimit(z, solver, 0);
    if (r == Z3_L_UNDEF && !timed && z->err == Z3_OK &&
        rlimit_count(z->ctx, z->probe) - before >= ALONE_AFTER_EFFORT) {
      Z3_solver_reset(z->ctx, solver);
      if (solve_alone(z, rq, ms, ans)) {
        if (ans->status == QS_UNKNOWN) lane_reset(z, ln);
        end_query(z, dump, ans, t0);
        return;
      }
      for (size_t i = 0; i < rq->n; i++) Z3_solver_assert(z->ctx, solver, z->asserted[i]);
      r = z->err == Z3_OK ? check(z, solver, ms, &timed) : Z3_L_UNDEF;
    }
  }
  if (z->err != Z3_OK) {
    fatal_z3_error(z);
  } else if (r == Z3_L_FALSE) {
    ans->status = QS_UNSAT;
  } else if (r == Z3_L_TRUE) {
    ans->status = QS_SAT;
    if (rq->want_model) {
      ans->model = build_model(z, rq, solver, false);
      if (!ans->model && z->faulted) {
        solver = remodel(z, rq, solver, quantified || arrays, ms, ans);
      } else if (!ans->model) {
        if (z->err != Z3_OK) fatal_z3_error(z);
        char msg[200];
        snprintf(msg, sizeof msg, "z3 error: model: %s",
                 z->err != Z3_OK ? z->errmsg : "a byte did not evaluate to a numeral");
        unknown(z, ans, msg);
      }
    }
  } else {
    unknown_of_check(z, z->ctx, solver, timed, ans);
  }
  if (!incremental || solver != ln->solver) Z3_solver_reset(z->ctx, solver);
  if (incremental && (ans->status == QS_UNKNOWN || z->err != Z3_OK)) lane_reset(z, ln);
  end_query(z, dump, ans, t0);
}

/* The contexts of stages that abandoned a solver (abandon), never deleted: a list, so that
 * the sanitizer build's leak check sees them reachable, as they are until the process ends. */
static Z3_context *kept_contexts;
static size_t nkept_contexts, kept_contexts_cap;

static void keep_context(Z3_context ctx) {
  QS_RESERVE(kept_contexts, kept_contexts_cap, nkept_contexts + 1);
  kept_contexts[nkept_contexts++] = ctx;
}

static void z3_destroy(qs_stage *st) {
  z3_stage *z = (z3_stage *)st;
  if (!z->ctx) { /* never asked: nothing of Z3 was made */
    free(z);
    return;
  }
  for (z3_stage **p = &live_stages; *p; p = &(*p)->next_live)
    if (*p == z) {
      *p = z->next_live;
      break;
    }
  release_tmp(z);
  for (int enc = 0; enc < ENC_COUNT; enc++) {
    use_encoding(z, enc);
    drop_caches(z);
  }
  blast_drop(z);
  Z3_dec_ref(z->ctx, z->one1);
  Z3_dec_ref(z->ctx, z->zero1);
  for (unsigned w = 0; w <= 128; w++)
    if (z->bv[w]) Z3_dec_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->bv[w]));
  Z3_dec_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->arr_sort));
  Z3_dec_ref(z->ctx, Z3_sort_to_ast(z->ctx, z->bool_sort));
  for (size_t l = 0; l < QS_LANES; l++)
    for (size_t w = 0; w < LANE_WAYS; w++) {
      Z3_solver_dec_ref(z->ctx, z->lanes[l][w].solver);
      free(z->lanes[l][w].live);
    }
  z3_int_free(z->ints);
  Z3_solver_dec_ref(z->ctx, z->int_lane.solver);
  free(z->int_lane.live);
  Z3_solver_dec_ref(z->ctx, z->quant);
  Z3_solver_dec_ref(z->ctx, z->bvs);
  Z3_solver_dec_ref(z->ctx, z->qfa);
  Z3_solver_dec_ref(z->ctx, z->probe);
  z3_watchdog_free(z->watchdog); /* before the context it interrupts */
  if (z->abandoned)              /* it would delete the faulted solvers too: kept, and reachable */
    keep_context(z->ctx);
  else
    Z3_del_context(z->ctx);
  free(z->tmp.ast);
  free(z->stack);
  free(z->ups);
  free(z->collect);
  qs_idmap_free(&z->array_memo);
  free(z->array_pool);
  free(z->one);
  free(z->asserted);
  free(z->bytes);
  free(z->known);
  free(z->read_cells);
  free(z);
}

static const qs_stage_ops z3_ops = {"z3", z3_solve, z3_destroy};

qs_stage *qs_z3_stage_new(qsolver *s) {
  z3_stage *z = xcalloc(1, sizeof *z);
  z->base.ops = &z3_ops;
  z->incremental = s->opt.incremental;
  z->int_lanes = s->opt.int_lanes;
  z->blast_max_bytes = s->opt.blast_max_bytes;
  return &z->base;
}

/* Z3's "rlimit count": the context's resource counter, which every solver of the context
 * (the lanes, the bit-blaster, the quantified and integer solvers) advances as it works —
 * a count of steps, not a time, so the same queries in the same order give the same count.
 * Read from an unchecked solver's statistics, whose own part is near empty: one read costs
 * a few Z3 calls, none per query. */
uint64_t qs_z3_effort(const qs_stage *st) {
  const z3_stage *z = (const z3_stage *)st;
  if (!z->ctx) return 0; /* no query reached Z3 yet: it did no work */
  return rlimit_count(z->ctx, z->probe) + z->base.stats.alone_effort;
}
