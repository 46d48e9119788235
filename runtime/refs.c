/*
 * refs.c — the build tool that writes the runtime's reference index, RUNTIME.bc.refs, from
 * which `symq run` links only the runtime functions a program reaches (engine/bitcode.c,
 * link_needed). Usage: symq_runtime_refs RUNTIME.bc OUT.refs
 *
 * The index is text, one line per global value the runtime defines:
 *   symq-refs 1 SIZE HASH         first line: RUNTIME.bc's size and FNV-1a 64 hash (hex),
 *                                 so an index that does not belong to the file is ignored
 *   F NAME REF...                 a function definition and every global value its body
 *   G NAME REF...                 (or a variable's initializer, an alias's aliasee)
 *   A NAME REF...                 names, directly or through constant expressions
 * A reference left out would leave a reached function unlinked; symq detects that after
 * linking (and links the whole runtime), but the index is meant to be exact: every
 * instruction operand and every constant operand below it is visited. A global value
 * without a name, or with a blank in its name, cannot be named here: the tool refuses it,
 * and the build stops.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>

static bool nameable(LLVMValueRef g, const char **name) {
  size_t len;
  *name = LLVMGetValueName2(g, &len);
  if (!len) return false;
  for (size_t k = 0; k < len; k++)
    if ((*name)[k] == ' ' || (*name)[k] == '\n' || (*name)[k] == '\t' || !(*name)[k]) return false;
  return true;
}

static bool failed;

/* Writes " NAME" for every global value v is or holds (through constants). */
static void write_refs(FILE *out, LLVMValueRef v) {
  if (!v) return;
  if (LLVMIsAGlobalValue(v)) {
    const char *name;
    if (!nameable(v, &name)) {
      fprintf(stderr, "symq_runtime_refs: a runtime global value has no usable name\n");
      failed = true;
      return;
    }
    fprintf(out, " %s", name);
    return;
  }
  if (!LLVMIsAConstant(v)) return; /* metadata, arguments, other instructions' results */
  int n = LLVMGetNumOperands(v);
  for (int k = 0; k < n; k++) write_refs(out, LLVMGetOperand(v, (unsigned)k));
}

static bool head(FILE *out, char kind, LLVMValueRef g) {
  const char *name;
  if (!nameable(g, &name)) {
    fprintf(stderr, "symq_runtime_refs: a runtime global value has no usable name\n");
    failed = true;
    return false;
  }
  fprintf(out, "%c %s", kind, name);
  return true;
}

static uint64_t fnv1a(const unsigned char *p, size_t n) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3ull;
  return h;
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
  uint64_t hash = fnv1a((const unsigned char *)LLVMGetBufferStart(buf), size);
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
  fprintf(out, "symq-refs 1 %zu %016llx\n", size, (unsigned long long)hash);
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
