#!/usr/bin/env python3
"""A loop's region is opened when its branch forks, not by asking the solver first (issue 26,
busybox: merge_at_branch asked whether both sides of every loop branch on a size were feasible
before the interpreter asked the same two questions to branch, and the repeats reached Z3 —
on busybox's sleep_duration 45% more solver effort than forking where nothing merged). Each
test/merge/openask/*.c states `EXPECT: paths=P regions=R`: --merge=pat (validated) completes
P paths and opens R regions with no merge failing validation, and finds --merge=none's errors.
Where no region opens (every trip's branch has one feasible side) pat must ask exactly the
queries none asks and spend the same solver effort: the old check asked more.

    openask.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    m = outdir.expect_line(driver, r"paths=(\d+) regions=(\d+)")
    paths, regions = int(m.group(1)), int(m.group(2))
    with tempfile.TemporaryDirectory(prefix="symq-openask-") as scratch:
        none, none_out = outdir.run_options(symq, driver, scratch, ["--merge=none"])
        pat, pat_out = outdir.run_options(symq, driver, scratch,
                                          ["--merge=pat", "--validate-merges"])
        plain, _ = outdir.run_options(symq, driver, scratch, ["--merge=pat"])
    got = pat["merge"]
    assert got["validation_failures"] == 0, f"{got['validation_failures']} merges failed"
    assert pat["completed_paths"] == paths, f"pat completed {pat['completed_paths']} paths"
    assert got["regions_opened"] == regions, f"pat opened {got['regions_opened']} regions"
    assert outdir.errors(pat_out) == outdir.errors(none_out), \
        f"errors {outdir.errors(pat_out)} against none's {outdir.errors(none_out)}"
    if regions == 0:
        assert (plain["queries"], plain["solver_effort"]) == \
            (none["queries"], none["solver_effort"]), \
            f"pat asked {plain['queries']} queries (effort {plain['solver_effort']}), " \
            f"none {none['queries']} ({none['solver_effort']})"
    return f"{paths} paths, {regions} regions; queries pat {plain['queries']}, " \
           f"none {none['queries']}"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "openask"), check)


if __name__ == "__main__":
    sys.exit(main())
