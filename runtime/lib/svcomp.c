/*
 * svcomp.c — the SV-COMP / Test-Comp environment: the __VERIFIER_nondet_X functions the
 * competition rules let a benchmark call, __VERIFIER_nondet_memory, and
 * __VERIFIER_atomic_begin/end. (reach_error, __VERIFIER_error and __VERIFIER_assume are
 * built into the executor.)
 *
 * Each __VERIFIER_nondet_X call makes one fresh symbolic object of exactly sizeof(X) bytes
 * named nondet_X, so a test's ktest holds one object per call, in call order — which is
 * exactly a Test-Comp test vector. engine/out/testcomp.c turns the objects back into
 * <input> values by name, so the names and sizes here and its table (testcomp_types) must
 * agree; test/unit/test_testcomp.c reads this file and checks that they do. Adding a
 * function here means adding its row there.
 *
 * The types are the LP64 (x86-64) ones, the only target symq runs: long, size_t, pointers,
 * pthread_t and sector_t are 8 bytes; loff_t is the kernel's long long; u8/u16/u32/u64 are
 * the kernel's fixed-width unsigned types (u8, u16 and u64 are not in the rules' list but
 * occur in older benchmarks).
 *
 * Every definition is weak: a program (or a KLEE-style harness) that defines its own
 * __VERIFIER_nondet_int keeps it, instead of failing to link.
 */
#include <klee/klee.h>
#include <stddef.h>

#define SVCOMP_WEAK __attribute__((weak))

/* One definition per type: a local of type T, made symbolic whole, returned. The local is
 * an object of its own (its address is taken), sized exactly sizeof(T). */
#define SVCOMP_NONDET(NAME, T)                                 \
  SVCOMP_WEAK T __VERIFIER_nondet_##NAME(void);                \
  SVCOMP_WEAK T __VERIFIER_nondet_##NAME(void) {               \
    T value;                                                   \
    klee_make_symbolic(&value, sizeof value, "nondet_" #NAME); \
    return value;                                              \
  }

SVCOMP_NONDET(char, char)
SVCOMP_NONDET(uchar, unsigned char)
SVCOMP_NONDET(short, short)
SVCOMP_NONDET(ushort, unsigned short)
SVCOMP_NONDET(int, int)
SVCOMP_NONDET(uint, unsigned int)
SVCOMP_NONDET(unsigned, unsigned int)
SVCOMP_NONDET(long, long)
SVCOMP_NONDET(ulong, unsigned long)
SVCOMP_NONDET(longlong, long long)
SVCOMP_NONDET(ulonglong, unsigned long long)
SVCOMP_NONDET(int128, __int128)
SVCOMP_NONDET(uint128, unsigned __int128)
SVCOMP_NONDET(float, float)
SVCOMP_NONDET(double, double)
SVCOMP_NONDET(size_t, size_t)
SVCOMP_NONDET(loff_t, long long)
SVCOMP_NONDET(sector_t, unsigned long)
SVCOMP_NONDET(pthread_t, unsigned long)
SVCOMP_NONDET(u8, unsigned char)
SVCOMP_NONDET(u16, unsigned short)
SVCOMP_NONDET(u32, unsigned int)
SVCOMP_NONDET(u64, unsigned long long)
SVCOMP_NONDET(pointer, void *)
SVCOMP_NONDET(pchar, char *)

/* A _Bool object would let the program see any of 256 byte values through it; the
 * competition's bool is 0 or 1, so the one-byte object is constrained to that (no fork:
 * the comparison is not a branch). */
SVCOMP_WEAK _Bool __VERIFIER_nondet_bool(void);
SVCOMP_WEAK _Bool __VERIFIER_nondet_bool(void) {
  unsigned char value;
  klee_make_symbolic(&value, sizeof value, "nondet_bool");
  klee_assume(value <= 1);
  return value != 0;
}

/* Fills the whole block at `mem` (which, by the rules, is the start of a block of exactly
 * `size` bytes) with arbitrary bytes: one object "nondet_memory" of `size` bytes. The rules
 * define it as `size` calls of __VERIFIER_nondet_uchar, and the Test-Comp writer emits it
 * that way: one unsigned char input per byte. */
SVCOMP_WEAK void __VERIFIER_nondet_memory(void *mem, size_t size);
SVCOMP_WEAK void __VERIFIER_nondet_memory(void *mem, size_t size) {
  if (size == 0) return;
  klee_make_symbolic(mem, size, "nondet_memory");
}

/* Atomic sections matter only between threads; symq runs one thread, so they are empty. */
SVCOMP_WEAK void __VERIFIER_atomic_begin(void);
SVCOMP_WEAK void __VERIFIER_atomic_begin(void) {}
SVCOMP_WEAK void __VERIFIER_atomic_end(void);
SVCOMP_WEAK void __VERIFIER_atomic_end(void) {}
