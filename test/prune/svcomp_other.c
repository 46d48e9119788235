/* Under SV-COMP's unreach-call property only reach_error is a violation: the division by
 * zero here ends its path (not a violation), so the result is unknown, not false — and not
 * true either, since that path's rest was not explored. reach_error is unreachable
 * (10 / x is at most 10). */
int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = 10 / x;
  if (y == 1000) reach_error();
  return 0;
}
