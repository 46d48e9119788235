#!/usr/bin/env python3
"""Under --incremental-merge, a region whose loop's every ite join would be declined opens
without its incremental part (merge/decide.c, merge_decide_joins_declined): its breadth-first
turns and snapshots would buy nothing (busybox printf_escape, libtasn1 get_tag_der:
eval/real/RESULTS.md, "pat-inc's losers within 1.1×"). Every run is --search=dfs
--merge=pat --incremental-merge=on, validated, and reports --merge=none's errors:

- tag (test/merge/incplain/tag.c, asn1_get_tag_der in small, with an overflow check whose
  unsigned `b < 0` never forks): the `&&`'s sides are parted by `punt < len`, asked again
  after the loop; the other side of the `&&` is its constant false, which leaves the loop.
  The region opens plain (the old binary opened the incremental part and declined its
  joins);
- other (the same, -DLOOK_AGAIN_NOT): nothing after the loop asks `punt < len` again, and the
  region keeps its incremental part.

    incplain.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
PLAIN = "incremental part not opened: every join in its loop would be declined"


def check(symq, scratch, defines, plain):
    """tag.c under pat-inc (validated) and none; whether its regions opened plain."""
    driver = os.path.join(HERE, "incplain", "tag.c")
    opened, merged, summary = outdir.joins_declined(symq, driver, scratch,
                                                    ["--search=dfs", *defines], PLAIN,
                                                    "incremental parts")
    if plain:
        assert opened > 0 and merged == 0, summary
    else:
        assert opened == 0, summary
    return summary


def main():
    results = []
    with tempfile.TemporaryDirectory(prefix="symq-incplain-") as scratch:
        outdir.check("tag", lambda: check(sys.argv[1], scratch, (), True), results)
        outdir.check("other", lambda: check(sys.argv[1], scratch, ["-DLOOK_AGAIN_NOT"], False),
                     results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
