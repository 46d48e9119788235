/*
 * external.h — calls to functions with no body and no model, made natively (KLEE's
 * --external-calls), through libffi and dlsym on the --link-native libraries, then on
 * symq's own process (RTLD_DEFAULT).
 *
 * Contract
 *   - external_open is called once per run before any call: it dlopens the --link-native
 *     libraries; a library that cannot be opened is the run's error (a static message).
 *   - external_call runs one call instruction `in` to the declaration `fn` on st under
 *     opt->external_calls (concrete or all, never none): the arguments are integers,
 *     pointers, floats or doubles. A pointer must point into a live object: the object's
 *     bytes go to a native buffer (the pointer keeps its offset), and the bytes the callee
 *     changed come back as concrete bytes. A symbolic byte in such an object is concretized
 *     (one solver value, added to the path, counted in dropped_reasons when other values
 *     were possible). A symbolic argument: under `concrete`, the call is made only if the
 *     argument has one value on the path, else the path ends early ("external call with
 *     symbolic argument", as KLEE); under `all`, it is concretized like a byte.
 *   - A call that cannot be made (symbol not found, variadic, an aggregate argument or
 *     return, a pointer to no live object, an object holding pointers, a returned pointer
 *     into native memory, a process-control function) ends the path early with its reason.
 *   - Returns how st goes on (STEP_ENDED: st is gone).
 */
#ifndef SYMQ_EXTERNAL_H
#define SYMQ_EXTERNAL_H

#include "engine/exec/executor.h"

typedef struct external_ctx external_ctx;

/* NULL on success (*out set, NULL when there is nothing to open), else the error. */
const char *external_open(const interp_options *opt, external_ctx **out);
void external_close(external_ctx *x);

step external_call(executor *ex, state *st, const ir_inst *in, const ir_function *fn);

#endif
