/* strcmp, strncmp, strcasecmp, strncasecmp and strcoll on two symbolic strings of up to 3
 * characters (any bytes, so the case folding meets non-letters and bytes >= 128), with a
 * bound 0..4, the driver forking on both lengths first (so every length pair is tested);
 * then the case folding of every pair of bytes. Only the sign of a result is specified. */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "harness.h"

int main(void) {
  char a[4], b[4];
  sym_string(a, sizeof a, "a");
  sym_string(b, sizeof b, "b");
  split_on_length(a);
  split_on_length(b);
  switch (sym_int_in("which", 0, 5)) {
  case 0: check_sign("strcmp", strcmp(a, b)); break;
  case 1: check_sign("strncmp", strncmp(a, b, (size_t)sym_int_in("n", 0, 4))); break;
  case 2: check_sign("strcasecmp", strcasecmp(a, b)); break;
  case 3: check_sign("strncasecmp", strncasecmp(a, b, (size_t)sym_int_in("n", 0, 4))); break;
  case 4: check_sign("strcoll", strcoll(a, b)); break;
  case 5: /* case folding, exhaustively: every pair of bytes, one row per first byte */
    for (int x = 1; x < 256; x++) {
      signed char row[256];
      for (int y = 1; y < 256; y++) {
        char p[2] = {(char)x, 0}, q[2] = {(char)y, 0};
        int r = strcasecmp(p, q), rn = strncasecmp(p, q, 1);
        row[y] = (signed char)((r > 0) - (r < 0) + 3 * ((rn > 0) - (rn < 0)));
      }
      row[0] = 0;
      check_mem("strcasecmp row", row, sizeof row);
    }
    break;
  }
  return 0;
}
