#!/usr/bin/env python3
"""Merge decisions that follow a pointer a loop steps (issue 26, item 1): a later loop that
walks the ∀'s range again from a pointer held in a phi is a walk by K, as split.py's are.
Each test/merge/rewalk/*.c states on an `EXPECT:` line the decision --merge=pat must take on
its ∀ merge and, as `forall="..."`, the text of that ∀'s body in --dump-tree. Checked: the
reason counted and dumped; no merged state's ∀ holds that body under the cost decision, one
does under --merge-decide=always; sound (validated) runs; the errors none reports. Other
loops of the driver (the scans after the declined one) may merge by pattern: the check is
about the declined ∀ only.

    rewalk.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import os
import sys
import tempfile

import outdir
import split

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-rewalk-")


def merged_forall(out, body):
    """Does a merged state of out's --dump-tree hold a ∀ whose text contains body? (The
    group files list each merged state's path condition, a formula per line; the .dot files
    hold branch conditions, which name the same reads.)"""
    for path in glob.glob(os.path.join(out, "region*.txt")):
        with open(path, encoding="utf-8") as f:
            if any(line.lstrip().startswith("(forall") and body in line for line in f):
                return True
    return False


def check(symq, driver):
    reason, body = outdir.expect_line(driver, r'declined="([^"]+)" forall="([^"]+)"').groups()
    pat, pat_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name, ["--dump-tree"])
    split.sound(pat)
    decisions = pat["merge"]["decisions"]
    assert decisions.get(reason, 0) >= 1, f"decisions {decisions}"
    assert split.dumped(pat_out, reason), "--dump-tree does not state the decision"
    assert not merged_forall(pat_out, body), f"a merged state holds the declined ∀ ({body})"
    always, always_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name,
                                         ["--dump-tree", "--merge-decide=always"])
    split.sound(always)
    assert merged_forall(always_out, body), \
        f"--merge-decide=always did not merge the ∀ ({always['merge']['decisions']})"
    _, none_out = outdir.run_mode(symq, driver, "none", SCRATCH.name)
    assert outdir.errors(pat_out) == outdir.errors(none_out), "errors differ from none's"
    return f"{reason}; the ∀ merged only under always"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "rewalk"), check)


if __name__ == "__main__":
    sys.exit(main())
