/* A program's life cycle runs as natively: constructors by priority before main, main with
 * a non-NULL envp, and when main returns, exit: the atexit handlers (newest first), then
 * the destructors. Every check holds: one completed path. (test/sv/envp_true.c checks that
 * symq's envp is empty.) */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: (none)
#include <klee/klee.h>
#include <stdlib.h>

static int order[8], n;

__attribute__((constructor)) static void late_constructor(void) { order[n++] = 2; }
__attribute__((constructor(200))) static void early_constructor(void) { order[n++] = 1; }

static void handler(void) { order[n++] = 4; }

__attribute__((destructor)) static void destructor(void) {
  order[n++] = 5;
  klee_assert(n == 5 && order[2] == 3 && order[3] == 4);
}

int main(int argc, char **argv, char **envp) {
  (void)argc, (void)argv;
  klee_assert(envp != 0); /* empty under symq; natively it holds the environment */
  klee_assert(n == 2 && order[0] == 1 && order[1] == 2);
  order[n++] = 3;
  atexit(handler);
  return 0;
}
