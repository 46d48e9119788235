#!/usr/bin/env python3
"""Under --incremental-merge, PAT's fallback does not merge the CFG way a group holding a member
that was joined inside the region (merge/strategy_pat.c, fallback_forks): the merged state's
path condition would hold the disjunction of the joins' disjunctions, which the decision's
estimate (query sites) does not see, and every later query would carry it. Each
test/merge/incfall/*.c states `EXPECT: fallback-forks-joined`:

- `--merge=pat --incremental-merge` (validated) explores everything, joins some paths, fails no
  validation, reports --merge=none's errors, and every fallback it records continues forked
  (no "fallback cfg" decision; on the old binary the group was merged the CFG way);
- its Z3 effort (stats.json solver_effort, deterministic) is --pat-fallback=fork's, and below
  that of the same run under --merge-decide=always, which merges the group the CFG way;
- plain --merge=pat (--incremental-merge=off), which joins nothing, still merges its fallback the CFG way.

    incfall.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
INC = ["--merge=pat", "--incremental-merge"]


def fallbacks(stats, how):
    return sum(v for k, v in stats["merge"]["decisions"].items() if k.startswith(how))


def check(symq, driver):
    outdir.expect_line(driver, r"fallback-forks-joined")
    with tempfile.TemporaryDirectory(prefix="symq-incfall-") as scratch:
        none, none_out = outdir.run_mode(symq, driver, "none", scratch)
        checked, checked_out = outdir.incremental_run(symq, driver, scratch)
        inc, _ = outdir.run_options(symq, driver, scratch, INC)
        fork, _ = outdir.run_options(symq, driver, scratch, [*INC, "--pat-fallback=fork"])
        always, _ = outdir.run_options(symq, driver, scratch, [*INC, "--merge-decide=always"])
        pat, _ = outdir.run_options(symq, driver, scratch, ["--merge=pat", *outdir.PLAIN])
        errors, none_errors = outdir.errors(checked_out), outdir.errors(none_out)
    m = checked["merge"]
    assert none["exhausted"] and inc["exhausted"], "exploration incomplete"
    assert m["incremental"]["nodes_merged"] > 0, "nothing joined"
    assert not outdir.quantified_problems(checked), outdir.quantified_problems(checked)
    assert errors and errors == none_errors, f"errors {sorted(errors)}, none's {sorted(none_errors)}"
    for run in (checked, inc):
        assert fallbacks(run, "fallback cfg") == 0 and fallbacks(run, "fallback fork") >= 1, \
            run["merge"]["decisions"]
    assert fallbacks(always, "fallback cfg") >= 1, always["merge"]["decisions"]
    assert fallbacks(pat, "fallback cfg") >= 1, pat["merge"]["decisions"]
    effort = inc["solver_effort"]
    assert effort == fork["solver_effort"], f"effort {effort}, forked {fork['solver_effort']}"
    assert effort < always["solver_effort"], \
        f"effort {effort}, with the CFG merge {always['solver_effort']}"
    return (f"effort {effort} against {always['solver_effort']} merged the CFG way (none "
            f"{none['solver_effort']}); {m['incremental']['nodes_merged']} nodes joined; "
            f"errors {sorted(errors)}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "incfall"), check)


if __name__ == "__main__":
    sys.exit(main())
