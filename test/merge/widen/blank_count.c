/* A branch in the loop body that does not leave the loop (issue 26, item 3b): counting the
 * blanks of a buffer of symbolic size n, `if (c == ' ' || c == '\t') cnt++;`. Forking makes
 * 3^n paths (1,093 at capacity 6). With --incremental-merge the sides of the body's branches
 * are joined where they meet inside the iteration — the ' ' and '\t' sides as equal states,
 * then with the other side by ite on cnt — so each iteration adds one symbol to the word and
 * the CAP+1 states at the exit merge by pattern (cnt an ite on K): 28 forks instead of
 * 1,092, and the assertions below are proven on the merged states. */
// ARGS-PAT: --incremental-merge --merge-decide=always
// EXPECT-PAT: merges=1 merged_states=7
#include <symq.h>
#define CAP 6

int main(void) {
  size_t n;
  char *s = symq_symbolic_buffer(CAP, &n, "s");
  unsigned cnt = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i];
    if (c == ' ' || c == '\t') cnt++;
  }
  symq_assert(cnt <= n);
  symq_assert(n == 0 || cnt > 0 || (s[0] != ' ' && s[0] != '\t'));
  return (int)cnt;
}
