#!/usr/bin/env python3
"""Scaling benchmark of merging: memspn-family drivers at growing capacities under
--merge=none, --merge=cfg and --merge=pat, measured in the same run with one test per merged
state (--tests-per-merge=one, as KLEE writes). Prints wall time, completed paths (states),
merged states, the size of the merged path conditions (DAG nodes), solver queries and the
time ratios none/pat and cfg/pat (above 1: PAT is faster); writes bench_merge.csv and, when
gnuplot is installed (Debian: gnuplot-nox), one plot per measure against capacity
(bench_merge_wall.png, _paths.png, _pc_nodes.png, _queries.png), one line per driver and mode.
Mode `pat` is --merge=pat, whose default is incremental merging; `pat-plain` is PAT without
it (--incremental-merge=off) and `pat+inc` the explicit --incremental-merge=on (the paper's
Table 7 is pat against pat-plain): with pat-plain, the pat and pat+inc rows also give
plain/pat (above 1: incremental merging is faster); each row gives the forks.

    eval/bench_merge.py SYMQ_BINARY --drivers memspn_ab,memspn --capacities 4,8,12 \
                        --modes pat,pat-plain

    eval/bench_merge.py SYMQ_BINARY [--capacities 10,50,100,200] [--drivers memspn,memspn_twice]
                        [--modes none,cfg,pat] [--max-time 300] [--out DIR]

A run that hits --max-time is marked '>' and its time is a lower bound."""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVERS = os.path.join(os.path.dirname(HERE), "drivers")


def mode_options(mode):
    """`pat`: --merge=pat as it comes (incremental); `pat-plain` without incremental merging,
    `pat+inc` with it said."""
    extra = {"pat-plain": ["--incremental-merge=off"], "pat+inc": ["--incremental-merge=on"]}
    if mode in extra:
        return ["--merge=pat", *extra[mode]]
    return [f"--merge={mode}"]


def run(symq, driver, capacity, mode, max_time):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([symq, "run", "--no-progress", "--libc=none", *mode_options(mode),
                            "--tests-per-merge=one",
                            f"--max-time={max_time}s", f"-DCAPACITY={capacity}",
                            f"--output-dir={out}", os.path.join(DRIVERS, driver + ".c")],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit(f"bench_merge: {driver} {mode} capacity {capacity} failed:\n{p.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    return {"wall": s["wall_time_s"], "paths": s["completed_paths"], "done": s["exhausted"],
            "merged": s["merge"]["merged_states"], "pc_nodes": s["merge"].get("merged_pc_nodes", 0),
            "queries": s["queries"], "forks": s["forks"]}


MEASURES = {"wall": "wall time (s)", "paths": "completed paths (states)",
            "pc_nodes": "merged pc size (DAG nodes)", "queries": "solver queries"}


def plot(rows, out_dir):
    if not shutil.which("gnuplot"):
        print("bench_merge: gnuplot not found (apt-get install gnuplot-nox): no plot")
        return
    series = sorted({(r["driver"], r["mode"]) for r in rows})
    caps = sorted({r["capacity"] for r in rows})
    xrange = f"set xrange [{caps[0] - 1}:{caps[-1] + 1}];"  # one capacity: not an empty range
    for measure, label in MEASURES.items():
        data = os.path.join(out_dir, f"bench_merge_{measure}.dat")
        with open(data, "w") as f:
            for d, m in series:
                f.write(f"# {d} {m}\n")
                for r in rows:
                    if r["driver"] == d and r["mode"] == m:
                        f.write(f"{r['capacity']} {max(r[measure], 1e-3)}\n")
                f.write("\n\n")
        png = os.path.join(out_dir, f"bench_merge_{measure}.png")
        plots = ", ".join(f"'{data}' index {i} with linespoints title '{d} ({m})'"
                          for i, (d, m) in enumerate(series))
        script = (f"set terminal png size 900,600; set output '{png}'; {xrange}"
                  f"set xlabel 'capacity (bytes)'; set ylabel '{label}'; set key top left;"
                  f"set logscale y; set title 'symq: {label} against capacity'; plot {plots}")
        subprocess.run(["gnuplot", "-e", script], check=True)
        print(f"bench_merge: plot in {png}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--capacities", default="10,50,100,200")
    ap.add_argument("--drivers", default="memspn,memspn_twice")
    ap.add_argument("--modes", default="none,cfg,pat")
    ap.add_argument("--max-time", type=int, default=300)
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    modes = args.modes.split(",")
    rows = []
    print(f"{'driver':<14} {'cap':>4} {'mode':<9} {'wall s':>9} {'paths':>6} {'merged':>7} "
          f"{'pc nodes':>9} {'queries':>8} {'forks':>7} {'none/pat':>9} {'cfg/pat':>8} "
          f"{'plain/pat':>9}")
    for driver in args.drivers.split(","):
        for cap in (int(c) for c in args.capacities.split(",")):
            res = {m: run(args.symq, driver, cap, m, args.max_time) for m in modes}
            ratio = {}
            if "pat" in res and res["pat"]["wall"]:
                for m in ("none", "cfg"):
                    if m in res:
                        ratio[m] = res[m]["wall"] / res["pat"]["wall"]
            for m in ("pat", "pat+inc"):
                if "pat-plain" in res and m in res and res[m]["wall"]:
                    ratio[m] = res["pat-plain"]["wall"] / res[m]["wall"]
            for m in modes:
                r = res[m]
                wall = ("" if r["done"] else ">") + f"{r['wall']:.2f}"
                cols = "" if m != "pat" else \
                    f"{ratio.get('none', 0):>9.2f} {ratio.get('cfg', 0):>8.2f}"
                if m in ("pat", "pat+inc") and m in ratio:
                    cols = (cols or " " * 18) + f" {ratio[m]:>9.2f}"
                print(f"{driver:<14} {cap:>4} {m:<9} {wall:>9} {r['paths']:>6} {r['merged']:>7} "
                      f"{r['pc_nodes']:>9} {r['queries']:>8} {r['forks']:>7} {cols}", flush=True)
                rows.append({"driver": driver, "capacity": cap, "mode": m, **r})
    with open(os.path.join(args.out, "bench_merge.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["driver", "capacity", "mode", "wall", "paths", "done",
                                          "merged", "pc_nodes", "queries", "forks"])
        w.writeheader()
        w.writerows(rows)
    plot(rows, args.out)


if __name__ == "__main__":
    main()
