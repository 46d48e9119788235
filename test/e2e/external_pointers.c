/* Pointers across a native call (--external-calls=concrete): glibc's rawmemchr returns a
 * pointer into the object passed, which comes back as the same place in symq's object (a
 * write through it lands there); zlib's zlibVersion returns a pointer into native memory,
 * which symq cannot follow: that path ends early, with its reason and line. */
// ARGS: --external-calls=concrete --link-native=libz.so.1
// EXPECT: completed=1 errors=0 early=1 tests=2 exhausted=false
// EXPECT-EARLY: external call zlibVersion returned a pointer into native memory line=@version
// EXPECT-OBJECTS: k:1
#include <klee/klee.h>
#include <zlib.h>

void *rawmemchr(const void *s, int c);

int main(void) {
  char buf[6] = {'s', 'y', 'm', 'q', '!', 0};
  char k;
  klee_make_symbolic(&k, sizeof k, "k");
  char *p = rawmemchr(buf + 1, 'q');
  klee_assert(p == buf + 3);
  *p = 'Q';
  klee_assert(buf[3] == 'Q');
  if (k == 1) return zlibVersion()[0]; /* @version */
  return 0;
}
