#!/usr/bin/env python3
"""A CFG merge along the execution tree whose group holds a state merged in a nested region
(a `nested` node, its condition the state's whole tail) beside siblings made by branches:
every merged value must be each constituent's under its path (issue 26 item 7; wget
html_tags). Each test/merge/treenest/*.c names its options on a ` * RUN: ` line (plain PAT,
--incremental-merge=off, where the case is reached; the default, incremental, did not reach
it on tags.c); the run
must exit 0 under --validate-merges --validate-qsolver with no merged state failing
validation, merge along the tree at least once, and report the errors --merge=none reports.

    treenest.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import re
import shlex
import sys
import tempfile

import outdir
import split

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    with open(driver) as f:
        opts = shlex.split(re.search(r"^ \* RUN: (.*)$", f.read(), re.M).group(1))
    merge = [o for o in opts if o.startswith("--merge=")]
    rest = [o for o in opts if not o.startswith("--merge=")]
    assert merge == ["--merge=pat"], "the RUN line must ask --merge=pat"
    defines = [o for o in rest if o.startswith("-D")]
    with tempfile.TemporaryDirectory() as scratch:
        stats, out = outdir.run_mode(symq, driver, "pat", scratch, rest)
        _, base = outdir.run_mode(symq, driver, "none", scratch, every=defines)
        split.sound(stats)
        m = stats["merge"]
        assert m["merges_along_tree"] > 0, "no merge along the tree: the case is not reached"
        assert outdir.errors(out) == outdir.errors(base), "errors differ from --merge=none"
        return f"{m['merges']} merges ({m['merges_along_tree']} along the tree) validated"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "treenest"), check)


if __name__ == "__main__":
    sys.exit(main())
