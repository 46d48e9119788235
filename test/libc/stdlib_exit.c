/* exit runs the atexit, on_exit and __cxa_atexit handlers, newest first (a handler may
 * register another, which runs next), then ends the process with the status; abort is a
 * symq built-in. The handlers write to stdout, which is compared with glibc's, as is the
 * exit status (symbolic here: one path). A path that calls exit is a completed path. */
// EXPECT: completed=3 tests=3
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "harness.h"

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso);

static void say(const char *s) {
  size_t n = 0;
  while (s[n]) n++;
  if (write(1, s, n) < 0) _exit(99);
}
static void first(void) { say("first\n"); }
static void second(void) { say("second\n"); }
static void late(void) { say("late\n"); }
static void registers(void) {
  say("registers\n");
  atexit(late);
}
static void with_status(int status, void *arg) {
  say(status == 3 ? "status 3 " : "status other ");
  say(arg);
}
static void with_arg(void *arg) { say(arg); }

int main(void) {
  int status = sym_int_in("status", 0, 255);
  switch (sym_int_in("which", 0, 2)) {
  case 0:
    check_int("atexit", atexit(first));
    check_int("atexit", atexit(second));
    exit(status);
  case 1:
    atexit(first);
    check_int("on_exit", on_exit(with_status, "on_exit\n"));
    check_int("__cxa_atexit", __cxa_atexit(with_arg, "cxa\n", NULL));
    atexit(registers);
    exit(3);
  default:
    exit(status & 7);
  }
}
