#!/usr/bin/env python3
"""Executor benchmark: instructions/second and paths/second of `symq run` on a fixed set of
drivers, as ratios between two symq builds (or, with one build, between two search modes).

    eval/bench_exec.py BUILD_A/symq [BUILD_B/symq] [--repeat N] [--search A,B]

Each (driver, configuration) runs N times (default 3); the median wall time counts. The
ratio column is B's rate over A's: above 1 means B is faster. Timings are only compared
within one run of this script, on the same machine — never against stored numbers."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DRIVERS = [
    os.path.join(ROOT, "drivers", "memspn.c"),
    os.path.join(HERE, "drivers", "concrete_loop.c"),
    os.path.join(HERE, "drivers", "branch_tree.c"),
    os.path.join(HERE, "drivers", "symbolic_index.c"),
]


def run_once(symq, driver, search):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        start = time.monotonic()
        proc = subprocess.run([symq, "run", "--merge=none", "--no-progress", "--search=" + search,
                               "--output-dir=" + out, driver],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        if proc.returncode != 0:
            sys.exit(f"bench_exec: {symq} failed on {driver}:\n{proc.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
    paths = stats["completed_paths"] + stats["error_paths"] + stats["early_paths"]
    return wall, stats["instructions"], paths


def measure(symq, driver, search, repeat):
    runs = [run_once(symq, driver, search) for _ in range(repeat)]
    wall = statistics.median(r[0] for r in runs)
    instructions, paths = runs[0][1], runs[0][2]
    return {"wall": wall, "ips": instructions / wall, "pps": paths / wall,
            "instructions": instructions, "paths": paths}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq", nargs="+", help="one or two symq binaries")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--search", default="dfs,bfs",
                    help="with one binary: the two search modes compared (default dfs,bfs)")
    args = ap.parse_args()
    if len(args.symq) > 2:
        ap.error("give one or two symq binaries")
    if len(args.symq) == 2:
        configs = [(args.symq[0], "dfs", "A"), (args.symq[1], "dfs", "B")]
    else:
        a, b = args.search.split(",")
        configs = [(args.symq[0], a, a), (args.symq[0], b, b)]
    print(f"{'driver':<18} {'config':<8} {'paths':>6} {'instr':>10} {'wall s':>8} "
          f"{'instr/s':>11} {'paths/s':>9} {'ratio':>6}")
    for driver in DRIVERS:
        name = os.path.splitext(os.path.basename(driver))[0]
        results = [measure(symq, driver, search, args.repeat) for symq, search, _ in configs]
        for (symq, search, label), r in zip(configs, results):
            ratio = r["ips"] / results[0]["ips"]
            print(f"{name:<18} {label:<8} {r['paths']:>6} {r['instructions']:>10} "
                  f"{r['wall']:>8.3f} {r['ips']:>11.0f} {r['pps']:>9.1f} {ratio:>6.2f}")


if __name__ == "__main__":
    main()
