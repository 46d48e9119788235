/*
 * symnames — the unique names of one path's symbolic arrays, chosen in O(1) amortized.
 *
 * A driver names its inputs (klee_make_symbolic's third argument, "int" for every
 * __VERIFIER_nondet_int); two arrays of one path must not share a name, so the k-th
 * clash gets a suffix. The scheme, which array names (expression dumps, SMT logs) show:
 * a request for BASE gets the first of BASE, BASE_1, BASE_2, … (decimal, no leading zero)
 * that no earlier array of the path was given — a user's own "x_1" counts as taken for
 * BASE "x", and a clash on "x_1" itself gets "x_1_1".
 *
 * Contract
 *   - symnames_claim returns that name (malloc'd, the caller frees it) and records it as
 *     taken. Cost: O(1) hash probes amortized per claim, whatever the number of names
 *     already taken — a per-BASE counter of the first suffix not yet known to be taken
 *     (names are only ever added, so every suffix below it stays taken); each taken name
 *     is skipped at most twice over the table's life (once as BASE_k of its BASE, once as
 *     the suffix-0 candidate of itself), so probes <= claims + 2 x names.
 *   - Copy-on-write: symnames_share (a forked state) is O(1); the first claim on a shared
 *     table gives the claimant a private copy (O(names)), the other holders keep theirs.
 *   - symnames_probes counts the candidate names looked up by claims on this table and
 *     the tables it was copied from (the test of the O(1) bound counts them).
 *   - Not thread-safe (a table shared by forks is shared by one interpreter).
 */
#ifndef SYMQ_SYMNAMES_H
#define SYMQ_SYMNAMES_H

#include <stdint.h>

typedef struct symnames symnames;

symnames *symnames_new(void);
symnames *symnames_share(symnames *t); /* another holder of t; returns t */
void symnames_release(symnames *t);    /* NULL is allowed */

/* The unique name for base (see above), now taken in *t; *t may be replaced by a private
 * copy when shared. */
char *symnames_claim(symnames **t, const char *base);

uint64_t symnames_probes(const symnames *t);

#endif
