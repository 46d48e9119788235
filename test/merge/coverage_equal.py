#!/usr/bin/env python3
"""Merging must not lose tests: for each driver, the tests of --merge=none and of --merge=cfg
and --merge=pat (whose --tests-per-merge=all writes one for every path they merge), replayed
natively with gcov by `symq cov`, must cover the same lines and branches. (With one test per merged state,
as KLEE writes, the coverage of the replayed tests collapses although the same lines were
explored.)

    coverage_equal.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`."""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DRIVERS = [("drivers/memspn.c", 4), ("drivers/memspn_twice.c", 3), ("drivers/strspn.c", 3),
           ("drivers/strchr.c", 3), ("drivers/strlen.c", 3)]
MODES = ("cfg", "pat")


def coverage(symq, driver, capacity, mode, tmp):
    out = os.path.join(tmp, mode)
    check_q = ["--validate-qsolver"] if mode == "pat" else []  # exits 1 on a disagreement
    subprocess.run([symq, "run", "--no-progress", "--solver-timeout=120s", f"--merge={mode}",
                    f"-DCAPACITY={capacity}", f"--output-dir={out}", *check_q,
                    os.path.join(ROOT, driver)], check=True, capture_output=True, timeout=600)
    subprocess.run([symq, "cov", out], check=True, capture_output=True, timeout=600)
    with open(os.path.join(out, "stats.json")) as f:
        g = json.load(f)["gcov"]
    return (g["lines_covered"], g["lines_total"], g["branches_covered"], g["branches_total"])


def main():
    symq = sys.argv[1]
    passed = failed = 0
    for driver, capacity in DRIVERS:
        with tempfile.TemporaryDirectory(prefix="symq-cov-") as tmp:
            try:
                none = coverage(symq, driver, capacity, "none", tmp)
                merged = {m: coverage(symq, driver, capacity, m, tmp) for m in MODES}
            except subprocess.CalledProcessError as e:
                failed += 1
                print(f"FAIL {driver}: {' '.join(e.cmd[:2])} failed: "
                      f"{(e.stderr or b'').decode().strip().splitlines()[-1:]}")
                continue
        differ = {m: c for m, c in merged.items() if c != none}
        if not differ:
            passed += 1
            print(f"PASS {driver}: lines {none[0]}/{none[1]}, branches {none[2]}/{none[3]}")
        else:
            failed += 1
            print(f"FAIL {driver}: none covers {none}, " +
                  ", ".join(f"{m} covers {c}" for m, c in differ.items()) +
                  " (lines covered/total, branches covered/total)")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
