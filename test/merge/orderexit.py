#!/usr/bin/env python3
"""A loop's exit that an earlier region of the loop left forked does not hold its states in the
loop's later regions (merge/region.c, "exits declined before"). Each test/merge/orderexit/*.c
calls one loop more than once and states `EXPECT: arrival=A`: under pat (incremental merging,
the default; validated), whose regions of the loop open plain, the loop's later regions take
the decision "declined at arrival: an earlier region of its loop left this exit forked" A
times, the exploration ends, no merge fails its validation, every path that ended has its
test, the errors are none's, and so is the number of tests (one per path; a CFG-merged state
whose members part again ends as more than one path, so completed paths do not add up); under
plain PAT (--incremental-merge=off) the rule never fires. Before the rule every region paused
its states at that exit until its loop was explored, to decline them again at the release.

    orderexit.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
ARRIVAL = "declined at arrival: an earlier region of its loop left this exit forked"


def check(symq, driver):
    want = int(outdir.expect_line(driver, r"arrival=(\d+)").group(1))
    with tempfile.TemporaryDirectory(prefix="symq-orderexit-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        pat, pat_out = outdir.run_mode(symq, driver, "pat", scratch)
        plain, _ = outdir.run_mode(symq, driver, "pat", scratch, outdir.PLAIN)
        m = pat["merge"]
        assert ARRIVAL not in plain["merge"]["decisions"], \
            f"fired under --incremental-merge=off: {plain['merge']['decisions']}"
        got = m["decisions"].get(ARRIVAL, 0)
        assert got == want, f"{got} declined at arrival, want {want}: {m['decisions']}"
        assert pat["exhausted"] and none["exhausted"], "exploration incomplete"
        assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed"
        assert not outdir.quantified_problems(pat), outdir.quantified_problems(pat)
        outdir.tests_accounted(pat, pat_out)
        assert outdir.errors(pat_out) == outdir.errors(none_out), \
            f"errors {outdir.errors(pat_out)} against none's {outdir.errors(none_out)}"
        assert pat["tests"] == none["tests"], f"pat {pat['tests']} tests, none {none['tests']}"
    return f"{got} declined at arrival, {m['merges']} merges, {none['tests']} tests"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "orderexit"), check)


if __name__ == "__main__":
    sys.exit(main())
