#!/usr/bin/env python3
"""A ∀ merge followed by a callee's loop that scans the ∀'s buffer to its terminator (issue 26,
APR fnmatch): the loop is bounded by the bytes the ∀ constrains, not by K, and each of its
queries carries the ∀ — a walk of the range, as rewalk.py's and split.py's are. Each
test/merge/scanwalk/*.c states on an `EXPECT:` line the decision and the ∀'s body; the checks
are rewalk.py's (the reason counted and dumped, the ∀ merged only under
--merge-decide=always, validated runs, none's errors).

    scanwalk.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys

import outdir
import rewalk

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "scanwalk"), rewalk.check)


if __name__ == "__main__":
    sys.exit(main())
