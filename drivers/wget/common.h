/* What every wget driver shares: wget's own headers (config.h first, as in wget's sources),
 * the globals wget's main.c would define (the drivers link wget's files, not its main), and
 * the KLEE idiom for a string of symbolic length (n symbolic and assumed <= CAP, a
 * CAP+1-byte buffer made symbolic, s[n] = 0). */
#ifndef WGET_DRIVER_COMMON_H
#define WGET_DRIVER_COMMON_H

#include "wget.h"
#include "utils.h" /* xfree */

#include <klee/klee.h>

#ifndef CAP
#define CAP 10
#endif

struct options opt;
const char *exec_name = "wget";
const char *program_name = "wget";
const char *program_argstring = "wget";

static size_t symbolic_string(char *s, const char *size_name, const char *name) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, size_name);
  klee_assume(n <= CAP);
  klee_make_symbolic(s, CAP + 1, name);
  s[n] = 0;
  return n;
}

#endif
