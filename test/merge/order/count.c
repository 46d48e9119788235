/*
 * A loop with one exit (the end of a string of symbolic length n <= 5) that counts the 'a'
 * bytes, then branches on the count, which differs from path to path: PAT declines to merge
 * ("declined: merged values read by later queries") and the 63 states that wait at the exit
 * resume unmerged. Under DFS they must go on in the order forking explores them — the first
 * to arrive first, as it would have gone on at once without the region — so pat writes the
 * same tests as none, in the same order. (Resumed in the order they arrived, the last to
 * arrive ran first: on wget's html_tags the tag names of 9 bytes before those of 1.)
 * EXPECT: order=same
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 5

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  unsigned count = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == 'a') count++;
  int r = 0;
  if (count > 2) r++;
  if (count % 2) r++;
  if (count == 4) r += 2;
  klee_assert(r <= 3);
  return r;
}
