/* A valid driver with an unknown --search strategy: bad usage, one line on stderr, exit 2. */
// ARGS: --search=sideways
// EXPECT-REJECT: symq: error:
int main(void) { return 0; }
