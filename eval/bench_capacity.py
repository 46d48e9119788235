#!/usr/bin/env python3
"""Capacity benchmark (issue 25, item 5): the string-scan family at capacities 64 ... 4096
under --merge=none, cfg and pat, CPU time and solver queries per capacity, optionally beside
KLEE.

    eval/bench_capacity.py SYMQ [--capacities 64,128,256,512,1024,2048,4096]
                           [--drivers string_scan,memspn,memspn_twice,strspn]
                           [--modes none,cfg,pat] [--budget 60] [--klee PATH]
                           [--klee-budget S] [--out DIR]

Drivers: eval/drivers/string_scan.c (the KLEE idiom: symbolic n <= CAP, a CAP+1-byte
symbolic buffer, s[n] = 0, while (s[i] == 'a') i++), drivers/memspn.c, drivers/memspn_twice.c
and drivers/strspn.c. Every run is `symq run --libc=none --tests-per-merge=one` (one test per
merged state, as KLEE writes one per path), DFS. Time is the child's CPU time (user + sys,
from wait4: the 2-core machine is shared, so wall time says more about the load than about
symq); queries are stats.json's.

A (driver, mode) stops growing its capacity once the next run is predicted to take more than
--budget seconds (default 60) — the last two times extrapolated with their growth exponent,
at least linear — or once a run is interrupted at 2 x budget CPU seconds (SIGINT: the tool
stops and writes its statistics; marked '>', its time a lower bound): those
capacities are printed as `skipped` with the reason, never silently left out.

--klee PATH runs KLEE (forking only: KLEE has no pattern merging) on the same drivers,
compiled by clang-14 to bitcode with symq's klee/klee.h (`klee --search=dfs`, no libc: the
drivers call only malloc, which KLEE handles itself), and prints its time beside symq's with the ratio symq/KLEE.
KLEE runs at every capacity, each run halted by its own --max-time at --klee-budget (default
--budget; interrupted at 2 x that in CPU seconds): a halted run's time is a lower bound, so the ratio is an upper bound
('<'), and the last line checks the string scan's ratio at every capacity (at most 0.25x). When PATH is not
an executable file, or a run fails, the script says so and the KLEE columns read `absent` /
`failed`: nothing is made up.

Writes bench_capacity.csv to --out (default: the current directory) and, when gnuplot
(Debian: gnuplot-nox) or matplotlib is installed, bench_capacity.png: time against capacity
on log-log axes, one line per driver and mode (and KLEE's). Neither is installed by this
script; without them it says there is no plot. Finally it prints the issue's two targets:
the string scan's forking time from 256 to 4096 (at most 20x) and memspn under pat at 1024
against 256 (at most 4x)."""
import argparse
import csv
import json
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# driver -> (source, the macro its capacity goes in)
DRIVERS = {
    "string_scan": (os.path.join(HERE, "drivers", "string_scan.c"), "CAP"),
    "memspn": (os.path.join(ROOT, "drivers", "memspn.c"), "CAPACITY"),
    "memspn_twice": (os.path.join(ROOT, "drivers", "memspn_twice.c"), "CAPACITY"),
    "strspn": (os.path.join(ROOT, "drivers", "strspn.c"), "CAPACITY"),
}
KLEE_INCLUDE = os.path.join(ROOT, "runtime", "include")


def cpu_seconds(pid):
    """CPU time (user + sys) of a running process so far, from /proc (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def run_child(argv, cpu_limit):
    """Runs argv; returns (exit status, CPU seconds, wall seconds, stderr). Past cpu_limit
    CPU seconds the child gets SIGINT (symq and KLEE stop their run and write what they
    have), and SIGKILL 60 s later (status None then). The limit is on CPU time, not wall
    time: on a loaded machine a wall limit measures the load."""
    t0 = time.monotonic()
    interrupted = None
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=err)
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if interrupted is None and cpu_seconds(proc.pid) > cpu_limit:
                proc.send_signal(signal.SIGINT)
                interrupted = time.monotonic()
            elif interrupted is not None and time.monotonic() > interrupted + 60:
                proc.kill()
                pid, status, usage = os.wait4(proc.pid, 0)
                status = None
                break
            time.sleep(0.05)
        proc.returncode = 0  # reaped by wait4: keep Popen from waiting again
        err.seek(0)
        text = err.read().decode(errors="replace")
    code = None if status is None else os.waitstatus_to_exitcode(status)
    return code, usage.ru_utime + usage.ru_stime, time.monotonic() - t0, text


def run_symq(symq, driver, mode, cap, budget):
    src, macro = DRIVERS[driver]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        argv = [symq, "run", "--no-progress", "--libc=none", f"--merge={mode}",
                "--tests-per-merge=one", f"-D{macro}={cap}", f"--output-dir={out}", src]
        code, cpu, wall, err = run_child(argv, 2 * budget)
        if code is None or not os.path.exists(os.path.join(out, "stats.json")):
            sys.exit(f"bench_capacity: {' '.join(argv)} failed ({code}):\n{err}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    return {"cpu": cpu, "wall": wall, "queries": s["queries"], "paths": s["completed_paths"],
            "done": bool(s["exhausted"])}


def klee_usable(path):
    if not path:
        return False
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        print(f"bench_capacity: --klee {path}: not an executable file: KLEE columns absent")
        return False
    return True


def run_klee(klee, driver, cap, budget, tmp_root):
    """KLEE on the driver (forking, DFS): its CPU time and queries (klee-stats when it sits
    beside klee, else None), or None when compiling or running failed (said on stderr)."""
    src, macro = DRIVERS[driver]
    with tempfile.TemporaryDirectory(dir=tmp_root) as tmp:
        bc = os.path.join(tmp, "driver.bc")
        cc = ["clang-14", "-emit-llvm", "-c", "-g", "-O0", "-Xclang", "-disable-O0-optnone",
              f"-I{KLEE_INCLUDE}", f"-D{macro}={cap}", src, "-o", bc]
        p = subprocess.run(cc, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            print(f"bench_capacity: KLEE: compiling {driver} failed:\n{p.stderr}", file=sys.stderr)
            return None
        out = os.path.join(tmp, "klee-out")
        # KLEE's own timer halts it gracefully at the budget (its wall clock; a SIGINT in the
        # middle of a query can print a KLEE: ERROR that is the interruption's, not a cut)
        argv = [klee, "--search=dfs", f"--max-time={budget:g}s", f"--output-dir={out}", bc]
        code, cpu, wall, err = run_child(argv, 2 * budget)
        if code is None or not os.path.isdir(out):
            print(f"bench_capacity: KLEE on {driver} at {cap} failed ({code}):\n{err[-2000:]}",
                  file=sys.stderr)
            return None
        queries = None
        stats_tool = os.path.join(os.path.dirname(klee), "klee-stats")
        if os.access(stats_tool, os.X_OK):
            q = subprocess.run([stats_tool, "--print-columns=Queries", "--table-format=csv", out],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            lines = [l for l in q.stdout.splitlines() if l.strip()]
            if q.returncode == 0 and len(lines) >= 2 and lines[-1].strip().isdigit():
                queries = int(lines[-1].strip())
        limited = cpu >= 2 * budget or "KLEE: HaltTimer invoked" in err  # interrupted
        # KLEE's own account of its paths (klee-stats needs python3-tabulate for its
        # table): a path it cut short (e.g. "concretized symbolic size": memspn's malloc(n + 1)
        # leaves KLEE one value of n) makes the run incomplete, its time no forking time
        paths = re.search(r"KLEE: done: completed paths = (\d+)", err)
        partial = re.search(r"KLEE: done: partially completed paths = (\d+)", err)
        # (an interrupted run's paths still under way count as partially completed too:
        # those are the limit's, not cut)
        cut = (not limited and partial and int(partial.group(1)) > 0) or "KLEE: ERROR" in err
        r = {"cpu": cpu, "wall": wall, "queries": queries, "done": not limited and not cut,
             "cut": bool(cut)}
        if paths:
            r["paths"] = int(paths.group(1))
        return r


def predicted(points, cap):
    """Time at cap extrapolated from the last two (capacity, time) points, the growth
    exponent at least 1 (linear)."""
    (c0, t0), (c1, t1) = points[-2], points[-1]
    k = 1.0
    if t0 > 0.05 and t1 > t0:
        k = max(1.0, math.log(t1 / t0) / math.log(c1 / c0))
    return t1 * (cap / c1) ** k


def fmt_time(r):
    if r is None:
        return "—"
    if "skipped" in r:
        return "skipped"
    return ("> " if not r["done"] else "") + f"{r['cpu']:.2f}"


def plot(rows, out_dir):
    series = {}
    for r in rows:
        if r.get("cpu") is not None and "skipped" not in r:
            series.setdefault(f"{r['tool']} {r['driver']} ({r['mode']})", []).append(
                (r["capacity"], r["cpu"]))
    png = os.path.join(out_dir, "bench_capacity.png")
    try:
        import matplotlib  # noqa: F401 (only when installed)
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(10, 6.5))
        for name, pts in series.items():
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=name)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("capacity (bytes)")
        ax.set_ylabel("CPU time (s)")
        ax.set_title("time against capacity")
        ax.legend(fontsize=7)
        fig.savefig(png, dpi=100)
        print(f"bench_capacity: plot in {png} (matplotlib)")
        return
    except ImportError:
        pass
    if not shutil.which("gnuplot"):
        print("bench_capacity: neither matplotlib nor gnuplot (gnuplot-nox) is installed: "
              "no plot (bench_capacity.csv has the numbers)")
        return
    data = os.path.join(out_dir, "bench_capacity.dat")
    with open(data, "w") as f:
        for name, pts in series.items():
            f.write(f"# {name}\n" + "".join(f"{c} {t}\n" for c, t in pts) + "\n\n")
    plots = ", ".join(f"'{data}' index {i} with linespoints title '{name}'"
                      for i, name in enumerate(series))
    script = (f"set terminal png size 1000,650 noenhanced; set output '{png}'; "
              "set logscale xy 2; "
              "set xlabel 'capacity (bytes)'; set ylabel 'CPU time (s)'; set key left top; "
              f"set title 'time against capacity'; plot {plots}")
    subprocess.run(["gnuplot", "-e", script], check=True)
    print(f"bench_capacity: plot in {png} (gnuplot)")


def ratio_line(rows, driver, mode, lo, hi, target):
    by = {r["capacity"]: r for r in rows
          if r["tool"] == "symq" and r["driver"] == driver and r["mode"] == mode}
    a, b = by.get(lo), by.get(hi)
    what = f"{driver} ({mode}) time at {hi} / at {lo}"
    if not a or not b or "skipped" in a or "skipped" in b or a["cpu"] <= 0:
        return f"{what}: not measured (target <= {target}x)"
    bound = "" if b["done"] else " (at least: the run hit its time limit)"
    ok = "met" if b["done"] and b["cpu"] / a["cpu"] <= target else "NOT met"
    return f"{what}: {b['cpu'] / a['cpu']:.1f}x{bound}, target <= {target}x: {ok}"


def klee_line(rows, driver, target):
    """symq (forking) against KLEE at every capacity both ran: the issue's <= 0.25x."""
    key = {(r["tool"], r["capacity"]): r for r in rows
           if r["driver"] == driver and r["mode"] == "none"}
    caps = sorted({c for (_, c) in key})
    worst, missing = 0.0, []
    for c in caps:
        s, k = key.get(("symq", c)), key.get(("klee", c))
        if (not s or not k or "skipped" in s or "skipped" in k or not s["done"]
                or k["cpu"] <= 0 or k.get("cut")):
            missing.append(str(c))
            continue
        worst = max(worst, s["cpu"] / k["cpu"])
    what = f"{driver} symq/KLEE (none), worst over capacities"
    if missing:
        return f"{what}: not measured at {', '.join(missing)} (target <= {target}x)"
    ok = "met" if worst <= target else "NOT met"
    return f"{what}: {worst:.2f}x (KLEE interrupted: an upper bound), target <= {target}x: {ok}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--capacities", default="64,128,256,512,1024,2048,4096")
    ap.add_argument("--drivers", default=",".join(DRIVERS))
    ap.add_argument("--modes", default="none,cfg,pat")
    ap.add_argument("--budget", type=float, default=60, help="seconds one run may take")
    ap.add_argument("--klee", help="a klee binary, run beside symq (forking)")
    ap.add_argument("--klee-budget", type=float,
                    help="KLEE's limit per run (default --budget); KLEE runs at every "
                         "capacity, an interrupted run giving a bound")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    caps = sorted(int(c) for c in args.capacities.split(","))
    drivers = args.drivers.split(",")
    for d in drivers:
        if d not in DRIVERS:
            sys.exit(f"bench_capacity: unknown driver {d} (known: {', '.join(DRIVERS)})")
    modes = args.modes.split(",")
    klee = args.klee if klee_usable(args.klee) else None
    klee_budget = args.klee_budget if args.klee_budget else args.budget
    os.makedirs(args.out, exist_ok=True)
    rows = []
    head = f"{'tool':<5} {'driver':<13} {'mode':<5} {'capacity':>8} {'time (s)':>10} " \
           f"{'queries':>9} {'paths':>7}  note"
    print(head, flush=True)

    def sweep(tool, driver, mode, runner, every_capacity=False):
        # every_capacity: run each capacity, each bounded by its own limit (KLEE's: an
        # interrupted run's time is a lower bound, so symq/KLEE stays an upper bound)
        points, stop = [], None
        for cap in caps:
            row = {"tool": tool, "driver": driver, "mode": mode, "capacity": cap}
            if (stop is None and not every_capacity and len(points) >= 2
                    and predicted(points, cap) > args.budget):
                stop = f"predicted > {args.budget:g} s"
            if stop:
                row["skipped"] = stop
                print(f"{tool:<5} {driver:<13} {mode:<5} {cap:>8} {'skipped':>10} "
                      f"{'':>9} {'':>7}  {stop}", flush=True)
                rows.append(row)
                continue
            r = runner(cap)
            if r is None:
                row["skipped"] = "failed"
                stop = "an earlier capacity failed"
                rows.append(row)
                continue
            row.update(r)
            rows.append(row)
            note = "" if r["done"] else "incomplete (CPU limit, or paths ended early)"
            if r.get("cut"):
                note = "KLEE cut paths short (KLEE: ERROR, e.g. a concretized size): not comparable"
            q = "—" if r.get("queries") is None else r["queries"]
            print(f"{tool:<5} {driver:<13} {mode:<5} {cap:>8} {fmt_time(r):>10} {q:>9} "
                  f"{r.get('paths', '—'):>7}  {note}", flush=True)
            points.append((cap, r["cpu"]))
            if not r["done"] and not every_capacity:
                stop = f"capacity {cap} hit the time limit"

    for driver in drivers:
        for mode in modes:
            sweep("symq", driver, mode,
                  lambda cap, d=driver, m=mode: run_symq(args.symq, d, m, cap, args.budget))
        if klee:
            with tempfile.TemporaryDirectory() as tmp_root:
                sweep("klee", driver, "none",
                      lambda cap, d=driver, t=tmp_root: run_klee(klee, d, cap, klee_budget, t),
                      every_capacity=True)

    csv_path = os.path.join(args.out, "bench_capacity.csv")
    with open(csv_path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["tool", "driver", "mode", "capacity", "cpu_s", "wall_s", "queries", "paths",
                    "complete", "skipped"])
        for r in rows:
            w.writerow([r["tool"], r["driver"], r["mode"], r["capacity"], r.get("cpu", ""),
                        r.get("wall", ""), r.get("queries", ""), r.get("paths", ""),
                        r.get("done", ""), r.get("skipped", "")])
    print(f"bench_capacity: numbers in {csv_path}")

    # side by side: symq's forking time and KLEE's, per driver and capacity
    print("\n| driver | mode | " + " | ".join(str(c) for c in caps) + " |")
    print("|---|---|" + "---|" * len(caps))
    keyed = {(r["tool"], r["driver"], r["mode"], r["capacity"]): r for r in rows}
    for driver in drivers:
        for tool, mode in [("symq", m) for m in modes] + ([("klee", "none")] if args.klee else []):
            cells = []
            for c in caps:
                r = keyed.get((tool, driver, mode, c))
                if tool == "klee" and not klee:
                    cells.append("absent")
                elif r is not None and r.get("skipped") == "failed":
                    cells.append("failed")
                else:
                    t = fmt_time(r)
                    q = r.get("queries") if r else None
                    cells.append(t if q is None or t == "skipped" else f"{t} ({q})")
            label = mode if tool == "symq" else "KLEE"
            print(f"| {driver} | {label} | " + " | ".join(cells) + " |")
        if klee:
            cells = []
            for c in caps:
                s, k = keyed.get(("symq", driver, "none", c)), keyed.get(("klee", driver, "none", c))
                ok = (s and k and "skipped" not in s and "skipped" not in k and k["cpu"] > 0
                      and not k.get("cut"))
                # KLEE interrupted: its time a lower bound, so the ratio an upper one
                bound = "<" if ok and not k["done"] and s["done"] else ""
                cells.append(f"{bound}{s['cpu'] / k['cpu']:.2f}" if ok else "—")
            print(f"| {driver} | symq/KLEE (none) | " + " | ".join(cells) + " |")
    print("\ntimes: CPU seconds (queries); '>' incomplete run (interrupted at 2 x budget, or paths ended early, e.g. a solver timeout); skipped: see the run's note")
    print(ratio_line(rows, "string_scan", "none", 256, 4096, 20))
    print(ratio_line(rows, "memspn", "pat", 256, 1024, 4))
    if klee:
        print(klee_line(rows, "string_scan", 0.25))
    plot(rows, args.out)


if __name__ == "__main__":
    main()
