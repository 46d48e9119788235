#!/usr/bin/env python3
"""The test of a state merged away is written from the model asked when the state paused at
the exit (issue 26: on APR's fnmatch, 5,300 such tests asked at the release went to Z3, 7.0 M
of pat's 55.4 M Z3 effort). Each test/merge/pausemodel/*.c states `EXPECT:
merged-tests-from-pause`: a loop whose exit states (hundreds, their path conditions chained
through adjacent bytes) are merged the CFG way.

Plain pat (--incremental-merge=off) with --tests-per-merge=all and with =one explore to the end with the same paths and
merges; the former writes a test for each member merged away (hundreds), and its Z3 stage
answers no more than a tenth of them more queries than the latter's. Asked at the release,
every one went to Z3 (the counterexample cache holds 256 models and by then no longer the
member's).

    pausemodel.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-pausemodel-")


def check(symq, driver):
    outdir.expect_line(driver, r"merged-tests-from-pause")
    every, every_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=pat", *outdir.PLAIN, "--tests-per-merge=all"])
    one, _ = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=pat", *outdir.PLAIN, "--tests-per-merge=one"])
    assert every["exhausted"] and one["exhausted"], "exploration incomplete"
    m = every["merge"]
    assert m["merges"] >= 1 and m["merges"] == one["merge"]["merges"], (m, one["merge"])
    assert every["completed_paths"] == one["completed_paths"]
    member_tests = m["merge_tests"]
    assert member_tests >= 300, f"{member_tests} member tests"
    written = len(glob.glob(os.path.join(every_out, "*.ktest")))
    # a merged state that ends as it was merged writes no test: its members' cover its paths
    covered = m["covered_paths"]
    assert covered >= 1, m
    assert written == every["tests"] == member_tests + every["completed_paths"] - covered, (
        written, every["tests"], member_tests, covered)
    z3_every = every["queries_by_stage"]["z3"]["queries"]
    z3_one = one["queries_by_stage"]["z3"]["queries"]
    assert z3_every - z3_one <= member_tests // 10, (
        f"{member_tests} member tests took {z3_every - z3_one} more Z3 queries")
    return (f"{member_tests} member tests, Z3 queries {z3_every} against {z3_one} without them; "
            f"{m['decisions']}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "pausemodel"), check)


if __name__ == "__main__":
    sys.exit(main())
