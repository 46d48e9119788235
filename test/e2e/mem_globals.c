/* Globals with initialisers, including pointers to other globals (and into them), a pointer
 * to a string literal, a struct array holding pointers, a function pointer, and a
 * zero-initialised array; stores through global pointers are seen by later reads. Only the
 * last probe forks (a symbolic index into a global array): 2 completed paths. */
// EXPECT: completed=2 errors=0 tests=2
// EXPECT-OBJECTS: i:4
#include <klee/klee.h>

static int helper(int x) { return x + 1000; }

int g_counter = 5;
int *g_ptr = &g_counter;
int **g_pptr = &g_ptr;
static const char g_msg[] = "symq";
const char *g_str = g_msg + 1;
int g_arr[4] = {10, 20, 30, 40};
int *g_arr_end = &g_arr[3];
struct cfg {
  int id;
  const char *name;
  int *target;
} g_cfgs[2] = {{1, "one", &g_arr[1]}, {2, "two", &g_counter}};
int (*g_fn)(int) = helper;
long long g_zero[8];
static int g_local_static = -3;

int main(void) {
  unsigned i;
  klee_make_symbolic(&i, sizeof i, "i");
  klee_assume(i < 4);

  klee_assert(**g_pptr == 5);
  klee_assert((g_str[0] == 'y') & (g_str[2] == 'q') & (g_str[3] == 0));
  klee_assert(*g_arr_end == 40);
  klee_assert(g_arr_end - g_arr == 3);
  klee_assert((*g_cfgs[0].target == 20) & (*g_cfgs[1].target == 5));
  klee_assert((g_cfgs[1].name[1] == 'w') & (g_cfgs[0].id == 1));
  klee_assert(g_fn(1) == 1001);
  klee_assert((g_zero[0] == 0) & (g_zero[7] == 0));
  klee_assert(g_local_static == -3);

  /* Stores through the pointers are visible through every alias. */
  **g_pptr = 7;
  klee_assert((g_counter == 7) & (*g_cfgs[1].target == 7));
  *g_cfgs[0].target += 1;
  klee_assert(g_arr[1] == 21);
  g_zero[3] = -1;
  klee_assert(g_zero[3] == -1);

  /* The only fork: g_arr is {10, 21, 30, 40}; 30 is at index 2. */
  if (g_arr[i] == 30) {
    klee_assert(i == 2);
    return 1;
  }
  return 0;
}
