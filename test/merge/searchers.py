#!/usr/bin/env python3
"""Merging under every searcher (issue 26, item 4: dynamic state merging; docs/merging.md
"Merging with any searcher"). With --merge=pat (and cfg for one driver), --validate-merges
and --validate-qsolver:

1. memspn (drivers/memspn.c), chained memspn (drivers/memspn_twice.c) and an error in a
   merged loop (test/e2e/merge_error_in_loop.c) under bfs, random-path and nurs:covnew: at least one merge, the same merges, completed and error paths as under dfs,
   the same errors, and the same tests: as many, and the same set of paths they take (each
   test's contents mapped to its path through the driver, below). The bytes themselves are
   the solver's models, which depend on what it was asked before (its caches), so they may
   differ between searchers; the paths may not, the runs being exhaustive — except through
   a state merged over memspn_twice's second loop, whose test takes the span the model
   picks: there only the number of tests is compared. dfs
   fast-forwards nothing, the others do.
   And cfg on memspn.
2. searchers/compete.c, a region competing with 2^8 states outside any region, under plain PAT
   (--incremental-merge=off; an incremental region's members take turns breadth-first, and
   under bfs its tests end last): fast-forwarded
   (the default), its states run to the region's exits first, so the region's tests are
   written among the first fifth of the tests under bfs, random-state, random-path and
   nurs:covnew; with
   --merge-fast-forward=0 under bfs they are written last (what fast-forwarding changes).
   The same tests (count and paths) with and without, and as under dfs.
3. determinism: compete.c's random-path and covnew runs of check 2, run again, write the
   same tests in the same order and the same stats.

    searchers.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import glob
import json
import os
import subprocess
import sys
import tempfile

import outdir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e"))
import run_e2e  # noqa: E402  (parse_ktest)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-searchers-")
OTHERS = ["bfs", "random-path", "nurs:covnew"]  # the issue's; compete.c also random-state
FIRST_RUNS = {}  # (driver, search) → the first run of compete.c, for the determinism check
COMPETE = os.path.join(HERE, "searchers", "compete.c")


def objects(test):
    return dict(test)


def size(test):
    return int.from_bytes(objects(test)["n"], "little")


def span(s, c):
    k = 0
    while k < len(s) and s[k] == ord(c):
        k += 1
    return k


# A path through a loop over s[0..n): its iterations, and whether it left by the bound.
def memspn_path(t):
    n = size(t)
    a = span(objects(t)["s"][:n], "a")
    return (a, a == n)


def twice_path(t):
    n = size(t)
    s = objects(t)["s"][:n]
    a = span(s, "a")
    b = span(s[a:], "b")
    return (a, a == n, b, a + b == n)


def error_path(t):
    n = size(t)
    s = objects(t)["s"][:n]
    return ("fails at", s.index(b"z")) if b"z" in s else ("ends, n =", n)


def compete_path(t):
    o = objects(t)
    if int.from_bytes(o["side"], "little"):
        return ("busy",) + tuple(b & 1 for b in o["c"])
    return ("span",) + memspn_path(t)


# each driver with the path a test takes through it
DRIVERS = [(os.path.join(ROOT, "drivers", "memspn.c"), memspn_path),
           # chained memspn: a test of a state merged over the second loop takes whichever
           # span the solver's model picks, and the model depends on the solver's caches —
           # so only the number of tests is compared (seen differing after a change to
           # which stage answers a ∀ query)
           (os.path.join(ROOT, "drivers", "memspn_twice.c"), None),
           (os.path.join(ROOT, "test", "e2e", "merge_error_in_loop.c"), error_path)]


def run(symq, driver, mode, search, *extra):
    out = tempfile.mkdtemp(dir=SCRATCH.name)
    os.rmdir(out)
    options = outdir.unhurried([*outdir.validation(mode), *extra])
    p = subprocess.run([symq, "run", "--no-progress", f"--merge={mode}", f"--search={search}",
                        f"--output-dir={out}", *options, driver],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{os.path.basename(driver)} {mode} {search} {extra}: exit "
                           f"{p.returncode}: {p.stderr.strip()[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    problems = outdir.quantified_problems(stats)
    if problems or stats["merge"]["validation_failures"] or not stats["exhausted"]:
        raise RuntimeError(f"{os.path.basename(driver)} {search}: {problems} "
                           f"validation failures {stats['merge']['validation_failures']}, "
                           f"exhausted {stats['exhausted']}")
    return out, stats


def tests_in_order(out):
    """The tests' contents, in the order they were written (their numbers)."""
    return [run_e2e.parse_ktest(k) for k in sorted(glob.glob(os.path.join(out, "*.ktest")))]


def paths(out, path_of):
    """(the number of tests, the set of paths they take); only the number where path_of is
    None."""
    tests = tests_in_order(out)
    if path_of is None:
        return len(tests), []
    return len(tests), sorted(set(path_of(t) for t in tests))


def outcome(stats):
    return (stats["merge"]["merges"], stats["completed_paths"], stats["error_paths"])


def same_as_dfs(symq, driver, path_of, mode):
    out, ref = run(symq, driver, mode, "dfs")
    if ref["merge"]["merges"] == 0:
        raise AssertionError("dfs merged nothing: the check would say nothing")
    if ref["fast_forwards"] != 0:
        raise AssertionError(f"dfs fast-forwarded {ref['fast_forwards']} times")
    want_tests, want_errors = paths(out, path_of), outdir.errors(out)
    seen = []
    for search in OTHERS:
        o, st = run(symq, driver, mode, search)
        if outcome(st) != outcome(ref):
            raise AssertionError(f"{search}: (merges, paths, errors) {outcome(st)}, dfs "
                                 f"{outcome(ref)}")
        if st["fast_forwards"] == 0:
            raise AssertionError(f"{search}: no fast-forward")
        if outdir.errors(o) != want_errors:
            raise AssertionError(f"{search}: errors {outdir.errors(o)}, dfs {want_errors}")
        if paths(o, path_of) != want_tests:
            raise AssertionError(f"{search}: tests {paths(o, path_of)}, dfs {want_tests}")
        seen.append(f"{search} ff {st['fast_forwards']}")
    return f"merges {ref['merge']['merges']}, paths {ref['completed_paths']}+" \
           f"{ref['error_paths']}, {want_tests[0]} tests over {len(want_tests[1])} paths as " \
           "dfs; " + ", ".join(seen)


def region_positions(out):
    """Where the region's tests (those with the object `n`) come among all the tests, as
    fractions of the number of tests: (first, last)."""
    tests = tests_in_order(out)
    at = [k for k, t in enumerate(tests) if any(name == "n" for name, _ in t)]
    if not at:
        raise AssertionError("no test of the region's side")
    return at[0] / len(tests), at[-1] / len(tests), len(tests)


def compete(symq):
    out, ref = run(symq, COMPETE, "pat", "dfs", *outdir.PLAIN)
    want = paths(out, compete_path)
    notes = []
    for search in ["bfs", "random-state", "random-path", "nurs:covnew"]:
        o, st = FIRST_RUNS[search] = run(symq, COMPETE, "pat", search, *outdir.PLAIN)
        first, last, n = region_positions(o)
        if last > 0.2:
            raise AssertionError(f"{search}: the region's tests end at {last:.0%} of {n}")
        if paths(o, compete_path) != want or outcome(st) != outcome(ref):
            raise AssertionError(f"{search}: tests or outcome differ from dfs's")
        notes.append(f"{search} {first:.0%}-{last:.0%}")
    o, st = run(symq, COMPETE, "pat", "bfs", *outdir.PLAIN, "--merge-fast-forward=0")
    first, last, n = region_positions(o)
    if first < 0.8 or st["fast_forwards"] != 0:
        raise AssertionError(f"bfs without fast-forward: the region's tests start at "
                             f"{first:.0%} of {n} (ff {st['fast_forwards']})")
    if paths(o, compete_path) != want:
        raise AssertionError("bfs without fast-forward: the tests differ")
    notes.append(f"bfs without fast-forward {first:.0%}-{last:.0%}")
    return f"{want[0]} tests over {len(want[1])} paths; region's tests at " + ", ".join(notes)


def deterministic(symq):
    notes = []
    for search in ("random-path", "nurs:covnew"):
        a, sa = FIRST_RUNS.get(search) or run(symq, COMPETE, "pat", search, *outdir.PLAIN)
        b, sb = run(symq, COMPETE, "pat", search, *outdir.PLAIN)
        if tests_in_order(a) != tests_in_order(b):
            raise AssertionError(f"{search}: two runs wrote different tests or orders")
        keys = ("completed_paths", "error_paths", "tests", "instructions", "forks", "queries",
                "fast_forwards", "merge")
        if any(sa[k] != sb[k] for k in keys):
            raise AssertionError(f"{search}: two runs' stats differ")
        notes.append(f"{search} ff {sa['fast_forwards']}")
    return ", ".join(notes)


def main():
    symq = sys.argv[1]
    results = []
    for driver, path_of in DRIVERS:
        outdir.check(f"pat {os.path.basename(driver)} under every searcher",
                     lambda d=driver, p=path_of: same_as_dfs(symq, d, p, "pat"), results)
    # (not memspn_twice: a CFG-merged state's paths through the second loop have no one
    # count for the first)
    outdir.check("cfg memspn.c under every searcher",
                 lambda: same_as_dfs(symq, DRIVERS[0][0], memspn_path, "cfg"), results)
    outdir.check("a region competing with other states", lambda: compete(symq), results)
    outdir.check("determinism", lambda: deterministic(symq), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
