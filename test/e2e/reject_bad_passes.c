/* A pipeline LLVM cannot parse is bad input: one line naming the pipeline, no run. */
// EXPECT-REJECT: pass pipeline "no-such-pass" failed
// ARGS: --passes=no-such-pass
int main(void) { return 0; }
