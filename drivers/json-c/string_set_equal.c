/* json-c json_object_set_string_len and json_object_equal: a string object set to a first
 * symbolic string, then to a second (the in-place or reallocating update), compared with a
 * fresh object of the second. Each string has a symbolic length <= CAP. Checks that the
 * updated object equals the fresh one and keeps the new length. */
#include <string.h>

#include "common.h"

int main(void) {
  char s[CAP + 1], t[CAP + 1];
  size_t n = json_symbolic_string(s, "s");
  size_t m = symbolic_string(t, "m", "t");
  struct json_object *a = json_object_new_string_len(s, (int)n);
  klee_assert(json_object_set_string_len(a, t, (int)m));
  struct json_object *b = json_object_new_string(t);
  klee_assert((size_t)json_object_get_string_len(a) == m);
  klee_assert(json_object_equal(a, b) == (strlen(t) == m));
  json_object_put(a);
  json_object_put(b);
  return 0;
}
