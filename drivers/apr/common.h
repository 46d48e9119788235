/* What every APR driver shares: strings of symbolic length (../symbolic_string.h). The APIs
 * driven need no pool. */
#ifndef APR_DRIVER_COMMON_H
#define APR_DRIVER_COMMON_H

#include "../symbolic_string.h"

#endif
