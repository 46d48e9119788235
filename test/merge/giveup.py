#!/usr/bin/env python3
"""A region that does not converge gives up early (issue 26, item 1: merging never slower than
forking). Each test/merge/giveup/*.c states on an `// EXPECT:` line whether --merge=pat gives
its loop's region up on the tree's estimate (`giveup=1`, merge/region.c) or keeps it open to
the end (`giveup=0`), and for the first a `max-instructions=N` budget both modes run under.

pat is plain PAT (--incremental-merge=off; an incremental region gives up by its own rules,
test/merge/incgiveup.py).
giveup=1: none and pat (validated) run N instructions each; pat must have given the region
up once on the estimate, lost no path (every path that ended has its test: completed, error
and early paths add up to the tests written, none lost) and completed at least half the paths
none completed — without the give-up the region holds every state until the budget runs out
and pat completes none.
giveup=0: pat (validated) explores to the end without giving any region up, and either merges
at the exits or has at least 2^8 states waiting there (the region stayed open to the end);
none and pat report the same errors.

    giveup.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-giveup-")
ESTIMATE = "gave up: the region's tree is estimated to end with more states than " \
           "--max-region-states"


def expected(driver):
    m = outdir.expect_line(driver, r"giveup=([01])(?: max-instructions=(\d+))?")
    return m.group(1) == "1", int(m.group(2) or 0)


def gave_up(stats):
    return {k: v for k, v in stats["merge"]["decisions"].items() if k.startswith("gave up")}


def accounted(stats):
    assert stats["tests_lost"] == 0, f"{stats['tests_lost']} tests lost"
    ended = stats["completed_paths"] + stats["error_paths"] + stats["early_paths"]
    assert ended == stats["tests"], f"{ended} paths ended, {stats['tests']} tests written"


def check(symq, driver):
    giveup, budget = expected(driver)
    options = [f"--max-instructions={budget}"] if budget else []
    stats, out = outdir.run_mode(symq, driver, "pat", SCRATCH.name, [*outdir.PLAIN, *options])
    m = stats["merge"]
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    if giveup:
        plain, _ = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none", *options])
        assert gave_up(stats) == {ESTIMATE: 1}, f"give-ups: {gave_up(stats)}"
        accounted(stats)
        accounted(plain)
        assert stats["completed_paths"] > 0 and \
            2 * stats["completed_paths"] >= plain["completed_paths"], \
            f"pat completed {stats['completed_paths']} paths, none {plain['completed_paths']}"
        return (f"gave up on the estimate; paths none {plain['completed_paths']}, "
                f"pat {stats['completed_paths']} in {budget} instructions")
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none"])
    assert not gave_up(stats), f"give-ups: {gave_up(stats)}"
    assert stats["exhausted"] and plain["exhausted"], "exploration incomplete"
    assert outdir.errors(out) == outdir.errors(plain_out), "errors differ"
    assert m["merges"] > 0 or m["states_at_exits"] >= 256, \
        f"{m['merges']} merges, {m['states_at_exits']} states at the exits"
    return (f"kept open: {m['merges']} merges, {m['states_at_exits']} states at the exits; "
            f"paths none {plain['completed_paths']}, pat {stats['completed_paths']}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "giveup"), check)


if __name__ == "__main__":
    sys.exit(main())
