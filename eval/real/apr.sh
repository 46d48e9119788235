#!/usr/bin/env bash
# APR 1.7.2 (Debian's apr): the string, matching and escaping files (no pools needed), as
# bitcode and as a --coverage build; ./configure writes include/apr.h, and the build's own
# tools/gen_test_char writes the escape table apr_escape.c includes.
LIB=apr
source "$(dirname "$0")/common.sh"
fetch_source apr
if [ ! -f "$WORK/lib.bc" ]; then
  if [ ! -f "$WORK/src/include/apr.h" ]; then
    (cd "$WORK/src" && ./configure -q --disable-shared >/dev/null)
  fi
  INCLUDES="-I$WORK/src/include -I$WORK/src/include/arch/unix -I$WORK/src/include/private"
  if [ ! -f "$WORK/src/include/private/apr_escape_test_char.h" ]; then
    gcc -w $INCLUDES "$WORK/src/tools/gen_test_char.c" -o "$WORK/gen_test_char"
    "$WORK/gen_test_char" > "$WORK/src/include/private/apr_escape_test_char.h"
  fi
  build_files "-DLINUX -D_REENTRANT -D_GNU_SOURCE" strings/apr_strings.c \
    strings/apr_fnmatch.c strings/apr_cpystrn.c strings/apr_strnatcmp.c encoding/apr_escape.c
fi
