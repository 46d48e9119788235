/* json-c json_object_new_string_len + json_object_to_json_string_ext: a string of symbolic
 * length n <= CAP (NUL bytes included) serialised with JSON escaping. Checks that the result
 * is quoted, at least n + 2 bytes long, and that parsing it back gives a string of the same
 * length and bytes. */
#include <string.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  size_t n = json_symbolic_string(s, "s");
  struct json_object *obj = json_object_new_string_len(s, (int)n);
  size_t len;
  const char *text = json_object_to_json_string_length(obj, JSON_C_TO_STRING_PLAIN, &len);
  klee_assert(len >= n + 2 && text[0] == '"' && text[len - 1] == '"');
  struct json_object *back = json_tokener_parse(text);
  klee_assert(back && json_object_is_type(back, json_type_string));
  klee_assert((size_t)json_object_get_string_len(back) == n);
  klee_assert(memcmp(json_object_get_string(back), s, n) == 0);
  json_object_put(back);
  json_object_put(obj);
  return 0;
}
