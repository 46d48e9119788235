#!/usr/bin/env bash
# libtasn1 4.19 (Debian's libtasn1-6): lib/*.c (DER/BER coding, structures, errors) and the
# gnulib files they use, as bitcode and as a --coverage build; ./configure writes config.h.
LIB=libtasn1
source "$(dirname "$0")/common.sh"
fetch_source libtasn1-6
if [ ! -f "$WORK/lib.bc" ]; then
  if [ ! -f "$WORK/src/config.h" ]; then
    (cd "$WORK/src" && ./configure --disable-doc --disable-valgrind-tests --disable-shared \
       -q >/dev/null && make -C lib/gl -s >/dev/null 2>&1 || true)
  fi
  INCLUDES="-I$WORK/src -I$WORK/src/lib -I$WORK/src/lib/gl -I$WORK/src/lib/includes"
  build_files "-DHAVE_CONFIG_H -DASN1_BUILDING" lib/coding.c lib/decoding.c lib/element.c \
    lib/errors.c lib/gstr.c lib/parser_aux.c lib/structure.c lib/version.c lib/ASN1.c \
    lib/gl/c-ctype.c
fi
