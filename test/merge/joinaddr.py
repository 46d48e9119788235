#!/usr/bin/env python3
"""Incremental merging's joins that do not pay (issue 26, item 3b; merge/incremental.c): the
sides of a loop body's branches are not joined where they differ in a register an address is
computed from (a pointer one side moved further), since every later access through the ite
would cost the solver far more than the forked sides. Each test/merge/joinaddr/*.c states on
an ` * EXPECT: effort_over_none<=R` line the most Z3 effort (stats.json solver_effort, which
is deterministic) `--merge=pat --incremental-merge` may spend, as a multiple of
`--merge=none`'s on the same driver. The checks: both modes explore everything; the merging
run (validated: --validate-merges --validate-qsolver) still joins some sides
(merge.incremental.nodes_merged > 0), fails no validation, reports --merge=none's errors, its
tests replayed natively end only in outcomes none's have, and cover the same lines and
branches under gcov; and its effort is within the bound (on the old binary, which joined the
moved pointer, unescape.c's was 28.6× none's; 0.92× now).

    joinaddr.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir
from nested import replayed_as_none

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    bound = float(outdir.expect_line(driver, r"effort_over_none<=([\d.]+)").group(1))
    with tempfile.TemporaryDirectory(prefix="symq-joinaddr-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        inc, inc_out = outdir.run_mode(symq, driver, "pat", scratch, ["--incremental-merge"])
        m = inc["merge"]
        assert none["exhausted"] and inc["exhausted"], "exploration incomplete"
        assert m["incremental"]["nodes_merged"] > 0, "no side was joined"
        assert not m["validation_failures"], f"{m['validation_failures']} merges failed validation"
        assert not outdir.quantified_problems(inc), outdir.quantified_problems(inc)
        errors, none_errors = outdir.errors(inc_out), outdir.errors(none_out)
        assert errors == none_errors, f"errors {sorted(errors)}, none's {sorted(none_errors)}"
        covered = replayed_as_none(symq, inc_out, none_out, "incremental")
        ratio = inc["solver_effort"] / max(none["solver_effort"], 1)
        assert ratio <= bound, f"effort {inc['solver_effort']} = {ratio:.2f}x none's " \
            f"{none['solver_effort']} (at most {bound}x)"
        return (f"effort {ratio:.2f}x none's; {m['incremental']['nodes_merged']} nodes joined; "
                f"paths {none['completed_paths']} -> {inc['completed_paths']}; "
                f"errors {sorted(errors)}; lines {covered[0]}/{covered[1]}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "joinaddr"), check)


if __name__ == "__main__":
    sys.exit(main())
