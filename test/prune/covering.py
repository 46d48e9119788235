#!/usr/bin/env python3
"""Covering by an ancestor (prune/prune.h, docs/interpolation.md "Loops: covering"): under
--interpolate a state at a symbolic branch whose states are among those of an ancestor node
at the same point (snapshot matched up to σ, its path condition implying σ of the
ancestor's) ends, counted `covered`, and its ancestors get no interpolant.

1. locks_loop.c (the locks shape in a `while (1)` loop, reach_error unreachable): true under
   deletion and wp with 2^N forks and 2^N covered states at N = 3, 4, 5; forking does not
   finish (unknown at its time limit). With --validate-interpolation the covered subtrees
   are explored anyway (they never end: the run stops at its time limit) and no unsound
   subsumption is reported.
2. loop_bug.c (a bug needing two rounds of the loop): false under both, at its reach_error;
   validation (which explores covered subtrees first, depth first, so it stops at its time
   limit before the bug) reports nothing. With the fault injected (SYMQ_PRUNE_FAULT=skip-implication:
   cover without the path-condition implication) wp covers the state whose `seen` differs
   and hides the bug — the implication is what keeps covering sound here.
3. loop_last.c (the previous round's nondet value kept; the bug needs 7 then 8): false under
   both — covering maps the ancestor's older input to the state's, and only where both are
   unconstrained.
4. loop_count.c (a counter the loop increments): nothing is covered under either.

    covering.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402
from interpolation import HERE, SCRATCH, check, reach_line, run  # noqa: E402

MODES = (["--interpolate=deletion"], ["--interpolate=wp"])


def validated(symq, driver, n, mode):
    """A run with --validate-interpolation stopped at 2 s (covered subtrees are loops: it
    never finishes): no unsound subsumption, and no verdict true."""
    p, s = run(symq, driver, n, mode + ["--validate-interpolation", "--max-time=2"])
    check(f"{driver} N={n} {mode[0]} validated: no unsound subsumption",
          p.returncode == 0 and s is not None and s["interpolation"]["validation_failures"] == 0
          and not s["verdict"].startswith("true ("),
          f"rc={p.returncode} {p.stderr.strip()[-200:]!r}")


def main():
    symq = sys.argv[1]
    for n in (3, 4, 5):
        for mode in MODES:
            _, s = run(symq, "locks_loop", n, mode + ["--max-time=60"])
            ok = s is not None
            check(f"locks_loop N={n} {mode[0]}: true, 2^N forks, 2^N covered",
                  ok and s["verdict"].startswith("true (") and s["forks"] == 2 ** n
                  and s["interpolation"]["covered"] == 2 ** n,
                  s and (s["verdict"], s["forks"], s["interpolation"]["covered"]))
    _, plain = run(symq, "locks_loop", 3, ["--max-time=2"])
    check("locks_loop N=3 forking: unknown at its time limit",
          plain is not None and plain["verdict"].startswith("unknown ("),
          plain and plain["verdict"])
    for mode in MODES:
        validated(symq, "locks_loop", 3, mode)
        for driver in ("loop_bug", "loop_last"):
            p, s = run(symq, driver, 4, mode + ["--max-time=10"])
            check(f"{driver} {mode[0]}: false at its reach_error",
                  p.returncode == 0 and s is not None
                  and s["verdict"] == f"false (reach_error at {HERE}/{driver}.c:"
                                      f"{reach_line(driver)})",
                  f"rc={p.returncode} {s and s['verdict']}")
        validated(symq, "loop_bug", 4, mode)
        _, s = run(symq, "loop_count", 4, mode + ["--max-time=2"])
        check(f"loop_count {mode[0]}: nothing covered", s is not None
              and s["interpolation"]["covered"] == 0 and not s["verdict"].startswith("true ("),
              s and (s["interpolation"]["covered"], s["verdict"]))
    out = os.path.join(SCRATCH.name, "fault-loop_bug")
    p = subprocess.run([symq, "run", "--interpolate=wp", "--max-time=10", f"--output-dir={out}",
                        os.path.join(HERE, "loop_bug.c")], capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, SYMQ_PRUNE_FAULT="skip-implication"))
    check("loop_bug wp, fault injected: the bug is hidden, verdict true (the implication is "
          "needed)", "symq: verdict: true (" in p.stdout, p.stdout.strip()[-200:])
    print(f"{interpolation.passed} passed, {len(interpolation.failures)} failed")
    return 1 if interpolation.failures else 0


if __name__ == "__main__":
    sys.exit(main())
