/* compare — the `symq compare` command: one driver, several merging modes, one table. */
#ifndef SYMQ_COMPARE_H
#define SYMQ_COMPARE_H

#include "engine/cli/options.h"

extern const opt_command compare_command; /* its options and help */
/* argv is the whole command line (argv[0] "symq", argv[1] "compare"); returns the exit
 * status: 0, 1 (a mode failed or the output directory could not be made), 2 (bad usage). */
int compare_main(int argc, char **argv);
#endif
