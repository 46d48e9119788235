#!/usr/bin/env python3
"""Merge decisions on what each member holds as a constant (issue 26, item 1; merge/decide.h):
a branch every member computes to the same constant is folded (the code under its other side
is no query for anyone), and a term each member's path condition pins to its own constant is
a merged value (the merged state reads it as a symbol). Each test/merge/pin/*.c states on an
`EXPECT: decision="..."` line a decision --merge=pat must count (the old estimate did not); the
checks: that decision is counted in stats.json's merge.decisions (validated run, the quantified
procedure checked against Z3), a decline is not under --merge-decide=always (the estimate, not
the strategy, declines), and the errors found are --merge=none's.

    pin.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver, options=()):
    with tempfile.TemporaryDirectory(prefix="symq-pin-") as scratch:
        want, none, pat, always = outdir.decision_runs(symq, driver, scratch, options)
        got = pat["merge"]["decisions"]
        assert not outdir.quantified_problems(pat), outdir.quantified_problems(pat)
        if want.startswith("declined"):
            assert want not in always["merge"]["decisions"], always["merge"]["decisions"]
        return f"{want} ({got[want]}); paths pat {pat['completed_paths']}, " \
               f"none {none['completed_paths']}"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "pin"), check)


if __name__ == "__main__":
    sys.exit(main())
