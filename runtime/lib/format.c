/*
 * format.c — the printf engine of the libc model: one formatter (__symq_vformat) writing
 * into a sink, used by printf, snprintf, dprintf, asprintf and the fortified variants.
 *
 * It follows glibc 2.36 byte for byte in the "C" locale: flags - + space # 0 (and the
 * ignored ' and I), width and precision (numbers or *), length modifiers hh h l ll q L j z
 * Z t, conversions d i u o x X c s p n % m, the floating-point ones f F e E g G a A, and %lc
 * %ls (%C %S) for ASCII wide characters. glibc's choices where C leaves them open are
 * copied: "(nil)" for a NULL %p, "(null)" for a NULL %s (when the precision allows six
 * bytes), "-nan", an unknown conversion echoed back (flags normalised), -1 with EINVAL
 * for a format that ends inside a directive.
 *
 * Symbolic arguments are formatted by plain arithmetic: printing a symbolic int forks once
 * per feasible number of digits and on its sign, as a textbook formatter does (KLEE with
 * uClibc forks the same way); a symbolic %s string forks on its length; a symbolic %c byte
 * does not fork. Floating-point values are expected concrete: they are converted exactly
 * (a small base-10^9 bignum holds the exact decimal expansion of the double), then rounded
 * half-to-even as glibc does, so %.17g, %f of huge values and %a all agree with glibc.
 * long double arguments are read (the path ends as unsupported under symq, which has no
 * x86_fp80) and printed as double when run natively. Positional arguments (%1$d) end the
 * path as unsupported, through a call to a function that is defined nowhere.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#include <wchar.h>

#include "model.h"

/* Defined nowhere: calling it ends the path with "unsupported: external call NAME". */
void __symq_unsupported_printf_positional_arguments(void);

/* ---- output ------------------------------------------------------------------------- */

typedef struct out {
  symq_sink *sink;
  size_t total; /* bytes produced so far (whether or not the sink kept them) */
} out;

static void emit(out *o, const char *bytes, size_t n) {
  if (n == 0) return;
  o->total += n;
  if (o->sink->put(o->sink, bytes, n) < 0) o->sink->failed = 1;
}

static void emit_char(out *o, char c) { emit(o, &c, 1); }

static void pad(out *o, char c, long n) {
  char block[16];
  for (int k = 0; k < 16; k++) block[k] = c;
  while (n > 0) {
    size_t chunk = n > 16 ? 16 : (size_t)n;
    emit(o, block, chunk);
    n -= (long)chunk;
  }
}

/* ---- a directive -------------------------------------------------------------------- */

typedef struct spec {
  int minus, plus, space, alt, zero;
  int group, i18n; /* ' and I: no effect in the "C" locale, but echoed by emit_unknown */
  long width;     /* 0 when absent */
  long prec;      /* -1 when absent */
  int length;     /* one of the LEN_ values */
  char conv;
} spec;

enum { LEN_NONE, LEN_HH, LEN_H, LEN_L, LEN_LL, LEN_BIG_L, LEN_J, LEN_Z, LEN_T };

/* Text of `len` bytes padded to the width (spaces; '0' flag ignored, as glibc does for
 * strings and characters). */
static void emit_padded(out *o, const spec *sp, const char *text, size_t len) {
  long fill = sp->width > (long)len ? sp->width - (long)len : 0;
  if (!sp->minus) pad(o, ' ', fill);
  emit(o, text, len);
  if (sp->minus) pad(o, ' ', fill);
}

/* ---- integers ----------------------------------------------------------------------- */

/* prefix (sign or 0x), then `zeros` zeros, then the digits; padded to the width. */
static void emit_number(out *o, const spec *sp, const char *prefix, size_t nprefix,
                        const char *digits, size_t ndigits, long zeros) {
  long len = (long)nprefix + zeros + (long)ndigits;
  long fill = sp->width > len ? sp->width - len : 0;
  if (!sp->minus && sp->zero && sp->prec < 0) {
    zeros += fill;
    fill = 0;
  }
  if (!sp->minus) pad(o, ' ', fill);
  emit(o, prefix, nprefix);
  pad(o, '0', zeros);
  emit(o, digits, ndigits);
  if (sp->minus) pad(o, ' ', fill);
}

/* The digits of a symbolic value: the number of digits is found by comparing with the
 * powers of the base (one fork per feasible length, as the textbook divide-until-zero loop
 * gives, but each fork is a plain comparison where the loop's would be a chain of 64-bit
 * divisions, slow for the solver); the digits themselves are then computed without any
 * branch. */
static void format_integer(out *o, const spec *sp, unsigned long long magnitude, int negative,
                           int is_signed) {
  char digits[32];
  size_t nd = 0;
  unsigned base = sp->conv == 'o' ? 8 : (sp->conv == 'x' || sp->conv == 'X' || sp->conv == 'p')
                                            ? 16 : 10;
  int letter = sp->conv == 'X' ? 'A' : 'a';
  if (!(sp->prec == 0 && magnitude == 0)) { /* zero is tested only when it matters */
    nd = 1;
    for (unsigned long long power = base; magnitude >= power; power *= base) {
      nd++;
      if (power > ULLONG_MAX / base) break; /* the next power would overflow */
    }
    unsigned long long v = magnitude;
    for (size_t i = nd; i > 0; i--) {
      int d = (int)(v % base);
      digits[i - 1] = (char)('0' + d + (d > 9) * (letter - '0' - 10));
      v /= base;
    }
  }
  long zeros = sp->prec > (long)nd ? sp->prec - (long)nd : 0;
  if (sp->conv == 'o' && sp->alt && zeros == 0 && (nd == 0 || digits[0] != '0')) zeros = 1;
  char prefix[3]; /* a sign and 0x: glibc signs %p too */
  size_t np = 0;
  if (is_signed) {
    if (negative) prefix[np++] = '-';
    else if (sp->plus) prefix[np++] = '+';
    else if (sp->space) prefix[np++] = ' ';
  }
  if (((sp->conv == 'x' || sp->conv == 'X') && sp->alt && magnitude != 0) || sp->conv == 'p') {
    prefix[np++] = '0';
    prefix[np++] = sp->conv == 'X' ? 'X' : 'x';
  }
  emit_number(o, sp, prefix, np, digits, nd, zeros);
}

/* ---- exact decimal expansion of a double ------------------------------------------------
 * A nonnegative finite double is m * 2^e with m < 2^53. Its decimal expansion is finite:
 * m * 2^e for e >= 0, and m * 5^-e / 10^-e for e < 0. The integer is built in base 10^9
 * limbs (at most 767 decimal digits: 2^53 * 5^1074), then written out as digits. */

enum { LIMBS = 90, MAX_DIGITS = LIMBS * 9 };

typedef struct decimal {
  char digits[MAX_DIGITS]; /* significant digits, no leading zero; empty for zero */
  int len;
  int exp10;               /* value = 0.DIGITS * 10^exp10 */
} decimal;

static void big_mul_small(uint32_t *limb, int *n, uint32_t factor) {
  uint64_t carry = 0;
  for (int i = 0; i < *n; i++) {
    uint64_t v = (uint64_t)limb[i] * factor + carry;
    limb[i] = (uint32_t)(v % 1000000000u);
    carry = v / 1000000000u;
  }
  while (carry != 0) {
    limb[(*n)++] = (uint32_t)(carry % 1000000000u);
    carry /= 1000000000u;
  }
}

static void to_decimal(uint64_t mantissa, int exp2, decimal *d) {
  uint32_t limb[LIMBS];
  int n = 0;
  d->len = 0;
  d->exp10 = 1;
  if (mantissa == 0) return;
  while (mantissa != 0) {
    limb[n++] = (uint32_t)(mantissa % 1000000000u);
    mantissa /= 1000000000u;
  }
  int scale = 0; /* decimal digits after the point */
  if (exp2 >= 0) {
    for (; exp2 >= 29; exp2 -= 29) big_mul_small(limb, &n, 1u << 29);
    if (exp2 > 0) big_mul_small(limb, &n, 1u << exp2);
  } else {
    scale = -exp2;
    int k = scale;
    for (; k >= 13; k -= 13) big_mul_small(limb, &n, 1220703125u); /* 5^13 */
    uint32_t rest = 1;
    for (; k > 0; k--) rest *= 5;
    if (rest != 1) big_mul_small(limb, &n, rest);
  }
  /* most significant limb without leading zeros, then 9 digits per limb */
  char top[10];
  int nt = 0;
  for (uint32_t v = limb[n - 1]; v != 0; v /= 10) top[nt++] = (char)('0' + v % 10);
  while (nt > 0) d->digits[d->len++] = top[--nt];
  for (int i = n - 2; i >= 0; i--) {
    uint32_t v = limb[i];
    for (int k = 8; k >= 0; k--) {
      d->digits[d->len + k] = (char)('0' + v % 10);
      v /= 10;
    }
    d->len += 9;
  }
  d->exp10 = d->len - scale;
  while (d->len > 0 && d->digits[d->len - 1] == '0') d->len--; /* trailing zeros add nothing */
}

/* Keeps `keep` significant digits, rounding half to even (glibc in the default rounding
 * mode). keep <= 0 rounds to zero or to one unit of the next higher place. */
static void round_decimal(decimal *d, int keep) {
  if (keep >= d->len) return;
  int up;
  if (keep < 0) {
    up = 0;
  } else {
    char next = d->digits[keep];
    int rest_nonzero = 0;
    for (int i = keep + 1; i < d->len; i++)
      if (d->digits[i] != '0') rest_nonzero = 1;
    int odd = keep > 0 && ((d->digits[keep - 1] - '0') & 1);
    up = next > '5' || (next == '5' && (rest_nonzero || odd));
  }
  if (keep <= 0) {
    if (up) {
      d->digits[0] = '1';
      d->len = 1;
      d->exp10 += 1 - keep; /* keep == 0: the unit just above the first digit */
    } else {
      d->len = 0;
    }
    return;
  }
  d->len = keep;
  if (up) {
    int i = keep - 1;
    while (i >= 0 && d->digits[i] == '9') d->digits[i--] = '0';
    if (i >= 0) {
      d->digits[i]++;
    } else {
      d->digits[0] = '1';
      d->len = 1;
      d->exp10++;
    }
  }
  while (d->len > 0 && d->digits[d->len - 1] == '0') d->len--;
}

static char digit_at(const decimal *d, int i) {
  return i >= 0 && i < d->len ? d->digits[i] : '0';
}

/* ---- floating point -------------------------------------------------------------------- */

typedef struct fp_parts {
  int negative, is_inf, is_nan;
  uint64_t mantissa; /* value = mantissa * 2^exp2 */
  int exp2;
  uint64_t fraction; /* the 52 stored bits, for %a */
  int biased;        /* the stored exponent, for %a */
} fp_parts;

static void split_double(double v, fp_parts *f) {
  union {
    double d;
    uint64_t bits;
  } u = {v};
  uint64_t bits = u.bits;
  f->negative = (int)(bits >> 63);
  f->biased = (int)((bits >> 52) & 0x7ff);
  f->fraction = bits & ((1ull << 52) - 1);
  f->is_inf = f->biased == 0x7ff && f->fraction == 0;
  f->is_nan = f->biased == 0x7ff && f->fraction != 0;
  if (f->biased == 0) {
    f->mantissa = f->fraction;
    f->exp2 = -1074;
  } else {
    f->mantissa = f->fraction | (1ull << 52);
    f->exp2 = f->biased - 1075;
  }
}

static size_t sign_prefix(const spec *sp, int negative, char *buf) {
  if (negative) buf[0] = '-';
  else if (sp->plus) buf[0] = '+';
  else if (sp->space) buf[0] = ' ';
  else return 0;
  return 1;
}

enum { FBUF = 1200 };

static void format_inf_nan(out *o, const spec *sp, const fp_parts *f, int upper) {
  char prefix[1];
  size_t np = sign_prefix(sp, f->negative, prefix);
  const char *word = f->is_nan ? (upper ? "NAN" : "nan") : (upper ? "INF" : "inf");
  long fill = sp->width > (long)np + 3 ? sp->width - (long)np - 3 : 0; /* never 0-padded */
  if (!sp->minus) pad(o, ' ', fill);
  emit(o, prefix, np);
  emit(o, word, 3);
  if (sp->minus) pad(o, ' ', fill);
}

/* %f: the digits of d with `prec` after the point. */
static size_t layout_fixed(const decimal *d, long prec, int alt, char *buf) {
  size_t n = 0;
  if (d->exp10 <= 0) {
    buf[n++] = '0';
  } else {
    for (int i = 0; i < d->exp10; i++) buf[n++] = digit_at(d, i);
  }
  if (prec > 0 || alt) buf[n++] = '.';
  for (long i = 0; i < prec; i++) buf[n++] = digit_at(d, d->exp10 + (int)i);
  return n;
}

/* %e: d.ddde+XX; *tail is where the exponent starts. */
static size_t layout_exp(const decimal *d, long prec, int alt, char e, char *buf,
                         size_t *tail) {
  size_t n = 0;
  int x = d->len == 0 ? 0 : d->exp10 - 1;
  buf[n++] = digit_at(d, 0);
  if (prec > 0 || alt) buf[n++] = '.';
  for (long i = 1; i <= prec; i++) buf[n++] = digit_at(d, (int)i);
  *tail = n;
  buf[n++] = e;
  buf[n++] = x < 0 ? '-' : '+';
  unsigned ux = x < 0 ? (unsigned)-x : (unsigned)x;
  char rev[8];
  int nr = 0;
  do {
    rev[nr++] = (char)('0' + ux % 10);
    ux /= 10;
  } while (ux != 0);
  if (nr < 2) rev[nr++] = '0';
  while (nr > 0) buf[n++] = rev[--nr];
  return n;
}

/* The text of a finite value is laid out in `body` (at most ~1110 bytes: 309 integer
 * digits and a precision capped at 800). A larger precision only adds zeros — every digit
 * past the exact expansion (at most 767 significant digits) is 0 — so they are streamed:
 * `extra` zeros go at `tail`, before the exponent if there is one. */
enum { PREC_CAP = 800 };

static void format_decimal_float(out *o, const spec *sp, double v) {
  fp_parts f;
  split_double(v, &f);
  int upper = sp->conv == 'F' || sp->conv == 'E' || sp->conv == 'G';
  if (f.is_inf || f.is_nan) {
    format_inf_nan(o, sp, &f, upper);
    return;
  }
  static decimal d; /* large: static rather than on the stack */
  static char body[FBUF];
  to_decimal(f.mantissa, f.exp2, &d);
  char conv = (char)(sp->conv | 32), e = upper ? 'E' : 'e';
  long prec = sp->prec < 0 ? 6 : sp->prec;
  if (conv == 'g' && prec == 0) prec = 1;
  long extra = prec > PREC_CAP ? prec - PREC_CAP : 0;
  prec -= extra;
  size_t nb, tail;
  if (conv == 'f') {
    round_decimal(&d, d.exp10 + (int)prec);
    nb = tail = layout_fixed(&d, prec, sp->alt, body);
  } else if (conv == 'e') {
    if (d.len > 0) round_decimal(&d, (int)prec + 1);
    nb = layout_exp(&d, prec, sp->alt, e, body, &tail);
  } else { /* g: prec is the number of significant digits */
    int x_before = d.len == 0 ? 0 : d.exp10 - 1;
    if (d.len > 0) round_decimal(&d, (int)prec);
    int x = d.len == 0 ? 0 : d.exp10 - 1;
    if (sp->alt && x_before == prec - 1 && x == prec) {
      /* glibc: an integer of exactly prec digits that rounds up to 10^prec (999.96 with
       * %#.3g) comes out as "1.e+03", the fraction digits dropped */
      nb = layout_exp(&d, 0, 1, e, body, &tail);
    } else if (prec > x && x >= -4) {
      nb = tail = layout_fixed(&d, prec - 1 - x, sp->alt, body);
    } else {
      nb = layout_exp(&d, prec - 1, sp->alt, e, body, &tail);
    }
    if (!sp->alt) { /* no trailing zeros in the fraction, no bare point */
      extra = 0;
      int has_point = 0;
      for (size_t i = 0; i < tail; i++)
        if (body[i] == '.') has_point = 1;
      if (has_point) {
        size_t cut = tail;
        while (body[cut - 1] == '0') cut--;
        if (body[cut - 1] == '.') cut--;
        for (size_t i = 0; i < nb - tail; i++) body[cut + i] = body[tail + i];
        nb -= tail - cut;
        tail = cut;
      }
    }
  }
  char prefix[1];
  size_t np = sign_prefix(sp, f.negative, prefix);
  long len = (long)(np + nb) + extra;
  long fill = sp->width > len ? sp->width - len : 0;
  if (!sp->minus && !sp->zero) pad(o, ' ', fill);
  emit(o, prefix, np);
  if (!sp->minus && sp->zero) pad(o, '0', fill);
  emit(o, body, tail);
  pad(o, '0', extra);
  emit(o, body + tail, nb - tail);
  if (sp->minus) pad(o, ' ', fill);
}

/* %a: 0x1.hhhp+d (normal), 0x0.hhhp-1022 (subnormal), 0x0p+0 (zero), as glibc. */
static void format_hex_float(out *o, const spec *sp, double v) {
  fp_parts f;
  split_double(v, &f);
  int upper = sp->conv == 'A';
  if (f.is_inf || f.is_nan) {
    format_inf_nan(o, sp, &f, upper);
    return;
  }
  const char *alphabet = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  unsigned lead = f.biased == 0 ? 0 : 1;
  int exp = f.biased == 0 ? (f.fraction == 0 ? 0 : -1022) : f.biased - 1023;
  uint64_t frac = f.fraction; /* 13 hex digits */
  int ndig = 13;
  if (sp->prec < 0) {
    while (ndig > 0 && (frac & 0xf) == 0) {
      frac >>= 4;
      ndig--;
    }
  } else if (sp->prec < 13) {
    int drop = 13 - (int)sp->prec;
    uint64_t rest = frac & ((1ull << (4 * drop)) - 1);
    uint64_t half = 1ull << (4 * drop - 1);
    frac >>= 4 * drop;
    ndig = (int)sp->prec;
    int odd = ndig > 0 ? (int)(frac & 1) : (int)(lead & 1);
    if (rest > half || (rest == half && odd)) {
      frac++;
      if (ndig == 0 || frac >> (4 * ndig)) { /* carry into the leading digit */
        frac = ndig == 0 ? 0 : frac & ((1ull << (4 * ndig)) - 1);
        lead++;
      }
    }
  }
  char body[64];
  size_t n = 0;
  body[n++] = (char)('0' + lead);
  long zeros = sp->prec > 13 ? sp->prec - 13 : 0;
  if (ndig > 0 || sp->alt || zeros > 0) body[n++] = '.';
  for (int i = ndig - 1; i >= 0; i--) body[n++] = alphabet[(frac >> (4 * i)) & 0xf];
  char tail[16];
  size_t nt = 0;
  tail[nt++] = upper ? 'P' : 'p';
  tail[nt++] = exp < 0 ? '-' : '+';
  unsigned ux = exp < 0 ? (unsigned)-exp : (unsigned)exp;
  char rev[8];
  int nr = 0;
  do {
    rev[nr++] = (char)('0' + ux % 10);
    ux /= 10;
  } while (ux != 0);
  while (nr > 0) tail[nt++] = rev[--nr];
  char prefix[3];
  size_t np = sign_prefix(sp, f.negative, prefix);
  prefix[np++] = '0';
  prefix[np++] = upper ? 'X' : 'x';
  long len = (long)(np + n + nt) + zeros;
  long fill = sp->width > len ? sp->width - len : 0;
  if (!sp->minus && !sp->zero) pad(o, ' ', fill);
  emit(o, prefix, np);
  if (!sp->minus && sp->zero) pad(o, '0', fill);
  emit(o, body, n);
  pad(o, '0', zeros);
  emit(o, tail, nt);
  if (sp->minus) pad(o, ' ', fill);
}

/* ---- strings and characters ----------------------------------------------------------- */

static void format_string(out *o, const spec *sp, const char *s) {
  if (s == NULL) {
    /* glibc: "(null)" when the precision allows all of it, else nothing */
    if (sp->prec >= 0 && sp->prec < 6) s = "";
    else s = "(null)";
  }
  size_t len = 0;
  if (sp->prec >= 0) {
    while (len < (size_t)sp->prec && s[len] != '\0') len++;
  } else {
    while (s[len] != '\0') len++;
  }
  emit_padded(o, sp, s, len);
}

/* A wide character in the "C" locale: ASCII only; anything else is EILSEQ. */
static int narrow(wint_t wc, char *c) {
  if (wc > 0x7f) return 0;
  *c = (char)wc;
  return 1;
}

static int format_wide_string(out *o, const spec *sp, const wchar_t *s) {
  if (s == NULL) {
    format_string(o, sp, NULL);
    return 0;
  }
  size_t len = 0;
  for (;; len++) {
    if (sp->prec >= 0 && len >= (size_t)sp->prec) break;
    if (s[len] == 0) break;
    char c;
    if (!narrow((wint_t)s[len], &c)) return -1;
  }
  long fill = sp->width > (long)len ? sp->width - (long)len : 0;
  if (!sp->minus) pad(o, ' ', fill);
  for (size_t i = 0; i < len; i++) emit_char(o, (char)s[i]);
  if (sp->minus) pad(o, ' ', fill);
  return 0;
}

/* An unknown conversion is printed back as glibc does: '%', the flags in a fixed order,
 * the width and precision as numbers (after * is applied), the conversion character; any
 * length modifier is dropped. */
static void emit_unknown(out *o, const spec *sp) {
  char text[64];
  size_t n = 0;
  text[n++] = '%';
  if (sp->alt) text[n++] = '#';
  if (sp->group) text[n++] = '\'';
  if (sp->plus) text[n++] = '+';
  else if (sp->space) text[n++] = ' ';
  if (sp->minus) text[n++] = '-';
  if (sp->zero && !sp->minus) text[n++] = '0'; /* '-' cancels '0' */
  if (sp->i18n) text[n++] = 'I';
  for (int k = 0; k < 2; k++) {
    long v = k == 0 ? sp->width : sp->prec;
    if (k == 0 ? v == 0 : v < 0) continue;
    if (k == 1) text[n++] = '.';
    char rev[24];
    int nr = 0;
    do {
      rev[nr++] = (char)('0' + v % 10);
      v /= 10;
    } while (v != 0);
    while (nr > 0) text[n++] = rev[--nr];
  }
  if (sp->conv != '\0') text[n++] = sp->conv;
  emit(o, text, n);
}

/* ---- the driver loop ------------------------------------------------------------------- */

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Reads a decimal number (saturating at LONG_MAX / 2, far beyond any real width). */
static long read_number(const char **pp) {
  long v = 0;
  const char *p = *pp;
  while (is_digit(*p)) {
    if (v < LONG_MAX / 20) v = v * 10 + (*p - '0');
    p++;
  }
  *pp = p;
  return v;
}

static void store_count(const spec *sp, void *p, size_t total) {
  switch (sp->length) {
  case LEN_HH: *(signed char *)p = (signed char)total; break;
  case LEN_H: *(short *)p = (short)total; break;
  case LEN_L: *(long *)p = (long)total; break;
  case LEN_LL: case LEN_BIG_L: *(long long *)p = (long long)total; break;
  case LEN_J: *(intmax_t *)p = (intmax_t)total; break;
  case LEN_Z: *(size_t *)p = total; break;
  case LEN_T: *(ptrdiff_t *)p = (ptrdiff_t)total; break;
  default: *(int *)p = (int)total; break;
  }
}

int __symq_vformat(symq_sink *sink, const char *fmt, va_list ap_in) {
  out o = {sink, 0};
  va_list ap;
  va_copy(ap, ap_in);
  int saved_errno = errno; /* %m prints the errno of the call, not one set on the way */
  int echo_mode = 0;       /* an unknown conversion was seen */
  const char *p = fmt;
  while (*p != '\0') {
    if (*p != '%') {
      const char *start = p;
      while (*p != '\0' && *p != '%') p++;
      emit(&o, start, (size_t)(p - start));
      continue;
    }
    p++;
    spec sp = {0, 0, 0, 0, 0, 0, 0, 0, -1, LEN_NONE, 0};
    /* %N$: positional arguments */
    const char *q = p;
    while (is_digit(*q)) q++;
    if (q != p && *q == '$') __symq_unsupported_printf_positional_arguments();
    for (;; p++) {
      if (*p == '-') sp.minus = 1;
      else if (*p == '+') sp.plus = 1;
      else if (*p == ' ') sp.space = 1;
      else if (*p == '#') sp.alt = 1;
      else if (*p == '0') sp.zero = 1;
      else if (*p == '\'') sp.group = 1;
      else if (*p == 'I') sp.i18n = 1;
      else break;
    }
    if (*p == '*') {
      p++;
      int w = va_arg(ap, int);
      if (w < 0) {
        sp.minus = 1;
        sp.width = -(long)w;
      } else {
        sp.width = w;
      }
    } else {
      sp.width = read_number(&p);
    }
    if (*p == '.') {
      p++;
      if (*p == '*') {
        p++;
        int pr = va_arg(ap, int);
        sp.prec = pr < 0 ? -1 : pr;
      } else {
        sp.prec = read_number(&p);
      }
    }
    for (int more = 1; more;) {
      switch (*p) {
      case 'h': sp.length = sp.length == LEN_H ? LEN_HH : LEN_H; p++; break;
      case 'l': sp.length = sp.length == LEN_L ? LEN_LL : LEN_L; p++; break;
      case 'q': case 'L': sp.length = *p == 'q' ? LEN_LL : LEN_BIG_L; p++; break;
      case 'j': sp.length = LEN_J; p++; break;
      case 'z': case 'Z': sp.length = LEN_Z; p++; break;
      case 't': sp.length = LEN_T; p++; break;
      default: more = 0;
      }
    }
    sp.conv = *p;
    if (*p != '\0') p++;
    switch (sp.conv) {
    case 'd': case 'i': {
      long long v;
      switch (sp.length) {
      case LEN_HH: v = (signed char)va_arg(ap, int); break;
      case LEN_H: v = (short)va_arg(ap, int); break;
      case LEN_L: v = va_arg(ap, long); break;
      case LEN_LL: case LEN_BIG_L: v = va_arg(ap, long long); break;
      case LEN_J: v = va_arg(ap, intmax_t); break;
      case LEN_Z: v = va_arg(ap, ssize_t); break;
      case LEN_T: v = va_arg(ap, ptrdiff_t); break;
      default: v = va_arg(ap, int);
      }
      unsigned long long mag = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
      format_integer(&o, &sp, mag, v < 0, 1);
      break;
    }
    case 'u': case 'o': case 'x': case 'X': {
      unsigned long long v;
      switch (sp.length) {
      case LEN_HH: v = (unsigned char)va_arg(ap, unsigned); break;
      case LEN_H: v = (unsigned short)va_arg(ap, unsigned); break;
      case LEN_L: v = va_arg(ap, unsigned long); break;
      case LEN_LL: case LEN_BIG_L: v = va_arg(ap, unsigned long long); break;
      case LEN_J: v = va_arg(ap, uintmax_t); break;
      case LEN_Z: v = va_arg(ap, size_t); break;
      case LEN_T: v = (unsigned long long)va_arg(ap, ptrdiff_t); break;
      default: v = va_arg(ap, unsigned);
      }
      format_integer(&o, &sp, v, 0, 0);
      break;
    }
    case 'p': {
      void *ptr = va_arg(ap, void *);
      if (ptr == NULL) {
        spec s = sp;
        s.prec = -1;
        emit_padded(&o, &s, "(nil)", 5);
      } else {
        format_integer(&o, &sp, (unsigned long long)(uintptr_t)ptr, 0, 1);
      }
      break;
    }
    case 'c': case 'C':
      if (sp.length == LEN_L || sp.conv == 'C') {
        char c;
        if (!narrow(va_arg(ap, wint_t), &c)) {
          errno = EILSEQ;
          va_end(ap);
          return -1;
        }
        emit_padded(&o, &sp, &c, 1);
      } else {
        char c = (char)va_arg(ap, int);
        emit_padded(&o, &sp, &c, 1);
      }
      break;
    case 's': case 'S':
      if (sp.length == LEN_L || sp.conv == 'S') {
        if (format_wide_string(&o, &sp, va_arg(ap, const wchar_t *)) < 0) {
          errno = EILSEQ;
          va_end(ap);
          return -1;
        }
      } else {
        format_string(&o, &sp, va_arg(ap, const char *));
      }
      break;
    case 'm': {
      char text[32];
      format_string(&o, &sp, __symq_strerror(saved_errno, text, sizeof text));
      break;
    }
    case 'n':
      store_count(&sp, va_arg(ap, void *), o.total);
      break;
    case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A': {
      double v = sp.length == LEN_BIG_L ? (double)va_arg(ap, long double) : va_arg(ap, double);
      if (sp.conv == 'a' || sp.conv == 'A') format_hex_float(&o, &sp, v);
      else format_decimal_float(&o, &sp, v);
      break;
    }
    case '%':
      emit_char(&o, '%');
      break;
    case '\0':
      /* the format ends inside a directive: glibc fails, unless an unknown conversion came
       * before (glibc then formats the rest in its "positional" mode, which echoes it) */
      if (echo_mode) {
        emit_unknown(&o, &sp);
        break;
      }
      va_end(ap);
      errno = EINVAL;
      return -1;
    default:
      emit_unknown(&o, &sp);
      echo_mode = 1;
      break;
    }
  }
  va_end(ap);
  if (sink->failed) return -1;
  if (o.total > INT_MAX) {
    errno = EOVERFLOW;
    return -1;
  }
  return (int)o.total;
}

/* ---- sinks ---------------------------------------------------------------------------- */

static int put_buffer(symq_sink *s, const char *bytes, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (s->len + 1 < s->cap) s->buf[s->len++] = bytes[i];
  }
  return 0;
}

int __symq_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap) {
  symq_sink sink = {put_buffer, buf, n, 0, -1, 0};
  int r = __symq_vformat(&sink, fmt, ap);
  if (n > 0) buf[sink.len] = '\0';
  return r;
}

/* fd sinks stage up to 128 bytes and write() them: one write per 128 bytes of output. */
typedef struct fd_sink {
  symq_sink base;
  char stage[128];
} fd_sink;

static int flush_fd(fd_sink *s) {
  size_t done = 0;
  while (done < s->base.len) {
    ssize_t w = write(s->base.fd, s->stage + done, s->base.len - done);
    if (w <= 0) {
      s->base.len = 0;
      return -1;
    }
    done += (size_t)w;
  }
  s->base.len = 0;
  return 0;
}

static int put_fd(symq_sink *sink, const char *bytes, size_t n) {
  fd_sink *s = (fd_sink *)sink;
  for (size_t i = 0; i < n; i++) {
    if (s->base.len == sizeof s->stage && flush_fd(s) < 0) return -1;
    s->stage[s->base.len++] = bytes[i];
  }
  return 0;
}

int __symq_vdprintf(int fd, const char *fmt, va_list ap) {
  fd_sink s;
  s.base.put = put_fd;
  s.base.buf = NULL;
  s.base.cap = 0;
  s.base.len = 0;
  s.base.fd = fd;
  s.base.failed = 0;
  int r = __symq_vformat(&s.base, fmt, ap);
  if (flush_fd(&s) < 0) return -1;
  return r;
}
