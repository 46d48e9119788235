/* The <ctype.h> functions (drivers are compiled with -D__NO_CTYPE, so these are calls):
 * first every argument -128..255 in turn (EOF and signed chars included), all functions
 * on each, the _l variants in the "C" locale too; then a symbolic character classified
 * by if-chains: the predicates do not fork themselves, so each `if` forks in two and the
 * paths are exactly the feasible combinations of classes (11). */
// EXPECT: completed=12 tests=12
#define _GNU_SOURCE
#include <ctype.h>
#include <locale.h>

#include "harness.h"

static locale_t c_locale;

static void all(int c) {
  check_bool("isalnum", isalnum(c));
  check_bool("isalpha", isalpha(c));
  check_bool("isblank", isblank(c));
  check_bool("iscntrl", iscntrl(c));
  check_bool("isdigit", isdigit(c));
  check_bool("isgraph", isgraph(c));
  check_bool("islower", islower(c));
  check_bool("isprint", isprint(c));
  check_bool("ispunct", ispunct(c));
  check_bool("isspace", isspace(c));
  check_bool("isupper", isupper(c));
  check_bool("isxdigit", isxdigit(c));
  check_bool("isascii", isascii(c));
  check_int("tolower", tolower(c));
  check_int("toupper", toupper(c));
  check_int("toascii", toascii(c));
  check_bool("isalnum_l", isalnum_l(c, c_locale));
  check_bool("isalpha_l", isalpha_l(c, c_locale));
  check_bool("isblank_l", isblank_l(c, c_locale));
  check_bool("iscntrl_l", iscntrl_l(c, c_locale));
  check_bool("isdigit_l", isdigit_l(c, c_locale));
  check_bool("isgraph_l", isgraph_l(c, c_locale));
  check_bool("islower_l", islower_l(c, c_locale));
  check_bool("isprint_l", isprint_l(c, c_locale));
  check_bool("ispunct_l", ispunct_l(c, c_locale));
  check_bool("isspace_l", isspace_l(c, c_locale));
  check_bool("isupper_l", isupper_l(c, c_locale));
  check_bool("isxdigit_l", isxdigit_l(c, c_locale));
  check_int("tolower_l", tolower_l(c, c_locale));
  check_int("toupper_l", toupper_l(c, c_locale));
}

int main(void) {
  c_locale = newlocale(LC_CTYPE_MASK, "C", (locale_t)0);
  if (sym_int_in("which", 0, 1) == 0) {
    for (int c = -128; c < 256; c++) all(c);
    if (_tolower('A') != 'a' || _toupper('z') != 'Z') return 1;
    return 0;
  }
  int c = sym_int_in("c", -1, 255);
  int cls = 0;
  if (isalpha(c)) cls |= 1;
  if (isdigit(c)) cls |= 2;
  if (isspace(c)) cls |= 4;
  if (ispunct(c)) cls |= 8;
  if (iscntrl(c)) cls |= 16;
  if (isxdigit(c)) cls |= 32;
  if (isupper(c)) cls |= 64;
  if (isblank(c)) cls |= 128;
  check_int("class", cls);
  all(c);
  return 0;
}
