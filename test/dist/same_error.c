/*
 * same_error — 32 paths, each then dividing by a symbolic byte: the same division error at
 * one location on every path, which a run reports once. Under `symq run --jobs 2` several
 * parts find it; the merge keeps the first part's and deletes the others' error tests (placed
 * in OUTDIR under hidden names, engine/out/output.h), so the output is the single run's.
 */
#include <klee/klee.h>

int main(void) {
  unsigned char b[6];
  klee_make_symbolic(b, sizeof b, "b");
  int n = 1;
  for (int i = 0; i < 5; i++)
    if (b[i] > 100) n++;
  return 1000 / b[5] + n;
}
