// VERDICT: false
/* A constructor runs before main, as natively. */
extern int __VERIFIER_nondet_int(void);
void reach_error(void);
static int ready;
__attribute__((constructor)) static void init(void) { ready = 42; }
int main() {
  int x = __VERIFIER_nondet_int();
  if (ready == 42 && x == 1) reach_error();
  return 0;
}
