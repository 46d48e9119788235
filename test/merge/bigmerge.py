#!/usr/bin/env python3
"""--validate-merges on a merge of hundreds of states (issue 26 item 7): each
test/merge/bigmerge/*.c names its options on a ` * RUN: ` line (a --merge= mode and -D
defines); the run with --validate-merges must exit 0 with every merge validated, merge at
least 256 states in one merge, explore what the run without validation explores, and ask
the solver at most one query per merged constituent more than that run (the checks are
decided by the merge's structure; what is left is one small query, not one per merged
constraint and value holding the whole merged formula).

    bigmerge.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import re
import shlex
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    with open(driver) as f:
        opts = shlex.split(re.search(r"^ \* RUN: (.*)$", f.read(), re.M).group(1))
    mode = [o[len("--merge="):] for o in opts if o.startswith("--merge=")]
    rest = [o for o in opts if not o.startswith("--merge=")]
    assert len(mode) == 1 and mode[0] != "pat", "the RUN line must ask one non-pat --merge="
    with tempfile.TemporaryDirectory() as scratch:
        plain, _ = outdir.run_mode(symq, driver, mode[0], scratch, every=rest)
        valid, _ = outdir.run_mode(symq, driver, mode[0], scratch,
                                   every=rest + ["--validate-merges"])
        m = valid["merge"]
        assert m["validation_failures"] == 0, f"{m['validation_failures']} merges not validated"
        assert m["merges"] >= 1 and m["merged_states"] >= 256, \
            f"{m['merges']} merges of {m['merged_states']} states: no big merge"
        for key in ("completed_paths", "instructions"):
            assert valid[key] == plain[key], f"{key}: {valid[key]} validated, {plain[key]} not"
        extra = valid["queries"] - plain["queries"]
        assert 0 <= extra <= m["merged_states"], \
            f"validation asked {extra} queries for {m['merged_states']} merged states"
        return f"{m['merges']} merges of {m['merged_states']} states validated with {extra} queries"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "bigmerge"), check)


if __name__ == "__main__":
    sys.exit(main())
