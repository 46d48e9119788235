/*
 * ctype.c — <ctype.h> in the ASCII "C" locale, for symbolic execution.
 *
 * The predicates are branch-free: comparisons combined with & and | (never && or ||, which
 * clang turns into branches), so isdigit(c) on a symbolic c returns a symbolic truth value
 * without forking and the caller's `if (isdigit(c))` forks once, into two paths — what
 * glibc's table lookup gives under KLEE, and what a driver author expects. A chain of
 * short-circuit comparisons would instead fork once per range boundary (isalnum: up to 7
 * paths). Arguments outside 0..127 (EOF, bytes >= 128, negative chars) are in no class;
 * tolower/toupper return them unchanged except a negative char (-128..-2), which comes
 * back as its unsigned char value — glibc's "C" locale, for -128..255.
 *
 * Drivers are compiled with -D__NO_CTYPE so that glibc's ctype macros become calls to these
 * functions. Bitcode compiled without it indexes the tables of __ctype_b_loc() and friends,
 * which are defined at the end with glibc's bit layout; a symbolic index then reads the
 * table at a symbolic offset, again without forking.
 */
#define _GNU_SOURCE
#ifndef __NO_CTYPE
#define __NO_CTYPE 1 /* <ctype.h> must declare functions here, not macros */
#endif
#include <ctype.h>
#include <stdint.h>

#include "model.h"

#define IN(c, lo, hi) (((c) >= (lo)) & ((c) <= (hi)))
/* One definition of each class, used by the functions and by the tables below. */
#define IS_DIGIT(c) IN(c, '0', '9')
#define IS_UPPER(c) IN(c, 'A', 'Z')
#define IS_LOWER(c) IN(c, 'a', 'z')
#define IS_ALPHA(c) (IS_UPPER(c) | IS_LOWER(c))
#define IS_ALNUM(c) (IS_DIGIT(c) | IS_ALPHA(c))
#define IS_XDIGIT(c) (IS_DIGIT(c) | IN(c, 'A', 'F') | IN(c, 'a', 'f'))
#define IS_SPACE(c) (((c) == ' ') | IN(c, '\t', '\r'))
#define IS_BLANK(c) (((c) == ' ') | ((c) == '\t'))
#define IS_CNTRL(c) (IN(c, 0, 31) | ((c) == 127))
#define IS_PRINT(c) IN(c, 32, 126)
#define IS_GRAPH(c) IN(c, 33, 126)
#define IS_PUNCT(c) (IN(c, 33, 47) | IN(c, 58, 64) | IN(c, 91, 96) | IN(c, 123, 126))
/* glibc maps a negative char (-128..-2; -1 is EOF) to its unsigned char value */
#define TO_LOWER(c) ((c) + 32 * IS_UPPER(c) + 256 * IN(c, -128, -2))
#define TO_UPPER(c) ((c) - 32 * IS_LOWER(c) + 256 * IN(c, -128, -2))

WEAK int isdigit(int c) { return IS_DIGIT(c); }
WEAK int isupper(int c) { return IS_UPPER(c); }
WEAK int islower(int c) { return IS_LOWER(c); }
WEAK int isalpha(int c) { return IS_ALPHA(c); }
WEAK int isalnum(int c) { return IS_ALNUM(c); }
WEAK int isxdigit(int c) { return IS_XDIGIT(c); }
WEAK int isspace(int c) { return IS_SPACE(c); }
WEAK int isblank(int c) { return IS_BLANK(c); }
WEAK int iscntrl(int c) { return IS_CNTRL(c); }
WEAK int isprint(int c) { return IS_PRINT(c); }
WEAK int isgraph(int c) { return IS_GRAPH(c); }
WEAK int ispunct(int c) { return IS_PUNCT(c); }
WEAK int isascii(int c) { return IN(c, 0, 127); }
WEAK int toascii(int c) { return c & 0x7f; }

WEAK int tolower(int c) { return TO_LOWER(c); }
WEAK int toupper(int c) { return TO_UPPER(c); }
WEAK int _tolower(int c) { return TO_LOWER(c); }
WEAK int _toupper(int c) { return TO_UPPER(c); }

/* The _l variants: the locale argument is ignored (there is only "C"). */
WEAK int isdigit_l(int c, locale_t l) { (void)l; return IS_DIGIT(c); }
WEAK int isupper_l(int c, locale_t l) { (void)l; return IS_UPPER(c); }
WEAK int islower_l(int c, locale_t l) { (void)l; return IS_LOWER(c); }
WEAK int isalpha_l(int c, locale_t l) { (void)l; return IS_ALPHA(c); }
WEAK int isalnum_l(int c, locale_t l) { (void)l; return IS_ALNUM(c); }
WEAK int isxdigit_l(int c, locale_t l) { (void)l; return IS_XDIGIT(c); }
WEAK int isspace_l(int c, locale_t l) { (void)l; return IS_SPACE(c); }
WEAK int isblank_l(int c, locale_t l) { (void)l; return IS_BLANK(c); }
WEAK int iscntrl_l(int c, locale_t l) { (void)l; return IS_CNTRL(c); }
WEAK int isprint_l(int c, locale_t l) { (void)l; return IS_PRINT(c); }
WEAK int isgraph_l(int c, locale_t l) { (void)l; return IS_GRAPH(c); }
WEAK int ispunct_l(int c, locale_t l) { (void)l; return IS_PUNCT(c); }
WEAK int tolower_l(int c, locale_t l) { (void)l; return TO_LOWER(c); }
WEAK int toupper_l(int c, locale_t l) { (void)l; return TO_UPPER(c); }

/* ---- glibc's tables, for bitcode compiled without -D__NO_CTYPE --------------------------
 * Each table covers -128..255 and the returned pointer points at entry 0, so that
 * (*__ctype_b_loc())[c] works for c = EOF and for (signed) char values. The class bits are
 * glibc's on little-endian machines (<ctype.h>'s _ISbit). The entries are constant
 * expressions over the same class macros as the functions, so the two cannot disagree. */
#define BIT(test, bit) ((test) ? (bit) : 0)
#define CLASS(c)                                                                          \
  (BIT(IS_UPPER(c), 1 << 8) | BIT(IS_LOWER(c), 1 << 9) | BIT(IS_ALPHA(c), 1 << 10) |     \
   BIT(IS_DIGIT(c), 1 << 11) | BIT(IS_XDIGIT(c), 1 << 12) | BIT(IS_SPACE(c), 1 << 13) |  \
   BIT(IS_PRINT(c), 1 << 14) | BIT(IS_GRAPH(c), 1 << 15) | BIT(IS_BLANK(c), 1 << 0) |    \
   BIT(IS_CNTRL(c), 1 << 1) | BIT(IS_PUNCT(c), 1 << 2) | BIT(IS_ALNUM(c), 1 << 3))
#define ROW8(F, c) F(c), F(c + 1), F(c + 2), F(c + 3), F(c + 4), F(c + 5), F(c + 6), F(c + 7)
#define ROW64(F, c)                                                                       \
  ROW8(F, c), ROW8(F, c + 8), ROW8(F, c + 16), ROW8(F, c + 24), ROW8(F, c + 32),         \
      ROW8(F, c + 40), ROW8(F, c + 48), ROW8(F, c + 56)
#define TABLE(F) ROW64(F, -128), ROW64(F, -64), ROW64(F, 0), ROW64(F, 64), ROW64(F, 128), \
                 ROW64(F, 192)

static const unsigned short class_table[384] = {TABLE(CLASS)};
static const int32_t lower_table[384] = {TABLE(TO_LOWER)};
static const int32_t upper_table[384] = {TABLE(TO_UPPER)};
static const unsigned short *class_ptr = class_table + 128;
static const int32_t *lower_ptr = lower_table + 128;
static const int32_t *upper_ptr = upper_table + 128;

WEAK const unsigned short **__ctype_b_loc(void) { return &class_ptr; }
WEAK const int32_t **__ctype_tolower_loc(void) { return &lower_ptr; }
WEAK const int32_t **__ctype_toupper_loc(void) { return &upper_ptr; }
