#!/usr/bin/env python3
"""Dynamic state merging (issue 26, item 4; docs/merging.md "Merging with any searcher"):
every searcher under --merge=pat with fast-forwarding (--merge-fast-forward, default 64)
against without it (=0), and dfs for reference, under a time limit. Per driver and searcher:
merges, regions released / opened, completed paths, tests, symq's covered lines, fast-forward
selections and wall time, and the ratios with/without for merges, completed paths and
covered lines (above 1: fast-forwarding does more). Prints the date, the commit and the
command first; writes bench_dsm.csv into --out.

    eval/bench_dsm.py SYMQ_BINARY [--max-time 15] [--searchers bfs,random-path,nurs:covnew]
                      [--drivers test/merge/searchers/compete.c,...] [--real apr/strnatcmp,...]
                      [--capacity 10] [--out DIR]

--drivers are C files run as they are (-DBUSY=12 makes compete.c's busy side 4096 paths);
--real are drivers of drivers/<lib>/ linked with the library's bitcode as eval/real/run
builds them (the library cache of eval/real/<lib>.sh must exist), at --capacity."""
import argparse
import csv
import datetime
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def real_builder():
    loader = importlib.machinery.SourceFileLoader("real_run", os.path.join(HERE, "real", "run"))
    spec = importlib.util.spec_from_loader("real_run", loader)
    mod = importlib.util.module_from_spec(spec)
    loader.exec_module(mod)
    return mod.build_driver


def run(symq, program, extra, search, ff, max_time):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([symq, "run", "--no-progress", "--merge=pat", f"--search={search}",
                            f"--merge-fast-forward={ff}", f"--max-time={max_time}s",
                            f"--output-dir={out}", *extra, program],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit(f"bench_dsm: {program} {search} ff={ff} failed:\n{p.stderr[-2000:]}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    m = s["merge"]
    return {"merges": m["merges"], "released": m["regions_released"],
            "opened": m["regions_opened"], "paths": s["completed_paths"] + s["error_paths"],
            "tests": s["tests"], "lines": s["covered_lines"], "ff": s["fast_forwards"],
            "wall": s["wall_time_s"], "done": s["exhausted"]}


def ratio(a, b):
    if b == 0:
        return "inf" if a else "-"
    return f"{a / b:.2f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--max-time", type=float, default=15)
    ap.add_argument("--searchers", default="bfs,random-state,random-path,nurs:covnew")
    ap.add_argument("--drivers", default="test/merge/searchers/compete.c")
    ap.add_argument("--real", default="")
    ap.add_argument("--capacity", type=int, default=10)
    ap.add_argument("--cflags", default="-DBUSY=12", help="-D flags for --drivers")
    ap.add_argument("--out", default=".")
    a = ap.parse_args()
    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    print(f"date: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"commit: {commit}, load: {os.getloadavg()[0]:.1f}")
    print("command: " + " ".join(sys.argv))
    programs = []  # (name, program, extra options)
    for d in filter(None, a.drivers.split(",")):
        path = d if os.path.isabs(d) else os.path.join(ROOT, d)
        programs.append((os.path.basename(d), path, a.cflags.split()))
    work = tempfile.mkdtemp(prefix="bench-dsm-")
    if a.real:
        build = real_builder()
        for spec in a.real.split(","):
            lib, driver = spec.split("/")
            wd = os.path.join(work, f"{lib}_{driver}")
            os.makedirs(wd)
            prog, _, problem = build({"lib": lib, "driver": driver, "capacity": a.capacity}, wd)
            if not prog:
                print(f"{spec}: skipped: {problem}")
                continue
            programs.append((spec, prog, [f"--capacity={a.capacity}"]))
    rows = []
    head = (f"{'driver':24} {'searcher':12} {'ff':>4} {'merges':>7} {'rel/open':>9} "
            f"{'paths':>7} {'tests':>6} {'lines':>6} {'ffsel':>7} {'wall':>6}")
    print(head)
    for name, prog, extra in programs:
        ref = run(a.symq, prog, extra, "dfs", 64, a.max_time)
        rows.append(dict(driver=name, searcher="dfs", fast_forward=64, **ref))
        print(f"{name[:24]:24} {'dfs':12} {'':>4} {ref['merges']:7} "
              f"{ref['released']:>4}/{ref['opened']:<4} {ref['paths']:7} {ref['tests']:6} "
              f"{ref['lines']:6} {ref['ff']:7} {ref['wall']:6.1f}{'' if ref['done'] else '>'}")
        for search in a.searchers.split(","):
            got = {}
            for ff in (0, 64):
                r = got[ff] = run(a.symq, prog, extra, search, ff, a.max_time)
                rows.append(dict(driver=name, searcher=search, fast_forward=ff, **r))
                print(f"{name[:24]:24} {search:12} {ff:4} {r['merges']:7} "
                      f"{r['released']:>4}/{r['opened']:<4} {r['paths']:7} {r['tests']:6} "
                      f"{r['lines']:6} {r['ff']:7} {r['wall']:6.1f}{'' if r['done'] else '>'}")
            on, off = got[64], got[0]
            print(f"{'':24} {search:12} with/without: merges {ratio(on['merges'], off['merges'])}"
                  f", paths {ratio(on['paths'], off['paths'])}, lines "
                  f"{ratio(on['lines'], off['lines'])}")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "bench_dsm.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


if __name__ == "__main__":
    main()
