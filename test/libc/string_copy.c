/* strcpy, stpcpy, strncpy, stpncpy, strcat, strncat, strdup, strndup, __strdup,
 * __strndup and strxfrm on symbolic strings (up to 3 characters) and bounds (0..5): the
 * whole destination buffer is compared, so a byte written past the end or a missing NUL
 * shows. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "harness.h"

char *__strdup(const char *s);
char *__strndup(const char *s, size_t n);

int main(void) {
  char s[4], d[8];
  sym_string(s, sizeof s, "s");
  klee_make_symbolic(d, sizeof d, "d");
  klee_assume(d[2] == 0); /* d holds a string of 0..2 characters, then junk */
  size_t n = (size_t)sym_int_in("n", 0, 5);
  char *r = NULL;
  split_on_length(s);
  split_on_length(d);
  switch (sym_int_in("which", 0, 10)) {
  case 0: r = strcpy(d, s); check_ptr("strcpy", r, d); break;
  case 1: r = stpcpy(d, s); check_ptr("stpcpy", r, d); break;
  case 2: r = strncpy(d, s, n); check_ptr("strncpy", r, d); break;
  case 3: r = stpncpy(d, s, n); check_ptr("stpncpy", r, d); break;
  case 4: r = strcat(d, s); check_ptr("strcat", r, d); break;
  case 5: r = strncat(d, s, n); check_ptr("strncat", r, d); break;
  case 6: r = strdup(s); check_str("strdup", r); free(r); break;
  case 7: r = strndup(s, n); check_str("strndup", r); free(r); break;
  case 8: r = __strdup(s); check_str("__strdup", r); free(r); break;
  case 9: r = __strndup(s, n); check_str("__strndup", r); free(r); break;
  case 10: check_uint("strxfrm", strxfrm(d, s, n)); break;
  }
  check_mem("d", d, sizeof d);
  return 0;
}
