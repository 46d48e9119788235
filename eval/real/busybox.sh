#!/usr/bin/env bash
# busybox 1.35 (Debian's busybox): `make defconfig` writes include/autoconf.h (and the applet
# headers); then the libbb files that hold the utilities' core functions the drivers call
# (chmod's mode parser, echo/printf's escapes, base64, kill's signal names, sleep's
# durations, httpd's percent decoding, the numeric-argument parsers, keyword lookup) as
# bitcode and as a --coverage build, with busybox's own flags (its Makefile.flags). The
# message printers (verror_msg.c, appletlib.c's usage) are not built: they are output and
# exit, which drivers/busybox/common.h gives, so no applet table is needed; xfuncs.c,
# messages.c, full_write.c and safe_write.c are there because the others refer to them
# (the native link cannot leave libbb's hidden symbols unresolved). Coverage counts libbb/.
LIB=busybox
source "$(dirname "$0")/common.sh"
fetch_source busybox
if [ ! -f "$WORK/lib.bc" ]; then
  [ -f "$WORK/src/include/autoconf.h" ] ||
    (cd "$WORK/src" && make -s defconfig >/dev/null && make -s include/autoconf.h >/dev/null)
  INCLUDES="-I$WORK/src/include -I$WORK/src/libbb"
  COVER="$WORK/src/libbb"
  # BB_GLOBAL_CONST='' is busybox's documented switch for toolchains that cannot write its
  # "const" globals (bb_errno); the drivers set bb_errno as appletlib.c would. BB_VER, which
  # Makefile.flags passes quoted on the command line, comes from a header instead.
  ver=$(cd "$WORK/src" && make -s kernelversion 2>/dev/null || echo unknown)
  printf '#define BB_VER "%s"\n' "$ver" > "$WORK/bb_ver.h"
  defs="-include $WORK/src/include/autoconf.h -include $WORK/bb_ver.h -std=gnu99"
  defs="$defs -D_GNU_SOURCE -DNDEBUG"
  defs="$defs -D_LARGEFILE_SOURCE -D_LARGEFILE64_SOURCE -D_FILE_OFFSET_BITS=64"
  defs="$defs -DBB_GLOBAL_CONST="
  files=""
  for f in parse_mode process_escape_sequence uuencode percent_decode bb_strtonum \
           u_signal_names duration compare_string_array trim skip_whitespace last_char_is \
           xatonum xfuncs messages full_write safe_write ptr_to_globals \
           default_error_retval; do
    files="$files libbb/$f.c"
  done
  # shellcheck disable=SC2086
  build_files "$defs" $files
fi
