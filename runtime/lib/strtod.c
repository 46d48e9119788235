/*
 * strtod, strtof and atof with glibc 2.36's semantics in the "C" locale: leading white space,
 * a sign, then a decimal number (digits, a '.', an exponent e±N), a hexadecimal one (0x,
 * hex digits, a '.', a binary exponent p±N), "inf"/"infinity" or "nan"/"nan(chars)" (the
 * chars, read as strtoull reads them, become the payload), in any case. Results are
 * correctly rounded to nearest-even, as glibc's are; *endptr and errno (ERANGE on overflow,
 * and on a tiny inexact result, tininess detected after rounding as on x86) match glibc's.
 *
 * The parse forks like any other libc model here (one branch per byte examined), but symq
 * computes floating point on concrete values only: where a digit's value is needed and the
 * path allows more than one, the path forks once per value it allows, so that each path
 * converts concrete digits to its exact result. That costs up to 10 (16) paths per
 * symbolic digit whose value the conversion reads, but no path ends early and no value is
 * lost; a driver that wants fewer paths constrains the digits. strtold is not defined:
 * symq has no long double, so a call ends the path as an unsupported external call.
 *
 * How: numbers whose digits and power of ten are exact in the target format take the one
 * correctly rounded division or multiplication (Clinger's fast path); any other becomes
 * A / B = D * 10^E as two big integers, whose quotient is taken to 64 bits plus a sticky
 * bit and rounded once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <klee/klee.h>

#include "model.h"

/* The target format: its significand bits, exponent range, and the decimal exponents
 * (value in [10^(dexp-1), 10^dexp)) beyond which it surely overflows or rounds to zero. */
typedef struct fp_format {
  int precision, emin, emax;
  int overflow_dexp, zero_dexp;
} fp_format;

static const fp_format f64 = {53, -1022, 1023, 310, -324};
static const fp_format f32 = {24, -126, 127, 40, -46};

/* ---- big integers: little-endian 32-bit limbs, enough for 10^1125 shifted by 64 bits --- */

#define LIMBS 160
#define MAX_DIGITS 800 /* significant digits kept; a dropped nonzero one becomes a sticky 1 */

typedef struct big {
  uint32_t d[LIMBS];
  int n; /* limbs in use; d[n-1] != 0 unless n == 0 */
} big;

static void big_trim(big *b) {
  while (b->n > 0 && b->d[b->n - 1] == 0) b->n--;
}

static void big_mul_add(big *b, uint32_t m, uint32_t add) {
  uint64_t carry = add;
  for (int i = 0; i < b->n; i++) {
    uint64_t t = (uint64_t)b->d[i] * m + carry;
    b->d[i] = (uint32_t)t;
    carry = t >> 32;
  }
  if (carry) b->d[b->n++] = (uint32_t)carry;
}

static void big_mul_pow10(big *b, int k) {
  for (; k >= 9; k -= 9) big_mul_add(b, 1000000000u, 0);
  static const uint32_t small[9] = {1, 10, 100, 1000, 10000, 100000, 1000000, 10000000,
                                    100000000};
  if (k) big_mul_add(b, small[k], 0);
}

static int big_bits(const big *b) {
  if (b->n == 0) return 0;
  int bits = 32 * (b->n - 1);
  for (uint32_t top = b->d[b->n - 1]; top; top >>= 1) bits++;
  return bits;
}

static void big_shl(big *b, int s) {
  int limbs = s / 32, bits = s % 32;
  if (b->n == 0) return;
  b->d[b->n] = 0;
  for (int i = b->n; i >= 0; i--) {
    uint32_t hi = b->d[i] << bits;
    uint32_t lo = (bits && i > 0) ? b->d[i - 1] >> (32 - bits) : 0;
    b->d[i + limbs] = hi | lo;
  }
  for (int i = 0; i < limbs; i++) b->d[i] = 0;
  b->n += limbs + 1;
  big_trim(b);
}

static void big_shr1(big *b) {
  for (int i = 0; i < b->n; i++)
    b->d[i] = (b->d[i] >> 1) | (i + 1 < b->n ? b->d[i + 1] << 31 : 0);
  big_trim(b);
}

static int big_cmp(const big *a, const big *b) {
  if (a->n != b->n) return a->n < b->n ? -1 : 1;
  for (int i = a->n - 1; i >= 0; i--)
    if (a->d[i] != b->d[i]) return a->d[i] < b->d[i] ? -1 : 1;
  return 0;
}

static void big_sub(big *a, const big *b) { /* a >= b */
  int64_t borrow = 0;
  for (int i = 0; i < a->n; i++) {
    int64_t t = (int64_t)a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
    borrow = t < 0;
    a->d[i] = (uint32_t)(t + (borrow ? ((int64_t)1 << 32) : 0));
  }
  big_trim(a);
}

/* ---- rounding --------------------------------------------------------------------------- */

typedef struct fp_result {
  int negative;
  int bits_kind; /* 0 finite, 1 infinity, 2 NaN */
  uint64_t significand; /* finite: m, value m * 2^exp2; NaN: the payload */
  int exp2;
  int range_error;
} fp_result;

static int bit_length(uint64_t q) {
  int n = 0;
  for (; q; q >>= 1) n++;
  return n;
}

/* Rounds q * 2^e (plus less than one unit of q when sticky) to the format. */
static void round_binary(uint64_t q, int sticky, int e, const fp_format *f, fp_result *r) {
  if (q == 0) {
    r->significand = 0;
    r->exp2 = 0;
    return;
  }
  int nb = bit_length(q);
  int lead = nb - 1 + e;
  if (lead > f->emax) {
    r->bits_kind = 1;
    r->range_error = 1;
    return;
  }
  int keep = f->precision;
  if (lead < f->emin) keep -= f->emin - lead;
  int drop = nb - keep;
  uint64_t m, rem, half;
  if (drop <= 0) {
    m = q << -drop;
    rem = 0, half = 1;
  } else if (drop > 64) {
    m = 0, rem = 1, half = 2; /* far below half a unit: rounds to zero */
  } else {
    m = drop == 64 ? 0 : q >> drop;
    rem = drop == 64 ? q : q & ((((uint64_t)1) << drop) - 1);
    half = ((uint64_t)1) << (drop - 1);
  }
  int inexact = rem != 0 || sticky;
  if (rem > half || (rem == half && (sticky || (m & 1)))) m++;
  int exp2 = e + drop;
  if (keep == f->precision && m == ((uint64_t)1) << keep) {
    m >>= 1;
    exp2++;
    if (bit_length(m) - 1 + exp2 > f->emax) {
      r->bits_kind = 1;
      r->range_error = 1;
      return;
    }
  }
  /* Tiny after rounding (as x86 detects it): below the smallest normal even when rounded
   * to full precision with an unbounded exponent. */
  int tiny = lead < f->emin;
  if (lead == f->emin - 1 && nb > f->precision) {
    int full_drop = nb - f->precision;
    uint64_t fm = full_drop >= 64 ? 0 : q >> full_drop;
    uint64_t frem = full_drop >= 64 ? q : q & ((((uint64_t)1) << full_drop) - 1);
    uint64_t fhalf = ((uint64_t)1) << (full_drop - 1);
    if (frem > fhalf || (frem == fhalf && (sticky || (fm & 1)))) fm++;
    if (fm == ((uint64_t)1) << f->precision) tiny = 0;
  }
  if (tiny && inexact) r->range_error = 1;
  r->significand = m;
  r->exp2 = exp2;
}

/* ---- parsing ---------------------------------------------------------------------------- */

static int is_space(int c) { return (c == ' ') | ((c >= '\t') & (c <= '\r')); }
static int is_digit(int c) { return (c >= '0') & (c <= '9'); }
static int lower(int c) { return __symq_tolower(c); }

static int hex_value(int c) {
  if (is_digit(c)) return c - '0';
  c = lower(c);
  if ((c >= 'a') & (c <= 'f')) return c - 'a' + 10;
  return -1;
}

/* The value of a digit, which must be concrete to compute with. A symbolic one that the
 * path fixes to a single value (text chosen by a symbolic branch) is that value; otherwise
 * each turn of the loop forks: one path takes the value the solver offers, the other
 * excludes it and asks again, until the path condition allows no other value. */
static int digit_value(int value) {
  if (!klee_is_symbolic((uintptr_t)value)) return value;
  for (;;) {
    int example = klee_get_value_i32(value);
    if (value == example) return example;
  }
}

/* Case-insensitive prefix match of a lower-case word. */
static int match_word(const char *s, const char *word) {
  for (; *word; s++, word++)
    if (lower((unsigned char)*s) != *word) return 0;
  return 1;
}

/* An exponent after e/p: [+-]digits; returns the end, or NULL when there are no digits.
 * Saturates far beyond any format's range. */
static const char *parse_exponent(const char *s, long *out) {
  int negative = 0;
  if (*s == '+') s++;
  else if (*s == '-') negative = 1, s++;
  if (!is_digit((unsigned char)*s)) return NULL;
  long v = 0;
  for (; is_digit((unsigned char)*s); s++) {
    int d = digit_value(*s - '0');
    if (v < 100000000) v = v * 10 + d;
  }
  *out = negative ? -v : v;
  return s;
}

static const char *parse_hex(const char *s, const fp_format *f, fp_result *r) {
  uint64_t q = 0;
  int sticky = 0;
  long e = 0;
  for (;; s++) {
    int v = hex_value((unsigned char)*s);
    if (v < 0) break;
    v = digit_value(v);
    if (q >> 60) e += 4, sticky |= v != 0;
    else q = q << 4 | (uint64_t)v;
  }
  if (*s == '.') {
    for (s++;; s++) {
      int v = hex_value((unsigned char)*s);
      if (v < 0) break;
      v = digit_value(v);
        if (q >> 60) sticky |= v != 0;
      else q = q << 4 | (uint64_t)v, e -= 4;
    }
  }
  long x;
  const char *after;
  if (lower((unsigned char)*s) == 'p' && (after = parse_exponent(s + 1, &x))) {
    e += x;
    s = after;
  }
  if (e > 100000) e = 100000;
  if (e < -100000) e = -100000;
  round_binary(q, sticky, (int)e, f, r);
  return s;
}

/* D * 10^E, D given by its digits (no leading zeros), correctly rounded. */
static void decimal_to_binary(const char *digits, int nd, int sticky_digit, long e10,
                              const fp_format *f, fp_result *r) {
  if (nd == 0) {
    r->significand = 0;
    return;
  }
  long dexp = e10 + nd;
  if (dexp >= f->overflow_dexp) {
    r->bits_kind = 1;
    r->range_error = 1;
    return;
  }
  if (dexp <= f->zero_dexp) {
    r->significand = 0;
    r->range_error = 1;
    return;
  }
  static big a, b;
  a.n = 0;
  for (int i = 0; i < nd; i++) {
    if (a.n == 0) {
      if (digits[i] != '0') a.d[0] = (uint32_t)(digits[i] - '0'), a.n = 1;
    } else {
      big_mul_add(&a, 10, (uint32_t)(digits[i] - '0'));
    }
  }
  if (sticky_digit) big_mul_add(&a, 10, 1), e10--;
  b.n = 1, b.d[0] = 1;
  if (e10 > 0) big_mul_pow10(&a, (int)e10);
  else big_mul_pow10(&b, (int)-e10);
  int s = 63 - (big_bits(&a) - big_bits(&b)); /* the quotient gets 63 or 64 bits */
  if (s > 0) big_shl(&a, s);
  else if (s < 0) big_shl(&b, -s);
  big_shl(&b, 63);
  uint64_t q = 0;
  for (int i = 63; i >= 0; i--) {
    if (big_cmp(&a, &b) >= 0) {
      big_sub(&a, &b);
      q |= ((uint64_t)1) << i;
    }
    big_shr1(&b);
  }
  round_binary(q, a.n != 0, -s, f, r);
}

static const double exact_pow10[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* Parses like glibc's ____strtod_l_internal; *end is where parsing stopped (nptr when
 * nothing was converted). Fast results come back in *fast (used when *use_fast). */
static void parse_float(const char *nptr, char **end, const fp_format *f, fp_result *r,
                        int *use_fast, double *fast) {
  memset(r, 0, sizeof *r);
  *use_fast = 0;
  const char *s = nptr;
  while (is_space((unsigned char)*s)) s++;
  if (*s == '-') r->negative = 1, s++;
  else if (*s == '+') s++;

  if (match_word(s, "inf")) {
    s += match_word(s, "infinity") ? 8 : 3;
    r->bits_kind = 1;
    *end = (char *)s;
    return;
  }
  if (match_word(s, "nan")) {
    s += 3;
    r->bits_kind = 2;
    if (*s == '(') {
      const char *p = s + 1;
      while (is_digit((unsigned char)*p) || (lower((unsigned char)*p) >= 'a' &&
                                             lower((unsigned char)*p) <= 'z') || *p == '_')
        p++;
      if (*p == ')') {
        char *payload_end;
        unsigned long long payload = __symq_strtoint(s + 1, &payload_end, 0, 0);
        if (payload_end == p) r->significand = payload;
        s = p + 1;
      }
    }
    *end = (char *)s;
    return;
  }
  if (*s == '0' && lower((unsigned char)s[1]) == 'x' &&
      (hex_value((unsigned char)s[2]) >= 0 ||
       (s[2] == '.' && hex_value((unsigned char)s[3]) >= 0))) {
    *end = (char *)parse_hex(s + 2, f, r);
    return;
  }

  /* Decimal: the significant digits (leading zeros skipped) and the power of ten. */
  static char digits[MAX_DIGITS];
  int nd = 0, sticky = 0, seen = 0;
  long e10 = 0;
  for (; is_digit((unsigned char)*s); s++) {
    seen = 1;
    char c = (char)digit_value(*s);
    if (nd == 0 && c == '0') continue;
    if (nd < MAX_DIGITS) digits[nd++] = c;
    else sticky |= c != '0', e10++;
  }
  if (*s == '.') {
    const char *frac = s + 1;
    if (seen || is_digit((unsigned char)*frac)) {
      s = frac;
      for (; is_digit((unsigned char)*s); s++) {
        seen = 1;
        char c = (char)digit_value(*s);
        if (nd == 0 && c == '0') {
          e10--;
          continue;
        }
        if (nd < MAX_DIGITS) digits[nd++] = c, e10--;
        else sticky |= c != '0';
      }
    }
  }
  if (!seen) { /* nothing converted: +0, whatever sign was read */
    r->negative = 0;
    *end = (char *)nptr;
    return;
  }
  long x;
  const char *after;
  if (lower((unsigned char)*s) == 'e' && (after = parse_exponent(s + 1, &x))) {
    e10 += x;
    s = after;
  }
  *end = (char *)s;
  while (nd > 0 && digits[nd - 1] == '0' && !sticky) nd--, e10++;

  int max_fast_digits = f->precision == 53 ? 15 : 7;
  int max_fast_pow = f->precision == 53 ? 22 : 10;
  if (nd <= max_fast_digits && !sticky && e10 >= -max_fast_pow && e10 <= max_fast_pow) {
    int64_t d = 0;
    for (int i = 0; i < nd; i++) d = d * 10 + (digits[i] - '0');
    *use_fast = 1;
    if (f->precision == 53) {
      *fast = e10 < 0 ? (double)d / exact_pow10[-e10] : (double)d * exact_pow10[e10];
    } else {
      float v = e10 < 0 ? (float)d / (float)exact_pow10[-e10] : (float)d * (float)exact_pow10[e10];
      *fast = v;
    }
    return;
  }
  decimal_to_binary(digits, nd, sticky, e10, f, r);
}

static double to_double(const fp_result *r) {
  uint64_t bits;
  if (r->bits_kind == 1) {
    bits = (uint64_t)0x7ff << 52;
  } else if (r->bits_kind == 2) {
    bits = (uint64_t)0x7ff8 << 48 | (r->significand & ((((uint64_t)1) << 51) - 1));
  } else if (r->significand == 0) {
    bits = 0;
  } else if (r->significand >> 52) { /* normal */
    bits = (uint64_t)(r->exp2 + 52 + 1023) << 52 | (r->significand & ((((uint64_t)1) << 52) - 1));
  } else {
    bits = r->significand;
  }
  if (r->negative) bits |= (uint64_t)1 << 63;
  double v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static float to_float(const fp_result *r) {
  uint32_t bits;
  if (r->bits_kind == 1) {
    bits = 0xffu << 23;
  } else if (r->bits_kind == 2) {
    bits = 0x7fc00000u | (uint32_t)(r->significand & ((1u << 22) - 1));
  } else if (r->significand == 0) {
    bits = 0;
  } else if (r->significand >> 23) {
    bits = (uint32_t)(r->exp2 + 23 + 127) << 23 | (uint32_t)(r->significand & ((1u << 23) - 1));
  } else {
    bits = (uint32_t)r->significand;
  }
  if (r->negative) bits |= 1u << 31;
  float v;
  memcpy(&v, &bits, sizeof v);
  return v;
}

static double convert_double(const char *nptr, char **endptr) {
  fp_result r;
  int use_fast;
  double fast = 0;
  char *end;
  parse_float(nptr, &end, &f64, &r, &use_fast, &fast);
  if (endptr) *endptr = end;
  if (r.range_error) errno = ERANGE;
  if (use_fast) return r.negative ? -fast : fast;
  return to_double(&r);
}

WEAK double strtod(const char *restrict nptr, char **restrict endptr) {
  return convert_double(nptr, endptr);
}

WEAK double atof(const char *nptr) { return convert_double(nptr, NULL); }

WEAK float strtof(const char *restrict nptr, char **restrict endptr) {
  fp_result r;
  int use_fast;
  double fast = 0;
  char *end;
  parse_float(nptr, &end, &f32, &r, &use_fast, &fast);
  if (endptr) *endptr = end;
  if (r.range_error) errno = ERANGE;
  if (use_fast) return r.negative ? -(float)fast : (float)fast;
  return to_float(&r);
}
