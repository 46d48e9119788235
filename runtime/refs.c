/*
 * refs.c — the build tool that writes the runtime's reference index, RUNTIME.bc.refs
 * (runtime/refs.h defines its format). Usage: symq_runtime_refs RUNTIME.bc OUT.refs
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

#include "runtime/refs.h"

static bool failed;

/* g's name, if a line of the index can hold it; otherwise says so, marks the run failed
 * (the build stops) and returns NULL. */
static const char *usable_name(LLVMValueRef g) {
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  bool usable = len > 0;
  for (size_t k = 0; usable && k < len; k++)
    usable = name[k] != ' ' && name[k] != '\n' && name[k] != '\t' && name[k];
  if (usable) return name;
  fprintf(stderr, "symq_runtime_refs: a runtime global value has no usable name\n");
  failed = true;
  return NULL;
}

/* Writes " NAME" for every global value v is or holds (through constants). */
static void write_refs(FILE *out, LLVMValueRef v) {
  if (!v) return;
  if (LLVMIsAGlobalValue(v)) {
    const char *name = usable_name(v);
    if (name) fprintf(out, " %s", name);
    return;
  }
  if (!LLVMIsAConstant(v)) return; /* metadata, arguments, other instructions' results */
  int n = LLVMGetNumOperands(v);
  for (int k = 0; k < n; k++) write_refs(out, LLVMGetOperand(v, (unsigned)k));
}

static bool head(FILE *out, char kind, LLVMValueRef g) {
  const char *name = usable_name(g);
  if (name) fprintf(out, "%c %s", kind, name);
  return name != NULL;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: symq_runtime_refs RUNTIME.bc OUT.refs\n");
    return 2;
  }
  LLVMMemoryBufferRef buf;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(argv[1], &buf, &msg)) {
    fprintf(stderr, "symq_runtime_refs: %s: %s\n", argv[1], msg ? msg : "cannot read");
    return 1;
  }
  size_t size = LLVMGetBufferSize(buf);
  uint64_t hash = refs_hash((const unsigned char *)LLVMGetBufferStart(buf), size);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef m;
  if (LLVMParseBitcodeInContext2(ctx, buf, &m)) {
    fprintf(stderr, "symq_runtime_refs: %s: invalid bitcode\n", argv[1]);
    return 1;
  }
  LLVMDisposeMemoryBuffer(buf);
  FILE *out = fopen(argv[2], "w");
  if (!out) {
    perror(argv[2]);
    return 1;
  }
  fprintf(out, REFS_MAGIC " %zu %016llx\n", size, (unsigned long long)hash);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g)) {
    if (LLVMIsDeclaration(g) || !head(out, 'G', g)) continue;
    write_refs(out, LLVMGetInitializer(g));
    fputc('\n', out);
  }
  for (LLVMValueRef a = LLVMGetFirstGlobalAlias(m); a; a = LLVMGetNextGlobalAlias(a)) {
    if (!head(out, 'A', a)) continue;
    write_refs(out, LLVMAliasGetAliasee(a));
    fputc('\n', out);
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) || !head(out, 'F', f)) continue;
    if (LLVMHasPersonalityFn(f)) write_refs(out, LLVMGetPersonalityFn(f));
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b; b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
        int n = LLVMGetNumOperands(i);
        for (int k = 0; k < n; k++) write_refs(out, LLVMGetOperand(i, (unsigned)k));
      }
    fputc('\n', out);
  }
  bool write_failed = fclose(out) != 0;
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
  if (failed || write_failed) {
    remove(argv[2]);
    return 1;
  }
  return 0;
}
