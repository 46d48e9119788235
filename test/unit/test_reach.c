/*
 * test_reach — reach_trim (engine/core/reach.h) on a hand-written module: what main, the
 * other roots, the external variables and the ctors list reach stays (through calls,
 * function pointers in instructions, in variables' initializers, in nested constant
 * expressions, aliases); what nothing reached names is deleted, definitions and
 * declarations alike, with internal variables only dead code names; the result verifies.
 */
#include "check.h"

#include <stdbool.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>

#include "engine/core/reach.h"

static const char module_text[] =
    "@ext = global void ()* @from_ext\n" /* external: a root */
    "@tbl = internal global [2 x void ()*] [void ()* @via_tbl, void ()* null]\n" /* main's */
    "@nested = internal global { i64 } { i64 ptrtoint (i8* getelementptr (i8, i8* bitcast "
    "(void ()* @deep to i8*), i64 4) to i64) }\n"
    "@dead_tbl = internal global void ()* @dead_by_tbl\n" /* named by dead code only */
    "@unnamed_dead = internal global i32 7\n"             /* named by nothing */
    "@alias = alias void (), void ()* @aliased\n"         /* an external alias: a root */
    "@llvm.global_ctors = appending global [1 x { i32, void ()*, i8* }] [{ i32, void ()*, "
    "i8* } { i32 65535, void ()* @ctor, i8* null }]\n"
    "declare void @used_decl()\n"
    "declare void @dead_decl()\n"
    "define i32 @main() {\n"
    "  call void @callee()\n"
    "  %p = getelementptr [2 x void ()*], [2 x void ()*]* @tbl, i64 0, i64 0\n"
    "  %n = getelementptr { i64 }, { i64 }* @nested, i64 0, i32 0\n"
    "  %v = load i64, i64* %n\n"
    "  call void @used_decl()\n"
    "  ret i32 0\n"
    "}\n"
    "define void @callee() { ret void }\n"
    "define void @via_tbl() { ret void }\n"
    "define void @from_ext() { ret void }\n"
    "define void @deep() { ret void }\n"
    "define void @aliased() { ret void }\n"
    "define void @ctor() {\n  call void @from_ctor()\n  ret void\n}\n"
    "define void @from_ctor() { ret void }\n"
    "define void @exit() { ret void }\n"
    "define void @dead() {\n"
    "  call void @dead_callee()\n"
    "  call void @dead_decl()\n"
    "  %q = load void ()*, void ()** @dead_tbl\n"
    "  call void @dead()\n"
    "  ret void\n"
    "}\n"
    "define internal void @dead_callee() {\n  call void @dead()\n  ret void\n}\n"
    "define void @dead_by_tbl() { ret void }\n";

static LLVMModuleRef parse(LLVMContextRef ctx) {
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(module_text, sizeof module_text - 1, "test");
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  bool bad = LLVMParseIRInContext(ctx, buf, &m, &msg); /* takes buf */
  if (bad) fprintf(stderr, "%s\n", msg ? msg : "parse failed");
  LLVMDisposeMessage(msg);
  CHECK(!bad);
  return m;
}

static bool has_function(LLVMModuleRef m, const char *name) {
  return LLVMGetNamedFunction(m, name) != NULL;
}

static void test_trim(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx);
  const char *roots[] = {"main", "exit", "atexit"};
  size_t deleted = reach_trim(m, roots, 3);
  static const char *const kept[] = {"main",    "callee", "via_tbl",   "from_ext", "deep",
                                     "aliased", "ctor",   "from_ctor", "exit",     "used_decl"};
  for (size_t k = 0; k < sizeof kept / sizeof *kept; k++) CHECK(has_function(m, kept[k]));
  static const char *const gone[] = {"dead", "dead_callee", "dead_by_tbl", "dead_decl"};
  for (size_t k = 0; k < sizeof gone / sizeof *gone; k++) CHECK(!has_function(m, gone[k]));
  CHECK_EQ_U64(deleted, 3); /* three bodies; the declaration is not counted */
  CHECK(LLVMGetNamedGlobal(m, "ext") && LLVMGetNamedGlobal(m, "tbl") &&
        LLVMGetNamedGlobal(m, "nested") && LLVMGetNamedGlobal(m, "llvm.global_ctors"));
  CHECK(!LLVMGetNamedGlobal(m, "dead_tbl") && !LLVMGetNamedGlobal(m, "unnamed_dead"));
  char *msg = NULL;
  bool bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  if (bad) fprintf(stderr, "%s\n", msg);
  LLVMDisposeMessage(msg);
  CHECK(!bad);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

/* Without a root function nothing but what the external variables name is left. */
static void test_no_main(void) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m = parse(ctx);
  reach_trim(m, NULL, 0);
  CHECK(!has_function(m, "main") && !has_function(m, "callee") && !has_function(m, "exit"));
  CHECK(has_function(m, "from_ext") && has_function(m, "ctor") && has_function(m, "aliased"));
  CHECK(!LLVMGetNamedGlobal(m, "tbl"));
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

int main(void) {
  test_trim();
  test_no_main();
  return check_exit();
}
