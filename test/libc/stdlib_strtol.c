/* strtol, strtoll, strtoimax, strtoq, strtoul, strtoull, strtoumax, strtouq, atoi, atol and
 * atoll: a symbolic string of up to 3 characters in each base that changes the parse (0,
 * 8, 10, 16, 36, and the invalid 1 and 37), with *endptr (as an offset; left alone for an
 * invalid base) and errno; then fixed strings for the limits (overflow clamps and sets
 * ERANGE), the "0x" and sign corner cases. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "harness.h"

long long strtoq(const char *s, char **end, int base);
unsigned long long strtouq(const char *s, char **end, int base);

static const char *const fixed[] = {
  "9223372036854775807", "9223372036854775808", "-9223372036854775808",
  "-9223372036854775809", "18446744073709551615", "18446744073709551616",
  "-18446744073709551615", "-18446744073709551616", "99999999999999999999999",
  "0x", "0X", "0xg", "-0x", " +0x1F", "0x7fffffffffffffff", "0x10000000000000000",
  "0b1", "  -", "", "  ", "\t\n\v\f\r 42", "-0", "+-1", "007", "08", "zz", "Zz!",
  "2147483647", "2147483648", "-2147483649", "4294967296",
};

static void one(int f, const char *s, int base) {
  char *end = (char *)s - 1; /* recognisably untouched */
  errno = 0;
  switch (f) {
  case 0: check_int("strtol", strtol(s, &end, base)); break;
  case 1: check_int("strtoll", strtoll(s, &end, base)); break;
  case 2: check_int("strtoimax", strtoimax(s, &end, base)); break;
  case 3: check_int("strtoq", strtoq(s, &end, base)); break;
  case 4: check_uint("strtoul", strtoul(s, &end, base)); break;
  case 5: check_uint("strtoull", strtoull(s, &end, base)); break;
  case 6: check_uint("strtoumax", strtoumax(s, &end, base)); break;
  case 7: check_uint("strtouq", strtouq(s, &end, base)); break;
  case 8: check_int("atoi", atoi(s)); break;
  case 9: check_int("atol", atol(s)); break;
  case 10: check_int("atoll", atoll(s)); break;
  case 11: check_uint("strtoul NULL end", strtoul(s, NULL, base)); break;
  }
  check_ptr("end", end, s);
  check_errno("errno");
}

/* A concrete base per path: a symbolic one would make every digit step divide by it. */
static int pick_base(void) {
  switch (sym_int_in("base", 0, 6)) {
  case 0: return 0;
  case 1: return 8;
  case 2: return 10;
  case 3: return 16;
  case 4: return 36;
  case 5: return 1;
  default: return 37;
  }
}

int main(void) {
  static const int bases[] = {0, 8, 10, 16, 36, 1, 37};
  char s[4];
  switch (sym_int_in("which", 0, 3)) {
  case 0: /* the parser, signed: 3 symbolic characters in every kind of base */
    sym_string(s, sizeof s, "s");
    one(0, s, pick_base());
    break;
  case 1: /* and unsigned */
    sym_string(s, sizeof s, "s");
    one(4, s, pick_base());
    break;
  case 2: { /* the other entry points: 2 symbolic characters, base 10 */
    char t[3];
    sym_string(t, sizeof t, "t");
    one(sym_int_in("function", 1, 11), t, 10);
    break;
  }
  default: /* every entry point, base and fixed string */
    for (int f = 0; f <= 11; f++)
      for (unsigned k = 0; k < sizeof fixed / sizeof fixed[0]; k++)
        for (unsigned b = 0; b < 7; b++) one(f, fixed[k], bases[b]);
  }
  return 0;
}
