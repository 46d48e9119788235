#!/usr/bin/env python3
"""Under --incremental-merge, a join site joins no more once a join made there was split again
outside its loop on exactly the condition one side's path took (merge/incremental.c, "joins
undone after their loop"): apr escape_shell's measuring loop joins its byte test's sides,
and the driver's writing loop branches on the same bytes again (eval/real/RESULTS.md,
"Joins a later fork undoes"). Every run is --search=dfs --merge=pat --incremental-merge=on,
validated, and reports --merge=none's errors:

- escape (test/merge/undone/escape.c): the first lengths' joins are split again by the
  writing loop, and the later lengths' measuring loops decline theirs (the old binary joined
  16 nodes and declined none);
- measure (the same, -DMEASURE_ONLY): nothing branches on the bytes after the measure, and
  every join is made as before;
- equal (test/merge/undone/equal.c): the measuring loop records only whether a special byte
  occurs, so its header's sides are equal once both have seen one; those equal merges are
  split again by the writing loop too, and once the site is undone it makes none (6fd46fb
  merged 7 nodes there: the header's ite join, its equal merge, and five equal merges of
  the table read's sides, which no later fork splits and which are still made);
- checked (test/merge/undone/checked.c): the first loop keeps nothing of the byte, so its
  sides are equal at every join and no ite join is made there; the writing loop splits those
  equal merges again, but an equal merge does not undo its site, and none is declined
  (a906a14; before it 18 were, the first lengths' split equal merges undoing the site).

The programs share the special bytes, the writing loop and the input
(test/merge/undone/shell.h).

    undone.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
DECLINED = "join declined: a join here was split again on its sides' own condition after its loop"


def check(symq, scratch, defines, undone):
    """escape.c under pat-inc (validated) and none; what pat-inc joined and declined."""
    driver = os.path.join(HERE, "undone", "escape.c")
    declines, merged, summary = outdir.joins_declined(symq, driver, scratch,
                                                      ["--search=dfs", *defines], DECLINED)
    if undone:
        assert declines > 0 and merged < 16, summary
    else:
        assert declines == 0 and merged == 16, summary
    return summary


def check_equal(symq, scratch):
    """equal.c under pat-inc (validated) and none: the header's equal merge is declined."""
    driver = os.path.join(HERE, "undone", "equal.c")
    declines, merged, summary = outdir.joins_declined(symq, driver, scratch, ["--search=dfs"],
                                                      DECLINED, "merges")
    assert declines > 0 and merged < 7, summary
    return summary


def check_checked(symq, scratch):
    """checked.c under pat-inc (validated) and none: equal merges split again decline none."""
    driver = os.path.join(HERE, "undone", "checked.c")
    declines, merged, summary = outdir.joins_declined(symq, driver, scratch, ["--search=dfs"],
                                                      DECLINED, "merges")
    assert declines == 0 and merged > 0, summary
    return summary


def main():
    results = []
    with tempfile.TemporaryDirectory(prefix="symq-undone-") as scratch:
        for name, defines, undone in (("escape", [], True), ("measure", ["-DMEASURE_ONLY"], False)):
            outdir.check(name, lambda d=defines, u=undone: check(sys.argv[1], scratch, d, u),
                         results)
        outdir.check("equal", lambda: check_equal(sys.argv[1], scratch), results)
        outdir.check("checked", lambda: check_checked(sys.argv[1], scratch), results)
    return outdir.tally(results)


if __name__ == "__main__":
    sys.exit(main())
