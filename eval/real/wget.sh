#!/usr/bin/env bash
# wget 1.21 (Debian's wget): ./configure without TLS, IRI, PSL, PCRE, zlib or NLS; make in
# lib/ builds gnulib (and its generated headers); then src/*.c but main.c and the
# protocol/TLS front ends, with the gnulib files make compiled, as bitcode and as a
# --coverage build. Coverage counts wget's own src/ files.
LIB=wget
source "$(dirname "$0")/common.sh"
fetch_source wget
if [ ! -f "$WORK/lib.bc" ]; then
  if [ ! -f "$WORK/src/src/config.h" ]; then
    (cd "$WORK/src" && ./configure -q --without-ssl --disable-iri --without-libpsl \
       --disable-pcre --disable-pcre2 --without-zlib --disable-nls --without-metalink \
       --without-cares --without-libuuid --disable-debug >/dev/null)
  fi
  [ -f "$WORK/src/lib/libgnu.a" ] || make -C "$WORK/src/lib" -s >/dev/null 2>&1
  INCLUDES="-I$WORK/src/src -I$WORK/src/lib -I$WORK/src"
  COVER="$WORK/src/src"
  files=""
  for f in url utils hash res html-parse log exits ptimer; do files="$files src/$f.c"; done
  for o in "$WORK"/src/lib/*.o "$WORK"/src/lib/*/*.o; do
    [ -f "$o" ] || continue
    b=$(basename "$o" .o); b=${b#libgnu_a-}; d=$(dirname "${o#"$WORK"/src/}")
    if [ -f "$WORK/src/$d/$b.c" ]; then files="$files $d/$b.c"; fi
  done
  # shellcheck disable=SC2086
  build_files "-DHAVE_CONFIG_H" $files
fi
