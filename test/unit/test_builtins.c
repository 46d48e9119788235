/*
 * test_builtins — binding the functions symq implements itself (engine/exec/builtins.h),
 * once per program: a declared function is bound to its builtin by exact name (several
 * names to one builtin; klee_get_value* by prefix), a defined one keeps its body (the libc
 * model's malloc), except the error functions, bound whether defined or not; every other
 * function, a klee_ name symq does not know included, is bound to none.
 */
#include "check.h"
#include "decode_source.h"
#include "engine/exec/builtins.h"

static const char source[] =
    "define void @reach_error() {\n"
    "  ret void\n"
    "}\n"
    "define i8* @malloc(i64 %n) {\n"
    "  ret i8* null\n"
    "}\n"
    "declare void @__VERIFIER_error()\n"
    "declare void @klee_make_symbolic(i8*, i64, i8*)\n"
    "declare void @symq_make_symbolic(i8*, i64, i8*)\n"
    "declare void @symq_merge_begin()\n"
    "declare i32 @klee_get_value_i32(i32)\n"
    "declare i64 @klee_get_value_i64(i64)\n"
    "declare i32 @klee_getter(i32)\n"
    "declare i32 @mystery_external(i32)\n"
    "define i32 @main() {\n"
    "  call void @reach_error()\n"
    "  %p = call i8* @malloc(i64 4)\n"
    "  call void @__VERIFIER_error()\n"
    "  call void @klee_make_symbolic(i8* %p, i64 4, i8* null)\n"
    "  call void @symq_make_symbolic(i8* %p, i64 4, i8* null)\n"
    "  call void @symq_merge_begin()\n"
    "  %a = call i32 @klee_get_value_i32(i32 1)\n"
    "  %b = call i64 @klee_get_value_i64(i64 1)\n"
    "  %c = call i32 @klee_getter(i32 1)\n"
    "  %d = call i32 @mystery_external(i32 %c)\n"
    "  ret i32 %d\n"
    "}\n";

static builtin_id bound(const ir_program *p, const builtin_id *ids, const char *name) {
  uint32_t f = ir_find_function(p, name);
  CHECK(f != IR_NONE);
  return f == IR_NONE ? BUILTIN_COUNT : ids[f];
}

int main(void) {
  ir_program *p = decode_source("builtins.ll", source);
  CHECK(p != NULL);
  if (!p) return check_exit();
  builtin_id *ids = builtins_bind(p);
  CHECK_EQ_U64(bound(p, ids, "reach_error"), BUILTIN_REACH_ERROR);
  CHECK_EQ_U64(bound(p, ids, "__VERIFIER_error"), BUILTIN_REACH_ERROR);
  CHECK_EQ_U64(bound(p, ids, "malloc"), BUILTIN_NONE);
  CHECK_EQ_U64(bound(p, ids, "klee_make_symbolic"), BUILTIN_MAKE_SYMBOLIC);
  CHECK_EQ_U64(bound(p, ids, "symq_make_symbolic"), BUILTIN_MAKE_SYMBOLIC);
  CHECK_EQ_U64(bound(p, ids, "symq_merge_begin"), BUILTIN_MERGE_BEGIN);
  CHECK_EQ_U64(bound(p, ids, "klee_get_value_i32"), BUILTIN_GET_VALUE);
  CHECK_EQ_U64(bound(p, ids, "klee_get_value_i64"), BUILTIN_GET_VALUE);
  CHECK_EQ_U64(bound(p, ids, "klee_getter"), BUILTIN_NONE);
  CHECK_EQ_U64(bound(p, ids, "mystery_external"), BUILTIN_NONE);
  CHECK_EQ_U64(bound(p, ids, "main"), BUILTIN_NONE);
  free(ids);
  ir_free(p);
  return check_exit();
}
