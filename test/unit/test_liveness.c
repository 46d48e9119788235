/*
 * test_liveness — live registers before each instruction (merge/liveness.h) on a memspn-like
 * loop written in LLVM IR, so that register and instruction numbers are known: a value never
 * used is never live; a phi's destination is not live before the edges that write it; a
 * phi's source is live at the end of its own predecessor; a value dies after its last use;
 * the loop bound stays live around the loop; only the returned value is live at `ret`.
 */
#include <string.h>

#include "check.h"
#include "decode_source.h"
#include "merge/liveness.h"

/* registers: s=0 n=1 unused=2 i=3 more=4 p=5 c=6 next=7 isa=8 r=9
 * instructions: 0 add, 1 br, 2 icmp, 3 condbr, 4 gep, 5 load, 6 add, 7 icmp, 8 condbr, 9 ret */
static const char source[] =
    "define i64 @count(i8* %s, i64 %n) {\n"
    "entry:\n"
    "  %unused = add i64 %n, 1\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i64 [ 0, %entry ], [ %next, %body ]\n"
    "  %more = icmp ult i64 %i, %n\n"
    "  br i1 %more, label %body, label %exit\n"
    "body:\n"
    "  %p = getelementptr i8, i8* %s, i64 %i\n"
    "  %c = load i8, i8* %p\n"
    "  %next = add i64 %i, 1\n"
    "  %isa = icmp eq i8 %c, 97\n"
    "  br i1 %isa, label %head, label %exit\n"
    "exit:\n"
    "  %r = phi i64 [ %i, %head ], [ %next, %body ]\n"
    "  ret i64 %r\n"
    "}\n"
    "define i32 @main() {\n"
    "  ret i32 0\n"
    "}\n";

static const struct {
  uint32_t inst;
  const char *live; /* the registers live before it, as a string of register digits */
} expected[] = {
    {0, "01"},   {1, "01"},   {2, "013"},  {3, "0134"}, {4, "013"},
    {5, "0135"}, {6, "0136"}, {7, "0167"}, {8, "0178"}, {9, "9"},
};

int main(void) {
  ir_program *p = decode_source("count.ll", source);
  CHECK(p != NULL);
  if (!p) return check_exit();
  const ir_function *fn = &p->funcs[ir_find_function(p, "count")];
  CHECK_EQ_U64(fn->nregs, 10);
  CHECK_EQ_U64(fn->ninsts, 10);
  CHECK_EQ_U64(fn->insts[6].dst, 7); /* %next: the numbering above holds */
  merge_liveness *l = merge_liveness_compute(fn);
  for (size_t k = 0; k < sizeof expected / sizeof *expected; k++) {
    uint32_t inst = expected[k].inst;
    const char *live = expected[k].live;
    for (uint32_t reg = 0; reg < fn->nregs; reg++) {
      bool want = strchr(live, (char)('0' + reg)) != NULL;
      if (merge_live_before(l, inst, reg) != want) {
        fprintf(stderr, "instruction %u, register %u: expected %s\n", inst, reg,
                want ? "live" : "dead");
        check_failed++;
      } else {
        check_passed++;
      }
    }
    CHECK_EQ_U64(merge_live_count(l, inst), strlen(live));
  }
  merge_liveness_free(l);
  ir_free(p);
  return check_exit();
}
