#!/usr/bin/env python3
"""Paths ended by an assume that cannot hold (issue 22, docs/interpolation.md): a constant
__VERIFIER_assume(0) and an assumed condition the path condition makes unsatisfiable end the
path normally for interpolation, so they no longer leave the subtree above them without an
interpolant. assume_ends.c (N choices, two sides of each ending in such an assume) under
--interpolate --validate-interpolation: validation passes, verdict true, every state at a
choice but the first's subtree is subsumed (subsumed = N; when those ends blocked the
interpolants, the only subsumptions were at the final check and grew as 2^N - 1), and the
pruned exploration's forks grow linearly in N (equal steps) while the whole tree, explored
by validation, is as plain forking's. assume_core.c: such an end's interpolant keeps what
made the assume infeasible (a constraint above the choices), so the side where it can hold
is not subsumed and its bug is found (without the implication check it is pruned).

    assume_ends.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402  (its run, check and validated: one way to run a driver)
from interpolation import check, run, validated  # noqa: E402


def main():
    symq = sys.argv[1]
    pruned = {}
    for n in (2, 4, 6):
        s = validated(symq, "assume_ends", n)
        _, plain = run(symq, "assume_ends", n, [])
        check(f"N={n}: the plain run wrote its stats", plain is not None)
        if not s or not plain:
            continue
        check(f"N={n}: verdict true", s["verdict"] == "true (every path explored or subsumed)",
              s["verdict"])
        check(f"N={n}: subsumed = N", s["subsumed"] == n, s["subsumed"])
        check(f"N={n}: no node left uninterpolable",
              s["interpolation"]["uninterpolable"] == 0, s["interpolation"])
        check(f"N={n}: the whole tree is plain forking's", s["forks"] == plain["forks"],
              f"{s['forks']} vs {plain['forks']}")
        pruned[n] = s["forks"] - s["interpolation"]["validation_forks"]
    if len(pruned) == 3:
        steps = [pruned[4] - pruned[2], pruned[6] - pruned[4]]
        check("pruned forks grow linearly in N (equal steps)",
              steps[0] == steps[1] and 0 < steps[0] <= 6, f"pruned={pruned}")
    # the interpolant of an infeasible assume keeps what made it infeasible (y < 0, above
    # the choices): the side where the assume holds is not subsumed by it, its bug is found
    s = validated(symq, "assume_core", 4)
    _, plain = run(symq, "assume_core", 4, [])
    if s and plain:
        check("assume_core: verdict false at its reach_error, as many error paths as plain",
              s["verdict"].startswith("false (reach_error at ")
              and s["error_paths"] == plain["error_paths"] > 0, s["verdict"])
        check("assume_core: states were subsumed (by non-empty interpolants)",
              s["subsumed"] > 0 and s["interpolation"]["subsumption_queries"] > 0,
              s["interpolation"])
    # without the implication check (the fault validation tests catch) that bug is pruned:
    # the check above is the interpolant's work
    env = dict(os.environ, SYMQ_PRUNE_FAULT="skip-implication")
    out = os.path.join(interpolation.SCRATCH.name, "assume-fault")
    subprocess.run([symq, "run", "-DN=4", "--interpolate", f"--output-dir={out}",
                    os.path.join(interpolation.HERE, "assume_core.c")],
                   capture_output=True, text=True, timeout=300, env=env)
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
        faulty = json.load(f)
    check("assume_core, fault injected: the bug is pruned (fewer error paths)",
          plain is not None and faulty["error_paths"] < plain["error_paths"],
          faulty["error_paths"])
    print(f"{interpolation.passed} passed, {len(interpolation.failures)} failed")
    return 1 if interpolation.failures else 0


if __name__ == "__main__":
    sys.exit(main())
