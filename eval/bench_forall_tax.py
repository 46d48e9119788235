#!/usr/bin/env python3
"""The tax a quantified constraint levies on the queries after it (issue 26, item 2): the
per-query cost of a PAT-merged state's questions against the same questions on its forked
constituents, in one run of this script.

eval/drivers/forall_tax.c runs a memspn-style loop over s[0..n) (PAT merges its exits into
a state carrying ∀i∈[1,K]. s[i−1] = 'a'), then branches on input cells outside the loop's
range (at constant indices and at K + c) and on n. Each configuration runs the driver twice,
with the branches and without (-DBRANCHES=0), and the difference is the branches' own cost:

    per-query cost = (cost(with) − cost(without)) / (queries(with) − queries(without))

cost is the solver's time (stats.json solver_time_s) or, with --callgrind, the instructions
callgrind counts for the whole symq process (deterministic; Z3 included; slow). Printed per
configuration: the branches' queries, those that reached Z3, the quantified procedure's
runs, the slice step's and strip's answers, the per-query cost and its ratio to forking's.
The issue's goal: pat's ratio at most 2.

    eval/bench_forall_tax.py SYMQ_BINARY [--capacity 32] [--callgrind] [--relax on,off]
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DRIVER = os.path.join(ROOT, "eval", "drivers", "forall_tax.c")


def measure(symq, args, capacity, branches, callgrind):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        cmd = [symq, "run", "--no-progress", *args, f"-DCAPACITY={capacity}",
               f"-DBRANCHES={branches}", f"--output-dir={out}", DRIVER]
        if callgrind:
            cmd = ["valgrind", "--tool=callgrind",
                   f"--callgrind-out-file={os.path.join(tmp, 'cg.out')}"] + cmd
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if p.returncode != 0:
            sys.exit(f"bench_forall_tax: {' '.join(cmd)} failed:\n{p.stderr[-2000:]}")
        with open(os.path.join(out, "stats.json")) as f:
            s = json.load(f)
        cost = s["solver_time_s"]
        if callgrind:
            m = re.search(r"Collected : (\d+)", p.stderr)
            if not m:
                sys.exit("bench_forall_tax: no instruction count in callgrind's output")
            cost = int(m.group(1))
    q = s["quantified"]
    return {"cost": cost, "queries": s["queries"], "z3": s["queries_by_stage"]["z3"]["queries"],
            "runs": q["queries"], "slice": q["answered"].get("slice", 0),
            "strip": q["answered"]["strip"], "paths": s["completed_paths"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("symq")
    ap.add_argument("--capacity", type=int, default=32)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--relax", default="on,off")
    opts = ap.parse_args()
    configs = [("none (forked)", ["--merge=none"])]
    for relax in opts.relax.split(","):
        for sl in ("off", "on"):
            configs.append((f"pat, relax {relax}, slice {sl}",
                            ["--merge=pat", f"--qsolver-relax={relax}",
                             f"--qsolver-forall-slice={sl}"]))
    unit = "instructions" if opts.callgrind else "solver s"
    print(f"forall_tax at capacity {opts.capacity}; cost: {unit}; the branches' own share "
          "(a run with them minus one without)")
    print(f"{'configuration':<28} {'queries':>8} {'to z3':>6} {'∀ runs':>7} {'slice':>6} "
          f"{'strip':>6} {'per query':>12} {'ratio':>6}")
    base = None
    for name, args in configs:
        w = measure(opts.symq, args, opts.capacity, 1, opts.callgrind)
        wo = measure(opts.symq, args, opts.capacity, 0, opts.callgrind)
        d = {k: w[k] - wo[k] for k in w}
        per = d["cost"] / d["queries"] if d["queries"] > 0 else float("nan")
        if base is None:
            base = per
        shown = f"{per:.0f}" if opts.callgrind else f"{1000 * per:.3f} ms"
        print(f"{name:<28} {d['queries']:>8} {d['z3']:>6} {d['runs']:>7} {d['slice']:>6} "
              f"{d['strip']:>6} {shown:>12} {per / base:>6.2f}", flush=True)


if __name__ == "__main__":
    main()
