#!/usr/bin/env python3
"""The tree facts pattern merging reads, on real runs: each driver runs with --merge=cfg
--dump-tree; in every region's tree (region*.dot) every leaf's word (the symbols on its path,
riders left out) is cut into iterations at the loop header's staying symbol, and every
iteration but the last of every leaf must be the same symbol sequence; no region may have an
invalid pattern hash, and the longest word must hold at least CAPACITY - 1 iterations.

    tree_words.py SYMQ_BINARY

Prints one line per driver and a final `N passed, N failed`; exit status 1 on any failure."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CAPACITY = 5
DRIVERS = ["memspn.c", "strlen.c", "strspn.c", "strchr.c"]

NODE = re.compile(r'^\s*n(\d+) \[label="n\d+: state \d+"')
EDGE = re.compile(r'^\s*n(\d+) -> n(\d+) \[label="(.*)"(, style=dotted)?\];$')
SYMBOL = re.compile(r'#([0-9a-f]{16}) @(\d+):(\d+)/(\d+)$')


def words(dot):
    parent, symbol, leaves = {}, {}, []
    for line in dot.splitlines():
        m = NODE.match(line)
        if m:
            leaves.append(int(m.group(1)))
        m = EDGE.match(line)
        if m:
            child = int(m.group(2))
            parent[child] = int(m.group(1))
            s = SYMBOL.search(m.group(3))
            if bool(s) == bool(m.group(4)):
                raise ValueError(f"edge to n{child}: a symbol must be solid, a rider dotted")
            symbol[child] = s.group(1) if s else None
    for leaf in leaves:
        word, n = [], leaf
        while n in parent:
            if symbol[n]:
                word.append(symbol[n])
            n = parent[n]
        yield word[::-1]


def check(symq, driver):
    with tempfile.TemporaryDirectory(prefix="symq-words-") as tmp:
        out = os.path.join(tmp, "out")
        run = subprocess.run([symq, "run", "--merge=cfg", "--dump-tree", "--solver-timeout=120s",
                              f"--output-dir={out}", f"-DCAPACITY={CAPACITY}",
                              os.path.join(ROOT, "drivers", driver)],
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            return f"symq failed: {run.stderr.strip()[-300:]}"
        stats = json.load(open(os.path.join(out, "stats.json")))["merge"]
        if stats["regions_hash_invalid"]:
            return f"invalid pattern hash: {stats['regions_hash_invalid']}"
        dots = sorted(glob.glob(os.path.join(out, "region*.dot")))
        if not dots:
            return "no region was opened"
        most = 0
        for path in dots:
            ws = list(words(open(path).read()))
            header = max(ws, key=len)[0]
            body = None
            for w in ws:
                cuts = [k for k, s in enumerate(w) if s == header] + [len(w)]
                iterations = [tuple(w[a:b]) for a, b in zip(cuts, cuts[1:])][:-1]
                most = max(most, len(iterations))
                for it in iterations:
                    if body is None:
                        body = it
                    elif it != body:
                        return f"{os.path.basename(path)}: iterations differ: {body} vs {it}"
        if most < CAPACITY - 1:
            return f"only {most} iterations in the longest word"
        return None


def main():
    symq = sys.argv[1]
    failed = 0
    for driver in DRIVERS:
        problem = check(symq, driver)
        print(f"FAIL {driver}: {problem}" if problem else f"PASS {driver}")
        failed += problem is not None
    print(f"{len(DRIVERS) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
