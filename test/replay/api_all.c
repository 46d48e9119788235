/* Every function of the replay library, run by hand (not through symq) by the runner's
 * `library` scenario with ktests it writes: it prints what each input call returned, then
 * ends the way argv[1] says (the library's statuses are checked against replay.h). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <klee/klee.h>
#include <symq.h>

#define NONDET(suffix, type) type __VERIFIER_nondet_##suffix(void);
NONDET(char, char)
NONDET(uchar, unsigned char)
NONDET(short, short)
NONDET(ushort, unsigned short)
NONDET(int, int)
NONDET(uint, unsigned int)
NONDET(unsigned, unsigned int)
NONDET(long, long)
NONDET(ulong, unsigned long)
NONDET(longlong, long long)
NONDET(ulonglong, unsigned long long)
NONDET(int128, __int128)
NONDET(uint128, unsigned __int128)
NONDET(float, float)
NONDET(double, double)
NONDET(size_t, size_t)
NONDET(loff_t, long long)
NONDET(sector_t, unsigned long)
NONDET(pthread_t, unsigned long)
NONDET(u8, unsigned char)
NONDET(u16, unsigned short)
NONDET(u32, unsigned int)
NONDET(u64, unsigned long long)
NONDET(pointer, void *)
NONDET(pchar, char *)
NONDET(bool, _Bool)
void __VERIFIER_nondet_memory(void *mem, size_t size);
void __VERIFIER_atomic_begin(void);
void __VERIFIER_atomic_end(void);
void __VERIFIER_assume(int condition);
void __VERIFIER_error(void);
void reach_error(void);

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ok";
  unsigned char buf[3];
  klee_make_symbolic(buf, sizeof buf, "buf");
  unsigned short h;
  symq_make_symbolic(&h, sizeof h, "h");
  int r = klee_range(10, 20, "r");
  int k = klee_int("k");
  int s = symq_range(-5, 5, "s");
  int t = symq_int("t");
  printf("buf=%u,%u,%u h=%u r=%d k=%d s=%d t=%d\n", buf[0], buf[1], buf[2], h, r, k, s, t);
  if (strcmp(mode, "nondet") == 0) {
    printf("char=%d\n", __VERIFIER_nondet_char());
    printf("uchar=%u\n", __VERIFIER_nondet_uchar());
    printf("short=%d\n", __VERIFIER_nondet_short());
    printf("ushort=%u\n", __VERIFIER_nondet_ushort());
    printf("int=%d\n", __VERIFIER_nondet_int());
    printf("uint=%u\n", __VERIFIER_nondet_uint());
    printf("unsigned=%u\n", __VERIFIER_nondet_unsigned());
    printf("long=%ld\n", __VERIFIER_nondet_long());
    printf("ulong=%lu\n", __VERIFIER_nondet_ulong());
    printf("longlong=%lld\n", __VERIFIER_nondet_longlong());
    printf("ulonglong=%llu\n", __VERIFIER_nondet_ulonglong());
    __int128 i128 = __VERIFIER_nondet_int128();
    printf("int128=%lld:%llu\n", (long long)(i128 >> 64), (unsigned long long)i128);
    unsigned __int128 u128 = __VERIFIER_nondet_uint128();
    printf("uint128=%llu:%llu\n", (unsigned long long)(u128 >> 64), (unsigned long long)u128);
    printf("float=%g\n", (double)__VERIFIER_nondet_float());
    printf("double=%g\n", __VERIFIER_nondet_double());
    printf("size_t=%zu\n", __VERIFIER_nondet_size_t());
    printf("loff_t=%lld\n", __VERIFIER_nondet_loff_t());
    printf("sector_t=%lu\n", __VERIFIER_nondet_sector_t());
    printf("pthread_t=%lu\n", __VERIFIER_nondet_pthread_t());
    printf("u8=%u\n", __VERIFIER_nondet_u8());
    printf("u16=%u\n", __VERIFIER_nondet_u16());
    printf("u32=%u\n", __VERIFIER_nondet_u32());
    printf("u64=%llu\n", __VERIFIER_nondet_u64());
    printf("pointer=%lu\n", (unsigned long)(uintptr_t)__VERIFIER_nondet_pointer());
    printf("pchar=%lu\n", (unsigned long)(uintptr_t)__VERIFIER_nondet_pchar());
    printf("bool=%d\n", __VERIFIER_nondet_bool());
    unsigned char mem[5];
    __VERIFIER_atomic_begin();
    __VERIFIER_nondet_memory(mem, sizeof mem);
    __VERIFIER_nondet_memory(mem, 0); /* takes no object */
    __VERIFIER_atomic_end();
    printf("memory=%u,%u,%u,%u,%u\n", mem[0], mem[1], mem[2], mem[3], mem[4]);
  }
  if (strcmp(mode, "buffer") == 0) {
    size_t n = 99;
    unsigned char *sb = symq_symbolic_buffer(4, &n, "sb");
    printf("sb=%zu:", n);
    for (size_t j = 0; j < n; j++) printf("%u,", sb[j]);
    printf("\n");
  }
  printf("is_symbolic=%u is_replay=%u,%d get_value=%d,%lld,%c\n", klee_is_symbolic((uintptr_t)k),
         klee_is_replay(), symq_is_replay(), klee_get_value_i32(k),
         (long long)klee_get_value_i64(-5), klee_get_value_i8('q'));
  klee_print_expr("k", k);
  klee_prefer_cex(&k, k > 0);
  klee_open_merge();
  klee_close_merge();
  symq_merge_begin();
  symq_merge_end();
  klee_assume(1);
  symq_assume(1);
  __VERIFIER_assume(1);
  fflush(stdout);
  if (strcmp(mode, "klee_assume") == 0) klee_assume(r > 100);
  if (strcmp(mode, "symq_assume") == 0) symq_assume(r > 100);
  if (strcmp(mode, "verifier_assume") == 0) __VERIFIER_assume(r > 100);
  if (strcmp(mode, "klee_report") == 0) klee_report_error(__FILE__, 77, "boom", "custom.err");
  if (strcmp(mode, "symq_report") == 0) symq_report_error(__FILE__, 78, "bang", "mine");
  if (strcmp(mode, "reach") == 0) reach_error();
  if (strcmp(mode, "verifier_error") == 0) __VERIFIER_error();
  if (strcmp(mode, "abort") == 0) klee_abort();
  if (strcmp(mode, "silent") == 0) klee_silent_exit(7);
  if (strcmp(mode, "range_empty") == 0) klee_range(5, 5, "e");
  if (strcmp(mode, "extra") == 0) klee_int("extra");
  return 0;
}
