/* The KLEE idiom for a string of symbolic length, shared by the library drivers: n symbolic
 * and assumed <= CAP, a CAP+1-byte buffer made symbolic, s[n] = 0 (bytes before s[n] may be
 * NUL too). The size object is named size_name, the bytes name. */
#ifndef DRIVERS_SYMBOLIC_STRING_H
#define DRIVERS_SYMBOLIC_STRING_H

#include <stddef.h>

#include <klee/klee.h>

#ifndef CAP
#define CAP 10
#endif

static size_t symbolic_string(char *s, const char *size_name, const char *name) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, size_name);
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, name);
  s[n] = 0;
  return n;
}

#endif
