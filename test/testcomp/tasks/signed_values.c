/* Branch coverage over integer widths up to __int128 (an else-if chain: eight paths), with
 * paths that force negative values (printed signed) and values with the top bit set in
 * unsigned types (printed unsigned), plus bool, a nondet_memory block (one unsigned char
 * input per byte) and a float and a double whose bits the inputs must reproduce. */
// TESTCOMP-PROPERTY: coverage-branches
// TESTCOMP-EXPECT: tests=8
#include <stddef.h>
extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern __int128 __VERIFIER_nondet_int128(void);
extern unsigned __int128 __VERIFIER_nondet_uint128(void);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern void __VERIFIER_nondet_memory(void *, size_t);

volatile float sink_f;
volatile double sink_d;

int main(void) {
  _Bool b = __VERIFIER_nondet_bool();
  char c = __VERIFIER_nondet_char();
  unsigned short us = __VERIFIER_nondet_ushort();
  long l = __VERIFIER_nondet_long();
  unsigned long ul = __VERIFIER_nondet_ulong();
  __int128 i = __VERIFIER_nondet_int128();
  unsigned __int128 u = __VERIFIER_nondet_uint128();
  sink_f = __VERIFIER_nondet_float();
  sink_d = __VERIFIER_nondet_double();
  unsigned char block[5];
  __VERIFIER_nondet_memory(block, sizeof block);
  if (b) return 1;
  else if (c < -100) return 2;
  else if (us > 40000) return 3;
  else if (l < -5000000000L) return 4;
  else if (ul > 18000000000000000000UL) return 5;
  else if (i < -((__int128)1 << 100)) return 6;
  else if (u > ((unsigned __int128)1 << 127)) return 7;
  return 0;
}
