#!/usr/bin/env python3
"""States a region releases unmerged go on in forking's order under DFS (issue 26: where pat
loses lines on wget's html_tags). Each test/merge/order/*.c takes a symbolic length `n` and a
string `s` whose path through the program is decided by which of s[0..n) are 'a', and states
`EXPECT: order=same` on a line: its region's states at the exit are declined and resume
unmerged.

none and plain pat (--incremental-merge=off, whose region's members do not take turns;
validated) explore to the end and write the same tests in the same order — a
test named by n and the positions of s[0..n) that hold 'a' — and pat declined a merge. When
the released states resumed in the order they arrived, DFS ran the last to arrive first and
pat wrote them in reverse.

    order.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "replay"))
from run_replay import read_ktest  # noqa: E402

SCRATCH = tempfile.TemporaryDirectory(prefix="symq-order-")


def tests(out):
    """The tests in the order written: (n, the positions of s[0..n) that hold 'a')."""
    seq = []
    for path in sorted(glob.glob(os.path.join(out, "*.ktest"))):
        objects = dict(read_ktest(path)[1])
        n = int.from_bytes(objects["n"], "little")
        seq.append((n, tuple(k for k in range(n) if objects["s"][k] == ord("a"))))
    return seq


def check(symq, driver):
    outdir.expect_line(driver, r"order=same")
    pat, pat_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name, outdir.PLAIN)
    plain, plain_out = outdir.run_mode(symq, driver, "none", SCRATCH.name)
    m = pat["merge"]
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    assert pat["exhausted"] and plain["exhausted"], "exploration incomplete"
    assert any(k.startswith("declined") for k in m["decisions"]), m["decisions"]
    assert m["merges"] == 0, f"{m['merges']} merges"
    a, b = tests(plain_out), tests(pat_out)
    assert len(a) == len(b) > 1, f"none {len(a)} tests, pat {len(b)}"
    assert sorted(a) == sorted(b), "the tests differ"
    first = next(k for k in range(len(a)) if a[k] != b[k]) if a != b else None
    assert first is None, f"test {first + 1}: none {a[first]}, pat {b[first]}"
    return f"{len(a)} tests in none's order; {m['decisions']}"


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "order"), check)


if __name__ == "__main__":
    sys.exit(main())
