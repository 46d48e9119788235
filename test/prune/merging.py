#!/usr/bin/env python3
"""Interpolation with merging (--interpolate with --merge=pat|cfg; issue 22 item 5,
docs/interpolation.md "With merging"), every run with --validate-interpolation on but the
few that check what the pruned exploration alone does.

1. noise_unread.c (interpolation.py's shape: N choices no check reads, then a check on
   another input) under pat and cfg at N = 4, 8: verdict true, subsumed = N, the pruned
   exploration's forks grow linearly (equal steps); at N = 12 (without validation, whose
   whole tree takes seconds) the forks are the line's.
2. merged_then_noise.c: a loop over a buffer of symbolic size, merged (stats.json's
   merge.merges > 0), then N choices and checks on the merged value and another input:
   proved true; the states at the choices, below the merged state, are subsumed (their
   merged path condition, with its disjunction or ∀, implies the interpolant) — pruned
   forks linear in N (N = 2, 4, 6; 12 without validation).
3. noise_then_merged.c: N choices, then the merged loop, then a check on the merged value:
   the merged state is counted at the node at the loop's entry
   (interpolation.merged_joined > 0), which gets its interpolant from the merged subtree;
   every state there but the first is subsumed (subsumed = N) — linear in N (N = 2, 3, 4;
   12 without validation).
4. merged_bug.c: the bug is reachable only through the merged state, and only on the side
   explored second; the first side is safe only because of a conjunct above the loop that
   the check in the merged state needs. Verdict false at its reach_error under both
   modes, with and without validation (a merged state's interpolant that did not reach the
   node above its constituents would hide it).
5. --interpolate=wp: shapes 2 and 4 under pat.
6. Fault injection (SYMQ_PRUNE_FAULT=skip-implication: subsumption without the
   implication) on merged_bug.c under pat: validation reports the bug the pruning hid, exit 1.
7. --incremental-merge: its merged states restart from snapshots, so each begins a tree of
   its own (merged_roots = merges, none joined): merged_then_noise is proved with the
   forks it has without it (its subsumptions are below the merged state), merged_bug false.

    merging.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402  (its run, check and validated: one way to run a driver)
from interpolation import HERE, MODE, check, faulty, reach_line, run, validated  # noqa: E402

MERGES = ("pat", "cfg")


def pruned(s):
    return s["forks"] - s["interpolation"]["validation_forks"]


def merged(s):
    return s["merge"]["merges"] > 0


def linear(symq, driver, merge, ns, subsumed_is_n):
    """Validated runs at each N: verdict true, a merge when the driver has one, and the pruned
    forks of equal steps; then N = 12 without validation (its whole tree would take seconds):
    the line's forks, verdict true."""
    forks = {}
    for n in ns:
        s = validated(symq, driver, n, MODE + [f"--merge={merge}"])
        if not s:
            return None
        check(f"{driver} {merge} N={n}: verdict true", s["verdict"].startswith("true ("),
              s["verdict"])
        if subsumed_is_n:
            check(f"{driver} {merge} N={n}: subsumed = N", s["subsumed"] == n, s["subsumed"])
        if driver != "noise_unread":
            check(f"{driver} {merge} N={n}: merged, validated paths checked against their "
                  "interpolant (over merged path conditions)",
                  merged(s) and s["interpolation"]["validation_checks"] > 0,
                  (s["merge"]["decisions"], s["interpolation"]["validation_checks"]))
        forks[n] = pruned(s)
    steps = {forks[b] - forks[a] for a, b in zip(ns, ns[1:])}
    check(f"{driver} {merge}: pruned forks grow linearly (equal steps, at most 2 per choice)",
          len(steps) == 1 and 0 < min(steps) <= 2 * (ns[1] - ns[0]), f"pruned={forks}")
    if len(steps) != 1:
        return None
    want = forks[ns[-1]] + (12 - ns[-1]) * min(steps) // (ns[1] - ns[0])
    p, s = run(symq, driver, 12, ["--interpolate", f"--merge={merge}"])
    check(f"{driver} {merge} N=12 without validation: the line's forks, true",
          p.returncode == 0 and s is not None and s["forks"] == want
          and s["verdict"].startswith("true ("),
          f"rc={p.returncode} forks={s and s['forks']} want={want}")
    return s


def main():
    symq = sys.argv[1]
    for merge in MERGES:
        # 1. the noise chain: no loop of a symbolic size, merging changes nothing
        linear(symq, "noise_unread", merge, (4, 8), True)
        # 2, 3. a merged loop before and after the choices
        linear(symq, "merged_then_noise", merge, (2, 4, 6), False)
        s = linear(symq, "noise_then_merged", merge, (2, 3, 4), True)
        if s:
            check(f"noise_then_merged {merge}: the merged state joined the node above its loop",
                  s["interpolation"]["merged_joined"] > 0, s["interpolation"])
        # 4. the bug only a merged state reaches
        want = f"false (reach_error at {os.path.join(HERE, 'merged_bug.c')}:"
        want += f"{reach_line('merged_bug')})"
        s = validated(symq, "merged_bug", 4, MODE + [f"--merge={merge}"])
        if s:
            check(f"merged_bug {merge}: verdict false at its reach_error, merged",
                  s["verdict"] == want and merged(s), (s["verdict"], s["merge"]["decisions"]))
        p, s = run(symq, "merged_bug", 4, ["--interpolate", f"--merge={merge}"])
        check(f"merged_bug {merge} without validation: still false",
              s is not None and s["verdict"] == want and s["error_paths"] > 0,
              s and s["verdict"])
    # 5. weakest-precondition interpolants
    wp = ["--interpolate=wp", "--validate-interpolation", "--merge=pat"]
    s = validated(symq, "merged_then_noise", 6, wp)
    if s:
        check("merged_then_noise wp: verdict true, merged, subsumed",
              s["verdict"].startswith("true (") and merged(s) and s["subsumed"] > 0,
              (s["verdict"], s["subsumed"]))
    s = validated(symq, "merged_bug", 4, wp)
    if s:
        check("merged_bug wp: verdict false", s["verdict"].startswith("false (reach_error"),
              s["verdict"])
    # 6. validation catches an unsound subsumption with merging too
    p = faulty(symq, "merged_bug", MODE + ["--merge=pat"])
    check("fault injected under pat: validation reports the unsound subsumption, exit 1",
          p.returncode == 1 and "symq: error: unsound subsumption: a pruned subtree reaches "
          "reach_error at " in p.stderr, f"rc={p.returncode} stderr={p.stderr.strip()[-300:]!r}")
    # 7. incremental merging: merged states are roots
    plain = validated(symq, "merged_then_noise", 4, MODE + ["--merge=pat"])
    s = validated(symq, "merged_then_noise", 4, MODE + ["--merge=pat", "--incremental-merge"])
    if s and plain:
        i = s["interpolation"]
        check("merged_then_noise --incremental-merge: true, every merged state a root, the "
              "same pruned forks", s["verdict"].startswith("true (") and merged(s)
              and i["merged_roots"] == s["merge"]["merges"] and i["merged_joined"] == 0
              and pruned(s) == pruned(plain), (s["verdict"], i, pruned(s), pruned(plain)))
    s = validated(symq, "merged_bug", 4, MODE + ["--merge=cfg", "--incremental-merge"])
    if s:
        check("merged_bug --incremental-merge: verdict false", s["verdict"] == want, s["verdict"])
    failures = interpolation.failures
    print(f"{interpolation.passed} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
