#!/usr/bin/env python3
"""SV-COMP-style inputs under interpolation (issue 22; prune/slots.h, prune/rename.h). Each
__VERIFIER_nondet_int call allocates its own slot and makes a fresh input: the slot's
allocation no longer leaves the subtree without an interpolant (its address is never
observed), and states holding the same expressions over inputs each made on its own are
subsumed up to a renaming. Every run has --validate-interpolation on.

1. nondet_noise.c: N nondet choices change a value no check reads: verdict true, no node
   left uninterpolable, subsumed = N (each through a renaming), and the pruned exploration
   forks N + 1 times (linear; plain forking doubles per choice).
2. nondet_guard.c: the subsuming interpolant names the earlier state's own input, so the
   implication holds only with the later state's input renamed in: 5N - 1 nodes (more when
   σ(Ψ) is not applied), verdict true, one solver query per subsumption at least.
3. nondet_bug.c: the check reads the choices: verdict false at its reach_error, as many
   error paths as plain forking.

    nondet.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402
from interpolation import check, reach_line, run, validated  # noqa: E402


def main():
    symq = sys.argv[1]
    for n in (2, 4, 6, 8):
        s = validated(symq, "nondet_noise", n)
        if not s:
            continue
        i = s["interpolation"]
        check(f"nondet_noise N={n}: verdict true", s["verdict"].startswith("true ("), s["verdict"])
        check(f"nondet_noise N={n}: no node uninterpolable", i["uninterpolable"] == 0, i)
        check(f"nondet_noise N={n}: subsumed = renamed = N",
              s["subsumed"] == n and i["renamed"] == n, i)
        check(f"nondet_noise N={n}: pruned forks N + 1",
              s["forks"] - i["validation_forks"] == n + 1, s["forks"] - i["validation_forks"])
    pruned = {}
    for n in (2, 4, 6):
        s = validated(symq, "nondet_guard", n)
        if not s:
            continue
        i = s["interpolation"]
        pruned[n] = s["forks"] - i["validation_forks"]
        check(f"nondet_guard N={n}: verdict true", s["verdict"].startswith("true ("), s["verdict"])
        check(f"nondet_guard N={n}: 5N - 1 nodes, subsumed through queries",
              i["nodes"] == 5 * n - 1 and i["subsumption_queries"] >= s["subsumed"] > 0, i)
    if len(pruned) == 3:
        check("nondet_guard: pruned forks grow linearly (equal steps)",
              pruned[4] - pruned[2] == pruned[6] - pruned[4] > 0, pruned)
    s = validated(symq, "nondet_bug", 4)
    _, plain = run(symq, "nondet_bug", 4, [])
    if s and plain:
        check("nondet_bug: verdict false at its reach_error",
              s["verdict"].endswith(f"nondet_bug.c:{reach_line('nondet_bug')})")
              and s["verdict"].startswith("false (reach_error at "), s["verdict"])
        check("nondet_bug: as many error paths as plain forking",
              s["error_paths"] == plain["error_paths"] > 0,
              f"{s['error_paths']} vs {plain['error_paths']}")
    failures = interpolation.failures
    print(f"{interpolation.passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
