#!/usr/bin/env python3
"""Interpolation never changes the answer (issue 22): small programs generated from fixed
seeds (symbolic choices in main and in a callee, loops, stores to a global array,
assumptions, divisions, checks in a callee or inline) each run four ways — plain forking,
--interpolate, --interpolate --validate-interpolation, --interpolate=wp
--validate-interpolation — must give the same verdict word and report the same error
locations, validation must pass, and over the set some states
must have been subsumed (or the comparison would prove nothing).

    differential.py SYMQ_BINARY

Prints one line per program and a final `N passed, N failed`."""
import json
import os
import random
import subprocess
import sys
import tempfile

SEEDS = range(1000, 1016)
SCRATCH = tempfile.TemporaryDirectory(prefix="symq-prune-differential-")


def program(seed):
    r = random.Random(seed)
    n = r.randint(2, 4)
    lines = ["#include <klee/klee.h>", "void reach_error(void);", "int g, arr[3];",
             "static int step(int x, int k) {",
             f"  if (x > {r.randint(0, 120)}) return k + {r.randint(0, 2)};",
             f"  if (x == {r.randint(0, 5)}) arr[{r.randint(0, 2)}] = k;",
             "  return k - 1;", "}",
             "static void check(int a, int b) {",
             f"  if (a {r.choice(['==', '>', '<'])} b + {r.randint(-2, 2)}) "
             f"{{ if (b == {r.randint(0, 4)}) reach_error(); }}",
             "}",
             "int main(void) {", f"  int p[{n}], y, q = 0, w = 0;",
             '  klee_make_symbolic(p, sizeof p, "p");', '  klee_make_symbolic(&y, sizeof y, "y");']
    for i in range(n):
        kind = r.randint(0, 3)
        if kind == 0:
            lines.append(f"  q = step(p[{i}], q);")
        elif kind == 1:
            lines.append(f"  if (p[{i}] > {r.randint(0, 150)}) w += {r.randint(1, 3)}; "
                         f"else arr[{r.randint(0, 2)}] ^= 1;")
        elif kind == 2:
            lines.append(f"  for (int j = 0; j < 2; j++) if (p[{i}] + j > {r.randint(0, 100)}) q++;")
        else:
            lines.append(f"  if (y == {r.randint(0, 6)}) klee_assume(p[{i}] > {r.randint(0, 50)});")
    for _ in range(r.randint(1, 2)):
        a = r.choice(["q", "w", "g", "arr[0]", "arr[1]", "y", "p[0]"])
        b = r.choice(["q", "w", "y", "arr[2]"])
        if r.random() < 0.3:
            lines.append(f"  if ({a} != {r.randint(0, 3)}) "
                         f"g = {r.randint(50, 90)} / ({b} - {r.randint(0, 3)} + 1);")
        else:
            lines.append(f"  check({a}, {b});")
    lines.append("  return 0;\n}\n")
    return "\n".join(lines)


def run(symq, source, options, tag):
    out = os.path.join(SCRATCH.name, tag)
    p = subprocess.run([symq, "run", *options, f"--output-dir={out}", source],
                       capture_output=True, text=True, timeout=300)
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
        stats = json.load(f)
    errors = sorted({line for line in p.stderr.split("\n") if line.startswith("symq: ERROR")})
    return p.returncode, stats, errors


def main():
    symq = sys.argv[1]
    passed, failed, subsumed = 0, 0, 0
    for seed in SEEDS:
        source = os.path.join(SCRATCH.name, f"p{seed}.c")
        with open(source, "w", encoding="utf-8") as f:
            f.write(program(seed))
        runs = [run(symq, source, options, f"{seed}-{k}") for k, options in enumerate(
            ([], ["--interpolate"], ["--interpolate", "--validate-interpolation"],
             ["--interpolate=wp", "--validate-interpolation"]))]
        words = [stats["verdict"].split(" ")[0] for _, stats, _ in runs]
        ok = (all(rc == 0 for rc, _, _ in runs) and len(set(words)) == 1
              and runs[0][2] == runs[1][2] == runs[2][2] == runs[3][2]
              and runs[2][1]["interpolation"]["validation_failures"] == 0
              and runs[3][1]["interpolation"]["validation_failures"] == 0)
        subsumed += runs[1][1]["subsumed"]
        print(f"{'ok  ' if ok else 'FAIL'} seed {seed}: verdicts {'/'.join(words)}, forks "
              f"{runs[0][1]['forks']}/{runs[1][1]['forks']}, subsumed {runs[1][1]['subsumed']} "
              f"(wp {runs[3][1]['subsumed']}), "
              f"errors {len(runs[0][2])}/{len(runs[1][2])}/{len(runs[2][2])}/{len(runs[3][2])}")
        passed, failed = passed + ok, failed + (not ok)
    ok = subsumed > 0
    print(f"{'ok  ' if ok else 'FAIL'} some states were subsumed ({subsumed})")
    passed, failed = passed + ok, failed + (not ok)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
