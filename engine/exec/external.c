/*
 * external.c — native calls to functions with no body and no model (external.h).
 *
 * One call: each argument is made one concrete value (unique on the path, or concretized
 * under `all`); each pointer argument's object is copied, whole, to a native buffer of its
 * concrete bytes (symbolic bytes concretized); the function runs through libffi; the bytes
 * it changed are written back as constants, and the result, if any, set.
 */
#include "engine/exec/external.h"

#include <dlfcn.h>
#include <ffi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct external_ctx {
  void **libs;
  size_t nlibs;
};

const char *external_open(const interp_options *opt, external_ctx **out) {
  static char error[512];
  *out = NULL;
  if (opt->external_calls == INTERP_EXTERNAL_NONE) return NULL;
  external_ctx *x = xcalloc(1, sizeof *x);
  x->libs = xcalloc(opt->nlink_native + 1, sizeof *x->libs);
  for (size_t k = 0; k < opt->nlink_native; k++) {
    void *h = dlopen(opt->link_native[k], RTLD_NOW | RTLD_LOCAL);
    if (!h) {
      snprintf(error, sizeof error, "--link-native %s: %s", opt->link_native[k], dlerror());
      external_close(x);
      return error;
    }
    x->libs[x->nlibs++] = h;
  }
  *out = x;
  return NULL;
}

void external_close(external_ctx *x) {
  if (!x) return;
  for (size_t k = 0; k < x->nlibs; k++) dlclose(x->libs[k]);
  free(x->libs);
  free(x);
}

/* Functions that would take over symq's own process or memory: never called natively. */
static bool forbidden(const char *name) {
  static const char *const names[] = {
      "fork",           "vfork",      "_exit",   "_Exit",     "exit",   "abort",
      "longjmp",        "siglongjmp", "setjmp",  "sigsetjmp", "free",   "realloc",
      "malloc",         "calloc",     "raise",   "kill",      "signal", "sigaction",
      "pthread_create", "execv",      "execve",  "execvp",    "execl",  "execlp",
      "execle",         "dlopen",     "dlclose", "mmap",      "munmap"};
  for (size_t k = 0; k < sizeof names / sizeof names[0]; k++)
    if (!strcmp(name, names[k])) return true;
  return false;
}

static void *lookup(const external_ctx *x, const char *name) {
  for (size_t k = 0; k < x->nlibs; k++) {
    void *p = dlsym(x->libs[k], name);
    if (p) return p;
  }
  return dlsym(RTLD_DEFAULT, name);
}

static ffi_type *ffi_of(uint8_t kind, unsigned width) {
  switch (kind) {
  case IR_VK_PTR: return &ffi_type_pointer;
  case IR_VK_FLOAT: return &ffi_type_float;
  case IR_VK_DOUBLE: return &ffi_type_double;
  case IR_VK_INT:
    return width <= 8    ? &ffi_type_uint8
           : width <= 16 ? &ffi_type_uint16
           : width <= 32 ? &ffi_type_uint32
           : width <= 64 ? &ffi_type_uint64
                         : NULL;
  default: return NULL;
  }
}

/* An object copied out for the call. */
typedef struct copied {
  const mem_object *o;
  uint8_t *before, *native;
} copied;

typedef struct call {
  executor *ex;
  state *st;
  const ir_function *fn;
  copied *objs;
  size_t nobjs;
} call;

static step end(call *c, const char *fmt, const char *detail) {
  char *reason = interp_format(fmt, c->fn->name, detail);
  interp_end_early(c->ex, c->st, reason);
  free(reason);
  return STEP_ENDED;
}

/* e as one concrete value on the path (external.h); false when st ended. */
static bool concrete_value(call *c, expr *e, bool allow_concretize, u128 *out) {
  if (expr_is_const(e)) return interp_example_value(c->ex, c->st, e, out);
  if (allow_concretize) {
    char *what = interp_format("an argument of external call %s", c->fn->name);
    bool ok = interp_concretize(c->ex, c->st, e, what, out);
    free(what);
    return ok;
  }
  if (!interp_example_value(c->ex, c->st, e, out)) return false;
  expr *pinned = T(c->ex, expr_eq(e, C(c->ex, e->width, *out)));
  bool unique;
  if (qs_must_be_true(c->ex->solver, c->st->pc, c->st->npc, pinned, &unique) == QS_UNKNOWN) {
    interp_end_solver_unknown(c->ex, c->st);
    return false;
  }
  if (!unique) {
    end(c, "external call with symbolic argument: %s%s", "");
    return false;
  }
  return true;
}

/* Whether the 8 bytes at p look like one of symq's addresses (an object or a function):
 * the callee would follow them into memory it does not have. */
static bool holds_address(call *c, const uint8_t *p) {
  uint64_t v;
  memcpy(&v, p, sizeof v);
  if (v >= FUNCTION_BASE && (v - FUNCTION_BASE) % FUNCTION_STRIDE == 0 &&
      (v - FUNCTION_BASE) / FUNCTION_STRIDE < c->ex->prog->nfuncs)
    return true;
  return v && mem_space_find(c->st->mem, v) != NULL;
}

/* The native buffer for o (copied once per call); NULL when st ended (the solver gave up,
 * or the call cannot be made). */
static copied *copy_out(call *c, const mem_object *o) {
  for (size_t k = 0; k < c->nobjs; k++)
    if (c->objs[k].o == o) return &c->objs[k];
  uint64_t n = o->capacity;
  uint8_t *bytes = xcalloc(n ? n : 1, 1);
  char *what = interp_format("a byte passed to external call %s", c->fn->name);
  for (uint64_t b = 0; b < n; b++) {
    if (mem_read_concrete(c->st->mem, o, b, &bytes[b], 1)) continue;
    u128 v;
    expr *e = T(c->ex, mem_read(c->st->mem, o, C(c->ex, 64, b), 1));
    if (!interp_concretize(c->ex, c->st, e, what, &v)) {
      free(what), free(bytes);
      return NULL;
    }
    bytes[b] = (uint8_t)v;
  }
  free(what);
  for (uint64_t b = 0; b + 8 <= n; b += 8)
    if (holds_address(c, &bytes[b])) {
      free(bytes);
      end(c, "unsupported: external call %s: the object %s holds a pointer", o->name);
      return NULL;
    }
  c->objs = xrealloc(c->objs, (c->nobjs + 1) * sizeof *c->objs);
  copied *k = &c->objs[c->nobjs++];
  k->o = o;
  k->before = bytes;
  k->native = xmalloc(n ? n : 1);
  memcpy(k->native, bytes, n);
  return k;
}

/* Writes back what the callee changed; false when st ended (a read-only object written). */
static bool copy_back(call *c) {
  for (size_t k = 0; k < c->nobjs; k++) {
    const copied *o = &c->objs[k];
    for (uint64_t b = 0; b < o->o->capacity; b++) {
      if (o->before[b] == o->native[b]) continue;
      if (o->o->read_only) {
        end(c, "unsupported: external call %s wrote the read-only object %s", o->o->name);
        return false;
      }
      mem_write(c->st->mem, o->o, C(c->ex, 64, b), C(c->ex, 8, o->native[b]));
    }
  }
  return true;
}

static step finish(call *c, step s) {
  for (size_t k = 0; k < c->nobjs; k++) free(c->objs[k].before), free(c->objs[k].native);
  free(c->objs);
  return s;
}

step external_call(executor *ex, state *st, const ir_inst *in, const ir_function *fn) {
  call c = {.ex = ex, .st = st, .fn = fn};
  unsigned given = in->nops - 1u;
  if (fn->is_vararg) return end(&c, "unsupported: external call %s is variadic%s", "");
  if (!fn->arg_kind || given != fn->nargs)
    return end(&c, "unsupported: external call %s with another number of arguments%s", "");
  if (forbidden(fn->name))
    return end(&c, "unsupported: external call %s (never called natively)%s", "");
  void *target = lookup(ex->external, fn->name);
  if (!target) return end(&c, "unsupported: external call %s: symbol not found%s", "");
  ffi_type *rtype = fn->ret_width ? ffi_of(fn->ret_kind, fn->ret_width) : &ffi_type_void;
  if (!rtype)
    return end(&c, "unsupported: external call %s returns a type no native call passes%s", "");
  ffi_type **types = xcalloc(given + 1, sizeof *types);
  uint64_t *values = xcalloc(given + 1, sizeof *values); /* each argument's storage */
  void **slots = xcalloc(given + 1, sizeof *slots);
  step result = STEP_ENDED;
  bool all = ex->opt->external_calls == INTERP_EXTERNAL_ALL;
  for (unsigned k = 0; k < given; k++) {
    expr *a = arg(ex, st, in, k + 1);
    types[k] = ffi_of(fn->arg_kind[k], a->width);
    if (!types[k]) {
      char which[32];
      snprintf(which, sizeof which, "%u", k);
      end(&c,
          "unsupported: external call %s: argument %s has a type no native call passes "
          "(an aggregate, a vector, x86_fp80, byval)",
          which);
      goto done;
    }
    u128 v;
    if (!concrete_value(&c, a, all, &v)) goto done;
    uint64_t bits = (uint64_t)v;
    if (fn->arg_kind[k] == IR_VK_PTR && bits) {
      const mem_object *o = mem_space_find(st->mem, bits);
      if (!o) {
        end(&c, "unsupported: external call %s: a pointer argument to no live object%s", "");
        goto done;
      }
      copied *cp = copy_out(&c, o);
      if (!cp) goto done;
      uintptr_t native = (uintptr_t)cp->native + (uintptr_t)(bits - o->address);
      bits = native;
    }
    values[k] = bits;
    slots[k] = &values[k]; /* little-endian: the low bytes first, whatever the width */
  }
  ffi_cif cif;
  if (ffi_prep_cif(&cif, FFI_DEFAULT_ABI, given, rtype, types) != FFI_OK) {
    end(&c, "unsupported: external call %s: libffi cannot describe it%s", "");
    goto done;
  }
  interp_warn_once(ex, fn->name, "calling external function natively:");
  uint64_t rvalue[2] = {0, 0}; /* ffi_arg-sized or larger */
  ffi_call(&cif, FFI_FN(target), rvalue, slots);
  if (!copy_back(&c)) goto done;
  if (fn->ret_width) {
    uint64_t r = rvalue[0];
    if (fn->ret_kind == IR_VK_PTR && r) {
      bool found = false;
      for (size_t k = 0; k < c.nobjs && !found; k++) {
        uintptr_t base = (uintptr_t)c.objs[k].native;
        if (r >= base && r <= base + c.objs[k].o->capacity) {
          r = c.objs[k].o->address + (r - base);
          found = true;
        }
      }
      if (!found) {
        end(&c, "unsupported: external call %s returned a pointer into native memory%s", "");
        goto done;
      }
    }
    if (fn->ret_kind == IR_VK_FLOAT) { /* libffi stores a float as a float */
      uint32_t f;
      memcpy(&f, rvalue, sizeof f);
      r = f;
    }
    unsigned w = fn->ret_width;
    if (w < 64) r &= ((uint64_t)1 << w) - 1;
    set_result(st, in, C(ex, w, r));
  }
  state_top(st)->pc++;
  result = STEP_CONTINUE;
done:
  free(types), free(values), free(slots);
  return finish(&c, result);
}
