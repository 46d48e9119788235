/* busybox get_signum (kill -s, killall -SIG, trap): a signal name or number of symbolic
 * length n <= CAP. Checks that the result is -1 or a signal number below NSIG, that a
 * name and the same name with the "SIG" prefix give the same number, and that a decimal
 * number is read as its value. */
#include "common.h"

int main(void) {
  char name[CAP + 1], prefixed[CAP + 4];
  size_t n = busybox_symbolic_string(name, "name");
  int sig = get_signum(name);
  klee_assert(sig == -1 || (sig >= 0 && sig < NSIG));
  if (n > 0 && !isdigit((unsigned char)name[0]) && strncasecmp(name, "SIG", 3) != 0) {
    memcpy(prefixed, "SIG", 3);
    memcpy(prefixed + 3, name, n + 1);
    klee_assert(get_signum(prefixed) == sig);
  }
  if (n > 0 && n <= 2 && strspn(name, "0123456789") == n) {
    int v = 0;
    for (size_t i = 0; i < n; i++) v = v * 10 + (name[i] - '0');
    klee_assert(sig == (v < NSIG ? v : -1));
  }
  return 0;
}
