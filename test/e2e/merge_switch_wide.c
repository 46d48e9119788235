/* A switch with 71 targets (70 cases and the default) inside a manual region: the root of
 * the region's execution tree gets 71 children, and the merged k is an ite over all of them.
 * A merge that kept only some children (an early version kept 64) gives wrong values: the
 * validation fails and the asserts below fail on paths where they cannot. */
// ARGS: --merge=cfg --validate-merges
// EXPECT: completed=2 errors=0 tests=73
// EXPECT-OBJECTS: x:1
#include <klee/klee.h>

int main(void) {
  unsigned char x;
  klee_make_symbolic(&x, sizeof x, "x");
  int k = -1;
  klee_open_merge();
  switch (x) {
  case 0: k = 0; break;
  case 1: k = 3; break;
  case 2: k = 6; break;
  case 3: k = 9; break;
  case 4: k = 12; break;
  case 5: k = 15; break;
  case 6: k = 18; break;
  case 7: k = 21; break;
  case 8: k = 24; break;
  case 9: k = 27; break;
  case 10: k = 30; break;
  case 11: k = 33; break;
  case 12: k = 36; break;
  case 13: k = 39; break;
  case 14: k = 42; break;
  case 15: k = 45; break;
  case 16: k = 48; break;
  case 17: k = 51; break;
  case 18: k = 54; break;
  case 19: k = 57; break;
  case 20: k = 60; break;
  case 21: k = 63; break;
  case 22: k = 66; break;
  case 23: k = 69; break;
  case 24: k = 72; break;
  case 25: k = 75; break;
  case 26: k = 78; break;
  case 27: k = 81; break;
  case 28: k = 84; break;
  case 29: k = 87; break;
  case 30: k = 90; break;
  case 31: k = 93; break;
  case 32: k = 96; break;
  case 33: k = 99; break;
  case 34: k = 102; break;
  case 35: k = 105; break;
  case 36: k = 108; break;
  case 37: k = 111; break;
  case 38: k = 114; break;
  case 39: k = 117; break;
  case 40: k = 120; break;
  case 41: k = 123; break;
  case 42: k = 126; break;
  case 43: k = 129; break;
  case 44: k = 132; break;
  case 45: k = 135; break;
  case 46: k = 138; break;
  case 47: k = 141; break;
  case 48: k = 144; break;
  case 49: k = 147; break;
  case 50: k = 150; break;
  case 51: k = 153; break;
  case 52: k = 156; break;
  case 53: k = 159; break;
  case 54: k = 162; break;
  case 55: k = 165; break;
  case 56: k = 168; break;
  case 57: k = 171; break;
  case 58: k = 174; break;
  case 59: k = 177; break;
  case 60: k = 180; break;
  case 61: k = 183; break;
  case 62: k = 186; break;
  case 63: k = 189; break;
  case 64: k = 192; break;
  case 65: k = 195; break;
  case 66: k = 198; break;
  case 67: k = 201; break;
  case 68: k = 204; break;
  case 69: k = 207; break;
  default: k = 1000; break;
  }
  klee_close_merge();
  if (x < 70) klee_assert(k == 3 * x);
  else klee_assert(k == 1000);
  return 0;
}
