#!/usr/bin/env python3
"""Nested loops under --merge=pat (issue 26, item 3c): the inner loop's region opens inside
the outer loop's region and is merged first; what it releases goes back to the outer region,
so the outer loop's iterations are regular again. Each test/merge/nested/*.c states on its
`// EXPECT-PAT:` line the merges by pattern (merge.pat.merges) and their constituents
(merge.pat.merged_states), on `// EXPECT-NESTED:` how many regions opened nested
(merge.regions_nested), on one `// EXPECT-DECISION: <outcome>=<count>` line per outcome the
whole of merge.decisions, and on an optional `// ARGS-PAT:` line the options pat needs besides.
Each driver runs with --merge=none and with --merge=pat --incremental-merge=off (plain PAT)
--validate-merges --validate-qsolver --merge-decide=always --pat-fallback=fork: what is tested is how nested regions merge, not
whether the cost estimate takes each merge (test/merge/decide.py tests that), so the counts
do not move when the estimate does; and again with --incremental-merge=on, whose nested regions
are plain ones inside the incremental outer region: its `// EXPECT-INC:` line states the merges
by pattern, their constituents and the nested regions, and every path that ended has its test;
under either the counts must be exactly those, with no failed validation, no quantified answer
Z3 disagrees with and no region whose pattern hash was invalid. Against --merge=none, pat
must explore completely with fewer completed paths, report the same errors (kind and line),
and its tests must cover the same lines and branches under gcov (`symq cov`) and, replayed
natively (`symq replay`), end only in outcomes (exit status, error kind, mismatch) that
none's tests end in too. Merged runs write fewer tests, so
test counts are not compared.

    nested.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-nested-")


def outcome(text):
    """One replayed test's outcome, without the test's name: `exit N`, `error KIND` (reproduced,
    or the error of another test that symq reports once), or the mismatch as replay words it."""
    m = re.match(r"^exit (\d+): ok$", text)
    if m:
        return f"exit {m.group(1)}"
    m = re.search(r": (\w+) error reproduced: ", text) or \
        re.search(r": ok: the error of test\d+ \((\w+) at line \d+\)", text)
    if m:
        return f"error {m.group(1)}"
    return re.sub(r"test\d+", "test", text)


def replay_outcomes(symq, out):
    """The outcomes of the tests of out replayed natively (`symq replay`), as a set. A
    mismatch is an outcome too: an error the native build does not detect (a read past a
    buffer's symbolic size, within its capacity) is one for none's tests as well."""
    p = subprocess.run([symq, "replay", out], capture_output=True, text=True, timeout=300)
    assert p.returncode in (0, 1), f"replay of {os.path.basename(out)}: exit {p.returncode}: " \
        f"{p.stderr.strip()[-300:]}"
    return {outcome(line[line.index(": ") + 2:]) for line in p.stdout.splitlines()
            if re.match(r"^test\d+: ", line)}


def gcov(symq, out):
    subprocess.run([symq, "cov", out], check=True, capture_output=True, timeout=300)
    with open(os.path.join(out, "stats.json")) as f:
        g = json.load(f)["gcov"]
    return g["lines_covered"], g["lines_total"], g["branches_covered"], g["branches_total"]


def replayed_as_none(symq, out, none_out, label):
    """The tests of out replayed natively end only in outcomes none_out's do, and cover the
    same gcov lines and branches; returns out's (lines, of, branches, of)."""
    outcomes, none_outcomes = replay_outcomes(symq, out), replay_outcomes(symq, none_out)
    assert outcomes <= none_outcomes, \
        f"replayed outcomes none never has: {sorted(outcomes - none_outcomes)}"
    covered, none_covered = gcov(symq, out), gcov(symq, none_out)
    assert covered == none_covered, f"gcov (lines, of, branches, of): none {none_covered}, " \
        f"{label} {covered}"
    return covered


NONE = {}  # driver -> none's (stats, out), shared by its pat and pat-inc checks


def run(symq, driver, mode, options=()):
    if mode == "none" and driver in NONE:
        return NONE[driver]
    stats, out = outdir.run_mode(symq, driver, mode, SCRATCH.name, options)
    if mode == "none":
        NONE[driver] = (stats, out)
    return stats, out


def expected(driver):
    with open(driver) as f:
        text = f.read()
    m = re.search(r"^// EXPECT-PAT: merges=(\d+) merged_states=(\d+)$", text, re.M)
    nested = re.search(r"^// EXPECT-NESTED: regions=(\d+)$", text, re.M)
    assert m and nested, f"{os.path.basename(driver)}: no EXPECT-PAT or EXPECT-NESTED line"
    decisions = {d: int(c) for d, c in re.findall(r"^// EXPECT-DECISION: (.*)=(\d+)$", text, re.M)}
    assert decisions, f"{os.path.basename(driver)}: no EXPECT-DECISION line"
    options = re.search(r"^// ARGS-PAT: (.*)$", text, re.M)
    return ((int(m.group(1)), int(m.group(2))), int(nested.group(1)), decisions,
            options.group(1).split() if options else [])


def expected_inc(driver):
    with open(driver) as f:
        m = re.search(r"^// EXPECT-INC: merges=(\d+) merged_states=(\d+) nested=(\d+)$", f.read(),
                      re.M)
    assert m, f"{os.path.basename(driver)}: no EXPECT-INC line"
    return (int(m.group(1)), int(m.group(2))), int(m.group(3))


def check(symq, driver, incremental=False):
    merges, nested, decisions, options = expected(driver)
    plain, plain_out = run(symq, driver, "none")
    options = ["--merge-decide=always", "--pat-fallback=fork", *options]
    if incremental:
        merges, nested = expected_inc(driver)
        stats, out = outdir.incremental_run(symq, driver, SCRATCH.name, options)
    else:
        stats, out = run(symq, driver, "pat", [*outdir.PLAIN, *options])
    m, pat = stats["merge"], stats["merge"]["pat"]
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    assert not m["regions_hash_invalid"], f"invalid pattern hash: {m['regions_hash_invalid']}"
    assert m["regions_nested"] == nested, \
        f"{m['regions_nested']} regions opened nested, expected {nested}"
    assert (pat["merges"], pat["merged_states"]) == merges, \
        f"pat merged {pat['merges']} times ({pat['merged_states']} states), expected " \
        f"{merges[0]} ({merges[1]})"
    assert incremental or m["decisions"] == decisions, \
        f"decisions {m['decisions']}, expected {decisions}"
    assert plain["exhausted"] and stats["exhausted"], "exploration incomplete"
    errors, plain_errors = outdir.errors(out), outdir.errors(plain_out)
    assert errors == plain_errors, f"errors differ: none {sorted(plain_errors)}, " \
        f"pat {sorted(errors)}"
    assert stats["completed_paths"] < plain["completed_paths"], \
        f"pat completed {stats['completed_paths']} paths, none {plain['completed_paths']}"
    covered = replayed_as_none(symq, out, plain_out, "pat")
    return (f"{merges[0]} merges by pattern of {merges[1]} states, {nested} nested regions; "
            f"paths {plain['completed_paths']} -> {stats['completed_paths']}; "
            f"errors {sorted(errors)}; lines {covered[0]}/{covered[1]}, "
            f"branches {covered[2]}/{covered[3]}")


def main():
    symq, results = sys.argv[1], []
    for driver in sorted(glob.glob(os.path.join(HERE, "nested", "*.c"))):
        name = os.path.basename(driver)
        outdir.check(name, lambda d=driver: check(symq, d), results)
        outdir.check(f"{name} (pat-inc)", lambda d=driver: check(symq, d, True), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
