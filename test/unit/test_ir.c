/*
 * test_ir — loading (bitcode.c) and decoding (ir.c): compiles the C inputs under
 * test/unit/ir/ with clang-14 through bc_load, decodes them and checks the dense form:
 * register numbering, edges and their phi moves, switch grouping, GEP offsets, global
 * initializers and relocations, line numbers, intrinsics, unsupported constructs, .ll and
 * .bc inputs, one-line errors, linking only the runtime functions a program reaches, the
 * optimize flag, and out-of-memory unwinding.
 *
 * `test_ir FILE [-O]` dumps FILE's decoded program instead (a debugging aid).
 */
#include "check.h"

#include <stdarg.h>
#include <unistd.h>

#include <llvm-c/BitWriter.h>

#include "engine/core/bitcode.h"
#include "engine/core/ir.h"
#include "engine/core/xalloc.h"

#define INPUTS SYMQ_SOURCE_DIR "/test/unit/ir/"

static char tmpdir[256];

static const char *tmp_path(const char *name) {
  static char buf[4][512];
  static int k;
  char *b = buf[k++ & 3];
  snprintf(b, 512, "%s/%s", tmpdir, name);
  return b;
}

static const char *write_file(const char *name, const void *data, size_t n) {
  const char *path = tmp_path(name);
  FILE *f = fopen(path, "wb");
  if (!f) return path;
  fwrite(data, 1, n, f);
  fclose(f);
  return path;
}

/* The 1-based line of `marker` in an input file, 0 if absent. */
static unsigned line_of(const char *path, const char *marker) {
  FILE *f = fopen(path, "r");
  char line[1024];
  unsigned n = 0;
  while (f && fgets(line, sizeof line, f)) {
    n++;
    if (strstr(line, marker)) {
      fclose(f);
      return n;
    }
  }
  if (f) fclose(f);
  return 0;
}

static ir_program *load(const char *path, const bc_options *opts) {
  bc_error err = {0};
  bc_module *m = bc_load(path, opts, &err);
  if (!m) {
    fprintf(stderr, "load %s: %s\n%s\n", path, err.message, err.detail ? err.detail : "");
    bc_error_clear(&err);
    return NULL;
  }
  char *msg = NULL;
  ir_program *p = ir_decode(m->module, &msg);
  if (!p) fprintf(stderr, "decode %s: %s\n", path, msg);
  free(msg);
  bc_free(m); /* the program must not need the module any more */
  return p;
}

/* The message of a load that must fail (caller frees), or NULL if it loaded. */
static char *load_error(const char *path, const bc_options *opts, char **detail) {
  bc_error err = {0};
  bc_module *m = bc_load(path, opts, &err);
  if (m) {
    bc_free(m);
    return NULL;
  }
  if (detail) *detail = err.detail;
  else
    free(err.detail);
  return err.message;
}

static const ir_function *fn_named(const ir_program *p, const char *name) {
  uint32_t i = ir_find_function(p, name);
  CHECK(i != IR_NONE);
  return i == IR_NONE ? NULL : &p->funcs[i];
}

static unsigned count_op(const ir_function *fn, ir_opcode op) {
  unsigned n = 0;
  for (uint32_t i = 0; i < fn->ninsts; i++) n += fn->insts[i].op == op;
  return n;
}

/* The k-th (0-based) instruction of opcode op, or NULL. */
static const ir_inst *nth_op(const ir_function *fn, ir_opcode op, unsigned k) {
  for (uint32_t i = 0; i < fn->ninsts; i++)
    if (fn->insts[i].op == op && k-- == 0) return &fn->insts[i];
  return NULL;
}

static const ir_inst *unsupported_with(const ir_function *fn, const char *text) {
  for (uint32_t i = 0; i < fn->ninsts; i++)
    if (fn->insts[i].op == IR_UNSUPPORTED && strstr(fn->insts[i].u.reason, text))
      return &fn->insts[i];
  return NULL;
}

static bool is_reg(const ir_operand *o, uint32_t r) {
  return o->kind == IR_OPND_REG && o->index == r;
}

static bool is_const(const ir_program *p, const ir_operand *o, u128 v, unsigned w) {
  return o->kind == IR_OPND_CONST && o->width == w && p->consts[o->index].value == v &&
         p->consts[o->index].width == w;
}

static bool one_line(const char *s) { return s && !strchr(s, '\n'); }

static bool starts_with(const char *s, const char *prefix) {
  return s && !strncmp(s, prefix, strlen(prefix));
}

/* ---- the checks ------------------------------------------------------------------------ */

static void test_registers(const ir_program *p) {
  /* regs(int a, long b, char c): x = a + (int)b; return x < c; */
  const ir_function *fn = fn_named(p, "regs");
  if (!fn) return;
  CHECK_EQ_U64(fn->nargs, 3);
  CHECK_EQ_U64(fn->reg_width[0], 32);
  CHECK_EQ_U64(fn->reg_width[1], 64);
  CHECK_EQ_U64(fn->reg_width[2], 8);
  CHECK_EQ_U64(fn->ret_width, 32);
  CHECK(!fn->is_vararg && !fn->is_decl && !fn->unsupported);
  CHECK_EQ_U64(fn->nblocks, 1);
  /* trunc, add, sext, icmp, zext, ret: the llvm.dbg.value calls are dropped. */
  CHECK_EQ_U64(fn->ninsts, 6);
  CHECK_EQ_U64(fn->nregs, 8);
  if (fn->ninsts != 6) return;
  const ir_inst *in = fn->insts;
  CHECK_EQ_U64(in[0].op, IR_TRUNC);
  CHECK_EQ_U64(in[0].dst, 3);
  CHECK_EQ_U64(in[0].width, 32);
  CHECK(is_reg(&ir_operands(fn, &in[0])[0], 1));
  CHECK_EQ_U64(ir_operands(fn, &in[0])[0].width, 64);
  CHECK_EQ_U64(in[1].op, IR_ADD);
  CHECK_EQ_U64(in[1].dst, 4);
  CHECK_EQ_U64(in[1].nops, 2);
  CHECK(is_reg(&ir_operands(fn, &in[1])[0], 0));
  CHECK(is_reg(&ir_operands(fn, &in[1])[1], 3));
  CHECK_EQ_U64(in[2].op, IR_SEXT);
  CHECK_EQ_U64(in[2].width, 32);
  CHECK_EQ_U64(in[3].op, IR_ICMP);
  CHECK_EQ_U64(in[3].aux, IR_ICMP_SLT);
  CHECK_EQ_U64(in[3].width, 1);
  CHECK_EQ_U64(in[3].dst, 6);
  CHECK_EQ_U64(in[4].op, IR_ZEXT);
  CHECK_EQ_U64(in[5].op, IR_RET);
  CHECK_EQ_U64(in[5].dst, IR_NONE);
  CHECK_EQ_U64(in[5].width, 0);
  CHECK(is_reg(&ir_operands(fn, &in[5])[0], 7));
  for (uint32_t r = 3; r < fn->nregs; r++) CHECK(fn->reg_width[r] > 0);
  CHECK_EQ_U64(fn->reg_width[6], 1);
}

static void test_loop_phis(const ir_program *p) {
  /* sum(n): entry → header(phis s, i) → body → latch → header; header → exit. */
  const ir_function *fn = fn_named(p, "sum");
  if (!fn) return;
  const ir_inst *entry_br = &fn->insts[fn->blocks[0].first + fn->blocks[0].count - 1];
  CHECK_EQ_U64(entry_br->op, IR_BR);
  const ir_edge *e0 = &fn->edges[entry_br->u.br.edge[0]];
  uint32_t header = e0->target;
  CHECK_EQ_U64(e0->nmoves, 2); /* s = 0, i = 0 */
  CHECK(!e0->unsupported);
  for (uint32_t k = 0; k < e0->nmoves; k++) {
    CHECK(is_const(p, &fn->moves[e0->moves + k].src, 0, 32));
    CHECK(fn->moves[e0->moves + k].dst >= fn->nargs);
  }
  /* The header ends in the loop test: a condbr whose false edge leaves the loop. */
  const ir_block *hb = &fn->blocks[header];
  const ir_inst *cbr = &fn->insts[hb->first + hb->count - 1];
  CHECK_EQ_U64(cbr->op, IR_CONDBR);
  CHECK_EQ_U64(cbr->nops, 1);
  CHECK_EQ_U64(ir_operands(fn, cbr)[0].width, 1);
  const ir_edge *t = &fn->edges[cbr->u.br.edge[0]], *f = &fn->edges[cbr->u.br.edge[1]];
  CHECK(t->target != header && f->target != header && t->target != f->target);
  CHECK_EQ_U64(t->nmoves, 0);
  CHECK_EQ_U64(f->nmoves, 0);
  CHECK_EQ_U64(cbr->line, line_of(INPUTS "basic.c", "LINE:loop"));
  /* Exactly one other edge goes back to the header, carrying both phis from registers. */
  unsigned back = 0;
  for (uint32_t e = 0; e < fn->nedges; e++) {
    if (&fn->edges[e] == e0 || fn->edges[e].target != header) continue;
    back++;
    CHECK_EQ_U64(fn->edges[e].nmoves, 2);
    for (uint32_t k = 0; k < fn->edges[e].nmoves; k++) {
      const ir_move *mv = &fn->moves[fn->edges[e].moves + k];
      CHECK_EQ_U64(mv->src.kind, IR_OPND_REG);
      CHECK_EQ_U64(mv->dst, fn->moves[e0->moves + k].dst); /* same phis, same order */
    }
  }
  CHECK_EQ_U64(back, 1);
  /* No phi appears as an instruction, yet the phis have registers and widths. */
  CHECK_EQ_U64(fn->reg_width[fn->moves[e0->moves].dst], 32);
}

static void test_if_else(const ir_program *p) {
  const ir_function *fn = fn_named(p, "ifelse");
  if (!fn) return;
  CHECK_EQ_U64(count_op(fn, IR_CONDBR), 2); /* mem2reg made no select */
  CHECK_EQ_U64(count_op(fn, IR_SELECT), 0);
  /* The join after the first if/else: two edges move r's two values into one phi. */
  const ir_inst *c0 = nth_op(fn, IR_CONDBR, 0);
  uint32_t then_b = fn->edges[c0->u.br.edge[0]].target, else_b = fn->edges[c0->u.br.edge[1]].target;
  const ir_inst *bt = &fn->insts[fn->blocks[then_b].first + fn->blocks[then_b].count - 1];
  const ir_inst *be = &fn->insts[fn->blocks[else_b].first + fn->blocks[else_b].count - 1];
  CHECK_EQ_U64(bt->op, IR_BR);
  CHECK_EQ_U64(be->op, IR_BR);
  const ir_edge *et = &fn->edges[bt->u.br.edge[0]], *ee = &fn->edges[be->u.br.edge[0]];
  CHECK_EQ_U64(et->target, ee->target);
  CHECK_EQ_U64(et->nmoves, 1);
  CHECK_EQ_U64(ee->nmoves, 1);
  if (et->nmoves == 1 && ee->nmoves == 1) {
    CHECK_EQ_U64(fn->moves[et->moves].dst, fn->moves[ee->moves].dst);
    CHECK(fn->moves[et->moves].src.index != fn->moves[ee->moves].src.index);
  }
}

static void test_switch(const ir_program *p) {
  const ir_function *fn = fn_named(p, "sw");
  if (!fn) return;
  const ir_inst *s = nth_op(fn, IR_SWITCH, 0);
  CHECK(s != NULL);
  if (!s) return;
  CHECK_EQ_U64(s->line, line_of(INPUTS "basic.c", "LINE:switch"));
  /* 5 cases: {1,2} {3,7} {9} onto 3 distinct blocks, plus the default. */
  CHECK_EQ_U64(s->u.sw.ngroups, 3);
  if (s->u.sw.ngroups != 3) return;
  const ir_case_group *g = &fn->groups[s->u.sw.groups];
  CHECK_EQ_U64(g[0].nvalues, 2);
  CHECK_EQ_U64(g[1].nvalues, 2);
  CHECK_EQ_U64(g[2].nvalues, 1);
  CHECK_EQ_U64(fn->case_values[g[0].values], 1);
  CHECK_EQ_U64(fn->case_values[g[0].values + 1], 2);
  CHECK_EQ_U64(fn->case_values[g[1].values], 3);
  CHECK_EQ_U64(fn->case_values[g[1].values + 1], 7);
  CHECK_EQ_U64(fn->case_values[g[2].values], 9);
  uint32_t targets[4] = {fn->edges[g[0].edge].target, fn->edges[g[1].edge].target,
                         fn->edges[g[2].edge].target, fn->edges[s->u.sw.dflt].target};
  for (int i = 0; i < 4; i++)
    for (int j = i + 1; j < 4; j++) CHECK(targets[i] != targets[j]);
  CHECK_EQ_U64(ir_operands(fn, s)[0].width, 32);
}

static void test_gep(const ir_program *p) {
  /* gep(p, i) = p[i].c[2] + sarr[i].b with struct S { int a; char b; long c[3]; } */
  const ir_function *fn = fn_named(p, "gep");
  if (!fn) return;
  CHECK_EQ_U64(count_op(fn, IR_GEP), 5);
  const ir_inst *g0 = nth_op(fn, IR_GEP, 0), *g1 = nth_op(fn, IR_GEP, 1),
                *g2 = nth_op(fn, IR_GEP, 2), *g3 = nth_op(fn, IR_GEP, 3),
                *g4 = nth_op(fn, IR_GEP, 4);
  if (!g4) return;
  /* p + sext(i) * 32 */
  CHECK_EQ_U64(g0->nops, 2);
  CHECK(is_reg(&ir_operands(fn, g0)[0], 0));
  CHECK_EQ_U64(g0->u.gep.offset, 0);
  CHECK_EQ_U64(fn->scales[g0->u.gep.scales], 32);
  CHECK_EQ_U64(ir_operands(fn, g0)[1].width, 64);
  /* &->c: +8, then [2]: +16, both constant */
  CHECK_EQ_U64(g1->nops, 1);
  CHECK_EQ_U64(g1->u.gep.offset, 8);
  CHECK_EQ_U64(g2->nops, 1);
  CHECK_EQ_U64(g2->u.gep.offset, 16);
  /* &sarr[0][i]: base is the global, index scaled by 32 */
  CHECK_EQ_U64(g3->nops, 2);
  CHECK_EQ_U64(ir_operands(fn, g3)[0].kind, IR_OPND_GLOBAL);
  CHECK_EQ_U64(ir_operands(fn, g3)[0].index, ir_find_global(p, "sarr"));
  CHECK_EQ_U64(g3->u.gep.offset, 0);
  CHECK_EQ_U64(fn->scales[g3->u.gep.scales], 32);
  CHECK_EQ_U64(g4->u.gep.offset, 4); /* .b */
  const ir_inst *ld = nth_op(fn, IR_LOAD, 0);
  CHECK(ld && ld->u.mem.bytes == 8 && ld->aux == IR_VK_INT && ld->u.mem.align == 8);
  ld = nth_op(fn, IR_LOAD, 1);
  CHECK(ld && ld->u.mem.bytes == 1 && ld->width == 8);
}

static void test_globals(const ir_program *p) {
  uint32_t gi = ir_find_global(p, "gs");
  CHECK(gi != IR_NONE);
  if (gi == IR_NONE) return;
  const ir_global *g = &p->globals[gi];
  CHECK_EQ_U64(g->size, 32);
  CHECK_EQ_U64(g->align, 8);
  CHECK(!g->is_const && !g->is_decl && g->init && !g->unsupported);
  static const uint8_t gs_init[32] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0,
                                      4, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0};
  CHECK(g->init && !memcmp(g->init, gs_init, 32));
  CHECK_EQ_U64(g->nrelocs, 0);

  /* int *gp = &arr[3]: one relocation to arr + 12 */
  g = &p->globals[ir_find_global(p, "gp")];
  CHECK_EQ_U64(g->size, 8);
  CHECK_EQ_U64(g->nrelocs, 1);
  if (g->nrelocs == 1) {
    CHECK_EQ_U64(g->relocs[0].offset, 0);
    CHECK(!g->relocs[0].is_function);
    CHECK_EQ_U64(g->relocs[0].target, ir_find_global(p, "arr"));
    CHECK_EQ_U64(g->relocs[0].addend, 12);
  }
  /* const char *msg = "hello": relocation to the string constant */
  g = &p->globals[ir_find_global(p, "msg")];
  CHECK_EQ_U64(g->nrelocs, 1);
  if (g->nrelocs == 1) {
    const ir_global *s = &p->globals[g->relocs[0].target];
    CHECK(s->is_const);
    CHECK_EQ_U64(s->size, 6);
    CHECK(s->init && !memcmp(s->init, "hello", 6));
  }
  /* struct ops { int id; int (*fn)(int); const char *name; } = {7, twice, "ops"} */
  g = &p->globals[ir_find_global(p, "ops")];
  CHECK_EQ_U64(g->size, 24);
  CHECK_EQ_U64(g->nrelocs, 2);
  if (g->nrelocs == 2) {
    CHECK_EQ_U64(g->init[0], 7);
    CHECK_EQ_U64(g->relocs[0].offset, 8);
    CHECK(g->relocs[0].is_function);
    CHECK_EQ_U64(g->relocs[0].target, ir_find_function(p, "twice"));
    CHECK_EQ_U64(g->relocs[1].offset, 16);
    CHECK(!g->relocs[1].is_function);
    CHECK(!memcmp(p->globals[g->relocs[1].target].init, "ops", 4));
  }
  g = &p->globals[ir_find_global(p, "table")];
  CHECK(g->is_const);
  static const int32_t table[3] = {10, -20, 30};
  CHECK(g->init && !memcmp(g->init, table, 12));
  g = &p->globals[ir_find_global(p, "arr")];
  CHECK_EQ_U64(g->size, 40);
  CHECK(g->init && g->init[0] == 0 && g->init[39] == 0);
  CHECK_EQ_U64(ir_find_global(p, "no_such_global"), IR_NONE);
  CHECK_EQ_U64(ir_find_function(p, "no_such_function"), IR_NONE);
}

static void test_lines(const ir_program *p) {
  const ir_function *fn = fn_named(p, "regs");
  if (!fn) return;
  const ir_inst *add = nth_op(fn, IR_ADD, 0);
  CHECK(add != NULL);
  if (!add) return;
  CHECK_EQ_U64(add->line, line_of(INPUTS "basic.c", "LINE:add"));
  CHECK(add->col > 0);
  CHECK(fn->file && strstr(fn->file, "basic.c"));
  CHECK_EQ_U64(fn->line, line_of(INPUTS "basic.c", "int regs("));
}

static void test_intrinsics(const ir_program *p) {
  const ir_function *fn = fn_named(p, "cp");
  if (fn) {
    const ir_inst *mc = nth_op(fn, IR_MEMCPY, 0);
    CHECK(mc != NULL);
    if (mc) {
      CHECK_EQ_U64(mc->nops, 3);
      CHECK(is_const(p, &ir_operands(fn, mc)[2], 32, 64));
      CHECK_EQ_U64(mc->dst, IR_NONE);
    }
  }
  fn = fn_named(p, "ovf");
  if (fn) {
    const ir_inst *o = nth_op(fn, IR_SADDO, 0);
    CHECK(o != NULL);
    if (o) {
      CHECK_EQ_U64(o->width, 64); /* { i32, i1 }: 8 bytes */
      CHECK_EQ_U64(o->u.ovf.flag_offset, 4);
      CHECK_EQ_U64(o->nops, 2);
      CHECK_EQ_U64(o->line, line_of(INPUTS "basic.c", "LINE:ovf"));
    }
    const ir_inst *x0 = nth_op(fn, IR_EXTRACTVALUE, 0), *x1 = nth_op(fn, IR_EXTRACTVALUE, 1);
    CHECK(x0 && x1);
    if (x0 && x1 && o) {
      CHECK_EQ_U64(x0->u.agg.offset, 4); /* the flag is extracted first */
      CHECK_EQ_U64(x0->width, 1);
      CHECK_EQ_U64(x1->u.agg.offset, 0);
      CHECK_EQ_U64(x1->width, 32);
      CHECK(is_reg(&ir_operands(fn, x0)[0], o->dst));
    }
  }
  fn = fn_named(p, "va");
  if (fn) {
    CHECK(fn->is_vararg);
    CHECK_EQ_U64(count_op(fn, IR_VASTART), 1);
    CHECK_EQ_U64(count_op(fn, IR_VAEND), 1);
  }
  fn = fn_named(p, "vla");
  if (fn) {
    CHECK_EQ_U64(count_op(fn, IR_STACKSAVE), 1);
    CHECK_EQ_U64(count_op(fn, IR_STACKRESTORE), 1);
    const ir_inst *a = nth_op(fn, IR_ALLOCA, 0);
    CHECK(a && a->u.alloca.size == 4 && ir_operands(fn, a)[0].kind == IR_OPND_REG);
  }
  uint32_t mi = ir_find_function(p, "llvm.memcpy.p0i8.p0i8.i64");
  CHECK(mi != IR_NONE && p->funcs[mi].is_intrinsic && p->funcs[mi].is_decl);
  CHECK(p->stats.dropped > 0); /* llvm.dbg.* */
}

static void test_unsupported(const ir_program *p) {
  const ir_function *fn = fn_named(p, "cg");
  if (!fn) return;
  const ir_inst *u = unsupported_with(fn, "indirectbr");
  CHECK(u != NULL);
  if (u) {
    /* clang puts the indirectbr in a shared block without a location; it still
     * terminates its block */
    for (uint32_t b = 0; b < fn->nblocks; b++)
      if (u >= &fn->insts[fn->blocks[b].first] &&
          u < &fn->insts[fn->blocks[b].first + fn->blocks[b].count])
        CHECK_EQ_PTR(u, &fn->insts[fn->blocks[b].first + fn->blocks[b].count - 1]);
  }
  /* The label table's initializer holds blockaddresses: flagged, the rest still decoded. */
  uint32_t gi = ir_find_global(p, "cg.t");
  CHECK(gi != IR_NONE);
  if (gi != IR_NONE) {
    CHECK(p->globals[gi].unsupported && strstr(p->globals[gi].unsupported, "blockaddress"));
    CHECK_EQ_U64(p->globals[gi].size, 16);
  }
  CHECK(p->stats.unsupported >= 1);
}

static void test_float(const ir_program *p) {
  const ir_function *fn = fn_named(p, "fp");
  if (!fn) return;
  CHECK_EQ_U64(fn->ret_width, 64);
  const ir_inst *m = nth_op(fn, IR_FMUL, 0);
  CHECK(m && m->width == 64);
  if (m) {
    double k;
    u128 bits = p->consts[ir_operands(fn, m)[1].index].value;
    uint64_t b64 = (uint64_t)bits;
    memcpy(&k, &b64, 8);
    CHECK(k == 2.5);
  }
  CHECK_EQ_U64(count_op(fn, IR_SITOFP), 1);
  const ir_inst *c = nth_op(fn, IR_FCMP, 0);
  CHECK(c && c->aux == IR_FCMP_OLT && c->width == 1);
  CHECK_EQ_U64(count_op(fn, IR_FNEG), 1);
  CHECK_EQ_U64(count_op(fn, IR_FADD), 1);
  fn = fn_named(p, "fmuladd");
  if (!fn) return;
  const ir_inst *fa = nth_op(fn, IR_FABS, 0), *fm = nth_op(fn, IR_FMA, 0);
  CHECK(fa && fa->width == 32 && fa->nops == 1);
  CHECK(fm && fm->width == 64 && fm->nops == 3);
  CHECK_EQ_U64(count_op(fn, IR_FPEXT), 1);
}

static void test_calls(const ir_program *p) {
  const ir_function *fn = fn_named(p, "calls");
  if (!fn) return;
  const ir_inst *c0 = nth_op(fn, IR_CALL, 0), *c1 = nth_op(fn, IR_CALL, 1);
  CHECK(c0 && c1);
  if (!c0 || !c1) return;
  CHECK_EQ_U64(c0->u.call.func, ir_find_function(p, "twice"));
  CHECK_EQ_U64(ir_operands(fn, c0)[0].kind, IR_OPND_FUNC);
  CHECK_EQ_U64(c0->nops, 2);
  CHECK_EQ_U64(c0->u.call.nfixed, 1);
  CHECK_EQ_U64(c0->width, 32);
  CHECK_EQ_U64(c1->u.call.func, ir_find_function(p, "regs"));
  CHECK_EQ_U64(c1->nops, 4);
  CHECK(is_const(p, &ir_operands(fn, c1)[2], 1, 64));
  CHECK(is_const(p, &ir_operands(fn, c1)[3], 'a', 8));
}

static void test_dump(const ir_program *p) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  ir_dump(f, p);
  fclose(f);
  CHECK(text && strstr(text, "define sw("));
  CHECK(text && strstr(text, "switch %0 {1,2}->bb"));
  CHECK(text && strstr(text, "sadd.overflow flag@4"));
  CHECK(text && strstr(text, "global @gp size=8 align=8 init=0000000000000000 [0]=@arr+12"));
  CHECK(text && strstr(text, "unsupported \"unsupported instruction indirectbr"));
  free(text);
}

static void test_basic(void) {
  ir_program *p = load(INPUTS "basic.c", NULL);
  CHECK(p != NULL);
  if (!p) return;
  CHECK_EQ_U64(p->pointer_size, 8);
  CHECK(p->stats.definitions >= 15);
  test_registers(p);
  test_loop_phis(p);
  test_if_else(p);
  test_switch(p);
  test_gep(p);
  test_globals(p);
  test_lines(p);
  test_intrinsics(p);
  test_unsupported(p);
  test_float(p);
  test_calls(p);
  test_dump(p);
  ir_free(p);
}

/* ---- .ll and .bc inputs ------------------------------------------------------------------ */

static const char ll_text[] =
    "target datalayout = "
    "\"e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128\"\n"
    "target triple = \"x86_64-pc-linux-gnu\"\n"
    "@g = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]\n"
    "@h = external global i32\n"
    "@al = alias i32, getelementptr ([4 x i32], [4 x i32]* @g, i64 0, i64 2)\n"
    "@big = global i128 18446744073709551621\n"
    "@fp = global i32 (i32)* @swap\n"
    "@diff = global i64 sub (i64 ptrtoint (i32* getelementptr ([4 x i32], [4 x i32]* @g, i64 0, "
    "i64 3) to i64), i64 ptrtoint ([4 x i32]* @g to i64))\n"
    "@pair = global { i8, i8* } { i8 9, i8* bitcast (i32* @h to i8*) }\n"
    "@neg = global i32* getelementptr (i32, i32* @h, i64 -1)\n"
    "declare double @llvm.sqrt.f64(double)\n"
    "declare i32 @llvm.umin.i32(i32, i32)\n"
    "declare i32 @llvm.fshl.i32(i32, i32, i32)\n"
    "define i32 @swap(i32 %n) {\n"
    "entry:\n"
    "  br label %loop\n"
    "loop:\n"
    "  %a = phi i32 [ 1, %entry ], [ %b, %loop ]\n"
    "  %b = phi i32 [ 2, %entry ], [ %a, %loop ]\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %i1 = add i32 %i, 1\n"
    "  %c = icmp ult i32 %i1, %n\n"
    "  br i1 %c, label %loop, label %out\n"
    "out:\n"
    "  %m = call i32 @llvm.umin.i32(i32 %a, i32 %b)\n"
    "  %f = call i32 @llvm.fshl.i32(i32 %m, i32 %b, i32 3)\n"
    "  ret i32 %f\n"
    "}\n"
    "define i128 @wide(i128 %x, i32 %k) {\n"
    "  %y = add i128 %x, 340282366920938463463374607431768211455\n"
    "  %u = add i32 %k, undef\n"
    "  %d = sub i64 ptrtoint (i32* getelementptr ([4 x i32], [4 x i32]* @g, i64 0, i64 3) to i64), "
    "ptrtoint ([4 x i32]* @g to i64)\n"
    "  %p = load i32, i32* @al\n"
    "  %s = call double @llvm.sqrt.f64(double 2.0)\n"
    "  %agg = insertvalue { i32, i64 } undef, i32 %k, 0\n"
    "  %agg2 = insertvalue { i32, i64 } %agg, i64 %d, 1\n"
    "  %e = extractvalue { i32, i64 } %agg2, 1\n"
    "  %v = insertelement <2 x i32> undef, i32 %k, i32 0\n"
    "  %fz = freeze i32 %u\n"
    "  switch i32 %k, label %def [ i32 1, label %one\n"
    "                              i32 2, label %def\n"
    "                              i32 3, label %one ]\n"
    "one:\n"
    "  ret i128 %y\n"
    "def:\n"
    "  ret i128 0\n"
    "}\n";

static void test_ll(void) {
  const char *path = write_file("input.ll", ll_text, sizeof ll_text - 1);
  ir_program *p = load(path, NULL);
  CHECK(p != NULL);
  if (!p) return;
  /* globals: aliases resolve to their aliasee; i128 initializer; function pointer reloc */
  const ir_global *big = &p->globals[ir_find_global(p, "big")];
  CHECK_EQ_U64(big->size, 16);
  CHECK(big->init && big->init[0] == 5 && big->init[8] == 1);
  const ir_global *h = &p->globals[ir_find_global(p, "h")];
  CHECK(h->is_decl && !h->init && h->size == 4);
  const ir_global *diff = &p->globals[ir_find_global(p, "diff")];
  CHECK(diff->init && diff->init[0] == 12 && diff->nrelocs == 0 && !diff->unsupported);
  const ir_global *pair = &p->globals[ir_find_global(p, "pair")];
  CHECK(pair->init && pair->init[0] == 9 && pair->nrelocs == 1 && pair->relocs[0].offset == 8 &&
        pair->relocs[0].target == ir_find_global(p, "h") && pair->relocs[0].addend == 0);
  const ir_global *neg = &p->globals[ir_find_global(p, "neg")];
  CHECK(neg->nrelocs == 1 && neg->relocs[0].addend == -4);
  const ir_global *fpg = &p->globals[ir_find_global(p, "fp")];
  CHECK(fpg->nrelocs == 1 && fpg->relocs[0].is_function &&
        fpg->relocs[0].target == ir_find_function(p, "swap"));

  /* swap: the back edge's moves are a parallel swap */
  const ir_function *fn = fn_named(p, "swap");
  if (fn) {
    const ir_inst *c = nth_op(fn, IR_CONDBR, 0);
    CHECK(c != NULL);
    if (c) {
      const ir_edge *back = &fn->edges[c->u.br.edge[0]];
      CHECK_EQ_U64(back->target, 1);
      CHECK_EQ_U64(back->nmoves, 3);
      const ir_move *mv = &fn->moves[back->moves];
      /* registers: %n=0, %a=1, %b=2, %i=3, %i1=4 */
      CHECK(mv[0].dst == 1 && is_reg(&mv[0].src, 2));
      CHECK(mv[1].dst == 2 && is_reg(&mv[1].src, 1));
      CHECK(mv[2].dst == 3 && is_reg(&mv[2].src, 4));
      CHECK_EQ_U64(fn->edges[c->u.br.edge[1]].nmoves, 0);
    }
    CHECK_EQ_U64(count_op(fn, IR_UMIN), 1);
    const ir_inst *fs = nth_op(fn, IR_FSHL, 0);
    CHECK(fs && fs->nops == 3 && is_const(p, &ir_operands(fn, fs)[2], 3, 32));
    CHECK(!fn->file && !fn->insts[0].line); /* no debug info */
  }

  fn = fn_named(p, "wide");
  if (fn) {
    CHECK_EQ_U64(fn->reg_width[0], 128);
    CHECK_EQ_U64(fn->ret_width, 128);
    const ir_inst *in = fn->insts;
    CHECK_EQ_U64(in[0].op, IR_ADD);
    CHECK_EQ_U64(in[0].width, 128);
    CHECK(is_const(p, &ir_operands(fn, &in[0])[1], ~(u128)0, 128));
    CHECK_EQ_U64(in[1].op, IR_ADD);
    CHECK(is_const(p, &ir_operands(fn, &in[1])[1], 0, 32)); /* undef → 0 */
    CHECK(p->stats.undef_operands >= 1);
    /* constant-expression operands fold to global addresses */
    CHECK_EQ_U64(in[2].op, IR_SUB);
    const ir_operand *s0 = &ir_operands(fn, &in[2])[0], *s1 = &ir_operands(fn, &in[2])[1];
    CHECK(s0->kind == IR_OPND_GLOBAL && s0->offset == 12 && s0->width == 64);
    CHECK(s1->kind == IR_OPND_GLOBAL && s1->offset == 0 && s1->index == s0->index);
    /* the load through the alias reads g + 8 */
    CHECK_EQ_U64(in[3].op, IR_LOAD);
    const ir_operand *ptr = &ir_operands(fn, &in[3])[0];
    CHECK(ptr->kind == IR_OPND_GLOBAL && ptr->index == ir_find_global(p, "g") && ptr->offset == 8);
    CHECK(unsupported_with(fn, "unsupported intrinsic llvm.sqrt.f64") != NULL);
    const ir_inst *iv = nth_op(fn, IR_INSERTVALUE, 1);
    CHECK(iv && iv->u.agg.offset == 8 && iv->width == 128);
    const ir_inst *ev = nth_op(fn, IR_EXTRACTVALUE, 0);
    CHECK(ev && ev->u.agg.offset == 8 && ev->width == 64);
    CHECK(unsupported_with(fn, "value of unsupported type <2 x i32>") != NULL);
    CHECK_EQ_U64(count_op(fn, IR_MOVE), 1); /* freeze */
    /* case 2 targets the default block: dropped; 1 and 3 share one group */
    const ir_inst *s = nth_op(fn, IR_SWITCH, 0);
    CHECK(s && s->u.sw.ngroups == 1 && fn->groups[s->u.sw.groups].nvalues == 2);
    CHECK_EQ_U64(p->stats.switch_cases_to_default, 1);
  }
  ir_free(p);
}

/* Intrinsics by overload, and an optnone function that mem2reg must still process. */
static const char ll_intrinsics[] =
    "declare i32 @llvm.ctlz.i32(i32, i1)\n"
    "declare i16 @llvm.bswap.i16(i16)\n"
    "declare i32 @llvm.abs.i32(i32, i1)\n"
    "declare i64 @llvm.smax.i64(i64, i64)\n"
    "declare i64 @llvm.expect.i64(i64, i64)\n"
    "declare i64 @llvm.objectsize.i64.p0i8(i8*, i1, i1, i1)\n"
    "declare void @llvm.trap()\n"
    "declare { i64, i1 } @llvm.usub.with.overflow.i64(i64, i64)\n"
    "declare { i128, i1 } @llvm.umul.with.overflow.i128(i128, i128)\n"
    "declare void @llvm.lifetime.start.p0i8(i64, i8*)\n"
    "define i64 @intr(i32 %x, i16 %h, i64 %w, i8* %p) {\n"
    "  call void @llvm.lifetime.start.p0i8(i64 4, i8* %p)\n"
    "  %a = call i32 @llvm.ctlz.i32(i32 %x, i1 false)\n"
    "  %b = call i16 @llvm.bswap.i16(i16 %h)\n"
    "  %c = call i32 @llvm.abs.i32(i32 %x, i1 true)\n"
    "  %d = call i64 @llvm.smax.i64(i64 %w, i64 -5)\n"
    "  %e = call i64 @llvm.expect.i64(i64 %d, i64 1)\n"
    "  %f = call i64 @llvm.objectsize.i64.p0i8(i8* %p, i1 false, i1 true, i1 false)\n"
    "  %o = call { i64, i1 } @llvm.usub.with.overflow.i64(i64 %w, i64 %e)\n"
    "  %q = call { i128, i1 } @llvm.umul.with.overflow.i128(i128 1, i128 2)\n"
    "  %t = icmp eq i64 %f, 0\n"
    "  br i1 %t, label %trap, label %ok\n"
    "trap:\n"
    "  call void @llvm.trap()\n"
    "  unreachable\n"
    "ok:\n"
    "  ret i64 %e\n"
    "}\n"
    "define i32 @kept(i32 %x) #0 {\n"
    "  %s = alloca i32\n"
    "  store i32 %x, i32* %s\n"
    "  %v = load i32, i32* %s\n"
    "  ret i32 %v\n"
    "}\n"
    "attributes #0 = { noinline optnone }\n";

static void test_ll_intrinsics(void) {
  const char *path = write_file("intrinsics.ll", ll_intrinsics, sizeof ll_intrinsics - 1);
  ir_program *p = load(path, NULL);
  CHECK(p != NULL);
  if (!p) return;
  const ir_function *fn = fn_named(p, "intr");
  if (fn) {
    /* lifetime.start is dropped; the first instruction is ctlz */
    CHECK_EQ_U64(fn->insts[0].op, IR_CTLZ);
    CHECK_EQ_U64(fn->insts[0].dst, 4);
    CHECK(is_const(p, &ir_operands(fn, &fn->insts[0])[1], 0, 1));
    CHECK_EQ_U64(fn->insts[1].op, IR_BSWAP);
    CHECK_EQ_U64(fn->insts[1].width, 16);
    CHECK_EQ_U64(fn->insts[2].op, IR_ABS);
    CHECK_EQ_U64(fn->insts[3].op, IR_SMAX);
    CHECK(is_const(p, &ir_operands(fn, &fn->insts[3])[1], (uint64_t)-5, 64));
    CHECK_EQ_U64(fn->insts[4].op, IR_MOVE); /* expect */
    CHECK(is_reg(&ir_operands(fn, &fn->insts[4])[0], 7));
    CHECK_EQ_U64(fn->insts[5].op, IR_MOVE); /* objectsize: unknown, like KLEE */
    CHECK(is_const(p, &ir_operands(fn, &fn->insts[5])[0], UINT64_MAX, 64));
    CHECK_EQ_U64(fn->insts[6].op, IR_USUBO);
    CHECK_EQ_U64(fn->insts[6].width, 128);
    CHECK_EQ_U64(fn->insts[6].u.ovf.flag_offset, 8);
    CHECK_EQ_U64(fn->insts[7].op, IR_UNSUPPORTED); /* { i128, i1 } is 256 bits */
    CHECK(unsupported_with(fn, "{ i128, i1 }") != NULL);
    CHECK_EQ_U64(count_op(fn, IR_TRAP), 1);
    CHECK_EQ_U64(count_op(fn, IR_UNREACHABLE), 1);
  }
  fn = fn_named(p, "kept");
  if (fn) {
    CHECK_EQ_U64(count_op(fn, IR_ALLOCA), 0); /* optnone was stripped: mem2reg ran */
    CHECK_EQ_U64(fn->ninsts, 1);
  }
  ir_free(p);
}

static void test_bc(void) {
  /* Load the C input, write it as bitcode, and load that: the same program comes back. */
  bc_error err = {0};
  bc_module *m = bc_load(INPUTS "basic.c", NULL, &err);
  CHECK(m != NULL);
  if (!m) return;
  const char *path = tmp_path("basic.bc");
  CHECK_EQ_U64(LLVMWriteBitcodeToFile(m->module, path), 0);
  ir_program *a = ir_decode(m->module, NULL);
  bc_free(m);
  ir_program *b = load(path, NULL);
  /* and bc_load in its two halves, with a load of the .bc between them */
  bc_pending *pending = bc_load_start(INPUTS "basic.c", NULL, &err);
  ir_program *between = load(path, NULL);
  bc_module *halves = pending ? bc_load_finish(pending, &err) : NULL;
  ir_program *c = halves ? ir_decode(halves->module, NULL) : NULL;
  bc_free(halves);
  ir_program *const same[] = {b, between, c};
  for (size_t k = 0; k < 3; k++) {
    CHECK(a && same[k]);
    if (a && same[k]) {
      CHECK_EQ_U64(a->stats.instructions, same[k]->stats.instructions);
      CHECK_EQ_U64(a->stats.phi_moves, same[k]->stats.phi_moves);
      CHECK_EQ_U64(a->nfuncs, same[k]->nfuncs);
      CHECK_EQ_U64(a->nglobals, same[k]->nglobals);
    }
    ir_free(same[k]);
  }
  ir_free(a);
}

/* ---- errors ---------------------------------------------------------------------------- */

static void test_errors(void) {
  char *detail = NULL, *msg;
  /* random bytes named .bc */
  unsigned char junk[256];
  for (unsigned i = 0; i < sizeof junk; i++) junk[i] = (unsigned char)(i * 37 + 11);
  const char *bad = write_file("junk.bc", junk, sizeof junk);
  msg = load_error(bad, NULL, NULL);
  char want[600];
  snprintf(want, sizeof want, "symq: error: %s: invalid bitcode: ", bad);
  CHECK(starts_with(msg, want));
  CHECK(one_line(msg));
  free(msg);

  /* bitcode magic followed by garbage */
  unsigned char trunc_bc[64] = {'B', 'C', 0xC0, 0xDE, 0x35, 0x14, 0, 0, 5, 0, 0, 0};
  bad = write_file("truncated.bc", trunc_bc, sizeof trunc_bc);
  msg = load_error(bad, NULL, NULL);
  snprintf(want, sizeof want, "symq: error: %s: invalid bitcode: ", bad);
  CHECK(starts_with(msg, want) && one_line(msg));
  free(msg);

  msg = load_error("/nonexistent/dir/missing.c", NULL, NULL);
  CHECK_EQ_STR(msg,
               "symq: error: /nonexistent/dir/missing.c: cannot open: No such file or directory");
  free(msg);
  msg = load_error("/nonexistent/dir/missing.bc", NULL, NULL);
  CHECK(starts_with(msg, "symq: error: /nonexistent/dir/missing.bc: cannot open: "));
  free(msg);

  /* clang's failure: exit status and stderr kept */
  static const char broken_c[] = "int f(void) {\n  return undeclared_thing;\n}\n";
  bad = write_file("broken.c", broken_c, sizeof broken_c - 1);
  msg = load_error(bad, NULL, &detail);
  snprintf(want, sizeof want, "symq: error: %s: clang failed (exit status 1): ", bad);
  CHECK(starts_with(msg, want));
  CHECK(msg && strstr(msg, "undeclared_thing"));
  CHECK(one_line(msg));
  CHECK(detail && strstr(detail, "error:") && strstr(detail, "1 error generated"));
  free(msg);
  free(detail);
  detail = NULL;

  /* a .ll syntax error */
  static const char broken_ll[] = "define i32 @f() {\n  ret i32 %nope\n}\n";
  bad = write_file("broken.ll", broken_ll, sizeof broken_ll - 1);
  msg = load_error(bad, NULL, &detail);
  snprintf(want, sizeof want, "symq: error: %s: invalid IR: ", bad);
  CHECK(starts_with(msg, want) && one_line(msg));
  CHECK(msg && strstr(msg, "use of undefined value '%nope'") && !strstr(msg, "^"));
  CHECK(detail && strstr(detail, "^"));
  free(msg);
  free(detail);
  detail = NULL;

  /* parses, but the verifier rejects it (use before def in the same block) */
  static const char unverified[] =
      "define i32 @f(i32 %x) {\n  %b = add i32 %a, 1\n  %a = add i32 %x, 1\n  ret i32 %b\n}\n";
  bad = write_file("unverified.ll", unverified, sizeof unverified - 1);
  msg = load_error(bad, NULL, &detail);
  snprintf(want, sizeof want, "symq: error: %s: invalid module: ", bad);
  CHECK(starts_with(msg, want) && one_line(msg));
  CHECK(detail != NULL);
  free(msg);
  free(detail);
  detail = NULL;

  bad = write_file("notes.txt", "hello", 5);
  msg = load_error(bad, NULL, NULL);
  CHECK(msg && strstr(msg, "unknown input kind") && one_line(msg));
  free(msg);

  bc_options bogus = {.passes = "no-such-pass"};
  msg = load_error(INPUTS "helper.c", &bogus, NULL);
  CHECK(msg && strstr(msg, "pass pipeline \"no-such-pass\" failed") && one_line(msg));
  free(msg);

  bc_options noclang = {.clang = "/nonexistent/clang-14"};
  msg = load_error(INPUTS "helper.c", &noclang, NULL);
  CHECK(msg && strstr(msg, "cannot run /nonexistent/clang-14") && one_line(msg));
  free(msg);

  /* The two halves: what cannot be read, or is not C and does not load, bc_load_start
   * refuses itself; a C input's compile runs on between them, and its failure is
   * bc_load_finish's, worded as bc_load words it. */
  bc_error err = {0};
  CHECK(bc_load_start("/nonexistent/dir/missing.c", NULL, &err) == NULL);
  CHECK_EQ_STR(err.message,
               "symq: error: /nonexistent/dir/missing.c: cannot open: No such file or directory");
  CHECK(bc_load_start(tmp_path("broken.ll"), NULL, &err) == NULL);
  CHECK(err.message && strstr(err.message, "use of undefined value '%nope'"));
  bc_pending *pending = bc_load_start(tmp_path("broken.c"), NULL, &err);
  CHECK(pending != NULL);
  if (pending) {
    msg = load_error(tmp_path("broken.c"), NULL, NULL); /* bc_load's, meanwhile */
    CHECK(bc_load_finish(pending, &err) == NULL);
    CHECK(msg && err.message && !strcmp(msg, err.message));
    free(msg);
  }
  bc_error_clear(&err);

  /* no temporary directory is left behind */
  char cmd[600];
  snprintf(cmd, sizeof cmd, "test -z \"$(ls -A %s | grep symq-bc-)\"", tmpdir);
  CHECK(system(cmd) == 0);
}

/* ---- options --------------------------------------------------------------------------- */

static void test_link_and_flags(void) {
  const char *link[] = {INPUTS "helper.c"};
  const char *incs[] = {INPUTS};
  const char *cflags[] = {"-DUNUSED_MACRO=1"};
  bc_options o = {.link = link,
                  .n_link = 1,
                  .include_dirs = incs,
                  .n_include_dirs = 1,
                  .cflags = cflags,
                  .n_cflags = 1};
  ir_program *p = load(INPUTS "uses_helper.c", &o);
  CHECK(p != NULL);
  if (p) {
    const ir_function *h = fn_named(p, "helper");
    CHECK(h && !h->is_decl && h->file && strstr(h->file, "helper.c"));
    const ir_function *u = fn_named(p, "use");
    const ir_inst *c = u ? nth_op(u, IR_CALL, 0) : NULL;
    CHECK(c && c->u.call.func == ir_find_function(p, "helper"));
    ir_free(p);
  }
  /* linking a module into itself: every definition conflicts, the message names the file */
  const char *self[] = {INPUTS "uses_helper.c"};
  bc_options dup = {.link = self, .n_link = 1};
  char *msg = load_error(INPUTS "uses_helper.c", &dup, NULL);
  CHECK(starts_with(msg, "symq: error: " INPUTS "uses_helper.c: cannot link: "));
  CHECK(msg && strstr(msg, "'use'") && one_line(msg));
  free(msg);
  ir_program *q = load(INPUTS "uses_helper.c", NULL);
  CHECK(q && fn_named(q, "helper") && fn_named(q, "helper")->is_decl);
  ir_free(q);
}

static bool defined(const ir_program *p, const char *name) {
  uint32_t i = ir_find_function(p, name);
  return i != IR_NONE && !p->funcs[i].is_decl;
}

static bool copy_file(const char *from, const char *to, bool spoil_hash) {
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  bool ok = in && out;
  int c, nl = 0;
  while (ok && (c = fgetc(in)) != EOF) {
    if (spoil_hash && !nl && c >= '0' && c <= '9') c = c == '9' ? '8' : c + 1; /* header line */
    nl |= c == '\n';
    ok = fputc(c, out) != EOF;
  }
  if (in) fclose(in);
  if (out && fclose(out) != 0) ok = false;
  return ok;
}

/* The runtime is linked by its reference index: what the program reaches (transitively, and
 * what `keep` lists), nothing else; without a matching index, whole. */
static void test_link_reached(void) {
  static const char prog[] =
      "#include <stdio.h>\n#include <string.h>\n"
      "int main(int argc, char **argv) {\n"
      "  printf(\"%zu %d\\n\", strlen(argv[0]), argc);\n  return 0;\n}\n";
  const char *src = write_file("reach.c", prog, sizeof prog - 1);
  const char *rt = tmp_path("rt.bc"), *stale = tmp_path("stale.bc");
  char rt_refs[600], stale_refs[600];
  snprintf(rt_refs, sizeof rt_refs, "%s.refs", rt);
  snprintf(stale_refs, sizeof stale_refs, "%s.refs", stale);
  CHECK(copy_file(SYMQ_RUNTIME_BC, rt, false) &&
        copy_file(SYMQ_RUNTIME_BC ".refs", rt_refs, false));
  CHECK(copy_file(SYMQ_RUNTIME_BC, stale, false) &&
        copy_file(SYMQ_RUNTIME_BC ".refs", stale_refs, true));
  const char *keep[] = {"atexit"};
  const char *link[] = {rt}, *link_stale[] = {stale};
  bc_options o = {.link = link, .n_link = 1, .keep = keep, .n_keep = 1};
  bc_options whole = {.link = link_stale, .n_link = 1, .keep = keep, .n_keep = 1};
  ir_program *p = load(src, &o), *w = load(src, &whole);
  CHECK(p && w);
  if (p && w) {
    /* named by the program; reached only through printf (the model's internal helper);
     * kept although nothing calls it */
    CHECK(defined(p, "strlen") && defined(p, "printf") && defined(p, "print"));
    CHECK(defined(p, "atexit"));
    /* reached by nothing: not linked, unless the index is stale */
    CHECK(ir_find_function(p, "qsort") == IR_NONE && ir_find_function(p, "exit") == IR_NONE);
    CHECK(defined(w, "qsort") && defined(w, "exit") && defined(w, "print"));
    CHECK(p->stats.instructions < w->stats.instructions / 2);
    CHECK_EQ_U64(fn_named(p, "strlen")->ninsts, fn_named(w, "strlen")->ninsts);
    CHECK_EQ_U64(fn_named(p, "print")->ninsts, fn_named(w, "print")->ninsts);
  }
  ir_free(p);
  ir_free(w);
  /* a program's own definition of a model function (weak there) wins, as it does whole */
  static const char own[] =
      "#include <stdlib.h>\n"
      "int atoi(const char *s) { return *s; }\n"
      "int main(int argc, char **argv) { return atoi(argv[0]) + argc; }\n";
  const char *own_src = write_file("own.c", own, sizeof own - 1);
  p = load(own_src, &o);
  w = load(own_src, &whole);
  CHECK(p && w);
  if (p && w) {
    const ir_function *mine = fn_named(p, "atoi");
    CHECK(mine && mine->file && strstr(mine->file, "own.c"));
    CHECK_EQ_U64(mine ? mine->ninsts : 0, fn_named(w, "atoi")->ninsts);
  }
  ir_free(p);
  ir_free(w);
  unlink(rt_refs);
  unlink(stale_refs);
}

static void test_optimize(void) {
  ir_program *d = load(INPUTS "basic.c", NULL);
  bc_options o = {.optimize = true};
  ir_program *p = load(INPUTS "basic.c", &o);
  CHECK(d && p);
  if (d && p) {
    const ir_function *fd = fn_named(d, "const_sum"), *fo = fn_named(p, "const_sum");
    CHECK(fd && fd->ninsts > 5);
    CHECK(fo && fo->ninsts == 1);
    if (fo && fo->ninsts == 1) {
      CHECK_EQ_U64(fo->insts[0].op, IR_RET);
      CHECK(is_const(p, &ir_operands(fo, &fo->insts[0])[0], 45, 32));
    }
    CHECK(p->stats.instructions < d->stats.instructions);
  }
  ir_free(d);
  ir_free(p);
}

/* Fails the 1st, 2nd, ... allocation of a decode until one completes: each failure must
 * return a message and free what was built (ASan's leak check watches). */
static void test_out_of_memory(void) {
  bc_error err = {0};
  bc_module *m = bc_load(INPUTS "basic.c", NULL, &err);
  CHECK(m != NULL);
  if (!m) return;
  unsigned long n;
  bool done = false;
  for (n = 1; n < 100000 && !done; n++) {
    xalloc_fail_after(n);
    char *msg = NULL;
    ir_program *p = ir_decode(m->module, &msg);
    if (p) {
      done = true;
      CHECK(msg == NULL);
      ir_free(p);
    } else {
      if (!msg || !strstr(msg, "out of memory")) {
        CHECK(!"decode failed without an out-of-memory message");
        free(msg);
        break;
      }
      free(msg);
    }
  }
  xalloc_fail_after(0);
  CHECK(done);
  CHECK(n > 10);
  bc_free(m);
}

static int dump_main(const char *path, bool optimize) {
  bc_options o = {.optimize = optimize};
  ir_program *p = load(path, &o);
  if (!p) return 1;
  ir_dump(stdout, p);
  ir_free(p);
  return 0;
}

int main(int argc, char **argv) {
  if (argc > 1) return dump_main(argv[1], argc > 2 && !strcmp(argv[2], "-O"));
  const char *t = getenv("TMPDIR");
  snprintf(tmpdir, sizeof tmpdir, "%s/test_ir-XXXXXX", t && *t ? t : "/tmp");
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  setenv("TMPDIR", tmpdir, 1); /* so the check for leftovers sees bc's temporaries */
  test_basic();
  test_ll();
  test_ll_intrinsics();
  test_bc();
  test_errors();
  test_link_and_flags();
  test_link_reached();
  test_optimize();
  test_out_of_memory();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return check_exit();
}
