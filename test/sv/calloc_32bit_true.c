// VERDICT: true
/* calloc zeroes its memory, whatever width its size parameters are declared with. */
extern void *calloc(unsigned, unsigned);
extern unsigned __VERIFIER_nondet_uint(void);
void reach_error(void);
int main() {
  unsigned n = __VERIFIER_nondet_uint();
  if (n == 0 || n > 8) return 0;
  int *a = calloc(n, sizeof(int));
  for (unsigned i = 0; i < n; i++)
    if (a[i] != 0) reach_error();
  return 0;
}
