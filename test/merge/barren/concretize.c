/*
 * The shape of runtime/lib/strtod.c's digit_value, as busybox's sleep_duration reaches it:
 * a function whose loop concretizes a symbolic digit one value per turn (klee_get_value:
 * the state either takes the offered value and returns, or excludes it and asks again), called
 * once per byte of a string of symbolic length. Each call opens a region around that loop;
 * the states that return each hold a constant of their own, read by the caller's branches,
 * so the exit is declined early on its first MERGE_EARLY_SAMPLE arrivals, and the region
 * merges nothing. Two such regions released make the loop barren (merge/region.c): its later
 * calls open no region (under DFS four open before the first two are released: the first
 * call's, and the second call's in the three states that resume first). Before, an exit
 * declined early did not count — every call opened a region again, sampled and declined its
 * states: 17 regions here, 345 on sleep_duration in 2,000,000 instructions.
 * EXPECT: paths=257 regions=4
 */
#include <klee/klee.h>

#include "../../../drivers/symbolic_string.h"

/* digit_value's loop: the value the path allows, one turn per excluded value. */
static int concrete(int value) {
  for (;;) {
    int example = klee_get_value_i32(value);
    if (value == example) return example;
  }
}

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "s");
  if (n < 2) return 0;
  int first = concrete(s[0] & 15);
  int second = concrete(s[1] & 15);
  if (first + second == 13) return 1;
  return 2;
}
