#!/usr/bin/env python3
"""Under --incremental-merge, the sides of a loop's branch are not joined with ite when the
code after the loop asks the comparison they parted at again (merge/incremental.c,
parted_on_a_later_question): the joined state would leave the loop only to be split there
into the two sides again, each carrying the join's disjunction (libtasn1 decode_simple_der:
eval/real/RESULTS.md, "Joins whose sides part again after the loop"). Every run is
--search=dfs --merge=pat --incremental-merge=on, validated:

- tag (test/merge/joinagain/tag.c, asn1_get_tag_der in small): `if (punt >= len)` after the
  loop asks the loop's `punt < len` again, so its `&&` joins nothing (the decision is counted;
  the old binary joined 4 nodes), and the errors are --merge=none's;
- length (test/merge/joinagain/length.c, asn1_get_length_der in small): nothing after the
  loop asks `punt <= k` or `punt < len` again, and its sides are joined as before.

    joinagain.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-joinagain-")
DECLINED = "join declined: the code after the loop asks where its sides parted again"
OPTIONS = ["--search=dfs"]


def check(symq, name, declined):
    driver = os.path.join(HERE, "joinagain", name + ".c")
    inc, inc_out = outdir.run_mode(symq, driver, "pat", SCRATCH.name,
                                   ["--incremental-merge=on", *OPTIONS])
    merge = inc["merge"]
    assert inc["exhausted"], "exploration incomplete"
    assert merge["validation_failures"] == 0, f"{merge['validation_failures']} merges failed"
    outdir.tests_accounted(inc)
    plain, plain_out = outdir.run_options(symq, driver, SCRATCH.name, ["--merge=none", *OPTIONS])
    assert outdir.errors(inc_out) == outdir.errors(plain_out), "errors differ from none's"
    declines = merge["decisions"].get(DECLINED, 0)
    merged = merge["incremental"]["nodes_merged"]
    if declined:
        assert declines > 0, "no join declined"
        assert merged == 0, f"{merged} nodes merged"
        return f"{declines} joins declined, none made; {inc['completed_paths']} paths"
    assert declines == 0, f"{declines} joins declined"
    assert merged > 0, "no node merged incrementally"
    return f"{merged} nodes merged; {inc['completed_paths']} paths (none {plain['completed_paths']})"


def main():
    results = []
    for name, declined in (("tag", True), ("length", False)):
        outdir.check(name, lambda n=name, d=declined: check(sys.argv[1], n, d), results)
    print(f"{sum(results)} passed, {len(results) - sum(results)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
