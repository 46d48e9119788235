#!/usr/bin/env python3
"""A region with an incremental part gives up (issue 26: pat-inc safe enough to be pat's
default). test/merge/incgiveup/escape.c is a loop whose incremental region cannot join its
sides; every run is --merge=pat --incremental-merge=on (validated), DFS,
--max-region-states=256 unless said, four ways:

stall (as it is, 60,000 instructions): none and pat-inc run the budget; pat-inc must give the
region up once on the count of its waiting states (for their turn and at the exits), lose no
path (every path that ended has its test), and complete at least half the paths none
completes — without the give-up the region holds every state until the budget runs out and
pat-inc completes none.
exact (-DCAP=8, to the end): the region gives up before merging anything, so pat-inc explores
exactly none's paths (completed paths, tests, instructions and errors equal).
merged (-DCAP=8 -DSPACES, to the end): the region merges nodes incrementally, then gives up —
on its frontier's share (its queue and exits hold 3/8 of its forks: the joined spaces do not
keep down what the escapes double), before the count; every merge validates and every path
that ended has its one test.
effort (incgiveup/hash.c, 2,000 instructions, --max-region-states=128): each fork costs Z3
far more than a byte comparison; the region gives up on the effort its queue would cost,
before the count, and pat-inc completes at least half the paths none completes (none without
the give-up).

    incgiveup.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-incgiveup-")
COUNT = "gave up: more states waiting for their turn and at the exits than --max-region-states"
EFFORT = "gave up: the region's states would cost more solver effort than its budget"
FRONTIER = ("gave up: its merges do not keep its frontier down (3/8 of its forks wait, for "
            "their turn or at the exits)")
OPTIONS = ["--search=dfs"]


def gave_up(stats):
    return {k: v for k, v in stats["merge"]["decisions"].items() if k.startswith("gave up")}


ESCAPE = os.path.join(HERE, "incgiveup", "escape.c")
HASH = os.path.join(HERE, "incgiveup", "hash.c")
# check: (driver, its options, the give-up it must count, the instruction budget or 0)
CHECKS = {"stall": (ESCAPE, ["--max-region-states=256"], COUNT, 60000),
          "exact": (ESCAPE, ["--max-region-states=256", "-DCAP=8"], COUNT, 0),
          "merged": (ESCAPE, ["--max-region-states=256", "-DCAP=8", "-DSPACES"], FRONTIER, 0),
          "effort": (HASH, ["--max-region-states=128"], EFFORT, 2000)}


def check(symq, kind):
    driver, given, reason, budget = CHECKS[kind]
    options = OPTIONS + given + ([f"--max-instructions={budget}"] if budget else [])
    inc, inc_out = outdir.incremental_run(symq, driver, SCRATCH.name, options,
                                          complete=not budget)
    merge = inc["merge"]
    assert gave_up(inc) == {reason: 1}, f"give-ups: {gave_up(inc)}"
    if kind == "merged":
        assert merge["incremental"]["nodes_merged"] > 0, "nothing merged before the give-up"
        return (f"{merge['incremental']['nodes_merged']} nodes merged, then gave up; "
                f"{inc['completed_paths']} paths, {inc['tests']} tests")
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none", *options])
    outdir.tests_accounted(plain, plain_out)
    if budget:
        assert inc["completed_paths"] > 0 and \
            2 * inc["completed_paths"] >= plain["completed_paths"], \
            f"pat-inc completed {inc['completed_paths']} paths, none {plain['completed_paths']}"
        return (f"gave up; paths none {plain['completed_paths']}, pat-inc "
                f"{inc['completed_paths']} in {budget} instructions")
    assert plain["exhausted"], "none's exploration incomplete"
    assert merge["incremental"]["nodes_merged"] == 0, "merged before the give-up"
    for key in ("completed_paths", "error_paths", "tests", "instructions"):
        assert inc[key] == plain[key], f"{key}: pat-inc {inc[key]}, none {plain[key]}"
    assert outdir.errors(inc_out) == outdir.errors(plain_out), "errors differ"
    return f"gave up; {inc['completed_paths']} paths and tests, as none"


def main():
    results = []
    for kind in CHECKS:
        outdir.check(kind, lambda k=kind: check(sys.argv[1], k), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
