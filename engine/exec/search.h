/*
 * search — the searcher: which execution state runs next, with KLEE's strategies and names.
 *
 * States are opaque `void *` to this module; the interpreter reports every state that starts
 * (search_add_initial), forks (search_fork) and ends (search_remove), and asks for the next
 * one to run (search_select). Strategies (the `--search` names):
 *
 *   dfs           the most recently added state; after a fork the new child runs next.
 *   bfs           the oldest state; a state that forks moves to the back, its children
 *                 after it, so the exploration advances level by level.
 *   random-state  uniform over the live states.
 *   random-path   KLEE's process-tree walk: from the root of the tree of forks, a fair coin
 *                 at every fork that still has live states on both sides. A state's chance
 *                 is 2^-(live forks on its path), so shallow states are favoured. O(depth).
 *                 A second initial state and the tree so far become the two sides of a new
 *                 root (KLEE has only one).
 *   nurs:covnew   (alias "covnew") random, in proportion to a weight the interpreter computes
 *                 (hooks.weight; KLEE's covnew weight). Weights are read when a state is
 *                 added or forks (the parent too) and when the interpreter says so
 *                 (search_update, search_update_weights) — never by select. A weight that is
 *                 NaN or ≤ 0 counts as 0 and is never picked while another state weighs more;
 *                 if all weigh 0 the choice is uniform. Weights above 1e200 count as 1e200.
 *
 * Fast-forwarding (dynamic state merging, Kuznetsov et al., PLDI 2012): the interpreter marks
 * the states that are about to reach a point where similar states wait or will wait for
 * them (search_fast_forward), with a key naming the point (for merging: the merge region
 * the state runs in, see merge_fast_forward in merge/region.h). While marked states exist,
 * select takes one of the smallest key (the oldest region: regions are finished in the
 * order they opened, so few hold states at once), among those the most recently marked (a
 * fork's child marked after its parent comes first: a region's states run depth-first, as
 * under dfs) — for at most `delta` selections in a row (search_set_fast_forward); the next
 * selection is the underlying searcher's, which sees every state, marked or not, as it would
 * without marks. So no state starves, and covnew or random-path keep steering at least one
 * selection in delta + 1. delta 0 (the default) ignores the marks. A searcher made of dfs
 * alone ignores them too: its newest state already is a running region member whenever one
 * exists (dfs is unchanged).
 *
 * Several kinds make an interleaved searcher (KLEE's repeated `--search`): the selections go
 * round-robin through the kinds in the order given, and every one sees every add, fork and
 * remove. KLEE's default, when no `--search` is given, is {random-path, nurs:covnew}.
 *
 * Contract
 *   - Deterministic: the same calls with the same seed give the same selections on every
 *     run and machine (state addresses never influence a choice).
 *   - A fork's parent keeps running (KLEE: the true side) and the child is new (the false
 *     side). Several forks of one parent with no select or remove in between count as one
 *     multi-way fork (a switch): for bfs the parent moves to the back once, children after.
 *   - A state is added once and removed once, and any live state may be removed. Removing,
 *     forking or updating a state that is not live, or adding one twice, is an interpreter
 *     bug: symq stops with an internal error (in every build, not only with assertions).
 *   - Cost: add, fork, remove, select and search_update are O(1) or O(log n) amortised, except
 *     random-path select, O(depth of the tree of live forks); search_update_weights is O(n).
 *   - The weight hook is called with the searcher mid-update: it must not call back into it.
 *   - Out of memory ends the run in xalloc_oom. Not thread-safe.
 */
#ifndef SYMQ_SEARCH_H
#define SYMQ_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef enum search_kind {
  SEARCH_DFS,
  SEARCH_BFS,
  SEARCH_RANDOM_STATE,
  SEARCH_RANDOM_PATH,
  SEARCH_COVNEW,
} search_kind;
#define SEARCH_NUM_KINDS 5

/* What the searcher records about a state (search_info returns it). depth: forks on the
 * state's path; a fork sets the parent's recorded depth to the child's (both sides of a
 * branch are one deeper). */
typedef struct search_state_info {
  uint64_t id;
  uint32_t depth;
} search_state_info;

typedef struct search_hooks {
  double (*weight)(void *state, void *ctx); /* nurs:covnew; NULL: every state weighs 1 */
  void *ctx;
} search_hooks;

typedef struct search_stats {
  uint64_t selects; /* non-NULL selections */
  uint64_t adds;    /* initial states */
  uint64_t forks;
  uint64_t removes;
  uint64_t weight_reads;  /* calls of hooks.weight */
  uint64_t peak_states;   /* most states live at once */
  uint64_t fast_forwards; /* selections of a marked state by fast-forwarding */
} search_stats;

typedef struct search search;

/* `--search` names: "dfs", "bfs", "random-state", "random-path", "nurs:covnew", "covnew".
 * Exact (case-sensitive) match; false for anything else, *out then untouched. */
bool search_parse(const char *name, search_kind *out);
const char *search_kind_name(search_kind kind); /* the canonical name ("nurs:covnew") */

/* kinds[0..n_kinds), n_kinds ≥ 1; one kind is a plain searcher, more are interleaved. hooks
 * is copied (NULL: no hooks). Never returns NULL. */
search *search_new(const search_kind *kinds, size_t n_kinds, uint64_t seed,
                   const search_hooks *hooks);
void search_free(search *s); /* NULL is allowed; the states themselves are not touched */

void search_add_initial(search *s, void *state, search_state_info info);
void search_fork(search *s, void *parent, void *child, search_state_info child_info);
void search_remove(search *s, void *state);
void *search_select(search *s); /* the state to run next; NULL when there is none */
size_t search_count(const search *s);

/* The weight of `state` may have changed (call it for the state that just ran): re-read it.
 * search_update_weights: every weight may have changed (new coverage): re-read them all. */
void search_update(search *s, void *state);
void search_update_weights(search *s);

/* Fast-forwarding (above): at most delta selections in a row of marked states; 0: off. */
void search_set_fast_forward(search *s, uint32_t delta);
/* Marks a live state with key (≥ 1), or unmarks it (0). Marking a state again with its key
 * keeps its place (it is not made the most recent); a removed state loses its mark. O(1)
 * amortised, plus a walk over the groups of larger keys when a key is first used after
 * them (keys are expected mostly ascending). */
void search_fast_forward(search *s, void *state, uint64_t key);

/* NULL when the state is not live; the pointer is valid until the next add or fork. */
const search_state_info *search_info(const search *s, const void *state);
const search_stats *search_get_stats(const search *s);

/* Verifies every internal structure against the others (O(n)); prints the first
 * inconsistency to stderr and returns false. For tests. */
bool search_check(const search *s);

#endif
