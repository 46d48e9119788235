/*
 * interp_stats.c — the interpreter's counters into stats.json (see interp_stats.h).
 */
#include "engine/exec/interp_stats.h"

void interp_write_path_stats(json_writer *j, const interp_result *r) {
  json_key_uint(j, "completed_paths", r->completed_paths);
  json_key_uint(j, "error_paths", r->error_paths);
  json_key_uint(j, "early_paths", r->early_paths);
  json_key(j, "early_reasons");
  merge_reasons_json(j, r->early_reasons, r->nearly_reasons);
  json_key(j, "dropped_reasons");
  merge_reasons_json(j, r->dropped_reasons, r->ndropped_reasons);
  json_key_uint(j, "quiet_paths", r->quiet_paths);
  json_key_uint(j, "tests", r->tests);
  json_key_uint(j, "tests_lost", r->tests_lost);
  json_key_uint(j, "tests_not_written", r->tests_not_written);
  json_key_uint(j, "instructions", r->instructions);
  json_key_uint(j, "forks", r->forks);
  json_key_uint(j, "states_max", r->states_max);
  json_key_uint(j, "concretized", r->concretized);
  json_key_uint(j, "capacity_bounded", r->capacity_bounded);
}

void interp_write_end_stats(json_writer *j, const interp_result *r) {
  json_key(j, "exhausted");
  json_bool(j, r->exhausted);
  json_key_uint(j, "covered_lines", r->covered_lines);
  json_key_uint(j, "total_lines", r->total_lines);
}
