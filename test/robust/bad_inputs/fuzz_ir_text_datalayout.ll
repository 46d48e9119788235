; found by fuzz_ir: a data layout LLVM 14 rejects with a fatal error, in .ll text
target datalayout = "e-m:e-i64:64-f80:128I29"

define i32 @main() {
  ret i32 0
}
