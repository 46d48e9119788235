#!/usr/bin/env python3
"""A region does not give up on the solver effort its states have already cost (issue 26:
`--merge=cfg` on chained memspn, 13 s → 31 s once the effort give-up counted it).

drivers/memspn_twice.c (the 'a' prefix, then the 'b' run after it) at capacity 36 under
--merge=cfg: the first loop's states merge into a disjunction, and every fork of the second
loop asks Z3 about it (~300,000 effort a fork where the first loop's cost ~200), so by its
64th fork that loop's region has spent more than the budget of --max-region-states=256
(256 × 12,000, merge/region.c). But its tree's estimate has nothing left to explore beside
its dive: the effort is spent, and giving the region up only sends its waiting states on
forked under the same disjunction (Z3 effort 17.3 M → 27.7 M).

The run explores to the end, gives no region up and merges both exits of both loops' regions
(decisions: `merged (cfg)` 4 in 2 regions); it loses no test and reports none's errors.
Before the fix the second loop's region gave up on the effort (`merged (cfg)` 2). Counts,
not seconds.

    sunk.py SYMQ_BINARY

Prints one line and a final `N passed, N failed`; exit status 1 on a failure."""
import os
import sys
import tempfile

import outdir

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DRIVER = os.path.join(ROOT, "drivers", "memspn_twice.c")
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-sunk-")
CAPACITY, LIMIT = 36, 256
EFFORT_PER_STATE = 12000  # merge/region.c, MERGE_EFFORT_PER_STATE


def check(symq):
    size = f"-DCAPACITY={CAPACITY}"
    cfg, cfg_out = outdir.run_options(symq, DRIVER, SCRATCH.name,
                                      ["--merge=cfg", f"--max-region-states={LIMIT}", size])
    plain, plain_out = outdir.run_options(symq, DRIVER, SCRATCH.name, ["--merge=none", size])
    m = cfg["merge"]
    assert cfg["solver_effort"] > LIMIT * EFFORT_PER_STATE, \
        f"effort {cfg['solver_effort']} within the budget: the test no longer reaches it"
    assert m["decisions"] == {"merged (cfg)": 4} and m["regions_opened"] == 2, \
        f"decisions {m['decisions']} in {m['regions_opened']} regions"
    assert cfg["exhausted"] and plain["exhausted"], "exploration incomplete"
    assert cfg["tests_lost"] == 0, f"{cfg['tests_lost']} tests lost"
    assert outdir.errors(cfg_out) == outdir.errors(plain_out), "errors differ"
    return (f"both loops merged, effort {cfg['solver_effort']} "
            f"(budget {LIMIT * EFFORT_PER_STATE}); none {plain['completed_paths']} paths")


def main():
    results = []
    outdir.check(f"memspn_twice.c at {CAPACITY}", lambda: check(sys.argv[1]), results)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
