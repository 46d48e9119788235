/* A loop keeping the previous round's nondet value: the bug needs 7 in one round and 8 in
 * the next. At a later round's head `last` holds an older input than at an ancestor's head;
 * covering may map the ancestor's input to the state's (both arbitrary), never cover a
 * state whose `last` is constrained differently, and the bug is found. */
#include "nondet.h"
int main(void) {
  int last = 0;
  while (1) {
    if (__VERIFIER_nondet_int() == 0) break;
    int v = __VERIFIER_nondet_int();
    if (last == 7 && v == 8) reach_error();
    last = v;
  }
  return 0;
}
