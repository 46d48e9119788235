#!/usr/bin/env python3
"""Weakest-precondition interpolants (--interpolate=wp; prune/wp.h, docs/interpolation.md),
every run with --validate-interpolation on.

1. wp_guard.c: each of N choices assumes a bound on y stronger than any before, then a
   check needs only y != 3. wp: the check pushed back over any bound is true, so every state
   at a choice but the first's is subsumed — N forks, N subsumed, N + 1 nodes; deletion
   keeps the first path's bounds and forks 2N - 1 times (more nodes, more queries).
2. The interpolation.py shapes under wp: noise_unread and nondet_noise are linear (N + 1
   forks, subsumed = N); noise_read and core_needed find their bug as often as plain
   forking; with the fault injected (subsumption without the implication) validation
   reports the bug the pruning hid.
3. counter.c (N choices each adding 0 or 1 to x, then assert(x <= N)): linear under wp —
   N forks at N = 4, 8, 12 (equal steps), one state subsumed per choice, the counter given
   a variable at each node (prune/data.h: the interpolant is over x, x <= i at choice i, so
   states with other counts are subsumed) — and at most quadratic under deletion (its
   interpolants keep the count's value: N(N+1)/2). counter_bug.c (two counters, a check
   failing on some paths): wp finds as many failing paths as plain forking; with the fault
   injected validation reports it.

    wp.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import interpolation  # noqa: E402
from interpolation import check, faulty, reach_line, run  # noqa: E402

WP = ["--interpolate=wp", "--validate-interpolation"]
DELETION = ["--interpolate=deletion", "--validate-interpolation"]


def validated(symq, driver, n, options):
    p, s = run(symq, driver, n, options)
    ok = (p.returncode == 0 and s is not None
          and s["interpolation"]["validation_failures"] == 0
          and p.stdout.strip().split("\n")[-1] == "symq: verdict: " + s["verdict"])
    check(f"{driver} N={n} {options[0]}: validation passes, the verdict line", ok,
          f"rc={p.returncode} stderr={p.stderr.strip()[-300:]!r}")
    return s if ok else None


def pruned(s):
    return s["forks"] - s["interpolation"]["validation_forks"]


def main():
    symq = sys.argv[1]
    for n in (2, 4, 6, 8):
        w = validated(symq, "wp_guard", n, WP)
        d = validated(symq, "wp_guard", n, DELETION)
        if not w or not d:
            continue
        check(f"wp_guard N={n}: verdict true under both", w["verdict"].startswith("true (")
              and d["verdict"].startswith("true ("), (w["verdict"], d["verdict"]))
        check(f"wp_guard N={n}: wp forks N, subsumed N, N + 1 nodes",
              pruned(w) == n and w["subsumed"] == n and w["interpolation"]["nodes"] == n + 1,
              (pruned(w), w["subsumed"], w["interpolation"]["nodes"]))
        check(f"wp_guard N={n}: deletion forks 2N - 1", pruned(d) == 2 * n - 1, pruned(d))
    for driver, want in (("noise_unread", lambda n: n + 1), ("nondet_noise", lambda n: n + 1)):
        for n in (4, 8):
            s = validated(symq, driver, n, WP)
            if s:
                check(f"{driver} N={n} wp: verdict true, {want(n)} forks",
                      s["verdict"].startswith("true (") and pruned(s) == want(n),
                      (s["verdict"], pruned(s)))
    for driver in ("noise_read", "core_needed"):
        s = validated(symq, driver, 4, WP)
        _, plain = run(symq, driver, 4, [])
        if s and plain:
            check(f"{driver} wp: false at its reach_error, as many error paths as plain",
                  s["verdict"].startswith("false (reach_error at ")
                  and s["verdict"].endswith(f"{driver}.c:{reach_line(driver)})")
                  and s["error_paths"] == plain["error_paths"] > 0,
                  (s["verdict"], s["error_paths"], plain["error_paths"]))
    forks = {}
    for n in (4, 8, 12):
        w = validated(symq, "counter", n, WP)
        d = validated(symq, "counter", n, DELETION)
        if not w or not d:
            continue
        forks[n] = pruned(w)
        check(f"counter N={n}: verdict true under wp and deletion",
              w["verdict"].startswith("true (") and d["verdict"].startswith("true ("),
              (w["verdict"], d["verdict"]))
        check(f"counter N={n} wp: one subsumed state per choice, the counter a variable",
              w["subsumed"] == n and w["interpolation"]["variables"] >= 1,
              (w["subsumed"], w["interpolation"]["variables"]))
        check(f"counter N={n} deletion: at most quadratic (N(N+1)/2 forks)",
              pruned(d) <= n * (n + 1) // 2, pruned(d))
    check("counter wp: forks linear in N (N forks at 4, 8, 12: equal steps)",
          forks == {4: 4, 8: 8, 12: 12}, forks)
    bug = validated(symq, "counter_bug", 6, WP)
    _, plain = run(symq, "counter_bug", 6, [])
    if bug and plain:
        check("counter_bug wp: false, as many failing paths as plain forking",
              bug["verdict"].startswith("false (assert at ") and bug["subsumed"] > 0
              and bug["error_paths"] == plain["error_paths"] > 0,
              (bug["verdict"], bug["subsumed"], bug["error_paths"], plain["error_paths"]))
    p = faulty(symq, "counter_bug", WP, n=6)
    check("counter_bug wp, fault injected: validation reports the unsound subsumption",
          p.returncode == 1 and "symq: error: unsound subsumption: a pruned subtree " in p.stderr,
          f"rc={p.returncode} {p.stderr.strip()[-200:]!r}")
    p = faulty(symq, "core_needed", WP)
    check("wp, fault injected: validation reports the unsound subsumption, exit 1",
          p.returncode == 1 and "symq: error: unsound subsumption: a pruned subtree reaches "
          "reach_error at " in p.stderr, f"rc={p.returncode}")
    print(f"{interpolation.passed} passed, {len(interpolation.failures)} failed")
    return 1 if interpolation.failures else 0


if __name__ == "__main__":
    sys.exit(main())
