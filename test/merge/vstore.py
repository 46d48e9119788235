#!/usr/bin/env python3
"""Merge decisions on a store at a merged index (issue 26, item 1; merge/decide.h): a store
whose address is computed from a value the merge turns into an ite (`s[len] = 0` after a
span loop's CFG fallback) makes the object it writes merged memory — each later load of it
reads an ite over the cells the members' guards select — and such a read weighs as a read at
K does (arms at least the group's size). Each test/merge/vstore/*.c states on an
`EXPECT: decision="..."` line a decision --merge=pat must count: read_after.c's fallback is
declined (the old estimate merged it), unread.c's, whose store no later load reads, is still
taken, under plain PAT (--incremental-merge=off). The checks are pin.py's: that decision is counted in stats.json's merge.decisions
(validated run), a decline is not under --merge-decide=always (the estimate, not the strategy,
declines), and the errors found are --merge=none's.

    vstore.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys

import outdir
import pin

HERE = os.path.dirname(os.path.abspath(__file__))


def check(symq, driver):
    return pin.check(symq, driver, outdir.PLAIN)


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "vstore"), check)


if __name__ == "__main__":
    sys.exit(main())
