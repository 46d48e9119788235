/*
 * errno.c — errno for the libc model. glibc's <errno.h> defines errno as
 * (*__errno_location ()), so drivers compiled against it reach this one int; symq runs one
 * thread per path, and each path has its own copy of the int (memory is per state).
 */
#include <errno.h>

#include "model.h"

static int errno_value;

WEAK int *__errno_location(void) { return &errno_value; }
