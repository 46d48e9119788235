/* max-memory: every path allocates and fills 2 MB and forks, twenty times over: without a
 * limit the run's memory grows until the machine runs out. */
#include <klee/klee.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  unsigned char in[20];
  klee_make_symbolic(in, sizeof in, "in");
  int k = 0;
  for (int i = 0; i < 20; i++) {
    char *p = malloc(2 << 20);
    memset(p, i + k, 2 << 20);
    p[i] = (char)in[i];
    if (in[i] > 100) k++;
  }
  return k;
}
