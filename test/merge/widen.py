#!/usr/bin/env python3
"""Loops PAT merges by pattern beyond one path per iteration (issue 26, item 3): each
test/merge/widen/*.c states on an `// EXPECT-PAT:` line how many merges by pattern
(merge.pat.merges) and how many constituents (merge.pat.merged_states) --merge=pat makes,
and on an optional `// ARGS-PAT:` line the options pat needs besides (--incremental-merge;
--merge-decide=always where the query-count estimate of merge/decide would decline the
merge because the assertions after the loop read the ∀'s array: these drivers test what PAT
can merge, test/merge/decide.py tests when it should).
Each driver runs with --merge=none and with --merge=pat --validate-merges
--validate-qsolver; under pat the counts must be exactly those, with no fallback, no
region whose pattern hash was invalid, no failed validation and no quantified answer that
Z3 disagrees with; both modes must report the same errors (kind and line), complete
exploration, and pat must complete fewer paths than none.

    widen.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import os
import re
import sys
import tempfile

import outdir

HERE = os.path.dirname(os.path.abspath(__file__))
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-widen-")


def run(symq, driver, mode, options=()):
    stats, out = outdir.run_mode(symq, driver, mode, SCRATCH.name, options)
    return stats, outdir.errors(out)


def expected(driver):
    with open(driver) as f:
        text = f.read()
    m = re.search(r"^// EXPECT-PAT: merges=(\d+) merged_states=(\d+)$", text, re.M)
    assert m, f"{os.path.basename(driver)}: no EXPECT-PAT line"
    options = re.search(r"^// ARGS-PAT: (.*)$", text, re.M)
    return int(m.group(1)), int(m.group(2)), options.group(1).split() if options else []


def check(symq, driver):
    merges, merged_states, options = expected(driver)
    plain, plain_errors = run(symq, driver, "none")
    stats, errors = run(symq, driver, "pat", options)
    m, pat = stats["merge"], stats["merge"]["pat"]
    problems = outdir.quantified_problems(stats)
    assert not problems, "; ".join(problems)
    assert m["validation_failures"] == 0, f"{m['validation_failures']} merges failed validation"
    assert not m["regions_hash_invalid"], f"invalid pattern hash: {m['regions_hash_invalid']}"
    assert not pat["fallbacks"], f"fallbacks: {pat['fallbacks']}"
    assert (pat["merges"], pat["merged_states"]) == (merges, merged_states), \
        f"pat merged {pat['merges']} times ({pat['merged_states']} states), " \
        f"expected {merges} ({merged_states})"
    assert plain["exhausted"] and stats["exhausted"], "exploration incomplete"
    assert errors == plain_errors, f"errors differ: none {sorted(plain_errors)}, " \
        f"pat {sorted(errors)}"
    assert stats["completed_paths"] < plain["completed_paths"], \
        f"pat completed {stats['completed_paths']} paths, none {plain['completed_paths']}"
    return (f"{merges} merges by pattern of {merged_states} states; paths "
            f"{plain['completed_paths']} -> {stats['completed_paths']}; "
            f"errors {sorted(errors)}")


def main():
    return outdir.check_folder(sys.argv[1], os.path.join(HERE, "widen"), check)


if __name__ == "__main__":
    sys.exit(main())
