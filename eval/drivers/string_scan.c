/* The KLEE-idiom string scan of issue 25: a symbolic length n ≤ CAP, a CAP+1-byte symbolic
 * buffer, s[n] = 0, and a scan of the 'a' prefix. Forking explores CAP + 1 paths (the scan
 * stops at the first non-'a' byte, s[n] at the latest); each step reads one byte at a
 * constant index through the write at the symbolic index n. */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAP
#define CAP 10
#endif

static char s[CAP + 1];

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, sizeof s, "s");
  s[n] = 0;
  size_t i = 0;
  while (s[i] == 'a')
    i++;
  klee_assert(i <= n);
  return (int)i;
}
