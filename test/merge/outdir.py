"""What the merge tests read from a symq output directory, and how they report a check."""
import glob
import json
import os
import re
import subprocess
import tempfile

# plain PAT (--merge=pat merges into the region's tree as it grows by default): for the tests
# that pin the paper's merging at the exits — its decisions, fallbacks, declines, give-ups
PLAIN = ["--incremental-merge=off"]


def expect_line(driver, fields):
    """The match of `fields` (a regular expression) as the whole of the driver's ` * EXPECT: `
    line; the test fails without one."""
    with open(driver) as f:
        m = re.search(r"^ \* EXPECT: " + fields + "$", f.read(), re.M)
    assert m, f"{os.path.basename(driver)}: no EXPECT line"
    return m


def errors(out):
    """The errors found, as a set of (kind, line): `testN.KIND.err` and its `Line:`."""
    found = set()
    for err in glob.glob(os.path.join(out, "*.err")):
        with open(err) as f:
            line = re.search(r"^Line: (\d+)$", f.read(), re.M)
        found.add((os.path.basename(err).split(".")[1], int(line.group(1)) if line else 0))
    return found


def validation(mode):
    """The options that check a merging run: every merge against its members, and under pat
    every answer of the quantified procedure against Z3 on the expanded query."""
    return ["--validate-merges"] + (["--validate-qsolver"] if mode == "pat" else [])


def quantified_problems(stats):
    """What the quantified procedure got wrong in a run, as a list of strings."""
    q = stats.get("quantified", {})
    return [f"{q['disagreements']} quantified answers disagree with Z3 on the expansion"] \
        if q.get("disagreements") else []


def tests_accounted(stats, out):
    """Every path that ended in out has its test, once: merged states that completed covered
    by their members' tests write none, each side of an incremental merge got one, and an
    error path has a test only where its error was new (one .err file each, as KLEE without
    --emit-all-errors)."""
    m = stats["merge"]
    assert stats["tests_lost"] == 0, f"{stats['tests_lost']} tests lost"
    error_tests = len(glob.glob(os.path.join(out, "*.err")))
    assert error_tests <= stats["error_paths"], \
        f"{error_tests} error tests for {stats['error_paths']} error paths"
    ended = stats["completed_paths"] + error_tests + stats["early_paths"]
    want = ended - m["covered_paths"] + m["merge_tests"]
    assert want == stats["tests"], \
        f"{ended} paths ended owing a test, {stats['tests']} tests written"


def check(name, fn, results):
    """Runs fn (no arguments) and prints `PASS name: <what it returned>` or `FAIL name: <why>`
    (an AssertionError, RuntimeError or time-out), appending True or False to results."""
    try:
        detail = fn()
        results.append(True)
        print(f"PASS {name}: {detail}", flush=True)
    except (AssertionError, RuntimeError, subprocess.TimeoutExpired) as e:
        results.append(False)
        print(f"FAIL {name}: {e}", flush=True)


def check_folder(symq, folder, check_one):
    """Runs check_one(symq, driver) on every driver folder/*.c (through check) and prints the
    tally; returns the exit status: 1 if a check failed or the folder holds no driver."""
    drivers = sorted(glob.glob(os.path.join(folder, "*.c")))
    results = []
    for driver in drivers:
        check(os.path.basename(driver), lambda d=driver: check_one(symq, d), results)
    return tally(results)


def tally(results):
    """Prints `N passed, N failed` for the checks in results (check's list) and returns the
    exit status: 1 if a check failed or none ran."""
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 1 if not all(results) or not results else 0


def unhurried(options):
    """options, with a long --solver-timeout unless they set one: a test's outcome must not
    depend on how loaded the machine is, and the default (10 s) can end a slow but decidable
    query's path early under load (merge/effort's hard hash questions did)."""
    given = any(o.startswith(("--solver-timeout", "--max-solver-time")) for o in options)
    return list(options) if given else ["--solver-timeout=120s", *options]


def run_options(symq, driver, scratch, options):
    """symq run with these options (and unhurried's timeout) into a new directory below
    scratch; returns (stats.json, the directory). A non-zero exit raises."""
    out = tempfile.mkdtemp(dir=scratch)
    os.rmdir(out)
    p = subprocess.run([symq, "run", "--no-progress", f"--output-dir={out}", *unhurried(options),
                        driver],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(options)}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f), out


def run_mode(symq, driver, mode, scratch, options=(), every=()):
    """Runs driver under --merge=mode into a new directory below scratch (validated, with
    options, under pat; with `every` under any mode); returns (stats.json, the directory). A
    non-zero exit raises."""
    extra = (validation(mode) + list(options) if mode == "pat" else []) + list(every)
    return run_options(symq, driver, scratch, [f"--merge={mode}", *extra])


def incremental_run(symq, driver, scratch, options=(), complete=True):
    """driver under --merge=pat --incremental-merge=on (validated, as run_mode's pat) with
    options; checks what every incremental test wants — no merge failed its validation, every
    path that ended has its one test and, if complete, the exploration ended — and returns
    (stats.json, the directory)."""
    stats, out = run_mode(symq, driver, "pat", scratch, ["--incremental-merge=on", *options])
    failures = stats["merge"]["validation_failures"]
    assert failures == 0, f"{failures} merges failed their validation"
    tests_accounted(stats, out)
    assert stats["exhausted"] or not complete, "exploration incomplete"
    return stats, out


def joins_declined(symq, driver, scratch, every, decision, what="joins"):
    """driver under pat-inc (incremental_run) and none with the options `every`: checks the
    errors are none's and returns (how often pat-inc took `decision`, the nodes it merged, a
    one-line summary)."""
    inc, inc_out = incremental_run(symq, driver, scratch, every)
    _, none_out = run_mode(symq, driver, "none", scratch, every=every)
    assert errors(inc_out) == errors(none_out), "errors differ from none's"
    declines = inc["merge"]["decisions"].get(decision, 0)
    merged = inc["merge"]["incremental"]["nodes_merged"]
    summary = f"{declines} {what} declined, {merged} nodes merged, {inc['completed_paths']} paths"
    return declines, merged, summary


def decision_runs(symq, driver, scratch, options=()):
    """The runs of a test whose driver states on an `EXPECT: decision="..."` line a decision
    --merge=pat (with options) must count: none, pat (validated) and pat under
    --merge-decide=always. Checks
    what every such test wants — the decision counted, no validation failure, the errors
    none's — and returns (the decision, none's stats, pat's stats, always's stats)."""
    want = expect_line(driver, r'decision="([^"]+)"').group(1)
    none, none_out = run_mode(symq, driver, "none", scratch)
    pat, pat_out = run_mode(symq, driver, "pat", scratch, options)
    always, _ = run_mode(symq, driver, "pat", scratch, [*options, "--merge-decide=always"])
    got = pat["merge"]["decisions"]
    assert want in got, f"decision {want!r} not taken: {got}"
    assert not pat["merge"]["validation_failures"], pat["merge"]
    assert errors(pat_out) == errors(none_out), \
        f"errors {errors(pat_out)} against none's {errors(none_out)}"
    return want, none, pat, always
