/* Atomics run single-threaded: symq lowers cmpxchg, atomicrmw and fences to plain loads and
 * stores before interpreting (LLVM's loweratomic), as KLEE does. A reference count taken
 * and dropped the way json-c does it (__sync_add_and_fetch / __sync_sub_and_fetch), a
 * compare-and-swap that succeeds only when the symbolic x is 7, C11 atomics and a fence:
 * the one fork is on the cmpxchg's outcome, and every check holds on both paths.
 * 2 completed paths, no error, 2 tests. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: x:4
#include <stdatomic.h>
#include <klee/klee.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  int refs = 1;
  klee_assert(__sync_add_and_fetch(&refs, 1) == 2);
  klee_assert(__sync_sub_and_fetch(&refs, 1) == 1);
  int cell = x;
  int expected = 7;
  int swapped = __atomic_compare_exchange_n(&cell, &expected, 100, 0, __ATOMIC_SEQ_CST,
                                            __ATOMIC_SEQ_CST);
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (swapped) klee_assert(x == 7 && cell == 100);
  else klee_assert(x != 7 && cell == x && expected == x);
  _Atomic long counter = 5;
  atomic_fetch_or(&counter, 2);
  klee_assert(atomic_exchange(&counter, 0) == 7 && atomic_load(&counter) == 0);
  return 0;
}
