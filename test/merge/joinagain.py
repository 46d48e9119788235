#!/usr/bin/env python3
"""Under --incremental-merge, the sides of a loop's branch are not joined with ite when the
comparison they parted at is asked again after the join, in the rest of the iteration or
after the loop (merge/incremental.c, parted_on_a_later_question): the joined state would be
split there into the two sides again, each carrying the join's disjunction (libtasn1
decode_simple_der, apr fnmatch: eval/real/RESULTS.md, "Joins whose sides part again"). Every
run is --search=dfs --merge=pat --incremental-merge=on, validated, and reports
--merge=none's errors:

- tag (test/merge/joinagain/tag.c, asn1_get_tag_der in small): `if (punt >= len)` after the
  loop asks the loop's `punt < len` again, so its `&&` joins nothing (the old binary joined 4
  nodes); as that is the loop's only join, its region opens without the incremental part
  (merge_decide_joins_declined, test/merge/incplain.py), which is what is counted;
- star (test/merge/joinagain/star.c, apr_fnmatch's run of wildcards): the body asks the
  condition's `*p == '*'` again, through a pointer kept in memory: declined (the old binary
  joined there);
- length (test/merge/joinagain/length.c, asn1_get_length_der in small): nothing after the
  loop asks `punt <= k` or `punt < len` again, and its sides are joined as before;
- escape (test/merge/joinagain/escape.c, busybox's bb_process_escape_sequence in small): the
  digit loop's classes of `*q` are not joined, for past the loop `*q` is looked up letter by
  letter (another comparison of the same byte; the old binary joined 22 nodes): as they are
  that loop's only joins, its region now opens without the incremental part (counted);
- byte (the same, -DWITH_CALL): a defined callee in the loop keeps the incremental part, and
  the byte rule (merge/decide.c, MERGE_ASKED_BYTE) declines the classes' joins itself;
- digits (the same, -DNO_LETTERS): no lookup past the loop, and the classes are joined.

    joinagain.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
DECLINED = "join declined: the comparison its sides parted at is asked again after the join"
BYTE = "join declined: the byte its sides parted at is compared again after the loop"
PLAIN = "incremental part not opened: every join in its loop would be declined"


def check(symq, scratch, name, declined, defines=(), decision=DECLINED):
    """The driver under pat-inc (validated) and none; what pat-inc joined and declined."""
    driver = os.path.join(HERE, "joinagain", name + ".c")
    declines, merged, summary = outdir.joins_declined(symq, driver, scratch,
                                                      ["--search=dfs", *defines], decision)
    if declined is None:
        assert declines == 0 and merged > 0, summary
    else:
        assert declines > 0 and merged <= declined, summary
    return summary


def main():
    results = []
    with tempfile.TemporaryDirectory(prefix="symq-joinagain-") as scratch:
        # the most nodes merged (equal snapshots) where joins are declined; None: none declined
        outdir.check("tag", lambda: check(sys.argv[1], scratch, "tag", 0, decision=PLAIN),
                     results)
        for name, declined in (("star", 9), ("length", None)):
            outdir.check(name, lambda n=name, d=declined: check(sys.argv[1], scratch, n, d),
                         results)
        outdir.check("escape", lambda: check(sys.argv[1], scratch, "escape", 0, decision=PLAIN),
                     results)
        # a defined callee keeps the incremental part open: the byte rule itself declines
        outdir.check("byte", lambda: check(sys.argv[1], scratch, "escape", 0, ["-DWITH_CALL"],
                                           BYTE), results)
        outdir.check("digits", lambda: check(sys.argv[1], scratch, "escape", None,
                                             ["-DNO_LETTERS"], BYTE), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
