/*
 * symenv — the engine's side of the symbolic environment (KLEE's --sym-arg, --sym-args,
 * --sym-files, --sym-stdin): whether a run has one, and the life-cycle step that builds it.
 * The environment itself is plain C in the libc model (runtime/lib/symenv.c,
 * __symq_env_init); this module only calls it before main and gives main what it made.
 * Internal to engine/exec.
 *
 * Contract
 *   - A run has a symbolic environment when the program's arguments (after `--`) hold one
 *     of KLEE's options (--sym-arg, --sym-args, --sym-files, --sym-stdin, --sym-stdout,
 *     also with one dash) or symq run's options of the same names set interp_options' sym_* fields.
 *   - symenv_plan returns the function to call before main (__symq_env_init), IR_NONE when
 *     the run has no environment, or IR_NONE with *error set when it has one but the runtime
 *     that builds it is not linked (--libc=none) or an option's value is malformed (what
 *     the runtime would refuse: a missing or non-numeric value, one over 65536, MIN > MAX,
 *     more than 26 files).
 *   - symenv_push_init pushes __symq_env_init(argc, argv) on st's empty stack: argv is the
 *     program's, then the arguments symq run's options stand for (--sym-arg ones, then
 *     --sym-args, --sym-files, --sym-stdin), as objects of st.
 *   - symenv_main_args gives main's argc and argv as __symq_env_init left them in st.
 */
#ifndef SYMQ_SYMENV_H
#define SYMQ_SYMENV_H

#include "engine/exec/executor.h"

uint32_t symenv_plan(const executor *ex, const char **error);
void symenv_push_init(executor *ex, state *st, uint32_t func);
void symenv_main_args(executor *ex, state *st, expr **argc, expr **argv);

#endif
