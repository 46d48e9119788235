/* tree.c — the execution tree of a merge region (contract in tree.h). */
#include "merge/tree.h"

#include <assert.h>
#include <inttypes.h>
#include <stdlib.h>

#include "engine/core/xalloc.h"

const char merge_invalid_collision[] = "sibling pattern hashes collide";
const char merge_invalid_rider_fork[] = "fork at a constraint that is not a branch";

static uint64_t branch_salt(const merge_branch *b) {
  return (((uint64_t)b->func << 32) | b->inst) * UINT64_C(0x9e3779b97f4a7c15) + b->edge;
}

/* A new child's symbol against its siblings' (see Validity in tree.h). */
static void check_siblings(merge_tree *t, const merge_node *child) {
  for (const merge_node *s = child->parent->first_child; s && !t->invalid; s = s->next_sibling) {
    if (s == child) continue;
    if (!s->symbol || !child->symbol) t->invalid = merge_invalid_rider_fork;
    else if (s->hash == child->hash)
      t->invalid = merge_invalid_collision;
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

static void mark_detached(merge_node *n) {
  n->detached = true;
  n->state = NULL;
  for (merge_node *c = n->first_child; c; c = c->next_sibling) mark_detached(c);
}

void merge_tree_detach(merge_tree *t, merge_node *n) {
  t->reshaped = true;
  if (n->parent) unlink_child(n->parent, n);
  mark_detached(n);
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
  if (c->symbol) c->hash = expr_phash_salted(cond, branch_salt(&c->branch));
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
  mark_detached(p); /* what is left below p: its dead children */
  t->reshaped = true;
  check_siblings(t, c); /* its new siblings must still be told apart from it */
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
    else if (n->state && label)
      snprintf(text, sizeof text, "n%u: %s", n->id, label(n->state, ctx));
    else
      snprintf(text, sizeof text, "n%u", n->id);
    dot_string(f, text);
    if (n->dead) fputs(", style=dashed", f);
    fputs("];\n", f);
    if (n->parent) {
      char *cond = expr_to_string(n->cond), *edge = NULL;
      if (n->symbol)
        edge = xasprintf("%s\n#%016" PRIx64 " @%u:%u/%u", cond, n->hash, n->branch.func,
                         n->branch.inst, n->branch.edge);
      fprintf(f, "  n%u -> n%u [label=", n->parent->id, n->id);
      dot_string(f, edge ? edge : cond);
      fputs(n->symbol ? "];\n" : ", style=dotted];\n", f);
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
