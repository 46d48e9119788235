/*
 * interp_stats.c — the interpreter's counters into stats.json (see interp_stats.h).
 */
#include "engine/exec/interp_stats.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/hashmap.h"
#include "engine/core/xalloc.h"

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

/* ---- fork sites ------------------------------------------------------------------------- */

typedef struct fork_site {
  const char *function, *file; /* borrowed from the program */
  uint32_t line;
  uint64_t forks, merged, in_region;
} fork_site;

struct interp_fork_sites {
  hmap index; /* (func + 1) << 32 | line -> position in sites */
  fork_site *sites;
  size_t n, cap;
};

interp_fork_sites *interp_fork_sites_new(void) { return xcalloc(1, sizeof(interp_fork_sites)); }

void interp_fork_sites_free(interp_fork_sites *t) {
  if (!t) return;
  hmap_free(&t->index);
  free(t->sites);
  free(t);
}

void interp_fork_sites_count(interp_fork_sites *t, uint32_t func, const char *function,
                             const char *file, uint32_t line, bool merged, bool in_region) {
  uint64_t key = ((uint64_t)func + 1) << 32 | line, at;
  if (!hmap_get(&t->index, key, &at)) {
    if (t->n == t->cap) {
      t->cap = t->cap ? 2 * t->cap : 32;
      t->sites = xreallocarray(t->sites, t->cap, sizeof *t->sites);
    }
    at = t->n++;
    t->sites[at] = (fork_site){.function = function, .file = file, .line = line};
    hmap_put(&t->index, key, at);
  }
  fork_site *s = &t->sites[at];
  s->forks++;
  s->merged += merged;
  s->in_region += in_region;
}

static int cmp_text(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

/* Most forks first; ties by file, line, function: an order no hash decides. */
static int by_forks(const void *pa, const void *pb) {
  const fork_site *a = pa, *b = pb;
  if (a->forks != b->forks) return a->forks > b->forks ? -1 : 1;
  int c = cmp_text(a->file, b->file);
  if (c) return c;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  return cmp_text(a->function, b->function);
}

void interp_write_fork_sites(json_writer *j, const interp_result *r) {
  const interp_fork_sites *t = r->fork_sites;
  if (!t) return;
  fork_site *sorted = xreallocarray(NULL, t->n ? t->n : 1, sizeof *sorted);
  if (t->n) memcpy(sorted, t->sites, t->n * sizeof *sorted);
  qsort(sorted, t->n, sizeof *sorted, by_forks);
  json_key(j, "fork_sites");
  json_object_begin(j);
  for (size_t k = 0; k < t->n; k++) {
    const fork_site *s = &sorted[k];
    char *key =
        xasprintf("%s:%u %s", s->file ? s->file : "?", s->line, s->function ? s->function : "?");
    json_key(j, key);
    free(key);
    json_object_begin(j);
    JSON_COUNTERS(j, {"forks", s->forks}, {"merged", s->merged}, {"in_region", s->in_region});
    json_object_end(j);
  }
  json_object_end(j);
  free(sorted);
}
