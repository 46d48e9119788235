/*
 * process.c — the process attributes a library may read or set, for symq's one process.
 * umask: the file-creation mask, 022 at start (the usual login default; busybox's chmod
 * mode parser reads it with umask(0) and puts it back). Only the permission bits are kept,
 * as the kernel keeps them. The real-time signal range: glibc 2.36 on Linux keeps signals
 * 32 and 33 for its threads, so SIGRTMIN is 34 and SIGRTMAX 64 (kill's signal names read
 * them). Nothing here touches the host: symq's files are not real.
 */
#define _GNU_SOURCE
#include <sys/stat.h>

#include "model.h"

static mode_t creation_mask = 022;

WEAK mode_t umask(mode_t mask) {
  mode_t old = creation_mask;
  creation_mask = mask & 0777;
  return old;
}

WEAK int __libc_current_sigrtmin(void) { return 34; }

WEAK int __libc_current_sigrtmax(void) { return 64; }
