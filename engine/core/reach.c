/* reach — what a linked module's execution can reach, and deleting the rest (reach.h). */
#include "engine/core/reach.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

typedef struct walk {
  hmap seen;          /* globals reached, and constants already walked (key: the pointer) */
  LLVMValueRef *todo; /* reached globals whose references are not walked yet */
  size_t n_todo, cap_todo;
  LLVMValueRef *consts; /* a constant's operands still to look at (an explicit stack: an
                           initializer may nest deeply) */
  size_t n_consts, cap_consts;
} walk;

static uint64_t key_of(LLVMValueRef v) { return (uint64_t)(uintptr_t)v; }

static bool seen(const walk *w, LLVMValueRef v) {
  uint64_t unused;
  return hmap_get(&w->seen, key_of(v), &unused);
}

static bool is_global(LLVMValueRef v) {
  return LLVMIsAFunction(v) || LLVMIsAGlobalVariable(v) || LLVMIsAGlobalAlias(v);
}

/* Appends v to the growing array *a of *n values (capacity *cap). */
static void push(LLVMValueRef **a, size_t *n, size_t *cap, LLVMValueRef v) {
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 64;
    *a = xrealloc(*a, *cap * sizeof **a);
  }
  (*a)[(*n)++] = v;
}

static void reach_global(walk *w, LLVMValueRef g) {
  if (seen(w, g)) return;
  hmap_put(&w->seen, key_of(g), 1);
  push(&w->todo, &w->n_todo, &w->cap_todo, g);
}

static void push_const(walk *w, LLVMValueRef c) {
  push(&w->consts, &w->n_consts, &w->cap_consts, c);
}

/* Reaches the globals v names: v itself, or those inside a constant expression or
 * aggregate. Instructions, arguments, blocks and metadata name none themselves (their own
 * operands are walked as the function's). */
static void reach_value(walk *w, LLVMValueRef v) {
  if (!v || !LLVMIsAConstant(v)) return;
  push_const(w, v);
  while (w->n_consts) {
    LLVMValueRef c = w->consts[--w->n_consts];
    if (is_global(c)) {
      reach_global(w, c);
      continue;
    }
    if (seen(w, c)) continue; /* a constant shared by many users is walked once */
    hmap_put(&w->seen, key_of(c), 1);
    int n = LLVMGetNumOperands(c);
    for (int k = 0; k < n; k++) {
      LLVMValueRef op = LLVMGetOperand(c, (unsigned)k);
      if (op && LLVMIsAConstant(op)) push_const(w, op);
    }
  }
}

static void walk_function(walk *w, LLVMValueRef f) {
  if (LLVMHasPersonalityFn(f)) reach_value(w, LLVMGetPersonalityFn(f));
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      int n = LLVMGetNumOperands(i);
      for (int k = 0; k < n; k++) reach_value(w, LLVMGetOperand(i, (unsigned)k));
    }
}

static bool local_linkage(LLVMValueRef g) {
  LLVMLinkage l = LLVMGetLinkage(g);
  return l == LLVMInternalLinkage || l == LLVMPrivateLinkage;
}

/* Replaces what uses a dead global by undef (only dead definitions use it) and collects it. */
static void doom(LLVMValueRef g, LLVMValueRef **dead, size_t *n, size_t *cap) {
  push(dead, n, cap, g);
  LLVMReplaceAllUsesWith(g, LLVMGetUndef(LLVMTypeOf(g)));
}

size_t reach_trim(LLVMModuleRef m, const char *const *roots, size_t n_roots) {
  walk w = {0};
  for (size_t k = 0; k < n_roots; k++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, roots[k]);
    if (f) reach_global(&w, f);
  }
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!local_linkage(g)) reach_global(&w, g);
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(m); a; a = LLVMGetNextGlobalAlias(a))
    if (!local_linkage(a)) reach_global(&w, a);
  while (w.n_todo) {
    LLVMValueRef g = w.todo[--w.n_todo];
    if (LLVMIsAFunction(g)) walk_function(&w, g);
    else if (LLVMIsAGlobalVariable(g))
      reach_value(&w, LLVMGetInitializer(g));
    else
      reach_value(&w, LLVMAliasGetAliasee(g));
  }
  LLVMValueRef *dead = NULL;
  size_t n_dead = 0, cap_dead = 0, n_bodies = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!seen(&w, f)) {
      n_bodies += !LLVMIsDeclaration(f);
      doom(f, &dead, &n_dead, &cap_dead);
    }
  size_t n_functions = n_dead;
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!seen(&w, g)) doom(g, &dead, &n_dead, &cap_dead);
  /* every use of a dead global is gone now: deleting one leaves no dangling operand */
  for (size_t k = 0; k < n_dead; k++) {
    if (k < n_functions) LLVMDeleteFunction(dead[k]);
    else
      LLVMDeleteGlobal(dead[k]);
  }
  free(dead);
  free(w.todo);
  free(w.consts);
  hmap_free(&w.seen);
  return n_bodies;
}
