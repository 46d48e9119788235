/*
 * test_loops — natural-loop detection on decoded functions: C sources with known loop shapes
 * are compiled with clang-14, decoded, and each source line marked `// L<k>` (in loop k) or
 * `// OUT` is checked against the innermost loop of its block: same k ⇔ same loop, nesting
 * by the loops' parents.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "decode_source.h"
#include "engine/core/ir.h"
#include "merge/loops.h"

static const char source[] =
    "int none(int x) {\n"                                          /* 1 */
    "  return x + 1; // OUT\n"                                     /* 2 */
    "}\n"                                                          /* 3 */
    "int single(int n) {\n"                                        /* 4 */
    "  int s = 0;\n"                                               /* 5 */
    "  for (int i = 0; i < n; i++) // L1\n"                        /* 6 */
    "    s += i; // L1\n"                                          /* 7 */
    "  return s; // OUT\n"                                         /* 8 */
    "}\n"                                                          /* 9 */
    "int nested(int n, int m) {\n"                                 /* 10 */
    "  int s = 0;\n"                                               /* 11 */
    "  for (int i = 0; i < n; i++) { // L1\n"                      /* 12 */
    "    s += i; // L1\n"                                          /* 13 */
    "    for (int j = 0; j < m; j++) // L2\n"                      /* 14 */
    "      s += j; // L2\n"                                        /* 15 */
    "  }\n"                                                        /* 16 */
    "  return s; // OUT\n"                                         /* 17 */
    "}\n"                                                          /* 18 */
    "int exits(const char *p, int n) {\n"                          /* 19 */
    "  int i = 0;\n"                                               /* 20 */
    "  while (i < n) { // L1\n"                                    /* 21 */
    "    if (p[i] == 0) // L1\n"                                   /* 22 */
    "      break; // OUT (its block cannot reach the back edge)\n" /* 23 */
    "    if (p[i] == 1) { i += 2; continue; } // L1\n"             /* 24 */
    "    i++; // L1\n"                                             /* 25 */
    "  }\n"                                                        /* 26 */
    "  return i; // OUT\n"                                         /* 27 */
    "}\n"                                                          /* 28 */
    "int dowhile(int n) {\n"                                       /* 29 */
    "  int i = 0;\n"                                               /* 30 */
    "  do { i++; } while (i < n); // L1\n"                         /* 31 */
    "  return i; // OUT\n"                                         /* 32 */
    "}\n";                                                         /* 33 */

/* The innermost loop of the block holding the last instruction on `line` (on a `for` line
 * the first one is the initialisation, before the loop; the last is the increment). */
static uint32_t loop_at_line(const ir_function *fn, const merge_loops *l, uint32_t line) {
  for (uint32_t k = fn->ninsts; k-- > 0;)
    if (fn->insts[k].line == line) return l->innermost[merge_block_of(fn, k)];
  fprintf(stderr, "no instruction on line %u of %s\n", line, fn->name);
  check_failed++;
  return MERGE_NO_LOOP;
}

/* Checks every marked line of [first, last] in fn: OUT ⇒ no loop; L<k> ⇒ lines with the
 * same k share a loop, different k differ, and L2's loop lies inside L1's. */
static void check_function(const ir_program *p, const char *name, uint32_t nloops, uint32_t first,
                           uint32_t last) {
  const ir_function *fn = &p->funcs[ir_find_function(p, name)];
  merge_loops *l = merge_loops_find(fn);
  CHECK_EQ_U64(l->nloops, nloops);
  uint32_t seen[3] = {MERGE_NO_LOOP, MERGE_NO_LOOP, MERGE_NO_LOOP};
  const char *text = source;
  for (uint32_t line = 1; *text; line++) {
    const char *end = strchr(text, '\n');
    if (line >= first && line <= last) {
      const char *mark = strstr(text, "// ");
      if (mark && mark < end) {
        uint32_t loop = loop_at_line(fn, l, line);
        if (mark[3] == 'O') {
          CHECK_EQ_U64(loop, MERGE_NO_LOOP);
        } else {
          unsigned k = (unsigned)(mark[4] - '0');
          CHECK(loop != MERGE_NO_LOOP);
          if (seen[k] == MERGE_NO_LOOP) seen[k] = loop;
          CHECK_EQ_U64(loop, seen[k]);
        }
      }
    }
    text = end + 1;
  }
  if (seen[1] != MERGE_NO_LOOP && seen[2] != MERGE_NO_LOOP) {
    CHECK(seen[1] != seen[2]);
    CHECK_EQ_U64(l->loops[seen[2]].parent, seen[1]);
    CHECK(l->loops[seen[1]].size > l->loops[seen[2]].size);
    CHECK(merge_loop_contains(l, seen[1], l->loops[seen[2]].header));
  }
  merge_loops_free(l);
}

int main(void) {
  ir_program *p = decode_source("loops.c", source);
  CHECK(p != NULL);
  if (!p) return check_exit();
  check_function(p, "none", 0, 1, 3);
  check_function(p, "single", 1, 4, 9);
  check_function(p, "nested", 2, 10, 18);
  check_function(p, "exits", 1, 19, 28);
  check_function(p, "dowhile", 1, 29, 33);
  /* merge_block_of agrees with the block ranges */
  const ir_function *fn = &p->funcs[ir_find_function(p, "nested")];
  for (uint32_t b = 0; b < fn->nblocks; b++)
    for (uint32_t k = 0; k < fn->blocks[b].count; k++)
      CHECK_EQ_U64(merge_block_of(fn, fn->blocks[b].first + k), b);
  ir_free(p);
  return check_exit();
}
