/*
 * memspn's result checked by the solver on PAT's merged states (pat-merge.md §5): after the
 * loop, count is K and the pc holds ∀i ≤ K. s[i−1] = 'a'; each property below must follow
 * from it (no error), and the last one is false on one path (one error in every mode).
 */
#ifndef CAPACITY
#define CAPACITY 6
#endif

/* memspn() itself, from the driver of the paper's example (its main is not this one) */
#define main memspn_example_main
#include "../../../drivers/memspn.c"
#undef main

#include <symq.h>

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAPACITY, &n, "s"); /* n ≤ CAPACITY bytes, both symbolic */
  size_t count = memspn(s, n, "a", 1);
  klee_assert(count <= n);
  if (count < n) klee_assert(s[count] != 'a');
  else klee_assert(count == n);
  if (count > 0) klee_assert(s[count - 1] == 'a');
  if (count > 2) klee_assert(s[0] == 'a' && s[1] == 'a');
  klee_assert(count != 3 || n != 5); /* false for "aaa??" with s[3] != 'a' */
  return 0;
}
