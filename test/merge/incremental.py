#!/usr/bin/env python3
"""Incremental state merging (issue 9, the paper's §4; merge/incremental.h):

1. memspn over "ab" (drivers/memspn_ab.c) under --merge=pat: with --incremental-merge the
   forks, the states reaching the loop's exits and the execution tree's nodes grow linearly
   with the capacity (equal differences from 4 to 12), every merge validated; without it the
   same counts grow faster than linearly (growing differences, 4 to 7).
2. the paper's strspn "ab" example (drivers/strspn_ab.c, capacity 3, KLEE's passes): 15
   states reach the loop's exit without incremental merging, 4 with it.
3. the same errors and the same replayed coverage as --merge=none, on the memspn family and
   on drivers whose loops hold errors, with --validate-merges.
4. --validate-merges checks a merge's values, not only its path condition: with the test
   hook SYMQ_TEST_CORRUPT_MERGE (merge/incremental.c), which changes one byte of the first
   merged state, the merge fails validation on a value (the report names the value check;
   both path-condition checks held) and the run exits 1; the same run without the hook
   validates every merge.

    incremental.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import json
import os
import subprocess
import sys
import tempfile

import outdir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-incremental-")


def run(symq, driver, mode, capacity, *extra):
    out = tempfile.mkdtemp(dir=SCRATCH.name)
    os.rmdir(out)
    p = subprocess.run([symq, "run", "--no-progress", "--solver-timeout=120s", f"--merge={mode}",
                        f"-DCAPACITY={capacity}", f"--output-dir={out}", *extra,
                        os.path.join(ROOT, driver)],
                       capture_output=True, text=True, timeout=900)
    if p.returncode != 0:
        raise RuntimeError(f"{driver} {mode} {extra} at {capacity}: exit {p.returncode}: "
                           f"{p.stderr.strip()[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    return out, stats


def counts(stats):
    m = stats["merge"]
    return {"forks": stats["forks"], "at exits": m["states_at_exits"], "tree nodes": m["tree_nodes"]}


def differences(series):
    return [b - a for a, b in zip(series, series[1:])]


def memspn_ab_linear(symq):
    per_capacity = {}
    for capacity in range(4, 13):
        _, s = run(symq, "drivers/memspn_ab.c", "pat", capacity, "--incremental-merge",
                   "--validate-merges")
        m = s["merge"]
        assert s["exhausted"] and m["validation_failures"] == 0, (capacity, m)
        assert m["incremental"]["nodes_merged"] > 0 and m["incremental"]["snapshot_bytes"] > 0, m
        per_capacity[capacity] = counts(s)
    for key in ("forks", "at exits", "tree nodes"):
        series = [per_capacity[c][key] for c in sorted(per_capacity)]
        steps = differences(series)
        assert steps[0] > 0 and len(set(steps)) == 1, f"{key} not linear: {series}"
    return "capacity 4..12: " + "; ".join(
        f"{key} {[per_capacity[c][key] for c in sorted(per_capacity)]}"
        for key in ("forks", "at exits", "tree nodes"))


def memspn_ab_exponential_without(symq):
    series = {key: [] for key in ("forks", "at exits", "tree nodes")}
    for capacity in range(4, 8):
        _, s = run(symq, "drivers/memspn_ab.c", "pat", capacity, "--incremental-merge=off")
        assert s["merge"]["incremental"]["nodes_merged"] == 0, s["merge"]["incremental"]
        for key, value in counts(s).items():
            series[key].append(value)
    for key, values in series.items():
        steps = differences(values)
        assert all(b > a for a, b in zip(steps, steps[1:])), f"{key} does not grow faster: {values}"
    return "capacity 4..7: " + "; ".join(f"{k} {v}" for k, v in series.items())


def strspn_ab(symq):
    extra = ("--merge-loops=symbolic", "--passes=klee", "--validate-merges")
    _, without = run(symq, "drivers/strspn_ab.c", "pat", 3, "--incremental-merge=off", *extra)
    _, with_ = run(symq, "drivers/strspn_ab.c", "pat", 3, "--incremental-merge", *extra)
    n0, n1 = without["merge"]["states_at_exits"], with_["merge"]["states_at_exits"]
    assert (n0, n1) == (15, 4), f"states at the exit: {n0} without, {n1} with (15, 4 expected)"
    assert with_["merge"]["validation_failures"] == 0 and with_["exhausted"], with_["merge"]
    return f"{n0} states merged without, {n1} with"


# (driver, capacity, extra options): the memspn family, and loops with errors inside
SAME_AS_NONE = [("drivers/memspn_ab.c", 5, ()), ("drivers/memspn.c", 5, ()),
                ("drivers/memspn_twice.c", 3, ()), ("drivers/strspn.c", 4, ()),
                ("drivers/strlen.c", 4, ()),
                ("drivers/strspn_ab.c", 3, ("--merge-loops=symbolic",)),
                ("test/e2e/merge_error_in_loop.c", 4, ()),
                ("test/merge/incremental/error_in_loop.c", 4, ())]


def replayed_coverage(symq, out):
    subprocess.run([symq, "cov", out], check=True, capture_output=True, timeout=600)
    with open(os.path.join(out, "stats.json")) as f:
        g = json.load(f)["gcov"]
    return (g["lines_covered"], g["branches_covered"])


def same_as_none(symq, driver, capacity, extra):
    def fn():
        none_out, _ = run(symq, driver, "none", capacity, *extra)
        inc_out, s = run(symq, driver, "pat", capacity, "--incremental-merge",
                         "--validate-merges", *extra)
        assert s["merge"]["validation_failures"] == 0 and s["exhausted"], s["merge"]
        errors_none, errors_inc = outdir.errors(none_out), outdir.errors(inc_out)
        assert errors_inc == errors_none, (errors_inc, errors_none)
        cov_none, cov_inc = replayed_coverage(symq, none_out), replayed_coverage(symq, inc_out)
        assert cov_inc == cov_none, f"coverage (lines, branches) {cov_inc}, none {cov_none}"
        return (f"errors {sorted(errors_inc)}, coverage {cov_inc}, "
                f"{s['merge']['incremental']['nodes_merged']} nodes merged")
    return fn


def corrupted_value_caught(symq):
    def validated(corrupt):
        out = tempfile.mkdtemp(dir=SCRATCH.name)
        os.rmdir(out)
        env = dict(os.environ)
        env.pop("SYMQ_TEST_CORRUPT_MERGE", None)
        if corrupt:
            env["SYMQ_TEST_CORRUPT_MERGE"] = "1"
        p = subprocess.run([symq, "run", "--no-progress", "--merge=pat", "-DCAPACITY=4",
                            "--incremental-merge", "--validate-merges", "--solver-timeout=120s",
                            f"--output-dir={out}",
                            os.path.join(ROOT, "drivers/memspn_ab.c")],
                           capture_output=True, text=True, timeout=300, env=env)
        with open(os.path.join(out, "stats.json")) as f:
            m = json.load(f)["merge"]
        assert m["incremental"]["nodes_merged"] > 0, m["incremental"]
        return p, m["validation_failures"]
    # the same run without the hook validates: the failure below is the corruption's
    p, failures = validated(False)
    assert p.returncode == 0 and failures == 0, (p.returncode, failures, p.stderr[-500:])
    p, failures = validated(True)
    assert failures == 1, f"{failures} failures, 1 expected"
    reports = [line for line in p.stderr.splitlines() if "merge validation failed" in line]
    assert p.returncode == 1 and len(reports) == 1, (p.returncode, p.stderr)
    # the hook changes a byte, not the path condition: the value check is the one that bites
    assert "value: merged value" in reports[0] and "not proved" not in reports[0], reports[0]
    return "1 merge failed validation on a value (path conditions held), exit 1"


def main():
    symq = sys.argv[1]
    results = []
    outdir.check("memspn \"ab\" linear with incremental merging",
                 lambda: memspn_ab_linear(symq), results)
    outdir.check("memspn \"ab\" faster than linear without",
                 lambda: memspn_ab_exponential_without(symq), results)
    outdir.check("strspn \"ab\": 15 states merged without, 4 with",
                 lambda: strspn_ab(symq), results)
    outdir.check("a corrupted merged value is caught",
                 lambda: corrupted_value_caught(symq), results)
    for driver, capacity, extra in SAME_AS_NONE:
        outdir.check(f"{driver} at {capacity}: same errors and coverage as none",
                     same_as_none(symq, driver, capacity, extra), results)
    passed = sum(results)
    print(f"{passed} passed, {len(results) - passed} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
