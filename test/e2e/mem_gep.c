/* getelementptr over structs (with padding), arrays of structs, a struct holding an array of
 * structs, a 2-D array, and a negative (sign-extended) symbolic index. Every symbolic index
 * is assumed in bounds, so no access can fail and none forks on its own; only the four
 * probes fork: 4 probes => 5 completed paths.
 * Layout (x86-64): struct point { short x @0; int y @4; char tag[3] @8; long long z @16 },
 * size 24; struct rec { int hdr @0; struct point p[2] @8 }, size 56. */
// EXPECT: completed=5 errors=0 tests=5
// EXPECT-OBJECTS: i:4 a:4 b:4 j:4 off:4
#include <stddef.h>
#include <klee/klee.h>

struct point {
  short x;
  int y;
  char tag[3];
  long long z;
};

struct rec {
  int hdr;
  struct point p[2];
};

int main(void) {
  unsigned i, a, b, j;
  int off;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_make_symbolic(&a, sizeof a, "a");
  klee_make_symbolic(&b, sizeof b, "b");
  klee_make_symbolic(&j, sizeof j, "j");
  klee_make_symbolic(&off, sizeof off, "off");
  klee_assume(i < 4);
  klee_assume(a < 3);
  klee_assume(b < 5);
  klee_assume(j < 2);
  klee_assume((off >= -5) & (off < 0));

  klee_assert(sizeof(struct point) == 24);
  klee_assert(offsetof(struct point, y) == 4);
  klee_assert(offsetof(struct point, z) == 16);
  klee_assert(sizeof(struct rec) == 56);
  klee_assert(offsetof(struct rec, p) == 8);

  struct point pts[4];
  for (int k = 0; k < 4; k++) {
    pts[k].x = (short)k;
    pts[k].y = k;
    pts[k].tag[0] = (char)('a' + k);
    pts[k].tag[1] = 0;
    pts[k].tag[2] = 0;
    pts[k].z = 1000LL * k;
  }
  /* Address arithmetic at a symbolic index (no memory access). */
  klee_assert((char *)&pts[i].z - (char *)pts == 24 * i + 16);
  klee_assert((char *)&pts[i].tag[2] - (char *)&pts[0].x == 24 * i + 10);

  /* A write at a symbolic index, read back at the same index and at a concrete one. */
  pts[i].y = 100 + (int)i;
  klee_assert(pts[i].y == 100 + (int)i);
  klee_assert(pts[i].z == 1000LL * i);
  /* P1: element 2 changed iff i = 2. */
  if (pts[2].y == 102) {
    klee_assert(i == 2);
    return 1;
  }

  int grid[3][5];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 5; c++) grid[r][c] = r * 5 + c;
  /* P2: a 2-D read at two symbolic indices: 5a + b = 7 only for (1, 2). */
  if (grid[a][b] == 7) {
    klee_assert((a == 1) & (b == 2));
    return 2;
  }

  struct rec rc;
  rc.hdr = -1;
  for (int k = 0; k < 2; k++) {
    rc.p[k].tag[0] = 'x';
    rc.p[k].tag[1] = 'y';
    rc.p[k].tag[2] = 'z';
  }
  rc.p[j].tag[1] = '!';
  /* P3: a nested symbolic write landed in element 1 iff j = 1. */
  if (rc.p[1].tag[1] == '!') {
    klee_assert(j == 1);
    return 3;
  }
  klee_assert((rc.p[0].tag[1] == '!') & (rc.hdr == -1) & (rc.p[1].tag[2] == 'z'));

  /* Negative offsets: q points at grid[2][0]; q[off] is grid[1][5 + off] = 10 + off. */
  int *q = &grid[2][0];
  klee_assert(q[-1] == 9);
  klee_assert(*(q - 5 + 2) == 7);
  /* P4: a sign-extended symbolic index below the pointer. */
  if (q[off] == 8) {
    klee_assert(off == -2);
    return 4;
  }
  return 0;
}
