// VERDICT: false
/* reach_error defined with __assert_fail, the benchmarks' usual form. */
extern void __assert_fail(const char *, const char *, unsigned int, const char *)
    __attribute__((__nothrow__, __leaf__)) __attribute__((__noreturn__));
void reach_error() { __assert_fail("0", "reach_assert_body_false.c", 5, "reach_error"); }
extern unsigned char __VERIFIER_nondet_uchar(void);
int main() {
  unsigned char a = __VERIFIER_nondet_uchar(), b = __VERIFIER_nondet_uchar();
  if (a > 200 && b == a - 100) reach_error();
  return 0;
}
