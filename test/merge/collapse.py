#!/usr/bin/env python3
"""A region whose exits keep merging does not give up merely by its size (issue 25: memspn at
capacity 2,048 has one state more at its exits than --max-region-states and forked). Each
test/merge/collapse/*.c states on an `EXPECT:` line `max-region-states=N`: a loop whose tree
ends with more than N states, each exit's first batch merged by pattern.

Under --max-region-states=N, plain pat (--incremental-merge=off) explores to the end: it released a batch, gave no
region up, merged every state that reached an exit (its completed paths are its merges), lost
no path, and its completed paths plus the states merged away (less one per merge) are none's
completed paths; none and pat report the same errors. Before the fix the region gave up on
the estimate after its first batch and its other states completed forked. (Not validated:
--validate-merges --validate-qsolver at this size take most of a minute, and with them the
region gives up on its solver-effort budget; test/merge/batch and pat_memspn validate batch
and pattern merges.)

    collapse.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-collapse-")


def check(symq, driver):
    limit = int(outdir.expect_line(driver, r"max-region-states=(\d+)").group(1))
    pat, pat_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=pat", *outdir.PLAIN, f"--max-region-states={limit}"])
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none"])
    m = pat["merge"]
    assert not any(k.startswith("gave up") for k in m["decisions"]), m["decisions"]
    assert m["batches"] > 0, f"no batch released: {m['decisions']}"
    assert pat["exhausted"] and plain["exhausted"], "exploration incomplete"
    assert pat["tests_lost"] == 0, f"{pat['tests_lost']} tests lost"
    assert outdir.errors(pat_out) == outdir.errors(plain_out), "errors differ"
    assert m["merged_states"] > limit, f"{m['merged_states']} states merged, limit {limit}"
    assert pat["completed_paths"] == m["merges"], \
        f"{pat['completed_paths']} paths completed, {m['merges']} merges"
    paths = pat["completed_paths"] + m["merged_states"] - m["merges"]
    assert paths == plain["completed_paths"], f"pat {paths} paths, none {plain['completed_paths']}"
    return (f"{m['merged_states']} states in {m['merges']} merges ({m['batches']} batches), "
            f"limit {limit}; none {plain['completed_paths']} paths")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "collapse"), check)


if __name__ == "__main__":
    sys.exit(main())
