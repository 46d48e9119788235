/* svcomp.c — SV-COMP's unreach-call property and result (contract in svcomp.h). */
#include "prune/svcomp.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/core/xalloc.h"

bool prune_svcomp_read(const char *path, char *err, size_t n) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, n, "--svcomp: %s: %s", path, strerror(errno));
    return false;
  }
  char text[4096];
  size_t len = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[len] = 0;
  char compact[4096];
  size_t m = 0;
  for (size_t k = 0; k < len; k++)
    if (!isspace((unsigned char)text[k])) compact[m++] = text[k];
  compact[m] = 0;
  static const char *const accepted[] = {
      "CHECK(init(main()),LTL(G!call(reach_error())))",
      "CHECK(init(main()),LTL(G!call(__VERIFIER_error())))",
  };
  for (size_t k = 0; k < sizeof accepted / sizeof *accepted; k++)
    if (strcmp(compact, accepted[k]) == 0) return true;
  snprintf(err, n,
           "--svcomp: %s: only the unreach-call property "
           "(CHECK( init(main()), LTL(G ! call(reach_error())) )) is supported",
           path);
  return false;
}

const char *prune_svcomp_result(const prune_stats *s) {
  if (s->verdict == PRUNE_VERDICT_FALSE) return "false(unreach-call)";
  if (s->verdict == PRUNE_VERDICT_TRUE) return "true";
  return "unknown";
}
