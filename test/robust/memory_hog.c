/* max-memory: breadth-first, every path forks ten times and, after each fork, writes into
 * a 512 KB global array, so each of up to 1024 states gets its own copy of it: without a
 * limit the run's memory grows past 512 MB. */
#include <klee/klee.h>
#include <string.h>

static char buf[512 << 10];

int main(void) {
  unsigned char in[10];
  klee_make_symbolic(in, sizeof in, "in");
  memset(buf, 1, sizeof buf);
  int k = 0;
  for (int i = 0; i < 10; i++) {
    if (in[i] > 100) k++;
    buf[i] = (char)k;
  }
  return k;
}
