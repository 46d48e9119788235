/* sscanf (and vsscanf; <stdio.h> makes them __isoc99_sscanf/__isoc99_vsscanf) on a
 * symbolic input of up to 3 characters under one format per path — integers in each base,
 * %s, %c, scansets, literals, white space, %n, assignment suppression, widths — then fixed
 * inputs for glibc's corner cases (0x without digits, a lone sign, "(nil)" for %p,
 * overflow clamping, input ending early). Everything assigned is compared, and the count. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "harness.h"

int plain_sscanf(const char *s, const char *fmt, ...) __asm__("sscanf");
int plain_vsscanf(const char *s, const char *fmt, va_list ap) __asm__("vsscanf");

static int via_plain_vsscanf(const char *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = plain_vsscanf(s, fmt, ap);
  va_end(ap);
  return r;
}

static int via_vsscanf(const char *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = vsscanf(s, fmt, ap);
  va_end(ap);
  return r;
}

static const char *const formats[] = {
  "%d", "%i", "%x", "%o", "%u", "%2d%d", "%s", "%2s", "%c", "%3c", "%[a-c]", "%[^ ,]",
  "%d,%d", " %c%n", "%*d%n%d", "%%%d", "a%c", "%hhd", "%p", "%1x%s",
};

/* Every conversion gets a 32-byte buffer of its own, whatever it stores. */
static void scan(const char *in, const char *fmt) {
  char arg[4][32];
  memset(arg, '#', sizeof arg);
  int r = sscanf(in, fmt, arg[0], arg[1], arg[2], arg[3]);
  check_int(fmt, r);
  check_mem("arguments", arg, sizeof arg);
}

int main(void) {
  int nformats = (int)(sizeof formats / sizeof formats[0]);
  int f = sym_int_in("format", 0, nformats);
  for (int k = 0; k < nformats; k++) {
    if (f == k) { /* a concrete format per path (formats[f] would be a symbolic pointer) */
      char in[4];
      sym_string(in, sizeof in, "in");
      scan(in, formats[k]);
      return 0;
    }
  }
  static const char *const inputs[] = {
    "", " ", "0x", "0xg", "-0x1f", "+", "-", "(nil)", "(NIL)", "(nix)", "0x12345678",
    "99999999999", "-9999999999999999999999", "42abc", "  12 34", "1,2", "%5", "a-b", "]x",
  };
  static const char *const fixed_formats[] = {
    "%d", "%x", "%i", "%p", "%lu", "%ld", "%lld", "%hd", "%3d%d", "%s%n", "%[]a-]", "%[^]]",
    "%*s%n", "%d %d%n", "%c", "%%%d", "%5c", "",
  };
  for (unsigned i = 0; i < sizeof inputs / sizeof inputs[0]; i++)
    for (unsigned k = 0; k < sizeof fixed_formats / sizeof fixed_formats[0]; k++)
      scan(inputs[i], fixed_formats[k]);
  int a = 0, b = 0;
  check_int("vsscanf", via_vsscanf("12 34", "%d%d", &a, &b));
  check_int("a", a);
  check_int("b", b);
  check_int("plain sscanf", plain_sscanf("-5 x", "%d %c", &a, (char *)&b));
  check_int("plain vsscanf", via_plain_vsscanf("0x10", "%i", &a));
  check_int("a", a);
  return 0;
}
