/* The shape of sv-benchmarks' locks/test_locks_N (written anew here): a `while (1)` loop
 * that a nondet choice ends; each round sets N locks under N nondet conditions and checks
 * each under the same condition. reach_error is unreachable, but no path of the loop ever
 * finishes, so nothing gets an interpolant: under --interpolate a state back at the loop's
 * head is *covered* by the ancestor node at the head (the locks are reset each round, so it
 * stands for states the ancestor stands for), and the run proves the program true with 2^N
 * forks; forking runs until its time limit. */
#include "nondet.h"
#define LOCK(i)                                  \
  int p##i = __VERIFIER_nondet_int(), lk##i = 0; \
  if (p##i != 0) lk##i = 1;
#define CHECK(i)                   \
  if (p##i != 0) {                 \
    if (lk##i != 1) reach_error(); \
    lk##i = 0;                     \
  }
int main(void) {
  while (1) {
    if (__VERIFIER_nondet_int() == 0) break;
    LOCK(1)
    LOCK(2)
#if N >= 3
    LOCK(3)
#endif
#if N >= 4
    LOCK(4)
#endif
#if N >= 5
    LOCK(5)
#endif
    CHECK(1)
    CHECK(2)
#if N >= 3
        CHECK(3)
#endif
#if N >= 4
            CHECK(4)
#endif
#if N >= 5
                CHECK(5)
#endif
  }
  return 0;
}
