/*
 * pattern — regular patterns over the words of an execution tree's leaves (pat-merge.md §4,
 * the paper's §3.1). A leaf's word is one 32-bit code unit per node on its path from the
 * root (the root has a code of its own, every other node the code of its condition's salted
 * pattern hash). A regular pattern (p, u, s) is matched by a word w with count m when
 * w = p · u^m · s; a regular partition is a set of words that match one pattern.
 *
 * How a partitioning is found (the regexes below give the semantics, one symbol per code
 * unit; pattern.c computes them directly, test_pattern checks them against PCRE2):
 *   1. Candidates: in each word, the leftmost square — `^(.*?)((.+?)\3+)(.*)$`, whose core u is
 *      the shortest repeated block and whose copies extend as far right as they go — and the
 *      same search on the reversed word (the square nearest the leaf). More distinct
 *      candidates than `max_candidates` means no regular partitioning.
 *   2. Unification: words that no candidate matches are paired; P·S and P·X·S (X non-empty,
 *      P their longest common prefix) give the candidate (P, X, S) with counts 0 and 1.
 *   3. Cover: repeatedly the candidate matching the most words not yet placed (the earlier
 *      one on ties) takes them; every word left becomes a pattern of its own (u empty). More
 *      patterns than `max_patterns` means no regular partitioning.
 * Counts are those of the greedy match of `^p((?:u)*)s$`. Everything is deterministic: the
 * result depends only on the words and their order.
 *
 * Contract: words are borrowed; a partitioning owns its arrays (pat_partitioning_free).
 */
#ifndef SYMQ_MERGE_PATTERN_H
#define SYMQ_MERGE_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct pat_word {
  const uint32_t *sym;
  size_t len;
} pat_word;

typedef struct pat_pattern {
  uint32_t *sym; /* p, then u, then s */
  size_t nprefix, ncore, nsuffix;
} pat_pattern;

typedef struct pat_limits {
  size_t max_candidates; /* --max-candidate-patterns (20) */
  size_t max_patterns;   /* --max-patterns (10) */
} pat_limits;

typedef enum pat_status {
  PAT_PARTITIONED,
  PAT_TOO_MANY_CANDIDATES,
  PAT_TOO_MANY_PATTERNS,
} pat_status;

typedef struct pat_partitioning {
  pat_pattern *patterns;
  size_t npatterns;
  size_t *pattern_of; /* per word: the index of its pattern */
  uint64_t *count;    /* per word: m, the number of core copies it matched with */
  size_t ncandidates; /* distinct candidates found in step 1 */
} pat_partitioning;

pat_status pat_partition(const pat_word *words, size_t n, pat_limits limits, pat_partitioning *out);
void pat_partitioning_free(pat_partitioning *p);

/* The square search is bounded so that a long word without structure costs a bounded amount
 * of work (each (start, core length) tried counts one); a search past the bound finds no
 * square (fewer candidates, never a wrong one: every candidate is checked by a full match). */
enum { PAT_SQUARE_BUDGET = 2000000 };

/* The leftmost square of w (step 1) as a pattern w matches with *count ≥ 2 copies; false
 * when w has no square. `reversed` searches the reversed word instead and maps the result
 * back. The pattern owns its symbols (pat_pattern_free). */
bool pat_find_square(const uint32_t *w, size_t len, bool reversed, pat_pattern *out,
                     uint64_t *count);
/* Does w match p, and with which count? */
bool pat_matches(const pat_pattern *p, const uint32_t *w, size_t len, uint64_t *count);
void pat_pattern_free(pat_pattern *p);

/* Dense, deterministic codes for 64-bit hashes: the first hash seen gets 1, the next 2… */
typedef struct pat_alphabet {
  uint64_t *keys;
  uint32_t *codes;
  size_t cap, count;
} pat_alphabet;

uint32_t pat_alphabet_code(pat_alphabet *a, uint64_t hash);
void pat_alphabet_free(pat_alphabet *a);

/* A pattern as text, e.g. "1 (2 3)* 4" (malloc'd), for --dump-tree. */
char *pat_pattern_text(const pat_pattern *p);

#endif
