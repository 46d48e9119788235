/* Variadic functions (va_start/va_arg/va_end; on x86-64 clang expands va_arg inline into
 * reads of the va_list's gp_offset and overflow area, which are concrete and never fork):
 * a sum of 3 symbolic ints, a sum of 8 concrete ints (more than fit in registers), and
 * 64-bit and pointer arguments. The only fork is the branch on the symbolic sum: 2
 * completed paths. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: a:4 b:4 c:4
#include <stdarg.h>
#include <klee/klee.h>

static long vsum(int n, ...) {
  va_list ap;
  va_start(ap, n);
  long s = 0;
  for (int i = 0; i < n; i++) s += va_arg(ap, int);
  va_end(ap);
  return s;
}

static long long vpick(int which, ...) {
  va_list ap;
  va_start(ap, which);
  long long r = 0;
  for (int i = 0; i <= which; i++) r = va_arg(ap, long long);
  va_end(ap);
  return r;
}

static int vderef(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = 0;
  for (int i = 0; i < n; i++) s += *va_arg(ap, int *);
  va_end(ap);
  return s;
}

int main(void) {
  int a, b, c;
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&c, sizeof c, "c");

  klee_assert(vsum(8, 1, 2, 3, 4, 5, 6, 7, 8) == 36);
  klee_assert(vsum(0) == 0);
  klee_assert(vpick(2, 10LL, -20LL, 0x123456789LL) == 0x123456789LL);
  int x = 4, y = 5;
  klee_assert(vderef(3, &x, &y, &x) == 13);

  long s = vsum(3, a, b, c);
  klee_assert(s == (long)a + (long)b + (long)c);
  if (s == 42) return 1;
  return 0;
}
