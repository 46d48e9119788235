/* __VERIFIER_nondet_bool is 0 or 1 and nothing else: branching on it gives exactly two
 * paths; the switch's default (neither 0 nor 1) is infeasible. One object of one byte. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: nondet_bool:1
// SEARCH-INVARIANT
extern _Bool __VERIFIER_nondet_bool(void);
void reach_error(void);

int main(void) {
  _Bool b = __VERIFIER_nondet_bool();
  switch ((int)b) {
  case 0:
    return 0;
  case 1:
    return 1;
  default:
    reach_error();
    return 2;
  }
}
