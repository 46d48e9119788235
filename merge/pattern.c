/* pattern.c — regular patterns over leaf words (contract in pattern.h). The searches are the
 * regexes' own semantics written out (test_pattern.c checks them against PCRE2 on random
 * words): PCRE2's backtracking cost ~600 instructions a symbol, a third of a pat run of
 * memspn at capacity 1024, where every partitioning searches each of ~1,000 words of up to
 * 1,000 symbols twice. */
#include "merge/pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/expr.h"
#include "engine/core/xalloc.h"

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

static bool same_block(const uint32_t *a, const uint32_t *b, size_t n) {
  return memcmp(a, b, n * sizeof *a) == 0;
}

/* w's symbol i, the word read backwards when `rev` */
static inline uint32_t sym_at(const uint32_t *w, size_t len, bool rev, size_t i) {
  return rev ? w[len - 1 - i] : w[i];
}

/* The first i ≥ run of the word read (backwards when `rev`) whose symbol differs from the one
 * k before it (len when none does): blocks of RUN_BLOCK symbols compared at once, as a loop's
 * word repeats its core over its whole length (memspn at 1,024 bytes: words of ~2,000). */
enum { RUN_BLOCK = 16 };
static inline size_t periodic_run(const uint32_t *w, size_t len, bool rev, size_t run, size_t k) {
  if (rev) {
    while (run + RUN_BLOCK <= len &&
           same_block(w + len - run - RUN_BLOCK, w + len - run - RUN_BLOCK + k, RUN_BLOCK))
      run += RUN_BLOCK;
    while (run < len && w[len - 1 - run] == w[len - 1 - run + k]) run++;
  } else {
    while (run + RUN_BLOCK <= len && same_block(w + run, w + run - k, RUN_BLOCK)) run += RUN_BLOCK;
    while (run < len && w[run] == w[run - k]) run++;
  }
  return run;
}

/* What `^(.*?)((.+?)\3+)(.*)$` matches in w (read backwards when `rev`, without a reversed
 * copy): the smallest start, then the shortest core there, that the core's next copy
 * repeats; the copies then run right as far as they go (the greedy `+`; `(.*)$` takes any
 * rest, so it is never given back). Each (start, core length) tried counts one against
 * PAT_SQUARE_BUDGET, whether its blocks are compared or its first symbols already differ: the
 * cores at a start are scanned for the start's symbol alone, and the budget is charged by the
 * count skipped (test_pattern checks the budget's edge against the one-by-one search). */
static inline bool leftmost_square(const uint32_t *w, size_t len, bool rev, size_t *start,
                                   size_t *core, size_t *copies) {
  uint64_t used = 0; /* tries before this start */
  for (size_t p = 0; p + 2 <= len; p++) {
    size_t kmax = (len - p) / 2, lim = kmax;
    if (lim > PAT_SQUARE_BUDGET - used) lim = (size_t)(PAT_SQUARE_BUDGET - used);
    uint32_t first = sym_at(w, len, rev, p);
    for (size_t k = 1; k <= lim; k++) {
      if (sym_at(w, len, rev, p + k) != first) continue;
      /* blocks [p, p + k) and [p + k, p + 2k) of the word read are contiguous in w either way */
      const uint32_t *x = rev ? w + len - p - k : w + p, *y = rev ? w + len - p - 2 * k : w + p + k;
      if (!same_block(x, y, k)) continue;
      /* block m repeats block 0 while the blocks before it do iff the word is k-periodic from
       * p through it: the copies are 2 and one per whole k symbols of the run past them */
      size_t run = periodic_run(w, len, rev, p + 2 * k, k);
      *start = p, *core = k, *copies = 2 + (run - p - 2 * k) / k;
      return true;
    }
    if (lim < kmax) return false; /* the budget ran out at this start */
    used += kmax;
  }
  return false;
}

static bool square_of(const uint32_t *w, size_t len, bool reversed, pat_pattern *out,
                      uint64_t *count) {
  size_t np, nc, ncopies;
  /* two calls with `rev` a constant: each direction gets its own inlined search, without a
   * test of the direction per symbol read */
  bool found = reversed ? leftmost_square(w, len, true, &np, &nc, &ncopies)
                        : leftmost_square(w, len, false, &np, &nc, &ncopies);
  if (found) {
    size_t end = np + ncopies * nc, ns = len - end;
    *count = ncopies;
    if (!reversed) {
      pattern_set(out, w, np, w + np, nc, w + end, ns);
    } else {                    /* reversed: the block runs backwards, prefix and suffix swap */
      size_t first = len - end; /* where the copies begin in w */
      pattern_set(out, w, ns, w + first, nc, w + first + ncopies * nc, np);
    }
  }
  return found;
}

bool pat_find_square(const uint32_t *w, size_t len, bool reversed, pat_pattern *out,
                     uint64_t *count) {
  return square_of(w, len, reversed, out, count);
}

/* What `^p((?:u)*)s$` matches: w's length fixes the only count m for which w = p u^m s can
 * hold, so the greedy `*` giving back copies until s matches finds that m or none. */
bool pat_matches(const pat_pattern *p, const uint32_t *w, size_t len, uint64_t *count) {
  size_t np = p->nprefix, nc = p->ncore, ns = p->nsuffix;
  if (len < np + ns) return false;
  size_t middle = len - np - ns, m = nc ? middle / nc : 0;
  if (nc ? middle % nc != 0 : middle != 0) return false;
  if (!same_block(w, p->sym, np) || !same_block(w + len - ns, p->sym + np + nc, ns)) return false;
  /* every copy is u: the first is, and the middle is nc-periodic */
  if (m && (!same_block(w + np, p->sym + np, nc) || !same_block(w + np, w + np + nc, (m - 1) * nc)))
    return false;
  *count = m;
  return true;
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
  bool *has_square = xcalloc(n + 1, sizeof *has_square);
  for (size_t j = 0; j < n; j++)
    for (int reversed = 0; reversed < 2; reversed++) {
      pat_pattern p;
      uint64_t count;
      if (square_of(words[j].sym, words[j].len, reversed, &p, &count)) {
        add_candidate(&c, &p);
        has_square[j] = true;
      }
    }
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
    for (size_t k = nmatched_rows; k < c.n; k++)
      for (size_t j = 0; j < n; j++)
        matched[k * n + j] = pat_matches(&c.p[k], words[j].sym, words[j].len, &counts[k * n + j]);
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
