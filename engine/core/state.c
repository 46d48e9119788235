/* state.c — execution states (contract in state.h). */
#include "engine/core/state.h"
#include "engine/core/xalloc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

state *state_new(uint64_t id) {
  state *s = xcalloc(1, sizeof *s);
  s->id = id;
  s->mem = mem_space_new();
  s->names = symnames_new();
  return s;
}

static void copy_frame(state_frame *dst, const state_frame *src) {
  *dst = *src;
  dst->regs = xcalloc(src->nregs, sizeof *dst->regs);
  for (uint32_t r = 0; r < src->nregs; r++) dst->regs[r] = expr_ref(src->regs[r]);
  dst->cap_allocas = src->nallocas;
  dst->allocas = src->nallocas ? xrealloc(NULL, src->nallocas * sizeof *dst->allocas) : NULL;
  for (uint32_t k = 0; k < src->nallocas; k++) dst->allocas[k] = mem_object_ref(src->allocas[k]);
  dst->varargs = mem_object_ref(src->varargs);
}

state *state_fork(const state *s, uint64_t id) {
  state *d = xcalloc(1, sizeof *d);
  d->id = id;
  d->nframes = d->cap_frames = s->nframes;
  d->frames = xcalloc(s->nframes, sizeof *d->frames);
  for (uint32_t k = 0; k < s->nframes; k++) copy_frame(&d->frames[k], &s->frames[k]);
  d->mem = mem_space_clone(s->mem);
  d->npc = d->cap_pc = s->npc;
  d->pc = xcalloc(s->npc, sizeof *d->pc);
  for (size_t k = 0; k < s->npc; k++) d->pc[k] = expr_ref(s->pc[k]);
  d->nsymbolics = d->cap_symbolics = s->nsymbolics;
  d->symbolics = xcalloc(s->nsymbolics, sizeof *d->symbolics);
  for (size_t k = 0; k < s->nsymbolics; k++) {
    d->symbolics[k].object = mem_object_ref(s->symbolics[k].object);
    d->symbolics[k].array = expr_array_ref(s->symbolics[k].array);
    d->symbolics[k].name = xstrdup(s->symbolics[k].name);
  }
  d->names = symnames_share(s->names);
  d->depth = s->depth;
  d->instructions = s->instructions;
  d->since_new_coverage = s->since_new_coverage;
  d->pointer_forks = s->pointer_forks;
  d->lifecycle = s->lifecycle;
  d->region = s->region;
  d->leaf = s->leaf;
  d->prev_block = s->prev_block;
  d->manual_nesting = s->manual_nesting;
  d->merge_cfg_descendant = s->merge_cfg_descendant;
  d->merge_product = s->merge_product;
  d->member_tests = member_tests_share(s->member_tests);
  return d;
}

static void release_frame(state_frame *f) {
  for (uint32_t r = 0; r < f->nregs; r++) expr_unref(f->regs[r]);
  free(f->regs);
  for (uint32_t k = 0; k < f->nallocas; k++) mem_object_unref(f->allocas[k]);
  free(f->allocas);
  mem_object_unref(f->varargs);
}

void state_free(state *s) {
  if (!s) return;
  for (uint32_t k = 0; k < s->nframes; k++) release_frame(&s->frames[k]);
  free(s->frames);
  mem_space_free(s->mem);
  for (size_t k = 0; k < s->npc; k++) expr_unref(s->pc[k]);
  free(s->pc);
  for (size_t k = 0; k < s->nsymbolics; k++) {
    mem_object_unref(s->symbolics[k].object);
    expr_array_unref(s->symbolics[k].array);
    free(s->symbolics[k].name);
  }
  free(s->symbolics);
  symnames_release(s->names);
  member_tests_release(s->member_tests);
  free(s);
}

state_frame *state_push_frame(state *s, uint32_t func, uint32_t nregs) {
  if (s->nframes == s->cap_frames) {
    s->cap_frames = s->cap_frames ? 2 * s->cap_frames : 8;
    s->frames = xrealloc(s->frames, s->cap_frames * sizeof *s->frames);
  }
  state_frame *f = &s->frames[s->nframes++];
  memset(f, 0, sizeof *f);
  f->func = func;
  f->nregs = nregs;
  f->regs = xcalloc(nregs, sizeof *f->regs);
  return f;
}

void state_pop_frame(state *s) {
  assert(s->nframes > 0);
  state_frame *f = &s->frames[--s->nframes];
  for (uint32_t k = 0; k < f->nallocas; k++) mem_space_unbind(s->mem, f->allocas[k]);
  if (f->varargs) mem_space_unbind(s->mem, f->varargs);
  release_frame(f);
}

void state_set_reg(state_frame *f, uint32_t reg, expr *value) {
  assert(reg < f->nregs);
  expr *old = f->regs[reg];
  f->regs[reg] = expr_ref(value);
  expr_unref(old);
}

void state_frame_add_alloca(state_frame *f, mem_object *o) {
  if (f->nallocas == f->cap_allocas) {
    f->cap_allocas = f->cap_allocas ? 2 * f->cap_allocas : 4;
    f->allocas = xrealloc(f->allocas, f->cap_allocas * sizeof *f->allocas);
  }
  f->allocas[f->nallocas++] = mem_object_ref(o);
}

void state_add_constraint(state *s, expr *c) {
  assert(c->width == 1);
  if (expr_is_true(c)) return;
  if (s->npc == s->cap_pc) {
    s->cap_pc = s->cap_pc ? 2 * s->cap_pc : 16;
    s->pc = xrealloc(s->pc, s->cap_pc * sizeof *s->pc);
  }
  s->pc[s->npc++] = expr_ref(c);
}

void state_add_symbolic(state *s, mem_object *o, expr_array *a, const char *name) {
  if (s->nsymbolics == s->cap_symbolics) {
    s->cap_symbolics = s->cap_symbolics ? 2 * s->cap_symbolics : 4;
    s->symbolics = xrealloc(s->symbolics, s->cap_symbolics * sizeof *s->symbolics);
  }
  s->symbolics[s->nsymbolics++] =
      (state_symbolic){mem_object_ref(o), expr_array_ref(a), xstrdup(name)};
}

expr_array **state_symbolic_arrays(const state *s) {
  expr_array **arrays = xrealloc(NULL, (s->nsymbolics + 1) * sizeof *arrays);
  for (size_t k = 0; k < s->nsymbolics; k++) arrays[k] = s->symbolics[k].array;
  return arrays;
}

char *state_claim_name(state *s, const char *base) { return symnames_claim(&s->names, base); }
