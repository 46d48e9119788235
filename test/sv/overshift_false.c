// VERDICT: false overshift
/* A shift by the nondet amount: k >= 32 is an overshift error (KLEE's check), before any
 * reach_error could be judged. */
extern unsigned __VERIFIER_nondet_uint(void);
void reach_error(void);
int main() {
  unsigned k = __VERIFIER_nondet_uint();
  unsigned v = 1u << k;
  if (v == 0) reach_error();
  return 0;
}
