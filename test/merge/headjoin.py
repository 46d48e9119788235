#!/usr/bin/env python3
"""Incremental merging's joins at a loop's header (issue 26, item 3b; merge/incremental.c): a
loop body whose arms each end with `continue` (busybox's percent_decode_in_place) has no join
but the header, so its sides are joined there, in the iteration after the one in which they
parted, by the body joins' rules (ite on what differs, never a differing address register).
Each test/merge/headjoin/*.c states on an ` * EXPECT: states_at_exits<=S effort_over_none<=R`
line the most states `--merge=pat --incremental-merge` may hold at the region's exits
(stats.json merge.states_at_exits) and the most Z3 effort (solver_effort, deterministic) it
may spend, as a multiple of `--merge=none`'s on the same driver. The checks: both modes
explore everything; the merging run (validated: --validate-merges --validate-qsolver) joins
sides (merge.incremental.nodes_merged > 0), fails no validation, reports --merge=none's
errors, its tests replayed natively end only in outcomes none's have and cover the same lines
and branches under gcov; and both bounds hold (on the binary before the header joins,
percent.c held 180 states at its exits and spent 10.0x none's effort; 12 and 0.44x now).

    headjoin.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir
from nested import replayed_as_none

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    want = outdir.expect_line(driver, r"states_at_exits<=(\d+) effort_over_none<=([\d.]+)")
    most_states, bound = int(want.group(1)), float(want.group(2))
    with tempfile.TemporaryDirectory(prefix="symq-headjoin-") as scratch:
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
        assert m["states_at_exits"] <= most_states, \
            f"{m['states_at_exits']} states at the exits (at most {most_states})"
        ratio = inc["solver_effort"] / max(none["solver_effort"], 1)
        assert ratio <= bound, f"effort {inc['solver_effort']} = {ratio:.2f}x none's " \
            f"{none['solver_effort']} (at most {bound}x)"
        return (f"{m['states_at_exits']} states at the exits; effort {ratio:.2f}x none's; "
                f"{m['incremental']['nodes_merged']} nodes joined; "
                f"paths {none['completed_paths']} -> {inc['completed_paths']}; "
                f"errors {sorted(errors)}; lines {covered[0]}/{covered[1]}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "headjoin"), check)


if __name__ == "__main__":
    sys.exit(main())
