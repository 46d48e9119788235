/*
 * test_symnames — the unique names of a path's symbolic arrays (engine/core/symnames.h):
 * the names are today's (name, name_1, name_2, …, the first no earlier array took, a
 * user's own suffixed name included), checked against names written out here and against
 * the scan symq used before (every taken name compared, from suffix 1 up); a claim costs
 * O(1) probes amortized (N claims of one name: probes grow N-fold, not N²-fold); a shared
 * table is copied on its first change, so forks never see each other's names.
 */
#include "check.h"
#include "engine/core/symnames.h"
#include "engine/core/xalloc.h"

#include <stdbool.h>
#include <stdio.h>

/* symq's scan before symnames: the first of name, name_1, … that no taken name equals */
static char *scan_claim(char **taken, size_t *ntaken, const char *name) {
  char *unique = xstrdup(name);
  for (unsigned k = 1;; k++) {
    bool clash = false;
    for (size_t s = 0; s < *ntaken; s++)
      if (strcmp(taken[s], unique) == 0) clash = true;
    if (!clash) break;
    free(unique);
    unique = xasprintf("%s_%u", name, k);
  }
  taken[(*ntaken)++] = unique;
  return unique;
}

static void check_written_names(void) {
  static const char *const requests[][2] = {
      {"x", "x"},     {"x", "x_1"},     {"x_1", "x_1_1"},       {"x_3", "x_3"},   {"x", "x_2"},
      {"x", "x_4"},   {"x_1", "x_1_2"}, {"x_1_3", "x_1_3"},     {"x_1", "x_1_4"}, {"y_1", "y_1"},
      {"y", "y"},     {"y", "y_2"},     {"unnamed", "unnamed"}, {"", ""},         {"", "_1"},
      {"_1", "_1_1"}, {"", "_2"},       {"x_0", "x_0"},         {"x", "x_5"},     {"x_01", "x_01"},
  };
  enum { NREQ = sizeof requests / sizeof *requests };
  char *taken[NREQ];
  size_t ntaken = 0;
  symnames *t = symnames_new();
  for (size_t k = 0; k < NREQ; k++) {
    char *got = symnames_claim(&t, requests[k][0]);
    CHECK(strcmp(got, requests[k][1]) == 0);
    CHECK(strcmp(scan_claim(taken, &ntaken, requests[k][0]), requests[k][1]) == 0);
    if (strcmp(got, requests[k][1]) != 0)
      fprintf(stderr, "    request %zu \"%s\": got \"%s\", want \"%s\"\n", k, requests[k][0], got,
              requests[k][1]);
    free(got);
  }
  for (size_t k = 0; k < ntaken; k++) free(taken[k]);
  symnames_release(t);
}

/* many colliding requests, drawn deterministically from names that are each other's
 * suffixed forms; every answer must equal the old scan's */
static void check_against_scan(void) {
  static const char *const bases[] = {"a", "a_1", "a_2", "a_1_1", "a_10", "b", "a_", "_"};
  enum { N = 600 };
  char *taken[N];
  size_t ntaken = 0;
  symnames *t = symnames_new();
  uint64_t r = 12345;
  unsigned mismatches = 0;
  for (unsigned k = 0; k < N; k++) {
    r = r * 6364136223846793005u + 1442695040888963407u;
    const char *base = bases[(r >> 33) % (sizeof bases / sizeof *bases)];
    char *got = symnames_claim(&t, base);
    const char *want = scan_claim(taken, &ntaken, base);
    if (strcmp(got, want) != 0 && mismatches++ < 5)
      fprintf(stderr, "    claim %u \"%s\": got \"%s\", want \"%s\"\n", k, base, got, want);
    free(got);
  }
  CHECK_EQ_U64(mismatches, 0);
  /* O(1) amortized: at most claims + 2 x names probes */
  CHECK(symnames_probes(t) <= 3u * N);
  for (size_t k = 0; k < ntaken; k++) free(taken[k]);
  symnames_release(t);
}

static uint64_t probes_for(unsigned n, const char *base) {
  symnames *t = symnames_new();
  for (unsigned k = 0; k < n; k++) free(symnames_claim(&t, base));
  char *last = symnames_claim(&t, base);
  char want[32];
  snprintf(want, sizeof want, "%s_%u", base, n);
  CHECK(strcmp(last, want) == 0);
  free(last);
  uint64_t p = symnames_probes(t);
  symnames_release(t);
  return p;
}

/* a loop of __VERIFIER_nondet_int calls asks for "int" each time */
static void check_constant_cost(void) {
  uint64_t small = probes_for(1000, "int"), large = probes_for(4000, "int");
  CHECK_EQ_U64(small, 1001);
  CHECK_EQ_U64(large, 4001);
  CHECK(large <= 5 * small); /* 4x the claims, about 4x the work; a scan would be 16x */
}

static void check_copy_on_write(void) {
  symnames *parent = symnames_new();
  free(symnames_claim(&parent, "n"));
  symnames *child = symnames_share(parent);
  CHECK_EQ_PTR(child, parent);
  char *c1 = symnames_claim(&child, "n");
  CHECK(child != parent);
  CHECK(strcmp(c1, "n_1") == 0);
  char *p1 = symnames_claim(&parent, "n"); /* the child's n_1 is not the parent's */
  CHECK(strcmp(p1, "n_1") == 0);
  char *c2 = symnames_claim(&child, "n");
  CHECK(strcmp(c2, "n_2") == 0);
  free(c1);
  free(p1);
  free(c2);
  symnames_release(child);
  symnames_release(parent);
}

int main(void) {
  check_written_names();
  check_against_scan();
  check_constant_cost();
  check_copy_on_write();
  symnames_release(NULL);
  return check_exit();
}
