/*
 * coverage.c — coverage and nurs:covnew distances (contract in coverage.h).
 */
#include "engine/exec/coverage.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

void coverage_init(coverage *cov, const ir_program *prog) {
  cov->prog = prog;
  cov->covered = xcalloc((size_t)prog->nfuncs + 1, sizeof *cov->covered);
  cov->to_uncovered = xcalloc((size_t)prog->nfuncs + 1, sizeof *cov->to_uncovered);
  cov->to_return = xcalloc((size_t)prog->nfuncs + 1, sizeof *cov->to_return);
  cov->distances_stale = xcalloc((size_t)prog->nfuncs + 1, sizeof *cov->distances_stale);
  for (uint32_t k = 0; k < prog->nfuncs; k++) {
    cov->covered[k] = xcalloc(prog->funcs[k].ninsts + 1, 1);
    /* zero: before anything runs every instruction is uncovered, so every distance is 0 */
    cov->to_uncovered[k] = xcalloc(prog->funcs[k].ninsts + 1, sizeof **cov->to_uncovered);
    cov->to_return[k] = xcalloc(prog->funcs[k].ninsts + 1, sizeof **cov->to_return);
    cov->distances_stale[k] = true;
  }
}

void coverage_free(coverage *cov) {
  for (uint32_t k = 0; k < cov->prog->nfuncs; k++) {
    free(cov->covered[k]);
    free(cov->to_uncovered[k]);
    free(cov->to_return[k]);
  }
  free(cov->covered);
  free(cov->to_uncovered);
  free(cov->to_return);
  free(cov->distances_stale);
}

/* ---- lines ------------------------------------------------------------------------------ */

/* Is fn part of symq's own runtime (whose lines are not the user's coverage)? */
static bool is_runtime_function(const ir_function *fn) {
  static const char runtime_dir[] = SYMQ_SOURCE_DIR "/runtime/";
  return fn->file && strncmp(fn->file, runtime_dir, sizeof runtime_dir - 1) == 0;
}

/* Distinct (function, line) pairs of the user's code: covered ones, or all of them. */
uint64_t coverage_lines(const coverage *cov, bool covered_only) {
  uint64_t total = 0;
  for (uint32_t fi = 0; fi < cov->prog->nfuncs; fi++) {
    const ir_function *fn = &cov->prog->funcs[fi];
    if (fn->is_decl || !fn->ninsts || is_runtime_function(fn)) continue;
    uint32_t max_line = 0;
    for (uint32_t k = 0; k < fn->ninsts; k++)
      if (fn->insts[k].line > max_line) max_line = fn->insts[k].line;
    uint8_t *seen = xcalloc((size_t)max_line + 1, 1);
    for (uint32_t k = 0; k < fn->ninsts; k++) {
      uint32_t line = fn->insts[k].line;
      if (!line || seen[line]) continue;
      if (covered_only && !cov->covered[fi][k]) continue;
      seen[line] = 1;
      total++;
    }
    free(seen);
  }
  return total;
}

/* ---- nurs:covnew ------------------------------------------------------------------------ */

enum { DIST_NONE = UINT32_MAX };

static uint32_t dist_add(uint32_t a, uint32_t b) {
  return a == DIST_NONE || b == DIST_NONE || a > DIST_NONE - b ? DIST_NONE : a + b;
}

static uint32_t dist_min(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* Recomputes fn's two distance tables: backward relaxation over the CFG until nothing
 * changes (the successors of a terminator are its edges' first instructions; a direct call
 * to a defined function may also reach the callee's uncovered code, as far away as the
 * callee's entry distance, however stale that one is). */
static void compute_distances(coverage *cov, uint32_t fi) {
  const ir_function *fn = &cov->prog->funcs[fi];
  uint32_t *dist = cov->to_uncovered[fi], *ret = cov->to_return[fi];
  for (uint32_t k = 0; k < fn->ninsts; k++) {
    dist[k] = cov->covered[fi][k] ? DIST_NONE : 0;
    ret[k] = fn->insts[k].op == IR_RET ? 0 : DIST_NONE;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (uint32_t k = fn->ninsts; k-- > 0;) {
      const ir_inst *in = &fn->insts[k];
      uint32_t best = dist[k], best_ret = ret[k];
      uint32_t edges[2], nedges = 0;
      const ir_case_group *groups = NULL;
      uint32_t ngroups = 0;
      switch (in->op) {
      case IR_BR: edges[nedges++] = in->u.br.edge[0]; break;
      case IR_CONDBR: edges[nedges++] = in->u.br.edge[0], edges[nedges++] = in->u.br.edge[1]; break;
      case IR_SWITCH:
        edges[nedges++] = in->u.sw.dflt;
        groups = &fn->groups[in->u.sw.groups];
        ngroups = in->u.sw.ngroups;
        break;
      case IR_RET:
      case IR_UNREACHABLE:
      case IR_TRAP: break;
      default:
        if (k + 1 < fn->ninsts) {
          best = dist_min(best, dist_add(dist[k + 1], 1));
          best_ret = dist_min(best_ret, dist_add(ret[k + 1], 1));
        }
        if (in->op == IR_CALL && in->u.call.func != IR_NONE) {
          uint32_t callee = in->u.call.func;
          if (!cov->prog->funcs[callee].is_decl && cov->prog->funcs[callee].ninsts)
            best = dist_min(best, dist_add(cov->to_uncovered[callee][0], 1));
        }
        break;
      }
      for (uint32_t e = 0; e < nedges + ngroups; e++) {
        uint32_t edge = e < nedges ? edges[e] : groups[e - nedges].edge;
        uint32_t target = fn->blocks[fn->edges[edge].target].first;
        best = dist_min(best, dist_add(dist[target], 1));
        best_ret = dist_min(best_ret, dist_add(ret[target], 1));
      }
      if (best != dist[k] || best_ret != ret[k]) {
        dist[k] = best, ret[k] = best_ret;
        changed = true;
      }
    }
  }
  cov->distances_stale[fi] = false;
}

/* The distance from st to the nearest uncovered instruction: in the current function, or
 * after returning to a caller (KLEE's min-dist-to-uncovered, along the call stack). */
static uint32_t distance_to_uncovered(coverage *cov, const state *st) {
  uint32_t best = DIST_NONE, to_here = 0;
  for (uint32_t k = st->nframes; k-- > 0;) {
    const state_frame *f = &st->frames[k];
    if (cov->distances_stale[f->func]) compute_distances(cov, f->func);
    /* below the top, the frame resumes after its call */
    uint32_t pc = k + 1 == st->nframes ? f->pc : f->pc + 1;
    if (pc >= cov->prog->funcs[f->func].ninsts) break;
    best = dist_min(best, dist_add(to_here, cov->to_uncovered[f->func][pc]));
    to_here = dist_add(to_here, cov->to_return[f->func][pc]);
    if (to_here == DIST_NONE) break;
  }
  return best;
}

/* nurs:covnew's weight, KLEE's formula: the inverse squares of the distance to uncovered
 * code and of the instructions run since the state last covered something new. */
double coverage_weight(void *state_ptr, void *ctx) {
  coverage *cov = ctx;
  const state *st = state_ptr;
  uint32_t md2u = distance_to_uncovered(cov, st);
  double inv_md2u = 1.0 / (md2u == DIST_NONE ? 10000.0 : (double)(md2u ? md2u : 1));
  double inv_cov_new = 0;
  if (st->since_new_coverage)
    inv_cov_new = 1.0 / (double)(st->since_new_coverage > 1001 ? st->since_new_coverage - 1000 : 1);
  return inv_cov_new * inv_cov_new + inv_md2u * inv_md2u;
}
