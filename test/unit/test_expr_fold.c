/*
 * test_expr_fold.c — differential test of expr's constant folding against Z3.
 *
 * For every operator of expr.h and every width of interest (1, 8, 16, 32, 64, 128; for the
 * width-changing operators, source/target pairs covering them), the test builds the
 * operation over constant operands with symq's constructor, which must fold it to a
 * constant, and builds the same operation with the Z3 C API over numerals, simplifies it and
 * reads the numeral back. The two must agree bit for bit: expr.h promises SMT-LIB semantics
 * as Z3 computes them (division by zero, shifts by ≥ width, sdiv of the minimum by −1).
 *
 * Operands come from a seeded splitmix64 generator (so a failure reproduces exactly), with the
 * edge values mixed in on purpose: all pairs of edge values first, then random pairs in which
 * either side is an edge value a quarter of the time. A failure prints the operator, the
 * widths, the operands and both answers; only the first few per operator and width are
 * printed, the rest are counted.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <z3.h>

#include "check.h"
#include "engine/core/expr.h"

#define CASES_PER_WIDTH 5000 /* per operator and width (or width pair), edge pairs included */
#define PRINT_LIMIT 8        /* failures printed per operator and width */

/* ---- deterministic randomness --------------------------------------------------------- */

static uint64_t rng_state = 0x5eed0f5e11a5eedULL;

static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static unsigned rng_below(unsigned n) { return (unsigned)(rng_next() % n); }

/* Our own mask, so the oracle does not depend on expr_mask (tested in test_expr.c). */
static u128 mask(unsigned w) { return w >= 128 ? ~(u128)0 : (((u128)1 << w) - 1); }

#define N_EDGES 18
/* The edge values at width w: 0, 1, 2, all ones, all ones − 1, signed min/max and their
 * neighbours, w − 1, w, w + 1 and 2w (shift amounts at and past the width), alternating bit
 * patterns, and a large power of two. */
static void edges(unsigned w, u128 out[N_EDGES]) {
  u128 m = mask(w), smin = (u128)1 << (w - 1);
  u128 pat = 0;
  for (unsigned i = 0; i < 16; i++) pat = (pat << 8) | 0x55;
  u128 v[N_EDGES] = {
      0,     1, 2,     m,     m - 1, smin, smin - 1,           smin + 1,
      w - 1, w, w + 1, 2 * w, pat,   ~pat, (u128)1 << (w / 2), m - w + 1 /* -(w-1) */,
      3,     7};
  for (unsigned i = 0; i < N_EDGES; i++) out[i] = v[i] & m;
}

static u128 rand_any(unsigned w) {
  u128 r = ((u128)rng_next() << 64) | rng_next();
  switch (rng_below(4)) {
  case 0: { /* few significant bits: small values and small shift amounts */
    unsigned bits = 1 + rng_below(w);
    return r & mask(bits);
  }
  case 1: { /* negative with few significant bits */
    unsigned bits = 1 + rng_below(w);
    return (~(r & mask(bits))) & mask(w);
  }
  default: return r & mask(w);
  }
}

static u128 rand_operand(unsigned w) {
  if (rng_below(4) == 0) {
    u128 e[N_EDGES];
    edges(w, e);
    return e[rng_below(N_EDGES)];
  }
  return rand_any(w);
}

/* ---- printing u128 --------------------------------------------------------------------- */

static const char *hex128(u128 v, char buf[40]) {
  uint64_t hi = (uint64_t)(v >> 64), lo = (uint64_t)v;
  if (hi) snprintf(buf, 40, "0x%" PRIx64 "%016" PRIx64, hi, lo);
  else
    snprintf(buf, 40, "0x%" PRIx64, lo);
  return buf;
}

static const char *dec128(u128 v, char buf[48]) {
  char tmp[48];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + (int)(v % 10));
    v /= 10;
  } while (v);
  for (int i = 0; i < n; i++) buf[i] = tmp[n - 1 - i];
  buf[n] = 0;
  return buf;
}

/* ---- Z3 side --------------------------------------------------------------------------- */

static Z3_context zc;
static Z3_sort zsort[129];
static Z3_ast zbv1, zbv0; /* #b1 and #b0 */

static Z3_ast zkeep(Z3_ast a) {
  Z3_inc_ref(zc, a);
  return a;
}

static void zdrop(Z3_ast a) { Z3_dec_ref(zc, a); }

static Z3_sort zbv(unsigned w) {
  if (!zsort[w]) {
    zsort[w] = Z3_mk_bv_sort(zc, w);
    Z3_inc_ref(zc, Z3_sort_to_ast(zc, zsort[w]));
  }
  return zsort[w];
}

static int z3_errors;
static void z3_error_handler(Z3_context c, Z3_error_code e) {
  z3_errors++;
  fprintf(stderr, "Z3 error %d: %s\n", (int)e, Z3_get_error_msg(c, e));
}

static void z3_open(void) {
  Z3_config cfg = Z3_mk_config();
  zc = Z3_mk_context_rc(cfg);
  Z3_del_config(cfg);
  Z3_set_error_handler(zc, z3_error_handler);
  zbv1 = zkeep(Z3_mk_unsigned_int64(zc, 1, zbv(1)));
  zbv0 = zkeep(Z3_mk_unsigned_int64(zc, 0, zbv(1)));
}

static void z3_close(void) {
  zdrop(zbv1);
  zdrop(zbv0);
  for (unsigned w = 0; w <= 128; w++)
    if (zsort[w]) Z3_dec_ref(zc, Z3_sort_to_ast(zc, zsort[w]));
  Z3_del_context(zc);
}

/* A numeral of width w. Up to 64 bits from an integer; wider from two 64-bit halves
 * concatenated, or (every other time) from a decimal string, so both routes are used. */
static Z3_ast znum(unsigned w, u128 v) {
  if (w <= 64) return zkeep(Z3_mk_unsigned_int64(zc, (uint64_t)v, zbv(w)));
  static unsigned route;
  if (route++ & 1) {
    char buf[48];
    return zkeep(Z3_mk_numeral(zc, dec128(v, buf), zbv(w)));
  }
  Z3_ast hi = zkeep(Z3_mk_unsigned_int64(zc, (uint64_t)(v >> 64), zbv(w - 64)));
  Z3_ast lo = zkeep(Z3_mk_unsigned_int64(zc, (uint64_t)v, zbv(64)));
  Z3_ast r = zkeep(Z3_mk_concat(zc, hi, lo));
  zdrop(hi);
  zdrop(lo);
  return r;
}

/* Bool → bit-vector of width 1. Consumes b. */
static Z3_ast zbool_to_bv(Z3_ast b) {
  Z3_ast r = zkeep(Z3_mk_ite(zc, b, zbv1, zbv0));
  zdrop(b);
  return r;
}

/* Bit-vector of width 1 → Bool. Borrows a. */
static Z3_ast zbv_to_bool(Z3_ast a) { return zkeep(Z3_mk_eq(zc, a, zbv1)); }

static bool parse_dec128(const char *s, u128 *out) {
  u128 v = 0;
  if (!*s) return false;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10 + (u128)(*s - '0');
  }
  *out = v;
  return true;
}

/* Simplifies t (consumed) and reads its numeral. False when Z3 did not give a numeral. */
static bool zvalue(Z3_ast t, u128 *out) {
  Z3_ast r = zkeep(Z3_simplify(zc, t));
  zdrop(t);
  bool ok = Z3_is_numeral_ast(zc, r);
  if (ok) ok = parse_dec128(Z3_get_numeral_string(zc, r), out);
  zdrop(r);
  return ok;
}

/* ---- operators ------------------------------------------------------------------------- */

typedef enum {
  CAT_BIN,
  CAT_CMP,
  CAT_NOT,
  CAT_IMPLIES,
  CAT_ZEXT,
  CAT_SEXT,
  CAT_EXTRACT,
  CAT_CONCAT,
  CAT_ITE,
  CAT_RESIZE
} op_cat;

typedef expr *(*bin_fn)(expr *, expr *);
typedef Z3_ast (*z3_bin_fn)(Z3_context, Z3_ast, Z3_ast);

typedef struct op_desc {
  const char *name;
  op_cat cat;
  expr_kind kind; /* for expr_binary; EXPR_KIND_COUNT when none */
  bin_fn fn;      /* symq constructor for BIN and CMP */
  z3_bin_fn zfn;  /* Z3 constructor for BIN and CMP */
  unsigned long cases;
  unsigned long failures;
} op_desc;

static Z3_ast z3_ne(Z3_context c, Z3_ast a, Z3_ast b) {
  Z3_ast args[2] = {a, b};
  return Z3_mk_distinct(c, 2, args);
}

static op_desc ops[] = {
    {"add", CAT_BIN, EXPR_ADD, expr_add, Z3_mk_bvadd, 0, 0},
    {"sub", CAT_BIN, EXPR_SUB, expr_sub, Z3_mk_bvsub, 0, 0},
    {"mul", CAT_BIN, EXPR_MUL, expr_mul, Z3_mk_bvmul, 0, 0},
    {"udiv", CAT_BIN, EXPR_UDIV, expr_udiv, Z3_mk_bvudiv, 0, 0},
    {"sdiv", CAT_BIN, EXPR_SDIV, expr_sdiv, Z3_mk_bvsdiv, 0, 0},
    {"urem", CAT_BIN, EXPR_UREM, expr_urem, Z3_mk_bvurem, 0, 0},
    {"srem", CAT_BIN, EXPR_SREM, expr_srem, Z3_mk_bvsrem, 0, 0},
    {"shl", CAT_BIN, EXPR_SHL, expr_shl, Z3_mk_bvshl, 0, 0},
    {"lshr", CAT_BIN, EXPR_LSHR, expr_lshr, Z3_mk_bvlshr, 0, 0},
    {"ashr", CAT_BIN, EXPR_ASHR, expr_ashr, Z3_mk_bvashr, 0, 0},
    {"and", CAT_BIN, EXPR_AND, expr_and, Z3_mk_bvand, 0, 0},
    {"or", CAT_BIN, EXPR_OR, expr_or, Z3_mk_bvor, 0, 0},
    {"xor", CAT_BIN, EXPR_XOR, expr_xor, Z3_mk_bvxor, 0, 0},
    {"not", CAT_NOT, EXPR_NOT, NULL, NULL, 0, 0},
    {"eq", CAT_CMP, EXPR_EQ, expr_eq, Z3_mk_eq, 0, 0},
    {"ne", CAT_CMP, EXPR_NE, expr_ne, z3_ne, 0, 0},
    {"ult", CAT_CMP, EXPR_ULT, expr_ult, Z3_mk_bvult, 0, 0},
    {"ule", CAT_CMP, EXPR_ULE, expr_ule, Z3_mk_bvule, 0, 0},
    {"ugt", CAT_CMP, EXPR_UGT, expr_ugt, Z3_mk_bvugt, 0, 0},
    {"uge", CAT_CMP, EXPR_UGE, expr_uge, Z3_mk_bvuge, 0, 0},
    {"slt", CAT_CMP, EXPR_SLT, expr_slt, Z3_mk_bvslt, 0, 0},
    {"sle", CAT_CMP, EXPR_SLE, expr_sle, Z3_mk_bvsle, 0, 0},
    {"sgt", CAT_CMP, EXPR_SGT, expr_sgt, Z3_mk_bvsgt, 0, 0},
    {"sge", CAT_CMP, EXPR_SGE, expr_sge, Z3_mk_bvsge, 0, 0},
    {"zext", CAT_ZEXT, EXPR_ZEXT, NULL, NULL, 0, 0},
    {"sext", CAT_SEXT, EXPR_SEXT, NULL, NULL, 0, 0},
    {"extract", CAT_EXTRACT, EXPR_EXTRACT, NULL, NULL, 0, 0},
    {"concat", CAT_CONCAT, EXPR_CONCAT, expr_concat, Z3_mk_concat, 0, 0},
    {"ite", CAT_ITE, EXPR_ITE, NULL, NULL, 0, 0},
    {"implies", CAT_IMPLIES, EXPR_KIND_COUNT, expr_implies, NULL, 0, 0},
    {"resize", CAT_RESIZE, EXPR_KIND_COUNT, NULL, NULL, 0, 0},
};
#define N_OPS (sizeof ops / sizeof ops[0])

static const unsigned widths[] = {1, 8, 16, 32, 64, 128};
#define N_WIDTHS (sizeof widths / sizeof widths[0])

/* Failures printed for the current operator and width. */
static unsigned printed;

/* Records one comparison. `what` describes the case (operator, widths, operands). */
static void record(op_desc *op, const char *what, expr *r, unsigned want_width, bool z3_ok,
                   u128 z3_value) {
  op->cases++;
  char b1[40], b2[40];
  const char *problem = NULL;
  if (!z3_ok) problem = "Z3 did not simplify to a numeral";
  else if (!expr_is_const(r) || r->kind != EXPR_CONST)
    problem = "symq did not fold to a constant";
  else if (r->width != want_width)
    problem = "symq result has the wrong width";
  else if (r->u.value != z3_value)
    problem = "value differs";
  if (!problem) {
    check_passed++;
    return;
  }
  check_failed++;
  op->failures++;
  if (printed++ < PRINT_LIMIT) {
    fprintf(stderr, "test_expr_fold: %s: %s\n", what, problem);
    if (r && r->kind == EXPR_CONST)
      fprintf(stderr, "    symq = %s (width %u)", hex128(r->u.value, b1), (unsigned)r->width);
    else
      fprintf(stderr, "    symq = <kind %s, width %u>", expr_kind_name(r->kind),
              (unsigned)r->width);
    fprintf(stderr, "   z3 = %s (width %u)\n", z3_ok ? hex128(z3_value, b2) : "?", want_width);
  }
}

static void note_extra(op_desc *op, const char *what, const char *problem) {
  check_failed++;
  op->failures++;
  if (printed++ < PRINT_LIMIT) fprintf(stderr, "test_expr_fold: %s: %s\n", what, problem);
}

/* Two operands at width w, as symq constants. Checks that expr_const truncates. */
static expr *sym_const(unsigned w, u128 v) {
  /* Pass garbage above the width now and then: expr_const must truncate. */
  u128 raw = v;
  if (w < 128 && (rng_next() & 7) == 0) raw |= (((u128)rng_next() << 64) | rng_next()) << w;
  return expr_const(w, raw);
}

static void run_binary(op_desc *op, unsigned w, u128 a, u128 b) {
  char what[200], ba[40], bb[40];
  snprintf(what, sizeof what, "%s w=%u a=%s b=%s", op->name, w, hex128(a, ba), hex128(b, bb));
  expr *ea = sym_const(w, a), *eb = sym_const(w, b);
  expr *r;
  Z3_ast za = znum(w, a), zb = znum(w, b), zt;
  unsigned rw = w;
  switch (op->cat) {
  case CAT_BIN:
    r = op->fn(ea, eb);
    zt = zkeep(op->zfn(zc, za, zb));
    break;
  case CAT_CMP:
    r = op->fn(ea, eb);
    zt = zbool_to_bv(zkeep(op->zfn(zc, za, zb)));
    rw = 1;
    break;
  case CAT_IMPLIES: {
    r = op->fn(ea, eb);
    Z3_ast pa = zbv_to_bool(za), pb = zbv_to_bool(zb);
    zt = zbool_to_bv(zkeep(Z3_mk_implies(zc, pa, pb)));
    zdrop(pa);
    zdrop(pb);
    rw = 1;
    break;
  }
  default: abort();
  }
  u128 zv = 0;
  bool zok = zvalue(zt, &zv);
  record(op, what, r, rw, zok, zv);
  /* The generic entry point must give the same (interned) node. */
  if (op->kind != EXPR_KIND_COUNT) {
    expr *g = expr_binary(op->kind, ea, eb);
    if (g != r) note_extra(op, what, "expr_binary(kind, a, b) is not the named constructor's node");
    expr_unref(g);
  }
  zdrop(za);
  zdrop(zb);
  expr_unref(r);
  expr_unref(ea);
  expr_unref(eb);
}

static void run_not(op_desc *op, unsigned w, u128 a) {
  char what[200], ba[40];
  snprintf(what, sizeof what, "not w=%u a=%s", w, hex128(a, ba));
  expr *ea = sym_const(w, a);
  expr *r = expr_not(ea);
  Z3_ast za = znum(w, a);
  u128 zv = 0;
  bool zok = zvalue(zkeep(Z3_mk_bvnot(zc, za)), &zv);
  record(op, what, r, w, zok, zv);
  zdrop(za);
  expr_unref(r);
  expr_unref(ea);
}

static void run_ite(op_desc *op, unsigned w, u128 c, u128 a, u128 b) {
  char what[200], ba[40], bb[40];
  snprintf(what, sizeof what, "ite w=%u c=%u a=%s b=%s", w, (unsigned)c, hex128(a, ba),
           hex128(b, bb));
  expr *ec = sym_const(1, c), *ea = sym_const(w, a), *eb = sym_const(w, b);
  expr *r = expr_ite(ec, ea, eb);
  Z3_ast zcnd = znum(1, c), za = znum(w, a), zb = znum(w, b);
  Z3_ast pc = zbv_to_bool(zcnd);
  u128 zv = 0;
  bool zok = zvalue(zkeep(Z3_mk_ite(zc, pc, za, zb)), &zv);
  record(op, what, r, w, zok, zv);
  zdrop(pc);
  zdrop(zcnd);
  zdrop(za);
  zdrop(zb);
  expr_unref(r);
  expr_unref(ec);
  expr_unref(ea);
  expr_unref(eb);
}

/* zext/sext/resize from width s to t; extract of `t` bits at `lo` from width s. */
static void run_width(op_desc *op, unsigned s, unsigned t, unsigned lo, u128 a) {
  char what[200], ba[40];
  snprintf(what, sizeof what, "%s %u->%u lo=%u a=%s", op->name, s, t, lo, hex128(a, ba));
  expr *ea = sym_const(s, a), *r;
  Z3_ast za = znum(s, a), zt;
  switch (op->cat) {
  case CAT_ZEXT:
    r = expr_zext(ea, t);
    zt = zkeep(Z3_mk_zero_ext(zc, t - s, za));
    break;
  case CAT_SEXT:
    r = expr_sext(ea, t);
    zt = zkeep(Z3_mk_sign_ext(zc, t - s, za));
    break;
  case CAT_EXTRACT:
    r = expr_extract(ea, lo, t);
    zt = zkeep(Z3_mk_extract(zc, lo + t - 1, lo, za));
    break;
  case CAT_RESIZE: {
    bool is_signed = lo != 0;
    snprintf(what, sizeof what, "resize %u->%u %s a=%s", s, t, is_signed ? "signed" : "unsigned",
             hex128(a, ba));
    r = expr_resize(ea, t, is_signed);
    if (t > s)
      zt = zkeep(is_signed ? Z3_mk_sign_ext(zc, t - s, za) : Z3_mk_zero_ext(zc, t - s, za));
    else
      zt = zkeep(Z3_mk_extract(zc, t - 1, 0, za));
    break;
  }
  default: abort();
  }
  u128 zv = 0;
  bool zok = zvalue(zt, &zv);
  record(op, what, r, t, zok, zv);
  zdrop(za);
  expr_unref(r);
  expr_unref(ea);
}

static void run_concat(op_desc *op, unsigned wh, unsigned wl, u128 h, u128 l) {
  char what[200], bh[40], bl[40];
  snprintf(what, sizeof what, "concat hi(w=%u)=%s lo(w=%u)=%s", wh, hex128(h, bh), wl,
           hex128(l, bl));
  expr *eh = sym_const(wh, h), *el = sym_const(wl, l);
  expr *r = expr_concat(eh, el);
  Z3_ast zh = znum(wh, h), zl = znum(wl, l);
  u128 zv = 0;
  bool zok = zvalue(zkeep(Z3_mk_concat(zc, zh, zl)), &zv);
  record(op, what, r, wh + wl, zok, zv);
  zdrop(zh);
  zdrop(zl);
  expr_unref(r);
  expr_unref(eh);
  expr_unref(el);
}

/* ---- drivers per category --------------------------------------------------------------- */

static void drive_two_operands(op_desc *op, unsigned w) {
  u128 e[N_EDGES];
  edges(w, e);
  unsigned n = 0;
  for (unsigned i = 0; i < N_EDGES; i++)
    for (unsigned j = 0; j < N_EDGES; j++, n++) run_binary(op, w, e[i], e[j]);
  for (; n < CASES_PER_WIDTH; n++) {
    u128 a = rand_operand(w), b = rand_operand(w);
    run_binary(op, w, a, b);
  }
}

static void drive(op_desc *op) {
  switch (op->cat) {
  case CAT_BIN:
  case CAT_CMP:
    for (unsigned k = 0; k < N_WIDTHS; k++) {
      printed = 0;
      drive_two_operands(op, widths[k]);
    }
    break;
  case CAT_IMPLIES: /* booleans only: width 1 */
    printed = 0;
    drive_two_operands(op, 1);
    break;
  case CAT_NOT:
    for (unsigned k = 0; k < N_WIDTHS; k++) {
      unsigned w = widths[k];
      printed = 0;
      u128 e[N_EDGES];
      edges(w, e);
      unsigned n = 0;
      for (; n < N_EDGES; n++) run_not(op, w, e[n]);
      for (; n < CASES_PER_WIDTH; n++) run_not(op, w, rand_operand(w));
    }
    break;
  case CAT_ITE:
    for (unsigned k = 0; k < N_WIDTHS; k++) {
      unsigned w = widths[k];
      printed = 0;
      for (unsigned n = 0; n < CASES_PER_WIDTH; n++)
        run_ite(op, w, n & 1, rand_operand(w), rand_operand(w));
    }
    break;
  case CAT_ZEXT:
  case CAT_SEXT:
  case CAT_RESIZE:
    for (unsigned i = 0; i < N_WIDTHS; i++)
      for (unsigned j = 0; j < N_WIDTHS; j++) {
        unsigned s = widths[i], t = widths[j];
        if (op->cat != CAT_RESIZE && t < s) continue;
        printed = 0;
        u128 e[N_EDGES];
        edges(s, e);
        unsigned n = 0, per = CASES_PER_WIDTH / 3;
        for (; n < N_EDGES; n++) run_width(op, s, t, n & 1, e[n]);
        for (; n < per; n++) run_width(op, s, t, n & 1, rand_operand(s));
      }
    /* Odd widths too: 7 → 9, 63 → 65, 65 → 127. */
    if (op->cat != CAT_RESIZE) {
      static const unsigned odd[][2] = {{7, 9}, {63, 65}, {65, 127}, {127, 128}, {1, 127}};
      for (unsigned k = 0; k < sizeof odd / sizeof odd[0]; k++) {
        printed = 0;
        for (unsigned n = 0; n < 200; n++)
          run_width(op, odd[k][0], odd[k][1], 0, rand_operand(odd[k][0]));
      }
    }
    break;
  case CAT_EXTRACT:
    for (unsigned i = 0; i < N_WIDTHS; i++) {
      unsigned s = widths[i];
      printed = 0;
      u128 e[N_EDGES];
      edges(s, e);
      for (unsigned n = 0; n < CASES_PER_WIDTH; n++) {
        u128 a = n < N_EDGES ? e[n] : rand_operand(s);
        unsigned t, lo;
        if (n & 1) { /* a target width from the list */
          unsigned j;
          do j = rng_below(N_WIDTHS);
          while (widths[j] > s);
          t = widths[j];
        } else {
          t = 1 + rng_below(s);
        }
        switch (rng_below(3)) {
        case 0: lo = 0; break;
        case 1: lo = s - t; break;
        default: lo = rng_below(s - t + 1); break;
        }
        run_width(op, s, t, lo, a);
      }
    }
    break;
  case CAT_CONCAT: {
    static const unsigned pairs[][2] = {
        {1, 1},   {1, 8},   {8, 1},   {8, 8},   {16, 16},  {8, 16},  {16, 8},  {32, 32},
        {16, 32}, {32, 1},  {1, 32},  {64, 64}, {64, 32},  {32, 64}, {64, 1},  {1, 64},
        {1, 127}, {127, 1}, {8, 120}, {120, 8}, {16, 112}, {32, 96}, {96, 32}, {63, 65}};
    for (unsigned k = 0; k < sizeof pairs / sizeof pairs[0]; k++) {
      unsigned wh = pairs[k][0], wl = pairs[k][1];
      printed = 0;
      u128 eh[N_EDGES], el[N_EDGES];
      edges(wh, eh);
      edges(wl, el);
      unsigned n = 0;
      for (unsigned i = 0; i < N_EDGES; i++)
        for (unsigned j = 0; j < N_EDGES; j += 3, n++) run_concat(op, wh, wl, eh[i], el[j]);
      for (; n < 600; n++) run_concat(op, wh, wl, rand_operand(wh), rand_operand(wl));
    }
    break;
  }
  }
}

int main(void) {
  size_t live0 = expr_live_count();
  z3_open();
  for (unsigned i = 0; i < N_OPS; i++) drive(&ops[i]);

  unsigned long total = 0;
  printf("test_expr_fold: cases checked against Z3 per operator\n");
  for (unsigned i = 0; i < N_OPS; i++) {
    printf("  %-8s %7lu cases, %lu failed\n", ops[i].name, ops[i].cases, ops[i].failures);
    total += ops[i].cases;
  }
  printf("  total    %7lu cases\n", total);
  CHECK_EQ_U64(z3_errors, 0);
  CHECK_EQ_U64(expr_live_count(), live0);
  z3_close();
  return check_exit();
}
