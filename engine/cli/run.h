/* run — the `symq run` command. */
#ifndef SYMQ_RUN_H
#define SYMQ_RUN_H
/* argv is the whole command line (argv[0] "symq", argv[1] "run"); returns the exit status:
 * 0, 1 (the output directory could not be made) or 2 (bad usage or input). */
int run_main(int argc, char **argv);
#endif
