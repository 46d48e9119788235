/*
 * test_part.c — engine/exec/part without the interpreter: a small tree of forks recorded
 * while splitting (decisions shared between forks and released with the states), the part
 * files written in depth-first order and read back, following a prefix (the recorded
 * successor kept, a missing one a mismatch), and the refusals of a changed file, another
 * program's file and a truncated one.
 */
#if !defined(_GNU_SOURCE) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L
#endif

#include "check.h"
#include "engine/core/state.h"
#include "engine/exec/part.h"
#include "engine/out/output.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmpdir[] = "/tmp/symq-test-part-XXXXXX";
static const uint32_t BRANCH[] = {0, 1};

static char *path_of(const char *name) {
  static char buf[512];
  snprintf(buf, sizeof buf, "%s/out/%s", tmpdir, name);
  return buf;
}

/* The split of a tree: root forks (0/1); its 0-side forks at a switch (groups 2 and 5);
 * the 1-side ends. Three live states at the end: 0.2, 0.5 and a state forked on a value. */
static void check_split(void) {
  part_ctx *p = part_new(0x1234);
  part_set_split(p, 2);
  CHECK(part_splitting(p));
  CHECK(!part_holds_regions(p));
  state *root = state_new(1);
  CHECK(part_may_hand_off(p, root)); /* no decision yet: the whole tree */
  CHECK_EQ_U64(part_choose(p, root, BRANCH, 2), (uint64_t)PART_FORK); /* nothing to follow */
  state *one = state_fork(root, 2);
  part_forked(p, root, one);
  part_took(p, root, 0);
  part_took(p, one, 1);
  part_gone(p, one); /* the 1-side ended: its decisions go, root's stay */
  state_free(one);
  state *five = state_fork(root, 3);
  part_forked(p, root, five);
  part_took(p, five, 5);
  part_took(p, root, 2);
  state *valued = state_fork(five, 4);
  part_forked(p, five, valued);
  part_took(p, five, 0);
  part_took(p, valued, 1);
  part_value_fork(p, five, valued); /* both sides depend on a solver's example now */
  CHECK(!part_may_hand_off(p, five));
  CHECK(!part_may_hand_off(p, valued));
  state *live[] = {root, five, valued};
  CHECK(!part_frontier_full(p, live, 3)); /* one state only may be handed off */
  state *pinned = state_fork(root, 7);    /* shares root's decisions, then is concretized */
  part_forked(p, root, pinned);
  part_value_chosen(p, pinned);
  CHECK(!part_may_hand_off(p, pinned));
  CHECK(part_may_hand_off(p, root)); /* root's own decisions are untouched */
  part_gone(p, pinned);
  state_free(pinned);
  state *merged = state_new(5);
  part_merged(p, merged);
  CHECK(!part_may_hand_off(p, merged));
  part_gone(p, merged);
  state_free(merged);
  state *sibling = state_fork(root, 6);
  part_forked(p, root, sibling);
  part_took(p, sibling, 7);
  state *live2[] = {root, five, valued, sibling};
  CHECK(part_frontier_full(p, live2, 4));
  part_hand_off(p, sibling); /* [0, 2, 7] */
  part_hand_off(p, root);    /* [0, 2] */
  part_frontier_done(p);
  CHECK(!part_may_hand_off(p, sibling)); /* the frontier is handed off: no more */
  char err[512];
  char *outdir = path_of("");
  out_dir *out = out_open(outdir, err, sizeof err);
  CHECK(out != NULL);
  CHECK_EQ_U64((uint64_t)part_write_all(p, out), 2);
  CHECK_EQ_U64(part_count(p), 2);
  out_close(out);
  size_t len;
  char *first = part_read_file(path_of("part-0001.part"), &len);
  CHECK(first && strstr(first, "decisions 2\n0 2\ncheck ")); /* depth-first */
  char *second = part_read_file(path_of("part-0002.part"), &len);
  CHECK(second && strstr(second, "decisions 3\n0 2 7\n"));
  free(first);
  free(second);
  state *all[] = {root, five, valued, sibling};
  for (size_t k = 0; k < 4; k++) {
    part_gone(p, all[k]);
    state_free(all[k]);
  }
  part_free(p);
}

static void check_follow(void) {
  char err[1200];
  part_ctx *p = part_new(0x1234);
  CHECK(part_load(p, path_of("part-0002.part"), err, sizeof err));
  CHECK(part_holds_regions(p));
  state *st = state_new(1);
  CHECK_EQ_U64((uint64_t)part_choose(p, st, BRANCH, 2), 0);
  const uint32_t groups[] = {1, 2, 5};
  CHECK_EQ_U64((uint64_t)part_choose(p, st, groups, 3), 1); /* group 2 is the second */
  CHECK(part_mismatch(p, true) != NULL); /* the path ended before the last decision */
  const uint32_t other[] = {3, 4};
  CHECK_EQ_U64((uint64_t)part_choose(p, st, other, 2), (uint64_t)PART_MISMATCH);
  const char *why = part_mismatch(p, false);
  CHECK(why && strstr(why, "part-0002.part") && strstr(why, "decision 3"));
  CHECK(!part_holds_regions(p)); /* nothing more to follow */
  CHECK_EQ_U64((uint64_t)part_choose(p, st, BRANCH, 2), (uint64_t)PART_FORK);
  part_gone(p, st);
  state_free(st);
  part_free(p);

  part_ctx *q = part_new(0x1234);
  CHECK(part_load(q, path_of("part-0001.part"), err, sizeof err));
  state *s2 = state_new(1);
  CHECK_EQ_U64((uint64_t)part_choose(q, s2, BRANCH, 2), 0);
  CHECK_EQ_U64((uint64_t)part_choose(q, s2, groups, 3), 1);
  CHECK(part_mismatch(q, true) == NULL); /* the whole prefix followed */
  state_free(s2);
  part_free(q);
}

static void write_text(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
}

static void check_refusals(void) {
  char err[1200];
  size_t len;
  char *text = part_read_file(path_of("part-0002.part"), &len);
  part_ctx *other = part_new(0x9999);
  CHECK(!part_load(other, path_of("part-0002.part"), err, sizeof err));
  CHECK(strstr(err, "part-0002.part") && strstr(err, "another program"));
  part_free(other);
  char *changed = strdup(text);
  char *at = strstr(changed, "0 2 7");
  at[4] = '6';
  write_text(path_of("changed.part"), changed);
  part_ctx *p = part_new(0x1234);
  CHECK(!part_load(p, path_of("changed.part"), err, sizeof err));
  CHECK(strstr(err, "changed.part") && strstr(err, "changed after"));
  changed[strlen(changed) - 10] = 0; /* cut inside the check line */
  write_text(path_of("cut.part"), changed);
  CHECK(!part_load(p, path_of("cut.part"), err, sizeof err));
  CHECK(strstr(err, "cut.part") != NULL);
  write_text(path_of("other.part"), "symq-part 2\n");
  CHECK(!part_load(p, path_of("other.part"), err, sizeof err));
  CHECK(strstr(err, "version 1") != NULL);
  CHECK(!part_load(p, path_of("missing.part"), err, sizeof err));
  CHECK(strstr(err, "missing.part") && strstr(err, "cannot read"));
  part_free(p);
  free(changed);
  free(text);
}

int main(void) {
  if (!mkdtemp(tmpdir)) return 1;
  check_split();
  check_follow();
  check_refusals();
  char cmd[600];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system(cmd) != 0) return 1;
  return check_exit();
}
