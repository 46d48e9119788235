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

#endif
