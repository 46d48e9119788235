/*
 * xalloc — symq's allocator and its one out-of-memory boundary. Every allocation of symq's
 * own code goes through here, so callers never check for NULL and a test can fail any
 * allocation it likes.
 *
 * Contract
 *   - xmalloc, xcalloc, xrealloc, xreallocarray, xstrdup, xasprintf and xopen_memstream
 *     never return NULL: out of memory calls xalloc_oom. A size of 0 still yields a unique
 *     pointer that free() accepts. Sizes whose product overflows count as out of memory.
 *   - xalloc_oom is where a run ends on out of memory: it runs the handler registered with
 *     xalloc_on_oom (once; `symq run` records the failure in the output directory's `info`),
 *     flushes stdout, prints "symq: fatal: out of memory" on stderr and _exits with
 *     XALLOC_OOM_STATUS. _exit, not exit: the memory still in use at that point is not a
 *     leak, and LeakSanitizer (run from exit) would report it all.
 *   - The handler runs wherever the allocation failed, with the heap consistent but short:
 *     it should not allocate (if an allocation it makes fails, xalloc_oom exits without
 *     calling it again) and should only write what it prepared beforehand.
 *   - xalloc_try_realloc is for a caller that recovers from out of memory itself (ir_decode
 *     refuses the input with a message): it returns NULL instead of ending the run.
 *   - Fault injection (SQLite's habit): the environment variable SYMQ_FAIL_ALLOC=N, read once
 *     at start-up, or xalloc_fail_after(N), makes the N-th allocation from then on fail as
 *     if memory had run out (N = 1: the next one); later ones succeed again. 0 turns it off.
 *     A test goes on with N + 1 until a run completes. Not thread-safe (nor is the rest of
 *     symq).
 */
#ifndef SYMQ_XALLOC_H
#define SYMQ_XALLOC_H

#include <stdio.h>
#include <stddef.h>

#define XALLOC_OOM_STATUS 3

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
FILE *xopen_memstream(char **buf, size_t *len);

void *xalloc_try_realloc(void *p, size_t n);

_Noreturn void xalloc_oom(void);
void xalloc_on_oom(void (*handler)(void)); /* NULL unregisters */

void xalloc_fail_after(unsigned long n);

#endif
