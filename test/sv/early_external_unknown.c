// VERDICT: unknown
/* A path symq cannot finish (a function defined nowhere) guards the error: symq must not
 * claim the exploration complete, nor report the error. */
extern int __VERIFIER_nondet_int(void);
extern int defined_nowhere(int);
void reach_error(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x == 9 && defined_nowhere(x) == 1) reach_error();
  return 0;
}
