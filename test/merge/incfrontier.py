#!/usr/bin/env python3
"""An incremental region whose merges do not keep its frontier down gives up as soon as its
queue is long (issue 26), not when --max-region-states states wait. Every run is --merge=pat
--incremental-merge=on (validated), DFS, two ways:

grows (incfrontier/escape.c, 60,000 instructions, the default --max-region-states of 4,096):
the loop merges a node per eight forks, yet its queue holds 0.43 of them; the region must give
up once, on that share ("its merges do not keep its frontier down"), lose no path (every path
that ended has its test) and complete at least half the paths none completes in the budget
(1,152 of 1,272) — without the rule (42f183a) the region held every state to the budget and
completed none.
exits (incfrontier/exits.c, 60,000 instructions, the default limit): a loop that joins a node
per six forks and may end at every byte, twice over; its queue holds a fifth of the forks, the
states at its exits as many again: the region must give up once on the frontier's share,
counted with its exits, and complete at least half the paths none completes — counting the
queue alone (e0633e3) the region held every state to the budget and completed none.
joins (incfrontier/classify.c, to the end, --max-region-states=256): a switch's sixteen cases
join after it; its queue passes 16 (256/16) at a check but holds a small share of the forks:
the region must not give up, merge nodes, and finish.

    incfrontier.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir
from incgiveup import FRONTIER, gave_up  # the same give-up, the same check of its run

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-incfrontier-")
OPTIONS = ["--search=dfs"]


def gives_up(symq, name):
    """incfrontier/<name>.c in 60,000 instructions: one give-up, on the frontier's share, and
    at least half of none's completed paths."""
    driver = os.path.join(HERE, "incfrontier", f"{name}.c")
    budget = ["--max-instructions=60000"]
    inc, _ = outdir.incremental_run(symq, driver, SCRATCH.name, [*OPTIONS, *budget],
                                    complete=False)
    assert gave_up(inc) == {FRONTIER: 1}, f"give-ups: {gave_up(inc)}"
    plain, _ = outdir.run_options(symq, driver, SCRATCH.name,
                                  ["--merge=none", "--search=dfs", *budget])
    assert 2 * inc["completed_paths"] >= plain["completed_paths"], \
        f"pat-inc completed {inc['completed_paths']} paths, none {plain['completed_paths']}"
    return f"gave up; paths none {plain['completed_paths']}, pat-inc {inc['completed_paths']}"


def joins(symq):
    driver = os.path.join(HERE, "incfrontier", "classify.c")
    inc, _ = outdir.incremental_run(symq, driver, SCRATCH.name,
                                    [*OPTIONS, "--max-region-states=256"])
    merge = inc["merge"]
    assert not gave_up(inc), f"give-ups: {gave_up(inc)}"
    assert merge["incremental"]["nodes_merged"] > 0, "nothing merged"
    return f"{merge['incremental']['nodes_merged']} nodes merged, no give-up"


def main():
    results = []
    outdir.check("grows", lambda: gives_up(sys.argv[1], "escape"), results)
    outdir.check("exits", lambda: gives_up(sys.argv[1], "exits"), results)
    outdir.check("joins", lambda: joins(sys.argv[1]), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
