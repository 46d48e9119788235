/* Input for test_ir: each function exercises one part of the decoder. Comments of the form
 * "LINE:name" mark lines the test looks up; keep them on the statement they mark. */
#include <stdarg.h>
#include <string.h>

struct S { int a; char b; long c[3]; };          /* size 32: a@0 b@4 c@8 */
struct S gs = {1, 2, {3, 4, 5}};
int arr[10];
int *gp = &arr[3];
struct S sarr[4];
const char *msg = "hello";
static int twice(int x) { return 2 * x; }
struct ops { int id; int (*fn)(int); const char *name; } ops = {7, twice, "ops"};
const int table[3] = {10, -20, 30};

int regs(int a, long b, char c) {
  int x = a + (int)b; /* LINE:add */
  return x < c;
}

int sum(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) /* LINE:loop */
    s += i;
  return s;
}

int ifelse(int x) {
  int r;
  if (x > 3)
    r = x + 1;
  else
    r = x - 1;
  if (x == 7)
    r *= 2;
  return r;
}

int sw(int y) {
  int r = 0;
  switch (y) { /* LINE:switch */
  case 1: case 2: r = 10; break;
  case 3: case 7: r = 20; break;
  case 9: r = 30; break;
  default: r = 5; break;
  }
  return r;
}

long gep(struct S *p, int i) { return p[i].c[2] + sarr[i].b; }

int ovf(int a, int b) {
  int r;
  if (__builtin_sadd_overflow(a, b, &r)) /* LINE:ovf */
    return -1;
  return r;
}

void cp(struct S *d, struct S *s) { *d = *s; }

int va(int n, ...) {
  va_list ap;
  va_start(ap, n);
  int s = va_arg(ap, int);
  va_end(ap);
  return s;
}

int cg(int x) {
  static void *t[] = {&&a, &&b};
  goto *t[x & 1]; /* LINE:goto */
a:
  return 1;
b:
  return 2;
}

int vla(int n) {
  int a[n];
  a[0] = 1;
  return a[n - 1];
}

double fp(double x, int k) {
  double y = x * 2.5;
  y += k;
  return y < 1.0 ? -y : y;
}

double fmuladd(double a, double b, float c) { return a * b + __builtin_fabsf(c); }

int const_sum(void) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += i;
  return s;
}

int calls(int x) { return twice(x) + regs(x, 1, 'a'); }

int main(void) { return sum(3); }
