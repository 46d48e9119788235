/* json-c json_tokener_parse_ex: a whole JSON text of symbolic length n <= CAP through the
 * incremental tokener in one call. Checks that a successful parse yields an object whose
 * type is one json-c knows, that the tokener reports a consumed length within the text,
 * and that serialising the result gives a non-empty string. */
#include <stdlib.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = json_symbolic_string(s, "s");
  struct json_tokener *tok = json_tokener_new();
  struct json_object *obj = json_tokener_parse_ex(tok, s, (int)n + 1);
  enum json_tokener_error err = json_tokener_get_error(tok);
  if (obj) {
    klee_assert(err == json_tokener_success);
    klee_assert(json_object_get_type(obj) <= json_type_string);
    klee_assert(json_tokener_get_parse_end(tok) <= n + 1);
    klee_assert(json_object_to_json_string(obj)[0] != 0);
    json_object_put(obj);
  } else {
    klee_assert(err != json_tokener_success);
  }
  json_tokener_free(tok);
  return 0;
}
