/*
 * locale.c — <locale.h>: the model has one locale, "C" (also "POSIX", and "" since symq's
 * environment is empty). Selecting it succeeds and names it "C"; any other name fails
 * (setlocale and newlocale return NULL), so a program that falls back to
 * the "C" locale behaves as it would on a system without that locale.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <langinfo.h>
#include <limits.h>
#include <locale.h>
#include <stddef.h>
#include <stdlib.h>

#include "model.h"

static int is_c_locale(const char *name) {
  return (name[0] == 'C' && name[1] == '\0') || name[0] == '\0' ||
         (name[0] == 'P' && name[1] == 'O' && name[2] == 'S' && name[3] == 'I' &&
          name[4] == 'X' && name[5] == '\0');
}

WEAK char *setlocale(int category, const char *name) {
  if (category < LC_CTYPE || category > LC_IDENTIFICATION) return NULL;
  if (name != NULL && !is_c_locale(name)) return NULL;
  return (char *)"C";
}

/* locale_t points to glibc's struct __locale_struct; nothing reads it but the _l
 * functions, which ignore it, so one static object stands for "C". */
static struct __locale_struct c_locale;
static locale_t current = LC_GLOBAL_LOCALE;

WEAK locale_t newlocale(int mask, const char *name, locale_t base) {
  (void)mask, (void)base;
  if (name == NULL) {
    errno = EINVAL;
    return (locale_t)0;
  }
  if (!is_c_locale(name)) return (locale_t)0; /* errno untouched, as glibc 2.36 */
  return &c_locale;
}

WEAK locale_t duplocale(locale_t l) { return l == LC_GLOBAL_LOCALE ? &c_locale : l; }
WEAK void freelocale(locale_t l) { (void)l; }

WEAK locale_t uselocale(locale_t l) {
  locale_t old = current;
  if (l != (locale_t)0) current = l;
  return old;
}

WEAK struct lconv *localeconv(void) {
  static char empty[] = "", point[] = ".";
  static struct lconv c = {
    .decimal_point = point, .thousands_sep = empty, .grouping = empty,
    .int_curr_symbol = empty, .currency_symbol = empty, .mon_decimal_point = empty,
    .mon_thousands_sep = empty, .mon_grouping = empty, .positive_sign = empty,
    .negative_sign = empty, .int_frac_digits = CHAR_MAX, .frac_digits = CHAR_MAX,
    .p_cs_precedes = CHAR_MAX, .p_sep_by_space = CHAR_MAX, .n_cs_precedes = CHAR_MAX,
    .n_sep_by_space = CHAR_MAX, .p_sign_posn = CHAR_MAX, .n_sign_posn = CHAR_MAX,
    .int_p_cs_precedes = CHAR_MAX, .int_p_sep_by_space = CHAR_MAX,
    .int_n_cs_precedes = CHAR_MAX, .int_n_sep_by_space = CHAR_MAX,
    .int_p_sign_posn = CHAR_MAX, .int_n_sign_posn = CHAR_MAX,
  };
  return &c;
}

/* MB_CUR_MAX expands to this call: the "C" locale's characters are single bytes. */
WEAK size_t __ctype_get_mb_cur_max(void) { return 1; }

/* Defined nowhere: calling it ends the path with "unsupported: external call NAME". */
void __symq_unsupported_nl_langinfo_item(void);

/* glibc's "C" locale answers to nl_langinfo; the items a program asks for (the public ones
 * of <langinfo.h>). An internal item (_NL_...) ends the path as unsupported rather than
 * answering something glibc would not. */
WEAK char *nl_langinfo(nl_item item) {
  static const char *const days[] = {"Sunday", "Monday", "Tuesday", "Wednesday",
                                     "Thursday", "Friday", "Saturday"};
  static const char *const months[] = {"January", "February", "March", "April", "May",
                                       "June", "July", "August", "September", "October",
                                       "November", "December"};
  static char abbrev[4];
  const char *full = NULL;
  if (item >= DAY_1 && item <= DAY_7) return (char *)days[item - DAY_1];
  if (item >= MON_1 && item <= MON_12) return (char *)months[item - MON_1];
  if (item >= ABDAY_1 && item <= ABDAY_7) full = days[item - ABDAY_1];
  if (item >= ABMON_1 && item <= ABMON_12) full = months[item - ABMON_1];
  if (full) {
    abbrev[0] = full[0], abbrev[1] = full[1], abbrev[2] = full[2], abbrev[3] = 0;
    return abbrev;
  }
  switch (item) {
  case CODESET: return (char *)"ANSI_X3.4-1968";
  case RADIXCHAR: return (char *)".";
  case THOUSEP: return (char *)"";
  case D_T_FMT: return (char *)"%a %b %e %H:%M:%S %Y";
  case D_FMT: return (char *)"%m/%d/%y";
  case T_FMT: return (char *)"%H:%M:%S";
  case T_FMT_AMPM: return (char *)"%I:%M:%S %p";
  case AM_STR: return (char *)"AM";
  case PM_STR: return (char *)"PM";
  case ERA: case ERA_D_FMT: case ALT_DIGITS: case ERA_D_T_FMT: case ERA_T_FMT:
    return (char *)"";
  case YESEXPR: return (char *)"^[yY]";
  case NOEXPR: return (char *)"^[nN]";
  case CRNCYSTR: return (char *)"-";
  default: __symq_unsupported_nl_langinfo_item(); return (char *)"";
  }
}
