#!/usr/bin/env python3
"""z3_seed.py SYMQ — `--z3-seed=N`, Z3's random seed on every solver symq makes
(qsolver.h's qs_options.z3_seed): 0 is today's run bit for bit, a seed reaches Z3, the same
seed twice is the same run, and `symq compare` passes it on.

The driver is the paper's memspn (drivers/memspn.c) at capacity 10, under forking: 21 paths
whose questions reach Z3. Checked: no option and --z3-seed=0 give the same Z3 effort
(stats.json's solver_effort, Z3's deterministic count) and byte-identical tests; seeds 1, 2, 3
give the same paths and tests as 0, and at least one of them another effort (the seed reached
Z3: its effort is the only thing a seed may change); seed 1 twice gives the same effort and
byte-identical tests; `symq compare --z3-seed=1` runs symq with it (the same effort as
`symq run --z3-seed=1`). Prints `PASS what` / `FAIL what: why`, then `N passed, N failed`;
exit status 1 on a failure.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

from script_report import report

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "..", "..", "drivers", "memspn.c")


def run(symq, out, extra):
    p = subprocess.run([symq, "run", "--no-progress", "--merge=none", "--capacity=10",
                        f"--output-dir={out}", *extra, DRIVER], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    tests = []
    for path in sorted(glob.glob(os.path.join(out, "test*.ktest"))):
        with open(path, "rb") as f:
            tests.append(f.read())
    return {"effort": stats["solver_effort"], "paths": stats["completed_paths"],
            "tests": stats["tests"], "bytes": tests, "stderr": p.stderr}


def main():
    symq = sys.argv[1]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        runs = {}
        for name, extra in (("default", []), ("0", ["--z3-seed=0"]), ("1", ["--z3-seed=1"]),
                            ("1 again", ["--z3-seed=1"]), ("2", ["--z3-seed=2"]),
                            ("3", ["--z3-seed=3"])):
            runs[name] = run(symq, os.path.join(tmp, name.replace(" ", "-")), extra)
        if any(r is None for r in runs.values()):
            results.append(("every run succeeds", False,
                            ", ".join(k for k, r in runs.items() if r is None)))
        else:
            d, z = runs["default"], runs["0"]
            results.append(("--z3-seed=0 is the default run: same effort, same tests",
                            d["effort"] == z["effort"] and d["bytes"] == z["bytes"],
                            f"effort {d['effort']} against {z['effort']}"))
            seeds = [runs[s] for s in ("1", "2", "3")]
            results.append(("another seed: the same paths and tests",
                            all((r["paths"], r["tests"]) == (21, 21) for r in [z] + seeds),
                            str([(r["paths"], r["tests"]) for r in [z] + seeds])))
            results.append(("a seed reaches Z3: some seed moves its effort",
                            any(r["effort"] != z["effort"] for r in seeds),
                            f"efforts {[z['effort']] + [r['effort'] for r in seeds]}"))
            one, again = runs["1"], runs["1 again"]
            results.append(("the same seed twice: the same effort and tests",
                            one["effort"] == again["effort"] and one["bytes"] == again["bytes"],
                            f"effort {one['effort']} against {again['effort']}"))
            out = os.path.join(tmp, "compare")
            p = subprocess.run([symq, "compare", "--modes=none", "--no-coverage", "--z3-seed=1",
                                "--capacity=10", f"--output-dir={out}", DRIVER],
                               capture_output=True, text=True)
            effort = None
            if p.returncode == 0:
                with open(os.path.join(out, "none", "stats.json")) as f:
                    effort = json.load(f)["solver_effort"]
            results.append(("symq compare passes --z3-seed on", effort == one["effort"],
                            f"exit {p.returncode}, effort {effort} against {one['effort']}: "
                            f"{p.stderr[-300:]}"))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
