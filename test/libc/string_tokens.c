/* strtok, strtok_r, __strtok_r and strsep: a symbolic string of up to 4 characters split
 * on a symbolic set of up to 2 delimiters (or a fixed one), every token recorded as an
 * offset, and the string itself afterwards (the delimiters overwritten with NULs). */
#define _GNU_SOURCE
#include <string.h>

#include "harness.h"

char *__strtok_r(char *s, const char *delim, char **save);

int main(void) {
  char s[5], set[3];
  sym_string(s, sizeof s, "s");
  sym_string(set, sizeof set, "set");
  const char *delim = sym_int_in("fixed", 0, 1) ? "," : set;
  char *save = NULL, *tok;
  switch (sym_int_in("which", 0, 3)) {
  case 0:
    for (tok = strtok(s, delim); tok; tok = strtok(NULL, delim)) check_ptr("strtok", tok, s);
    break;
  case 1:
    for (tok = strtok_r(s, delim, &save); tok; tok = strtok_r(NULL, delim, &save)) {
      check_ptr("strtok_r", tok, s);
      check_ptr("save", save, s);
    }
    break;
  case 2:
    for (tok = __strtok_r(s, delim, &save); tok; tok = __strtok_r(NULL, delim, &save))
      check_ptr("__strtok_r", tok, s);
    break;
  case 3: {
    char *p = s;
    do {
      tok = strsep(&p, delim);
      check_ptr("strsep", tok, s);
      check_ptr("rest", p, s);
    } while (tok);
    break;
  }
  }
  check_mem("s", s, sizeof s);
  return 0;
}
