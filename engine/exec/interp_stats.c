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

typedef struct fork_caller {
  interp_fork_place at[INTERP_FORK_CALLERS]; /* the call, then its caller's */
  size_t depth;                              /* how many of them there are: 1.. */
  uint64_t forks;
} fork_caller;

typedef struct fork_site {
  interp_fork_place at;
  uint64_t forks, merged, in_region;
  fork_caller *callers; /* in order of first fork; few per site, so searched in line */
  size_t ncallers, cap_callers;
} fork_site;

struct interp_fork_sites {
  hmap index; /* site_key -> position in sites */
  fork_site *sites;
  size_t n, cap;
};

interp_fork_sites *interp_fork_sites_new(void) { return xcalloc(1, sizeof(interp_fork_sites)); }

void interp_fork_sites_free(interp_fork_sites *t) {
  if (!t) return;
  hmap_free(&t->index);
  for (size_t k = 0; k < t->n; k++) free(t->sites[k].callers);
  free(t->sites);
  free(t);
}

/* A site's key in the index: (func + 1) << 32 | line. */
static uint64_t site_key(const interp_fork_place *at) {
  return ((uint64_t)at->func + 1) << 32 | at->line;
}

static bool same_calls(const fork_caller *c, const interp_fork_place *calls, size_t depth) {
  if (c->depth != depth) return false;
  for (size_t k = 0; k < depth; k++)
    if (c->at[k].func != calls[k].func || c->at[k].line != calls[k].line) return false;
  return true;
}

static void count_caller(fork_site *s, const interp_fork_place *calls, size_t depth) {
  for (size_t k = 0; k < s->ncallers; k++) {
    if (same_calls(&s->callers[k], calls, depth)) {
      s->callers[k].forks++;
      return;
    }
  }
  if (s->ncallers == s->cap_callers) {
    s->cap_callers = s->cap_callers ? 2 * s->cap_callers : 4;
    s->callers = xreallocarray(s->callers, s->cap_callers, sizeof *s->callers);
  }
  fork_caller *c = &s->callers[s->ncallers++];
  *c = (fork_caller){.depth = depth, .forks = 1};
  memcpy(c->at, calls, depth * sizeof *calls);
}

void interp_fork_sites_count(interp_fork_sites *t, const interp_fork_place *at,
                             const interp_fork_place *calls, size_t depth, bool merged,
                             bool in_region) {
  assert(depth <= INTERP_FORK_CALLERS);
  uint64_t key = site_key(at), pos;
  if (!hmap_get(&t->index, key, &pos)) {
    if (t->n == t->cap) {
      t->cap = t->cap ? 2 * t->cap : 32;
      t->sites = xreallocarray(t->sites, t->cap, sizeof *t->sites);
    }
    pos = t->n++;
    t->sites[pos] = (fork_site){.at = *at};
    hmap_put(&t->index, key, pos);
  }
  fork_site *s = &t->sites[pos];
  s->forks++;
  s->merged += merged;
  s->in_region += in_region;
  if (depth) count_caller(s, calls, depth);
}

static int cmp_text(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

/* Most forks first; ties by file, line, function: an order no hash decides. */
static int by_forks(uint64_t fa, const interp_fork_place *a, uint64_t fb,
                    const interp_fork_place *b) {
  if (fa != fb) return fa > fb ? -1 : 1;
  int c = cmp_text(a->file, b->file);
  if (c) return c;
  if (a->line != b->line) return a->line < b->line ? -1 : 1;
  return cmp_text(a->function, b->function);
}

static int sites_by_forks(const void *pa, const void *pb) {
  const fork_site *a = pa, *b = pb;
  return by_forks(a->forks, &a->at, b->forks, &b->at);
}

/* ties: by the call, then by its caller's (none first) */
static int callers_by_forks(const void *pa, const void *pb) {
  const fork_caller *a = pa, *b = pb;
  int c = by_forks(a->forks, &a->at[0], b->forks, &b->at[0]);
  for (size_t k = 1; !c && k < INTERP_FORK_CALLERS; k++) {
    if (a->depth <= k || b->depth <= k) return a->depth < b->depth ? -1 : a->depth > b->depth;
    c = by_forks(0, &a->at[k], 0, &b->at[k]);
  }
  return c;
}

/* "FILE:LINE FUNCTION", each place of `at` in turn, joined by " < " */
static void places_key(json_writer *j, const interp_fork_place *at, size_t n) {
  char *key = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&key, &len);
  for (size_t k = 0; k < n; k++)
    fprintf(f, "%s%s:%u %s", k ? " < " : "", at[k].file ? at[k].file : "?", at[k].line,
            at[k].function ? at[k].function : "?");
  fclose(f);
  json_key(j, key);
  free(key);
}

void interp_write_fork_sites(json_writer *j, const interp_result *r) {
  interp_fork_sites *t = r->fork_sites;
  if (!t) return;
  /* sorted in place, the index rebuilt */
  qsort(t->sites, t->n, sizeof *t->sites, sites_by_forks);
  hmap_clear(&t->index);
  for (size_t k = 0; k < t->n; k++) hmap_put(&t->index, site_key(&t->sites[k].at), k);
  json_key(j, "fork_sites");
  json_object_begin(j);
  for (size_t k = 0; k < t->n; k++) {
    fork_site *s = &t->sites[k];
    places_key(j, &s->at, 1);
    json_object_begin(j);
    JSON_COUNTERS(j, {"forks", s->forks}, {"merged", s->merged}, {"in_region", s->in_region});
    qsort(s->callers, s->ncallers, sizeof *s->callers, callers_by_forks);
    json_key(j, "callers");
    json_object_begin(j);
    for (size_t c = 0; c < s->ncallers; c++) {
      places_key(j, s->callers[c].at, s->callers[c].depth);
      json_uint(j, s->callers[c].forks);
    }
    json_object_end(j);
    json_object_end(j);
  }
  json_object_end(j);
}
