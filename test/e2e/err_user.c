/* Errors the driver reports itself: klee_report_error with suffix "user" (x = 1) and
 * symq_report_error with its own kind "mykind" (x = 2); the kind argument names the .err
 * file and the message is the driver's. Any other x completes. 1 completed + 2 errors = 3
 * tests. */
// EXPECT: completed=1 errors=2 tests=3
// EXPECT-ERROR: user line=@kreport msg="custom failure one"
// EXPECT-ERROR: mykind line=@sreport msg="custom failure two"
// EXPECT-OBJECTS: x:4
#include <klee/klee.h>
#include <symq.h>

int main(void) {
  int x;
  klee_make_symbolic(&x, sizeof x, "x");
  if (x == 1) klee_report_error(__FILE__, __LINE__, "custom failure one", "user"); /* @kreport */
  if (x == 2) symq_report_error(__FILE__, __LINE__, "custom failure two", "mykind"); /* @sreport */
  return 0;
}
