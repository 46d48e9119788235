/* An unsafe task in the benchmarks' own form, where reach_error has a body that calls
 * __assert_fail: symq runs the body, so the error it reports is an assert failure at the
 * __assert_fail line inside reach_error (the verdict, an error, is the same). Two nondet
 * chars: a != 'x' completes, a == 'x' with b != 'y' completes, and a == 'x' with b == 'y'
 * reaches the error. */
// EXPECT: completed=2 errors=1 tests=3
// EXPECT-ERROR: assert line=@assert msg="ASSERTION FAIL: 0"
// EXPECT-OBJECTS: nondet_char:1 nondet_char:1
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_unsafe_defined.c", 10, "reach_error"); } /* @assert */
extern char __VERIFIER_nondet_char(void);

int main() {
  char a = __VERIFIER_nondet_char();
  char b = __VERIFIER_nondet_char();
  if (a == 'x') {
    if (b == a + 1) {
      reach_error();
    }
  }
  return 0;
}
