/*
 * interp_stats.c — the interpreter's counters into stats.json (see interp_stats.h).
 */
#include "engine/exec/interp_stats.h"

void interp_write_path_stats(json_writer *j, const interp_result *r) {
  JSON_COUNTERS(j, {"completed_paths", r->completed_paths}, {"error_paths", r->error_paths},
                {"early_paths", r->early_paths});
  json_key(j, "early_reasons");
  merge_reasons_json(j, r->early_reasons, r->nearly_reasons);
  json_key(j, "dropped_reasons");
  merge_reasons_json(j, r->dropped_reasons, r->ndropped_reasons);
  JSON_COUNTERS(j, {"quiet_paths", r->quiet_paths}, {"tests", r->tests},
                {"tests_lost", r->tests_lost}, {"tests_not_written", r->tests_not_written},
                {"instructions", r->instructions}, {"forks", r->forks},
                {"states_max", r->states_max}, {"concretized", r->concretized},
                {"capacity_bounded", r->capacity_bounded}, {"fast_forwards", r->fast_forwards});
}

void interp_write_end_stats(json_writer *j, const interp_result *r) {
  json_key(j, "exhausted");
  json_bool(j, r->exhausted);
  JSON_COUNTERS(j, {"covered_lines", r->covered_lines}, {"total_lines", r->total_lines});
}
