/*
 * reach — deletes from a linked LLVM module the functions and variables its execution can
 * never reach, before the verifier, the pass pipeline and the decoder each pay for them.
 *
 * A program linked with a whole library (a driver and libpng's bitcode: 416 function bodies,
 * of which the driver reaches 165) spent most of a short run's instructions verifying,
 * promoting and decoding code no path can enter (libpng's png_get_uint_31 driver at capacity
 * 40: 1.12 G instructions, 1.07 G of them loading; trimmed, 0.65 G and 0.61 G, the bitcode
 * reader's parse of the whole file now most of it).
 *
 * Contract
 *   - Reached: the named root functions that the module holds; every global variable and
 *     alias whose linkage is not internal or private (the interpreter reads some by name:
 *     llvm.global_ctors/dtors, the runtime's __symq_env_* globals; a safe superset); and,
 *     transitively, every function, variable and alias that a reached function's body (its
 *     instructions' operands, constant expressions and aggregates included, its personality
 *     function), a reached variable's initializer or a reached alias's aliasee names.
 *   - Deleted: every function (definition or declaration) and every internal or private
 *     variable not reached. Their remaining uses are only in other deleted definitions and
 *     are replaced by undef first, so the module stays well formed.
 *   - Deterministic: the result depends on the module alone. Returns how many function
 *     definitions were deleted.
 */
#ifndef SYMQ_REACH_H
#define SYMQ_REACH_H

#include <stddef.h>

#include <llvm-c/Core.h>

size_t reach_trim(LLVMModuleRef m, const char *const *roots, size_t n_roots);

#endif
