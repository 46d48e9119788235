/*
 * svcomp — SV-COMP's reachability property (`--svcomp=FILE.prp`; issue 22 item 4): the
 * property file, and the result as SV-COMP tools give it.
 *
 * The only property read is unreach-call, `CHECK( init(main()), LTL(G ! call(reach_error())) )`
 * (whitespace free; `__VERIFIER_error` is the older tasks' name of the same function). Under
 * it only a call of reach_error violates the property: the result is `false(unreach-call)`
 * when a path called it, `true` only when prune_decide's verdict is true (every path ran to
 * its end or was subsumed, nothing concretized, dropped, bounded or lost), and `unknown`
 * otherwise — a path that ended in another error (a memory error, a division by zero,
 * abort) stopped there, so what lies beyond it was not explored.
 *
 * Contract: prune_svcomp_read reads the file once (it is not kept); the result words are
 * static.
 */
#ifndef SYMQ_PRUNE_SVCOMP_H
#define SYMQ_PRUNE_SVCOMP_H

#include <stdbool.h>
#include <stddef.h>

#include "prune/prune.h"

/* Whether the property file at path is unreach-call; false with the reason in err (n bytes)
 * when it cannot be read or asks anything else. */
bool prune_svcomp_read(const char *path, char *err, size_t n);
/* "true", "false(unreach-call)" or "unknown", from the decided stats. */
const char *prune_svcomp_result(const prune_stats *s);

#endif
