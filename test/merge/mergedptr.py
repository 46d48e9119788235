#!/usr/bin/env python3
"""A CFG merge's pointer, an ite over the members' constant offsets (merge/strategy_cfg.c,
engine/core/memory.c and expr.c; docs/merging.md "CFG merging"): a store through it is a
guarded store at each cell, a branch whose two sides both reach the members leaves no
disjunction in the merged pc, and a comparison with a symbolic term is the members'. Each
test/merge/mergedptr/*.c states on an `EXPECT: merged-pc-nodes<=N` line the bound on
stats.json's merged pc size (above it on b7d4760).

Under --merge=pat --merge-decide=always, validated (--validate-merges --validate-qsolver), and
the same with --incremental-merge=on: the exploration ends, no merge fails its validation,
every path has its test, the errors are --merge=none's, no write at a symbolic offset is
counted beyond none's, and the merged pcs hold at most N nodes.

    mergedptr.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-mergedptr-")
OPTIONS = ["--search=dfs", "--passes=mem2reg"]


def check(symq, driver):
    bound = int(outdir.expect_line(driver, r"merged-pc-nodes<=(\d+)").group(1))
    plain, plain_out = outdir.run_mode(symq, driver, "none", SCRATCH.name, every=OPTIONS)
    seen = []
    for extra in ([], ["--incremental-merge=on"]):
        stats, out = outdir.run_mode(symq, driver, "pat", SCRATCH.name,
                                     ["--merge-decide=always", *extra], every=OPTIONS)
        m = stats["merge"]
        assert stats["exhausted"], "exploration incomplete"
        assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed"
        assert not outdir.quantified_problems(stats), outdir.quantified_problems(stats)
        outdir.tests_accounted(stats, out)
        assert outdir.errors(out) == outdir.errors(plain_out), "errors differ"
        assert m["merges"] > 0, f"nothing merged: {m['decisions']}"
        writes, none_writes = stats["memory"]["symbolic_writes"], plain["memory"]["symbolic_writes"]
        assert writes == none_writes, f"{writes} symbolic writes, none {none_writes}"
        assert m["merged_pc_nodes"] <= bound, f"{m['merged_pc_nodes']} merged pc nodes > {bound}"
        seen.append(f"{' '.join(extra) or 'pat'}: {m['merges']} merges, "
                    f"{m['merged_pc_nodes']} pc nodes")
    return "; ".join(seen)


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "mergedptr"), check)


if __name__ == "__main__":
    sys.exit(main())
