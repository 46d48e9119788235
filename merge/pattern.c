/* pattern.c — regular patterns over leaf words, matched with PCRE2 (contract in pattern.h). */
#define PCRE2_CODE_UNIT_WIDTH 32
#include "merge/pattern.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/expr.h"
#include "engine/core/xalloc.h"

/* PCRE2's backtracking is bounded so that a long word without structure costs a bounded
 * amount of work; a search that hits the bound finds no square (fewer candidates, never a
 * wrong one: every candidate is checked by a full match). */
enum { MATCH_LIMIT = 2000000 };

/* ---- regex text ------------------------------------------------------------------------- */

typedef struct text {
  PCRE2_UCHAR32 *s;
  size_t len, cap;
} text;

static void put(text *t, const char *ascii) {
  for (; *ascii; ascii++) {
    if (t->len == t->cap) t->s = xrealloc(t->s, (t->cap = 2 * t->cap + 64) * sizeof *t->s);
    t->s[t->len++] = (PCRE2_UCHAR32)(unsigned char)*ascii;
  }
}

/* Each symbol as an escape, so that no code unit is ever read as a metacharacter. */
static void put_symbols(text *t, const uint32_t *sym, size_t n) {
  char buf[24];
  for (size_t k = 0; k < n; k++) {
    snprintf(buf, sizeof buf, "\\x{%x}", (unsigned)sym[k]);
    put(t, buf);
  }
}

static pcre2_code_32 *compile(const text *t) {
  int error;
  PCRE2_SIZE offset;
  pcre2_code_32 *code = pcre2_compile_32(t->s, t->len, PCRE2_DOTALL, &error, &offset, NULL);
  if (!code) { /* the regexes are built here from escapes: an error is a bug */
    PCRE2_UCHAR32 message[128];
    pcre2_get_error_message_32(error, message, 128);
    char ascii[128];
    size_t k = 0;
    for (; k + 1 < sizeof ascii && message[k]; k++) ascii[k] = (char)message[k];
    ascii[k] = 0;
    fprintf(stderr, "symq: internal error: PCRE2: %s at %zu\n", ascii, (size_t)offset);
    abort();
  }
  return code;
}

typedef struct matcher {
  pcre2_code_32 *code;
  pcre2_match_data_32 *data;
  pcre2_match_context_32 *context;
} matcher;

static void matcher_init(matcher *m, const text *t) {
  m->code = compile(t);
  m->data = pcre2_match_data_create_from_pattern_32(m->code, NULL);
  m->context = pcre2_match_context_create_32(NULL);
  if (!m->data || !m->context) xalloc_oom();
  pcre2_set_match_limit_32(m->context, MATCH_LIMIT);
}

static void matcher_free(matcher *m) {
  pcre2_match_data_free_32(m->data);
  pcre2_match_context_free_32(m->context);
  pcre2_code_free_32(m->code);
}

/* Runs m on w; on a match returns true with the ovector. */
static bool run(const matcher *m, const uint32_t *w, size_t len, PCRE2_SIZE **ovector) {
  int rc = pcre2_match_32(m->code, (PCRE2_SPTR32)w, len, 0, 0, m->data, m->context);
  if (rc < 0) return false; /* no match, or the match limit */
  *ovector = pcre2_get_ovector_pointer_32(m->data);
  return true;
}

/* ---- patterns ----------------------------------------------------------------------------- */

static void pattern_set(pat_pattern *p, const uint32_t *pre, size_t np, const uint32_t *core,
                        size_t nc, const uint32_t *suf, size_t ns) {
  p->sym = xmalloc((np + nc + ns + 1) * sizeof *p->sym);
  if (np) memcpy(p->sym, pre, np * sizeof *pre); /* an empty part may be NULL */
  if (nc) memcpy(p->sym + np, core, nc * sizeof *core);
  if (ns) memcpy(p->sym + np + nc, suf, ns * sizeof *suf);
  p->nprefix = np, p->ncore = nc, p->nsuffix = ns;
}

void pat_pattern_free(pat_pattern *p) {
  free(p->sym);
  p->sym = NULL;
}

static bool same_pattern(const pat_pattern *a, const pat_pattern *b) {
  return a->nprefix == b->nprefix && a->ncore == b->ncore && a->nsuffix == b->nsuffix &&
         memcmp(a->sym, b->sym, (a->nprefix + a->ncore + a->nsuffix) * sizeof *a->sym) == 0;
}

static void square_regex(matcher *m) {
  text t = {0};
  put(&t, "^(.*?)((.+?)\\3+)(.*)$");
  matcher_init(m, &t);
  free(t.s);
}

static bool square_with(const matcher *m, const uint32_t *w, size_t len, bool reversed,
                        pat_pattern *out, uint64_t *count) {
  uint32_t *subject = xmalloc((len + 1) * sizeof *subject);
  for (size_t k = 0; k < len; k++) subject[k] = reversed ? w[len - 1 - k] : w[k];
  PCRE2_SIZE *ov;
  bool found = run(m, subject, len, &ov);
  if (found) {
    size_t np = ov[3], nc = ov[7] - ov[6], ncopies = (ov[5] - ov[4]) / nc;
    size_t ns = len - ov[5];
    *count = ncopies;
    if (!reversed) {
      pattern_set(out, w, np, w + np, nc, w + ov[5], ns);
    } else {                      /* reversed: the block runs backwards, prefix and suffix swap */
      size_t start = len - ov[5]; /* where the copies begin in w */
      pattern_set(out, w, ns, w + start, nc, w + start + ncopies * nc, np);
    }
  }
  free(subject);
  return found;
}

bool pat_find_square(const uint32_t *w, size_t len, bool reversed, pat_pattern *out,
                     uint64_t *count) {
  matcher m;
  square_regex(&m);
  bool found = square_with(&m, w, len, reversed, out, count);
  matcher_free(&m);
  return found;
}

/* ^p((?:u)*)s$ */
static void pattern_matcher(matcher *m, const pat_pattern *p) {
  text t = {0};
  put(&t, "^");
  put_symbols(&t, p->sym, p->nprefix);
  put(&t, "(");
  if (p->ncore) {
    put(&t, "(?:");
    put_symbols(&t, p->sym + p->nprefix, p->ncore);
    put(&t, ")*");
  }
  put(&t, ")");
  put_symbols(&t, p->sym + p->nprefix + p->ncore, p->nsuffix);
  put(&t, "$");
  matcher_init(m, &t);
  free(t.s);
}

static bool match_with(const matcher *m, const pat_pattern *p, const uint32_t *w, size_t len,
                       uint64_t *count) {
  PCRE2_SIZE *ov;
  if (!run(m, w, len, &ov)) return false;
  *count = p->ncore ? (ov[3] - ov[2]) / p->ncore : 0;
  return true;
}

bool pat_matches(const pat_pattern *p, const uint32_t *w, size_t len, uint64_t *count) {
  matcher m;
  pattern_matcher(&m, p);
  bool ok = match_with(&m, p, w, len, count);
  matcher_free(&m);
  return ok;
}

/* ---- partitioning ------------------------------------------------------------------------ */

typedef struct candidates {
  pat_pattern *p;
  size_t n, cap;
} candidates;

/* Adds p (taking its symbols) unless an equal one is there. */
static void add_candidate(candidates *c, pat_pattern *p) {
  for (size_t k = 0; k < c->n; k++)
    if (same_pattern(&c->p[k], p)) {
      pat_pattern_free(p);
      return;
    }
  if (c->n == c->cap) c->p = xrealloc(c->p, (c->cap = 2 * c->cap + 8) * sizeof *c->p);
  c->p[c->n++] = *p;
}

/* P·S and P·X·S (a the shorter) unify into (P, X, S). */
static bool unify(const pat_word *a, const pat_word *b, pat_pattern *out) {
  if (a->len > b->len) {
    const pat_word *t = a;
    a = b, b = t;
  }
  if (a->len == b->len) return false;
  size_t np = 0;
  while (np < a->len && a->sym[np] == b->sym[np]) np++;
  size_t ns = a->len - np, nx = b->len - a->len;
  if (memcmp(a->sym + np, b->sym + np + nx, ns * sizeof *a->sym) != 0) return false;
  pattern_set(out, a->sym, np, b->sym + np, nx, a->sym + np, ns);
  return true;
}

pat_status pat_partition(const pat_word *words, size_t n, pat_limits limits,
                         pat_partitioning *out) {
  memset(out, 0, sizeof *out);
  candidates c = {0};
  matcher square;
  square_regex(&square);
  bool *has_square = xcalloc(n + 1, sizeof *has_square);
  for (size_t j = 0; j < n; j++)
    for (int reversed = 0; reversed < 2; reversed++) {
      pat_pattern p;
      uint64_t count;
      if (square_with(&square, words[j].sym, words[j].len, reversed, &p, &count)) {
        add_candidate(&c, &p);
        has_square[j] = true;
      }
    }
  matcher_free(&square);
  out->ncandidates = c.n;
  pat_status status = PAT_PARTITIONED;
  if (c.n > limits.max_candidates) status = PAT_TOO_MANY_CANDIDATES;

  /* which candidate matches which word, with which count */
  bool *matched = NULL;
  uint64_t *counts = NULL;
  size_t nmatched_rows = 0;
  for (int round = 0; round < 2 && status == PAT_PARTITIONED; round++) {
    matched = xrealloc(matched, (c.n * n + 1) * sizeof *matched);
    counts = xrealloc(counts, (c.n * n + 1) * sizeof *counts);
    for (size_t k = nmatched_rows; k < c.n; k++) {
      matcher m;
      pattern_matcher(&m, &c.p[k]);
      for (size_t j = 0; j < n; j++)
        matched[k * n + j] =
            match_with(&m, &c.p[k], words[j].sym, words[j].len, &counts[k * n + j]);
      matcher_free(&m);
    }
    nmatched_rows = c.n;
    if (round == 1) break;
    /* unification of the words nothing matches yet */
    size_t before = c.n;
    for (size_t a = 0; a < n; a++) {
      bool placed = false;
      for (size_t k = 0; k < before && !placed; k++) placed = matched[k * n + a];
      if (placed || has_square[a]) continue;
      for (size_t b = a + 1; b < n; b++) {
        bool b_placed = false;
        for (size_t k = 0; k < before && !b_placed; k++) b_placed = matched[k * n + b];
        pat_pattern p;
        if (!b_placed && !has_square[b] && unify(&words[a], &words[b], &p)) add_candidate(&c, &p);
      }
    }
    if (c.n == before) break;
  }

  if (status == PAT_PARTITIONED) {
    out->pattern_of = xmalloc((n + 1) * sizeof *out->pattern_of);
    out->count = xcalloc(n + 1, sizeof *out->count);
    bool *placed = xcalloc(n + 1, sizeof *placed);
    bool *used = xcalloc(c.n + 1, sizeof *used);
    size_t left = n;
    while (left > 0) {
      size_t best = c.n, best_hits = 0;
      for (size_t k = 0; k < c.n; k++) {
        size_t hits = 0;
        for (size_t j = 0; j < n; j++) hits += !placed[j] && matched[k * n + j];
        if (hits > best_hits) best = k, best_hits = hits;
      }
      if (best == c.n) break;
      size_t index = out->npatterns++;
      out->patterns = xrealloc(out->patterns, out->npatterns * sizeof *out->patterns);
      out->patterns[index] = c.p[best];
      used[best] = true;
      for (size_t j = 0; j < n; j++)
        if (!placed[j] && matched[best * n + j]) {
          placed[j] = true, left--;
          out->pattern_of[j] = index;
          out->count[j] = counts[best * n + j];
        }
    }
    for (size_t j = 0; j < n; j++) { /* a word of its own */
      if (placed[j]) continue;
      size_t index = out->npatterns++;
      out->patterns = xrealloc(out->patterns, out->npatterns * sizeof *out->patterns);
      pattern_set(&out->patterns[index], words[j].sym, words[j].len, NULL, 0, NULL, 0);
      out->pattern_of[j] = index;
      out->count[j] = 0;
    }
    for (size_t k = 0; k < c.n; k++)
      if (!used[k]) pat_pattern_free(&c.p[k]);
    free(placed);
    free(used);
    if (out->npatterns > limits.max_patterns) status = PAT_TOO_MANY_PATTERNS;
  } else {
    for (size_t k = 0; k < c.n; k++) pat_pattern_free(&c.p[k]);
  }
  free(c.p);
  free(matched);
  free(counts);
  free(has_square);
  if (status != PAT_PARTITIONED) {
    size_t ncandidates = out->ncandidates;
    pat_partitioning_free(out);
    out->ncandidates = ncandidates;
  }
  return status;
}

void pat_partitioning_free(pat_partitioning *p) {
  for (size_t k = 0; k < p->npatterns; k++) pat_pattern_free(&p->patterns[k]);
  free(p->patterns);
  free(p->pattern_of);
  free(p->count);
  memset(p, 0, sizeof *p);
}

/* ---- alphabet ------------------------------------------------------------------------------ */

static size_t slot_of(const pat_alphabet *a, uint64_t hash) {
  size_t k = (size_t)(hash * 0x9e3779b97f4a7c15ULL) & (a->cap - 1);
  while (a->codes[k] && a->keys[k] != hash) k = (k + 1) & (a->cap - 1);
  return k;
}

uint32_t pat_alphabet_code(pat_alphabet *a, uint64_t hash) {
  if (2 * (a->count + 1) > a->cap) {
    pat_alphabet old = *a;
    a->cap = old.cap ? 2 * old.cap : 64;
    a->keys = xcalloc(a->cap, sizeof *a->keys);
    a->codes = xcalloc(a->cap, sizeof *a->codes);
    for (size_t k = 0; k < old.cap; k++)
      if (old.codes[k]) {
        size_t s = slot_of(a, old.keys[k]);
        a->keys[s] = old.keys[k];
        a->codes[s] = old.codes[k];
      }
    free(old.keys);
    free(old.codes);
  }
  size_t s = slot_of(a, hash);
  if (!a->codes[s]) {
    a->keys[s] = hash;
    a->codes[s] = (uint32_t)++a->count;
  }
  return a->codes[s];
}

void pat_alphabet_free(pat_alphabet *a) {
  free(a->keys);
  free(a->codes);
  memset(a, 0, sizeof *a);
}

char *pat_pattern_text(const pat_pattern *p) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = xopen_memstream(&buf, &len);
  const char *sep = "";
  for (size_t k = 0; k < p->nprefix; k++, sep = " ") fprintf(f, "%s%u", sep, p->sym[k]);
  if (p->ncore) {
    fprintf(f, "%s(", sep);
    sep = "";
    for (size_t k = 0; k < p->ncore; k++, sep = " ")
      fprintf(f, "%s%u", sep, p->sym[p->nprefix + k]);
    fputs(")*", f);
    sep = " ";
  }
  for (size_t k = 0; k < p->nsuffix; k++, sep = " ")
    fprintf(f, "%s%u", sep, p->sym[p->nprefix + p->ncore + k]);
  fclose(f);
  return buf;
}
