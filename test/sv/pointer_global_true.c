// VERDICT: true
/* Every index the assumption allows is in bounds and reads what was written. */
int g[4] = {1, 2, 3, 4};
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
void reach_error(void);
int main() {
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i < 4);
  if (g[i] != (int)i + 1) reach_error();
  return 0;
}
