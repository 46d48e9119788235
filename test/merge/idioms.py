#!/usr/bin/env python3
"""Merging on ordinary KLEE-style drivers (merge/size.h): each test/merge/idioms/*.c runs with
--merge=none and with --merge=cfg --validate-merges (default --merge-loops=size). Under cfg a
driver must open a region and merge states there, except no_size.c, which has no size and
must open none (its skip counted); no merged state may fail validation; and both modes must
report the same errors (kind and line).

    idioms.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NO_SIZE = "no_size.c"
SKIP = "loop branch does not depend on a symbolic size"


def run(symq, driver, merge):
    with tempfile.TemporaryDirectory(prefix="symq-idioms-") as tmp:
        out = os.path.join(tmp, "out")
        args = [symq, "run", f"--merge={merge}", "--solver-timeout=120s", f"--output-dir={out}",
                driver]
        if merge == "cfg":
            args[2:2] = ["--validate-merges"]
        p = subprocess.run(args, capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"--merge={merge} failed: {p.stderr.strip()[-300:]}")
        stats = json.load(open(os.path.join(out, "stats.json")))
        errors = []
        for err in sorted(glob.glob(os.path.join(out, "*.err"))):
            kind = os.path.basename(err).split(".")[1]
            lines = [l for l in open(err).read().splitlines() if l.startswith("Line:")]
            errors.append((kind, lines[0] if lines else "?"))
        return stats, sorted(errors)


def check(symq, driver):
    try:
        plain, plain_errors = run(symq, driver, "none")
        merged, merged_errors = run(symq, driver, "cfg")
    except RuntimeError as e:
        return str(e)
    m = merged["merge"]
    if m["validation_failures"]:
        return f"{m['validation_failures']} merges failed validation"
    if plain_errors != merged_errors:
        return f"errors differ: none {plain_errors}, cfg {merged_errors}"
    if os.path.basename(driver) == NO_SIZE:
        if m["regions_opened"] or not m["regions_skipped"].get(SKIP):
            return f"a loop without a size opened a region: {m}"
    elif not m["regions_opened"] or not m["merged_states"] or m["regions_skipped"].get(SKIP):
        return f"no merge on a loop over a size: {m}"
    return None


def main():
    symq = sys.argv[1]
    drivers = sorted(glob.glob(os.path.join(HERE, "idioms", "*.c")))
    failed = 0
    for driver in drivers:
        problem = check(symq, driver)
        name = os.path.basename(driver)
        print(f"FAIL {name}: {problem}" if problem else f"PASS {name}")
        failed += problem is not None
    print(f"{len(drivers) - failed} passed, {failed} failed")
    return 1 if failed or not drivers else 0


if __name__ == "__main__":
    sys.exit(main())
