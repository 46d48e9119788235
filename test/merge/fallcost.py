#!/usr/bin/env python3
"""The run's evidence of what a CFG merge's disjunction costs later queries (issue 26, item 1:
"the measured query time of merged states against forked ones"): the interpreter tags the
queries of a state descending from a CFG fallback merge (qs_effort_split_tag), stats.json's
effort_split counts them (tagged_queries, tagged_effort), and every later fallback estimate
reports the ratio of their mean Z3 effort to the other plain queries' under --dump-tree
("measured CFG-merged query weight"), without weighing it (docs/merging.md "Merge
decisions": weighed into M it declined merges that pay on wget html_tags, base64 and APR
unescape_url). Each test/merge/fallcost/*.c states `EXPECT: cfg-merged-queries-measured`:
loops whose exits fall back to CFG merges, with queries asked in the merged states between.

- plain pat (--incremental-merge=off: the fallbacks at the exits) takes every fallback merge (the weight is not weighed), explores to the end and finds
  the driver's error; its merged states' queries are counted, at least 8 of them, and their
  effort is part of the plain queries' effort;
- the same run twice gives the same split (effort is Z3's deterministic count);
- the first fallback's estimate reports no weight (nothing measured yet), a later one a weight
  above 1 (a merged state's query costs more than the average one, and the merge is taken);
- under --merge=none (and pat with --pat-fallback=fork, at capacity 3 where it is cheap)
  nothing is tagged.

    fallcost.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import os
import re
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-fallcost-")


def check(symq, driver):
    outdir.expect_line(driver, r"cfg-merged-queries-measured")
    pat, pat_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=pat", *outdir.PLAIN, "--dump-tree"])
    again, _ = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=pat", *outdir.PLAIN])
    assert pat["exhausted"] and pat["error_paths"] >= 1, (pat["exhausted"], pat["error_paths"])
    decisions = pat["merge"]["decisions"]
    assert decisions and all(k.startswith("fallback cfg") for k in decisions), decisions
    split = pat["effort_split"]
    assert split.get("tagged_queries", 0) >= 8, split
    assert 0 < split["tagged_effort"] <= split["effort"] - split["forall_effort"], split
    assert again["effort_split"] == split, (again["effort_split"], split)
    weights = []
    for name in sorted(glob.glob(os.path.join(pat_out, "region*.group*.txt"))):
        with open(name) as f:
            weights += [int(w) for w in re.findall(r"measured CFG-merged query weight (\d+)/100",
                                                   f.read())]
    assert len(weights) == sum(decisions.values()), (weights, decisions)
    assert weights[0] == 0 and max(weights) > 100, weights
    for options in (["--merge=none"], ["--merge=pat", *outdir.PLAIN, "--pat-fallback=fork"]):
        other, _ = outdir.run_options(symq, driver, SCRATCH.name, [*options, "-DCAPACITY=3"])
        assert other["effort_split"]["tagged_queries"] == 0, (options, other["effort_split"])
    return (f"{split['tagged_queries']} of {split['queries']} queries in CFG-merged states, "
            f"{split['tagged_effort']} of {split['effort']} effort; weights {weights}; "
            f"{decisions}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "fallcost"), check)


if __name__ == "__main__":
    sys.exit(main())
