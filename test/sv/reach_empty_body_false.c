// VERDICT: false
/* reach_error defined empty, then abort(): the call is the violation. */
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  if (x * 3 == 21) { reach_error(); abort(); }
  return 0;
}
