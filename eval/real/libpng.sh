#!/usr/bin/env bash
# libpng 1.6 (Debian's libpng1.6). The paper's libpng drivers read PNG images from memory,
# which also needs zlib's bitcode; neither that build nor drivers/libpng exists yet, so
# after fetching the sources this script says so and skips.
LIB=libpng
source "$(dirname "$0")/common.sh"
fetch_source libpng1.6
say "SKIPPED: no bitcode build (libpng + zlib) and no drivers/libpng yet"
exit 3
