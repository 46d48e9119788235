/* --external-calls=concrete calls zlib's crc32 (no body, no model) natively: the buffer is
 * symbolic but constrained to "abcd", so the call is made on its one value and returns
 * zlib's checksum, which the assertion checks (a wrong value would be an assert error).
 * glibc's memfrob, found in symq's own process, writes through a pointer into the middle
 * of an array: the byte it changed comes back, its neighbours stay. Without the option the
 * path would end early at crc32 (early_external_call.c). Every byte passed had one value:
 * nothing is dropped, the run is exhaustive. */
// ARGS: --external-calls=concrete --link-native=libz.so.1
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: buf:4
#include <klee/klee.h>
#include <stddef.h>
#include <zlib.h>

void *memfrob(void *s, size_t n);

int main(void) {
  unsigned char buf[4];
  klee_make_symbolic(buf, sizeof buf, "buf");
  klee_assume((buf[0] == 'a') & (buf[1] == 'b') & (buf[2] == 'c') & (buf[3] == 'd'));
  unsigned long c = crc32(0L, buf, sizeof buf);
  klee_assert(c == 0xed82cd11UL);
  char m[3] = {'x', 'y', 'z'};
  memfrob(m + 1, 1);
  klee_assert((m[0] == 'x') & (m[1] == ('y' ^ 42)) & (m[2] == 'z'));
  return 0;
}
