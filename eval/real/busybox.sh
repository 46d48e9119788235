#!/usr/bin/env bash
# busybox 1.35 (Debian's busybox). Fetches the sources; the applet build and the drivers
# (utilities with symbolic arguments and input) do not exist yet, so it says so and skips.
LIB=busybox
source "$(dirname "$0")/common.sh"
fetch_source busybox
say "SKIPPED: no bitcode build and no drivers/busybox yet"
exit 3
