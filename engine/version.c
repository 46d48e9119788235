#include "engine/version.h"

#include <llvm/Config/llvm-config.h>
#include <z3.h>

void symq_print_version(FILE *f) {
  unsigned major, minor, build, revision;
  Z3_get_version(&major, &minor, &build, &revision);
  fprintf(f, "symq %s (LLVM %s, Z3 %u.%u.%u)\n", SYMQ_VERSION, LLVM_VERSION_STRING, major,
          minor, build);
}
