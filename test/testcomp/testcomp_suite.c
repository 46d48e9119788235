/*
 * testcomp_suite — `testcomp_suite OUTDIR PROGRAM [PROPERTY.prp]`: writes the Test-Comp
 * test suite of a finished symq output directory (OUTDIR/test-suite) with
 * testcomp_write_suite, the call `symq run --testcomp` makes. run_testcomp.py uses it while
 * symq itself has no such option. Exit status 0, or 1 with one line on stderr.
 */
#include <stdio.h>
#include <stdlib.h>

#include "engine/out/testcomp.h"

int main(int argc, char **argv) {
  if (argc != 3 && argc != 4) {
    fprintf(stderr, "usage: %s OUTDIR PROGRAM [PROPERTY.prp]\n", argv[0]);
    return 2;
  }
  char err[1024];
  char *spec = NULL;
  if (argc == 4 && !(spec = testcomp_read_spec(argv[3], err, sizeof err))) {
    fprintf(stderr, "testcomp_suite: %s\n", err);
    return 1;
  }
  int rc = testcomp_write_suite(argv[1], argv[2], spec, err, sizeof err);
  free(spec);
  if (rc != 0) {
    fprintf(stderr, "testcomp_suite: %s\n", err);
    return 1;
  }
  return 0;
}
