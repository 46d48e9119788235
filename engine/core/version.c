#include "engine/core/version.h"

#include <llvm/Config/llvm-config.h>
#include <z3.h>

/* symq's asserts are its internal checks and stay on in every build (CMakeLists.txt strips
 * -DNDEBUG): without them a broken invariant becomes a wrong verdict instead of a stop. */
#ifdef NDEBUG
#error "symq must be built without -DNDEBUG: its internal checks (assert) stay on"
#endif

void symq_print_version(FILE *f) {
  unsigned major, minor, build, revision;
  Z3_get_version(&major, &minor, &build, &revision);
  fprintf(f, "symq %s (LLVM %s, Z3 %u.%u.%u)\n", SYMQ_VERSION, LLVM_VERSION_STRING, major, minor,
          build);
}
