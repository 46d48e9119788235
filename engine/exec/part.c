/*
 * part.c — prefixes of fork decisions: following one, recording them (contract in part.h).
 *
 * While splitting, each state's decisions are a persistent list shared with its ancestors:
 * a fork costs one node per successor, whatever the depth. Following needs no per-state
 * record: on the prefix no fork is made, so exactly one state runs it, and the context's
 * position in the prefix is that state's.
 */
#include "engine/exec/part.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

typedef struct trail {
  uint32_t refs, len, label;
  bool chosen;      /* this or an earlier decision split on a value the solver chose */
  struct trail *up; /* owned reference, NULL at the root */
} trail;

typedef struct prefix {
  uint32_t *labels;
  uint32_t n;
} prefix;

struct part_ctx {
  uint64_t key;
  const char *path; /* the followed file (owned copy), NULL when none */
  uint32_t *follow; /* its decisions */
  uint32_t nfollow; /* how many */
  uint32_t pos;     /* decisions consumed so far */
  bool mismatched;  /* a recorded decision was no successor */
  uint32_t split;   /* 0: not splitting; else the number of live states wanted */
  bool split_done;  /* the frontier is handed off: the splitter runs on alone */
  prefix *handed;   /* the frontier's prefixes */
  size_t nhanded, cap_handed;
  char message[1024];
};

uint64_t part_hash(uint64_t h, const void *data, size_t n) {
  const unsigned char *b = data;
  for (size_t k = 0; k < n; k++) h = (h ^ b[k]) * 0x100000001b3ULL;
  return h;
}

part_ctx *part_new(uint64_t program_key) {
  part_ctx *p = xcalloc(1, sizeof *p);
  p->key = program_key;
  return p;
}

void part_free(part_ctx *p) {
  if (!p) return;
  free((void *)p->path);
  free(p->follow);
  for (size_t k = 0; k < p->nhanded; k++) free(p->handed[k].labels);
  free(p->handed);
  free(p);
}

/* ---- the file ------------------------------------------------------------------------- */

static bool refuse(char *err, size_t size, const char *path, const char *why) {
  snprintf(err, size, "%s: %s", path, why);
  return false;
}

char *part_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *text = NULL;
  size_t n = 0, cap = 0;
  for (;;) {
    if (n + 4096 + 1 > cap) {
      cap = 2 * (n + 4096 + 1);
      text = xrealloc(text, cap);
    }
    size_t got = fread(text + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(text);
    return NULL;
  }
  text[n] = 0;
  *len = n;
  return text;
}

/* The file's text for `labels` (malloc'd). */
static char *format_part(uint64_t key, const prefix *pre, size_t *len) {
  char *text = NULL;
  size_t size = 0;
  const uint32_t *labels = pre->labels;
  uint32_t n = pre->n;
  FILE *f = xopen_memstream(&text, &size);
  fprintf(f, "symq-part 1\nprogram %016" PRIx64 "\ndecisions %" PRIu32 "\n", key, n);
  for (uint32_t k = 0; k < n; k++)
    fprintf(f, "%" PRIu32 "%s", labels[k], k + 1 == n || k % 32 == 31 ? "\n" : " ");
  fflush(f);
  uint64_t check = part_hash(PART_HASH_START, text, size);
  fprintf(f, "check %016" PRIx64 "\n", check);
  fclose(f);
  *len = size;
  return text;
}

bool part_load(part_ctx *p, const char *path, char *err, size_t err_size) {
  size_t len;
  char *text = part_read_file(path, &len);
  if (!text) {
    char why[300];
    snprintf(why, sizeof why, "cannot read the part file: %s", strerror(errno));
    return refuse(err, err_size, path, why);
  }
  bool ok = false;
  char *check_line = strstr(text, "\ncheck ");
  uint64_t key = 0, check = 0;
  unsigned long n = 0;
  int used = 0;
  if (strncmp(text, "symq-part 1\n", 12) != 0) {
    refuse(err, err_size, path, "not a symq part file, version 1 (its first line)");
  } else if (!check_line || strlen(text) != len ||
             sscanf(check_line + 1, "check %16" SCNx64 "%n", &check, &used) != 1 ||
             strcmp(check_line + 1 + used, "\n") != 0) {
    refuse(err, err_size, path, "not a whole part file (no check line at its end)");
  } else if (part_hash(PART_HASH_START, text, (size_t)(check_line + 1 - text)) != check) {
    refuse(err, err_size, path, "the part file was changed after it was written (check)");
  } else if (sscanf(text + 12, "program %16" SCNx64 "\ndecisions %lu%n", &key, &n, &used) != 2 ||
             n > UINT32_MAX) {
    refuse(err, err_size, path, "bad program or decisions line");
  } else if (key != p->key) {
    char why[200];
    snprintf(why, sizeof why,
             "the part was made for another program or options (program %016" PRIx64
             ", this run's is %016" PRIx64 ")",
             key, p->key);
    refuse(err, err_size, path, why);
  } else {
    uint32_t *labels = xrealloc(NULL, (n ? n : 1) * sizeof *labels);
    char *at = text + 12 + used;
    *check_line = 0;
    uint32_t k = 0;
    for (; k < n; k++) {
      char *end;
      errno = 0;
      unsigned long v = strtoul(at, &end, 10);
      if (end == at || errno || v > UINT32_MAX) break;
      labels[k] = (uint32_t)v;
      at = end;
    }
    while (*at == ' ' || *at == '\n') at++;
    if (k != n || *at) {
      free(labels);
      refuse(err, err_size, path, "its decisions are not the number the file says");
    } else {
      p->follow = labels;
      p->nfollow = (uint32_t)n;
      p->path = xstrdup(path);
      ok = true;
    }
  }
  free(text);
  return ok;
}

void part_set_split(part_ctx *p, uint32_t n) {
  assert(n >= 1);
  if (p) p->split = n;
}

bool part_splitting(const part_ctx *p) { return p && p->split; }

static bool following(const part_ctx *p) { return p && p->pos < p->nfollow; }

bool part_holds_regions(const part_ctx *p) { return following(p); }

/* ---- decisions ------------------------------------------------------------------------ */

static void trail_release(trail *t) {
  while (t && --t->refs == 0) {
    trail *up = t->up;
    free(t);
    t = up;
  }
}

void part_took(part_ctx *p, state *st, uint32_t label) {
  if (!p || !p->split) return;
  trail *up = st->part_trail;
  trail *t = xcalloc(1, sizeof *t);
  *t = (trail){
      .refs = 1, .len = up ? up->len + 1 : 1, .label = label, .chosen = up && up->chosen, .up = up};
  st->part_trail = t; /* the state's reference to up passes to t */
}

int part_choose(part_ctx *p, state *st, const uint32_t *choices, uint32_t n) {
  if (!following(p)) return PART_FORK;
  uint32_t want = p->follow[p->pos];
  for (uint32_t k = 0; k < n; k++) {
    if (choices[k] == want) {
      p->pos++;
      part_took(p, st, want);
      return (int)k;
    }
  }
  if (!p->mismatched)
    snprintf(p->message, sizeof p->message,
             "%s: decision %" PRIu32 " of the part (%" PRIu32
             ") is no successor of the fork there: the part was made for another program",
             p->path, p->pos + 1, want);
  p->mismatched = true;
  p->pos = p->nfollow; /* nothing more to follow: the run ends with st */
  return PART_MISMATCH;
}

void part_forked(part_ctx *p, const state *parent, state *child) {
  if (!p || !p->split) return;
  trail *t = parent->part_trail;
  if (t) t->refs++;
  child->part_trail = t;
}

void part_gone(part_ctx *p, state *st) {
  if (!p) return;
  trail_release(st->part_trail);
  st->part_trail = NULL;
}

void part_value_fork(part_ctx *p, state *a, state *b) {
  if (!p || !p->split) return;
  trail *ta = a->part_trail, *tb = b->part_trail;
  assert(ta && tb && ta->refs == 1 && tb->refs == 1 && "the fork's own decisions");
  ta->chosen = tb->chosen = true;
}

void part_value_chosen(part_ctx *p, state *st) {
  trail *t = st->part_trail;
  if (!p || !p->split || (t && t->chosen)) return;
  trail *copy = xcalloc(1, sizeof *copy); /* t may be a sibling's too: st's own copy */
  if (t) *copy = *t;
  copy->refs = 1;
  copy->chosen = true;
  if (copy->up) copy->up->refs++;
  trail_release(t);
  st->part_trail = copy;
}

void part_merged(part_ctx *p, state *st) {
  if (!p || !p->split) return;
  trail_release(st->part_trail);
  trail *t = xcalloc(1, sizeof *t);
  *t = (trail){.refs = 1, .chosen = true};
  st->part_trail = t;
}

bool part_may_hand_off(const part_ctx *p, const state *st) {
  const trail *t = st->part_trail;
  return p && p->split && !p->split_done && !(t && t->chosen) && !st->region && !st->paused;
}

bool part_frontier_full(part_ctx *p, state *const *live, size_t nlive) {
  if (!p || !p->split || p->split_done || following(p) || nlive < p->split) return false;
  size_t n = 0;
  for (size_t k = 0; k < nlive; k++) n += part_may_hand_off(p, live[k]);
  return n >= p->split;
}

void part_hand_off(part_ctx *p, const state *st) {
  assert(part_may_hand_off(p, st));
  const trail *t = st->part_trail;
  prefix pre = {.n = t ? t->len : 0};
  pre.labels = xrealloc(NULL, (pre.n ? pre.n : 1) * sizeof *pre.labels);
  for (uint32_t k = pre.n; t; t = t->up) pre.labels[--k] = t->label;
  if (p->nhanded == p->cap_handed) {
    p->cap_handed = p->cap_handed ? 2 * p->cap_handed : 16;
    p->handed = xrealloc(p->handed, p->cap_handed * sizeof *p->handed);
  }
  p->handed[p->nhanded++] = pre;
}

void part_frontier_done(part_ctx *p) {
  if (p) p->split_done = true;
}

/* Lexicographic, a prefix first: the depth-first order of the tree. */
static int by_decisions(const void *a, const void *b) {
  const prefix *x = a, *y = b;
  for (uint32_t k = 0; k < x->n && k < y->n; k++)
    if (x->labels[k] != y->labels[k]) return x->labels[k] < y->labels[k] ? -1 : 1;
  return (x->n > y->n) - (x->n < y->n);
}

int part_write_all(part_ctx *p, out_dir *out) {
  if (!p || !p->split) return 0;
  if (p->nhanded) qsort(p->handed, p->nhanded, sizeof *p->handed, by_decisions);
  for (size_t k = 0; k < p->nhanded; k++) {
    size_t len;
    char *text = format_part(p->key, &p->handed[k], &len);
    char name[64];
    snprintf(name, sizeof name, "part-%04zu.part", k + 1);
    int rc = out_write_file(out, name, text, len);
    free(text);
    if (rc != 0) return -1;
  }
  return (int)p->nhanded;
}

uint32_t part_count(const part_ctx *p) { return p ? (uint32_t)p->nhanded : 0; }

const char *part_mismatch(part_ctx *p, bool exhausted) {
  if (!p || !p->path) return NULL;
  if (p->mismatched) return p->message;
  if (p->pos < p->nfollow && exhausted) {
    snprintf(p->message, sizeof p->message,
             "%s: the path ended after %" PRIu32 " of the part's %" PRIu32
             " decisions: the part was made for another program",
             p->path, p->pos, p->nfollow);
    return p->message;
  }
  return NULL;
}
