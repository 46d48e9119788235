/* A Test-Comp cover-error task in the benchmarks' own form (reach_error defined, calling
 * __assert_fail): the test that reaches it is marked coversError="true", the others not.
 * Four paths: a < 0; b != a * 2; b == a * 2 with a <= 100; b == a * 2 with a > 100, which
 * reaches the error. */
// TESTCOMP-PROPERTY: coverage-error-call
// TESTCOMP-EXPECT: tests=4 covers=1
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "error_call.c", 9, "reach_error"); }
extern int __VERIFIER_nondet_int(void);
extern short __VERIFIER_nondet_short(void);

int main() {
  int a = __VERIFIER_nondet_int();
  short b = __VERIFIER_nondet_short();
  if (a < 0) return 1;
  if (b == a * 2 && a > 100) reach_error();
  return 0;
}
