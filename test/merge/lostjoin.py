#!/usr/bin/env python3
"""Under --incremental-merge, a join site joins no more once a state carrying one of its joins
ends on a symbolic operand of floating point (merge/incremental.c,
merge_inc_state_unsupported): symq computes floating point on constants only, and where each
side held its value as a constant (strtod's digits, concretized by klee_get_value) the join's
ite ended a path that forking would have completed (json-c string_get_double: 9 such paths in
120 s; eval/real/RESULTS.md, "Joins that end paths on floating point"). Every run is
--search=dfs --merge=pat --incremental-merge=on, validated, and reports --merge=none's errors:

- digits (test/merge/lostjoin/digits.c, strtod's digit loop in small, no floating point): no
  join is declined so, and the joins pay as before (13 paths, forking's 1,111);
- float (the same, -DFLOAT: the digits converted to a double, as strtod's fast path does):
  the first joined state to reach the conversion ends early and undoes its site; the later
  lengths' loops decline their joins and convert their constants (6295507 ended 10 paths
  there and completed 8; none completes 1,357).

    lostjoin.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "lostjoin", "digits.c")
LOST = "join declined: a state carrying a join here ended on a symbolic operand of floating point"


def check(symq, scratch, defines):
    """digits.c under pat-inc (validated) and none: what pat-inc declined, merged, completed."""
    every = ["--search=dfs", *defines]
    inc, inc_out = outdir.incremental_run(symq, DRIVER, scratch, every, complete=False)
    _, none_out = outdir.run_mode(symq, DRIVER, "none", scratch, every=every)
    assert outdir.errors(inc_out) == outdir.errors(none_out), "errors differ from none's"
    declines = inc["merge"]["decisions"].get(LOST, 0)
    merged = inc["merge"]["incremental"]["nodes_merged"]
    paths, early = inc["completed_paths"], inc["early_paths"]
    summary = f"{declines} joins declined, {merged} nodes merged, {paths} paths, {early} early"
    if defines:
        assert declines > 0 and early == 1 and paths > 1000, summary
    else:
        assert declines == 0 and merged > 0 and paths == 13 and early == 0, summary
    return summary


def main():
    results = []
    with tempfile.TemporaryDirectory(prefix="symq-lostjoin-") as scratch:
        for name, defines in (("digits", []), ("float", ["-DFLOAT"])):
            outdir.check(name, lambda d=defines: check(sys.argv[1], scratch, d), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
