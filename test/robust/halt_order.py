#!/usr/bin/env python3
"""halt_order.py SYMQ — the order in which a halt ends the states left (engine/exec/interp.c,
cmp_halt_order): the oldest first (under dfs the shallowest, whose model queries cost least,
siblings in a row), so that more states get a test within the halt's budget.

halt_order.c under dfs, halted by --max-instructions (no time enters): the sibling forked at
its k-th branch holds k formulas and is paused at that branch's line, so the tests' `.early`
files, in test order, must name the branches' lines in increasing order (before, the newest
state came first: the deepest). Prints `PASS what` / `FAIL what: why`, then `N passed, N
failed`; exit status 1 on a failure.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
from script_report import report  # noqa: E402  (PASS/FAIL lines and the count, as CI parses them)

DRIVER = os.path.join(HERE, "halt_order.c")


def branch_lines():
    """The lines of halt_order.c's eight `if (in[...` branches, in source order."""
    with open(DRIVER) as f:
        return [n for n, text in enumerate(f, 1) if re.match(r"\s*if \(in\[\d\] > 100\)", text)]


def main():
    symq = sys.argv[1]
    results = []
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        p = subprocess.run([symq, "run", "--search=dfs", "--no-progress", "--max-instructions=3000",
                            f"--output-dir={out}", DRIVER], capture_output=True, text=True)
        stats = json.load(open(os.path.join(out, "stats.json"))) if p.returncode == 0 else {}
        ok = p.returncode == 0 and stats.get("tests") == 9 and stats.get("tests_lost") == 0
        results.append(("nine states halted, each with its test", ok,
                        f"exit {p.returncode}, stats {stats.get('tests')} tests, "
                        f"{stats.get('tests_lost')} lost: {p.stderr[-300:]}"))
        lines = []
        for path in sorted(glob.glob(os.path.join(out, "test*.early"))):
            with open(path) as f:
                m = re.search(r"^Line: (\d+)$", f.read(), re.M)
                lines.append(int(m.group(1)) if m else None)
        want = branch_lines()
        at_branches = [n for n in lines if n in want]
        results.append(("the halt ends the oldest (shallowest) states first",
                        len(want) == 8 and at_branches == want,
                        f"lines in test order {lines}, branches at {want}"))
    return report(results)


if __name__ == "__main__":
    sys.exit(main())
