#!/usr/bin/env bash
# libpng 1.6 (Debian's libpng1.6) and the zlib it inflates with (Debian's zlib): libpng's
# reading side (png.c, pngerror.c, pngget.c, pngmem.c, pngread.c, pngrio.c, pngrtran.c,
# pngrutil.c, pngset.c, pngtrans.c) and zlib's inflate and checksums, as bitcode and as a
# --coverage build. pnglibconf.h is libpng's prebuilt configuration with setjmp support
# turned off, and with it the simplified API that needs it (a configuration libpng offers,
# options SETJMP and SIMPLIFIED_READ/WRITE): symq does not model
# setjmp/longjmp, so the drivers install an error function that exits, as libpng's manual
# asks of error functions without setjmp. Coverage counts libpng's files.
LIB=libpng
source "$(dirname "$0")/common.sh"
fetch_source libpng1.6
if [ ! -f "$WORK/lib.bc" ]; then
  PNG=$WORK/src
  LIB=zlib fetch_source zlib
  LIB=libpng; WORK=$CACHE/libpng
  ZLIB=$CACHE/zlib/src
  [ -f "$ZLIB/zconf.h" ] || cp "$ZLIB/zconf.h.in" "$ZLIB/zconf.h"
  if [ ! -f "$PNG/pnglibconf.h" ]; then
    grep -v -E '^#define PNG_(SETJMP|SIMPLIFIED_[A-Z_]+)_SUPPORTED$' \
      "$PNG/scripts/pnglibconf.h.prebuilt" > "$PNG/pnglibconf.h"
  fi
  # build_files takes paths under $WORK/src: zlib's files are reached through a link.
  ln -sfn "$ZLIB" "$PNG/zlib-src"
  INCLUDES="-I$PNG -I$ZLIB"
  COVER=$PNG
  files=""
  for f in png pngerror pngget pngmem pngread pngrio pngrtran pngrutil pngset pngtrans; do
    files="$files $f.c"
  done
  for f in adler32 crc32 inflate inftrees inffast zutil; do files="$files zlib-src/$f.c"; done
  # shellcheck disable=SC2086
  build_files "" $files
fi
