/* --max-instructions halts a region under incremental merging mid-way: memspn over "ab"
 * (capacity 8) has, at instruction 300, members paused at the loop's exits, members waiting
 * for their breadth-first turn and one running. Every one of them ends early with a test
 * (16), besides the 6 tests written for the two sides of each of the 3 merges made so far
 * (--tests-per-merge=all; states at the exits wait for the release); the run exits cleanly,
 * with every merge validated. */
// ARGS: --merge=pat --incremental-merge --validate-merges --max-instructions=300
// EXPECT: completed=0 errors=0 tests=22 early=16 exhausted=false
// EXPECT-EARLY: halted: max-instructions
// EXPECT-OBJECTS: n:8 s
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

static size_t memspn(const char *s, size_t n, const char *chars, size_t nchars) {
  size_t i = 0;
  for (; i < n; i++) {
    int found = 0;
    for (size_t j = 0; j < nchars; j++)
      if (s[i] == chars[j]) found = 1;
    if (!found) break;
  }
  return i;
}

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= 8);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  size_t count = memspn(s, n, "ab", 2);
  klee_assert(count <= n);
  return 0;
}
