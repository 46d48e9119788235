/* A valid driver with an unknown --qsolver-fallback: bad usage, one line on stderr, exit 2. */
// ARGS: --qsolver-fallback=mbqi
// EXPECT-REJECT: --qsolver-fallback takes expand, z3 or both
int main(void) { return 0; }
