#!/usr/bin/env python3
"""Pruning by interpolation (issue 22; prune/prune.h, docs/interpolation.md). Every run of
the mode has --validate-interpolation on, so each pruned subtree is explored anyway and an
error there fails the run ("symq: error: unsound subsumption …", exit 1); stats.json's
interpolation.validation_forks counts the forks made inside pruned subtrees, so
forks - validation_forks is what the pruned exploration forked.

1. noise_unread.c: N choices change a value no check reads, then a check on another input:
   verdict true, the pruned exploration's forks grow linearly in N (equal steps), every
   state at a choice but the first's subtree is subsumed (subsumed = N), while the whole
   tree (explored by validation) doubles per choice (2^(N+1) - 1 forks, as plain forking).
   Without validation the run forks exactly what the validated run's pruned part did.
   counter.c: N choices add 0 or 1 to a counter the assertion reads: N(N+1)/2 forks
   (quadratic under deletion interpolants, as the issue allows), verdict true.
2. noise_read.c: the check reads the noise: the bug is found (verdict false at its line),
   and no subsumption hides it (as many error paths as plain forking).
3. core_needed.c: the check reads an input constrained above the choices: a safe subtree's
   interpolant keeps that constraint (verdict false, as many error paths as plain forking).
4. ends_early.c: a path ends early (an external call): verdict unknown with that reason.
   Validation can fail: with SYMQ_PRUNE_FAULT=skip-implication (subsumption without the
   interpolant's check) core_needed.c's bug is pruned, and validation reports it, exit 1;
   wp_guard.c has no bug, but its pruned subtrees then have paths whose path condition does
   not imply the interpolant: validation reports one, exit 1 (without the fault it checks
   every validated path, and none is excluded).
5. --interpolate refuses other searchers (merging runs: merging.py),
   --validate-interpolation alone is refused, each with one line and exit status 2.

    interpolation.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-interpolation-")
MODE = ["--interpolate", "--validate-interpolation"]
failures = []
passed = 0


def run(symq, driver, n, options):
    out = os.path.join(SCRATCH.name, f"{driver}-{n}-{len(os.listdir(SCRATCH.name))}")
    p = subprocess.run([symq, "run", f"-DN={n}", *options, f"--output-dir={out}",
                        os.path.join(HERE, driver + ".c")],
                       capture_output=True, text=True, timeout=300)
    stats = None
    if os.path.exists(os.path.join(out, "stats.json")):
        with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
            stats = json.load(f)
    return p, stats


def check(name, ok, detail=""):
    global passed
    if ok:
        passed += 1
        print(f"ok   {name}")
    else:
        failures.append(name)
        print(f"FAIL {name}: {detail}")


def faulty(symq, driver, options, n=4):
    """A run of driver with the fault injected (SYMQ_PRUNE_FAULT=skip-implication: subsume
    without checking the interpolant, unsound on purpose): the finished process."""
    out = os.path.join(SCRATCH.name, f"fault-{driver}-{len(os.listdir(SCRATCH.name))}")
    env = dict(os.environ, SYMQ_PRUNE_FAULT="skip-implication")
    return subprocess.run([symq, "run", f"-DN={n}", *options, f"--output-dir={out}",
                           os.path.join(HERE, driver + ".c")],
                          capture_output=True, text=True, timeout=300, env=env)


def reach_line(driver):
    """The line of the driver's reach_error() call."""
    with open(os.path.join(HERE, driver + ".c"), encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if "reach_error();" in line:
                return number
    return 0


def validated(symq, driver, n, options=MODE):
    """A run under options (MODE and more) that must pass validation; returns its stats (or
    None)."""
    p, stats = run(symq, driver, n, options)
    lines = p.stdout.strip().split("\n")
    ok = (p.returncode == 0 and stats is not None
          and stats["interpolation"]["validation_failures"] == 0
          and lines[-1] == "symq: verdict: " + stats["verdict"])
    more = "".join(" " + o for o in options if o not in MODE)
    check(f"{driver} N={n}{more}: validation passes, the last line is the verdict", ok,
          f"rc={p.returncode} last={lines[-1]!r} stderr={p.stderr.strip()[-300:]!r}")
    return stats if ok else None


def main():
    symq = sys.argv[1]
    # 1. linear under interpolation, doubling without
    pruned, whole = {}, {}
    for n in (2, 4, 6, 8):
        s = validated(symq, "noise_unread", n)
        if not s:
            continue
        check(f"noise_unread N={n}: verdict true", s["verdict"].startswith("true ("), s["verdict"])
        check(f"noise_unread N={n}: subsumed = N", s["subsumed"] == n, s["subsumed"])
        pruned[n] = s["forks"] - s["interpolation"]["validation_forks"]
        whole[n] = s["forks"]
    if len(pruned) == 4:
        steps = [pruned[n + 2] - pruned[n] for n in (2, 4, 6)]
        check("noise_unread: pruned forks grow linearly (equal steps, at most 2 per choice)",
              len(set(steps)) == 1 and 0 < steps[0] <= 4, f"pruned={pruned}")
        check("noise_unread: the whole tree doubles per choice (2^(N+1) - 1 forks)",
              all(whole[n] == 2 ** (n + 1) - 1 for n in whole), f"whole={whole}")
        p, s = run(symq, "noise_unread", 8, ["--interpolate"])
        check("noise_unread N=8 without validation: the pruned exploration's forks",
              p.returncode == 0 and s is not None and s["forks"] == pruned[8]
              and s["completed_paths"] < 2 ** 8, f"rc={p.returncode} stats={s and s['forks']}")
    # 1b. a counter the assertion reads: at most quadratic under deletion
    counter = {}
    for n in (4, 6, 8):
        s = validated(symq, "counter", n)
        if s:
            counter[n] = s["forks"] - s["interpolation"]["validation_forks"]
            check(f"counter N={n}: verdict true", s["verdict"].startswith("true ("), s["verdict"])
    check("counter: pruned forks N(N+1)/2 (quadratic), the tree 2^(N+1) - 1",
          counter == {n: n * (n + 1) // 2 for n in (4, 6, 8)}, f"pruned={counter}")
    # 2, 3. the bug is found, and as often as plain forking finds it
    for driver in ("noise_read", "core_needed"):
        s = validated(symq, driver, 4)
        _, plain = run(symq, driver, 4, [])
        if s and plain:
            check(f"{driver}: verdict false at its reach_error",
                  s["verdict"].startswith("false (reach_error at ")
                  and s["verdict"].endswith(f"{driver}.c:{reach_line(driver)})"),
                  s["verdict"])
            check(f"{driver}: as many error paths as plain forking",
                  s["error_paths"] == plain["error_paths"] > 0,
                  f"{s['error_paths']} vs {plain['error_paths']}")
        p, s = run(symq, driver, 4, ["--interpolate"])
        check(f"{driver} without validation: still false",
              s is not None and s["verdict"].startswith("false (") and s["error_paths"] > 0,
              s and s["verdict"])
    # 4. a path that ends early leaves the verdict unknown
    s = validated(symq, "ends_early", 3)
    if s:
        check("ends_early: verdict unknown (the early path's reason)",
              s["verdict"] == "unknown (unsupported: external call external_function)",
              s["verdict"])
    # 4b. validation catches an unsound subsumption: with the fault injected (subsume
    # without checking the interpolant) a state whose subtree has the bug is pruned
    p = faulty(symq, "core_needed", MODE)
    err = [line for line in p.stderr.split("\n") if "unsound subsumption" in line]
    check("fault injected: validation reports the unsound subsumption, exit 1",
          p.returncode == 1 and err and err[0].startswith(
              "symq: error: unsound subsumption: a pruned subtree reaches reach_error at "),
          f"rc={p.returncode} stderr={p.stderr.strip()[-300:]!r}")
    # 4c. ... and without a bug to reach: wp_guard.c's pruned subtrees have paths whose path
    # condition does not imply the interpolant that (unchecked) subsumed them
    p = faulty(symq, "wp_guard", MODE)
    check("fault injected, no bug: validation reports a path the interpolant excludes, exit 1",
          p.returncode == 1 and "symq: error: unsound subsumption: a pruned subtree has a path "
          "its interpolant excludes, ending at " in p.stderr,
          f"rc={p.returncode} stderr={p.stderr.strip()[-300:]!r}")
    s = validated(symq, "wp_guard", 4)
    if s:
        check("wp_guard without the fault: every validated path checked, none excluded",
              s["interpolation"]["validation_checks"] > 0, s["interpolation"])
    # 5. refusals
    for options, message in ((["--interpolate", "--search=bfs"], "--search=dfs only"),
                             (["--validate-interpolation"], "needs --interpolate")):
        p, _ = run(symq, "noise_unread", 2, options)
        err = p.stderr.strip().split("\n")[-1]
        check(f"refused: {' '.join(options)}",
              p.returncode == 2 and err.startswith("symq: error: ") and message in err,
              f"rc={p.returncode} stderr={err!r}")
    print(f"{passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
