#!/usr/bin/env python3
"""Whole runs with and without the quantified procedure, measured in the same run (the
paper's Table 6): each memspn-family driver (drivers/) at each capacity, and each eval
driver (eval/drivers/, which take no capacity), under one merging mode, once with
--qsolver-procedure=on (strip, duplicate, repair, then the fallbacks) and once with
--qsolver-procedure=off (every quantified query to Z3 alone), the two runs back to back.
Prints, per run, exploration time (stats.json exploration_time_s: no compiling, what
--max-time bounds), solver time, completed paths, the quantified queries the engine asked
(stats.json quantified.asked, with the procedure on or off) and the procedure's runs
(quantified.queries: its sub-queries and re-checks included), the share of those runs each
step answered and the share answered before any fallback; then the time ratio off/on (above 1:
the procedure is faster) over all runs and over the runs with quantified queries (the others
differ by noise only), and the overall share before fallback.

    eval/bench_quant_runs.py SYMQ_BINARY [--merge pat] [--capacities 10,50,100,200]
                             [--drivers memspn,memspn_twice,...,oid_decode,...]
                             [--relax on|off|on,off] [--max-time 300] [--validate-merges]
                             [--validate] [--repeat 1] [--callgrind] [--markdown]

--relax runs every pair with the relaxed stage on (the default), off
(--qsolver-relax=off: the procedure gets the quantified queries the relaxed stage would
answer first), or both, one row each.
--repeat N runs every pair N times (on, off, on, off, ...) and takes the median exploration
time of each side: on a shared machine a single run's time is noise below a second or so.
--callgrind measures each run by the instructions callgrind counts for the whole symq
process (Z3 included; deterministic, so --repeat is not needed; about 50 times slower) in
place of its exploration time, with --solver-timeout and --max-time raised to an hour so
that the slowdown changes no answer.
--validate-merges validates every merge in both runs (its ¬∀ queries are quantified too).
--validate re-checks every answer of the "on" runs with Z3 on the expansion (which costs
time in those runs only, so the ratio is then not a fair one); a disagreement fails the
benchmark. --markdown prints the table in Markdown. A run that hits --max-time is marked '>'
and its time is a lower bound."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAMILIES = (os.path.join(ROOT, "drivers"), os.path.join(ROOT, "eval", "drivers"))
DEFAULT_DRIVERS = ("memspn,memspn_ab,memspn_twice,strchr,strspn,strlen,"
                   "array_offset,branch_tree,concrete_loop,oid_decode,symbolic_index")
STEPS = ["slice", "strip", "duplicate", "repair", "fallback_expand", "fallback_z3"]
LABELS = ["slice", "strip", "dup", "repair", "expand", "z3"]
BEFORE_FALLBACK = ("slice", "strip", "duplicate", "repair")


def source_of(driver):
    for family in FAMILIES:
        path = os.path.join(family, driver + ".c")
        if os.path.exists(path):
            return path
    sys.exit(f"bench_quant_runs: no driver {driver}.c in {' or '.join(FAMILIES)}")


def takes_capacity(path):
    with open(path) as f:
        return "CAPACITY" in f.read()


def run(symq, path, capacity, opts, procedure, relax):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [symq, "run", "--no-progress", f"--merge={opts.merge}",
               f"--qsolver-procedure={procedure}", f"--qsolver-relax={relax}",
               f"--max-time={opts.max_time}s",
               f"--output-dir={out}"]
        if capacity is not None:
            cmd.append(f"-DCAPACITY={capacity}")
        if opts.validate_merges:
            cmd.append("--validate-merges")
        if opts.validate and procedure == "on":
            cmd.append("--validate-qsolver")
        if opts.callgrind:
            cmd = ["valgrind", "--tool=callgrind",
                   f"--callgrind-out-file={os.path.join(tmp, 'cg.out')}"] + cmd + \
                ["--solver-timeout=3600s"]
        p = subprocess.run(cmd + [path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode != 0:
            sys.exit(f"bench_quant_runs: {os.path.basename(path)} --merge={opts.merge} "
                     f"procedure {procedure} capacity {capacity} failed:\n{p.stderr}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
    cost = s["exploration_time_s"]
    if opts.callgrind:
        m = re.search(r"Collected : (\d+)", p.stderr)
        if not m:
            sys.exit("bench_quant_runs: no instruction count in callgrind's output")
        cost = int(m.group(1)) / 1e6  # millions of instructions
    q = s["quantified"]
    return {"time": cost, "solver": s["solver_time_s"],
            "paths": s["completed_paths"], "done": s["exhausted"],
            "asked": q["asked"], "queries": q["queries"], "answered": {k: q["answered"].get(k, 0) for k in STEPS}, "unknown": q.get("unknown", 0),
            "disagreements": q["disagreements"]}


def percent(part, whole):
    return f"{100.0 * part / whole:.1f}%" if whole else "n/a"


def row(cells, widths, markdown):
    if markdown:
        return "| " + " | ".join(str(c) for c in cells) + " |"
    return " ".join(f"{str(c):<{w}}" if k == 0 else f"{str(c):>{w}}"
                    for k, (c, w) in enumerate(zip(cells, widths)))


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("symq")
    ap.add_argument("--merge", default="pat")
    ap.add_argument("--capacities", default="10,50,100,200")
    ap.add_argument("--drivers", default=DEFAULT_DRIVERS)
    ap.add_argument("--relax", default="on")
    ap.add_argument("--max-time", type=int, default=300)
    ap.add_argument("--validate-merges", action="store_true")
    ap.add_argument("--validate", action="store_true")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    opts = ap.parse_args()
    if opts.callgrind:
        opts.max_time = max(opts.max_time, 3600)
    unit = "Minstr" if opts.callgrind else "s"
    caps = [int(c) for c in opts.capacities.split(",")]
    header = ["driver", "cap", "relax", "proc", f"time ({unit})", "solver (s)", "paths", "∀ asked",
              "proc runs"] + LABELS + ["unknown", "before fb"]
    widths = [14, 4, 5, 4, 9, 10, 6, 8, 9] + [7] * len(LABELS) + [7, 9]
    print(row(header, widths, opts.markdown))
    if opts.markdown:
        print("|" + "|".join("---" if k == 0 else "---:" for k in range(len(header))) + "|")
    relaxes = opts.relax.split(",")
    # per relaxed-stage setting: all pairs, and the pairs whose "on" run had quantified queries
    total = {x: {"on": 0.0, "off": 0.0} for x in relaxes}
    quantified = {x: {"on": 0.0, "off": 0.0} for x in relaxes}
    procedure_runs = before = disagreements = 0
    for d in opts.drivers.split(","):
        path = source_of(d)
        for c, relax in [(c, x) for c in (caps if takes_capacity(path) else [None])
                         for x in relaxes]:
            had_queries = False
            runs = {"on": [], "off": []}
            for _ in range(max(opts.repeat, 1)):
                for proc in ("on", "off"):
                    runs[proc].append(run(opts.symq, path, c, opts, proc, relax))
            for proc in ("on", "off"):
                # the median run by exploration time (the counts are the same in every run)
                r = sorted(runs[proc], key=lambda x: x["time"])[len(runs[proc]) // 2]
                total[relax][proc] += r["time"]
                had_queries |= proc == "on" and r["asked"] > 0
                if had_queries:
                    quantified[relax][proc] += r["time"]
                b = sum(r["answered"][s] for s in BEFORE_FALLBACK)
                if proc == "on":
                    procedure_runs += r["queries"]
                    before += b
                    disagreements += r["disagreements"]
                # with the procedure off, quantified queries go straight to Z3 uncounted
                on = proc == "on"
                steps = [percent(r["answered"][s], r["queries"]) if on else "-" for s in STEPS]
                mark = "" if r["done"] else ">"
                print(row([d, "-" if c is None else c, relax, proc, mark + format(r["time"], ".2f"),
                           format(r["solver"], ".2f"), r["paths"], r["asked"],
                           r["queries"] if on else "-",
                           *steps, r["unknown"] if on else "-",
                           percent(b, r["queries"]) if on else "-"],
                          widths, opts.markdown), flush=True)
    for x in relaxes:
        for what, t in (("all runs", total[x]), ("runs with quantified queries", quantified[x])):
            ratio = t["off"] / t["on"] if t["on"] > 0 else float("nan")
            what_cost = "instructions (M)" if opts.callgrind else "exploration time (s)"
            print(f"{what_cost}, relaxed stage {x}, {what}: procedure on {t['on']:.2f}, "
                  f"off {t['off']:.2f}, ratio off/on {ratio:.2f}")
    if procedure_runs:
        print(f"procedure runs answered before any fallback: {before}/{procedure_runs} "
              f"({100.0 * before / procedure_runs:.1f}%)")
    else:
        print("the procedure never ran (no quantified query reached it)")
    if disagreements:
        sys.exit(f"bench_quant_runs: {disagreements} disagreements with Z3 on the expansion")


if __name__ == "__main__":
    main()
