// VERDICT: false
/* g[i] for 2 < i < 8: only i == 3 is in g; the solver's first example may lie elsewhere. */
int g[4];
extern unsigned __VERIFIER_nondet_uint(void);
extern void __VERIFIER_assume(int);
void reach_error(void);
int main() {
  unsigned i = __VERIFIER_nondet_uint();
  __VERIFIER_assume(i > 2 && i < 8);
  g[3] = 7;
  if (g[i] == 7) reach_error();
  return 0;
}
