/* A wc-like program reading stdin (--sym-stdin): counts lines, words and bytes, and keeps
 * the length of each line. Planted bug: lengths has room for 4 lines, and a fifth newline
 * writes past it. */
#include <stdio.h>

int main(void) {
  int lengths[4];
  int lines = 0, words = 0, bytes = 0, in_word = 0, len = 0, c;
  while ((c = getchar()) != EOF) {
    bytes++;
    if (c == '\n') {
      lengths[lines] = len; /* BUG: no check that lines < 4 */
      lines++;
      len = 0;
    } else {
      len++;
    }
    if (c == ' ' || c == '\n') in_word = 0;
    else if (!in_word) {
      in_word = 1;
      words++;
    }
  }
  printf("%d %d %d\n", lines, words, bytes);
  return lines > 0 ? lengths[0] : 0;
}
