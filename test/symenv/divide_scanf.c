/* A calculator reading "A B" from stdin with scanf (--sym-stdin 4) and printing A / B.
 * Planted bug: it checks that two numbers were read, not that B is not 0. */
#include <stdio.h>

int main(void) {
  int a, b;
  if (scanf("%d %d", &a, &b) != 2) return 1;
  printf("%d\n", a / b); /* BUG */
  return 0;
}
