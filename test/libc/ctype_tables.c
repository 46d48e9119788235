/* Bitcode compiled without __NO_CTYPE: glibc's macros index the tables behind
 * __ctype_b_loc, __ctype_tolower_loc and __ctype_toupper_loc (-128..255). Every index in
 * turn, then a symbolic one (a read at a symbolic offset: no fork until the driver's
 * `if`s, whose feasible combinations are 6 classes: other, lower, upper, digit, space,
 * punctuation). */
// EXPECT: completed=7 tests=7
#undef __NO_CTYPE
#include <ctype.h>

#include "harness.h"

int main(void) {
  const unsigned short *b = *__ctype_b_loc();
  const int *lower = *__ctype_tolower_loc(), *upper = *__ctype_toupper_loc();
  if (sym_int_in("which", 0, 1) == 0) {
    for (int c = -128; c < 256; c++) {
      check_int("class bits", b[c]);
      check_int("lower", lower[c]);
      check_int("upper", upper[c]);
    }
    return 0;
  }
  int c = sym_int_in("c", -128, 255);
  int cls = 0;
  if (isalpha(c)) cls |= 1;
  if (isdigit(c)) cls |= 2;
  if (isspace(c)) cls |= 4;
  if (ispunct(c)) cls |= 8;
  if (isupper(c)) cls |= 16;
  check_int("class", cls);
  check_int("class bits", b[c]);
  check_int("lower", lower[c]);
  return 0;
}
