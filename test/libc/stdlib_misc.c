/* abs, labs, llabs, imaxabs (one fork on the sign), div, ldiv, lldiv, imaxdiv, qsort and
 * qsort_r (4 symbolic ints: one path per ordering, ties included), bsearch (a symbolic key
 * in a sorted array: one path per comparison outcome), getenv and secure_getenv (no
 * environment), rand/srand/random/srandom (glibc's sequence), __errno_location. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>

#include "harness.h"

static int compare(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static int compare_r(const void *a, const void *b, void *arg) {
  ++*(int *)arg;
  return compare(b, a); /* descending */
}

int main(void) {
  int v[4];
  klee_make_symbolic(v, sizeof v, "v");
  switch (sym_int_in("which", 0, 8)) {
  case 0: {
    klee_assume(v[0] != INT_MIN);
    check_int("abs", abs(v[0]));
    long l = (long)v[1] * 65536 * 65536;
    check_int("labs", labs(l));
    check_int("llabs", llabs((long long)l));
    check_int("imaxabs", imaxabs((intmax_t)l));
    break;
  }
  case 1: {
    klee_assume((v[1] != 0) & !((v[0] == INT_MIN) & (v[1] == -1)));
    div_t d = div(v[0], v[1]);
    check_int("div.quot", d.quot);
    check_int("div.rem", d.rem);
    ldiv_t ld = ldiv(v[0], v[1]);
    check_int("ldiv.quot", ld.quot);
    check_int("ldiv.rem", ld.rem);
    lldiv_t lld = lldiv((long long)v[0] * 3, v[1]);
    check_int("lldiv.quot", lld.quot);
    check_int("lldiv.rem", lld.rem);
    imaxdiv_t id = imaxdiv((intmax_t)v[0] - 7, v[1]);
    check_int("imaxdiv.quot", id.quot);
    check_int("imaxdiv.rem", id.rem);
    break;
  }
  case 2:
    qsort(v, 4, sizeof v[0], compare);
    check_mem("qsort", v, sizeof v);
    break;
  case 3: {
    int calls = 0;
    qsort_r(v, 3, sizeof v[0], compare_r, &calls);
    check_mem("qsort_r", v, sizeof v);
    break;
  }
  case 4: {
    static const int sorted[] = {1, 3, 5, 7, 9, 11};
    int key = v[0];
    const int *p = bsearch(&key, sorted, 6, sizeof sorted[0], compare);
    check_ptr("bsearch", p, sorted);
    check_ptr("bsearch empty", bsearch(&key, sorted, 0, sizeof sorted[0], compare), sorted);
    break;
  }
  case 5:
    check_str("getenv", getenv("PATH"));
    check_str("getenv", getenv(""));
    check_str("secure_getenv", secure_getenv("HOME"));
    break;
  case 6:
    for (int k = 0; k < 5; k++) check_int("rand", rand());
    srand(42);
    for (int k = 0; k < 5; k++) check_int("rand 42", rand());
    srandom(0);
    for (int k = 0; k < 5; k++) check_int("random 0", random());
    srand(1);
    check_int("rand 1", rand());
    break;
  case 7:
    *__errno_location() = 7;
    check_int("errno", errno);
    errno = 11;
    check_int("__errno_location", *__errno_location());
    break;
  case 8: /* the same sort on a sorted and a reversed input: no comparison is symbolic */
    for (int k = 0; k < 4; k++) v[k] = 10 - k;
    qsort(v, 4, sizeof v[0], compare);
    check_mem("qsort reversed", v, sizeof v);
    qsort(v, 0, sizeof v[0], compare);
    break;
  }
  return 0;
}
