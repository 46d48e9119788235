/* strchr, index, strrchr, rindex, strchrnul and memchr searching known bytes (constant
 * tables, as in strchr(" \t\n", c)) for a symbolic character, c in -300..300: each call
 * forks once, found or not (strchrnul not at all: the terminator always matches), instead
 * of once per distinct byte of the table. Then a string whose first two bytes are known and
 * next three symbolic: the known ones are searched without a fork, the rest by the forking
 * loop. The driver asserts on every path, symbolically, that the result is the first (or
 * last) match, so the fork-free index is checked under symq as well as against glibc
 * natively (where every byte is known). 36 paths: 2 for each of the first six cases
 * (strchrnul's are the driver's own test for the terminator), 15 for memchr with a
 * symbolic size 0..4 (a symbolic size takes the forking loop), 9 for the mixed string;
 * 106 when every byte of a table forked. */
// ARGS: --merge=none
// EXPECT: completed=36
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "harness.h"

/* p is h + the first (last_match: the last) index below len where h holds (char)c, or NULL
 * when there is none; with stop_at_nul, bytes after the first NUL do not count. Branch-free
 * in the bytes: klee_assert forks only if it can fail. */
static void assert_match(const char *h, size_t len, int c, const char *p, int last_match,
                         int stop_at_nul) {
  char ch = (char)c;
  size_t at = p ? (size_t)(p - h) : len;
  if (p) klee_assert((at < len) & (h[at] == ch));
  int ended = 0; /* a NUL before j, and stop_at_nul */
  for (size_t j = 0; j < len; j++) {
    int other = h[j] != ch;
    int before = j < at, after = j > at;
    if (!p)
      klee_assert(ended | other);
    else
      klee_assert((!before | ((other | last_match) & !(stop_at_nul & (h[j] == '\0')))) &
                  (!after | !last_match | ended | other));
    ended |= stop_at_nul & (h[j] == '\0');
  }
}

/* Asserts p is the match and records it for the comparison with glibc. */
static void check_search(const char *what, const char *h, size_t len, int c, const char *p,
                         int last_match, int stop_at_nul) {
  assert_match(h, len, c, p, last_match, stop_at_nul);
  check_ptr(what, p, h);
}

int main(void) {
  static const char table[] = "0123456789 \t\n+-+-*/.,";
  static const char commas[] = "a,b,,c";
  static const char parts[] = "ab\0cd\0e";
  int c = sym_int_in("c", -300, 300);
  char tail[3], mixed[6] = "+-";
  klee_make_symbolic(tail, sizeof tail, "tail");
  memcpy(mixed + 2, tail, sizeof tail); /* mixed[5] stays '\0' */
  const char *p;
  switch (sym_int_in("which", 0, 7)) {
  case 0: check_search("strchr", table, sizeof table, c, strchr(table, c), 0, 1); break;
  case 1: check_search("index", table, sizeof table, c, index(table, c), 0, 1); break;
  case 2: check_search("strrchr", commas, sizeof commas, c, strrchr(commas, c), 1, 1); break;
  case 3: check_search("rindex", commas, sizeof commas, c, rindex(commas, c), 1, 1); break;
  case 4:
    p = strchrnul(table, c);
    assert_match(table, sizeof table - 1, c, p == table + sizeof table - 1 ? NULL : p, 0, 1);
    check_ptr("strchrnul", p, table);
    break;
  case 5: check_search("memchr", parts, 6, c, memchr(parts, c, 6), 0, 0); break;
  case 6: {
    size_t n = (size_t)sym_int_in("n", 0, 4);
    check_search("memchr n", parts, n, c, memchr(parts, c, n), 0, 0);
    break;
  }
  case 7: check_search("strchr mixed", mixed, sizeof mixed, c, strchr(mixed, c), 0, 1); break;
  }
  return 0;
}
