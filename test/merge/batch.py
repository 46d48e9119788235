#!/usr/bin/env python3
"""A region's exits release their states in batches (issue 26: regions must not hold states
until the time limit). Each test/merge/batch/*.c states on an `EXPECT:` line `batch=1
max-instructions=N`: a loop whose region stays open (its tree is estimated under
--max-region-states) while more than the first batch of states reach one exit.

pat is plain PAT (--incremental-merge=off), whose region holds its exits' states.
Within N instructions, none and pat (validated) each: pat released a batch, gave no region up,
lost no path (every path that ended has its test), and its completed paths plus the states
merged away (less one per merge) are at least half of none's completed paths — without
batches every state that reaches an exit waits there until the loop is explored, and pat
completes none. Explored to the end: pat released a batch, every merge validated, none and pat
report the same errors, and pat's completed paths plus the states merged away (less one per
merge) are none's.

    batch.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-batch-")


def expected(driver):
    return int(outdir.expect_line(driver, r"batch=1 max-instructions=(\d+)").group(1))


def paths(stats):
    """Paths completed, a merged state counting for each of its members."""
    m = stats["merge"]
    return stats["completed_paths"] + m["merged_states"] - m["merges"]


def sound(stats):
    m = stats["merge"]
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    assert m.get("batches", 0) > 0, f"no batch released: {m['decisions']}"
    assert not any(k.startswith("gave up") for k in m["decisions"]), m["decisions"]
    assert stats["tests_lost"] == 0, f"{stats['tests_lost']} tests lost"
    ended = stats["completed_paths"] + stats["error_paths"] + stats["early_paths"]
    assert ended == stats["tests"], f"{ended} paths ended, {stats['tests']} tests written"


def check(symq, driver):
    budget = [f"--max-instructions={expected(driver)}"]
    pat, _ = outdir.run_mode(symq, driver, "pat", SCRATCH.name, outdir.PLAIN, every=budget)
    plain, _ = outdir.run_mode(symq, driver, "none", SCRATCH.name, every=budget)
    sound(pat)
    assert 2 * paths(pat) >= plain["completed_paths"] > 0, \
        f"pat completed {paths(pat)} paths, none {plain['completed_paths']}"
    full, full_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name, outdir.PLAIN)
    whole, whole_out = outdir.run_mode(symq, driver, "none", SCRATCH.name)
    sound(full)
    assert full["exhausted"] and whole["exhausted"], "exploration incomplete"
    assert outdir.errors(full_out) == outdir.errors(whole_out), "errors differ"
    assert paths(full) == whole["completed_paths"], \
        f"pat {paths(full)} paths, none {whole['completed_paths']}"
    return (f"{pat['merge']['batches']} batches; paths none {plain['completed_paths']}, pat "
            f"{paths(pat)} in {budget[0]}; to the end {full['merge']['batches']} batches, "
            f"{paths(full)} paths")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "batch"), check)


if __name__ == "__main__":
    sys.exit(main())
