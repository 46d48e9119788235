/*
 * test_prune — the pieces of pruning by interpolation (prune/): which registers can still
 * matter (strong liveness: an accumulator no check reads does not; one that is returned
 * does), the core of an unsat question (the conjuncts connected to it through shared cells,
 * an array read whole joining every conjunct on it), and the subsumption table (a state
 * matches a snapshot when its stack, relevant registers and memory are the snapshot's,
 * whatever its irrelevant registers hold; the table finds entries by call stack).
 */
#include <string.h>

#include "check.h"
#include "decode_source.h"
#include "engine/core/expr.h"
#include "engine/core/state.h"
#include "engine/core/xalloc.h"
#include "prune/core.h"
#include "prune/data.h"
#include "prune/relevance.h"
#include "prune/rename.h"
#include "prune/slots.h"
#include "prune/table.h"
#include "prune/wp.h"
#include "qsolver/qsolver.h"

/* f: registers x=0 y=1 i=2 noise=3 more=4 nnext=5 inext=6 c=7 q=8;
 *    instructions 0 br, 1 icmp, 2 condbr, 3 add, 4 add, 5 br, 6 icmp, 7 condbr, 8 sdiv,
 *    9 ret, 10 ret.
 * g: registers x=0 i=1 acc=2 more=3 anext=4 inext=5;
 *    instructions 0 br, 1 icmp, 2 condbr, 3 add, 4 add, 5 br, 6 ret. */
static const char source[] =
    "define i32 @f(i32 %x, i32 %y) {\n"
    "entry:\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %inext, %body ]\n"
    "  %noise = phi i32 [ 0, %entry ], [ %nnext, %body ]\n"
    "  %more = icmp slt i32 %i, %x\n"
    "  br i1 %more, label %body, label %exit\n"
    "body:\n"
    "  %nnext = add i32 %noise, 3\n"
    "  %inext = add i32 %i, 1\n"
    "  br label %head\n"
    "exit:\n"
    "  %c = icmp eq i32 %y, 5\n"
    "  br i1 %c, label %bad, label %ok\n"
    "bad:\n"
    "  %q = sdiv i32 %x, %y\n"
    "  ret i32 0\n"
    "ok:\n"
    "  ret i32 1\n"
    "}\n"
    "define i32 @g(i32 %x) {\n"
    "entry:\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %inext, %body ]\n"
    "  %acc = phi i32 [ 0, %entry ], [ %anext, %body ]\n"
    "  %more = icmp slt i32 %i, %x\n"
    "  br i1 %more, label %body, label %exit\n"
    "body:\n"
    "  %anext = add i32 %acc, 3\n"
    "  %inext = add i32 %i, 1\n"
    "  br label %head\n"
    "exit:\n"
    "  ret i32 %acc\n"
    "}\n"
    "define i32 @main() {\n"
    "  ret i32 0\n"
    "}\n";

static void check_relevant(const prune_relevance *r, uint32_t inst, const char *want,
                           uint32_t nregs) {
  for (uint32_t reg = 0; reg < nregs; reg++) {
    bool expected = strchr(want, (char)('0' + reg)) != NULL;
    if (prune_relevant_before(r, inst, reg) != expected)
      fprintf(stderr, "    before instruction %u, register %u\n", inst, reg);
    CHECK(prune_relevant_before(r, inst, reg) == expected);
  }
}

static void test_relevance(void) {
  ir_program *p = decode_source("relevance.ll", source);
  CHECK(p != NULL);
  if (!p) return;
  const ir_function *f = &p->funcs[ir_find_function(p, "f")];
  CHECK_EQ_U64(f->nregs, 9);
  CHECK_EQ_U64(f->ninsts, 11);
  prune_relevance *r = prune_relevance_compute(f);
  check_relevant(r, 2, "0124", f->nregs); /* the noise is not relevant at the branch */
  check_relevant(r, 3, "012", f->nregs);  /* nor before its own update */
  check_relevant(r, 6, "01", f->nregs);   /* the division observes x and y */
  check_relevant(r, 8, "01", f->nregs);
  check_relevant(r, 10, "", f->nregs); /* ret of a constant */
  prune_relevance_free(r);
  const ir_function *g = &p->funcs[ir_find_function(p, "g")];
  r = prune_relevance_compute(g);
  check_relevant(r, 2, "0123", g->nregs); /* the accumulator is returned: relevant */
  check_relevant(r, 3, "012", g->nregs);
  check_relevant(r, 6, "2", g->nregs);
  prune_relevance_free(r);
  CHECK(prune_opcode_is_pure(IR_ADD) && !prune_opcode_is_pure(IR_SDIV) &&
        !prune_opcode_is_pure(IR_SHL) && !prune_opcode_is_pure(IR_LOAD) &&
        !prune_opcode_is_pure(IR_CALL));
  ir_free(p);
}

/* Data registers (prune/data.h): in f every register only reaches arithmetic, comparisons,
 * branches and phis (the division's operands too: its check is a question); in g the
 * accumulator is returned, and so is the phi source that feeds it: not data. */
static void test_data(void) {
  ir_program *p = decode_source("data.ll", source);
  CHECK(p != NULL);
  if (!p) return;
  const ir_function *f = &p->funcs[ir_find_function(p, "f")];
  prune_data *d = prune_data_compute(f);
  for (uint32_t reg = 0; reg < f->nregs; reg++) CHECK(prune_is_data(d, reg));
  CHECK(!prune_is_data(d, f->nregs)); /* out of range */
  prune_data_free(d);
  const ir_function *g = &p->funcs[ir_find_function(p, "g")];
  d = prune_data_compute(g);
  for (uint32_t reg = 0; reg < g->nregs; reg++) {
    bool want = reg != 2 && reg != 4; /* acc, anext */
    if (prune_is_data(d, reg) != want) fprintf(stderr, "    g: register %u\n", reg);
    CHECK(prune_is_data(d, reg) == want);
  }
  prune_data_free(d);
  ir_free(p);
}

static expr *byte_of(expr_array *a, uint64_t k) {
  expr *i = expr_const(64, k), *r = expr_read(a, NULL, i);
  expr_unref(i);
  return r;
}

static expr *eq_const(expr *x, unsigned v) {
  expr *c = expr_const(x->width, v), *e = expr_eq(x, c);
  expr_unref(c);
  return e;
}

static void test_core(void) {
  expr *size = expr_const(64, 4);
  expr_array *a = expr_array_new("a", size, 4, true, NULL);
  expr_array *b = expr_array_new("b", size, 4, true, NULL);
  expr *a0 = byte_of(a, 0), *a1 = byte_of(a, 1), *b0 = byte_of(b, 0), *b2 = byte_of(b, 2);
  expr *pc[4];
  pc[0] = eq_const(a0, 7);  /* a[0] = 7 */
  pc[1] = eq_const(b0, 1);  /* b[0] = 1 */
  pc[2] = expr_ult(a0, a1); /* a[0] < a[1]: joins a[1] to a[0] */
  pc[3] = eq_const(b2, 9);
  expr *q = eq_const(a1, 3); /* a[1] = 3: unsat with a[0] = 7 ∧ a[0] < a[1] */
  size_t out[4];
  size_t n = prune_core_slice(pc, 4, &q, 1, out);
  CHECK_EQ_U64(n, 2);
  CHECK_EQ_U64(out[0], 0);
  CHECK_EQ_U64(out[1], 2);
  /* a question on b[0] needs b[0]'s conjunct only, not b[2]'s */
  expr *qb = eq_const(b0, 2);
  n = prune_core_slice(pc, 4, &qb, 1, out);
  CHECK_EQ_U64(n, 1);
  CHECK_EQ_U64(out[0], 1);
  /* a read of b at a symbolic index reads b whole: every conjunct on b joins */
  expr *idx = expr_zext(a0, 64), *bi = expr_read(b, NULL, idx);
  expr *qw = eq_const(bi, 4);
  n = prune_core_slice(pc, 4, &qw, 1, out);
  CHECK_EQ_U64(n, 4); /* b[0], b[2] through b, a[0] and a[1] through a[0] */
  /* no cell in common: nothing needed */
  expr_array *c = expr_array_new("c", size, 4, true, NULL);
  expr *c0 = byte_of(c, 0), *qc = eq_const(c0, 1);
  n = prune_core_slice(pc, 4, &qc, 1, out);
  CHECK_EQ_U64(n, 0);
  expr *all[] = {a0, a1, b0, b2, c0, pc[0], pc[1], pc[2], pc[3], q, qb, idx, bi, qw, qc, size};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) expr_unref(all[k]);
  expr_array_unref(a), expr_array_unref(b), expr_array_unref(c);
}

/* Register 0 of every frame matters; the others do not. */
static prune_reg_kind reg0_relevant(void *ctx, const state *st, uint32_t frame, uint32_t reg) {
  (void)ctx, (void)st, (void)frame;
  return reg == 0 ? PRUNE_REG_EXACT : PRUNE_REG_IGNORED;
}

static bool matches(const prune_snapshot *snap, state *st) {
  prune_rename r;
  prune_rename_begin(&r, st, snap->inputs, snap->ninputs);
  bool yes = prune_snapshot_matches(snap, st, &r);
  prune_rename_end(&r);
  return yes;
}

static void test_table(void) {
  state *st = state_new(1);
  mem_object *o = mem_object_new(1, 0x1000, 4, NULL, MEM_GLOBAL, "g");
  mem_space_bind(st->mem, o, NULL);
  state_frame *f = state_push_frame(st, 3, 2);
  f->pc = 5;
  expr *v0 = expr_const(32, 10), *v1 = expr_const(32, 20), *other = expr_const(32, 21);
  state_set_reg(f, 0, v0);
  state_set_reg(f, 1, v1);
  prune_snapshot snap;
  prune_snapshot_take(&snap, st, reg0_relevant, NULL);
  CHECK(matches(&snap, st));

  state *noisy = state_fork(st, 2); /* another irrelevant register: still matches */
  state_set_reg(state_top(noisy), 1, other);
  CHECK(matches(&snap, noisy));
  state *relevant = state_fork(st, 3); /* the relevant register differs: no match */
  state_set_reg(state_top(relevant), 0, other);
  CHECK(!matches(&snap, relevant));
  state *elsewhere = state_fork(st, 4); /* another instruction: no match */
  state_top(elsewhere)->pc = 6;
  CHECK(!matches(&snap, elsewhere));
  state *written = state_fork(st, 5); /* a byte of memory differs: no match */
  expr *off = expr_const(64, 1), *byte = expr_const(8, 7), *zero = expr_const(8, 0);
  mem_write(written->mem, o, off, byte);
  CHECK(!matches(&snap, written));
  state *same_bytes = state_fork(st, 6); /* written with what was there: equal bytes */
  mem_write(same_bytes->mem, o, off, zero);
  CHECK(matches(&snap, same_bytes));

  prune_table t;
  prune_table_init(&t);
  size_t n;
  prune_entry *const *c = prune_table_at(&t, noisy, reg0_relevant, NULL, &n);
  CHECK_EQ_U64(n, 0);
  expr **interp = xcalloc(1, sizeof *interp);
  interp[0] = expr_true();
  prune_table_add(&t, &snap, interp, 1);
  CHECK_EQ_U64(t.nentries, 1);
  c = prune_table_at(&t, noisy, reg0_relevant, NULL, &n);
  CHECK_EQ_U64(n, 1);
  CHECK(n == 1 && c[0]->ninterpolant == 1 && c[0]->interpolant[0] == interp[0]);
  c = prune_table_at(&t, relevant, reg0_relevant, NULL, &n); /* another print: not indexed */
  CHECK_EQ_U64(n, 0);
  c = prune_table_at(&t, written, reg0_relevant, NULL, &n); /* concrete bytes differ */
  CHECK_EQ_U64(n, 0);
  c = prune_table_at(&t, same_bytes, reg0_relevant, NULL, &n);
  CHECK_EQ_U64(n, 1);
  c = prune_table_at(&t, elsewhere, reg0_relevant, NULL, &n);
  CHECK_EQ_U64(n, 0);
  prune_table_free(&t);

  state *all[] = {st, noisy, relevant, elsewhere, written, same_bytes};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) state_free(all[k]);
  mem_object_unref(o);
  expr *es[] = {v0, v1, other, off, byte, zero};
  for (size_t k = 0; k < sizeof es / sizeof *es; k++) expr_unref(es[k]);
}

/* A state holding x = nondet + 1 in register 0 after its own nondet call: the fresh input. */
static state *with_fresh(state *parent, uint64_t id, const char *name, uint64_t capacity,
                         expr_array **out) {
  state *st = state_fork(parent, id);
  expr *size = expr_const(64, capacity), *at = expr_const(64, 0), *one = expr_const(32, 1);
  expr_array *a = expr_array_new(name, size, capacity, true, NULL);
  mem_object *o = mem_object_new(100 + id, 0x2000 + 16 * id, capacity, NULL, MEM_STACK, name);
  state_add_symbolic(st, o, a, name);
  expr *v = expr_read_le(a, NULL, at, 4), *x = expr_add(v, one);
  state_set_reg(state_top(st), 0, x);
  *out = a;
  expr_unref(v), expr_unref(x), expr_unref(size), expr_unref(at), expr_unref(one);
  mem_object_unref(o);
  expr_array_unref(a); /* the state keeps it */
  return st;
}

/* Matching up to a renaming of inputs each state made on its own (prune/rename.h). */
static void test_rename(void) {
  state *root = state_new(1);
  state_push_frame(root, 3, 2);
  expr_array *a, *b, *c, *w;
  state *node = with_fresh(root, 2, "nondet_int", 4, &a);
  state *later = with_fresh(root, 3, "nondet_int", 4, &b);
  state *wide = with_fresh(root, 4, "nondet_long", 8, &w);
  prune_snapshot snap;
  prune_snapshot_take(&snap, node, reg0_relevant, NULL);
  CHECK(snap.ninputs == 1 && snap.inputs[0] == a);
  /* the same expression over the other state's own input: a match, σ = {a ↦ b} */
  prune_rename r;
  prune_rename_begin(&r, later, snap.inputs, snap.ninputs);
  CHECK(prune_snapshot_matches(&snap, later, &r));
  CHECK_EQ_U64(r.npairs, 1);
  /* σ of an interpolant over a reads b instead */
  expr *at = expr_const(64, 0), *five = expr_const(32, 5);
  expr *va = expr_read_le(a, NULL, at, 4), *vb = expr_read_le(b, NULL, at, 4);
  expr *psi = expr_slt(five, va), *want = expr_slt(five, vb);
  expr *got = prune_rename_apply(&r, psi);
  CHECK(got == want);
  expr_unref(got);
  prune_rename_end(&r);
  /* another size: no match */
  CHECK(!matches(&snap, wide));
  /* the node's input is one the state has too: it may only map to itself, no match */
  state *both = state_fork(node, 5);
  expr *vc;
  {
    state *tmp = with_fresh(both, 6, "nondet_int", 4, &c);
    state_free(both);
    both = tmp;
    vc = expr_read_le(c, NULL, at, 4);
  }
  CHECK(!matches(&snap, both)); /* register 0 reads c, the node's reads a, which both has */
  /* a state that reads the node's array itself still matches (the identity) */
  state *same = state_fork(node, 7);
  CHECK(matches(&snap, same));
  prune_snapshot_free(&snap);
  state *all[] = {root, node, later, wide, both, same};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) state_free(all[k]);
  expr *es[] = {at, five, va, vb, psi, want, vc};
  for (size_t k = 0; k < sizeof es / sizeof *es; k++) expr_unref(es[k]);
}

/* h: %v's slot is private (load, store to it, make_symbolic of a bitcast of it); %e's
 * escapes (stored as a value); %n's has a symbolic count; %g's goes through a gep (the
 * make_symbolic calls keep the pipeline's mem2reg from removing them). */
static const char slots_source[] =
    "declare void @klee_make_symbolic(i8*, i64, i8*)\n"
    "@name = constant [2 x i8] c\"v\\00\"\n"
    "@sink = global i32* null\n"
    "define i32 @h(i32 %k) {\n"
    "  %v = alloca i32\n"
    "  %e = alloca i32\n"
    "  %n = alloca i32, i32 %k\n"
    "  %g = alloca [2 x i32]\n"
    "  %vb = bitcast i32* %v to i8*\n"
    "  call void @klee_make_symbolic(i8* %vb, i64 4, i8* getelementptr ([2 x i8], [2 x i8]* @name, "
    "i32 0, i32 0))\n"
    "  store i32 1, i32* %v\n"
    "  %nb = bitcast i32* %n to i8*\n"
    "  call void @klee_make_symbolic(i8* %nb, i64 4, i8* getelementptr ([2 x i8], [2 x i8]* @name, "
    "i32 0, i32 0))\n"
    "  %gb = bitcast [2 x i32]* %g to i8*\n"
    "  call void @klee_make_symbolic(i8* %gb, i64 8, i8* getelementptr ([2 x i8], [2 x i8]* @name, "
    "i32 0, i32 0))\n"
    "  store i32* %e, i32** @sink\n"
    "  %x = load i32, i32* %v\n"
    "  %p = getelementptr [2 x i32], [2 x i32]* %g, i32 0, i32 1\n"
    "  %y = load i32, i32* %p\n"
    "  ret i32 %x\n"
    "}\n";

static void test_slots(void) {
  ir_program *p = decode_source("slots.ll", slots_source);
  CHECK(p != NULL);
  if (!p) return;
  const ir_function *h = &p->funcs[ir_find_function(p, "h")];
  prune_slots *s = prune_slots_compute(p, h);
  uint32_t allocas[4], count = 0;
  for (uint32_t i = 0; i < h->ninsts; i++)
    if (h->insts[i].op == IR_ALLOCA && count < 4) allocas[count++] = i;
  CHECK_EQ_U64(count, 4); /* v, e, n, g in source order */
  if (count == 4) {
    CHECK(prune_slot_is_private(s, allocas[0]));
    CHECK(!prune_slot_is_private(s, allocas[1]));
    CHECK(!prune_slot_is_private(s, allocas[2]));
    CHECK(!prune_slot_is_private(s, allocas[3]));
    CHECK(!prune_slot_is_private(s, allocas[3] + 1)); /* not an alloca */
  }
  prune_slots_free(s);
  ir_free(p);
}

static expr *c32(int v) { return expr_const(32, (uint32_t)v); }

/* Whether the n formulas hold f (pointer equality: hash-consed). */
static bool holds(expr *const *w, size_t n, expr *f) {
  for (size_t k = 0; k < n; k++)
    if (w[k] == f) return true;
  return false;
}

/* The seed's Example 5.5 (000 §5.1, Fig. 8) at ⟨2a⟩: context −1 < x < 2 ∧ y = 0 ∧ z = 1,
 * assume(x > 0), child interpolant −4 < x < 5 ∧ y < z + 33. ABDUCTION keeps the context's
 * constraint on x (connected to the guard; CORE's minimization drops −1 < x, which the
 * guard makes redundant) and passes y < z + 33 up instead of y = 0 ∧ z = 1: the interpolant
 * x < 2 ∧ y < z + 33, which subsumes ⟨2b⟩ (y = 5, z = 2) where the core's would not. Then: a guard
 * that implies Ψ alone makes it true; a Ψ that does not share a variable with the guard passes
 * unchanged. */
static void test_wp(void) {
  qsolver *qs = qs_new(NULL);
  expr *size = expr_const(64, 4), *at = expr_const(64, 0);
  expr_array *ax = expr_array_new("x", size, 4, true, NULL);
  expr_array *ay = expr_array_new("y", size, 4, true, NULL);
  expr_array *az = expr_array_new("z", size, 4, true, NULL);
  expr *x = expr_read_le(ax, NULL, at, 4), *y = expr_read_le(ay, NULL, at, 4);
  expr *z = expr_read_le(az, NULL, at, 4);
  expr *k[] = {c32(-1), c32(2), c32(0), c32(1), c32(-4), c32(5), c32(33), c32(3), c32(-3)};
  expr *zp33 = expr_add(z, k[6]);
  expr *pc[] = {expr_slt(k[0], x), expr_slt(x, k[1]), expr_eq(y, k[2]), expr_eq(z, k[3]),
                expr_slt(k[2], x)};
  expr *psi[] = {expr_slt(k[4], x), expr_slt(x, k[5]), expr_slt(y, zp33)};
  prune_wp_stats ws = {0};
  size_t n;
  expr **w = prune_wp_backprop(qs, pc, 4, 5, psi, 3, &n, &ws);
  CHECK_EQ_U64(n, 2); /* x < 2 ∧ y < z + 33 (CORE drops −1 < x: the guard gives 0 < x) */
  CHECK(holds(w, n, pc[1]) && holds(w, n, psi[2]));
  CHECK(!holds(w, n, pc[0]) && !holds(w, n, pc[2]) && !holds(w, n, pc[3]));
  CHECK_EQ_U64(ws.abduced, 1);
  /* ⟨2b⟩: y = 5, z = 2 and the same x: implies the wp interpolant, not the core's y = 0 */
  expr *pc2[] = {pc[0], pc[1], expr_eq(y, k[5]), expr_eq(z, k[1])};
  bool must = true;
  for (size_t m = 0; m < n && must; m++) {
    bool one = false;
    CHECK(qs_must_be_true(qs, pc2, 4, w[m], &one) != QS_UNKNOWN);
    must = one;
  }
  CHECK(must);
  for (size_t m = 0; m < n; m++) expr_unref(w[m]);
  free(w);
  /* a guard that implies Ψ on its own: nothing above it is needed */
  expr *ne3 = expr_ne(x, k[8]); /* x ≠ −3: 0 < x alone implies it */
  w = prune_wp_backprop(qs, pc, 4, 5, &ne3, 1, &n, &ws);
  CHECK_EQ_U64(n, 0);
  free(w);
  /* Ψ on y only passes the guard on x unchanged (Ψ_v is empty) */
  expr *yne3 = expr_ne(y, k[7]);
  uint64_t passed = ws.passed;
  w = prune_wp_backprop(qs, pc, 4, 5, &yne3, 1, &n, &ws);
  CHECK(n == 1 && w[0] == yne3 && ws.passed == passed + 1);
  for (size_t m = 0; m < n; m++) expr_unref(w[m]);
  free(w);
  expr *all[] = {size,  at,    x,      y,      z,      zp33,   pc[0],  pc[1], pc[2],
                 pc[3], pc[4], psi[0], psi[1], psi[2], pc2[2], pc2[3], ne3,   yne3};
  for (size_t m = 0; m < sizeof all / sizeof *all; m++) expr_unref(all[m]);
  for (size_t m = 0; m < sizeof k / sizeof *k; m++) expr_unref(k[m]);
  expr_array_unref(ax), expr_array_unref(ay), expr_array_unref(az);
  qs_free(qs);
}

int main(void) {
  test_wp();
  test_slots();
  test_rename();
  test_relevance();
  test_data();
  test_core();
  test_table();
  return check_exit();
}
