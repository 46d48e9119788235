/* symq_symbolic_buffer: size and contents symbolic, size ≤ the buffer's own capacity (3). The
 * loop over the buffer forks like memspn: 2·3 + 1 = 7 paths, and the read one past the end is
 * in bounds on none of them, so the last byte read (buf[size - 1]) is always legal. Objects:
 * "buf.size" (8 bytes) then "buf" (size bytes: no fixed size). */
// ARGS: --merge=none
// EXPECT: completed=7 errors=0 tests=7
// EXPECT-OBJECTS: buf.size:8 buf
#include <symq.h>

int main(void) {
  size_t size;
  char *buf = symq_symbolic_buffer(3, &size, "buf");
  size_t i = 0;
  for (; i < size; i++)
    if (buf[i] != 'q')
      break;
  symq_assert(i <= 3);
  return i ? buf[i - 1] : 0;
}
