/*
 * A loop whose joins collapse much of what it forks while its frontier still grows, as
 * json-c's json_tokener_parse_ex does: a space and a tab are counted (their sides differ only
 * in a counter and join), a '$' is escaped (its sides leave p at different places and never
 * join: the queue doubles each byte), and each byte may end the loop twice over (i == n, or
 * a ';'), so half of what waits breadth-first waits at the exits. The queue alone stays a
 * fifth of the forks, under the give-up's 3/8; with the states at the exits it is over half.
 * test/merge/incfrontier.py runs it under an instruction budget: the region must give up on
 * the frontier's share, counting both.
 */
#include <klee/klee.h>
#include <stddef.h>
#include <stdlib.h>

#define CAP 40

int main(void) {
  size_t n, spaces = 0, tabs = 0, i;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  char *s = malloc(n + 1), out[2 * CAP + 1], *p = out;
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  for (i = 0; i < n; i++) {
    if (s[i] == ';') break;
    if (s[i] == ' ') spaces++;
    if (s[i] == '\t') tabs++;
    if (s[i] == '$') *p++ = '$';
    *p++ = s[i];
  }
  *p = 0;
  klee_assert(p - out <= 2 * (long)i && spaces + tabs <= i);
  return 0;
}
