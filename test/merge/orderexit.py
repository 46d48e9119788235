#!/usr/bin/env python3
"""A loop's region opened plain because every join in its loop would be declined does not pause
its states at its exits (merge/region.c, "exits of a region whose joins are all declined"). Each
test/merge/orderexit/*.c calls such a loop and states `EXPECT: unpaused=U`: under pat
(incremental merging, the default; validated) the decision "not paused: its region opened plain,
every join in its loop declined" is taken U times, the exploration ends, no merge fails its
validation, every path that ended has its test, the errors are none's, and so are the completed
paths, tests and instructions (such a loop's states run as forking runs them); under plain PAT
(--incremental-merge=off) the rule never fires. Before the rule the region paused its states at
its exits until its loop was explored, then declined or CFG-merged them (escape.c: 25 paths in
1,352 instructions against none's 31 in 1,694).

    orderexit.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
UNPAUSED = "not paused: its region opened plain, every join in its loop declined"


def check(symq, driver):
    want = int(outdir.expect_line(driver, r"unpaused=(\d+)").group(1))
    with tempfile.TemporaryDirectory(prefix="symq-orderexit-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        pat, pat_out = outdir.run_mode(symq, driver, "pat", scratch)
        plain, _ = outdir.run_mode(symq, driver, "pat", scratch, outdir.PLAIN)
        m = pat["merge"]
        assert UNPAUSED not in plain["merge"]["decisions"], \
            f"fired under --incremental-merge=off: {plain['merge']['decisions']}"
        got = m["decisions"].get(UNPAUSED, 0)
        assert got == want, f"{got} not paused, want {want}: {m['decisions']}"
        assert pat["exhausted"] and none["exhausted"], "exploration incomplete"
        assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed"
        assert not outdir.quantified_problems(pat), outdir.quantified_problems(pat)
        outdir.tests_accounted(pat, pat_out)
        assert outdir.errors(pat_out) == outdir.errors(none_out), \
            f"errors {outdir.errors(pat_out)} against none's {outdir.errors(none_out)}"
        for key in ("completed_paths", "tests", "instructions"):
            assert pat[key] == none[key], f"{key}: pat {pat[key]}, none {none[key]}"
    return f"{got} not paused, {m['merges']} merges, {none['completed_paths']} paths as none"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "orderexit"), check)


if __name__ == "__main__":
    sys.exit(main())
