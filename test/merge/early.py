#!/usr/bin/env python3
"""A region's exit is decided early (issue 26, item 1: merging never slower than forking).
Each test/merge/early/*.c states on an `EXPECT:` line `early=1 max-instructions=N
full-cap=C`: a loop whose states at one exit --merge=pat declines for good on the first
MERGE_EARLY_SAMPLE (merge/strategy.h) to arrive there.

pat is plain PAT (--incremental-merge=off).
Within N instructions, none and pat (validated) each: pat took the early decision once, lost no
path (every path that ended has its test) and completed at least 9/10 of the paths none
completed — without the early decision the region holds every state of that exit until its loop
is explored, and pat completes a fraction of them.
Explored to the end with -DCAP=C: pat took the early decision and still decided another exit
of the region at its release (its states wait there as before; length.c's exit returning -2,
with only the caller's test left, is declined: "nothing left to ask after the exit"), every
merge validated; none and pat report
the same errors, and pat's completed paths plus the states merged away (less one per merge)
are none's.

    early.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import json
import os
import subprocess
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-early-")
EARLY = "declined early: merged values read by later queries"


def expected(driver):
    m = outdir.expect_line(driver, r"early=1 max-instructions=(\d+) full-cap=(\d+)")
    return int(m.group(1)), int(m.group(2))


def run(symq, driver, mode, options):
    """--merge=mode with options (validated under pat); (stats.json, the directory)."""
    out = tempfile.mkdtemp(dir=SCRATCH.name)
    os.rmdir(out)
    extra = outdir.validation(mode) + outdir.PLAIN if mode == "pat" else []
    p = subprocess.run([symq, "run", "--no-progress", f"--merge={mode}", f"--output-dir={out}",
                        *outdir.unhurried([*extra, *options]), driver],
                       capture_output=True, text=True, timeout=300)
    if p.returncode != 0:
        raise RuntimeError(f"--merge={mode}: exit {p.returncode}: {p.stderr.strip()[-300:]}")
    with open(os.path.join(out, "stats.json")) as f:
        return json.load(f), out


def accounted(stats):
    assert stats["tests_lost"] == 0, f"{stats['tests_lost']} tests lost"
    ended = stats["completed_paths"] + stats["error_paths"] + stats["early_paths"]
    assert ended == stats["tests"], f"{ended} paths ended, {stats['tests']} tests written"


def sound(stats):
    m = stats["merge"]
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    early = {k: v for k, v in m["decisions"].items() if k.startswith("declined early")}
    assert early == {EARLY: 1}, f"early decisions: {early}"
    assert not any(k.startswith("gave up") for k in m["decisions"]), m["decisions"]


def check(symq, driver):
    budget, cap = expected(driver)
    options = [f"--max-instructions={budget}"]
    pat, _ = run(symq, driver, "pat", options)
    plain, _ = run(symq, driver, "none", options)
    accounted(pat)
    accounted(plain)
    assert 10 * pat["completed_paths"] >= 9 * plain["completed_paths"] > 0, \
        f"pat completed {pat['completed_paths']} paths, none {plain['completed_paths']}"
    sound(pat)
    options = [f"--cflags=-DCAP={cap}"]
    full, full_out = run(symq, driver, "pat", options)
    whole, whole_out = run(symq, driver, "none", options)
    sound(full)
    m = full["merge"]
    assert full["exhausted"] and whole["exhausted"], "exploration incomplete"
    # the region's other exit (returning -2) waits and is decided at the release: its
    # states, with only the caller's test left to ask, are declined and continue forked
    # ("nothing left to ask after the exit", merge/decide.h)
    late = {k: v for k, v in m["decisions"].items() if not k.startswith("declined early")}
    assert late, f"no decision at the region's other exits: {m['decisions']}"
    barren = any(k.startswith("declined: nothing left to ask after the exit") for k in late)
    assert m["merges"] > 0 or barren, f"no merge or barren decline at another exit: {late}"
    assert outdir.errors(full_out) == outdir.errors(whole_out), "errors differ"
    paths = full["completed_paths"] + m["merged_states"] - m["merges"]
    assert paths == whole["completed_paths"], \
        f"pat {full['completed_paths']} paths + {m['merged_states']} merged in {m['merges']}, " \
        f"none {whole['completed_paths']}"
    return (f"declined early; paths none {plain['completed_paths']}, pat "
            f"{pat['completed_paths']} in {budget} instructions; at CAP={cap} "
            f"at another exit {late}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "early"), check)


if __name__ == "__main__":
    sys.exit(main())
