#!/usr/bin/env python3
"""--validate-merges on every driver: each drivers/*.c (at -DCAPACITY=4) and each
test/e2e/*.c runs with --merge=cfg and --merge=pat, both --validate-merges
--merge-loops=symbolic (every loop with a symbolic branch opens a region; pat also
--validate-qsolver); the merging runs must succeed with no merged state failing validation
and no quantified answer disagreeing with Z3, and must report the errors forking reports
(kind and line): for an e2e driver the ones its EXPECT-ERROR lines state (which its e2e test
checks forking against), for the others those of a --merge=none run. Each driver is compiled
once, as symq would compile it (test/e2e/bitcode.py), and every run loads that bitcode.

    validate_all.py SYMQ_BINARY [--filter GLOB]

Drivers that must be rejected, signalled or timed are skipped (nothing to merge there).
Prints one line per driver and a final `N passed, N failed`."""
import argparse
import fnmatch
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import outdir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e"))
import bitcode  # noqa: E402  (a driver compiled once, as symq compiles it)
import run_e2e  # noqa: E402  (the drivers' expectation syntax, parsed one way)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODES = ("cfg", "pat")


def drivers():
    for path in sorted(glob.glob(os.path.join(ROOT, "drivers", "*.c"))):
        yield path, ["-DCAPACITY=4"], None
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "e2e", "*.c"))):
        with open(path) as f:
            text = f.read()
        if re.search(r"^// (EXPECT-REJECT|SIGNAL)", text, re.M) or "--max-time" in text:
            continue
        args = re.findall(r"^// ARGS: (.*)$", text, re.M)
        extra = [a for a in shlex.split(args[0]) if not a.startswith("--merge")] if args else []
        yield path, extra, set(run_e2e.parse_driver(path)["errors"])


def run(symq, bc, extra, merge):
    with tempfile.TemporaryDirectory(prefix="symq-validate-") as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([symq, "run", "--no-progress", *merge, f"--output-dir={out}",
                            *outdir.unhurried(extra), bc],
                           capture_output=True, text=True, timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(merge)}: exit status {p.returncode}: "
                               f"{(p.stderr.strip().splitlines() or [''])[-1]}")
        with open(os.path.join(out, "stats.json")) as f:
            stats = json.load(f)
        errors = outdir.errors(out)
    return stats, errors


def check_driver(symq, path, extra, expected_errors, tmp):
    """The problems found on one driver (an empty list when it passes) and its merges."""
    defines = [a for a in extra if a.startswith("-D")]
    extra = [a for a in extra if not a.startswith("-D")]
    bc = bitcode.compile_driver(symq, path, os.path.join(tmp, "driver.bc"), defines)
    none_errors = expected_errors if expected_errors is not None else \
        run(symq, bc, extra, ["--merge=none"])[1]
    problems, merges = [], {}
    for mode in MODES:
        stats, errors = run(symq, bc, extra,
                            [f"--merge={mode}", *outdir.validation(mode), "--merge-loops=symbolic"])
        merges[mode] = stats["merge"]["merges"]
        problems += [f"{mode}: {p}" for p in outdir.quantified_problems(stats)]
        if stats["merge"]["validation_failures"]:
            problems.append(f"{mode}: {stats['merge']['validation_failures']} merges "
                            "failed validation")
        if errors != none_errors:
            problems.append(f"errors differ: forking {sorted(none_errors)} "
                            f"{mode} {sorted(errors)}")
    return problems, merges


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--filter")
    opts = ap.parse_args()
    passed = failed = 0
    total_merges = {m: 0 for m in MODES}
    for path, extra, expected_errors in drivers():
        name = os.path.relpath(path, ROOT)
        if opts.filter and not fnmatch.fnmatchcase(name, opts.filter):
            continue
        try:
            with tempfile.TemporaryDirectory(prefix="symq-validate-bc-") as tmp:
                problems, merges = check_driver(opts.symq, path, extra, expected_errors, tmp)
        except (RuntimeError, subprocess.TimeoutExpired) as e:
            problems = [str(e)]
        if problems:
            failed += 1
            print(f"FAIL {name}: " + "; ".join(problems), flush=True)
        else:
            passed += 1
            for m, n in merges.items():
                total_merges[m] += n
            print(f"PASS {name}: " + ", ".join(f"{m} {n} merges" for m, n in merges.items()),
                  flush=True)
    for m, n in total_merges.items():
        if passed and not n:
            failed += 1
            print(f"FAIL: {m} merged nothing: the check would not notice a broken merge")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
