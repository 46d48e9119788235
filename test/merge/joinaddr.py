#!/usr/bin/env python3
"""Incremental merging's joins in decoding loops (issue 26, item 3b; merge/incremental.c): the
sides of a loop body's branches are not joined where they differ in a register an address is
computed from (a pointer one side moved further), since every later access through the ite
would cost the solver far more than the forked sides; the others are joined where they meet,
at a join of the body or, when every arm ends with `continue`, at the loop's header. Each
test/merge/joinaddr/*.c states on an ` * EXPECT: effort_over_none<=R` line the most Z3 effort
(stats.json solver_effort, which is deterministic) `--merge=pat --incremental-merge` may
spend, as a multiple of `--merge=none`'s on the same driver, and may add
`states_at_exits<=S`, the most states that run may hold at the regions' exits
(merge.states_at_exits). The checks: both modes explore everything; the merging run
(validated: --validate-merges --validate-qsolver) still joins some sides
(merge.incremental.nodes_merged > 0), fails no validation, reports --merge=none's errors, its
tests replayed natively end only in outcomes none's have, and cover the same lines and
branches under gcov; and its effort and states are within the bounds (on the old binary,
which joined the moved pointer, unescape.c's effort was 28.6× none's; 0.92× now; before the
joins at the header percent.c held 180 states at its exits and spent 10.0× none's effort,
12 and 0.44× now; through.c, whose cursor moves through its address, spent 2.83× none's
when the header joined its cursor in memory, 0.20× now).

    joinaddr.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir
from nested import replayed_as_none

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    want = outdir.expect_line(driver, r"effort_over_none<=([\d.]+)(?: states_at_exits<=(\d+))?")
    bound, states = float(want.group(1)), want.group(2)
    with tempfile.TemporaryDirectory(prefix="symq-joinaddr-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        inc, inc_out = outdir.incremental_run(symq, driver, scratch)
        m = inc["merge"]
        assert none["exhausted"], "none's exploration incomplete"
        assert m["incremental"]["nodes_merged"] > 0, "no side was joined"
        assert not outdir.quantified_problems(inc), outdir.quantified_problems(inc)
        errors, none_errors = outdir.errors(inc_out), outdir.errors(none_out)
        assert errors == none_errors, f"errors {sorted(errors)}, none's {sorted(none_errors)}"
        covered = replayed_as_none(symq, inc_out, none_out, "incremental")
        if states:
            assert m["states_at_exits"] <= int(states), \
                f"{m['states_at_exits']} states at the exits (at most {states})"
        ratio = inc["solver_effort"] / max(none["solver_effort"], 1)
        assert ratio <= bound, f"effort {inc['solver_effort']} = {ratio:.2f}x none's " \
            f"{none['solver_effort']} (at most {bound}x)"
        return (f"effort {ratio:.2f}x none's; {m['incremental']['nodes_merged']} nodes joined; "
                f"{m['states_at_exits']} states at the exits; "
                f"paths {none['completed_paths']} -> {inc['completed_paths']}; "
                f"errors {sorted(errors)}; lines {covered[0]}/{covered[1]}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "joinaddr"), check)


if __name__ == "__main__":
    sys.exit(main())
