/* Linked into basic.c by test_ir: defines a function the main input only declares. */
int helper(int x) { return x * 3; }
