/* json-c json_object_get_double on a string object (strtod, then json-c's checks: nothing
 * converted, trailing text, or overflow give 0 with errno set): a string of symbolic length
 * n <= CAP. Checks that any nonzero result is also what json_parse_double reads (which
 * accepts trailing text, so the converse does not hold), and that 0 with errno EINVAL
 * means json-c rejected the string. Symbolic digits reach strtod, which forks once per
 * value a digit it reads may take (symq's floating point is concrete): many paths, none
 * ending early. */
#include <errno.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  json_symbolic_string(s, "s");
  struct json_object *obj = json_object_new_string(s);
  double parsed;
  errno = 0;
  double got = json_object_get_double(obj);
  if (got != 0 && got == got) {
    klee_assert(json_parse_double(s, &parsed) == 0 && parsed == got);
  }
  if (errno == EINVAL) klee_assert(got == 0);
  json_object_put(obj);
  return 0;
}
