/* strchr, index, strrchr, rindex, strchrnul and memchr searching known bytes (constant
 * tables, as in strchr(" \t\n", c)) for a symbolic character, c in -300..300: each call
 * forks once, found or not (strchrnul not at all: the terminator always matches), instead
 * of once per distinct byte of the table. Then a string whose first two bytes are known and
 * next three symbolic: the known ones are searched without a fork, the rest by the forking
 * loop. The driver asserts on every path, symbolically, that the result is the first (or
 * last) match, so the fork-free index is checked under symq as well as against glibc
 * natively (where every byte is known). 30 paths: 2 for each of the first six cases
 * (strchrnul's are the driver's own test for the terminator), 9 for memchr with a
 * symbolic size 0..4, 9 for the mixed string; 106 when every byte of a table forked. */
// EXPECT: completed=30
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include "harness.h"

/* p is h + the first (last_match: the last) index below len where h holds (char)c, or NULL
 * when there is none. Branch-free in the comparisons: klee_assert forks only if it can
 * fail. */
static void assert_match(const char *h, size_t len, int c, const char *p, int last_match) {
  char ch = (char)c;
  if (p == NULL) {
    for (size_t j = 0; j < len; j++) klee_assert(h[j] != ch);
    return;
  }
  size_t at = (size_t)(p - h);
  klee_assert(at < len);
  klee_assert(h[at] == ch);
  for (size_t j = 0; j < len; j++)
    klee_assert((last_match ? j <= at : j >= at) | (h[j] != ch));
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
  case 0:
    p = strchr(table, c);
    assert_match(table, sizeof table, c, p, 0);
    check_ptr("strchr", p, table);
    break;
  case 1:
    p = index(table, c);
    assert_match(table, sizeof table, c, p, 0);
    check_ptr("index", p, table);
    break;
  case 2:
    p = strrchr(commas, c);
    assert_match(commas, sizeof commas, c, p, 1);
    check_ptr("strrchr", p, commas);
    break;
  case 3:
    p = rindex(commas, c);
    assert_match(commas, sizeof commas, c, p, 1);
    check_ptr("rindex", p, commas);
    break;
  case 4:
    p = strchrnul(table, c);
    assert_match(table, sizeof table - 1, c, p == table + sizeof table - 1 ? NULL : p, 0);
    check_ptr("strchrnul", p, table);
    break;
  case 5:
    p = memchr(parts, c, 6);
    assert_match(parts, 6, c, p, 0);
    check_ptr("memchr", p, parts);
    break;
  case 6: {
    size_t n = (size_t)sym_int_in("n", 0, 4);
    p = memchr(parts, c, n);
    assert_match(parts, n, c, p, 0);
    check_ptr("memchr n", p, parts);
    break;
  }
  case 7:
    p = strchr(mixed, c);
    check_ptr("strchr mixed", p, mixed);
    break;
  }
  return 0;
}
