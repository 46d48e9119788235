/* SV-COMP style: inputs from __VERIFIER_nondet_*, an assumption, and reach_error() declared
 * but not defined. The runner writes the ktests (one object per nondet call, of the type's
 * size) and the .err files, as symq's runtime/lib/svcomp.c would. */
extern int __VERIFIER_nondet_int(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void __VERIFIER_assume(int condition);
void reach_error(void);

int main(void) {
  int x = __VERIFIER_nondet_int();
  unsigned char c = __VERIFIER_nondet_uchar();
  __VERIFIER_assume(x >= 0);
  if (x > 100 && c == 7)
    reach_error(); /* @reach */
  return 0;
}
