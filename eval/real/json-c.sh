#!/usr/bin/env bash
# json-c 0.16 (Debian's json-c): its library files as bitcode and as a --coverage build.
# CMake writes config.h and json_config.h; nothing else of its build is used.
LIB=json-c
source "$(dirname "$0")/common.sh"
fetch_source json-c
if [ ! -f "$WORK/lib.bc" ]; then
  mkdir -p "$WORK/cfg"
  (cd "$WORK/cfg" && cmake -S "$WORK/src" -B . -DBUILD_SHARED_LIBS=OFF -DENABLE_RDRAND=OFF \
     -DENABLE_THREADING=OFF -DDISABLE_WERROR=ON >/dev/null)
  INCLUDES="-I$WORK/cfg -I$WORK/src"
  build_files "" arraylist.c debug.c json_c_version.c json_object.c json_object_iterator.c \
    json_pointer.c json_tokener.c json_util.c json_visit.c linkhash.c printbuf.c \
    random_seed.c strerror_override.c
fi
