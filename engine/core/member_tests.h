/*
 * member_tests — the tests written for paths that a merge then took away, kept with the
 * merged state so they can be completed with the symbolic inputs it makes later.
 *
 * A test written when its path is merged holds the inputs made until then. The merged state
 * goes on for that path too, and may make more (klee_make_symbolic after the loop): the
 * test would then not replay. The interpreter completes it when a path of the merged state
 * that made more inputs ends: the member's path condition with that path's, solved for
 * every input (engine/exec/interp.c).
 *
 * Contract
 *   - A list is shared by forks (member_tests_share) and copied on its first change; its
 *     records are shared by every list that holds them, so a test is completed once.
 *   - A record owns references to its member's path condition.
 *   - NULL is the empty list for every function.
 */
#ifndef SYMQ_MEMBER_TESTS_H
#define SYMQ_MEMBER_TESTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"

typedef struct member_test {
  uint32_t test_id;  /* the test written for the member */
  size_t nsymbolics; /* the inputs it holds: the member's, when it was written */
  expr **pc;         /* the member's path condition (references) */
  size_t npc;
  uint32_t refs;
  bool completed; /* rewritten with a later path's inputs */
} member_test;

typedef struct member_tests {
  member_test **items;
  size_t n, cap;
  uint32_t refs;
} member_tests;

member_tests *member_tests_share(member_tests *l);
void member_tests_release(member_tests *l);
/* Adds a record of test test_id, written for a path with condition pc[0..npc) and nsymbolics
 * inputs, to *l. */
void member_tests_add(member_tests **l, uint32_t test_id, expr *const *pc, size_t npc,
                      size_t nsymbolics);
/* Adds from's records that *l does not hold yet. */
void member_tests_take(member_tests **l, const member_tests *from);

#endif
