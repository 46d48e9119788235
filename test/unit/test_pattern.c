/* test_pattern — regular patterns and partitions (merge/pattern), on the paper's memspn
 * words first, then on words built to break a wrong square search or a wrong cover, and the
 * searches against the regexes they stand for (PCRE2) on random words. */
#define PCRE2_CODE_UNIT_WIDTH 32
#include <pcre2.h>
#include <stdio.h>

#include "check.h"
#include "memspn_tree.h"
#include "merge/pattern.h"

static const pat_limits LIMITS = {20, 10};

static pat_word word_of(const memspn_leaf *l) { return (pat_word){l->word, l->len}; }

/* An empty part may be NULL, which memcmp must not be given. */
static bool same_symbols(const uint32_t *a, const uint32_t *b, size_t n) {
  return n == 0 || memcmp(a, b, n * sizeof *a) == 0;
}

static void check_pattern(const pat_pattern *p, const uint32_t *pre, size_t np,
                          const uint32_t *core, size_t nc, const uint32_t *suf, size_t ns) {
  CHECK_EQ_U64(p->nprefix, np);
  CHECK_EQ_U64(p->ncore, nc);
  CHECK_EQ_U64(p->nsuffix, ns);
  if (p->nprefix != np || p->ncore != nc || p->nsuffix != ns) return;
  CHECK(same_symbols(p->sym, pre, np));
  CHECK(same_symbols(p->sym + np, core, nc));
  CHECK(same_symbols(p->sym + np + nc, suf, ns));
}

/* memspn at capacity N: each exit's leaves form ONE regular partition whose count is the
 * number of iterations, with the paper's pattern (W, R U B, ¬R) and (W, R U B, R U ¬B) once
 * a square exists (N ≥ 3 for the break exit), and a unified one below that. */
static void test_memspn(unsigned capacity) {
  memspn_tree t;
  memspn_tree_init(&t, capacity);
  pat_alphabet ab = {0};
  memspn_leaf *leaves = calloc(2 * capacity + 1, sizeof *leaves);
  pat_word *words = calloc(2 * capacity + 1, sizeof *words);
  for (unsigned m = 0; m <= capacity; m++) leaves[m] = memspn_leaf_make(&t, &ab, m, 0);
  for (unsigned m = 0; m < capacity; m++)
    leaves[capacity + 1 + m] = memspn_leaf_make(&t, &ab, m, 1);
  for (unsigned k = 0; k < 2 * capacity + 1; k++) words[k] = word_of(&leaves[k]);

  /* the symbols: root, R, U, B, ¬R, ¬B — iteration 0's, which every iteration must share */
  uint32_t W = pat_alphabet_code(&ab, ROOT_HASH);
  expr *c[5] = {mt_loop_test(&t, 0), mt_bounds(&t, 0), mt_byte_test(&t, 0),
                mt_negate(mt_loop_test(&t, 0)), mt_negate(mt_byte_test(&t, 0))};
  uint64_t salt[5] = {BRANCH_LOOP, BRANCH_BOUNDS, BRANCH_BYTE, BRANCH_LOOP, BRANCH_BYTE};
  uint32_t code[5];
  for (int k = 0; k < 5; k++) {
    code[k] = pat_alphabet_code(&ab, expr_phash_salted(c[k], salt[k]));
    expr_unref(c[k]);
  }
  uint32_t R = code[0], U = code[1], B = code[2], notR = code[3], notB = code[4];
  CHECK_EQ_U64(ab.count, capacity >= 1 ? 6 : 3); /* six symbols in all */

  /* exit by the loop test */
  pat_partitioning p;
  CHECK_EQ_U64(pat_partition(words, capacity + 1, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 1);
  uint32_t pre[] = {W}, core[] = {R, U, B}, suf_n[] = {notR};
  check_pattern(&p.patterns[0], pre, 1, core, 3, suf_n, 1);
  for (unsigned m = 0; m <= capacity; m++) {
    CHECK_EQ_U64(p.pattern_of[m], 0);
    CHECK_EQ_U64(p.count[m], m);
  }
  pat_partitioning_free(&p);

  /* exit by the break */
  CHECK_EQ_U64(pat_partition(words + capacity + 1, capacity, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 1);
  if (capacity >= 3) {
    uint32_t suf_b[] = {R, U, notB};
    check_pattern(&p.patterns[0], pre, 1, core, 3, suf_b, 3);
    for (unsigned m = 0; m < capacity; m++) CHECK_EQ_U64(p.count[m], m);
  } else if (capacity == 2) { /* W R U ¬B and W R U B R U ¬B: no square; unified */
    uint32_t pre2[] = {W, R, U}, core2[] = {B, R, U}, suf2[] = {notB};
    check_pattern(&p.patterns[0], pre2, 3, core2, 3, suf2, 1);
    CHECK_EQ_U64(p.count[0], 0);
    CHECK_EQ_U64(p.count[1], 1);
  }
  pat_partitioning_free(&p);

  /* both exits at once: two patterns, and no leaf in the other's */
  CHECK_EQ_U64(pat_partition(words, 2 * capacity + 1, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 2);
  for (unsigned k = 1; k <= capacity; k++) CHECK_EQ_U64(p.pattern_of[k], p.pattern_of[0]);
  for (unsigned k = capacity + 2; k < 2 * capacity + 1; k++)
    CHECK_EQ_U64(p.pattern_of[k], p.pattern_of[capacity + 1]);
  CHECK(p.pattern_of[0] != p.pattern_of[capacity + 1]);
  pat_partitioning_free(&p);

  for (unsigned k = 0; k < 2 * capacity + 1; k++) memspn_leaf_free(&leaves[k]);
  free(leaves);
  free(words);
  pat_alphabet_free(&ab);
  memspn_tree_free(&t);
}

/* The leftmost square of W (A A B)^3 G is "A A", which no other word repeats; the square
 * nearest the leaf is (A A B)^2. The partition must use the block, not the first square. */
static void test_nested_block(void) {
  enum { W = 1, A = 2, B = 3, G = 4 };
  uint32_t w[5][16];
  pat_word words[5];
  for (unsigned m = 0; m < 5; m++) {
    size_t len = 0;
    w[m][len++] = W;
    for (unsigned i = 0; i < m; i++) w[m][len++] = A, w[m][len++] = A, w[m][len++] = B;
    w[m][len++] = G;
    words[m] = (pat_word){w[m], len};
  }
  pat_pattern sq;
  uint64_t count;
  CHECK(pat_find_square(w[3], words[3].len, false, &sq, &count));
  uint32_t pre[] = {W}, aa[] = {A}, suf[] = {B, A, A, B, A, A, B, G};
  check_pattern(&sq, pre, 1, aa, 1, suf, 8);
  CHECK_EQ_U64(count, 2);
  pat_pattern_free(&sq);
  CHECK(pat_find_square(w[3], words[3].len, true, &sq, &count));
  uint32_t aab[] = {A, A, B}, g[] = {G};
  check_pattern(&sq, pre, 1, aab, 3, g, 1);
  CHECK_EQ_U64(count, 3);
  pat_pattern_free(&sq);

  pat_partitioning p;
  CHECK_EQ_U64(pat_partition(words, 5, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 1);
  check_pattern(&p.patterns[0], pre, 1, aab, 3, g, 1);
  for (unsigned m = 0; m < 5; m++) CHECK_EQ_U64(p.count[m], m);
  pat_partitioning_free(&p);
}

/* Leaves that share no structure each become a pattern of their own; above max_patterns
 * there is no regular partitioning. Distinct squares count as candidates. */
static void test_limits(void) {
  uint32_t w[30][4];
  pat_word words[30];
  for (unsigned k = 0; k < 30; k++) { /* 1 k k: a square of its own in each word */
    w[k][0] = 1, w[k][1] = 100 + k, w[k][2] = 100 + k;
    words[k] = (pat_word){w[k], 3};
  }
  pat_partitioning p;
  CHECK_EQ_U64(pat_partition(words, 21, LIMITS, &p), PAT_TOO_MANY_CANDIDATES);
  CHECK_EQ_U64(p.ncandidates, 21);
  CHECK_EQ_U64(pat_partition(words, 20, (pat_limits){20, 25}, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 20);
  pat_partitioning_free(&p);
  CHECK_EQ_U64(pat_partition(words, 11, LIMITS, &p), PAT_TOO_MANY_PATTERNS);
  CHECK_EQ_U64(pat_partition(words, 10, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 10);
  for (unsigned k = 0; k < 10; k++) {
    CHECK_EQ_U64(p.pattern_of[k], k);
    CHECK_EQ_U64(p.count[k], 2);
  }
  pat_partitioning_free(&p);

  for (unsigned k = 0; k < 12; k++) { /* 1 k: no square, nothing unifies (same length) */
    w[k][0] = 1, w[k][1] = 200 + k;
    words[k] = (pat_word){w[k], 2};
  }
  CHECK_EQ_U64(pat_partition(words, 11, LIMITS, &p), PAT_TOO_MANY_PATTERNS);
  CHECK_EQ_U64(pat_partition(words, 3, LIMITS, &p), PAT_PARTITIONED);
  CHECK_EQ_U64(p.npatterns, 3);
  check_pattern(&p.patterns[1], w[1], 2, NULL, 0, NULL, 0);
  pat_partitioning_free(&p);
}

/* Symbols whose code units are regex metacharacters ( ) * + . \ $ ^ | and newline are plain
 * symbols; a word differing only in them must not match. */
static void test_metacharacters(void) {
  uint32_t sym[] = {'(', ')', '*', '+', '.', '\\', '$', '^', '|', '\n', '?', '['};
  pat_pattern p = {0};
  p.sym = sym, p.nprefix = 2, p.ncore = 3, p.nsuffix = 7;
  uint32_t w[32];
  size_t len = 0;
  w[len++] = '(', w[len++] = ')';
  for (int k = 0; k < 4; k++) w[len++] = '*', w[len++] = '+', w[len++] = '.';
  for (int k = 5; k < 12; k++) w[len++] = sym[k];
  uint64_t count = 99;
  CHECK(pat_matches(&p, w, len, &count));
  CHECK_EQ_U64(count, 4);
  w[3] = 'x';
  CHECK(!pat_matches(&p, w, len, &count));
  uint32_t dots[] = {'(', ')', 'a', 'b', 'c'}; /* '.' must not match any symbol */
  CHECK(!pat_matches(&p, dots, 5, &count));
}

/* Unification: P·S and P·X·S. The longest common prefix is P. */
static void test_unify(void) {
  uint32_t a[] = {1, 5}, b[] = {1, 2, 3, 4, 5}, c[] = {1, 9, 9, 5, 7};
  pat_word words[] = {{a, 2}, {b, 5}, {c, 5}};
  pat_partitioning p;
  CHECK_EQ_U64(pat_partition(words, 3, LIMITS, &p), PAT_PARTITIONED);
  /* c has the square 9 9; a and b unify into (1, 2 3 4, 5) with counts 0 and 1 */
  CHECK_EQ_U64(p.npatterns, 2);
  uint32_t pre[] = {1}, x[] = {2, 3, 4}, s[] = {5};
  check_pattern(&p.patterns[p.pattern_of[0]], pre, 1, x, 3, s, 1);
  CHECK_EQ_U64(p.pattern_of[0], p.pattern_of[1]);
  CHECK_EQ_U64(p.count[0], 0);
  CHECK_EQ_U64(p.count[1], 1);
  CHECK(p.pattern_of[2] != p.pattern_of[0]);
  CHECK_EQ_U64(p.count[2], 2);
  pat_partitioning_free(&p);
}

static void test_alphabet(void) {
  pat_alphabet ab = {0};
  for (uint64_t k = 0; k < 1000; k++) CHECK_EQ_U64(pat_alphabet_code(&ab, k * 0x1000193), k + 1);
  for (uint64_t k = 0; k < 1000; k++) CHECK_EQ_U64(pat_alphabet_code(&ab, k * 0x1000193), k + 1);
  CHECK_EQ_U64(ab.count, 1000);
  pat_alphabet_free(&ab);
}

/* ---- the searches against the regexes they stand for ------------------------------------ */

static pcre2_code_32 *regex(const char *ascii) {
  PCRE2_UCHAR32 text[512];
  size_t n = 0;
  for (; ascii[n]; n++) text[n] = (unsigned char)ascii[n];
  int error;
  PCRE2_SIZE offset;
  pcre2_code_32 *code = pcre2_compile_32(text, n, PCRE2_DOTALL, &error, &offset, NULL);
  CHECK(code != NULL);
  return code;
}

static void put_syms(char *buf, size_t cap, const uint32_t *sym, size_t n) {
  for (size_t k = 0; k < n; k++) {
    size_t at = strlen(buf);
    snprintf(buf + at, cap - at, "\\x{%x}", (unsigned)sym[k]);
  }
}

static uint64_t seed = 88172645463325252ULL;
static unsigned rnd(unsigned n) {
  seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
  return (unsigned)(seed % n);
}

/* pat_find_square is `^(.*?)((.+?)\3+)(.*)$` (on the reversed word too) and pat_matches is
 * `^p((?:u)*)s$`, which pattern.c once ran in PCRE2 and now computes itself: the same
 * results on random words over small alphabets (where squares and near-matches abound),
 * metacharacter code units and code units past 0xffff included. */
static void test_against_regex(void) {
  pcre2_code_32 *square = regex("^(.*?)((.+?)\\3+)(.*)$");
  pcre2_match_data_32 *md = pcre2_match_data_create_from_pattern_32(square, NULL);
  const uint32_t alphabet[] = {1, 2, 3, '*', 0x12345};
  unsigned squares = 0, matches = 0;
  for (unsigned t = 0; t < 4000; t++) {
    uint32_t w[16];
    size_t len = rnd(17);
    unsigned letters = 2 + rnd(4);
    for (size_t k = 0; k < len; k++) w[k] = alphabet[rnd(letters)];
    for (int reversed = 0; reversed < 2; reversed++) {
      uint32_t subject[16];
      for (size_t k = 0; k < len; k++) subject[k] = reversed ? w[len - 1 - k] : w[k];
      int rc = pcre2_match_32(square, subject, len, 0, 0, md, NULL);
      pat_pattern sq = {0};
      uint64_t count = 0;
      bool found = pat_find_square(w, len, reversed, &sq, &count);
      CHECK_EQ_U64(found, rc >= 0);
      if (found && rc >= 0) {
        squares++;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer_32(md);
        size_t np = ov[3], nc = ov[7] - ov[6], copies = (ov[5] - ov[4]) / nc;
        CHECK_EQ_U64(sq.ncore, nc);
        CHECK_EQ_U64(count, copies);
        CHECK_EQ_U64(reversed ? sq.nsuffix : sq.nprefix, np);
        CHECK_EQ_U64(sq.nprefix + sq.ncore * count + sq.nsuffix, len);
        uint64_t again;
        CHECK(pat_matches(&sq, w, len, &again)); /* the word matches its own square */
      }
      pat_pattern_free(&sq);
    }
    /* a random pattern against the word, and against p u^m s for a random m */
    uint32_t sym[12];
    size_t np = rnd(3), nc = rnd(3), ns = rnd(3);
    for (size_t k = 0; k < np + nc + ns; k++) sym[k] = alphabet[rnd(letters)];
    pat_pattern p = {sym, np, nc, ns};
    char text[600] = "^";
    put_syms(text, sizeof text, sym, np);
    strcat(text, "((?:");
    put_syms(text, sizeof text, sym + np, nc);
    strcat(text, ")*)");
    put_syms(text, sizeof text, sym + np + nc, ns);
    strcat(text, "$");
    pcre2_code_32 *code = regex(text);
    pcre2_match_data_32 *pmd = pcre2_match_data_create_from_pattern_32(code, NULL);
    uint32_t built[32];
    size_t blen = 0;
    for (size_t k = 0; k < np; k++) built[blen++] = sym[k];
    for (unsigned m = rnd(5); m > 0; m--)
      for (size_t k = 0; k < nc; k++) built[blen++] = sym[np + k];
    for (size_t k = 0; k < ns; k++) built[blen++] = sym[np + nc + k];
    if (blen && rnd(3) == 0) built[rnd((unsigned)blen)] = alphabet[rnd(letters)];
    const uint32_t *subjects[2] = {w, built};
    size_t lens[2] = {len, blen};
    for (int k = 0; k < 2; k++) {
      int rc = pcre2_match_32(code, subjects[k], lens[k], 0, 0, pmd, NULL);
      uint64_t count = 0;
      bool ok = pat_matches(&p, subjects[k], lens[k], &count);
      CHECK_EQ_U64(ok, rc >= 0);
      if (ok && rc >= 0) {
        matches++;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer_32(pmd);
        CHECK_EQ_U64(count, nc ? (ov[3] - ov[2]) / nc : 0);
      }
    }
    pcre2_match_data_free_32(pmd);
    pcre2_code_free_32(code);
  }
  printf("against PCRE2: %u squares, %u matches agree\n", squares, matches);
  CHECK(squares > 1000 && matches > 1000); /* both outcomes were exercised */
  pcre2_match_data_free_32(md);
  pcre2_code_free_32(square);
}

/* The one-by-one square search pattern.c ran before it scanned each start for its first symbol
 * and read the reversed word in place (the reference: quadratic in the word, obviously
 * right): start, core, copies, or false when none is found within PAT_SQUARE_BUDGET tries. */
static bool reference_square(const uint32_t *word, size_t len, bool reversed, size_t *start,
                             size_t *core, size_t *copies) {
  uint32_t *w = malloc((len + 1) * sizeof *w);
  for (size_t k = 0; k < len; k++) w[k] = reversed ? word[len - 1 - k] : word[k];
  uint64_t budget = PAT_SQUARE_BUDGET;
  bool found = false;
  for (size_t p = 0; p + 2 <= len && !found; p++)
    for (size_t k = 1; p + 2 * k <= len && !found; k++) {
      if (budget-- == 0) goto out;
      if (w[p + k] != w[p] || memcmp(w + p, w + p + k, k * sizeof *w) != 0) continue;
      size_t run = p + 2 * k;
      while (run < len && w[run] == w[run - k]) run++;
      *start = p, *core = k, *copies = 2 + (run - p - 2 * k) / k, found = true;
    }
out:
  free(w);
  return found;
}

static void check_square_as_reference(const uint32_t *w, size_t len) {
  for (int reversed = 0; reversed < 2; reversed++) {
    size_t start = 0, core = 0, copies = 0;
    bool expect = reference_square(w, len, reversed, &start, &core, &copies);
    pat_pattern sq = {0};
    uint64_t count = 0;
    CHECK_EQ_U64(pat_find_square(w, len, reversed, &sq, &count), expect);
    if (expect) {
      CHECK_EQ_U64(sq.ncore, core);
      CHECK_EQ_U64(count, copies);
      CHECK_EQ_U64(reversed ? sq.nsuffix : sq.nprefix, start);
      CHECK_EQ_U64(sq.nprefix + sq.ncore * count + sq.nsuffix, len);
    }
    pat_pattern_free(&sq);
  }
}

/* pat_find_square against the reference on the words that matter: long loop words (a root,
 * (A B)^j, an exit: memspn's), random words over a few letters, and square-free words whose
 * only square (x x at the end) lies just inside, at and just past the budget's edge, where
 * the start-by-start charge must count exactly as the one-by-one search did. */
static void test_square_as_reference(void) {
  enum { LONG = 3000 };
  uint32_t *w = malloc(LONG * sizeof *w);
  for (size_t j = 0; j < 1200; j += 97) {
    size_t len = 0;
    w[len++] = 7;
    for (size_t i = 0; i < j; i++) w[len++] = 1, w[len++] = 2;
    w[len++] = 3 + (uint32_t)(j % 2);
    check_square_as_reference(w, len);
  }
  /* a long periodic run broken at every offset: where the run ends decides the copies */
  for (size_t k = 1; k <= 3; k++)
    for (size_t len = 60; len <= 70; len++)
      for (size_t defect = 0; defect <= len; defect++) {
        w[0] = 9;
        for (size_t i = 1; i < len; i++) w[i] = 1 + (uint32_t)(i % k);
        if (defect < len) w[defect] = 8;
        check_square_as_reference(w, len);
      }
  for (unsigned t = 0; t < 300; t++) {
    size_t len = rnd(200);
    unsigned letters = 2 + rnd(6);
    for (size_t k = 0; k < len; k++) w[k] = 1 + rnd(letters);
    check_square_as_reference(w, len);
  }
  /* distinct symbols 1..m, then x x: the square is the try numbered
   * sum_{p < m} floor((m + 2 - p) / 2) + 1 */
  size_t m = 0;
  uint64_t before = 0;
  for (;; m++) {
    uint64_t tries = 0;
    for (size_t p = 0; p < m; p++) tries += (m + 2 - p) / 2;
    if (tries + 1 >= PAT_SQUARE_BUDGET) {
      before = tries;
      break;
    }
  }
  CHECK(m + 4 < LONG && before < PAT_SQUARE_BUDGET + m);
  unsigned found = 0, missed = 0;
  for (size_t mm = m - 2; mm <= m + 2; mm++) {
    for (size_t k = 0; k < mm; k++) w[k] = 10 + (uint32_t)k;
    w[mm] = w[mm + 1] = 5;
    size_t start, core, copies;
    bool in_budget = reference_square(w, mm + 2, false, &start, &core, &copies);
    found += in_budget, missed += !in_budget;
    check_square_as_reference(w, mm + 2);
  }
  CHECK(found > 0 && missed > 0); /* both sides of the edge were exercised */
  free(w);
}

int main(void) {
  unsigned capacities[] = {1, 2, 3, 4, 8, 64};
  for (size_t k = 0; k < sizeof capacities / sizeof *capacities; k++) test_memspn(capacities[k]);
  test_nested_block();
  test_limits();
  test_metacharacters();
  test_unify();
  test_alphabet();
  test_against_regex();
  test_square_as_reference();
  CHECK_EQ_U64(expr_live_count(), 0);
  return check_exit();
}
