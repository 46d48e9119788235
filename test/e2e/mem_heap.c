/* Heap use through malloc, calloc, realloc (growing, shrinking, and from NULL) and free
 * (including free(NULL), which does nothing): contents survive realloc, calloc zeroes, a
 * 10-node linked list is built, walked and freed, and a heap block is written at a symbolic
 * (in-bounds) index. No access is out of bounds and nothing is freed twice, so no errors;
 * the only fork is the last branch: 2 completed paths. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: v:16 idx:4
#include <stdlib.h>
#include <klee/klee.h>

struct node {
  int val;
  struct node *next;
};

int main(void) {
  int v[4];
  unsigned idx;
  klee_make_symbolic(v, sizeof v, "v");
  klee_make_symbolic(&idx, sizeof idx, "idx");
  klee_assume(idx < 8);

  int *p = malloc(4 * sizeof(int));
  for (int k = 0; k < 4; k++) p[k] = v[k];

  int *z = calloc(5, sizeof(int));
  for (int k = 0; k < 5; k++) klee_assert(z[k] == 0);

  p = realloc(p, 8 * sizeof(int));
  for (int k = 0; k < 4; k++) klee_assert(p[k] == v[k]);
  p[7] = 77;

  z = realloc(z, 2 * sizeof(int));
  klee_assert((z[0] == 0) & (z[1] == 0));

  struct node *head = NULL;
  for (int k = 0; k < 10; k++) {
    struct node *n = malloc(sizeof *n);
    n->val = k;
    n->next = head;
    head = n;
  }
  int sum = 0;
  for (struct node *n = head; n != NULL; n = n->next) sum += n->val;
  klee_assert(sum == 45);
  while (head != NULL) {
    struct node *next = head->next;
    free(head);
    head = next;
  }

  char *r = realloc(NULL, 3);
  r[2] = 'x';
  klee_assert(r[2] == 'x');
  free(r);
  free(NULL);

  p[idx] = 5;
  klee_assert(p[idx] == 5);
  klee_assert(p[7] == 77 - 72 * (idx == 7)); /* no ?: here: it would branch */
  int big = p[1] > 7;
  free(p);
  free(z);
  if (big) return 1;
  return 0;
}
