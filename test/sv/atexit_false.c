// VERDICT: false
/* An atexit handler runs when main returns. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
static int x;
static void at_end(void) { if (x == 3) reach_error(); }
int main() {
  x = __VERIFIER_nondet_int();
  atexit(at_end);
  return 0;
}
