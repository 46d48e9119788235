# Sourced by eval/real/<lib>.sh: obtains a Debian source package with apt-get source, and
# builds the library's files twice, outside the repository:
#   $SYMQ_REAL_CACHE/<lib>/src/      the unpacked upstream sources (apt-get source)
#   $SYMQ_REAL_CACHE/<lib>/lib.bc    every needed file as LLVM bitcode, linked (for symq run)
#   $SYMQ_REAL_CACHE/<lib>/cov/      the same files built with gcc --coverage (for replay)
#   $SYMQ_REAL_CACHE/<lib>/env       INCLUDES= and CFLAGS= the drivers are compiled with,
#                                    COVER= the sources coverage counts
# SYMQ_REAL_CACHE defaults to ~/.cache/symq-real. A package the registry does not serve is
# skipped with a message and exit status 3 (eval/real/run skips that library).
set -eu
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CACHE=${SYMQ_REAL_CACHE:-$HOME/.cache/symq-real}
CLANG=${CLANG:-clang-14}
LLVM_LINK=${LLVM_LINK:-llvm-link-14}
# The flags symq itself compiles drivers with (engine/core/bitcode.h), so that library calls
# into libc reach symq's model.
BC_FLAGS="-emit-llvm -c -g -O0 -Xclang -disable-O0-optnone -fno-builtin -D__NO_CTYPE -w"

say() { printf '%s: %s\n' "$LIB" "$*" >&2; }

enable_deb_src() {
  if grep -rqs '^Types:.*deb-src' /etc/apt/sources.list.d/ ||
     grep -qs '^deb-src' /etc/apt/sources.list; then return 0; fi
  if [ "$(id -u)" != 0 ]; then
    say "no deb-src lines in apt's sources; as root, add 'deb-src' to the Types: lines of" \
        "/etc/apt/sources.list.d/debian.sources and run apt-get update"
    return 1
  fi
  say "enabling deb-src in /etc/apt/sources.list.d/debian.sources"
  sed -i 's/^Types: deb$/Types: deb deb-src/' /etc/apt/sources.list.d/debian.sources
  apt-get update -qq >&2
}

# fetch_source PACKAGE: unpacks the source package into $WORK/src (once).
fetch_source() {
  local pkg=$1
  WORK=$CACHE/$LIB
  mkdir -p "$WORK"
  if [ -d "$WORK/src" ]; then return 0; fi
  enable_deb_src || exit 3
  local dl=$WORK/download
  rm -rf "$dl" && mkdir -p "$dl"
  if ! (cd "$dl" && apt-get source --download-only -qq "$pkg" >&2); then
    # A mirror may lack the newest version's files (a security update) yet serve an older
    # one that apt still lists: try those, newest first.
    local ver served=""
    for ver in $(apt-cache showsrc "$pkg" 2>/dev/null | sed -n 's/^Version: //p' |
                 sort -u -r -V); do
      rm -rf "$dl" && mkdir -p "$dl"
      if (cd "$dl" && apt-get source --download-only -qq "$pkg=$ver" >&2); then
        served=$ver; break
      fi
    done
    if [ -z "$served" ]; then
      say "SKIPPED: the registry does not serve source package '$pkg' (no version of it)"
      exit 3
    fi
    say "the newest '$pkg' is not served; using version $served"
  fi
  local dsc
  dsc=$(ls "$dl"/*.dsc | head -n 1)
  (cd "$dl" && dpkg-source --no-check -x "$(basename "$dsc")" unpacked >&2)
  mv "$dl/unpacked" "$WORK/src"
}

# build_files DEFINES FILE...: each FILE (relative to $WORK/src) to bitcode and to a
# --coverage object; links the bitcode into $WORK/lib.bc.
build_files() {
  local defs=$1; shift
  mkdir -p "$WORK/bc" "$WORK/cov"
  local bcs=()
  for f in "$@"; do
    local base; base=$(echo "$f" | tr / _); base=${base%.c}
    $CLANG $BC_FLAGS $defs $INCLUDES "$WORK/src/$f" -o "$WORK/bc/$base.bc"
    (cd "$WORK/cov" && gcc -c -g -O0 --coverage -w $defs $INCLUDES "$WORK/src/$f" -o "$base.o")
    bcs+=("$WORK/bc/$base.bc")
  done
  $LLVM_LINK "${bcs[@]}" -o "$WORK/lib.bc"
  # COVER: the files whose lines count in coverage (default: all of the library's sources)
  printf 'INCLUDES=%q\nCFLAGS=%q\nSRC=%q\nCOVER=%q\n' "$INCLUDES" "$defs" "$WORK/src" \
    "${COVER:-$WORK/src}" > "$WORK/env"
  say "built $WORK/lib.bc and $WORK/cov/*.o from $# files"
}
