/* tree.c — the execution tree of a merge region (contract in tree.h). */
#include "merge/tree.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

const char merge_invalid_collision[] = "sibling pattern hashes collide";
const char merge_invalid_rider_fork[] = "fork at a constraint that is not a branch";

static uint64_t branch_salt(const merge_branch *b) {
  return (((uint64_t)b->func << 32) | b->inst) * UINT64_C(0x9e3779b97f4a7c15) + b->edge;
}

static const char *const conflict_reason[] = {NULL, merge_invalid_collision,
                                              merge_invalid_rider_fork};

/* The conflict between two siblings (see Validity in tree.h). */
static merge_conflict conflict_between(const merge_node *a, const merge_node *b) {
  if (!a->symbol || !b->symbol) return MERGE_CONFLICT_RIDER;
  return a->hash == b->hash ? MERGE_CONFLICT_COLLISION : MERGE_CONFLICT_NONE;
}

/* `invalid` from the standing conflicts: the worst kind names it. */
static void set_conflict(merge_tree *t, merge_node *p, merge_conflict c) {
  if (p->conflict) t->nconflicts[p->conflict]--;
  p->conflict = (uint8_t)c;
  if (c) t->nconflicts[c]++;
  t->invalid = t->nconflicts[MERGE_CONFLICT_RIDER]       ? conflict_reason[MERGE_CONFLICT_RIDER]
               : t->nconflicts[MERGE_CONFLICT_COLLISION] ? conflict_reason[MERGE_CONFLICT_COLLISION]
                                                         : NULL;
}

/* p's conflict judged again among its children that are neither ended nor detached; none
 * when p itself is ended or detached (no leaf below it is merged). */
static void judge(merge_tree *t, merge_node *p) {
  merge_conflict worst = MERGE_CONFLICT_NONE;
  if (!p->ended && !p->detached)
    for (const merge_node *a = p->first_child; a && worst != MERGE_CONFLICT_RIDER;
         a = a->next_sibling) {
      if (a->ended) continue;
      for (const merge_node *b = a->next_sibling; b && worst != MERGE_CONFLICT_RIDER;
           b = b->next_sibling) {
        merge_conflict c = b->ended ? MERGE_CONFLICT_NONE : conflict_between(a, b);
        if (c > worst) worst = c;
      }
    }
  set_conflict(t, p, worst);
}

/* A new child against its siblings: its parent's conflict can only get worse. */
static void check_siblings(merge_tree *t, const merge_node *child) {
  merge_node *p = child->parent;
  merge_conflict worst = (merge_conflict)p->conflict;
  for (const merge_node *s = p->first_child; s && worst != MERGE_CONFLICT_RIDER;
       s = s->next_sibling) {
    if (s == child || s->ended) continue;
    merge_conflict c = conflict_between(s, child);
    if (c > worst) worst = c;
  }
  if (worst != p->conflict) set_conflict(t, p, worst);
}

/* A node that gets a new child is no longer ended, nor are its ancestors (incremental merging
 * adds the merged node under a common ancestor). */
static void unend(merge_tree *t, merge_node *n) {
  for (; n && n->ended; n = n->parent) {
    n->ended = false;
    if (n->parent) judge(t, n->parent);
  }
}

static merge_node *new_node(merge_tree *t, merge_node *parent, expr *cond, bool dead,
                            const merge_branch *branch) {
  merge_node *n = xcalloc(1, sizeof *n);
  n->id = t->count;
  n->parent = parent;
  n->cond = cond ? expr_ref(cond) : NULL;
  n->dead = dead;
  if (branch) {
    n->symbol = true;
    n->branch = *branch;
    n->hash = expr_phash_salted(cond, branch_salt(branch));
  }
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
  }
  t->nodes[t->count++] = n;
  if (parent) {
    unend(t, parent);
    if (parent->last_child) parent->last_child->next_sibling = n;
    else
      parent->first_child = n;
    parent->last_child = n;
    if (parent->first_child != n) check_siblings(t, n);
  }
  return n;
}

merge_tree *merge_tree_new(void *root_state) {
  merge_tree *t = xcalloc(1, sizeof *t);
  t->root = new_node(t, NULL, NULL, false, NULL);
  t->root->state = root_state;
  return t;
}

merge_node *merge_tree_add(merge_tree *t, merge_node *parent, expr *cond, bool dead,
                           const merge_branch *branch) {
  return new_node(t, parent, cond, dead, branch);
}

/* ---- nested regions ------------------------------------------------------------------- */

static uint64_t shape_mix(uint64_t h, uint64_t v) {
  h ^= v + UINT64_C(0x9e3779b97f4a7c15) + (h << 6) + (h >> 2);
  return h * UINT64_C(0xff51afd7ed558ccd);
}

static bool shape_commutative(expr_kind k) {
  return k == EXPR_ADD || k == EXPR_MUL || k == EXPR_AND || k == EXPR_OR || k == EXPR_XOR ||
         k == EXPR_EQ;
}

/* expr_phash's rules (constants alike, c + x as x, update lists ignored), with the reads of
 * arrays that are not inputs alike too; memo by node id (DAGs are shared). */
static uint64_t shape(const expr *e, hmap *memo) {
  uint64_t h;
  if (hmap_get(memo, e->id + 1, &h)) return h;
  switch (e->kind) {
  case EXPR_CONST: h = 0x5a9e0c0457ULL; break;
  case EXPR_READ:
    h = shape_mix(0x7ead0000ULL + e->width, e->u.read.array->is_input ? e->u.read.array->id : 0);
    h = shape_mix(h, shape(e->kid[0], memo));
    break;
  case EXPR_BVAR: h = shape_mix(0xb0a40000ULL, e->width); break;
  default:
    if (e->kind == EXPR_ADD && e->kid[0]->kind == EXPR_CONST) {
      h = shape(e->kid[1], memo);
      break;
    }
    h = shape_mix(0x9a770000ULL + (uint64_t)e->kind, e->width);
    if (e->kind == EXPR_EXTRACT) h = shape_mix(h, e->u.extract.lo);
    if (shape_commutative(e->kind) && e->nkids == 2) {
      uint64_t a = shape(e->kid[0], memo), b = shape(e->kid[1], memo);
      h = a < b ? shape_mix(shape_mix(h, a), b) : shape_mix(shape_mix(h, b), a);
    } else {
      for (unsigned k = 0; k < e->nkids; k++) h = shape_mix(h, shape(e->kid[k], memo));
    }
  }
  hmap_put(memo, e->id + 1, h);
  return h;
}

uint64_t merge_tree_shape_hash(const expr *cond) {
  hmap memo = {0};
  uint64_t h = shape(cond, &memo);
  hmap_free(&memo);
  return h;
}

merge_node *merge_tree_add_nested(merge_tree *t, merge_node *parent, expr *cond,
                                  const merge_branch *branch) {
  merge_node *n = new_node(t, parent, cond, false, NULL); /* a rider until its hash is set */
  n->symbol = true;
  n->nested = true;
  n->branch = *branch;
  n->hash = shape_mix(merge_tree_shape_hash(cond), branch_salt(branch));
  judge(t, parent); /* judged again as the symbol it is */
  return n;
}

/* The copy of src node n (its parent copied already), made when first needed. */
static merge_node *copy_of(merge_tree *t, merge_node *at, const merge_node *n, hmap *copies) {
  uint64_t found;
  if (!n->parent) return at;
  if (hmap_get(copies, (uint64_t)n->id + 1, &found)) return (merge_node *)(uintptr_t)found;
  merge_node *p = copy_of(t, at, n->parent, copies), *c;
  if (n->nested) c = merge_tree_add_nested(t, p, n->cond, &n->branch);
  else
    c = new_node(t, p, n->cond, n->dead, n->symbol ? &n->branch : NULL);
  c->loop_entries = n->loop_entries;
  hmap_put(copies, (uint64_t)n->id + 1, (uint64_t)(uintptr_t)c);
  return c;
}

merge_node *merge_tree_graft(merge_tree *t, merge_node *at, const merge_node *leaf, hmap *copies) {
  merge_node *copy = copy_of(t, at, leaf, copies);
  for (const merge_node *n = leaf; n->parent; n = n->parent) /* the dead sides along it */
    for (const merge_node *d = n->parent->first_child; d; d = d->next_sibling)
      if (d->dead) copy_of(t, at, d, copies);
  return copy;
}

/* Every child ended or dead (a leaf: ended itself). */
static bool all_ended(const merge_node *n) {
  for (const merge_node *c = n->first_child; c; c = c->next_sibling)
    if (!c->ended && !c->dead) return false;
  return true;
}

void merge_tree_leaf_ended(merge_tree *t, merge_node *leaf) {
  assert(!leaf->first_child && !leaf->detached);
  merge_node *n = leaf;
  n->ended = true;
  while (n->parent && all_ended(n->parent)) {
    set_conflict(t, n->parent, MERGE_CONFLICT_NONE); /* nothing below it is merged */
    n = n->parent;
    n->ended = true;
  }
  if (n->parent) judge(t, n->parent); /* one child fewer among those judged */
}

/* The child of parent just before n (NULL: n is the first). */
static merge_node *prev_sibling(const merge_node *parent, const merge_node *n) {
  merge_node *prev = NULL;
  for (merge_node *c = parent->first_child; c != n; c = c->next_sibling) prev = c;
  return prev;
}

static void unlink_child(merge_node *parent, merge_node *n) {
  merge_node *prev = prev_sibling(parent, n);
  if (prev) prev->next_sibling = n->next_sibling;
  else
    parent->first_child = n->next_sibling;
  if (parent->last_child == n) parent->last_child = prev;
  n->next_sibling = NULL;
}

static void mark_detached(merge_tree *t, merge_node *n) {
  n->detached = true;
  n->state = NULL;
  if (n->conflict) set_conflict(t, n, MERGE_CONFLICT_NONE);
  for (merge_node *c = n->first_child; c; c = c->next_sibling) mark_detached(t, c);
}

void merge_tree_detach(merge_tree *t, merge_node *n) {
  t->reshaped = true;
  merge_node *parent = n->parent;
  if (parent) unlink_child(parent, n);
  mark_detached(t, n);
  if (parent) judge(t, parent); /* one child fewer */
}

void merge_tree_splice(merge_tree *t, merge_node *p, merge_node *c) {
  merge_node *grand = p->parent;
  assert(grand && c->parent == p && !c->dead);
  expr *cond = expr_and(p->cond, c->cond);
  expr_unref(c->cond);
  c->cond = cond;
  if (!c->symbol && p->symbol) {
    c->symbol = true;
    c->branch = p->branch;
  }
  if (c->nested) c->hash = shape_mix(merge_tree_shape_hash(cond), branch_salt(&c->branch));
  else if (c->symbol)
    c->hash = expr_phash_salted(cond, branch_salt(&c->branch));
  c->loop_entries += p->loop_entries;
  unlink_child(p, c);
  /* c takes p's place among p's siblings */
  c->parent = grand;
  c->next_sibling = p->next_sibling;
  merge_node *prev = prev_sibling(grand, p);
  if (prev) prev->next_sibling = c;
  else
    grand->first_child = c;
  if (grand->last_child == p) grand->last_child = c;
  p->next_sibling = NULL;
  p->parent = NULL;
  mark_detached(t, p); /* what is left below p: its dead children */
  t->reshaped = true;
  judge(t, grand); /* its new siblings must still be told apart from it */
}

expr *merge_tree_tail(const merge_node *n) {
  expr *tail = expr_true();
  for (; n && n->cond; n = n->parent) {
    expr *next = expr_and(n->cond, tail);
    expr_unref(tail);
    tail = next;
  }
  return tail;
}

size_t merge_tree_word(const merge_node *n, uint64_t *out, size_t cap) {
  size_t len = 0;
  for (const merge_node *m = n; m; m = m->parent) len += m->symbol;
  size_t k = len;
  for (const merge_node *m = n; m; m = m->parent)
    if (m->symbol && --k < cap) out[k] = m->hash;
  return len;
}

static void dot_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if (*s == '\n') fputs("\\n", f);
    else
      fputc(*s, f);
  }
  fputc('"', f);
}

void merge_tree_dot(FILE *f, const merge_tree *t, const char *title,
                    const char *(*label)(void *state, void *ctx), void *ctx) {
  fputs("digraph region {\n  node [shape=box, fontname=\"monospace\"];\n  label=", f);
  dot_string(f, title);
  fputs(";\n", f);
  if (t->invalid) fprintf(f, "  // pattern hash invalid: %s\n", t->invalid);
  for (uint32_t k = 0; k < t->count; k++) {
    const merge_node *n = t->nodes[k];
    if (n->detached) continue;
    fprintf(f, "  n%u [label=", n->id);
    char text[96];
    if (!n->parent) snprintf(text, sizeof text, "entry");
    else if (n->dead)
      snprintf(text, sizeof text, "n%u (infeasible)", n->id);
    else if (n->ended && !n->first_child)
      snprintf(text, sizeof text, "n%u (ended)", n->id);
    else if (n->state && label)
      snprintf(text, sizeof text, "n%u: %s", n->id, label(n->state, ctx));
    else
      snprintf(text, sizeof text, "n%u", n->id);
    dot_string(f, text);
    if (n->dead) fputs(", style=dashed", f);
    else if (n->ended)
      fputs(", color=gray", f);
    if (n->conflict) fprintf(f, ", xlabel=\"%s\"", conflict_reason[n->conflict]);
    fputs("];\n", f);
    if (n->parent) {
      char *cond = expr_to_string(n->cond), *edge = NULL;
      if (n->nested) /* inst: the inner loop, counted down from UINT32_MAX (merge/region.c) */
        edge = xasprintf("nested region's release: %s\n#%016" PRIx64 " @%u:loop %u/%u", cond,
                         n->hash, n->branch.func, UINT32_MAX - n->branch.inst, n->branch.edge);
      else if (n->symbol)
        edge = xasprintf("%s\n#%016" PRIx64 " @%u:%u/%u", cond, n->hash, n->branch.func,
                         n->branch.inst, n->branch.edge);
      fprintf(f, "  n%u -> n%u [label=", n->parent->id, n->id);
      dot_string(f, edge ? edge : cond);
      fputs(n->nested ? ", style=bold];\n" : n->symbol ? "];\n" : ", style=dotted];\n", f);
      free(cond);
      free(edge);
    }
  }
  fputs("}\n", f);
}

void merge_tree_free(merge_tree *t) {
  if (!t) return;
  for (uint32_t k = 0; k < t->count; k++) {
    expr_unref(t->nodes[k]->cond);
    free(t->nodes[k]);
  }
  free(t->nodes);
  free(t);
}
