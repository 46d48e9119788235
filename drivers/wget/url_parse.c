/* wget url_parse: a URL of symbolic length n <= CAP split into scheme, user, host, port,
 * path, params, query and fragment (wget's own parser, no IRI, no percent-encoding pass).
 * Checks that a parsed URL has a host and a port in range, and that a rejected one has an
 * error message. */
#include "common.h"
#include "url.h"

int main(void) {
  char s[CAP + 1];
  symbolic_string(s, "n", "url");
  int err = 0;
  struct url *u = url_parse(s, &err, NULL, false);
  if (u) {
    klee_assert(u->host != NULL && u->port > 0 && u->port <= 0xffff);
    klee_assert(u->path != NULL);
    url_free(u);
  } else {
    klee_assert(url_error(s, err) != NULL);
  }
  return 0;
}
