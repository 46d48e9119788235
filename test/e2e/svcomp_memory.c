/* __VERIFIER_nondet_memory makes a whole block arbitrary: one object "nondet_memory" of the
 * block's size per call (a stack struct of 8 bytes, a heap block of 12), none for size 0.
 * s.a == 7 with s.buf[3] == 'x' reaches the error; otherwise the heap word decides between
 * two completed paths. */
// EXPECT: completed=2 errors=1 tests=3
// EXPECT-ERROR: reach_error line=@reach
// EXPECT-OBJECTS: nondet_memory:8 nondet_memory:12
// SEARCH-INVARIANT
#include <stddef.h>
extern void __VERIFIER_nondet_memory(void *, size_t);
extern void *malloc(size_t);
extern void free(void *);
void reach_error(void);

struct pair {
  int a;
  char buf[4];
};

int main(void) {
  struct pair s;
  __VERIFIER_nondet_memory(&s, sizeof s);
  int *p = malloc(3 * sizeof(int));
  __VERIFIER_nondet_memory(p, 3 * sizeof(int));
  __VERIFIER_nondet_memory(p, 0);
  if ((s.a == 7) & (s.buf[3] == 'x')) {
    reach_error(); /* @reach */
  }
  int r = 0;
  if (p[2] < 0) r = 1;
  free(p);
  return r;
}
