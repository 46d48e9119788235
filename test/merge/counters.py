#!/usr/bin/env python3
"""Counters that tell the truth (issue 26, item 7; qsolver/qsolver.h, qs_quant_stats):

1. `symq compare drivers/memspn.c` prints, for pat, the quantified queries the run asked
   (stats.json's quantified.asked), not the quantified procedure's runs: pat asks some
   (the merged states carry a forall) although the caches and the relaxed stage answer them
   before the procedure runs; none and cfg ask none. Every asked query is decided by one
   stage (quantified.asked_decided_by sums to asked), and compare prints those stages
   ("decided by", compare.csv's last column quantified_decided_by: stage:count, "-" if none).
2. --validate-qsolver re-checks the answers the caches give to quantified queries, not only
   the procedure's and the relaxed stage's (rechecked_from_cache > 0 on memspn at 8 under
   pat; rechecked = the procedure's answers + the caches' + the relaxed stage's), every re-check
   confirming the answer (no disagreement, none unknown).
3. `symq compare` says, per mode, how the run ended and the errors found (issue 23, item 7):
   on test/e2e/err_div.c "complete" and its two div errors at their lines, coverage measured;
   on a driver with a division by a symbolic byte and 2^22 paths after it, under
   --max-instructions=20000 (a limit no machine's speed changes), "halted: max-instructions"
   and the one div error; --no-coverage leaves the coverage empty in
   compare.csv ("not run" in the table), never 0, and runs no `symq cov`. The new columns come
   last: compare.csv's first columns stay as they were.

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
        decided = ",".join(f"{stage}:{n}" for stage, n in q["asked_decided_by"].items() if n)
        assert rows[mode]["quantified_decided_by"] == (decided or "-"), (mode, rows[mode], q)
    assert asked["none"] == 0 and asked["cfg"] == 0, asked
    assert asked["pat"] > 0, f"pat asked {asked['pat']} quantified queries"
    pat_line = [line for line in p.stdout.splitlines() if line.startswith("pat ")]
    assert pat_line and pat_line[0].split()[8] == str(asked["pat"]), (pat_line, asked)
    assert pat_line[0].split()[9] == rows["pat"]["quantified_decided_by"], (pat_line, rows)
    return f"quantified asked: {asked}, pat's decided by {rows['pat']['quantified_decided_by']}"


OLD_COLUMNS = ["mode", "wall_s", "completed_paths", "merged_states", "queries", "solver_s",
               "tests", "line_coverage_percent", "quantified_queries",
               "quantified_procedure_runs", "quantified_before_fallback"]

EXPLODE = """#include <klee/klee.h>

int main(void) {
  unsigned char b[24];
  klee_make_symbolic(b, sizeof b, "b");
  int r = 100 / b[1]; /* @div */
  for (int i = 2; i < 24; i++)
    if (b[i] == 'a') r++;
  return r;
}
"""


def marker_line(text, marker):
    return next(n for n, line in enumerate(text.splitlines(), 1) if marker in line)


def run_compare(symq, driver, out, *options):
    p = subprocess.run([symq, "compare", driver, "--modes=none", f"--output-dir={out}",
                        *options], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr[-500:]
    with open(os.path.join(out, "compare.csv")) as f:
        reader = csv.DictReader(f)
        assert reader.fieldnames == OLD_COLUMNS + ["outcome", "error_paths", "errors",
                                                  "quantified_decided_by"], reader.fieldnames
        rows = list(reader)
    assert len(rows) == 1 and rows[0]["mode"] == "none", rows
    table = [line for line in p.stdout.splitlines() if line.startswith("none ")]
    assert len(table) == 1, p.stdout
    return rows[0], table[0]


def compare_outcome_and_errors(symq):
    err_div = os.path.join(ROOT, "test/e2e/err_div.c")
    with open(err_div) as f:
        text = f.read()
    errors = (f"div err_div.c:{marker_line(text, '/* @div_zero */')}, "
              f"div err_div.c:{marker_line(text, '/* @rem_zero */')}")
    row, line = run_compare(symq, err_div, os.path.join(SCRATCH.name, "cmp_div"))
    assert row["outcome"] == "complete" and row["error_paths"] == "2", row
    assert row["errors"] == errors, (row["errors"], errors)
    assert float(row["line_coverage_percent"]) > 0, row
    assert line.endswith(f"complete          2: {errors}"), line
    first = f"complete, 2: {errors}"

    explode = os.path.join(SCRATCH.name, "explode.c")
    with open(explode, "w") as f:
        f.write(EXPLODE)
    out = os.path.join(SCRATCH.name, "cmp_time")
    row, line = run_compare(symq, explode, out, "--no-coverage", "--", "--max-instructions=20000")
    with open(os.path.join(out, "none", "stats.json")) as f:
        stats = json.load(f)
    assert not stats["exhausted"] and "halted: max-instructions" in stats["early_reasons"], stats
    errors = f"div explode.c:{marker_line(EXPLODE, '@div')}"
    assert row["outcome"] == "halted: max-instructions" and row["error_paths"] == "1", row
    assert row["errors"] == errors, (row["errors"], errors)
    assert row["line_coverage_percent"] == "", row
    assert " not run " in line and line.endswith(f"halted: max-instructions  1: {errors}"), line
    assert not os.path.exists(os.path.join(out, "none.cov.log")), "symq cov ran"
    return f"{first}; halted: max-instructions, 1: {errors}"


def caches_rechecked(symq):
    out = os.path.join(SCRATCH.name, "validate")
    # --tests-per-merge=one: the merged states write their own tests, whose ∀ questions the
    # caches answer (under =all the members' tests cover their paths and they ask none)
    p = subprocess.run([symq, "run", "--no-progress", "--merge=pat", "-DCAPACITY=8",
                        "--tests-per-merge=one",
                        "--validate-qsolver", "--solver-timeout=120s", f"--output-dir={out}",
                        os.path.join(ROOT, "drivers/memspn.c")],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr[-500:]
    with open(os.path.join(out, "stats.json")) as f:
        s = json.load(f)
    q = s["quantified"]
    procedure = sum(n for step, n in q["answered"].items() if step != "fallback_expand")
    relaxed = s["queries_by_stage"]["relaxed"]["answered"]  # re-checked on the expansion
    assert q["rechecked_from_cache"] > 0, q
    assert q["rechecked"] == procedure + q["rechecked_from_cache"] + relaxed, (q, relaxed)
    assert q["disagreements"] == 0 and q["recheck_unknown"] == 0, q
    assert "re-check unknown" not in p.stderr, p.stderr[-500:]
    return (f"{q['rechecked']} re-checked, {q['rechecked_from_cache']} of them from the "
            f"caches")


def main():
    symq = sys.argv[1]
    results = []
    outdir.check("symq compare prints the quantified queries asked",
                 lambda: compare_counts_asked(symq), results)
    outdir.check("symq compare says how each run ended and the errors found",
                 lambda: compare_outcome_and_errors(symq), results)
    outdir.check("--validate-qsolver re-checks the caches' answers",
                 lambda: caches_rechecked(symq), results)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
