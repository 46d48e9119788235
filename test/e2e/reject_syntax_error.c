/* Deliberately not valid C: symq must refuse it as malformed input, with one line on stderr
 * ("symq: error: ...", not clang's whole report) and exit status 2. */
// EXPECT-REJECT: symq: error:
int main(void) {
  return 0
}
