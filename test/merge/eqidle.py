#!/usr/bin/env python3
"""Under --incremental-merge, a region whose loop holds another loop drops its incremental
part once two of its merged states have reached its exits while none of them forked inside it
(merge/incremental.c, merges_idle): such merges only do early what PAT's merge at the exit
does, and the breadth-first turns cost Z3 (wget base64: RESULTS.md, "Equal merges in a loop
that holds another loop"). Every run is --search=dfs --merge=pat --incremental-merge=on,
validated:

- decode (test/merge/eqidle/decode.c, wget_base64_decode in small): the region drops its
  incremental part (the decision is counted; on the old binary it never was), every merge
  validates, every path that ended has its test, and the errors are --merge=none's;
- fields (test/merge/eqidle/fields.c, res_parse in small): merged states fork again, the
  region keeps its incremental part (no such decision) and merges nodes.

    eqidle.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-eqidle-")
DROPPED = "incremental merging dropped: its merged states left the loop without forking"
OPTIONS = ["--search=dfs"]


def check(symq, name, dropped):
    driver = os.path.join(HERE, "eqidle", name + ".c")
    inc, inc_out = outdir.incremental_run(symq, driver, SCRATCH.name, OPTIONS)
    merge = inc["merge"]
    drops = merge["decisions"].get(DROPPED, 0)
    merged = merge["incremental"]["nodes_merged"]
    assert merged > 0, "no node merged incrementally"
    if not dropped:
        assert drops == 0, f"incremental merging dropped {drops} times"
        return f"kept; {merged} nodes merged, {inc['completed_paths']} paths"
    assert drops > 0, "incremental merging never dropped"
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none", *OPTIONS])
    assert outdir.errors(inc_out) == outdir.errors(plain_out), "errors differ from none's"
    return (f"dropped in {drops} regions after {merged} nodes merged; "
            f"{inc['completed_paths']} paths (none {plain['completed_paths']})")


def main():
    results = []
    for name, dropped in (("decode", True), ("fields", False)):
        outdir.check(name, lambda n=name, d=dropped: check(sys.argv[1], n, d), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
