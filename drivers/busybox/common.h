/* What every busybox driver shares: libbb's header, a string of symbolic length
 * (../symbolic_string.h), and what busybox's applet runner would give its utilities.
 * libbb's die functions print a message (verror_msg.c) and exit with xfunc_error_retval;
 * printing is output these drivers do not check, so they exit as busybox does, without the
 * message (eval/real/busybox.sh does not build the printers nor the applet table). */
#ifndef BUSYBOX_DRIVER_COMMON_H
#define BUSYBOX_DRIVER_COMMON_H

#include "libbb.h"

#include "../symbolic_string.h"

void FAST_FUNC bb_error_msg_and_die(const char *fmt, ...) {
  (void)fmt;
  exit(xfunc_error_retval);
}
void FAST_FUNC bb_simple_error_msg_and_die(const char *msg) {
  (void)msg;
  exit(xfunc_error_retval);
}
void FAST_FUNC bb_show_usage(void) { exit(xfunc_error_retval); }

/* appletlib.c's lbb_prepare: libbb reads errno through a cached pointer. */
static size_t busybox_symbolic_string(char *s, const char *name) {
  bb_errno = __errno_location();
  return symbolic_string(s, "n", name);
}

#endif
