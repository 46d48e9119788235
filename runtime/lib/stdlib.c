/*
 * stdlib.c — <stdlib.h> (and <inttypes.h>'s integer parts) for symbolic execution.
 *
 * The strto* family parses exactly as glibc 2.36 does in the "C" locale: leading white
 * space, a sign, a 0x/0X prefix for base 16 (or 0), the 0 prefix for base 0 meaning octal,
 * digits and letters up to the base; "0x" not followed by a hex digit converts the "0" and
 * leaves *endptr at the 'x'; an invalid base sets EINVAL and returns 0 without touching
 * *endptr; overflow sets ERANGE and returns the limit (after consuming every digit).
 * One branch per byte of the number (whether it continues it), the digit's value and the
 * overflow computed without branching, the overflow then tested once.
 *
 * qsort is an insertion sort (one comparator call per step, so symbolic keys fork once per
 * comparison the sort needs, and equal keys keep their order); bsearch is glibc's own
 * halving. There is no environment: getenv returns NULL, as for symq's empty envp. exit
 * runs the atexit/on_exit handlers, newest first, then ends the path through _exit (a
 * built-in). rand/random reproduce glibc's generator (TYPE_3, the additive feedback
 * generator seeded by srand), so a native replay draws the same numbers.
 *
 * malloc, calloc, realloc, free and abort are symq built-ins and deliberately not here.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "model.h"

/* ---- strto* ------------------------------------------------------------------------- */

static int is_space(int c) { return (c == ' ') | ((c >= '\t') & (c <= '\r')); }

static int is_alpha(int c) { return ((c >= 'a') & (c <= 'z')) | ((c >= 'A') & (c <= 'Z')); }

unsigned long long __symq_strtoint(const char *nptr, char **endptr, int base, int is_signed) {
  if (base < 0 || base == 1 || base > 36) {
    errno = EINVAL;
    return 0;
  }
  const char *s = nptr;
  while (is_space((unsigned char)*s)) s++;
  int negative = 0;
  if (*s == '-') {
    negative = 1;
    s++;
  } else if (*s == '+') {
    s++;
  }
  /* The prefixes are tested only where the base lets them matter: under base 10 a leading
   * '0' is just a digit, and testing it would split every path in two for nothing. s[1]
   * is read only after a '0' (it may be past the terminator otherwise). */
  int skipped_0x = 0;
  if (base == 0 || base == 16) {
    if (*s == '0') {
      if ((s[1] | 32) == 'x') {
        s += 2;
        base = 16;
        skipped_0x = 1;
      } else if (base == 0) {
        base = 8;
      }
    } else if (base == 0) {
      base = 10;
    }
  }
  const char *digits = s;
  unsigned long long value = 0;
  unsigned long long cutoff = ULLONG_MAX / (unsigned)base;
  unsigned cutlim = (unsigned)(ULLONG_MAX % (unsigned)base);
  int letters = base > 10; /* concrete: letters are digits only above base 10 */
  int overflow = 0;
  /* One branch per byte, whether it continues the number: the digit's value and the
   * overflow test are arithmetic on the byte (& and |, no && || ?:, which clang -O0 turns
   * into branches), so a symbolic byte does not fork once below '0' and once above '9', nor
   * each digit once more on the overflow test. After an overflow the value wraps, unused:
   * the limit is returned. `bound` is a concrete upper bound of value (base^k - 1 after k
   * digits, ULLONG_MAX once unknown): while value * base + d cannot pass ULLONG_MAX, the
   * overflow test is not built at all, so a number too short to overflow asks the solver
   * nothing about it (a symbolic test over the chain of value * base + d is costly). */
  unsigned long long bound = 0;
  for (;; s++) {
    int c = (unsigned char)*s, d;
    if (letters) {
      /* the digit's or the letter's value, chosen by masks: a product with the 0/1 test
       * would put a multiplier per digit into every later query on the value */
      int is_digit = (c >= '0') & (c <= '9');
      int is_letter = is_alpha(c);
      d = ((c - '0') & -is_digit) | (((c | 32) - 'a' + 10) & -is_letter);
      if (!((is_digit | is_letter) & (d < base))) break;
    } else {
      d = c - '0'; /* the value is then plain c - '0', as in a textbook loop */
      if (!((c >= '0') & (c < '0' + base))) break;
    }
    if (bound < cutoff) {
      bound = bound * (unsigned)base + (unsigned)(base - 1);
    } else {
      overflow |= (value > cutoff) | ((value == cutoff) & ((unsigned)d > cutlim));
      bound = ULLONG_MAX;
    }
    value = value * (unsigned)base + (unsigned)d;
  }
  if (s == digits) {
    /* no digits: after "0x", the "0" was the number and *endptr is the 'x' */
    if (endptr) *endptr = (char *)(skipped_0x ? digits - 1 : nptr);
    return 0;
  }
  if (endptr) *endptr = (char *)s;
  /* the signed limits, tested only where value may pass them; |= keeps an earlier overflow
   * (whose wrapped value means nothing) without branching on it, as `!overflow &&` would */
  if (is_signed && bound > LLONG_MAX)
    overflow |= value > (unsigned long long)LLONG_MAX + (unsigned)negative;
  if (overflow) {
    errno = ERANGE;
    if (!is_signed) return ULLONG_MAX;
    return negative ? (unsigned long long)LLONG_MIN : (unsigned long long)LLONG_MAX;
  }
  return negative ? 0 - value : value;
}

WEAK long strtol(const char *restrict s, char **restrict end, int base) {
  return (long)__symq_strtoint(s, end, base, 1);
}
WEAK long long strtoll(const char *restrict s, char **restrict end, int base) {
  return (long long)__symq_strtoint(s, end, base, 1);
}
WEAK unsigned long strtoul(const char *restrict s, char **restrict end, int base) {
  return (unsigned long)__symq_strtoint(s, end, base, 0);
}
WEAK unsigned long long strtoull(const char *restrict s, char **restrict end, int base) {
  return __symq_strtoint(s, end, base, 0);
}
WEAK intmax_t strtoimax(const char *restrict s, char **restrict end, int base) {
  return (intmax_t)__symq_strtoint(s, end, base, 1);
}
WEAK uintmax_t strtoumax(const char *restrict s, char **restrict end, int base) {
  return (uintmax_t)__symq_strtoint(s, end, base, 0);
}
/* BSD names glibc still exports */
WEAK long long strtoq(const char *restrict s, char **restrict end, int base) {
  return (long long)__symq_strtoint(s, end, base, 1);
}
WEAK unsigned long long strtouq(const char *restrict s, char **restrict end, int base) {
  return __symq_strtoint(s, end, base, 0);
}

/* glibc: atoi(s) is (int)strtol(s, NULL, 10), errno included */
WEAK int atoi(const char *s) { return (int)__symq_strtoint(s, NULL, 10, 1); }
WEAK long atol(const char *s) { return (long)__symq_strtoint(s, NULL, 10, 1); }
WEAK long long atoll(const char *s) { return (long long)__symq_strtoint(s, NULL, 10, 1); }

/* ---- arithmetic ------------------------------------------------------------------------ */

WEAK int abs(int x) { return x < 0 ? -x : x; }
WEAK long labs(long x) { return x < 0 ? -x : x; }
WEAK long long llabs(long long x) { return x < 0 ? -x : x; }
WEAK intmax_t imaxabs(intmax_t x) { return x < 0 ? -x : x; }

WEAK div_t div(int a, int b) {
  div_t r = {a / b, a % b};
  return r;
}
WEAK ldiv_t ldiv(long a, long b) {
  ldiv_t r = {a / b, a % b};
  return r;
}
WEAK lldiv_t lldiv(long long a, long long b) {
  lldiv_t r = {a / b, a % b};
  return r;
}
WEAK imaxdiv_t imaxdiv(intmax_t a, intmax_t b) {
  imaxdiv_t r = {a / b, a % b};
  return r;
}

/* ---- sorting and searching ---------------------------------------------------------- */

static void swap_bytes(unsigned char *a, unsigned char *b, size_t size) {
  for (size_t k = 0; k < size; k++) {
    unsigned char t = a[k];
    a[k] = b[k];
    b[k] = t;
  }
}

WEAK void qsort_r(void *base, size_t n, size_t size,
                  int (*cmp)(const void *, const void *, void *), void *arg) {
  unsigned char *a = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size, arg) > 0; j--)
      swap_bytes(a + (j - 1) * size, a + j * size, size);
}

WEAK void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) {
  unsigned char *a = base;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && cmp(a + (j - 1) * size, a + j * size) > 0; j--)
      swap_bytes(a + (j - 1) * size, a + j * size, size);
}

WEAK void *bsearch(const void *key, const void *base, size_t n, size_t size,
                   int (*cmp)(const void *, const void *)) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const void *p = (const char *)base + mid * size;
    int c = cmp(key, p);
    if (c < 0) hi = mid;
    else if (c > 0) lo = mid + 1;
    else return (void *)p;
  }
  return NULL;
}

/* ---- environment -------------------------------------------------------------------- */

WEAK char *getenv(const char *name) {
  (void)name;
  return NULL;
}
WEAK char *secure_getenv(const char *name) {
  (void)name;
  return NULL;
}

/* ---- exit ---------------------------------------------------------------------------- */

enum { MAX_HANDLERS = 64 };
enum { PLAIN, WITH_ARG, ON_EXIT };

static struct {
  int kind;
  void (*fn)(void);
  void (*fn_arg)(void *);
  void (*fn_status)(int, void *);
  void *arg;
} handlers[MAX_HANDLERS];
static int nhandlers;

WEAK int atexit(void (*fn)(void)) {
  if (nhandlers == MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = PLAIN;
  handlers[nhandlers++].fn = fn;
  return 0;
}

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);
WEAK int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
  (void)dso;
  if (nhandlers == MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = WITH_ARG;
  handlers[nhandlers].fn_arg = fn;
  handlers[nhandlers++].arg = arg;
  return 0;
}

WEAK int on_exit(void (*fn)(int, void *), void *arg) {
  if (nhandlers == MAX_HANDLERS) return -1;
  handlers[nhandlers].kind = ON_EXIT;
  handlers[nhandlers].fn_status = fn;
  handlers[nhandlers++].arg = arg;
  return 0;
}

/* A handler may register more handlers: they run next, as in glibc. */
WEAK void exit(int status) {
  while (nhandlers > 0) {
    nhandlers--;
    int k = nhandlers;
    if (handlers[k].kind == PLAIN) handlers[k].fn();
    else if (handlers[k].kind == WITH_ARG) handlers[k].fn_arg(handlers[k].arg);
    else handlers[k].fn_status(status, handlers[k].arg);
  }
  _exit(status);
}

/* ---- rand ------------------------------------------------------------------------------
 * glibc's TYPE_3 generator: 31 words of state, r[i] = r[i-31] + r[i-3] (mod 2^32), output
 * r >> 1; seeded by the Park-Miller sequence (Schrage's method), then 310 outputs
 * discarded. Never seeded means srand(1). */
static int32_t rand_state[31];
static int rand_front, rand_rear, rand_seeded;

static long next_random(void) {
  uint32_t v = (uint32_t)rand_state[rand_front] + (uint32_t)rand_state[rand_rear];
  rand_state[rand_front] = (int32_t)v;
  rand_front = rand_front == 30 ? 0 : rand_front + 1;
  rand_rear = rand_rear == 30 ? 0 : rand_rear + 1;
  return (long)(v >> 1);
}

static void seed_random(unsigned seed) {
  if (seed == 0) seed = 1;
  int32_t word = (int32_t)seed;
  rand_state[0] = word;
  for (int i = 1; i < 31; i++) {
    int32_t hi = word / 127773, lo = word % 127773;
    word = 16807 * lo - 2836 * hi;
    if (word < 0) word += 2147483647;
    rand_state[i] = word;
  }
  rand_front = 3;
  rand_rear = 0;
  rand_seeded = 1;
  for (int i = 0; i < 310; i++) (void)next_random();
}

WEAK void srandom(unsigned seed) { seed_random(seed); }
WEAK void srand(unsigned seed) { seed_random(seed); }

WEAK long random(void) {
  if (!rand_seeded) seed_random(1);
  return next_random();
}

WEAK int rand(void) {
  if (!rand_seeded) seed_random(1);
  return (int)next_random();
}
