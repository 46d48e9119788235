/*
 * test_checks — symq's internal checks are live in this build: an expression built with
 * operands of different widths (the kind of bug that once reached Z3 as an ill-sorted
 * query and silently ended paths) must stop the process, whatever the build type.
 */
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "engine/core/expr.h"

/* Runs `bad` in a child process; true when it died of SIGABRT (a failed assert). */
static int aborts(void (*bad)(void)) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    bad();
    _exit(0);
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return 0;
  return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

static void mixed_widths(void) {
  expr *a = expr_const(32, 1), *b = expr_const(64, 1);
  expr *sum = expr_binary(EXPR_ADD, a, b);
  expr_unref(sum);
  expr_unref(a);
  expr_unref(b);
}

static void ite_with_wide_condition(void) {
  expr *c = expr_const(8, 1), *t = expr_const(32, 1), *e = expr_const(32, 2);
  expr *r = expr_ite(c, t, e);
  expr_unref(r);
  expr_unref(c);
  expr_unref(t);
  expr_unref(e);
}

int main(void) {
  CHECK(aborts(mixed_widths));
  CHECK(aborts(ite_with_wide_condition));
  return check_exit();
}
