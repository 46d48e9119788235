#include "engine/core/member_tests.h"

#include <stdlib.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

member_tests *member_tests_share(member_tests *l) {
  if (l) l->refs++;
  return l;
}

static void record_release(member_test *t) {
  if (--t->refs) return;
  for (size_t k = 0; k < t->npc; k++) expr_unref(t->pc[k]);
  free(t->pc);
  free(t);
}

void member_tests_release(member_tests *l) {
  if (!l || --l->refs) return;
  for (size_t k = 0; k < l->n; k++) record_release(l->items[k]);
  free(l->items);
  free(l);
}

/* *l, unshared, with room for one more record. */
static member_tests *writable(member_tests **l) {
  member_tests *old = *l;
  if (!old || old->refs > 1) {
    member_tests *c = xcalloc(1, sizeof *c);
    c->refs = 1;
    if (old) {
      c->n = c->cap = old->n;
      c->items = xrealloc(NULL, (old->n ? old->n : 1) * sizeof *c->items);
      for (size_t k = 0; k < old->n; k++) (c->items[k] = old->items[k])->refs++;
      member_tests_release(old);
    }
    *l = c;
  }
  member_tests *w = *l;
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 4;
    w->items = xrealloc(w->items, w->cap * sizeof *w->items);
  }
  return w;
}

void member_tests_add(member_tests **l, uint32_t test_id, expr *const *pc, size_t npc,
                      size_t nsymbolics) {
  member_test *t = xcalloc(1, sizeof *t);
  *t = (member_test){.test_id = test_id, .nsymbolics = nsymbolics, .npc = npc, .refs = 1};
  t->pc = xrealloc(NULL, (npc ? npc : 1) * sizeof *t->pc);
  for (size_t k = 0; k < npc; k++) t->pc[k] = expr_ref(pc[k]);
  member_tests *w = writable(l);
  w->items[w->n++] = t;
}

void member_tests_take(member_tests **l, const member_tests *from) {
  if (!from || *l == from) return;
  hmap held = {0}; /* the records *l holds: members of one merge share many */
  for (size_t k = 0; *l && k < (*l)->n; k++)
    hmap_put(&held, (uint64_t)(uintptr_t)(*l)->items[k], 1);
  for (size_t k = 0; k < from->n; k++) {
    member_test *t = from->items[k];
    if (hmap_get(&held, (uint64_t)(uintptr_t)t, NULL)) continue;
    member_tests *w = writable(l);
    t->refs++;
    w->items[w->n++] = t;
  }
  hmap_free(&held);
}
