#!/usr/bin/env python3
"""A region whose states cost the solver too much gives up (issue 26: merging never slower than
forking). Each test/merge/effort/*.c holds a loop whose tree's estimate stays below
--max-region-states but whose forks ask hard bit-vector questions; its `// EXPECT:` line gives
a `max-instructions=N` budget both modes run under. Plain pat (--incremental-merge=off;
validated) must give the region up
once on the solver effort (qs_effort, merge/region.c), lose no path and complete at least
half the paths none completes — without the give-up the region holds every state until the
budget runs out and pat completes none. The effort is deterministic: none run twice reports
the same "solver_effort" and the same paths.

    effort.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys

import giveup
import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
EFFORT = "gave up: the region's states would cost more solver effort than its budget"


def check(symq, driver):
    wants, budget = giveup.expected(driver)
    assert wants and budget, "effort drivers expect giveup=1 with a max-instructions budget"
    options = [f"--max-instructions={budget}"]
    stats, _ = outdir.run_mode(symq, driver, "pat", giveup.SCRATCH.name, [*outdir.PLAIN, *options])
    m = stats["merge"]
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    assert giveup.gave_up(stats) == {EFFORT: 1}, f"give-ups: {giveup.gave_up(stats)}"
    plain, _ = outdir.run_options(symq, driver, giveup.SCRATCH.name, ["--merge=none", *options])
    again, _ = outdir.run_options(symq, driver, giveup.SCRATCH.name, ["--merge=none", *options])
    assert plain["solver_effort"] == again["solver_effort"] > 0 and \
        plain["completed_paths"] == again["completed_paths"], \
        f"effort {plain['solver_effort']} then {again['solver_effort']}"
    giveup.accounted(stats)
    giveup.accounted(plain)
    assert stats["completed_paths"] > 0 and \
        2 * stats["completed_paths"] >= plain["completed_paths"], \
        f"pat completed {stats['completed_paths']} paths, none {plain['completed_paths']}"
    return (f"gave up on the effort; paths none {plain['completed_paths']}, "
            f"pat {stats['completed_paths']} in {budget} instructions")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "effort"), check)


if __name__ == "__main__":
    sys.exit(main())
