#!/usr/bin/env python3
"""Merge decisions that follow a pointer a loop steps (issue 26, item 1): a later loop that
walks the ∀'s range again from a pointer held in a phi is a walk by K, as split.py's are.
Each test/merge/rewalk/*.c states on an `EXPECT:` line the decision --merge=pat must take on
its ∀ merge; the checks are split.py's (the reason counted and dumped, no ∀ query asked; the
same group merged under --merge-decide=always; the errors none reports).

    rewalk.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys

import outdir
import split

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "rewalk"), split.check)


if __name__ == "__main__":
    sys.exit(main())
