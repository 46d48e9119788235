#!/usr/bin/env python3
"""Merge decisions that see what a merge costs later queries (issue 26, item 1): a template
value K is free to merge but not to use. Each test/merge/split/*.c states on an `EXPECT:` line
the decision --merge=pat must take on its ∀ merge (`EXPECT: declined="<reason>"`):

1. under --merge=pat (validated, --dump-tree) the reason is counted in stats.json's
   merge.decisions and written in the region's --dump-tree notes, no merge by pattern is
   made and no quantified query is asked (the ∀ was never added);
2. under --merge-decide=always the same group is merged by pattern and ∀ queries follow —
   so the decline is the estimate's, not PAT's inability to merge;
3. none and pat report the same errors (kind, line).

    split.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-split-")


def expected(driver):
    return outdir.expect_line(driver, r'declined="([^"]+)"').group(1)


def sound(stats):
    assert stats["merge"]["validation_failures"] == 0, "a merge failed validation"
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)


def dumped(out, text):
    """Does a --dump-tree file of out mention text?"""
    for path in glob.glob(os.path.join(out, "region*")):
        with open(path, encoding="utf-8") as f:
            if text in f.read():
                return True
    return False


def check(symq, driver):
    reason = expected(driver)
    pat, pat_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name, ["--dump-tree"])
    sound(pat)
    decisions = pat["merge"]["decisions"]
    assert decisions.get(reason, 0) >= 1, f"decisions {decisions}"
    assert "merged by pattern" not in decisions, f"decisions {decisions}"
    assert pat["quantified"]["asked"] == 0, f"{pat['quantified']['asked']} ∀ queries asked"
    assert dumped(pat_out, reason), "--dump-tree does not state the decision"
    always, _ = outdir.run_mode(symq, driver, "pat", SCRATCH.name, ["--merge-decide=always"])
    sound(always)
    merged = always["merge"]["decisions"].get("merged by pattern", 0)
    assert merged >= 1 and always["quantified"]["asked"] > 0, \
        f"--merge-decide=always: {always['merge']['decisions']}"
    _, none_out = outdir.run_mode(symq, driver, "none", SCRATCH.name)
    assert outdir.errors(pat_out) == outdir.errors(none_out), "errors differ from none's"
    return (f"{reason}; under always {merged} merge(s) by pattern and "
            f"{always['quantified']['asked']} ∀ queries")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "split"), check)


if __name__ == "__main__":
    sys.exit(main())
