/*
 * string.c — <string.h> and <strings.h> for symbolic execution.
 *
 * Every function is the textbook loop: one byte examined per iteration, one branch per
 * comparison, so a symbolic byte forks exactly where a naive implementation would (a
 * strlen over n symbolic bytes has n + 1 paths; a strcmp forks on the terminator and on
 * equality, byte by byte). Two exceptions keep a symbolic character from forking once per
 * byte of a known string: set membership (in_set) and the searches of known bytes for a
 * character (search_known: strchr, strrchr, strchrnul, memchr on a constant table).
 * Return values follow glibc on x86-64 where the standard leaves them open: memcmp, strcmp
 * and friends return the difference of the first differing bytes as unsigned char
 * (tolower'd for the case-insensitive ones).
 *
 * The messages of strerror and strsignal are glibc 2.36's, word for word.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <klee/klee.h>

#include "model.h"

/* ---- shared helpers (never the public names: a driver may define its own) ------------- */

size_t __symq_strlen(const char *s) {
  size_t n = 0;
  while (s[n] != '\0') n++;
  return n;
}

/* Branch-free: the result is a symbolic expression, no fork (ctype.c has the same). */
int __symq_tolower(int c) { return c + 32 * ((c >= 'A') & (c <= 'Z')); }

static void *copy_forward(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  for (size_t i = 0; i < n; i++) d[i] = s[i];
  return dst;
}

static void *move_bytes(void *dst, const void *src, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  if (d < s) {
    for (size_t i = 0; i < n; i++) d[i] = s[i];
  } else if (d > s) {
    for (size_t i = n; i > 0; i--) d[i - 1] = s[i - 1];
  }
  return dst;
}

static size_t bounded_length(const char *s, size_t max) {
  size_t n = 0;
  while (n < max && s[n] != '\0') n++;
  return n;
}

static char *duplicate(const char *s, size_t n) {
  char *d = malloc(n + 1);
  if (!d) return NULL;
  copy_forward(d, s, n);
  d[n] = '\0';
  return d;
}

/* Is c (as unsigned char) one of the bytes of set? Branch-free in c, as ctype.c's classes
 * are: the equalities are or-ed over the whole set (| on ints, never an early return, which
 * would fork once per byte of set on a symbolic c), so strspn(s, "0123456789") forks once
 * per byte of s — in the set or not — instead of eleven times, and its loop has the one
 * continuing path a pattern merge needs. A symbolic set still forks on its terminator. */
static int in_set(unsigned char c, const char *set) {
  int found = 0;
  for (const unsigned char *p = (const unsigned char *)set; *p != '\0'; p++)
    found |= *p == c;
  return found;
}

/* Searching known bytes for a symbolic character. strchr(" \t\n", c), strchr("+-", *p) or
 * strchr(table, ch) with a symbolic c would fork at every byte of the constant string —
 * 65 paths a call on a base64 alphabet — where the caller's own `if (p)` is the
 * only question it asks. So the bytes whose values are known (klee_is_symbolic says so;
 * natively all are) are examined without a branch on c: the match and its index are or-ed
 * into expressions with & and | (see ctype.c on why never && || ?:), and the caller gets
 * one fork, found or not, with `base + index` on the found side. Only the loop's own end
 * branches, on the terminator or the bound, whose bytes are known. From the first unknown
 * byte on, the textbook forking loop takes over: over a symbolic string each position's
 * fork is what the pattern merge merges (docs/merging.md), so those loops keep the shape
 * and place they had in the entry functions, which a string whose first byte is symbolic
 * (the common case in a driver) or a concrete character (strchr(s, '/'): search_known's
 * ~15 instructions a byte would buy nothing) enter after one klee_is_symbolic. */

enum { MATCH_LAST = 1, STOP_AT_NUL = 2, NUL_MATCHES = 4 };

/* What the search of the known bytes p[0..end) found. */
typedef struct known_search {
  size_t end;  /* bytes examined: up to the first unknown one, or the end (`ended`) */
  int ended;   /* the terminator (STOP_AT_NUL, examined: end counts it) or the bound n */
  int found;   /* a truth value, symbolic when c is: some examined byte matched */
  size_t at;   /* the index of the first (MATCH_LAST: the last) match when found */
} known_search;

static known_search search_known(const unsigned char *p, size_t n, unsigned char ch,
                                 int how) {
  known_search k = {0, 0, 0, 0};
  int last = (how & MATCH_LAST) != 0, nul_matches = (how & NUL_MATCHES) != 0;
  for (;; k.end++) {
    if (k.end >= n) {
      k.ended = 1;
      return k;
    }
    if (klee_is_symbolic(p[k.end])) return k;
    unsigned char b = p[k.end];
    int hit = (b == ch) | (nul_matches & (b == '\0'));
    size_t take = 0 - (size_t)(hit & (last | !k.found)); /* all ones to record k.end */
    k.at = (k.at & ~take) | (k.end & take);
    k.found |= hit;
    if ((how & STOP_AT_NUL) && b == '\0') { /* concrete: b is known */
      k.end++;
      k.ended = 1;
      return k;
    }
  }
}

/* ---- memory ------------------------------------------------------------------------ */

WEAK void *memcpy(void *restrict dst, const void *restrict src, size_t n) {
  return copy_forward(dst, src, n);
}

WEAK void *mempcpy(void *restrict dst, const void *restrict src, size_t n) {
  copy_forward(dst, src, n);
  return (char *)dst + n;
}

WEAK void *memmove(void *dst, const void *src, size_t n) { return move_bytes(dst, src, n); }

WEAK void *memset(void *dst, int c, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = (unsigned char)c;
  return dst;
}

WEAK void bzero(void *dst, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = 0;
}

WEAK void explicit_bzero(void *dst, size_t n) {
  unsigned char *d = dst;
  for (size_t i = 0; i < n; i++) d[i] = 0;
}

WEAK void bcopy(const void *src, void *dst, size_t n) { move_bytes(dst, src, n); }

WEAK int memcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (size_t i = 0; i < n; i++)
    if (p[i] != q[i]) return p[i] - q[i];
  return 0;
}

WEAK int bcmp(const void *a, const void *b, size_t n) {
  const unsigned char *p = a, *q = b;
  for (size_t i = 0; i < n; i++)
    if (p[i] != q[i]) return p[i] - q[i];
  return 0;
}

static void *memchr_known(const unsigned char *p, unsigned char ch, size_t n);

/* A symbolic c among known bytes goes to search_known (a symbolic n would fork on its bound
 * there, and the loop then ask the solver again: wget's memchr(p, '\n', end - p) over
 * symbolic text, 2.8% more Z3 effort under pat); everything else takes the forking loop,
 * which a concrete c costs one klee_is_symbolic to reach. */
WEAK void *memchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  if (klee_is_symbolic(c) && !klee_is_symbolic(n) && n > 0 && !klee_is_symbolic(p[0]))
    return memchr_known(p, ch, n);
  for (size_t i = 0; i < n; i++)
    if (p[i] == ch) return (void *)(p + i);
  return NULL;
}

/* The rest after the known bytes starts with a symbolic one: memchr's loop. Calling the
 * public name is safe here, unlike elsewhere in the model (model.h): only the model's own
 * memchr reaches this function, and a driver that defines memchr replaces that whole. */
static void *memchr_known(const unsigned char *p, unsigned char ch, size_t n) {
  known_search k = search_known(p, n, ch, 0);
  if (k.found) return (void *)(p + k.at);
  if (k.ended) return NULL;
  return memchr(p + k.end, ch, n - k.end);
}

WEAK void *memrchr(const void *s, int c, size_t n) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  for (size_t i = n; i > 0; i--)
    if (p[i - 1] == ch) return (void *)(p + i - 1);
  return NULL;
}

WEAK void *rawmemchr(const void *s, int c) {
  const unsigned char *p = s;
  unsigned char ch = (unsigned char)c;
  while (*p != ch) p++;
  return (void *)p;
}

WEAK void *memccpy(void *restrict dst, const void *restrict src, int c, size_t n) {
  unsigned char *d = dst;
  const unsigned char *s = src;
  unsigned char ch = (unsigned char)c;
  for (size_t i = 0; i < n; i++) {
    d[i] = s[i];
    if (s[i] == ch) return d + i + 1;
  }
  return NULL;
}

WEAK void *memmem(const void *haystack, size_t hlen, const void *needle, size_t nlen) {
  const unsigned char *h = haystack, *n = needle;
  if (nlen == 0) return (void *)h;
  for (size_t i = 0; i + nlen <= hlen; i++) {
    size_t k = 0;
    while (k < nlen && h[i + k] == n[k]) k++;
    if (k == nlen) return (void *)(h + i);
  }
  return NULL;
}

/* ---- lengths ----------------------------------------------------------------------- */

WEAK size_t strlen(const char *s) { return __symq_strlen(s); }

WEAK size_t strnlen(const char *s, size_t max) { return bounded_length(s, max); }

/* ---- copying and concatenation ------------------------------------------------------ */

WEAK char *strcpy(char *restrict dst, const char *restrict src) {
  size_t i = 0;
  while ((dst[i] = src[i]) != '\0') i++;
  return dst;
}

WEAK char *stpcpy(char *restrict dst, const char *restrict src) {
  size_t i = 0;
  while ((dst[i] = src[i]) != '\0') i++;
  return dst + i;
}

WEAK char *strncpy(char *restrict dst, const char *restrict src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++) dst[i] = src[i];
  for (; i < n; i++) dst[i] = '\0';
  return dst;
}

WEAK char *stpncpy(char *restrict dst, const char *restrict src, size_t n) {
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++) dst[i] = src[i];
  char *end = dst + i;
  for (; i < n; i++) dst[i] = '\0';
  return end;
}

WEAK char *strcat(char *restrict dst, const char *restrict src) {
  char *d = dst + __symq_strlen(dst);
  size_t i = 0;
  while ((d[i] = src[i]) != '\0') i++;
  return dst;
}

WEAK char *strncat(char *restrict dst, const char *restrict src, size_t n) {
  char *d = dst + __symq_strlen(dst);
  size_t i = 0;
  for (; i < n && src[i] != '\0'; i++) d[i] = src[i];
  d[i] = '\0';
  return dst;
}

WEAK char *strdup(const char *s) { return duplicate(s, __symq_strlen(s)); }
WEAK char *__strdup(const char *s) { return duplicate(s, __symq_strlen(s)); }

WEAK char *strndup(const char *s, size_t n) { return duplicate(s, bounded_length(s, n)); }
WEAK char *__strndup(const char *s, size_t n) { return duplicate(s, bounded_length(s, n)); }

/* ---- comparison --------------------------------------------------------------------- */

static int compare(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  while (*p != '\0' && *p == *q) p++, q++;
  return *p - *q;
}

WEAK int strcmp(const char *a, const char *b) { return compare(a, b); }

WEAK int strncmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (size_t i = 0; i < n; i++) {
    if (p[i] != q[i]) return p[i] - q[i];
    if (p[i] == '\0') return 0;
  }
  return 0;
}

WEAK int strcasecmp(const char *a, const char *b) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (;; p++, q++) {
    int x = __symq_tolower(*p), y = __symq_tolower(*q);
    if (x != y) return x - y;
    if (x == '\0') return 0;
  }
}

WEAK int strncasecmp(const char *a, const char *b, size_t n) {
  const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
  for (size_t i = 0; i < n; i++) {
    int x = __symq_tolower(p[i]), y = __symq_tolower(q[i]);
    if (x != y) return x - y;
    if (x == '\0') return 0;
  }
  return 0;
}

/* The "C" locale: collation is byte order, and the transformed string is the string. */
WEAK int strcoll(const char *a, const char *b) { return compare(a, b); }

WEAK size_t strxfrm(char *restrict dst, const char *restrict src, size_t n) {
  size_t len = __symq_strlen(src);
  for (size_t i = 0; i < n && i <= len; i++) dst[i] = src[i];
  return len;
}

/* ---- searching ---------------------------------------------------------------------- */

static char *find_first_known(const char *s, int c);

static char *find_first(const char *s, int c) {
  if (klee_is_symbolic(c) && !klee_is_symbolic(*s)) return find_first_known(s, c);
  char ch = (char)c;
  for (;; s++) {
    if (*s == ch) return (char *)s;
    if (*s == '\0') return NULL;
  }
}

static char *find_first_known(const char *s, int c) {
  known_search k = search_known((const unsigned char *)s, SIZE_MAX, (unsigned char)c,
                                STOP_AT_NUL);
  if (k.found) return (char *)s + k.at;
  if (k.ended) return NULL;
  return find_first(s + k.end, c); /* a symbolic byte first: the loop */
}

WEAK char *strchr(const char *s, int c) { return find_first(s, c); }
WEAK char *index(const char *s, int c) { return find_first(s, c); }

static char *strchrnul_known(const char *s, int c);

WEAK char *strchrnul(const char *s, int c) {
  if (klee_is_symbolic(c) && !klee_is_symbolic(*s)) return strchrnul_known(s, c);
  char ch = (char)c;
  while (*s != ch && *s != '\0') s++;
  return (char *)s;
}

/* The terminator always matches, so a search that reached it needs no branch at all. The
 * rest goes back to strchrnul (its own caller, as memchr_known's). */
static char *strchrnul_known(const char *s, int c) {
  known_search k = search_known((const unsigned char *)s, SIZE_MAX, (unsigned char)c,
                                STOP_AT_NUL | NUL_MATCHES);
  if (k.ended) return (char *)s + k.at;
  if (k.found) return (char *)s + k.at;
  return strchrnul(s + k.end, c);
}

static char *find_last_known(const char *s, int c, const char *last);

/* last: the match found before s (NULL at the start). */
static char *find_last(const char *s, int c, const char *last) {
  if (klee_is_symbolic(c) && !klee_is_symbolic(*s)) return find_last_known(s, c, last);
  char ch = (char)c;
  for (;; s++) {
    if (*s == ch) last = s;
    if (*s == '\0') return (char *)last;
  }
}

static char *find_last_known(const char *s, int c, const char *last) {
  known_search k = search_known((const unsigned char *)s, SIZE_MAX, (unsigned char)c,
                                STOP_AT_NUL | MATCH_LAST);
  if (k.found) last = s + k.at;
  if (k.ended) return (char *)last;
  return find_last(s + k.end, c, last);
}

WEAK char *strrchr(const char *s, int c) { return find_last(s, c, NULL); }
WEAK char *rindex(const char *s, int c) { return find_last(s, c, NULL); }

/* One branch per byte of s in these three: the terminator test is folded into the set test
 * with & and | (a NUL is in no set), so every byte that continues the loop takes one path. */
WEAK size_t strspn(const char *s, const char *accept) {
  size_t n = 0;
  while (in_set((unsigned char)s[n], accept)) n++;
  return n;
}

WEAK size_t strcspn(const char *s, const char *reject) {
  size_t n = 0;
  while ((s[n] != '\0') & !in_set((unsigned char)s[n], reject)) n++;
  return n;
}

WEAK char *strpbrk(const char *s, const char *accept) {
  while ((*s != '\0') & !in_set((unsigned char)*s, accept)) s++;
  return *s != '\0' ? (char *)s : NULL;
}

WEAK char *strstr(const char *haystack, const char *needle) {
  if (*needle == '\0') return (char *)haystack;
  for (const char *h = haystack; *h != '\0'; h++) {
    size_t k = 0;
    while (needle[k] != '\0' && h[k] == needle[k]) k++;
    if (needle[k] == '\0') return (char *)h;
  }
  return NULL;
}

WEAK char *strcasestr(const char *haystack, const char *needle) {
  if (*needle == '\0') return (char *)haystack;
  for (const char *h = haystack; *h != '\0'; h++) {
    size_t k = 0;
    while (needle[k] != '\0' &&
           __symq_tolower((unsigned char)h[k]) == __symq_tolower((unsigned char)needle[k]))
      k++;
    if (needle[k] == '\0') return (char *)h;
  }
  return NULL;
}

/* ---- tokens -------------------------------------------------------------------------- */

static char *tokenize(char *restrict s, const char *restrict delim, char **restrict save) {
  if (s == NULL) s = *save;
  while (*s != '\0' && in_set((unsigned char)*s, delim)) s++;
  if (*s == '\0') {
    *save = s;
    return NULL;
  }
  char *token = s;
  while (*s != '\0' && !in_set((unsigned char)*s, delim)) s++;
  if (*s == '\0') {
    *save = s;
  } else {
    *s = '\0';
    *save = s + 1;
  }
  return token;
}

WEAK char *strtok_r(char *restrict s, const char *restrict delim, char **restrict save) {
  return tokenize(s, delim, save);
}

WEAK char *__strtok_r(char *restrict s, const char *restrict delim, char **restrict save) {
  return tokenize(s, delim, save);
}

WEAK char *strtok(char *restrict s, const char *restrict delim) {
  static char *save;
  return tokenize(s, delim, &save);
}

WEAK char *strsep(char **restrict sp, const char *restrict delim) {
  char *s = *sp;
  if (s == NULL) return NULL;
  char *end = s;
  while (*end != '\0' && !in_set((unsigned char)*end, delim)) end++;
  if (*end == '\0') {
    *sp = NULL;
  } else {
    *end = '\0';
    *sp = end + 1;
  }
  return s;
}

/* ---- <strings.h> bits ------------------------------------------------------------------ */

WEAK int ffs(int i) {
  unsigned u = (unsigned)i;
  for (int bit = 1; bit <= 32; bit++, u >>= 1)
    if (u & 1u) return bit;
  return 0;
}

static int lowest_bit(unsigned long long u) {
  for (int bit = 1; bit <= 64; bit++, u >>= 1)
    if (u & 1u) return bit;
  return 0;
}

WEAK int ffsl(long i) { return lowest_bit((unsigned long)i); }
WEAK int ffsll(long long i) { return lowest_bit((unsigned long long)i); }

/* ---- messages ---------------------------------------------------------------------------- */

/* glibc 2.36's strerror texts (Linux x86-64 numbering); NULL where glibc has none (it
 * then says "Unknown error N"). A switch rather than a table: a symbolic errnum forks
 * once per feasible value, each path with a concrete string, where a table read would
 * give a symbolic pointer into ~130 strings. */
static const char *error_message(int errnum) {
  switch (errnum) {
  case 0: return "Success";
  case EPERM: return "Operation not permitted";
  case ENOENT: return "No such file or directory";
  case ESRCH: return "No such process";
  case EINTR: return "Interrupted system call";
  case EIO: return "Input/output error";
  case ENXIO: return "No such device or address";
  case E2BIG: return "Argument list too long";
  case ENOEXEC: return "Exec format error";
  case EBADF: return "Bad file descriptor";
  case ECHILD: return "No child processes";
  case EAGAIN: return "Resource temporarily unavailable";
  case ENOMEM: return "Cannot allocate memory";
  case EACCES: return "Permission denied";
  case EFAULT: return "Bad address";
  case ENOTBLK: return "Block device required";
  case EBUSY: return "Device or resource busy";
  case EEXIST: return "File exists";
  case EXDEV: return "Invalid cross-device link";
  case ENODEV: return "No such device";
  case ENOTDIR: return "Not a directory";
  case EISDIR: return "Is a directory";
  case EINVAL: return "Invalid argument";
  case ENFILE: return "Too many open files in system";
  case EMFILE: return "Too many open files";
  case ENOTTY: return "Inappropriate ioctl for device";
  case ETXTBSY: return "Text file busy";
  case EFBIG: return "File too large";
  case ENOSPC: return "No space left on device";
  case ESPIPE: return "Illegal seek";
  case EROFS: return "Read-only file system";
  case EMLINK: return "Too many links";
  case EPIPE: return "Broken pipe";
  case EDOM: return "Numerical argument out of domain";
  case ERANGE: return "Numerical result out of range";
  case EDEADLK: return "Resource deadlock avoided";
  case ENAMETOOLONG: return "File name too long";
  case ENOLCK: return "No locks available";
  case ENOSYS: return "Function not implemented";
  case ENOTEMPTY: return "Directory not empty";
  case ELOOP: return "Too many levels of symbolic links";
  case ENOMSG: return "No message of desired type";
  case EIDRM: return "Identifier removed";
  case ECHRNG: return "Channel number out of range";
  case EL2NSYNC: return "Level 2 not synchronized";
  case EL3HLT: return "Level 3 halted";
  case EL3RST: return "Level 3 reset";
  case ELNRNG: return "Link number out of range";
  case EUNATCH: return "Protocol driver not attached";
  case ENOCSI: return "No CSI structure available";
  case EL2HLT: return "Level 2 halted";
  case EBADE: return "Invalid exchange";
  case EBADR: return "Invalid request descriptor";
  case EXFULL: return "Exchange full";
  case ENOANO: return "No anode";
  case EBADRQC: return "Invalid request code";
  case EBADSLT: return "Invalid slot";
  case EBFONT: return "Bad font file format";
  case ENOSTR: return "Device not a stream";
  case ENODATA: return "No data available";
  case ETIME: return "Timer expired";
  case ENOSR: return "Out of streams resources";
  case ENONET: return "Machine is not on the network";
  case ENOPKG: return "Package not installed";
  case EREMOTE: return "Object is remote";
  case ENOLINK: return "Link has been severed";
  case EADV: return "Advertise error";
  case ESRMNT: return "Srmount error";
  case ECOMM: return "Communication error on send";
  case EPROTO: return "Protocol error";
  case EMULTIHOP: return "Multihop attempted";
  case EDOTDOT: return "RFS specific error";
  case EBADMSG: return "Bad message";
  case EOVERFLOW: return "Value too large for defined data type";
  case ENOTUNIQ: return "Name not unique on network";
  case EBADFD: return "File descriptor in bad state";
  case EREMCHG: return "Remote address changed";
  case ELIBACC: return "Can not access a needed shared library";
  case ELIBBAD: return "Accessing a corrupted shared library";
  case ELIBSCN: return ".lib section in a.out corrupted";
  case ELIBMAX: return "Attempting to link in too many shared libraries";
  case ELIBEXEC: return "Cannot exec a shared library directly";
  case EILSEQ: return "Invalid or incomplete multibyte or wide character";
  case ERESTART: return "Interrupted system call should be restarted";
  case ESTRPIPE: return "Streams pipe error";
  case EUSERS: return "Too many users";
  case ENOTSOCK: return "Socket operation on non-socket";
  case EDESTADDRREQ: return "Destination address required";
  case EMSGSIZE: return "Message too long";
  case EPROTOTYPE: return "Protocol wrong type for socket";
  case ENOPROTOOPT: return "Protocol not available";
  case EPROTONOSUPPORT: return "Protocol not supported";
  case ESOCKTNOSUPPORT: return "Socket type not supported";
  case EOPNOTSUPP: return "Operation not supported";
  case EPFNOSUPPORT: return "Protocol family not supported";
  case EAFNOSUPPORT: return "Address family not supported by protocol";
  case EADDRINUSE: return "Address already in use";
  case EADDRNOTAVAIL: return "Cannot assign requested address";
  case ENETDOWN: return "Network is down";
  case ENETUNREACH: return "Network is unreachable";
  case ENETRESET: return "Network dropped connection on reset";
  case ECONNABORTED: return "Software caused connection abort";
  case ECONNRESET: return "Connection reset by peer";
  case ENOBUFS: return "No buffer space available";
  case EISCONN: return "Transport endpoint is already connected";
  case ENOTCONN: return "Transport endpoint is not connected";
  case ESHUTDOWN: return "Cannot send after transport endpoint shutdown";
  case ETOOMANYREFS: return "Too many references: cannot splice";
  case ETIMEDOUT: return "Connection timed out";
  case ECONNREFUSED: return "Connection refused";
  case EHOSTDOWN: return "Host is down";
  case EHOSTUNREACH: return "No route to host";
  case EALREADY: return "Operation already in progress";
  case EINPROGRESS: return "Operation now in progress";
  case ESTALE: return "Stale file handle";
  case EUCLEAN: return "Structure needs cleaning";
  case ENOTNAM: return "Not a XENIX named type file";
  case ENAVAIL: return "No XENIX semaphores available";
  case EISNAM: return "Is a named type file";
  case EREMOTEIO: return "Remote I/O error";
  case EDQUOT: return "Disk quota exceeded";
  case ENOMEDIUM: return "No medium found";
  case EMEDIUMTYPE: return "Wrong medium type";
  case ECANCELED: return "Operation canceled";
  case ENOKEY: return "Required key not available";
  case EKEYEXPIRED: return "Key has expired";
  case EKEYREVOKED: return "Key has been revoked";
  case EKEYREJECTED: return "Key was rejected by service";
  case EOWNERDEAD: return "Owner died";
  case ENOTRECOVERABLE: return "State not recoverable";
  case ERFKILL: return "Operation not possible due to RF-kill";
  case EHWPOISON: return "Memory page has hardware error";
  default: return NULL;
  }
}

/* Writes prefix followed by the decimal value of n and a NUL into buf (cap bytes, cut to
 * fit); returns buf. */
static char *unknown_text(char *buf, size_t cap, const char *prefix, int n) {
  char digits[16];
  size_t nd = 0;
  unsigned u = n < 0 ? 0u - (unsigned)n : (unsigned)n;
  do {
    digits[nd++] = (char)('0' + u % 10);
    u /= 10;
  } while (u != 0);
  size_t at = 0;
  for (const char *p = prefix; *p != '\0' && at + 1 < cap; p++) buf[at++] = *p;
  if (n < 0 && at + 1 < cap) buf[at++] = '-';
  while (nd > 0 && at + 1 < cap) buf[at++] = digits[--nd];
  if (cap > 0) buf[at] = '\0';
  return buf;
}

const char *__symq_strerror(int errnum, char *buf, size_t n) {
  const char *m = error_message(errnum);
  if (m) return m;
  return unknown_text(buf, n, "Unknown error ", errnum);
}

WEAK char *strerror(int errnum) {
  static char unknown[32];
  return (char *)__symq_strerror(errnum, unknown, sizeof unknown);
}

WEAK char *strerror_l(int errnum, locale_t locale) {
  static char unknown[32];
  (void)locale;
  return (char *)__symq_strerror(errnum, unknown, sizeof unknown);
}

/* The GNU strerror_r (the symbol `strerror_r`): a known message is returned as is (buf
 * unused), an unknown one is written into buf. */
WEAK char *strerror_r(int errnum, char *buf, size_t n) {
  return (char *)__symq_strerror(errnum, buf, n);
}

/* The XSI strerror_r, which glibc's <string.h> names __xpg_strerror_r unless _GNU_SOURCE. */
int __xpg_strerror_r(int errnum, char *buf, size_t n);
WEAK int __xpg_strerror_r(int errnum, char *buf, size_t n) {
  const char *m = error_message(errnum);
  if (!m) {
    unknown_text(buf, n, "Unknown error ", errnum);
    return EINVAL;
  }
  size_t len = __symq_strlen(m);
  if (n == 0) return ERANGE;
  size_t k = len < n - 1 ? len : n - 1;
  copy_forward(buf, m, k);
  buf[k] = '\0';
  return len >= n ? ERANGE : 0;
}

static const char *signal_message(int sig) {
  switch (sig) {
  case SIGHUP: return "Hangup";
  case SIGINT: return "Interrupt";
  case SIGQUIT: return "Quit";
  case SIGILL: return "Illegal instruction";
  case SIGTRAP: return "Trace/breakpoint trap";
  case SIGABRT: return "Aborted";
  case SIGBUS: return "Bus error";
  case SIGFPE: return "Floating point exception";
  case SIGKILL: return "Killed";
  case SIGUSR1: return "User defined signal 1";
  case SIGSEGV: return "Segmentation fault";
  case SIGUSR2: return "User defined signal 2";
  case SIGPIPE: return "Broken pipe";
  case SIGALRM: return "Alarm clock";
  case SIGTERM: return "Terminated";
  case SIGSTKFLT: return "Stack fault";
  case SIGCHLD: return "Child exited";
  case SIGCONT: return "Continued";
  case SIGSTOP: return "Stopped (signal)";
  case SIGTSTP: return "Stopped";
  case SIGTTIN: return "Stopped (tty input)";
  case SIGTTOU: return "Stopped (tty output)";
  case SIGURG: return "Urgent I/O condition";
  case SIGXCPU: return "CPU time limit exceeded";
  case SIGXFSZ: return "File size limit exceeded";
  case SIGVTALRM: return "Virtual timer expired";
  case SIGPROF: return "Profiling timer expired";
  case SIGWINCH: return "Window changed";
  case SIGIO: return "I/O possible";
  case SIGPWR: return "Power failure";
  case SIGSYS: return "Bad system call";
  default: return NULL;
  }
}

WEAK char *strsignal(int sig) {
  static char unknown[40];
  const char *m = signal_message(sig);
  if (m) return (char *)m;
  /* glibc: 32 and 33 belong to the threads library; 34..64 are SIGRTMIN+k */
  if (sig >= 34 && sig <= 64)
    return unknown_text(unknown, sizeof unknown, "Real-time signal ", sig - 34);
  return unknown_text(unknown, sizeof unknown, "Unknown signal ", sig);
}
