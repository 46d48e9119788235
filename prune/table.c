/* table.c — the subsumption table and node snapshots (contract in table.h). */
#include "prune/table.h"

#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

struct prune_bucket {
  prune_entry **items;
  size_t n, cap;
};

static uint64_t stack_hash(const state *st) {
  uint64_t h = 0x9e3779b97f4a7c15ULL ^ st->nframes;
  for (uint32_t k = 0; k < st->nframes; k++)
    h = hmap_hash(h ^ ((uint64_t)st->frames[k].func << 32 | st->frames[k].pc)) + k;
  return h ? h : 1;
}

static uint64_t mix(uint64_t h, uint64_t v) { return hmap_hash(h ^ v) + 0x9e3779b97f4a7c15ULL; }

static uint64_t bytes_hash(const uint8_t *b, size_t n) { /* FNV-1a */
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ULL;
  return h;
}

/* What of a register's value every match preserves: a constant's value, or the operator and
 * width of anything else (σ renames arrays only). */
static uint64_t value_print(const expr *e, bool variable) {
  if (!e) return 1;
  if (variable) return mix(e->width, 4);
  if (expr_is_const(e))
    return mix(mix((uint64_t)e->u.value, (uint64_t)(e->u.value >> 64)), e->width);
  return mix((uint64_t)e->kind << 16 | e->width, 2);
}

/* The memory's part of the print: the objects bound, and each small object's bytes when all
 * are concrete (a concrete byte matches only itself; any other byte only a non-constant). */
static uint64_t memory_print(mem_space *mem) {
  uint64_t h = mem_space_count(mem);
  uint8_t *bytes = NULL;
  size_t cap = 0;
  for (size_t k = 0; k < mem_space_count(mem); k++) {
    const mem_object *o = mem_space_object_at(mem, k);
    h = mix(h, o->id);
    if (o->capacity > PRUNE_MEM_COMPARE_MAX) continue;
    if (o->capacity > cap) {
      cap = o->capacity;
      bytes = xrealloc(bytes, cap);
    }
    if (o->capacity && mem_read_concrete(mem, o, 0, bytes, o->capacity))
      h = mix(h, bytes_hash(bytes, o->capacity));
    else
      h = mix(h, 3);
  }
  free(bytes);
  return h;
}

/* The table's key: the call stack and the print of the state at it (relevant registers,
 * life-cycle step, memory), equal for a state and any snapshot it matches. */
uint64_t prune_state_key(state *st, prune_relevant_fn relevant, void *ctx) {
  uint64_t h = mix(stack_hash(st), mix(st->lifecycle, st->pointer_forks));
  for (uint32_t k = 0; k < st->nframes; k++) {
    const state_frame *f = &st->frames[k];
    for (uint32_t r = 0; r < f->nregs; r++) {
      prune_reg_kind kind = relevant(ctx, st, k, r);
      if (kind != PRUNE_REG_IGNORED)
        h = mix(h, mix((uint64_t)k << 32 | r, value_print(f->regs[r], kind == PRUNE_REG_VARIABLE)));
    }
  }
  h = mix(h, memory_print(st->mem));
  return h ? h : 1;
}

static uint64_t snapshot_key(const prune_snapshot *s) {
  uint64_t h = mix(s->hash, mix(s->lifecycle, s->pointer_forks));
  for (size_t k = 0; k < s->nregs; k++)
    h = mix(h, mix((uint64_t)s->regs[k].frame << 32 | s->regs[k].reg,
                   value_print(s->regs[k].value, s->regs[k].variable)));
  h = mix(h, memory_print(s->mem));
  return h ? h : 1;
}

void prune_snapshot_take(prune_snapshot *s, state *st, prune_relevant_fn relevant, void *ctx) {
  memset(s, 0, sizeof *s);
  uint32_t n = st->nframes;
  s->nframes = n;
  s->funcs = xcalloc(n + 1, sizeof *s->funcs);
  s->pcs = xcalloc(n + 1, sizeof *s->pcs);
  s->nallocas = xcalloc(n + 1, sizeof *s->nallocas);
  s->allocas = xcalloc(n + 1, sizeof *s->allocas);
  s->varargs = xcalloc(n + 1, sizeof *s->varargs);
  size_t cap = 0;
  for (uint32_t k = 0; k < n; k++) {
    const state_frame *f = &st->frames[k];
    s->funcs[k] = f->func, s->pcs[k] = f->pc;
    s->nallocas[k] = f->nallocas;
    s->allocas[k] = xcalloc(f->nallocas + 1, sizeof **s->allocas);
    if (f->nallocas) memcpy(s->allocas[k], f->allocas, f->nallocas * sizeof *f->allocas);
    s->varargs[k] = f->varargs;
    for (uint32_t r = 0; r < f->nregs; r++) {
      prune_reg_kind kind = relevant(ctx, st, k, r);
      if (kind == PRUNE_REG_IGNORED) continue;
      if (s->nregs == cap) {
        cap = cap ? 2 * cap : 16;
        s->regs = xrealloc(s->regs, cap * sizeof *s->regs);
      }
      s->regs[s->nregs++] =
          (prune_reg){k, r, f->regs[r] ? expr_ref(f->regs[r]) : NULL, kind == PRUNE_REG_VARIABLE};
    }
  }
  s->mem = mem_space_clone(st->mem);
  s->ninputs = st->nsymbolics;
  s->inputs = xcalloc(st->nsymbolics + 1, sizeof *s->inputs);
  for (size_t k = 0; k < st->nsymbolics; k++) s->inputs[k] = expr_array_ref(st->symbolics[k].array);
  s->lifecycle = st->lifecycle;
  s->pointer_forks = st->pointer_forks;
  s->hash = stack_hash(st);
  s->key = snapshot_key(s);
}

void prune_snapshot_free(prune_snapshot *s) {
  for (size_t k = 0; k < s->nregs; k++)
    if (s->regs[k].value) expr_unref(s->regs[k].value);
  for (uint32_t k = 0; k < s->nframes; k++) free(s->allocas[k]);
  free(s->regs), free(s->funcs), free(s->pcs), free(s->nallocas), free(s->allocas);
  free(s->varargs);
  mem_space_free(s->mem);
  for (size_t k = 0; k < s->ninputs; k++) expr_array_unref(s->inputs[k]);
  free(s->inputs);
  memset(s, 0, sizeof *s);
}

/* The same bytes in o up to σ: shared contents, or byte expressions matched one by one. */
static bool same_bytes(mem_space *a, mem_space *b, const mem_object *o, prune_rename *r) {
  if (mem_shares_contents(a, b, o)) return true;
  if (o->capacity > PRUNE_MEM_COMPARE_MAX) return false;
  bool same = true;
  for (uint64_t k = 0; k < o->capacity && same; k++) {
    expr *at = expr_const(64, k);
    expr *x = mem_read(a, o, at, 1), *y = mem_read(b, o, at, 1);
    same = prune_rename_match(r, x, y);
    expr_unref(x), expr_unref(y), expr_unref(at);
  }
  return same;
}

bool prune_snapshot_matches(const prune_snapshot *s, state *st, prune_rename *r) {
  if (s->nframes != st->nframes || s->lifecycle != st->lifecycle ||
      s->pointer_forks != st->pointer_forks)
    return false;
  for (uint32_t k = 0; k < s->nframes; k++) {
    const state_frame *f = &st->frames[k];
    if (f->func != s->funcs[k] || f->pc != s->pcs[k] || f->nallocas != s->nallocas[k] ||
        f->varargs != s->varargs[k])
      return false;
    if (f->nallocas && memcmp(f->allocas, s->allocas[k], f->nallocas * sizeof *f->allocas) != 0)
      return false;
  }
  for (size_t k = 0; k < s->nregs; k++) {
    const prune_reg *g = &s->regs[k];
    if (g->reg >= st->frames[g->frame].nregs ||
        !prune_rename_match(r, g->value, st->frames[g->frame].regs[g->reg]))
      return false;
  }
  if (!mem_same_objects(s->mem, st->mem)) return false;
  for (size_t k = 0; k < mem_space_count(st->mem); k++)
    if (!same_bytes(s->mem, st->mem, mem_space_object_at(st->mem, k), r)) return false;
  return true;
}

void prune_table_init(prune_table *t) {
  memset(t, 0, sizeof *t);
  hmap_reset(&t->index, 64);
}

void prune_table_free(prune_table *t) {
  for (size_t b = 0; b < t->nbuckets; b++) {
    struct prune_bucket *bk = &t->buckets[b];
    for (size_t k = 0; k < bk->n; k++) {
      prune_entry *e = bk->items[k];
      prune_snapshot_free(&e->snap);
      for (size_t i = 0; i < e->ninterpolant; i++) expr_unref(e->interpolant[i]);
      free(e->interpolant);
      free(e);
    }
    free(bk->items);
  }
  free(t->buckets);
  hmap_free(&t->index);
  memset(t, 0, sizeof *t);
}

void prune_table_add(prune_table *t, prune_snapshot *snap, expr **interpolant, size_t n) {
  uint64_t b;
  if (!hmap_get(&t->index, snap->key, &b)) {
    if (t->nbuckets == t->cap_buckets) {
      t->cap_buckets = t->cap_buckets ? 2 * t->cap_buckets : 16;
      t->buckets = xrealloc(t->buckets, t->cap_buckets * sizeof *t->buckets);
    }
    t->buckets[t->nbuckets] = (struct prune_bucket){0};
    b = ++t->nbuckets;
    hmap_put(&t->index, snap->key, b);
  }
  struct prune_bucket *bk = &t->buckets[b - 1];
  if (bk->n == bk->cap) {
    bk->cap = bk->cap ? 2 * bk->cap : 4;
    bk->items = xrealloc(bk->items, bk->cap * sizeof *bk->items);
  }
  prune_entry *e = xcalloc(1, sizeof *e);
  e->snap = *snap;
  memset(snap, 0, sizeof *snap);
  e->interpolant = interpolant;
  e->ninterpolant = n;
  bk->items[bk->n++] = e;
  t->nentries++;
}

prune_entry *const *prune_table_at(const prune_table *t, state *st, prune_relevant_fn relevant,
                                   void *ctx, size_t *count) {
  *count = 0;
  uint64_t b;
  if (!t->nentries || !hmap_get(&t->index, prune_state_key(st, relevant, ctx), &b)) return NULL;
  *count = t->buckets[b - 1].n;
  return t->buckets[b - 1].items;
}
