/*
 * bitcode — turns the user's input into one linked, verified and prepared LLVM module: the
 * only part of symq besides ir.c that talks to LLVM.
 *
 *   .c / .i  compiled by clang-14 (-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone
 *            -fno-builtin -D__NO_CTYPE, so that libc calls reach symq's model, plus
 *            the caller's include directories and flags) into a temporary .bc, removed after
 *   .bc      parsed (LLVMParseBitcodeInContext2)
 *   .ll      parsed (LLVMParseIRInContext)
 * The program may be several inputs (opts->inputs: a driver and a library's files, each of
 * any kind above), linked into the first in order (LLVMLinkModules2; a name defined twice
 * is an error naming the second file). Every further input after them (the runtime's libc
 * bitcode, ...) is a library linked into the program (LLVMLinkModules2). A .bc library LIB
 * with an index LIB.refs that matches it (written at build time by runtime/refs.c: its
 * size, hash, and per definition the global values it names) is read lazily and linked with
 * only the functions the program reaches: those it names (declares or defines), opts->keep,
 * and whatever the library's variables and these refer to, transitively. The rest is
 * deleted unread, and the linker then leaves out the library's internal variables and
 * strings only they used (a run of err_div.c decodes 93 instructions instead of 8,082).
 * What the program can execute is the same; the one
 * observable difference is that those unused internal variables are no longer memory
 * objects, which a pointer the program forges could have landed in. Paths, tests and errors
 * of every e2e, sv and bundled driver are unchanged; stats.json's "decoded" and
 * "expressions" counts shrink. Any other library, or one whose index is missing or stale,
 * is loaded as the first input and linked whole. With opts->roots, the linked module then
 * loses every function and internal variable that nothing reachable from the roots names
 * (reach.h): a driver linked with a whole library verifies, promotes and decodes only the
 * part it can run (libpng's png_get_uint_31 driver: 1.07 G instructions of loading → 0.61 G,
 * the rest is the reader's);
 * its internal variables no path names are no memory objects any more, as above, and
 * stats.json's total_lines counts the lines of the functions left. Each module is verified
 * after loading (an indexed library as part of the linked module, before the passes; a lone
 * input with roots only after the trim — its bitcode reader has checked its structure, and
 * the verifier then pays for what the run can reach); then the pass pipeline runs once on
 * the linked module. Atomics are always lowered to plain loads and
 * stores first (symq runs one thread). By default only mem2reg follows, so every branch of
 * the source stays a branch: a path per outcome, `__builtin_unreachable()` reached is an
 * error, and loops keep the shape merge regions are found on. KLEE also runs simplifycfg,
 * which folds small diamonds into selects: BC_PIPELINE_KLEE does the same, and then path
 * counts match KLEE's (issue 14 measured 124 paths against KLEE's 70 on a libtasn1 length
 * decoder, equal with simplifycfg; drivers/libtasn1/get_length_der.c at CAP=10 goes from
 * 70 paths to 40, drivers/memspn_ab.c from 190 to 13, the other bundled drivers
 * unchanged). It is not the default because it changes what a run reports on code as
 * written (errors at __builtin_unreachable vanish, paths fold into one; 20 e2e drivers
 * change) and the loop shapes merge regions rely on. `optimize` runs a heavier pipeline,
 * or the caller gives its own pipeline text (atomics are lowered before it). `optnone` is
 * stripped first, or the new pass manager would skip those functions. A module that names
 * no data layout (a hand-written .ll) gets x86-64's, the only target symq runs, so that
 * its struct layout agrees with clang's and with the runtime it is linked to.
 *
 * Contract
 *   - Failures never exit (one exception: LLVM's fatal errors, see bc_load): bc_load returns
 *     NULL and fills *err with a one-line message that starts "symq: error: FILE: " and says what
 * is wrong (no trailing newline), plus, when there is one, the full multi-line text behind it
 * (clang's stderr, the verifier's report) in err->detail. The caller frees both with
 * bc_error_clear.
 *   - The returned bc_module owns its LLVM context and module; bc_free disposes both. The
 *     context has a diagnostic handler installed that records errors instead of letting
 *     LLVM print them and exit(1); it stays installed for later users of the context.
 *   - Temporary files live in a fresh mkdtemp directory under $TMPDIR (or /tmp) and are
 *     removed before bc_load (bc_load_finish, or bc_load_start when it fails) returns, on
 *     success and on failure.
 */
#ifndef SYMQ_BITCODE_H
#define SYMQ_BITCODE_H

#include <stdbool.h>
#include <stddef.h>

#include <llvm-c/Core.h>

typedef struct bc_options {
  const char *const *inputs; /* the program's further inputs (any kind), read as `path` is
                                (a .c compiled with the same flags) and linked into it, in
                                order, before `link`: `symq run driver.c lib.c lib.bc` */
  size_t n_inputs;
  bool inputs_only; /* stop after linking the inputs: no libraries, no passes (the module
                       `symq compile` writes; bc_load on it with the libraries and passes
                       gives what bc_load on the inputs themselves gives) */
  const char *const *include_dirs; /* -I for .c inputs; may be NULL when n_include_dirs 0 */
  size_t n_include_dirs;
  const char *const *cflags; /* extra clang arguments (-D..., -std=...), or NULL */
  size_t n_cflags;
  const char *const *link; /* libraries linked into the first input (any kind) */
  size_t n_link;
  const char *const *keep; /* their functions linked even when the program never
                              names them (what the interpreter calls by name) */
  size_t n_keep;
  const char *const *roots; /* when n_roots > 0: the functions execution starts from (main,
                               what the interpreter calls by name); after the libraries are
                               linked, whatever nothing reachable from them names is deleted
                               before the verifier and the passes (reach.h) */
  size_t n_roots;
  bool optimize;      /* run BC_PIPELINE_OPTIMIZE instead of BC_PIPELINE_DEFAULT */
  const char *passes; /* when non-NULL, this pipeline text overrides both */
  const char *clang;  /* NULL: SYMQ_CLANG, the clang-14 found at build time */
} bc_options;

#define BC_X86_64_DATALAYOUT \
  "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-f80:128-n8:16:32:64-S128"
#define BC_X86_64_TRIPLE "x86_64-pc-linux-gnu"

#define BC_PIPELINE_DEFAULT "mem2reg"
#define BC_PIPELINE_KLEE "mem2reg,simplifycfg"
/* O1 with the vectorisers and unrolling turned off (symq decodes no vector instructions). */
#define BC_PIPELINE_OPTIMIZE "default<O1>"

/* The pipeline a user names on the command line: "mem2reg" is BC_PIPELINE_DEFAULT, "klee"
 * BC_PIPELINE_KLEE, "O1" BC_PIPELINE_OPTIMIZE; any other text is returned as it is (an
 * LLVM new-pass-manager pipeline, checked when it runs). Never NULL for a non-NULL name. */
const char *bc_pipeline_named(const char *name);

typedef struct bc_error {
  char *message; /* one line, "symq: error: FILE: ..." */
  char *detail;  /* the full underlying text, or NULL */
} bc_error;

typedef struct bc_module {
  LLVMContextRef context;
  LLVMModuleRef module;
} bc_module;

/* Loads `path` (and opts->inputs, opts->link), links, verifies and runs the pipeline. opts
 * may be NULL. Returns NULL on failure with *err filled (err may be NULL to discard the
 * message). The one exception: bitcode or .ll text that LLVM's reader rejects with a fatal
 * error (after which LLVM cannot continue), or crashes on while parsing, verifying, linking
 * it or running the passes, prints `symq: error: FILE: invalid bitcode|invalid IR|invalid
 * module|cannot link|pass pipeline: REASON` and exits 2; one of those steps that runs longer
 * than bc_max_load_seconds of CPU (LLVM 14's verifier loops for ever on some malformed debug
 * info) prints `symq: error: FILE: STEP did not finish within N s of CPU (--max-load-time)`
 * and exits 2; so does one that grows symq past bc_max_load_mb resident (LLVM 14's reader
 * allocates tens of GB on some malformed attribute indices): `symq: error: FILE: STEP needed
 * more than N MB of memory (--max-load-memory)`. None of these happens when bc_fatal_hook
 * is set and does not return (the fuzz target's longjmp). stdio is flushed before each of
 * those steps, so an exit there loses nothing written before. One thread at a time loads. */
extern void (*bc_fatal_hook)(const char *file, const char *reason);
/* The CPU time (process CPU, not wall time: a loaded machine does not make it run out) each
 * parse, verify, link and pass step may take; <= 0 means BC_MAX_LOAD_SECONDS. */
extern double bc_max_load_seconds;
#define BC_MAX_LOAD_SECONDS 600.0
/* The resident memory (MB) symq may reach during those steps; 0 means BC_MAX_LOAD_MB. */
extern unsigned long bc_max_load_mb;
#define BC_MAX_LOAD_MB 4096ul
bc_module *bc_load(const char *path, const bc_options *opts, bc_error *err);
void bc_free(bc_module *m); /* NULL is allowed */

/* bc_load in two halves, so that the caller can work on one core while clang runs on
 * another (0.12 s, mostly clang's own start-up). bc_load_start checks that `path` and
 * opts->inputs can be read and starts clang on the .c/.i ones (up to 4 at once, in order:
 * the others start as the reading reaches them) and returns; when none is C it loads it
 * all (nothing to wait for). bc_load_finish reads the inputs in order, waiting for each
 * compile, and does the rest of bc_load (a compile still running after a failure is
 * killed, its files removed); it
 * consumes the handle, which must be finished exactly once; path and opts stay borrowed
 * until then. Between the two none of bc_load's guards is in force (no timer, no signal
 * handler), so what the caller does there is never cut short nor charged to
 * --max-load-time; what it allocates stays resident, though, and counts toward
 * bc_max_load_mb in the steps after, as all of symq's memory does (symq run's solver: Z3's
 * context, about 20 MB).
 * Either returns NULL with *err filled as bc_load would, with the same messages; the fatal
 * and guarded exits of bc_load happen in whichever half does the step. */
typedef struct bc_pending bc_pending;
bc_pending *bc_load_start(const char *path, const bc_options *opts, bc_error *err);
bc_module *bc_load_finish(bc_pending *p, bc_error *err);
void bc_error_clear(bc_error *err);

/* The steps bc_load is made of, for callers that assemble their own sequence. Each returns
 * true on success; on failure it fills *err and leaves *out untouched. `ctx` must come from
 * bc_context_new (its diagnostic handler is what turns LLVM's errors into messages). */
LLVMContextRef bc_context_new(void);
void bc_context_free(LLVMContextRef ctx);
bool bc_read(LLVMContextRef ctx, const char *path, const bc_options *opts, LLVMModuleRef *out,
             bc_error *err);
/* Links src into dst; src is consumed (disposed) whether or not linking succeeds.
 * src_name names src in the message. */
bool bc_link(LLVMModuleRef dst, LLVMModuleRef src, const char *src_name, bc_error *err);
bool bc_verify(LLVMModuleRef m, const char *name, bc_error *err);
/* Writes m as bitcode to `path` (through a temporary file renamed into place). */
bool bc_write(LLVMModuleRef m, const char *path, bc_error *err);
/* Strips optnone, lowers atomics and runs `passes` (NULL: the default pipeline). */
bool bc_run_passes(LLVMModuleRef m, const char *passes, const char *name, bc_error *err);

#endif
