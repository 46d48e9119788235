// VERDICT: true
/* A defined reach_error behind a condition that cannot hold. */
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);
int main() {
  int x = __VERIFIER_nondet_int();
  int y = x;
  if (x > 10) y = x - 10;
  if (x > 10 && y <= 0) { reach_error(); abort(); }
  return 0;
}
