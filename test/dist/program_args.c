/*
 * program_args — 64 paths whose branches read the program's last argument: the processes
 * `symq run --jobs` starts must each get the arguments after `--`, in order. -DWIDTH=N gives
 * 2^N paths: the program --jobs compiles once must be compiled with the run's -D.
 */
#include <klee/klee.h>

#ifndef WIDTH
#define WIDTH 6
#endif

int main(int argc, char **argv) {
  unsigned char b[WIDTH];
  klee_make_symbolic(b, sizeof b, "b");
  int n = argc;
  for (int i = 0; i < WIDTH; i++)
    if (b[i] > argv[argc - 1][0]) n++;
  return n;
}
