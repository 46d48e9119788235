/* strchr, strrchr, strchrnul, index, rindex (a symbolic character, NUL included, in a
 * symbolic string), strstr and strcasestr (a symbolic needle of up to 2 characters),
 * strspn, strcspn and strpbrk (a symbolic set of up to 2 characters). */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "harness.h"

int main(void) {
  char s[4], t[3];
  sym_string(s, sizeof s, "s");
  sym_string(t, sizeof t, "t");
  int c = sym_int_in("c", -300, 300);
  split_on_length(s);
  split_on_length(t);
  switch (sym_int_in("which", 0, 9)) {
  case 0: check_ptr("strchr", strchr(s, c), s); break;
  case 1: check_ptr("strrchr", strrchr(s, c), s); break;
  case 2: check_ptr("strchrnul", strchrnul(s, c), s); break;
  case 3: check_ptr("index", index(s, c), s); break;
  case 4: check_ptr("rindex", rindex(s, c), s); break;
  case 5: check_ptr("strstr", strstr(s, t), s); break;
  case 6: check_ptr("strcasestr", strcasestr(s, t), s); break;
  case 7: check_uint("strspn", strspn(s, t)); break;
  case 8: check_uint("strcspn", strcspn(s, t)); break;
  case 9: check_ptr("strpbrk", strpbrk(s, t), s); break;
  }
  return 0;
}
