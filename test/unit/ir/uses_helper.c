/* Input for test_ir's link test: helper() is defined in helper.c. */
int helper(int x);
int use(int x) { return helper(x) + 1; }
