/* Every __VERIFIER_nondet_X of the SV-COMP rules (and the legacy u8/u16/u64), once each:
 * one object per call, in call order, named nondet_X, of the type's size on x86-64. Each
 * value stays inside its type's range (every reach_error below is infeasible, so there is
 * no fork), the floats are only passed on (arithmetic on them would end the path), and the
 * atomic markers do nothing. One path. */
// EXPECT: completed=1 errors=0 tests=1
// EXPECT-OBJECTS: nondet_bool:1 nondet_char:1 nondet_uchar:1 nondet_short:2 nondet_ushort:2 nondet_int:4 nondet_uint:4 nondet_unsigned:4 nondet_long:8 nondet_ulong:8 nondet_longlong:8 nondet_ulonglong:8 nondet_int128:16 nondet_uint128:16 nondet_float:4 nondet_double:8 nondet_size_t:8 nondet_loff_t:8 nondet_sector_t:8 nondet_pthread_t:8 nondet_u8:1 nondet_u16:2 nondet_u32:4 nondet_u64:8 nondet_pointer:8 nondet_pchar:8
#include <stddef.h>
typedef long long loff_t;
typedef unsigned long sector_t;
typedef unsigned long pthread_t;
typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

extern _Bool __VERIFIER_nondet_bool(void);
extern char __VERIFIER_nondet_char(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern short __VERIFIER_nondet_short(void);
extern unsigned short __VERIFIER_nondet_ushort(void);
extern int __VERIFIER_nondet_int(void);
extern unsigned int __VERIFIER_nondet_uint(void);
extern unsigned __VERIFIER_nondet_unsigned(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);
extern long long __VERIFIER_nondet_longlong(void);
extern unsigned long long __VERIFIER_nondet_ulonglong(void);
extern __int128 __VERIFIER_nondet_int128(void);
extern unsigned __int128 __VERIFIER_nondet_uint128(void);
extern float __VERIFIER_nondet_float(void);
extern double __VERIFIER_nondet_double(void);
extern size_t __VERIFIER_nondet_size_t(void);
extern loff_t __VERIFIER_nondet_loff_t(void);
extern sector_t __VERIFIER_nondet_sector_t(void);
extern pthread_t __VERIFIER_nondet_pthread_t(void);
extern u8 __VERIFIER_nondet_u8(void);
extern u16 __VERIFIER_nondet_u16(void);
extern u32 __VERIFIER_nondet_u32(void);
extern u64 __VERIFIER_nondet_u64(void);
extern void *__VERIFIER_nondet_pointer(void);
extern char *__VERIFIER_nondet_pchar(void);
extern void __VERIFIER_atomic_begin(void);
extern void __VERIFIER_atomic_end(void);
void reach_error(void);

volatile float sink_f;
volatile double sink_d;
void *volatile sink_p;

int main(void) {
  __VERIFIER_atomic_begin();
  int b = __VERIFIER_nondet_bool();
  __VERIFIER_atomic_end();
  if (b < 0 || b > 1) reach_error();
  int c = __VERIFIER_nondet_char();
  if (c < -128 || c > 127) reach_error();
  int uc = __VERIFIER_nondet_uchar();
  if (uc < 0 || uc > 255) reach_error();
  int s = __VERIFIER_nondet_short();
  if (s < -32768 || s > 32767) reach_error();
  int us = __VERIFIER_nondet_ushort();
  if (us < 0 || us > 65535) reach_error();
  long long i = __VERIFIER_nondet_int();
  if (i < -2147483648LL || i > 2147483647LL) reach_error();
  long long ui = __VERIFIER_nondet_uint();
  if (ui < 0 || ui > 4294967295LL) reach_error();
  long long un = __VERIFIER_nondet_unsigned();
  if (un < 0 || un > 4294967295LL) reach_error();
  __int128 l = __VERIFIER_nondet_long();
  if (l < -(((__int128)1) << 63) || l >= (((__int128)1) << 63)) reach_error();
  __int128 ul = __VERIFIER_nondet_ulong();
  if (ul < 0 || ul >= (((__int128)1) << 64)) reach_error();
  __int128 ll = __VERIFIER_nondet_longlong();
  if (ll < -(((__int128)1) << 63) || ll >= (((__int128)1) << 63)) reach_error();
  __int128 ull = __VERIFIER_nondet_ulonglong();
  if (ull < 0 || ull >= (((__int128)1) << 64)) reach_error();
  __int128 i128 = __VERIFIER_nondet_int128();
  unsigned __int128 u128 = __VERIFIER_nondet_uint128();
  if ((i128 < 0) != ((i128 >> 127) != 0)) reach_error();
  if (u128 >> 127 > 1) reach_error();
  sink_f = __VERIFIER_nondet_float();
  sink_d = __VERIFIER_nondet_double();
  __int128 sz = __VERIFIER_nondet_size_t();
  if (sz < 0) reach_error();
  __int128 off = __VERIFIER_nondet_loff_t();
  if (off >= (((__int128)1) << 63)) reach_error();
  __int128 sec = __VERIFIER_nondet_sector_t();
  if (sec < 0) reach_error();
  __int128 th = __VERIFIER_nondet_pthread_t();
  if (th < 0) reach_error();
  int u8v = __VERIFIER_nondet_u8();
  if (u8v < 0 || u8v > 255) reach_error();
  int u16v = __VERIFIER_nondet_u16();
  if (u16v < 0 || u16v > 65535) reach_error();
  long long u32v = __VERIFIER_nondet_u32();
  if (u32v < 0 || u32v > 4294967295LL) reach_error();
  __int128 u64v = __VERIFIER_nondet_u64();
  if (u64v < 0 || u64v >= (((__int128)1) << 64)) reach_error();
  sink_p = __VERIFIER_nondet_pointer();
  sink_p = __VERIFIER_nondet_pchar();
  return 0;
}
