/*
 * symenv.c — the engine's side of the symbolic environment (contract in symenv.h): the
 * arguments symq run's --sym-* options stand for, the call of the runtime's
 * __symq_env_init before main, and main's argc/argv read back from the runtime's globals.
 */
#include "engine/exec/symenv.h"

#include <stdlib.h>
#include <string.h>

/* KLEE's POSIX runtime's options; the runtime ends a path that asks for --sym-stdout */
static const char *const klee_options[] = {"sym-arg", "sym-args", "sym-files", "sym-stdin",
                                           "sym-stdout"};

/* The option's name without its dashes when arg is --NAME or -NAME for one of KLEE's
 * environment options, else NULL. */
static const char *env_option(const char *arg) {
  if (arg[0] != '-') return NULL;
  const char *name = arg + 1 + (arg[1] == '-');
  for (size_t k = 0; k < sizeof klee_options / sizeof *klee_options; k++)
    if (strcmp(name, klee_options[k]) == 0) return klee_options[k];
  return NULL;
}

static bool is_env_option(const char *arg) { return env_option(arg) != NULL; }

/* A number as the runtime's parser takes it: decimal digits, at most SYMENV_MAX. */
enum { SYMENV_MAX = 65536 };
static bool small_number(const char *text, unsigned *v) {
  *v = 0;
  if (!*text) return false;
  for (; *text; text++) {
    if (*text < '0' || *text > '9') return false;
    *v = *v * 10 + (unsigned)(*text - '0');
    if (*v > SYMENV_MAX) return false;
  }
  return true;
}

/* What the runtime would refuse (runtime/lib/symenv.c ends such a path with an error of
 * kind user), refused before the run: a malformed option is the command line's mistake. */
static bool check_values(char *const *args, size_t n, const char **error) {
  for (size_t k = 1; k < n; k++) {
    const char *name = env_option(args[k]);
    if (!name) continue;
    bool many = !strcmp(name, "sym-args"), files = !strcmp(name, "sym-files");
    size_t want = many ? 3 : files ? 2 : !strcmp(name, "sym-stdout") ? 0 : 1;
    unsigned v[3] = {0, 0, 0};
    bool ok = true;
    for (size_t j = 0; ok && j < want; j++)
      ok = k + 1 + j < n && small_number(args[k + 1 + j], &v[j]);
    if (many && ok && v[0] > v[1]) {
      *error = "--sym-args MIN MAX N: MIN is larger than MAX";
      return false;
    }
    if (files && ok && v[0] > 26) {
      *error = "--sym-files COUNT N: at most 26 files (A to Z)";
      return false;
    }
    if (!ok) {
      *error = many    ? "--sym-args needs MIN MAX N (numbers up to 65536)"
               : files ? "--sym-files needs COUNT N (numbers up to 65536)"
                       : "--sym-arg and --sym-stdin need N (a number up to 65536)";
      return false;
    }
    k += want;
  }
  return true;
}

/* The numbers of a row's value ("0,2,4" or "0 2 4"): exactly `want` decimal numbers, each
 * appended to `out` (xalloc'd strings) when out is non-NULL. */
static bool split_numbers(const char *text, size_t want, char **out, size_t *n) {
  size_t got = 0;
  const char *p = text;
  while (*p) {
    size_t len = strspn(p, "0123456789");
    if (len == 0 || len > 9 || got == want) return false;
    if (out) {
      char *number = xmalloc(len + 1);
      memcpy(number, p, len);
      number[len] = 0;
      out[(*n)++] = number;
    }
    got++;
    p += len;
    if (*p == ',' || *p == ' ') {
      p++;
      if (!*p) return false;
    } else if (*p) {
      return false;
    }
  }
  return got == want;
}

static bool store_if(bool ok, const char *text, void *elem) {
  if (ok) *(const char **)elem = text;
  return ok;
}

bool interp_sym_arg_value(const char *text, void *elem) {
  return store_if(split_numbers(text, 1, NULL, NULL), text, elem);
}
bool interp_sym_args_value(const char *text, void *elem) {
  return store_if(split_numbers(text, 3, NULL, NULL), text, elem);
}
bool interp_sym_files_value(const char *text, void *elem) {
  return store_if(split_numbers(text, 2, NULL, NULL), text, elem);
}

/* The program's arguments, then those the run options stand for: *n xalloc'd strings, or
 * NULL with *error set when an option's value is malformed. */
static char **env_arguments(const interp_options *o, size_t *n, const char **error) {
  size_t room = (size_t)o->argc + 2 * o->nsym_arg + 4 * o->nsym_args + 3 + 2 + 1;
  char **args = xcalloc(room, sizeof *args);
  *n = 0;
  for (int k = 0; k < o->argc; k++) args[(*n)++] = xstrdup(o->argv[k]);
  bool ok = true;
  for (size_t k = 0; ok && k < o->nsym_arg; k++) {
    args[(*n)++] = xstrdup("--sym-arg");
    ok = split_numbers(o->sym_arg[k], 1, args, n);
    if (!ok) *error = "--sym-arg takes a length N";
  }
  for (size_t k = 0; ok && k < o->nsym_args; k++) {
    args[(*n)++] = xstrdup("--sym-args");
    ok = split_numbers(o->sym_args[k], 3, args, n);
    if (!ok) *error = "--sym-args takes MIN,MAX,N (three numbers)";
  }
  if (ok && o->nsym_files) {
    args[(*n)++] = xstrdup("--sym-files");
    ok = split_numbers(o->sym_files[0], 2, args, n);
    if (!ok) *error = "--sym-files takes COUNT,N (two numbers)";
  }
  if (ok && o->nsym_stdin) {
    args[(*n)++] = xstrdup("--sym-stdin");
    ok = split_numbers(o->sym_stdin[0], 1, args, n);
    if (!ok) *error = "--sym-stdin takes a size N";
  }
  if (ok) return args;
  for (size_t k = 0; k < *n; k++) free(args[k]);
  free(args);
  return NULL;
}

uint32_t symenv_plan(const executor *ex, const char **error) {
  const interp_options *o = ex->opt;
  bool wanted = o->nsym_arg || o->nsym_args || o->nsym_files || o->nsym_stdin;
  for (int k = 1; !wanted && k < o->argc; k++) wanted = is_env_option(o->argv[k]);
  if (!wanted) return IR_NONE;
  size_t n;
  char **args = env_arguments(o, &n, error);
  if (!args) return IR_NONE;
  bool ok = check_values(args, n, error);
  for (size_t k = 0; k < n; k++) free(args[k]);
  free(args);
  if (!ok) return IR_NONE;
  uint32_t f = ir_find_function(ex->prog, "__symq_env_init");
  if (f == IR_NONE || ex->prog->funcs[f].is_decl || ex->prog->funcs[f].nargs != 2) {
    *error =
        "a symbolic environment (--sym-arg, --sym-args, --sym-files, --sym-stdin) needs "
        "symq's runtime (not --libc=none)";
    return IR_NONE;
  }
  return f;
}

void symenv_push_init(executor *ex, state *st, uint32_t func) {
  const char *error = NULL;
  size_t n;
  char **args = env_arguments(ex->opt, &n, &error);
  assert(args); /* symenv_plan checked them */
  mem_object *array =
      interp_new_object(ex, st, MEM_GLOBAL, 8 * ((uint64_t)n + 1), 8, "symenv argv", NULL);
  for (size_t k = 0; k < n; k++) {
    mem_object *s = interp_new_object(ex, st, MEM_GLOBAL, strlen(args[k]) + 1, 1, "symenv arg",
                                      (const uint8_t *)args[k]);
    mem_write(st->mem, array, C(ex, 64, 8 * (uint64_t)k), C(ex, 64, s->address));
    mem_object_unref(s);
    free(args[k]);
  }
  free(args);
  const ir_function *fn = &ex->prog->funcs[func];
  state_frame *f = state_push_frame(st, func, fn->nregs);
  f->pc = 0;
  state_set_reg(f, 0, C(ex, fn->reg_width[0], (u128)n));
  state_set_reg(f, 1, C(ex, 64, array->address));
  mem_object_unref(array);
}

/* A global of the runtime, as bytes of st (the global must exist: symenv_plan found the
 * runtime's function, whose file defines it). */
static expr *read_global(executor *ex, state *st, const char *name, unsigned nbytes) {
  uint32_t g = ir_find_global(ex->prog, name);
  assert(g != IR_NONE);
  return T(ex, mem_read(st->mem, ex->globals[g], C(ex, 64, 0), nbytes));
}

void symenv_main_args(executor *ex, state *st, expr **argc, expr **argv) {
  *argc = read_global(ex, st, "__symq_env_argc", 4);
  *argv = read_global(ex, st, "__symq_env_argv", 8);
}
