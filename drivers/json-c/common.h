/* What every json-c driver shares: the KLEE idiom for a string of symbolic length (n
 * symbolic and assumed <= CAP, a CAP+1-byte buffer made symbolic, s[n] = 0), and a string
 * hash that needs no random seed (json-c's default seeds from the clock or the CPU). */
#ifndef JSONC_DRIVER_COMMON_H
#define JSONC_DRIVER_COMMON_H

#include <stddef.h>

#include <json.h>
#include <klee/klee.h>

#ifndef CAP
#define CAP 10
#endif

static size_t symbolic_string(char *s, const char *name) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, name);
  s[n] = 0;
  json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
  return n;
}

#endif
