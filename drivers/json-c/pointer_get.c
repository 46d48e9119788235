/* json-c json_pointer_get (RFC 6901): a pointer of symbolic length n <= CAP resolved in
 * {"a":[10,20],"b~c":{"d/e":true},"":1}. Checks that resolution succeeds exactly when the
 * pointer is "" or starts with '/', and that a resolved value is one of the document's. */
#include <errno.h>

#include "common.h"

int main(void) {
  char s[CAP + 1];
  json_symbolic_string(s, "s");
  struct json_object *doc = json_tokener_parse("{\"a\":[10,20],\"b~c\":{\"d/e\":true},\"\":1}");
  klee_assert(doc != NULL);
  struct json_object *res = NULL;
  int rc = json_pointer_get(doc, s, &res);
  if (rc == 0) {
    klee_assert(s[0] == 0 || s[0] == '/');
    klee_assert(res != NULL);
  } else {
    klee_assert(errno == EINVAL || errno == ENOENT);
  }
  json_object_put(doc);
  return 0;
}
