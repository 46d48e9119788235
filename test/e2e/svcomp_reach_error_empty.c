/* SV-COMP's other common form: reach_error is defined empty and the task calls abort()
 * after it. The call of reach_error is the error (kind reach_error at the call), not the
 * abort that follows. x == 5 reaches it; the other path completes. */
// EXPECT: completed=1 errors=1 tests=2
// EXPECT-ERROR: reach_error line=@call
// EXPECT-OBJECTS: nondet_int:4
extern void abort(void);
void reach_error() {}
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  if (x == 5) {
    reach_error(); /* @call */
    abort();
  }
  return 0;
}
