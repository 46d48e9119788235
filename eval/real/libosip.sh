#!/usr/bin/env bash
# libosip2 (Debian's libosip2): the SIP parser library (src/osipparser2/*.c) as bitcode and as
# a --coverage build; ./configure writes config.h. (Debian 12's mirror used here answered
# 404 for this package's files when this was written, so the script skips; the build
# below is then untried.)
LIB=libosip
source "$(dirname "$0")/common.sh"
fetch_source libosip2
if [ ! -f "$WORK/lib.bc" ]; then
  [ -f "$WORK/src/config.h" ] || (cd "$WORK/src" && ./configure -q --disable-shared >/dev/null)
  INCLUDES="-I$WORK/src -I$WORK/src/include"
  files=$(cd "$WORK/src" && ls src/osipparser2/*.c)
  # shellcheck disable=SC2086
  build_files "-DHAVE_CONFIG_H" $files
fi
[ -d "$REPO/drivers/libosip" ] || { say "SKIPPED: no drivers/libosip yet"; exit 3; }
