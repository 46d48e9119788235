#!/usr/bin/env python3
"""Whole runs with and without the quantified procedure, measured in the same run: each
memspn-family driver at each capacity under one merging mode (PAT, once it lands), once with
--qsolver-procedure=on (strip, duplicate, repair, then the fallbacks) and once with
--qsolver-procedure=off (every quantified query to Z3 alone). Prints, per run, wall time,
completed paths, quantified queries, the answers of each step and the share answered before
any fallback; then the total time ratio off/on (above 1: the procedure is faster) and the
overall share before fallback. The "on" runs use --validate-qsolver when asked, and any
disagreement fails the benchmark.

    eval/bench_quant_runs.py SYMQ_BINARY [--merge pat] [--capacities 10,50,100,200]
                             [--drivers memspn,memspn_ab,memspn_twice,strspn,strlen]
                             [--max-time 300] [--validate]

A run that hits --max-time is marked '>' and its time is a lower bound."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVERS = os.path.join(os.path.dirname(HERE), "drivers")
STEPS = ["strip", "duplicate", "repair", "fallback_expand", "fallback_z3"]
LABELS = ["strip", "dup", "repair", "expand", "z3"]


def run(symq, driver, capacity, merge, procedure, max_time, validate):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [symq, "run", "--no-progress", "--libc=none", f"--merge={merge}",
               f"--qsolver-procedure={procedure}", f"--max-time={max_time}s",
               f"-DCAPACITY={capacity}", f"--output-dir={out}"]
        if validate and procedure == "on":
            cmd.append("--validate-qsolver")
        p = subprocess.run(cmd + [os.path.join(DRIVERS, driver + ".c")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit(f"bench_quant_runs: {driver} --merge={merge} procedure {procedure} "
                     f"capacity {capacity} failed:\n{p.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    q = s["quantified"]
    return {"wall": s["wall_time_s"], "paths": s["completed_paths"], "done": s["exhausted"],
            "queries": q["queries"], "answered": q["answered"], "unknown": q.get("unknown", 0),
            "disagreements": q["disagreements"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("symq")
    ap.add_argument("--merge", default="pat")
    ap.add_argument("--capacities", default="10,50,100,200")
    ap.add_argument("--drivers", default="memspn,memspn_ab,memspn_twice,strspn,strlen")
    ap.add_argument("--max-time", type=int, default=300)
    ap.add_argument("--validate", action="store_true")
    a = ap.parse_args()
    caps = [int(c) for c in a.capacities.split(",")]
    print(f"{'driver':14} {'cap':>4} {'proc':>4} {'wall (s)':>9} {'paths':>6} {'∀ queries':>9} "
          + " ".join(f"{s:>8}" for s in LABELS) + f" {'unknown':>7} {'before fb':>9}")
    total = {"on": 0.0, "off": 0.0}
    asked = before = disagreements = 0
    for d in a.drivers.split(","):
        for c in caps:
            for proc in ("on", "off"):
                r = run(a.symq, d, c, a.merge, proc, a.max_time, a.validate)
                total[proc] += r["wall"]
                share = "n/a"
                if proc == "on":
                    b = sum(r["answered"][s] for s in ("strip", "duplicate", "repair"))
                    asked += r["queries"]
                    before += b
                    disagreements += r["disagreements"]
                    if r["queries"]:
                        share = f"{100.0 * b / r['queries']:.1f}%"
                mark = "" if r["done"] else ">"
                print(f"{d:14} {c:>4} {proc:>4} {mark + format(r['wall'], '.2f'):>9} "
                      f"{r['paths']:>6} {r['queries']:>9} "
                      + " ".join(f"{r['answered'][s]:>8}" for s in STEPS)
                      + f" {r['unknown']:>7} {share:>9}")
    ratio = total["off"] / total["on"] if total["on"] > 0 else float("nan")
    print(f"total wall: procedure on {total['on']:.2f}s, off {total['off']:.2f}s, "
          f"ratio off/on {ratio:.2f}")
    if asked:
        print(f"quantified queries answered before any fallback: {before}/{asked} "
              f"({100.0 * before / asked:.1f}%)")
    else:
        print("no quantified queries (this merging mode makes none)")
    if disagreements:
        sys.exit(f"bench_quant_runs: {disagreements} disagreements with Z3 on the expansion")


if __name__ == "__main__":
    main()
