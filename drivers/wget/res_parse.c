/* wget res_parse and res_match_path: a robots.txt of symbolic length n <= CAP parsed into
 * its rules for wget, then the path "a" matched against them. Checks that parsing always
 * gives rules (possibly none) and that an empty file allows everything. */
#include "common.h"
#include "res.h"

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "robots");
  struct robot_specs *specs = res_parse(s, (int)n);
  klee_assert(specs != NULL);
  bool allowed = res_match_path(specs, "a");
  if (n == 0) klee_assert(allowed);
  return 0;
}
