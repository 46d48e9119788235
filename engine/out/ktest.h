/*
 * ktest — KLEE's test-case file, format version 3, read and written byte for byte.
 *
 * Layout (every integer a big-endian u32; no padding, no checksum, nothing after the end):
 *
 *     "KTEST"                      5 bytes ("BOUT\n" accepted when reading)
 *     version                      3 when writing; 1..3 accepted when reading
 *     numArgs, then per arg:       len, len bytes (no NUL)
 *     symArgvs, symArgvLen         present from version 2 on
 *     numObjects, then per object: nameLen, name bytes, numBytes, bytes
 *
 * Contract
 *   - A `ktest` returned by `ktest_read` owns every pointer in it; release it with
 *     `ktest_free`. A `ktest` that a caller assembles for `ktest_write`/`ktest_encode` may
 *     borrow everything (they only read it) and must not be passed to `ktest_free`.
 *   - When writing, an object whose `name` is NULL is written as "unnamed" (KLEE's rule);
 *     `bytes` may be NULL only when `num_bytes` is 0. The version written is always 3.
 *   - Errors come back as one line in the caller's buffer `err` (truncated to `err_size`,
 *     always NUL-terminated when err_size > 0; `err` may be NULL), naming the file and, for a
 *     bad file, the byte offset where reading stopped.
 */
#ifndef SYMQ_KTEST_H
#define SYMQ_KTEST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KTEST_VERSION 3

typedef struct ktest_object {
  char *name;     /* NUL-terminated; NULL is written as "unnamed" */
  uint8_t *bytes; /* the target's memory image (little-endian integers on x86-64) */
  uint32_t num_bytes;
} ktest_object;

typedef struct ktest {
  uint32_t version; /* as read (1..3); ignored by the writers, which write 3 */
  uint32_t num_args;
  char **args;           /* args[0] is the program path, as KLEE writes it */
  uint32_t sym_argvs;    /* KLEE writes 0 */
  uint32_t sym_argv_len; /* KLEE writes 0 */
  uint32_t num_objects;
  ktest_object *objects; /* in klee_make_symbolic call order */
  char *path;            /* the file it was read from (set by ktest_read), or NULL */
} ktest;

/* Serialises `t` into a new malloc'd buffer (*buf, *len). Returns 0, or -1 when a length
 * does not fit in a u32 (message in err). Out of memory ends the run (xalloc.h). */
int ktest_encode(const ktest *t, uint8_t **buf, size_t *len, char *err, size_t err_size);

/* Creates or truncates `path` (mode 0666 less umask), writes `t`, fsyncs and closes it.
 * Returns 0, or -1 with a message in err. */
int ktest_write(const char *path, const ktest *t, char *err, size_t err_size);

/* Parses a whole in-memory file; `path` is used in messages and copied into the result.
 * Returns a new ktest or NULL with a message in err. */
ktest *ktest_decode(const char *path, const uint8_t *data, size_t len, char *err, size_t err_size);

/* Reads `path`. Returns a new ktest or NULL with a message in err: the file cannot be
 * opened, bad magic, unsupported version, truncated, or bytes after the last object. */
ktest *ktest_read(const char *path, char *err, size_t err_size);

/* Releases a ktest from ktest_read/ktest_decode; NULL is fine. */
void ktest_free(ktest *t);

/* Prints `t` as KLEE's ktest-tool does (without --trim-zeros): `ktest file : 'PATH'`,
 * `args       : [...]`, `num objects: N`, then per object name, size, data (Python bytes
 * literal), hex, int/uint for 1-, 2-, 4- and 8-byte objects (little-endian), and text
 * (printable ASCII, '.' otherwise). Object indices are padded to the width of the largest. */
void ktest_print(FILE *f, const ktest *t);

#endif
