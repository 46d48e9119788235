/* What every json-c driver shares: a string of symbolic length (../symbolic_string.h), and a
 * string hash that needs no random seed (json-c's default seeds from the clock or the CPU). */
#ifndef JSONC_DRIVER_COMMON_H
#define JSONC_DRIVER_COMMON_H

#include <json.h>

#include "../symbolic_string.h"

static size_t json_symbolic_string(char *s, const char *name) {
  json_global_set_string_hash(JSON_C_STR_HASH_PERLLIKE);
  return symbolic_string(s, "n", name);
}

#endif
