/* snprintf, vsnprintf, sprintf, vsprintf, asprintf and vasprintf: the buffer size n is
 * symbolic (0..9) against an output of 8 bytes, so every truncation point is a path; the
 * return value is always the full length, at most n-1 bytes are stored plus a NUL, and
 * nothing beyond n is touched (the whole buffer is compared). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness.h"

static int via_vsnprintf(char *buf, size_t n, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsnprintf(buf, n, fmt, ap);
  va_end(ap);
  return r;
}

static int via_vsprintf(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsprintf(buf, fmt, ap);
  va_end(ap);
  return r;
}

static int via_vasprintf(char **out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vasprintf(out, fmt, ap);
  va_end(ap);
  return r;
}

int main(void) {
  char buf[12];
  memset(buf, '#', sizeof buf);
  size_t n = (size_t)sym_int_in("n", 0, 9);
  char *out = NULL;
  switch (sym_int_in("which", 0, 5)) {
  case 0: check_int("snprintf", snprintf(buf, n, "%s-%d", "abc", 1234)); break;
  case 1: check_int("vsnprintf", via_vsnprintf(buf, n, "%s-%d", "abc", 1234)); break;
  case 2: check_int("snprintf NULL", snprintf(NULL, 0, "%s-%d", "abc", 1234)); break;
  case 3: check_int("sprintf", sprintf(buf, "%s-%d", "abc", 1234)); break;
  case 4: check_int("vsprintf", via_vsprintf(buf, "%.*s", (int)n, "0123456789")); break;
  case 5:
    check_int("asprintf", asprintf(&out, "%s-%d", "abc", (int)n));
    check_str("out", out);
    free(out);
    check_int("vasprintf", via_vasprintf(&out, "%c%c", 'x', 'y'));
    check_str("out", out);
    free(out);
    break;
  }
  check_mem("buf", buf, sizeof buf);
  return 0;
}
