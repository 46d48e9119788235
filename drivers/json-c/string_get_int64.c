/* json-c json_object_get_int64 on a string object (json_parse_int64, which is strtoll with
 * json-c's checks): a string of symbolic length n <= CAP. Checks that a string json-c
 * accepts as a number round-trips through json_object_new_int64 and back, and that a value
 * json-c clamps is one of the limits. */
#include <errno.h>
#include <stdint.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  json_symbolic_string(s, "s");
  int64_t parsed;
  if (json_parse_int64(s, &parsed) == 0) {
    struct json_object *obj = json_object_new_string(s);
    int64_t v = json_object_get_int64(obj);
    klee_assert(v == parsed);
    struct json_object *num = json_object_new_int64(v);
    klee_assert(json_object_get_int64(num) == parsed);
    json_object_put(num);
    json_object_put(obj);
  }
  return 0;
}
