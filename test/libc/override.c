/* Every model function is weak: a driver that defines a libc function of its own (here
 * strlen and toupper) keeps it — it links instead of clashing with the runtime — while
 * the model's other functions do not call it (strdup still copies the whole string). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

size_t strlen(const char *s) {
  (void)s;
  return 42;
}

int toupper(int c) { return c == 'a' ? '!' : c; }

int main(void) {
  char s[4];
  sym_string(s, sizeof s, "s");
  split_on_length(s);
  check_uint("own strlen", strlen(s));
  check_int("own toupper", toupper(s[0]));
  check_int("model tolower", tolower(s[0]));
  char *d = strdup(s);
  check_str("strdup", d);
  check_sign("strcmp", strcmp(d, s));
  free(d);
  return 0;
}
