/* A KLEE-style harness mixed with SV-COMP inputs: objects that are not nondet_X (here a
 * 3-byte buffer made symbolic by the harness) are written byte by byte, as unsigned char
 * inputs, between the typed inputs of the calls around them. */
// TESTCOMP-EXPECT: tests=2
#include <klee/klee.h>
extern unsigned int __VERIFIER_nondet_uint(void);
extern long long __VERIFIER_nondet_longlong(void);

int main(void) {
  unsigned int n = __VERIFIER_nondet_uint();
  unsigned char buf[3];
  klee_make_symbolic(buf, sizeof buf, "buf");
  long long k = __VERIFIER_nondet_longlong();
  if ((n > 3000000000u) & (buf[1] == 200) & (k < -7)) return 1;
  return 0;
}
