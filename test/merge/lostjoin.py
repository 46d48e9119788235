#!/usr/bin/env python3
"""Joins of constants that floating point or a concretization needs (merge/incremental.c):
under --incremental-merge, sides that parted at a comparison with what klee_get_value returned
are not joined (merge_decide_concretized: the program asked for a constant, strtod's
digit_value in the libc model); and a join site joins no more once a state carrying one of its
joins ends on a symbolic operand of floating point (merge_inc_state_unsupported): where each
side held its value as a constant, the join's ite ended a path that forking would have
completed (json-c string_get_double; eval/real/RESULTS.md, "Joins that end paths on floating
point" and "Concretized values are not joined again"). Every run is --search=dfs --merge=pat
--incremental-merge=on, validated, and reports --merge=none's errors. On
test/merge/lostjoin/digits.c (strtod's digit loop in small):

- digits (klee_get_value, the digits compared afterwards): every join there is declined as a
  concretization's, none merged with ite, and the loop forks as none's does (over 1,000 paths);
- float (the same, -DFLOAT: the digits converted to a double): declined the same way, so no
  path ends early (before the rule a joined state ended at the conversion);
- branches (-DBRANCHES: each digit computed by testing its bits, nothing concretized): the
  sides are joined and the joins pay (12 paths, forking's 1,222);
- branches-float (-DBRANCHES -DFLOAT): the first joined state to reach the conversion ends
  early and undoes its site; the later lengths' loops decline their joins and convert their
  constants (1,347 paths; none completes 1,357).

    lostjoin.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
DRIVER = os.path.join(HERE, "lostjoin", "digits.c")
LOST = "join declined: a state carrying a join here ended on a symbolic operand of floating point"
CONCRETIZED = "join declined: its sides parted where the program concretized a value (klee_get_value)"


def check(symq, scratch, name, defines):
    """digits.c under pat-inc (validated) and none: what pat-inc declined, merged, completed."""
    every = ["--search=dfs", *defines]
    inc, inc_out = outdir.incremental_run(symq, DRIVER, scratch, every, complete=False)
    _, none_out = outdir.run_mode(symq, DRIVER, "none", scratch, every=every)
    assert outdir.errors(inc_out) == outdir.errors(none_out), "errors differ from none's"
    decisions = inc["merge"]["decisions"]
    concretized, lost = decisions.get(CONCRETIZED, 0), decisions.get(LOST, 0)
    merged = inc["merge"]["incremental"]["nodes_merged"]
    paths, early = inc["completed_paths"], inc["early_paths"]
    summary = (f"{concretized} concretized joins declined, {lost} after a lost path, "
               f"{merged} nodes merged, {paths} paths, {early} early")
    if name in ("digits", "float"):
        assert concretized > 0 and lost == 0 and early == 0 and paths > 1000, summary
    elif name == "branches":
        assert concretized == 0 and lost == 0 and merged > 0 and early == 0 and paths < 100, \
            summary
    else:
        assert concretized == 0 and lost > 0 and early == 1 and paths > 1000, summary
    return summary


def main():
    results = []
    with tempfile.TemporaryDirectory(prefix="symq-lostjoin-") as scratch:
        for name, defines in (("digits", []), ("float", ["-DFLOAT"]),
                              ("branches", ["-DBRANCHES"]),
                              ("branches-float", ["-DBRANCHES", "-DFLOAT"])):
            outdir.check(name, lambda n=name, d=defines: check(sys.argv[1], scratch, n, d),
                         results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
