/* Valid C without a main function: nothing to run, so symq must refuse it as malformed input
 * (one line on stderr naming main, exit status 2). */
// EXPECT-REJECT: main
int helper(int x) { return x + 1; }
