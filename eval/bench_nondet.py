#!/usr/bin/env python3
"""Deep-path benchmark (issue 25, item 4): instructions/second of `symq run` on one path of
N __VERIFIER_nondet_int() calls (eval/drivers/nondet_loop.c), per N, and the ratio of the
rate at the largest N to the rate at the smallest. A per-call cost that does not grow with
the path keeps the ratio near 1 (the issue asks for N = 10,000 and 100,000 within 2x).

    eval/bench_nondet.py SYMQ [SYMQ ...] [--sizes 10000,100000] [--repeat N] [--max-time S]

The rate is stats.json's instructions over its exploration_time_s (clang's compile time is
left out); each (binary, N) runs --repeat times (default 3) and the median time counts. A
run stopped by --max-time (default 300 s) still gives a rate, marked `limited`.
Timings are only compared within one run of this script, on the same machine."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "drivers", "nondet_loop.c")


def run_once(symq, n, max_time):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        proc = subprocess.run([symq, "run", "--merge=none", "--no-progress", f"--max-time={max_time}",
                               "--output-dir=" + out, f"-DN={n}", DRIVER],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if proc.returncode != 0:
            sys.exit(f"bench_nondet: {symq} failed at N={n}:\n{proc.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
    limited = stats["completed_paths"] != 1
    return stats["exploration_time_s"], stats["instructions"], limited


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq", nargs="+", help="symq binaries, each measured at every N")
    ap.add_argument("--sizes", default="10000,100000", help="the N's (comma-separated)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-time", type=float, default=300)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'binary':<28} {'N':>8} {'instructions':>13} {'time (s)':>9} {'instr/s':>12}")
    for symq in args.symq:
        rates = []
        for n in sizes:
            runs = [run_once(symq, n, args.max_time) for _ in range(args.repeat)]
            time_s = statistics.median(r[0] for r in runs)
            instructions, limited = runs[0][1], any(r[2] for r in runs)
            rate = instructions / time_s if time_s > 0 else float("inf")
            rates.append(rate)
            print(f"{symq[-28:]:<28} {n:>8} {instructions:>13} {time_s:>9.3f} {rate:>12.0f}"
                  + ("  limited" if limited else ""), flush=True)
        if len(sizes) > 1:
            print(f"{symq[-28:]:<28} rate at N={sizes[-1]} / rate at N={sizes[0]}: "
                  f"{rates[-1] / rates[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
