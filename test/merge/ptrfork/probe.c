/*
 * json-c's lh_table_lookup_entry_w_hash in small (issue 26): a probe loop over a hash table
 * whose slots point to different key objects. The slot is picked by a hash of the key, so
 * the slot's key pointer is symbolic, and dereferencing it forks at a constraint that is not
 * a branch (the pointer resolved to one object or another): the region's tree hash is
 * invalid and PAT cannot merge by pattern. The states at the loop's exit then differ only in
 * which object the pointer resolved to; merged the CFG way, the merged state resolves the
 * same pointer again at every later access through it (splitting back into one state per
 * object) while each of its queries carries the members' disjunction — on json-c
 * pointer_get such merges doubled the queries (2,772 against forking's 1,220 at 50,000
 * instructions) and Z3's effort (2.2x). So such a fallback continues forked (merge/
 * strategy_pat.c), with paths and errors as under --merge=none. (In this small loop the
 * CFG merge of the not-found exit's 17 states would save paths at an equal query count: the
 * rule rests on the real loop's measurement, docs/merging.md; this driver pins the rule.)
 * The error: a key found whose second byte is 'z'.
 * EXPECT: decision="fallback fork (tree hash invalid: fork at a constraint that is not a branch)"
 */
#include <klee/klee.h>
#include <stddef.h>

#ifndef CAPACITY
#define CAPACITY 4
#endif

struct entry {
  const char *k;
  int v;
};

static const char k0[] = "ab", k1[] = "cd", k2[] = "ef", k3[] = "gz";

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= CAPACITY);
  char key[3];
  klee_make_symbolic(key, sizeof key, "key");
  key[2] = 0;
  struct entry table[4] = {{k0, 1}, {k1, 2}, {k2, 3}, {k3, 4}};
  unsigned h = (unsigned char)key[0] % 4u;
  const struct entry *found = NULL;
  for (size_t c = 0; c < n; c++) {
    const struct entry *e = &table[(h + c) % 4u];
    if (e->k[0] == key[0]) {
      found = e;
      break;
    }
  }
  /* later work through the found key's pointer */
  int r = 0;
  if (found) {
    if (found->k[1] == key[1]) r += found->v;
    if (found->k[1] == 'z') r += 10;
    if (found->k[0] > 'c') r++;
  }
  klee_assert(r < 10);
  return 0;
}
