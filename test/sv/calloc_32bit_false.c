// VERDICT: false
/* The allocators declared with 32-bit sizes, as in many tasks. */
extern void *calloc(unsigned, unsigned);
extern void *malloc(unsigned);
extern unsigned __VERIFIER_nondet_uint(void);
void reach_error(void);
int main() {
  unsigned n = __VERIFIER_nondet_uint();
  if (n == 0 || n > 8) return 0;
  int *a = calloc(n, sizeof(int));
  char *b = malloc(n);
  a[n - 1] = 5;
  b[0] = 1;
  if (a[n - 1] + n == 11) reach_error(); /* n == 6 */
  return 0;
}
