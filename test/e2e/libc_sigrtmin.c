/* SIGRTMIN and SIGRTMAX are glibc's functions __libc_current_sigrtmin/max: 34 and 64 on
 * Linux, as a native run gives (busybox's kill reads them for "RTMIN+n" names). */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: k:4
#include <signal.h>
#include <klee/klee.h>

int main(void) {
  int k;
  klee_make_symbolic(&k, sizeof k, "k");
  klee_assume((k >= 0) & (k <= 30));
  klee_assert(SIGRTMIN == 34 && SIGRTMAX == 64 && SIGRTMIN + k <= SIGRTMAX);
  return 0;
}
