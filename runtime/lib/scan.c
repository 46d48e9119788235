/*
 * scan.c — the scanf engine of the libc model (sscanf, and scanf/fscanf on the model's
 * streams, which have no input: see stdio.c).
 *
 * It follows glibc 2.36's vfscanf in the "C" locale: white space in the format skips white
 * space in the input (lazily, before the next directive); every conversion but %c, %[ and
 * %n first skips white space; integers (%d %i %u %o %x %X %p) are collected as glibc
 * collects them — a sign, then for base 16 (or %i) a 0x prefix whose 'x' is consumed but
 * not kept, then digits — and converted by the model's strtol/strtoul (so overflow clamps
 * to LONG_MAX etc. and sets ERANGE, and %d stores the long truncated to int, as glibc);
 * %c reads `width` bytes (1 by default), %s a run of non-space bytes, %[ a run of bytes in
 * (or, with ^, not in) the set; %n stores the count of bytes consumed. The result is the
 * number of assignments, or EOF when the input ends before the first assignment.
 *
 * Floating-point conversions (%f %e %g %a), the m (allocate) modifier and wide-character
 * conversions (%lc %ls %l[) end the path as unsupported, through a call to a function that
 * is defined nowhere.
 *
 * Every test of an input byte is one branch, so a symbolic input forks byte by byte.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model.h"

void __symq_unsupported_scanf_conversion(void); /* defined nowhere: the path ends early */

static int space(int c) { return (c == ' ') | ((c >= '\t') & (c <= '\r')); }
static int hex_digit(int c) {
  return ((c >= '0') & (c <= '9')) | ((c >= 'a') & (c <= 'f')) | ((c >= 'A') & (c <= 'F'));
}

/* An input with one byte of look-back: get() returns the next byte or EOF, unget() puts
 * the last byte back. `count` is what %n reports. */
typedef struct input {
  symq_scan_source *src;
  size_t count;
} input;

static int get(input *in) {
  int c = in->src->get(in->src);
  if (c != EOF) in->count++;
  return c;
}

static void unget(input *in, int c) {
  if (c == EOF) return;
  in->count--;
  in->src->unget(in->src, c);
}

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_J, LEN_Z, LEN_T };

/* Is c in the scanset [set, end) (after the '[' and an optional '^')? The first byte is
 * always a member (so "[]" and "[-" start a set); "a-z" is a range when a <= z. */
static int in_scanset(int c, const char *set, const char *end) {
  for (const char *p = set; p < end; p++) {
    if (*p == '-' && p != set && p + 1 < end && (unsigned char)p[-1] <= (unsigned char)p[1]) {
      if (c >= (unsigned char)p[-1] && c < (unsigned char)p[1]) return 1;
      continue;
    }
    if (c == (unsigned char)*p) return 1;
  }
  return 0;
}

static void store_integer(int length, int is_signed, void *p, unsigned long long v) {
  if (is_signed) {
    switch (length) {
    case LEN_HH: *(signed char *)p = (signed char)v; break;
    case LEN_H: *(short *)p = (short)v; break;
    case LEN_L: case LEN_J: case LEN_Z: case LEN_T: *(long *)p = (long)v; break;
    case LEN_LL: *(long long *)p = (long long)v; break;
    default: *(int *)p = (int)v; break;
    }
  } else {
    switch (length) {
    case LEN_HH: *(unsigned char *)p = (unsigned char)v; break;
    case LEN_H: *(unsigned short *)p = (unsigned short)v; break;
    case LEN_L: case LEN_J: case LEN_Z: case LEN_T: *(unsigned long *)p = (unsigned long)v; break;
    case LEN_LL: *(unsigned long long *)p = v; break;
    default: *(unsigned *)p = (unsigned)v; break;
    }
  }
}

/* The byte count for %n, stored through the length modifier. */
static void store_count(int length, void *p, size_t n) { store_integer(length, 1, p, n); }

int __symq_vscan(symq_scan_source *src, const char *fmt, va_list ap_in) {
  input in = {src, 0};
  va_list ap;
  va_copy(ap, ap_in);
  int done = 0;        /* assignments made */
  int skip_space = 0;  /* the format had white space not yet matched */
  const char *f = fmt;
  int c;
#define INPUT_ERROR()            \
  do {                           \
    if (done == 0) done = EOF;   \
    goto out;                    \
  } while (0)
#define MATCH_FAILURE() goto out
  while (*f != '\0') {
    unsigned char fc = (unsigned char)*f++;
    if (fc != '%') {
      if (space(fc)) {
        skip_space = 1;
        continue;
      }
      c = get(&in);
      if (c == EOF) INPUT_ERROR();
      if (skip_space) {
        while (space(c)) {
          c = get(&in);
          if (c == EOF) INPUT_ERROR();
        }
        skip_space = 0;
      }
      if (c != fc) {
        unget(&in, c);
        MATCH_FAILURE();
      }
      continue;
    }
    /* a conversion: %[*][width][length]conv */
    int suppress = 0, length = LEN_NONE;
    long width = -1;
    if (*f == '*') {
      suppress = 1;
      f++;
    }
    if (*f >= '0' && *f <= '9') {
      width = 0;
      while (*f >= '0' && *f <= '9') {
        if (width < INT_MAX / 10) width = width * 10 + (*f - '0');
        f++;
      }
      if (width == 0) width = -1; /* glibc: a width of 0 is no width */
    }
    for (int more = 1; more;) {
      switch (*f) {
      case 'h': length = length == LEN_H ? LEN_HH : LEN_H; f++; break;
      case 'l': length = length == LEN_L ? LEN_LL : LEN_L; f++; break;
      case 'q': case 'L': length = LEN_LL; f++; break;
      case 'j': length = LEN_J; f++; break;
      case 'z': case 'Z': length = LEN_Z; f++; break;
      case 't': length = LEN_T; f++; break;
      case 'm': __symq_unsupported_scanf_conversion(); f++; break;
      default: more = 0;
      }
    }
    char conv = *f;
    if (conv == '\0') goto out;
    f++;
    if (skip_space || (conv != '[' && conv != 'c' && conv != 'n')) {
      do c = get(&in);
      while (space(c));
      unget(&in, c);
      skip_space = 0;
    }
    switch (conv) {
    case '%':
      c = get(&in);
      if (c == EOF) INPUT_ERROR();
      if (c != '%') {
        unget(&in, c);
        MATCH_FAILURE();
      }
      break;
    case 'n':
      if (!suppress) store_count(length, va_arg(ap, void *), in.count);
      break;
    case 'c': {
      if (length == LEN_L) __symq_unsupported_scanf_conversion();
      if (width == -1) width = 1;
      char *dst = suppress ? NULL : va_arg(ap, char *);
      c = get(&in);
      if (c == EOF) INPUT_ERROR();
      for (;;) {
        if (dst) *dst++ = (char)c;
        if (--width <= 0) break;
        c = get(&in);
        if (c == EOF) break;
      }
      if (!suppress) done++;
      break;
    }
    case 's': case '[': {
      if (length == LEN_L) __symq_unsupported_scanf_conversion();
      const char *set = NULL, *set_end = NULL;
      int negate = 0;
      if (conv == '[') {
        if (*f == '^') {
          negate = 1;
          f++;
        }
        set = f;
        if (*f == ']' || *f == '-') f++; /* a leading ] or - is a member */
        while (*f != '\0' && *f != ']') f++;
        set_end = f;
        if (*f == ']') f++;
      }
      char *dst = suppress ? NULL : va_arg(ap, char *);
      c = get(&in);
      if (c == EOF) INPUT_ERROR();
      size_t taken = 0;
      for (;;) {
        int member = conv == 's' ? !space(c) : in_scanset(c, set, set_end) != negate;
        if (!member) {
          unget(&in, c);
          break;
        }
        if (dst) *dst++ = (char)c;
        taken++;
        if (width > 0 && --width == 0) break;
        c = get(&in);
        if (c == EOF) break;
      }
      if (conv == '[' && taken == 0) MATCH_FAILURE();
      if (dst) *dst = '\0';
      if (!suppress) done++;
      break;
    }
    case 'd': case 'i': case 'u': case 'o': case 'x': case 'X': case 'p': {
      int base = conv == 'd' || conv == 'u' ? 10 : conv == 'o' ? 8 : conv == 'i' ? 0 : 16;
      int is_signed = conv == 'd' || conv == 'i';
      if (conv == 'p') length = LEN_L;
      /* what glibc collects: sign, a "0", the digits; past 62 characters the rest is
       * consumed but not kept (such a number overflows anyway, unless it is mostly leading
       * zeros: a known difference) */
      char text[64];
      size_t n = 0;
      c = get(&in);
      if (c == EOF) INPUT_ERROR();
      if (c == '-' || c == '+') {
        text[n++] = (char)c;
        if (width > 0) width--;
        c = get(&in);
      }
      if (width != 0 && c == '0') {
        if (width > 0) width--;
        text[n++] = '0';
        c = get(&in);
        if (width != 0 && (c == 'x' || c == 'X')) {
          if (base == 0) base = 16;
          if (base == 16) {
            if (width > 0) width--;
            c = get(&in);
          }
        } else if (base == 0) {
          base = 8;
        }
      }
      if (base == 0) base = 10;
      while (c != EOF && width != 0) {
        int digit = base == 16 ? hex_digit(c) : (c >= '0' && c <= '9' && c - '0' < base);
        if (!digit) break;
        if (n + 1 < sizeof text) text[n++] = (char)c;
        if (width > 0) width--;
        c = get(&in);
      }
      if (n == 0 || (n == 1 && (text[0] == '+' || text[0] == '-'))) {
        /* no number; %p also accepts "(nil)" */
        if (conv == 'p' && n == 0 && (width < 0 || width >= 5) && c == '(') {
          int c1 = get(&in), c2 = c1 == EOF ? EOF : get(&in);
          int c3 = c2 == EOF ? EOF : get(&in), c4 = c3 == EOF ? EOF : get(&in);
          if ((c1 | 32) == 'n' && (c2 | 32) == 'i' && (c3 | 32) == 'l' && c4 == ')') {
            text[n++] = '0';
            c = EOF; /* nothing to put back */
          } else {
            unget(&in, c4);
            MATCH_FAILURE();
          }
        } else {
          unget(&in, c);
          MATCH_FAILURE();
        }
      } else {
        unget(&in, c);
      }
      text[n] = '\0';
      char *end;
      unsigned long long v = __symq_strtoint(text, &end, base, is_signed);
      if (end == text) MATCH_FAILURE();
      if (!suppress) {
        store_integer(length, is_signed, va_arg(ap, void *), v);
        done++;
      }
      break;
    }
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
      __symq_unsupported_scanf_conversion();
      goto out;
    default: /* an unknown conversion ends the scan, as in glibc */
      goto out;
    }
  }
  if (skip_space) {
    do c = get(&in);
    while (space(c));
    unget(&in, c);
  }
out:
  va_end(ap);
  return done;
#undef INPUT_ERROR
#undef MATCH_FAILURE
}

/* ---- the string source ------------------------------------------------------------- */

typedef struct string_source {
  symq_scan_source base;
  const char *s;
  size_t at;
} string_source;

static int string_get(symq_scan_source *src) {
  string_source *ss = (string_source *)src;
  unsigned char c = (unsigned char)ss->s[ss->at];
  if (c == '\0') return EOF;
  ss->at++;
  return c;
}

static void string_unget(symq_scan_source *src, int c) {
  (void)c;
  ((string_source *)src)->at--;
}

int __symq_vsscanf(const char *s, const char *fmt, va_list ap) {
  string_source ss = {{string_get, string_unget}, s, 0};
  return __symq_vscan(&ss.base, fmt, ap);
}

/* <stdio.h> redirects sscanf to __isoc99_sscanf (C99 semantics: %a is a float, not the
 * GNU allocation flag); both names are defined, and behave alike. */
int __isoc99_sscanf(const char *s, const char *fmt, ...);
int __isoc99_vsscanf(const char *s, const char *fmt, va_list ap);
int symq_plain_sscanf(const char *s, const char *fmt, ...) __asm__("sscanf");
int symq_plain_vsscanf(const char *s, const char *fmt, va_list ap) __asm__("vsscanf");

WEAK int __isoc99_sscanf(const char *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __symq_vsscanf(s, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int symq_plain_sscanf(const char *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int r = __symq_vsscanf(s, fmt, ap);
  va_end(ap);
  return r;
}

WEAK int __isoc99_vsscanf(const char *s, const char *fmt, va_list ap) {
  return __symq_vsscanf(s, fmt, ap);
}

WEAK int symq_plain_vsscanf(const char *s, const char *fmt, va_list ap) {
  return __symq_vsscanf(s, fmt, ap);
}
