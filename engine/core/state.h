/*
 * state — one execution state: a call stack of frames with their registers, a memory
 * space, the path condition and the symbolic inputs made so far.
 *
 * Contract
 *   - A state owns a reference to every expression in its registers and path condition,
 *     to every object its frames allocated, and to its symbolic inputs' objects and arrays.
 *   - state_fork copies frames and registers (references) and the path condition, and
 *     clones the memory space and the table of symbolic names in O(1) (each copied on its
 *     first change); forked states never see each other's changes.
 *   - state_claim_name picks a symbolic array's unique name in O(1) amortized (the scheme
 *     is symnames.h's), however many symbolic inputs the path already has.
 *   - Registers start NULL; the decoder guarantees a register is written before it is read
 *     on every path (SSA), so reading NULL is an internal error.
 */
#ifndef SYMQ_STATE_H
#define SYMQ_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/expr.h"
#include "engine/core/member_tests.h"
#include "engine/core/memory.h"
#include "engine/core/symnames.h"

typedef struct state_frame {
  uint32_t func; /* ir function index */
  uint32_t pc;   /* the instruction to execute; the call, while a callee runs */
  expr **regs;   /* nregs, owned references or NULL */
  uint32_t nregs;
  mem_object **allocas; /* the frame's stack objects, unbound when it returns */
  uint32_t nallocas, cap_allocas;
  mem_object *varargs; /* the variadic arguments' area, or NULL */
} state_frame;

typedef struct state_symbolic {
  mem_object *object; /* owned reference */
  expr_array *array;  /* owned reference */
  char *name;         /* as the driver gave it: the ktest object's name */
} state_symbolic;

typedef struct state {
  uint64_t id;
  state_frame *frames;
  uint32_t nframes, cap_frames;
  mem_space *mem;
  expr **pc; /* the path condition: a conjunction */
  size_t npc, cap_pc;
  state_symbolic *symbolics;
  size_t nsymbolics, cap_symbolics;
  symnames *names;             /* the names its symbolic arrays took (shared by forks) */
  uint32_t depth;              /* forks on this path */
  uint64_t instructions;       /* executed on this path */
  uint64_t since_new_coverage; /* instructions since this path last covered a new one */
  uint32_t pointer_forks;      /* objects already split off the access this state re-executes */
  uint32_t lifecycle;          /* the interpreter's start-up/exit step this state is in */
  /* merging (owned by the interpreter; a fork shares its parent's region and leaf) */
  void *region;            /* the merge region this state runs in, or NULL */
  void *leaf;              /* its leaf in the region's execution tree */
  uint32_t prev_block;     /* the block the last edge came from (an exit edge's source) */
  uint32_t manual_nesting; /* merge_begin calls not yet closed inside a manual region */
  bool paused;             /* waiting at a region's exit (not in the searcher) */
  /* pruning by interpolation (owned by prune/prune.h; a fork's are set by prune_forked) */
  void *prune_node;      /* the innermost open node of the execution tree above it, or NULL */
  uint8_t prune_end;     /* how its path ended (prune_end), 0 while it runs */
  bool prune_validating; /* in a subsumed subtree that --validate-interpolation explores */
  /* appended (issue 22, item 3): then, the interpolant its paths must imply (prune.c) */
  void *prune_obligation;
  /* splitting into parts (owned by engine/exec/part.h; NULL unless splitting) */
  void *part_trail; /* its fork decisions so far, shared with its ancestors */
  /* appended (issue 26, region give-up; owned by merge/region.c): `instructions` when it last
   * forked inside a region — equal while it has not run since (a sibling not yet explored) */
  uint64_t merge_forked_at;
  /* appended (issue 26, CFG merges' cost; set by merge/strategy_pat.c, kept by forks): the
   * path went through a CFG merge, so its path condition holds that merge's disjunction — the
   * interpreter tags its queries (qs_effort_split_tag) */
  bool merge_cfg_descendant;
  /* appended (issue 26; set by merge/region.c, state_fork clears it): a merged state's npc at
   * its merge when every member merged into it was one path and wrote its test
   * (--tests-per-merge=all), else 0. While npc is still that, its paths are exactly its
   * members', which their tests cover (merge_path_covered). */
  size_t merge_covered_npc;
  /* appended (issue 26; set by merge/, kept by forks): the state was made by a merge, or forked
   * from one — it holds more than one path, and one test does not cover them */
  bool merge_product;
  /* appended (issue 26, tests of merged paths; added to by merge/, shared by forks): the
   * tests written for the paths merged into it, to complete with the inputs it makes later */
  member_tests *member_tests;
} state;

state *state_new(uint64_t id);
state *state_fork(const state *s, uint64_t id);
void state_free(state *s); /* NULL is allowed */

static inline state_frame *state_top(state *s) { return &s->frames[s->nframes - 1]; }
state_frame *state_push_frame(state *s, uint32_t func, uint32_t nregs);
/* Pops the top frame: unbinds its stack objects from memory and releases its registers. */
void state_pop_frame(state *s);
/* Sets a register, releasing the old value; value is borrowed. */
void state_set_reg(state_frame *f, uint32_t reg, expr *value);
void state_frame_add_alloca(state_frame *f, mem_object *o); /* takes a reference */

/* Adds a conjunct (borrowed; constant true is skipped). */
void state_add_constraint(state *s, expr *c);
void state_add_symbolic(state *s, mem_object *o, expr_array *a, const char *name);
/* The arrays of s's symbolic inputs in order, borrowed, in a new array (free it): what a
 * model of its path condition is asked over. */
expr_array **state_symbolic_arrays(const state *s);
/* A name no symbolic array of the path has, derived from base (malloc'd; symnames.h), now
 * taken by the path. */
char *state_claim_name(state *s, const char *base);

#endif
