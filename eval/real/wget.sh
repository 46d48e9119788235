#!/usr/bin/env bash
# wget 1.21 (Debian's wget). Fetches the sources; the build (configure + gnulib) and
# drivers/wget do not exist yet, so it says so and skips.
LIB=wget
source "$(dirname "$0")/common.sh"
fetch_source wget
say "SKIPPED: no bitcode build and no drivers/wget yet"
exit 3
