// VERDICT: unknown
/* A global symq cannot decode (a long double constant) must not read as zeros: that
 * would reach the error wrongly. */
void reach_error(void);
struct pair { long double b; int a; } g = {1.0L, 5};
int main() {
  if (g.a != 5) reach_error();
  return 0;
}
