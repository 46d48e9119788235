#!/usr/bin/env python3
"""A loop whose regions merge nothing stops opening them, exits declined early included
(merge/region.c, MERGE_BARREN_LIMIT). Each test/merge/barren/*.c states `EXPECT: paths=P
regions=R`: --merge=pat --incremental-merge=off (plain PAT, validated) completes P paths — none's — with none's errors, opens R
regions, each declined early (one "declined early" decision per region, no merge), and skips
the loop's later regions ("the loop's earlier regions merged nothing"). The old count of
barren regions left out the exits declined early, and a loop concretizing a value opened a
region at every call.

    barren.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
EARLY = "declined early: merged values read by later queries"
SKIPPED = "the loop's earlier regions merged nothing"


def check(symq, driver):
    m = outdir.expect_line(driver, r"paths=(\d+) regions=(\d+)")
    paths, regions = int(m.group(1)), int(m.group(2))
    with tempfile.TemporaryDirectory(prefix="symq-barren-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        pat, pat_out = outdir.run_mode(symq, driver, "pat", scratch, outdir.PLAIN)
    got = pat["merge"]
    want = {"none's paths": paths, "pat's paths": paths, "validation failures": 0, "merges": 0,
            "regions": regions, "decisions": {EARLY: regions}}
    seen = {"none's paths": none["completed_paths"], "pat's paths": pat["completed_paths"],
            "validation failures": got["validation_failures"], "merges": got["merges"],
            "regions": got["regions_opened"], "decisions": got["decisions"]}
    assert seen == want, f"got {seen}, want {want}"
    assert outdir.errors(pat_out) == outdir.errors(none_out), \
        f"errors {outdir.errors(pat_out)} against none's {outdir.errors(none_out)}"
    assert got["regions_skipped"].get(SKIPPED, 0) > 0, f"skipped {got['regions_skipped']}"
    return f"{paths} paths, {regions} regions, {got['regions_skipped'][SKIPPED]} skipped"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "barren"), check)


if __name__ == "__main__":
    sys.exit(main())
