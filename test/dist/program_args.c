/*
 * program_args — 64 paths whose branches read the program's last argument: the processes
 * `symq run --jobs` starts must each get the arguments after `--`, in order.
 */
#include <klee/klee.h>

int main(int argc, char **argv) {
  unsigned char b[6];
  klee_make_symbolic(b, sizeof b, "b");
  int n = argc;
  for (int i = 0; i < 6; i++)
    if (b[i] > argv[argc - 1][0]) n++;
  return n;
}
