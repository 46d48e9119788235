#!/usr/bin/env python3
"""Under --incremental-merge, a region that joined sides inside an innermost loop merged, even
where its exits merge nothing, and its loop keeps opening regions (merge/region.c,
joined_innermost; docs/merging.md, the barren loops). test/merge/joinbarren/schemes.c is wget
url_parse's url_has_scheme in small, entered by eight paths: each region joins the sides of
its scheme-character test and its exits, holding joined members, continue forked. Under
--merge=pat --incremental-merge=on (validated, DFS) no entry of the loop is skipped as one
whose "earlier regions merged nothing" (the old count skipped every entry after the second
region's: 2 regions, 3,756 paths, 11.4 M of Z3 effort; now 228 paths, 0.88 M; none 3,996
paths, 12.7 M), under a quarter of none's paths complete, and the errors are none's.

    joinbarren.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-joinbarren-")
SKIPPED = "the loop's earlier regions merged nothing"
OPTIONS = ["--search=dfs"]


def schemes(symq):
    driver = os.path.join(HERE, "joinbarren", "schemes.c")
    inc, inc_out = outdir.incremental_run(symq, driver, SCRATCH.name, OPTIONS)
    none, none_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none", *OPTIONS])
    merge = inc["merge"]
    skipped = merge["regions_skipped"].get(SKIPPED, 0)
    assert skipped == 0, f"{skipped} loop entries skipped as barren, {merge['regions_opened']} regions"
    merged = merge["incremental"]["nodes_merged"]
    assert merged > 0, "no node merged incrementally"
    assert 4 * inc["completed_paths"] < none["completed_paths"], \
        f"{inc['completed_paths']} paths, none {none['completed_paths']}"
    assert outdir.errors(inc_out) == outdir.errors(none_out), "errors differ from none's"
    return (f"{merge['regions_opened']} regions, none skipped, {merged} nodes merged; "
            f"{inc['completed_paths']} paths (none {none['completed_paths']})")


def main():
    results = []
    outdir.check("schemes", lambda: schemes(sys.argv[1]), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
