#!/usr/bin/env python3
"""symq beside KLEE on the e2e drivers (issue 25: "on the e2e drivers, symq's time stays
<= 0.2x KLEE's, geometric mean").

    eval/bench_klee_e2e.py SYMQ KLEE [--repeat R] [--budget S] [--only NAME,...] [--input c|bc]
                                     [--table FILE]

Every test/e2e/*.c that uses only the KLEE API (includes <klee/klee.h>, not <symq.h> nor a
library such as zlib) is run by both tools, forking, DFS, as a user would: symq on the C file
(`symq run --merge=none --search=dfs`, its clang step included; with --input bc on the bitcode `symq
compile` wrote beforehand, not timed, as KLEE's), KLEE on the bitcode clang-14 makes of the
same file with symq's klee/klee.h (`klee --libc=uclibc --search=dfs`, as
/work/shared/notes/klee-peer.md says; the clang step not timed). Each pair runs R times
(default 3; one when a run does not explore everything), alternating symq and KLEE, and the median CPU time (user + sys of the tool and
what it waited for) of each is kept: CPU time, because this machine is shared.

A driver counts in the geometric mean only when both runs are comparable: both explored
everything within the budget (default 10 CPU s: symq's stats.json `exhausted`; KLEE not
stopped by the budget), and they saw the same number of paths (symq: completed + error
paths; KLEE: completed + partially completed, its error paths). The others are listed with the
reason (the libcs differ: uclibc's string functions branch differently from symq's model; KLEE
concretizes a symbolic malloc size). Nothing is made up: a failed run says so.

--table FILE appends the result as Markdown rows with the date, the commit and the command."""
import argparse
import datetime
import json
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench_capacity import KLEE_INCLUDE, klee_usable, run_child  # noqa: E402

E2E = os.path.join(ROOT, "test", "e2e")
NOT_KLEE = re.compile(r"#include\s*<(symq\.h|zlib\.h)>")


def drivers(only):
    names = sorted(f for f in os.listdir(E2E) if f.endswith(".c"))
    out = []
    for name in names:
        if only and name[:-2] not in only:
            continue
        with open(os.path.join(E2E, name), encoding="utf-8") as f:
            text = f.read()
        if "<klee/klee.h>" in text and not NOT_KLEE.search(text) and "int main" in text:
            out.append(name)
    return out


def run_symq(symq, src, budget, tmp):
    """symq on src (a C file, or the bitcode symq compile made of it)."""
    out = tempfile.mkdtemp(dir=tmp)
    os.rmdir(out)
    code, cpu, _, err = run_child([symq, "run", "--merge=none", "--no-progress", "--search=dfs",
                                   f"--output-dir={out}", src], budget)
    try:
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    except OSError:
        return {"cpu": cpu, "failed": f"exit {code}: {err.strip()[-200:]}"}
    return {"cpu": cpu, "paths": s["completed_paths"] + s["error_paths"],
            "done": bool(s["exhausted"])}


def run_klee(klee, bc, budget, tmp):
    out = tempfile.mkdtemp(dir=tmp)
    os.rmdir(out)
    code, cpu, _, err = run_child([klee, "--libc=uclibc", "--search=dfs",
                                   f"--output-dir={out}", bc], budget)
    done = re.search(r"KLEE: done: completed paths = (\d+)", err)
    if not done:
        return {"cpu": cpu, "failed": f"exit {code}: {err.strip()[-200:]}"}
    partial = re.search(r"KLEE: done: partially completed paths = (\d+)", err)
    paths = int(done.group(1)) + (int(partial.group(1)) if partial else 0)
    return {"cpu": cpu, "paths": paths,
            "done": cpu < budget and "HaltTimer" not in err}


def median_run(runs):
    if any("failed" in r for r in runs):
        return next(r for r in runs if "failed" in r)
    r = dict(runs[0])
    r["cpu"] = statistics.median(x["cpu"] for x in runs)
    return r


def measure(symq, klee, name, repeat, budget, tmp, as_bc):
    src = os.path.join(E2E, name)
    if as_bc:
        symq_input = os.path.join(tmp, name[:-2] + ".symq.bc")
        p = subprocess.run([symq, "compile", "-o", symq_input, src], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            return None, None, "symq compile failed"
    else:
        symq_input = src
    bc = os.path.join(tmp, name[:-2] + ".bc")
    cc = ["clang-14", "-emit-llvm", "-c", "-g", "-O0", "-Xclang", "-disable-O0-optnone",
          f"-I{KLEE_INCLUDE}", src, "-o", bc]
    p = subprocess.run(cc, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, None, "clang-14 failed for KLEE"
    s_runs, k_runs = [], []
    for _ in range(repeat):
        s_runs.append(run_symq(symq, symq_input, budget, tmp))
        k_runs.append(run_klee(klee, bc, budget, tmp))
        if not all(r.get("done") for r in (s_runs[-1], k_runs[-1])):
            break  # not comparable whatever the repeats say (a driver that loops forever)
    s, k = median_run(s_runs), median_run(k_runs)
    why = None
    if "failed" in s:
        why = "symq failed: " + s["failed"]
    elif "failed" in k:
        why = "KLEE failed: " + k["failed"]
    elif not s["done"] or not k["done"]:
        why = "not exhausted: " + ", ".join(t for t, r in (("symq", s), ("KLEE", k))
                                            if not r["done"])
    elif s["paths"] != k["paths"]:
        why = f"paths differ: symq {s['paths']}, KLEE {k['paths']}"
    return s, k, why


def commit():
    p = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                       stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return p.stdout.strip() or "unknown"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("symq")
    ap.add_argument("klee")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--budget", type=float, default=10.0, help="CPU seconds per run")
    ap.add_argument("--only", default="", help="driver names (without .c), comma-separated")
    ap.add_argument("--input", choices=["c", "bc"], default="c",
                    help="symq's input: the C file (its clang step timed) or its bitcode")
    ap.add_argument("--table", help="append Markdown rows to this file")
    args = ap.parse_args()
    if not klee_usable(args.klee):
        sys.exit("bench_klee_e2e: no usable KLEE binary: nothing to compare")
    only = {n for n in args.only.split(",") if n}
    rows, ratios, skipped = [], [], []
    with tempfile.TemporaryDirectory(prefix="symq-klee-e2e-") as tmp:
        for name in drivers(only):
            s, k, why = measure(args.symq, args.klee, name, args.repeat, args.budget, tmp,
                                args.input == "bc")
            if why:
                skipped.append((name, why))
                print(f"{name}: not compared ({why})", flush=True)
                continue
            ratio = s["cpu"] / k["cpu"] if k["cpu"] > 0 else float("inf")
            ratios.append(ratio)
            rows.append((name, s["paths"], s["cpu"], k["cpu"], ratio))
            print(f"{name}: {s['paths']} paths, symq {s['cpu']:.3f} s, KLEE {k['cpu']:.3f} s,"
                  f" ratio {ratio:.3f}", flush=True)
    if not ratios:
        sys.exit("bench_klee_e2e: no driver comparable")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    worst = max(rows, key=lambda r: r[4])
    summary = (f"symq on the .{args.input}: {len(ratios)} drivers compared ({len(skipped)} not): symq/KLEE CPU geometric "
               f"mean {geo:.3f}; worst {worst[0]} {worst[4]:.2f} (the issue asks <= 0.2)")
    print(summary)
    if args.table:
        with open(args.table, "a", encoding="utf-8") as f:
            date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
            cmd = " ".join(["python3", "eval/bench_klee_e2e.py"] + sys.argv[1:])
            f.write(f"\n{date}, commit {commit()}, `{cmd}`: {summary}\n\n")
            f.write("| driver | paths | symq CPU s | KLEE CPU s | symq/KLEE |\n|---|---|---|---|---|\n")
            for n, p, sc, kc, r in rows:
                f.write(f"| {n} | {p} | {sc:.3f} | {kc:.3f} | {r:.3f} |\n")
            f.write("\nNot compared: " + "; ".join(f"{n} ({w})" for n, w in skipped) + "\n")


if __name__ == "__main__":
    main()
