/* The tax a quantified constraint levies on the queries after it (issue 26, item 2): a
 * memspn-style loop over s[0..n) that PAT merges into ∀i∈[1,K]. s[i−1] = 'a', then many
 * branches on input cells outside the loop's range (s[CAPACITY+1..], and s[k+1], s[k+2]
 * past the loop's exit) and on n, each one an early return, so that every state after the
 * loop asks the same questions one after another. Under forking each of the 2·CAPACITY + 1
 * loop exits asks them with a concrete count; under PAT the two merged exits ask them with
 * the ∀ in their path condition. -DBRANCHES=0 leaves the branches out (the loop alone):
 * eval/bench_forall_tax.py subtracts that run to get the branches' own cost per query. */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 16
#endif
#define TAIL 12
#ifndef BRANCHES
#define BRANCHES 1
#endif

int main(void) {
  size_t n;
  char s[CAPACITY + 1 + TAIL];
  klee_make_symbolic(&n, sizeof n, "n");
  klee_make_symbolic(s, sizeof s, "s");
  klee_assume(n <= CAPACITY);
  size_t k = 0;
  while (k < n && s[k] == 'a')
    k++;
  if (!BRANCHES)
    return k > n;
  /* Cells the loop never reads. */
  for (int j = 0; j < TAIL; j++)
    if (s[CAPACITY + 1 + j] == 'A' + j)
      return 1;
  /* The cells past the loop's exit: outside the ∀'s range, at symbolic indices (a
   * tokenizer going on where the merged loop stopped). */
  for (int j = 0; j < TAIL; j++)
    if (s[k + 1 + j] == 'a' + j)
      return 2;
  /* n itself. */
  for (size_t j = 1; j < CAPACITY; j += 3)
    if (n == j + 100)
      return 4;
  if (n > CAPACITY / 2 && s[CAPACITY + 1] == 'z')
    return 5;
  return 0;
}
