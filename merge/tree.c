/* tree.c — the execution tree of a merge region (contract in tree.h). */
#include "merge/tree.h"

#include <stdlib.h>

#include "engine/xalloc.h"

static merge_node *new_node(merge_tree *t, merge_node *parent, expr *cond, bool dead) {
  merge_node *n = xcalloc(1, sizeof *n);
  n->id = t->count;
  n->parent = parent;
  n->cond = cond ? expr_ref(cond) : NULL;
  n->dead = dead;
  if (t->count == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 16;
    t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
  }
  t->nodes[t->count++] = n;
  if (parent) {
    if (parent->last_child) parent->last_child->next_sibling = n;
    else parent->first_child = n;
    parent->last_child = n;
  }
  return n;
}

merge_tree *merge_tree_new(void *root_state) {
  merge_tree *t = xcalloc(1, sizeof *t);
  t->root = new_node(t, NULL, NULL, false);
  t->root->state = root_state;
  return t;
}

merge_node *merge_tree_add(merge_tree *t, merge_node *parent, expr *cond, bool dead) {
  return new_node(t, parent, cond, dead);
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

static void dot_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if (*s == '\n') fputs("\\n", f);
    else fputc(*s, f);
  }
  fputc('"', f);
}

void merge_tree_dot(FILE *f, const merge_tree *t, const char *title,
                    const char *(*label)(void *state, void *ctx), void *ctx) {
  fputs("digraph region {\n  node [shape=box, fontname=\"monospace\"];\n  label=", f);
  dot_string(f, title);
  fputs(";\n", f);
  for (uint32_t k = 0; k < t->count; k++) {
    const merge_node *n = t->nodes[k];
    fprintf(f, "  n%u [label=", n->id);
    char text[96];
    if (!n->parent) snprintf(text, sizeof text, "entry");
    else if (n->dead) snprintf(text, sizeof text, "n%u (infeasible)", n->id);
    else if (n->state && label) snprintf(text, sizeof text, "n%u: %s", n->id, label(n->state, ctx));
    else snprintf(text, sizeof text, "n%u", n->id);
    dot_string(f, text);
    if (n->dead) fputs(", style=dashed", f);
    fputs("];\n", f);
    if (n->parent) {
      char *cond = expr_to_string(n->cond);
      fprintf(f, "  n%u -> n%u [label=", n->parent->id, n->id);
      dot_string(f, cond);
      fputs("];\n", f);
      free(cond);
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
