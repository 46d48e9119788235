#!/usr/bin/env python3
"""check_layers.py ROOT — symq's folders form the layers docs/ARCHITECTURE.md draws.

Every `#include "..."` of symq's own code (engine/, merge/, qsolver/, runtime/) is resolved to
a file and so to a folder; a folder may include only the folders below it:

    engine/cli  ->  engine/exec  ->  merge  ->  qsolver  ->  engine/core
    prune (pruning by interpolation) is used by engine/exec and engine/cli, and uses qsolver
    and engine/core: it sits beside merge, which it does not use (nor merge it)
    engine/out is used by engine/cli and engine/exec only, and uses engine/core
    runtime/ (the runtime's own code and the formats it shares with symq) uses nothing above it

so the folder include graph is acyclic. An include that names no file of the tree is an
error too (a stale path after a move). `--self-test` checks the checker on made-up trees.
Exit 0 when the tree keeps its layers, 1 with one line per violation otherwise.
"""
import os
import re
import sys
import tempfile

LAYERS = ["engine/core", "engine/out", "engine/exec", "engine/cli", "merge", "prune", "qsolver",
          "runtime"]
# Which folders each folder may include, besides itself.
ALLOWED = {
    "engine/core": {"runtime"},
    "qsolver": {"engine/core"},
    "merge": {"qsolver", "engine/core"},
    "prune": {"qsolver", "engine/core"},
    "engine/out": {"engine/core", "runtime"},
    "engine/exec": {"merge", "prune", "qsolver", "engine/core", "engine/out", "runtime"},
    "engine/cli": {"engine/exec", "merge", "prune", "qsolver", "engine/core", "engine/out",
                   "runtime"},
    "runtime": set(),
}
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
SOURCE = re.compile(r"\.(c|h)$")


def layer_of(path):
    """The layer folder of a repository-relative path, or None outside symq's code."""
    for layer in sorted(LAYERS, key=len, reverse=True):
        if path == layer or path.startswith(layer + "/"):
            return layer
    return None


def sources(root):
    for layer in LAYERS:
        top = os.path.join(root, layer)
        for directory, _, files in os.walk(top):
            for name in sorted(files):
                if SOURCE.search(name):
                    yield os.path.relpath(os.path.join(directory, name), root)


def resolve(root, including, name):
    """The repository-relative file an include names: beside the includer, from the root,
    or (for the runtime's headers) from runtime/include."""
    for base in (os.path.dirname(including), "", "runtime/include"):
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate
    return None


def violations(root):
    """One message per include that breaks the layers or names no file, and the edges."""
    problems, edges = [], {}
    for path in sources(root):
        source_layer = layer_of(path)
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = resolve(root, path, m.group(1))
                if target is None:
                    problems.append(f"{path}:{number}: includes \"{m.group(1)}\", which names "
                                    "no file of the tree")
                    continue
                target_layer = layer_of(target)
                if target_layer is None or target_layer == source_layer:
                    continue
                edges.setdefault(source_layer, set()).add(target_layer)
                if target_layer not in ALLOWED[source_layer]:
                    problems.append(f"{path}:{number}: includes {target}: {source_layer}/ may "
                                    f"not use {target_layer}/")
    return problems, edges


def cycle(edges):
    """A cycle of the folder graph as a list of folders, or None."""
    colour = {}

    def visit(node, trail):
        colour[node] = "grey"
        for nxt in sorted(edges.get(node, ())):
            if colour.get(nxt) == "grey":
                return trail[trail.index(nxt):] + [nxt] if nxt in trail else [node, nxt]
            if nxt not in colour:
                found = visit(nxt, trail + [nxt])
                if found:
                    return found
        colour[node] = "black"
        return None

    for start in sorted(edges):
        if start not in colour:
            found = visit(start, [start])
            if found:
                return found
    return None


def check(root):
    problems, edges = violations(root)
    loop = cycle(edges)
    if loop:
        problems.append("the folder include graph has a cycle: " + " -> ".join(loop))
    return problems


def self_test():
    """The checker must pass a layered tree and catch an upward include, a stale path and a
    cycle; a checker that passes everything fails here."""
    def tree(files):
        root = tempfile.mkdtemp(prefix="symq-layers-")
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        return root

    good = {"engine/core/expr.h": "", "qsolver/qsolver.h": '#include "engine/core/expr.h"\n',
            "merge/region.h": '#include "qsolver/qsolver.h"\n',
            "engine/exec/interp.c": '#include "merge/region.h"\n#include "engine/out/output.h"\n',
            "engine/out/output.h": '#include "engine/core/expr.h"\n',
            "engine/cli/run.c": '#include "engine/exec/interp.h"\n',
            "engine/exec/interp.h": "", "runtime/lib/a.c": '#include "klee/klee.h"\n',
            "runtime/include/klee/klee.h": ""}
    assert check(tree(good)) == [], check(tree(good))
    upward = dict(good, **{"merge/region.h": '#include "engine/out/output.h"\n'})
    found = check(tree(upward))
    assert len(found) == 1 and "merge/ may not use engine/out/" in found[0], found
    stale = dict(good, **{"engine/cli/run.c": '#include "engine/run.h"\n'})
    found = check(tree(stale))
    assert len(found) == 1 and "names no file" in found[0], found
    looped = dict(good, **{"engine/core/expr.h": '#include "qsolver/qsolver.h"\n'})
    found = check(tree(looped))
    assert any("core/ may not use qsolver/" in p for p in found), found
    assert any("cycle: " in p for p in found), found
    print("check_layers: self-test passed")


def main():
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        self_test()
        return 0
    if len(sys.argv) != 2:
        print("usage: check_layers.py ROOT | --self-test", file=sys.stderr)
        return 2
    problems = check(sys.argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"check_layers: {len(problems)} include(s) break the layers")
        return 1
    print("check_layers: every include keeps the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
