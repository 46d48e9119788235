/*
 * z3_int.h — private to qsolver/: bit-vector formulas in Z3's linear integer arithmetic,
 * for the queries whose every operator has an exact integer form.
 *
 * A term of width w > 1 becomes an integer in [0, 2^w) equal to its unsigned value; width-1
 * terms are Bools. Wrap-around is explicit: a + b is s or s − 2^w (s = a + b), a − b is d
 * or d + 2^w, so the result is exact, and linear. Each byte an array read touches is an
 * integer variable; every formula carries the range 0..255 of the bytes it reads, so a
 * formula stands alone. Supported: constants, reads at constant indices (through update
 * lists), +, −, bitwise not, the comparisons, width-1 and/or/xor/not, ite, zero and sign
 * extension, concatenation. Anything else (multiplication, division, shifts, wide bitwise
 * operators, extraction, reads at symbolic indices, foralls) has no form here: the query
 * stays in bit-vectors. Why: the relaxed stage's 64-bit bound questions (K1 + c ≤ n + 1
 * given c < n − K1) are proved by Z3's simplex in a fraction of what its bit-level search
 * takes (chained memspn's 68 unsat bound questions: ~3× faster).
 *
 * Ownership: the ASTs returned belong to the translator (one Z3 reference each, dropped by
 * z3_int_clear and z3_int_free). Errors are Z3's (the context's error handler sees them):
 * a NULL from z3_int_formula with no Z3 error means "no integer form".
 */
#ifndef SYMQ_QSOLVER_Z3_INT_H
#define SYMQ_QSOLVER_Z3_INT_H

#include "engine/core/expr.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <z3.h>

typedef struct z3_int z3_int;

/* References held until a call or a query ends (both Z3 translators keep their
 * intermediate ASTs so: Z3 may collect an AST nobody references at its next call). */
typedef struct z3_refs {
  Z3_ast *ast;
  size_t n, cap;
} z3_refs;
Z3_ast z3_refs_hold(Z3_context ctx, z3_refs *r, Z3_ast a); /* NULL stays NULL */
void z3_refs_release(Z3_context ctx, z3_refs *r);

z3_int *z3_int_new(Z3_context ctx);
void z3_int_free(z3_int *t); /* NULL is allowed */
/* Forgets every translation (ASTs returned before are released). */
void z3_int_clear(z3_int *t);
/* How many translations it holds: the caller clears it past a bound. */
size_t z3_int_size(const z3_int *t);

/* Formula f (width 1) with the ranges of the bytes it reads, or NULL: no integer form (or
 * a Z3 error). */
Z3_ast z3_int_formula(z3_int *t, expr *f);

/* The capacity bytes of array a in model m (a byte no formula read is 0); false on a Z3
 * error. */
bool z3_int_model_bytes(z3_int *t, Z3_model m, const expr_array *a, uint8_t *bytes);

#endif
