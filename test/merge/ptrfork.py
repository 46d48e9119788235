#!/usr/bin/env python3
"""A PAT fallback whose region's tree is invalid by a fork at a constraint that is not a branch
(a pointer resolved to one object or another; issue 26, merge/strategy_pat.c's
fallback_forks) continues forked under the default --pat-fallback=cfg: the members differ in
which object an address selected, which a CFG merge keeps as a disjunction every later query
over those bytes carries (json-c pointer_get: 2.2x forking's Z3 effort). Each
test/merge/ptrfork/*.c states on an `EXPECT: decision="..."` line the decision --merge=pat
must count under plain PAT (--incremental-merge=off; the old strategy merged the CFG way).
The checks: that decision is counted
(validated run), no CFG fallback merge is, the paths and errors are --merge=none's, and
--merge-decide=always (the strategy told to merge) still merges the CFG way.

    ptrfork.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    with tempfile.TemporaryDirectory(prefix="symq-ptrfork-") as scratch:
        want, none, pat, always = outdir.decision_runs(symq, driver, scratch, outdir.PLAIN)
        got = pat["merge"]["decisions"]
        assert not any(k.startswith("fallback cfg") for k in got), got
        assert pat["completed_paths"] == none["completed_paths"], \
            f"paths pat {pat['completed_paths']}, none {none['completed_paths']}"
        merged = always["merge"]["decisions"]
        assert any(k.startswith("fallback cfg (tree hash invalid") for k in merged), merged
        return f"{want} ({got[want]}); paths {pat['completed_paths']} as none's"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "ptrfork"), check)


if __name__ == "__main__":
    sys.exit(main())
