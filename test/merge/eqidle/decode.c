/*
 * wget_base64_decode in small: a loop over a string of symbolic length n <= CAP that holds
 * another loop (NEXT_CHAR skips white space) and returns -1 on an invalid character, which
 * `c == '=' || !is_code (c)` reaches two ways with the same registers and bytes. Under
 * --merge=pat --incremental-merge=on those two states are merged as equal snapshots, and the
 * merged state leaves the loop at once, without forking: PAT merges it at the exit anyway.
 * Once two such merged states wait at the exit, none having forked, the region drops its
 * incremental part (merge/incremental.c, merges_idle) and goes on as a plain region
 * (test/merge/eqidle.py).
 */
#ifndef CAP
#define CAP 4
#endif

#include "text.h"

static int is_space(int c) {
  switch (c) {
  case ' ': case '\t': case '\n':
    return 1;
  default:
    return 0;
  }
}

/* a table, as wget's base64_char_to_value (here 0 for an invalid character) */
static const signed char value[128] = {['A'] = 1, ['B'] = 2, ['C'] = 3, ['+'] = 4};

static int is_code(int c) { return ((c & 0x80) == 0 && value[c] > 0) || c == '='; }

static long decode(const char *p) {
  long n = 0;
  while (1) {
    unsigned char c;
    do
      c = (unsigned char)*p++;
    while (is_space(c));
    if (!c) break;
    if (c == '=' || !is_code(c)) return -1;
    n += value[c];
  }
  return n;
}

int main(void) {
  char s[CAP + 1];
  symbolic_text(s);
  long v = decode(s);
  klee_assert(v >= -1);
  return 0;
}
