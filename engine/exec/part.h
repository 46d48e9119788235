/*
 * part — one exploration cut into parts that workers run alone (issue 24; Cloud9's prefixes).
 *
 * A path is determined by its fork decisions: at each fork — a branch both of whose sides
 * are feasible, a switch with several feasible targets, and so every bounds check, symbolic
 * pointer or value split made through them — which successor it took (0 the true side, 1 the
 * false side; a switch's case group index, its default last). A part is such a prefix of
 * decisions from the initial state: `symq run --part=FILE` follows it (at each fork on the
 * prefix only the recorded successor lives on; the feasibility queries are the ones the fork
 * asks anyway) and then explores the subtree under it as usual.
 *
 * `symq run --split=N` explores breadth-first until N live states may be handed off, writes
 * one part file per such state (its decisions so far) and ends those states without a test;
 * the others run on in the splitter. A state may not be handed off when one of its decisions
 * split on a value the solver picked (the object of an example address, a pointer's one
 * value): another run's solver may pick another, and the same label would mean another
 * subtree. So the paths the splitter ENDS are its own (their tests are in its output
 * directory) and every other path lies under exactly one part. So the splitter's output and its
 * parts' outputs together hold every path of the single run exactly once. A part can be split again
 * (--part=FILE --split=N): the new prefixes extend FILE's.
 *
 * Merging: regions work in the splitter and in the parts. A state inside a region, or made
 * by a merge (it stands for several paths: no prefix names it), is never handed off: its
 * subtree stays where it is. While a part follows its prefix no region opens
 * (merge_at_branch is not called): the states a region there would merge belong to other
 * parts; regions open as usual under the prefix.
 *
 * The file (text, one item per line):
 *     symq-part 1
 *     program 0123456789abcdef       the program's key (dist_program_key: inputs, options)
 *     decisions K
 *     d1 d2 ... dK                   (absent when K = 0; any blanks between)
 *     check 0123456789abcdef         FNV-1a 64 of every byte above this line
 *
 * Contract
 *   - Every function takes a NULL part_ctx and then does nothing (a run without parts).
 *   - Messages are one line and name the file.
 *   - Not thread-safe; one part_ctx per run.
 */
#ifndef SYMQ_PART_H
#define SYMQ_PART_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/core/state.h"
#include "engine/out/output.h"

typedef struct part_ctx part_ctx;

enum { PART_FORK = -1, PART_MISMATCH = -2 };

/* A context for a program whose key is `program_key` (the part files' `program` line). */
part_ctx *part_new(uint64_t program_key);
void part_free(part_ctx *p);

/* Reads the part file `path` to follow: false, with a one-line message naming the file in
 * err, when it is not a part file, was changed (check), or was made for another program. */
bool part_load(part_ctx *p, const char *path, char *err, size_t err_size);
/* Splits: the run stops once `n` states are live (n ≥ 1). */
void part_set_split(part_ctx *p, uint32_t n);

bool part_splitting(const part_ctx *p);
/* Whether merge regions stay closed now: while splitting or following the prefix. */
bool part_holds_regions(const part_ctx *p);

/* st is at a fork whose feasible successors are labelled choices[0..n) (n ≥ 2). Returns
 * PART_FORK (fork as usual; then part_took for each successor), the position in choices of
 * the one successor the prefix keeps (already recorded), or PART_MISMATCH (the recorded
 * decision is not among them: the part was made for another program; st must end). */
int part_choose(part_ctx *p, state *st, const uint32_t *choices, uint32_t n);
/* child was forked from parent: it shares parent's decisions so far. */
void part_forked(part_ctx *p, const state *parent, state *child);
/* st took the successor labelled `label` at the fork just made. */
void part_took(part_ctx *p, state *st, uint32_t label);
/* st is gone: its decisions are released. */
void part_gone(part_ctx *p, state *st);

/* a and b are the two sides of a fork on a value the solver picked (an example address's
 * object, a pointer's one value): a prefix through it would mean another split in a run
 * whose solver picks another example, so their subtrees stay the splitter's. */
void part_value_fork(part_ctx *p, state *a, state *b);
/* st's path was pinned to a value the solver chose among several (a concretization): the
 * same decisions could mean another subtree in another run, so st and its forks are never
 * handed off. */
void part_value_chosen(part_ctx *p, state *st);
/* st was made by a merge: it and the states forked from it are never handed off. */
void part_merged(part_ctx *p, state *st);
/* Splitting: whether st may be handed to a part (the frontier is not yet handed off, st is
 * in no merge region and was not made by a merge, and no decision of st's depends on a
 * solver's example). */
bool part_may_hand_off(const part_ctx *p, const state *st);
/* Splitting: true once as many of the live states as asked for may be handed off. */
bool part_frontier_full(part_ctx *p, state *const *live, size_t nlive);
/* Splitting: st is handed to a part of its own (call before ending it quietly). */
void part_hand_off(part_ctx *p, const state *st);
/* Splitting: the frontier is handed off; the states left run on in the splitter. */
void part_frontier_done(part_ctx *p);

/* After the run: writes the handed-off prefixes as part-NNNN.part (in the order of their
 * decisions, the tree's depth-first order), numbered from 1. Returns how many, or -1 on an
 * output failure (out_error says which file). */
int part_write_all(part_ctx *p, out_dir *out);
uint32_t part_count(const part_ctx *p);

/* After the run: a one-line message when the prefix could not be followed (a decision that
 * is no successor, or, when `exhausted`, a path that ended inside the prefix), else NULL. */
const char *part_mismatch(part_ctx *p, bool exhausted);

/* The whole file (malloc'd, NUL-terminated, *len bytes), or NULL with errno set: how part
 * files, and the output files symq merge-out reads, are read. */
char *part_read_file(const char *path, size_t *len);

/* FNV-1a 64 of n bytes, continuing from h (start with PART_HASH_START). */
#define PART_HASH_START 0xcbf29ce484222325ULL
uint64_t part_hash(uint64_t h, const void *data, size_t n);

#endif
