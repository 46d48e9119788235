#!/usr/bin/env python3
"""Merge decisions that see a copy of the ∀'s buffer walked again (issue 26, item 1): json-c's
json_pointer_get shape — strchr over a strdup copy, a store at the address it returns, then
walks of the segment. Each test/merge/copywalk/*.c states on an `EXPECT:` line the decision
--merge=pat must take on its ∀ merge and, as `forall="..."`, the text of that ∀'s body in
--dump-tree; the checks are rewalk.py's: the reason counted and dumped, no merged state holding
that ∀ under the cost decision, one under --merge-decide=always, sound (validated) runs, the
errors none reports.

    copywalk.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys

import outdir
import rewalk

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "copywalk"), rewalk.check)


if __name__ == "__main__":
    sys.exit(main())
