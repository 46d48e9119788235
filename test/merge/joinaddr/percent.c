/* busybox's percent_decode_in_place in small (issue 26, item 3b): a URL of symbolic length
 * n <= CAP decoded in place, '+' to ' ', %XX to a byte, anything else copied. Every arm
 * of the body ends with `continue`, so its sides meet only at the loop's header: incremental
 * merging joins there the arms whose pointers agree ('+', a plain byte, a bad escape), the
 * written byte an ite, and leaves the escape's arm (src 2 bytes further) forked. Before the
 * header joins no side met, and the exits held one state per combination of arms
 * (test/merge/joinaddr.py).
 * EXPECT: effort_over_none<=0.7 states_at_exits<=20
 */
#include <stddef.h>

#ifndef CAP
#define CAP 4
#endif
#include "../../../drivers/symbolic_string.h"

static unsigned hex_to_bin(unsigned char c) {
  unsigned v = c - '0';
  if (v <= 9) return v;
  v = (unsigned)(c | 0x20) - 'a';
  if (v <= 5) return v + 10;
  return ~0u;
}

static char *decode(char *str) {
  char *src = str, *dst = str, c;
  while ((c = *src++) != '\0') {
    if (c == '+') {
      *dst++ = ' ';
      continue;
    }
    if (c != '%') {
      *dst++ = c;
      continue;
    }
    unsigned v = hex_to_bin(src[0]);
    if (v > 15) {
      *dst++ = '%';
      continue;
    }
    v = (v * 16) | hex_to_bin(src[1]);
    if (v > 255) {
      *dst++ = '%';
      continue;
    }
    *dst++ = (char)v;
    src += 2;
  }
  *dst = '\0';
  return str;
}

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  decode(s);
  size_t len = 0;
  while (s[len]) len++;
  klee_assert(len <= n);
  klee_assert(len != 1 || s[0] != ' '); /* fails on "+" and "%20": in every mode */
  return 0;
}
