/* <locale.h>: only "C" exists ("POSIX" and "" name it too, the environment being empty);
 * setlocale and newlocale succeed for it and fail for anything else, localeconv describes
 * it, uselocale/duplocale/freelocale accept it, and MB_CUR_MAX (__ctype_get_mb_cur_max)
 * is 1, and nl_langinfo answers every public item as glibc's "C" locale does. */
#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdlib.h>

#include "harness.h"

static void show_lconv(void) {
  struct lconv *l = localeconv();
  check_str("decimal_point", l->decimal_point);
  check_str("thousands_sep", l->thousands_sep);
  check_str("grouping", l->grouping);
  check_str("int_curr_symbol", l->int_curr_symbol);
  check_str("currency_symbol", l->currency_symbol);
  check_str("mon_decimal_point", l->mon_decimal_point);
  check_str("mon_thousands_sep", l->mon_thousands_sep);
  check_str("mon_grouping", l->mon_grouping);
  check_str("positive_sign", l->positive_sign);
  check_str("negative_sign", l->negative_sign);
  check_int("int_frac_digits", l->int_frac_digits);
  check_int("frac_digits", l->frac_digits);
  check_int("p_cs_precedes", l->p_cs_precedes);
  check_int("n_sign_posn", l->n_sign_posn);
  check_int("int_n_sign_posn", l->int_n_sign_posn);
}

int main(void) {
  static const int categories[] = {LC_ALL, LC_CTYPE, LC_NUMERIC, LC_COLLATE, LC_MONETARY,
                                   LC_TIME, LC_MESSAGES};
  for (unsigned k = 0; k < sizeof categories / sizeof categories[0]; k++) {
    check_str("query", setlocale(categories[k], NULL));
    check_str("C", setlocale(categories[k], "C"));
    check_str("POSIX", setlocale(categories[k], "POSIX"));
    check_str("empty", setlocale(categories[k], ""));
    check_str("xx_YY", setlocale(categories[k], "xx_YY.UTF-8"));
  }
  check_str("bad category", setlocale(99, "C"));
  check_uint("MB_CUR_MAX", MB_CUR_MAX);
  static const nl_item items[] = {CODESET, RADIXCHAR, THOUSEP, D_T_FMT, D_FMT, T_FMT,
                                  T_FMT_AMPM, AM_STR, PM_STR, ERA, ERA_D_FMT, ALT_DIGITS,
                                  ERA_D_T_FMT, ERA_T_FMT, YESEXPR, NOEXPR, CRNCYSTR};
  for (unsigned k = 0; k < sizeof items / sizeof items[0]; k++)
    check_str("nl_langinfo", nl_langinfo(items[k]));
  for (nl_item i = 0; i < 7; i++) {
    check_str("day", nl_langinfo(DAY_1 + i));
    check_str("abday", nl_langinfo(ABDAY_1 + i));
  }
  for (nl_item i = 0; i < 12; i++) {
    check_str("mon", nl_langinfo(MON_1 + i));
    check_str("abmon", nl_langinfo(ABMON_1 + i));
  }
  show_lconv();
  locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  check_bool("newlocale C", c != (locale_t)0);
  errno = 0;
  check_bool("newlocale xx", newlocale(LC_ALL_MASK, "xx_YY", (locale_t)0) != (locale_t)0);
  check_errno("errno");
  locale_t d = duplocale(c);
  check_bool("duplocale", d != (locale_t)0);
  check_bool("uselocale query", uselocale((locale_t)0) == LC_GLOBAL_LOCALE);
  check_bool("uselocale set", uselocale(d) == LC_GLOBAL_LOCALE);
  check_bool("uselocale back", uselocale(LC_GLOBAL_LOCALE) == d);
  freelocale(d);
  freelocale(c);
  return 0;
}
