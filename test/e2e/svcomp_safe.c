/* A safe SV-COMP task in the benchmarks' own form: reach_error is defined (it calls
 * __assert_fail) and unreachable, so symq reports nothing. x > 0 gives y = x - 1 < x, so
 * the inner branch is infeasible: one path with x > 0, one with x <= 0. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: nondet_int:4
// SEARCH-INVARIANT
extern void abort(void);
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "svcomp_safe.c", 3, "reach_error"); }
extern int __VERIFIER_nondet_int(void);

int main() {
  int x = __VERIFIER_nondet_int();
  int y = x;
  if (x > 0) {
    y = x - 1;
    if (y >= x) {
      reach_error();
    }
  }
  return 0;
}
