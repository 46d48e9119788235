#!/usr/bin/env bash
# eval/fuzz.sh TARGET SECONDS — fuzzes one part of symq with libFuzzer (clang-14) for SECONDS
# of wall time, at nice $SYMQ_FUZZ_NICE (default 19: the machine is shared).
#
#   TARGET   ir       loading and decoding .ll / .bc   seeds: drivers/*.c, test/unit/ir/*.c
#                                                       as .ll, and test/e2e/*.c as .bc
#            ktest    reading .ktest files              seeds: ktests symq writes for drivers/
#            cmdline  `symq run`'s command line         seeds: the ARGS lines of test/e2e
#
# The fuzz build lives in build-fuzz/ (CC=clang-14, -DSYMQ_FUZZ=ON: ASan+UBSan+coverage).
# The corpus grows in $SYMQ_FUZZ_DIR/corpus/TARGET (default SYMQ_FUZZ_DIR: build-fuzz; keep
# a long-lived corpus outside the checkout); crashes are written to $SYMQ_FUZZ_DIR/crashes/
# TARGET/ (each must become a regression input in test/robust/bad_inputs, or for .ktest
# files a case in test/unit/test_ktest.c). Prints the CPU seconds the fuzzer used (its own
# user + system time, not wall time: on a loaded machine the two differ); exits 1 if it
# found a crash (fuzzing goes on after one: libFuzzer's -fork=1).
set -euo pipefail
# The body is a function so that bash reads it whole before running: editing this file
# during a long run cannot derail that run.
main() {
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
target=${1:?usage: eval/fuzz.sh ir|ktest|cmdline SECONDS}
seconds=${2:?usage: eval/fuzz.sh ir|ktest|cmdline SECONDS}
case "$target" in ir|ktest|cmdline) ;; *) echo "eval/fuzz.sh: unknown target '$target'" >&2; exit 2 ;; esac
build=$here/build-fuzz
clang=$(command -v clang-14)
CC=$clang cmake -S "$here" -B "$build" -DSYMQ_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice -n "${SYMQ_FUZZ_NICE:-19}" cmake --build "$build" -j 2 --target "fuzz_$target" symq >/dev/null

store=${SYMQ_FUZZ_DIR:-$build}
niceness=${SYMQ_FUZZ_NICE:-19}
corpus=$store/corpus/$target
crashes=$store/crashes/$target
mkdir -p "$corpus" "$crashes"
if [ -z "$(ls -A "$corpus")" ]; then # seeds, once
  case "$target" in
    ir)
      for c in "$here"/drivers/*.c "$here"/test/unit/ir/*.c; do # as text
        "$clang" -emit-llvm -S -g -O0 -Xclang -disable-O0-optnone -I "$here/runtime/include" \
          "$c" -o "$corpus/$(basename "$c" .c).ll" 2>/dev/null || true
      done
      for c in "$here"/drivers/*.c "$here"/test/e2e/*.c; do
        "$clang" -emit-llvm -c -g -O0 -Xclang -disable-O0-optnone -I "$here/runtime/include" \
          "$c" -o "$corpus/$(basename "$c" .c).bc" 2>/dev/null || true
      done
      ;;
    ktest)
      for d in "$here"/drivers/*.c; do
        out=$(mktemp -d)
        "$build/symq" run --output-dir="$out/o" --max-time=20s "$d" >/dev/null 2>&1 || true
        for k in "$out"/o/*.ktest; do [ -e "$k" ] && cp "$k" "$corpus/$(basename "$d" .c)-$(basename "$k")"; done
        rm -rf "$out"
      done
      ;;
    cmdline)
      n=0
      grep -h '^// ARGS:' "$here"/test/e2e/*.c | sed 's|^// ARGS: *||' | while read -r line; do
        n=$((n + 1))
        # shellcheck disable=SC2086
        printf '%s\0' $line x.c > "$corpus/args-$n"
      done
      printf '%s\0' --max-time=1s --search=bfs --seed=3 x.c > "$corpus/args-0"
      ;;
  esac
fi
before=$(ls "$crashes" | wc -l)
start=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
quiet=()
[ "$target" = cmdline ] && quiet=(-close_fd_mask=3) # symq's usage errors: not the log
# ir: LLVM's fatal errors are jumped out of (symq itself exits there), which leaks by design
[ "$target" = ir ] && quiet=(-detect_leaks=0)
# ir: LLVM's own out-of-bounds reads on malformed bitcode are LLVM's bugs (eval/fuzz/llvm.supp);
# a huge allocation fails as in symq's own build (NULL: LLVM then aborts, which symq reports);
# and no leak check at exit either (what the jumps leaked made each job "crash" on exit, an
# empty crash-da39a3... file)
[ "$target" = ir ] &&
  export ASAN_OPTIONS="suppressions=$here/eval/fuzz/llvm.supp:allocator_may_return_null=1:detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
# -fork=1: one input process at a time, and a crash or timeout is written and fuzzing goes
# on, so one run finds every crash it can in its time (the machine is shared: never more).
# libFuzzer's -timeout and slow-unit reports count wall time, which at nice 19 on a busy
# machine says nothing about the input: 120 s catches a real endless loop (fuzz_ir bounds
# LLVM's own loops by CPU time, 5 s), 20 s reported dozens of inputs symq refuses in 0.1 s.
log=$(mktemp "${TMPDIR:-/tmp}/symq-fuzz-$target.XXXXXX")
status=0
nice -n "$niceness" "$build/eval/fuzz_$target" "${quiet[@]}" -max_total_time="$seconds" \
  -timeout=120 -report_slow_units=120 -rss_limit_mb=4096 -malloc_limit_mb=65536 -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -artifact_prefix="$crashes/" -print_final_stats=1 "$corpus" >"$log" 2>&1 || status=$?
tail -n 12 "$log"
rm -f "$log"
ticks=$(getconf CLK_TCK)
end=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
found=$(( $(ls "$crashes" | wc -l) - before ))
echo "eval/fuzz.sh: $target: $(( (end - start) / ticks )) CPU seconds; new crashes: $found" \
     "($(ls "$crashes" | wc -l) in $crashes); fuzzer exit status $status"
[ "$found" -eq 0 ] && [ "$status" -eq 0 ]
}
main "$@"
