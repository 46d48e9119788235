/*
 * refs.h — the runtime's reference index, RUNTIME.bc.refs: its format, defined once for the
 * build tool that writes it (runtime/refs.c) and for `symq run`, which reads it to link only
 * the runtime functions a program reaches (engine/core/bitcode.c, link_needed).
 *
 * The index is text, one line per global value the runtime defines:
 *   symq-refs 1 SIZE HASH         first line: RUNTIME.bc's size and refs_hash (hex), so an
 *                                 index that does not belong to the file is ignored
 *   F NAME REF...                 a function definition and every global value its body
 *   G NAME REF...                 (or a variable's initializer, an alias's aliasee)
 *   A NAME REF...                 names, directly or through constant expressions
 * The index must be exact: a reference left out would let symq delete, unread, a function
 * that a linked one still calls. refs.c makes it so by visiting every instruction operand
 * and every constant operand below it, and refuses (stopping the build) a global value
 * without a name or with a blank in its name, which a line could not hold.
 */
#ifndef SYMQ_RUNTIME_REFS_H
#define SYMQ_RUNTIME_REFS_H

#include <stddef.h>
#include <stdint.h>

#define REFS_MAGIC "symq-refs 1"

/* FNV-1a, 64 bits: the index's hash of the runtime's bytes, and bitcode.c's hash of names. */
static inline uint64_t refs_hash(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3ull;
  return h;
}

#endif
