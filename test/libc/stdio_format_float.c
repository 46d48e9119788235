/* The printf engine on doubles (%f %F %e %E %g %G %a %A with flags, width and precision),
 * through snprintf, against glibc byte for byte: exact decimal expansion, rounding half to
 * even, glibc's %#g quirk, infinities and NaNs, subnormals, huge precisions. The values
 * are concrete (symbolic floating point is not what the formatter is for); a symbolic
 * selector picks a value, so each is its own path and test. Run forking: under symq run's
 * default, merging by pattern, the group took over the suite's 300 s (not examined yet). */
// ARGS: --merge=none
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define SHOW(...)                                             \
  do {                                                        \
    char buf_[400];                                           \
    memset(buf_, '#', sizeof buf_);                           \
    check_int(#__VA_ARGS__, snprintf(buf_, sizeof buf_, __VA_ARGS__)); \
    check_str("buf", buf_);                                   \
  } while (0)

static const char *const formats[] = {
  "%f", "%.0f", "%.1f", "%.3f", "%.17f", "%#.0f", "%+f", "% f", "%012.4f", "%-12.2f|",
  "%F", "%e", "%.0e", "%.2e", "%.16e", "%#.0e", "%+E", "%-14.3e|", "%014.3e", "%g",
  "%.0g", "%.1g", "%.3g", "%.17g", "%#g", "%#.3g", "%#.0g", "%G", "%-12g|", "%012g",
  "%+g", "%a", "%.0a", "%.1a", "%.3a", "%.13a", "%.15a", "%#a", "%#.0a", "%A", "%+a",
  "%20a|", "%-20.2a|", "%020a", "%10.4f|%-8.2e|%g",
};

int main(void) {
  static const double values[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, 0.5, 1.5, 2.5, -2.5, 0.125, 0.05, 9.5, 99.5, 999.96,
    999999.5, 9.9999999, 3.14159265358979, 2.0 / 3, 1e-5, 1.234e-5, 9.99996e-5, 123456789.0,
    1e21, 1e22, 1e100, 1e-100, 0x1.fffffffffffffp+0, 0x1.8p+0, 0x1.08p+0, 0x1.18p+0,
    DBL_MIN, DBL_MIN / 3, 5e-324, DBL_MAX, INFINITY, -INFINITY, NAN, -NAN,
  };
  int v = sym_int_in("value", 0, sizeof values / sizeof values[0] - 1);
  double d = values[0];
  for (int k = 0; k < (int)(sizeof values / sizeof values[0]); k++)
    if (v == k) d = values[k]; /* forks: one path, and a concrete value, per k */
  for (unsigned f = 0; f < sizeof formats / sizeof formats[0]; f++) SHOW(formats[f], d, d, d);
  SHOW("%.*f|%*.*e", 40, d, 30, 2, d);
  return 0;
}
