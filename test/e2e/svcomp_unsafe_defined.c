/* An unsafe task in the benchmarks' own form, where reach_error has a body that calls
 * __assert_fail: the call of reach_error is the property violation, whatever its body, so
 * the error is of kind reach_error at the call. Two nondet chars: a != 'x' completes, a ==
 * 'x' with b != 'y' completes, and a == 'x' with b == 'y' reaches the error. */
// EXPECT: completed=2 errors=1 tests=3
// EXPECT-ERROR: reach_error line=@call
// EXPECT-OBJECTS: nondet_char:1 nondet_char:1
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_unsafe_defined.c", 10, "reach_error"); }
extern char __VERIFIER_nondet_char(void);

int main() {
  char a = __VERIFIER_nondet_char();
  char b = __VERIFIER_nondet_char();
  if (a == 'x') {
    if (b == a + 1) {
      reach_error(); /* @call */
    }
  }
  return 0;
}
