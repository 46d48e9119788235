#!/usr/bin/env python3
"""Counters that tell the truth (issue 26, item 7; qsolver/qsolver.h, qs_quant_stats):

1. `symq compare drivers/memspn.c` prints, for pat, the quantified queries the run asked
   (stats.json's quantified.asked), not the quantified procedure's runs: pat asks some
   (the merged states carry a forall) although the caches and the relaxed stage answer them
   before the procedure runs; none and cfg ask none. Every asked query is decided by one
   stage (quantified.asked_decided_by sums to asked).
2. --validate-qsolver re-checks the answers the caches give to quantified queries, not only
   the procedure's (rechecked_from_cache > 0 on memspn at 8 under pat), every re-check
   confirming the answer (no disagreement, none unknown).

    counters.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import csv
import json
import os
import subprocess
import sys
import tempfile

import outdir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-counters-")


def compare_counts_asked(symq):
    out = os.path.join(SCRATCH.name, "compare")
    p = subprocess.run([symq, "compare", os.path.join(ROOT, "drivers/memspn.c"),
                        "--modes=none,cfg,pat", f"--output-dir={out}"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-500:]
    with open(os.path.join(out, "compare.csv")) as f:
        rows = {r["mode"]: r for r in csv.DictReader(f)}
    asked = {}
    for mode in ("none", "cfg", "pat"):
        with open(os.path.join(out, mode, "stats.json")) as f:
            q = json.load(f)["quantified"]
        asked[mode] = q["asked"]
        assert int(rows[mode]["quantified_queries"]) == q["asked"], (mode, rows[mode], q)
        assert int(rows[mode]["quantified_procedure_runs"]) == q["queries"], (mode, q)
        assert sum(q["asked_decided_by"].values()) == q["asked"], (mode, q)
    assert asked["none"] == 0 and asked["cfg"] == 0, asked
    assert asked["pat"] > 0, f"pat asked {asked['pat']} quantified queries"
    pat_line = [line for line in p.stdout.splitlines() if line.startswith("pat ")]
    assert pat_line and pat_line[0].split()[8] == str(asked["pat"]), (pat_line, asked)
    return f"quantified asked: {asked}"


def caches_rechecked(symq):
    out = os.path.join(SCRATCH.name, "validate")
    p = subprocess.run([symq, "run", "--no-progress", "--merge=pat", "-DCAPACITY=8",
                        "--validate-qsolver", f"--output-dir={out}",
                        os.path.join(ROOT, "drivers/memspn.c")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-500:]
    with open(os.path.join(out, "stats.json")) as f:
        q = json.load(f)["quantified"]
    procedure = sum(n for step, n in q["answered"].items() if step != "fallback_expand")
    assert q["rechecked_from_cache"] > 0, q
    assert q["rechecked"] == procedure + q["rechecked_from_cache"], q
    assert q["disagreements"] == 0 and q["recheck_unknown"] == 0, q
    assert "re-check unknown" not in p.stderr, p.stderr[-500:]
    return (f"{q['rechecked']} re-checked, {q['rechecked_from_cache']} of them from the "
            f"caches")


def main():
    symq = sys.argv[1]
    results = []
    outdir.check("symq compare prints the quantified queries asked",
                 lambda: compare_counts_asked(symq), results)
    outdir.check("--validate-qsolver re-checks the caches' answers",
                 lambda: caches_rechecked(symq), results)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
