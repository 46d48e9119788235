/* An argv parser (--sym-args): -v, -q and -o FILE. Planted bug: after -o as the last
 * argument, its value is argv[argc], which is NULL. */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  int verbose = 0;
  const char *output = "-";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-v") == 0) verbose++;
    else if (strcmp(argv[i], "-q") == 0)
      verbose = 0;
    else if (strcmp(argv[i], "-o") == 0) {
      output = argv[++i]; /* no check that i < argc: NULL after a last -o */
      if (output[0] == '-' && output[1] == 0) output = "stdout"; /* BUG */
    } else {
      return 2;
    }
  }
  printf("verbose %d, output %s\n", verbose, output);
  return 0;
}
