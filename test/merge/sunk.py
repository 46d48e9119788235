#!/usr/bin/env python3
"""A region does not give up on the solver effort its states have already cost (issue 26:
`--merge=cfg` on chained memspn, 13 s → 31 s once the effort give-up counted it). Each
test/merge/sunk/*.c states on an `EXPECT:` line `max-region-states=N`: a loop whose forks
cost so much effort that the run spends more than N × 12,000 (the region's budget,
merge/region.c) but whose tree, estimated, has no sibling left unrun.

Under --merge=cfg and --max-region-states=N the run explores to the end, gives no region up
and merges both exits of both loops' regions (decisions: `merged (cfg)` 4 in 2 regions); it
loses no test and reports none's errors. Before the fix the second loop's region gave up on
the effort and its states went on forked (`merged (cfg)` 2). Counts, not seconds.

    sunk.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-sunk-")
EFFORT_PER_STATE = 12000  # merge/region.c, MERGE_EFFORT_PER_STATE


def check(symq, driver):
    limit = int(outdir.expect_line(driver, r"max-region-states=(\d+)").group(1))
    cfg, cfg_out = outdir.run_options(symq, driver, SCRATCH.name,
                                      ["--merge=cfg", f"--max-region-states={limit}"])
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none"])
    m = cfg["merge"]
    assert cfg["solver_effort"] > limit * EFFORT_PER_STATE, \
        f"effort {cfg['solver_effort']} within the budget: the test no longer reaches it"
    assert m["decisions"] == {"merged (cfg)": 4} and m["regions_opened"] == 2, \
        f"decisions {m['decisions']} in {m['regions_opened']} regions"
    assert cfg["exhausted"] and plain["exhausted"], "exploration incomplete"
    assert cfg["tests_lost"] == 0, f"{cfg['tests_lost']} tests lost"
    assert outdir.errors(cfg_out) == outdir.errors(plain_out), "errors differ"
    return (f"both loops merged, effort {cfg['solver_effort']} "
            f"(budget {limit * EFFORT_PER_STATE}); none {plain['completed_paths']} paths")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "sunk"), check)


if __name__ == "__main__":
    sys.exit(main())
