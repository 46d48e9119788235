/* What every libtasn1 driver shares: DER/BER input of symbolic length n <= CAP in a
 * CAP-byte buffer made symbolic (the KLEE idiom; the length is passed, not terminated). */
#ifndef TASN1_DRIVER_COMMON_H
#define TASN1_DRIVER_COMMON_H

#include <libtasn1.h>
#include <klee/klee.h>

#ifndef CAP
#define CAP 10
#endif

static int symbolic_der(unsigned char *der, const char *name) {
  int n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume((n >= 0) & (n <= CAP));
  klee_make_symbolic(der, CAP, name);
  return n;
}

#endif
