/* What every wget driver shares: wget's own headers (config.h first, as in wget's sources),
 * the globals wget's main.c would define (the drivers link wget's files, not its main), and
 * strings of symbolic length (../symbolic_string.h). */
#ifndef WGET_DRIVER_COMMON_H
#define WGET_DRIVER_COMMON_H

#include "wget.h"
#include "utils.h" /* xfree */

#include "../symbolic_string.h"

struct options opt;
const char *exec_name = "wget";
const char *program_name = "wget";
const char *program_argstring = "wget";

#endif
