/* The printf engine on integers, through snprintf: symbolic values under fixed formats
 * (the digit loop forks once per feasible number of digits, and on the sign), then a
 * table of fixed values under every combination of flags, width, precision and length
 * modifier worth having. The whole buffer and the return value are compared with glibc. */
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

#define SHOW(...)                                             \
  do {                                                        \
    char buf_[96];                                            \
    memset(buf_, '#', sizeof buf_);                           \
    check_int(#__VA_ARGS__, snprintf(buf_, sizeof buf_, __VA_ARGS__)); \
    check_mem("buf", buf_, sizeof buf_);                      \
  } while (0)

int main(void) {
  int x = klee_int("x");
  switch (sym_int_in("which", 0, 7)) {
  case 0: SHOW("%d", x); break;
  case 1: SHOW("%+06d|% d", x, x); break;
  case 2: SHOW("%x|%#X", (unsigned)x, (unsigned)x); break;
  case 3: SHOW("%o|%#o", (unsigned)x & 0777, (unsigned)x & 07); break;
  case 4: SHOW("%hhd|%hhu", x, x); break;
  case 5: SHOW("%.3u|%-5hu|", (unsigned)x & 0xffff, (unsigned)x & 0xffff); break;
  case 6: SHOW("%*d|", x & 7, 42); break;
  case 7: {
    static const long long values[] = {0, 1, -1, 7, -8, 42, 255, 256, 65535, 65536,
                                       INT_MAX, INT_MIN, UINT_MAX, LLONG_MAX, LLONG_MIN,
                                       0x123456789abcdefLL};
    static const char *const formats[] = {
      "%d", "%i", "%5d", "%-5d|", "%05d", "%+d", "% d", "%+ d", "%.0d", "%.3d", "%8.3d",
      "%-8.3d|", "%08.3d", "%u", "%x", "%X", "%#x", "%#X", "%o", "%#o", "%#.0o", "%#5o",
      "%#08x", "%-#8x|", "%.0x", "%#.0x", "%hd", "%hu", "%hhd", "%hhx", "%c",
    };
    static const char *const long_formats[] = {
      "%ld", "%lu", "%lx", "%lld", "%llu", "%llo", "%jd", "%ju", "%zd", "%zu", "%zx",
      "%td", "%qd", "%Ld", "%20lld|", "%-20llx|", "%+.20lld", "%#llo", "%'ld", "%I5ld",
    };
    for (unsigned v = 0; v < sizeof values / sizeof values[0]; v++) {
      for (unsigned f = 0; f < sizeof formats / sizeof formats[0]; f++)
        SHOW(formats[f], (int)values[v]);
      for (unsigned f = 0; f < sizeof long_formats / sizeof long_formats[0]; f++)
        SHOW(long_formats[f], values[v]);
      SHOW("%*.*d|%-*d|", (int)(values[v] & 15) - 4, (int)(values[v] & 7) - 2, 99, 6, 5);
    }
    int n1 = -1, n3 = -1;
    signed char n2 = -1;
    long long n4 = -1;
    SHOW("ab%ncd%hhnef%lln%n", &n1, &n2, &n4, &n3);
    check_int("%n", n1);
    check_int("%hhn", n2);
    check_int("%lln", n4);
    check_int("%n", n3);
    SHOW("%%|%5%|%y|%-#5.3y|%hy|%");
    break;
  }
  }
  return 0;
}
