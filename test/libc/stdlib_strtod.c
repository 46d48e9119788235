/* strtod, strtof and atof: the value's bits, *endptr (as an offset) and errno. symq computes
 * floating point on concrete values only, so the inputs are strings of concrete bytes: 3
 * characters each picked (one path per choice) from an alphabet that reaches every part of
 * the parser (digits, sign, '.', exponents, hex, inf/nan, space); then fixed strings for
 * correct rounding (halfway cases, long digit strings), the limits (overflow, subnormals,
 * underflow with ERANGE) and the syntax corner cases; and "D.De1" whose two digits are
 * symbolic, which strtod forks on (one path per pair of values, each converted exactly). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static const char *const fixed[] = {
  "0", "-0", "+.5e-3x", "  \t1.25", "1e308", "1e309", "-1e309", "1.7976931348623157e308",
  "1.7976931348623158e308", "1.797693134862315807e308", "2.2250738585072011e-308",
  "2.2250738585072014e-308", "2.2250738585072009e-308", "4.9406564584124654e-324",
  "2.4703282292062327e-324", "2.4703282292062328e-324", "1e-400", "0e-400", "1e-320",
  "0.1", "0.3", "9007199254740993", "9007199254740993.0000000000000000001",
  "123456789012345678901234567890", "3.14159265358979323846264338327950288",
  "0.000000000000000000000000000000000000000000001", "1e-45", "3.4028235e38", "3.4028236e38",
  "1.17549435e-38", "1.4e-45", "7e-46", "8e-46",
  "0x1p-1074", "0x1p-1075", "0x1.8p-1074", "0x1.fffffffffffff8p1023", "0x1.fffffffffffffp1023",
  "0x1P+10", "0x.8", "0x", "0x.p1", "0xg", "0x1p", "0x1p+", "0X1.000000000000000001p0",
  "0x123456789abcdef0123p-4", "1e", "1e+", "1e-", ".e1", ".", "-.", "1.", "+1.e2",
  "inf", "-INF", "infinity", "InFiNiTy!", "infinit", "nan", "-nan", "NaN(0x123)", "nan(12)",
  "nan(abc_1)", "nan(", "nan()", "nan(1 2)", "1e99999999999999999999", "1e-99999999999999999",
  "00000000000000000000000000001e-20", "10000000000000000000000000000000e-31", "",
  "   ", "-", "+", "x1",
};

static void bits_double(const char *what, double v) {
  unsigned long long b;
  memcpy(&b, &v, sizeof b);
  check_uint(what, b);
}

static void bits_float(const char *what, float v) {
  unsigned b;
  memcpy(&b, &v, sizeof b);
  check_uint(what, b);
}

static void one(int f, const char *s) {
  char *end = (char *)s - 1; /* recognisably untouched */
  errno = 0;
  switch (f) {
  case 0: bits_double("strtod", strtod(s, &end)); break;
  case 1: bits_float("strtof", strtof(s, &end)); break;
  case 2: bits_double("atof", atof(s)); break;
  default: bits_double("strtod NULL end", strtod(s, NULL)); break;
  }
  check_ptr("end", end, s);
  check_errno("errno");
}

/* One of the alphabet's characters, concrete on each path (a fork per choice). */
static char pick(const char *name) {
  static const char alphabet[] = "1.e-x0p ";
  int k = sym_int_in(name, 0, (int)sizeof alphabet - 2);
  for (int j = 0; alphabet[j + 1]; j++)
    if (k == j) return alphabet[j];
  return alphabet[sizeof alphabet - 2];
}

int main(void) {
  switch (sym_int_in("which", 0, 2)) {
  case 0: { /* 3 concrete characters from the alphabet; strtod or strtof */
    char s[4];
    for (int i = 0; i < 3; i++) s[i] = pick("c");
    s[3] = 0;
    one(sym_int_in("function", 0, 1), s);
    break;
  }
  case 1: { /* symbolic digits: strtod itself forks on their values */
    char s[] = "D.De1";
    s[0] = (char)('0' + sym_int_in("int digit", 0, 9));
    s[2] = (char)('0' + sym_int_in("frac digit", 0, 9));
    one(0, s);
    break;
  }
  default:
    for (int f = 0; f <= 3; f++)
      for (unsigned k = 0; k < sizeof fixed / sizeof fixed[0]; k++) one(f, fixed[k]);
  }
  return 0;
}
