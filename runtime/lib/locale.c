/*
 * locale.c — <locale.h>: the model has one locale, "C" (also "POSIX", and "" since symq's
 * environment is empty). Selecting it succeeds and names it "C"; any other name fails
 * (setlocale and newlocale return NULL), so a program that falls back to
 * the "C" locale behaves as it would on a system without that locale.
 */
#define _GNU_SOURCE
#include <errno.h>
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
