/*
 * interp_stats — the interpreter's members of stats.json, written from an interp_result
 * into the JSON object the caller has open (run.c assembles the document; every module
 * writes its own part: qsolver's qs_write_stats, merge's merge_stats_json, ...).
 *
 * Contract
 *   - Each function writes keys and values only, never opens or closes the enclosing
 *     object; the keys, their order and their meaning are part of stats.json's schema
 *     (read by `symq compare`, eval/ and the tests): change them only together.
 *   - The result is borrowed for the duration of the call.
 */
#ifndef SYMQ_INTERP_STATS_H
#define SYMQ_INTERP_STATS_H

#include "engine/core/json.h"
#include "engine/exec/interp.h"

/* The paths and the work: "completed_paths", "error_paths", "early_paths",
 * "early_reasons" ({reason: count}), "dropped_reasons" ({reason: count}), "quiet_paths",
 * "tests", "tests_lost", "instructions", "forks", "states_max", "concretized",
 * "capacity_bounded", "fast_forwards". */
void interp_write_path_stats(json_writer *j, const interp_result *r);

/* How the run ended: "exhausted", "covered_lines", "total_lines". (r->merge is merge's to
 * write: merge_stats_json.) */
void interp_write_end_stats(json_writer *j, const interp_result *r);

/* ---- appended (issue 26): fork sites (--fork-sites) ---------------------------------------
 * Where a run's paths split: per source location of the instruction that forked (a branch, a
 * switch, or a check — bounds, division, overflow, a symbolic pointer's objects), its number
 * of forks, how many of them a merged state made (state.merge_product: made by a merge or
 * forked from one), how many a state inside an open merge region made (the forks a region's
 * merge could take back), and the forks by the calls that led there (the call of the
 * function holding the site and its caller's: which call of strlen, through which wrapper). Counted
 * by interp.c's fork_state when the option is on; deterministic, as the forks are. */
typedef struct interp_fork_sites interp_fork_sites;

/* A source location: function `func` (its id; `function` and `file`, NULL for none, are
 * borrowed from the program, which outlives the table's last write), line `line`. */
typedef struct interp_fork_place {
  uint32_t func, line;
  const char *function, *file;
} interp_fork_place;

/* How many calls up a site's callers go. */
#define INTERP_FORK_CALLERS 2

interp_fork_sites *interp_fork_sites_new(void);
void interp_fork_sites_free(interp_fork_sites *t); /* NULL is allowed */
/* One fork at `at`, in a function called at calls[0], from a function called at calls[1]…
 * (depth of them, at most INTERP_FORK_CALLERS; 0 in the bottom frame). */
void interp_fork_sites_count(interp_fork_sites *t, const interp_fork_place *at,
                             const interp_fork_place *calls, size_t depth, bool merged,
                             bool in_region);
/* "fork_sites": {"FILE:LINE FUNCTION": {"forks", "merged", "in_region", "callers":
 * {"FILE:LINE FUNCTION < FILE:LINE FUNCTION": forks, ...}}, ...}: a caller is the call, then
 * its own caller's when there is one; sites and each site's callers most forks first (ties:
 * file, line, function, then the next call), when r->fork_sites; nothing otherwise. Objects, so
 * that `symq merge-out` sums the parts' counts site by site (its order is then the first part's).
 * Sorts the table in place (its index follows: counting may go on). */
void interp_write_fork_sites(json_writer *j, const interp_result *r);

#endif
