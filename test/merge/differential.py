#!/usr/bin/env python3
"""Differential test of merging: generated loop programs over a buffer of symbolic size run
with --merge=none and with --merge=cfg and --merge=pat (both --validate-merges, pat also
--validate-qsolver) must report the same errors (kind and line) and cover the same lines, and
no merged state may fail validation nor quantified answer disagree with Z3.

    differential.py SYMQ_BINARY [--programs N] [--seed S] [--keep DIR]

The programs are generated from the seed (deterministic): a loop over s[0..n), n ≤ 3,
whose body mixes byte comparisons, accumulators, early breaks and assertions that fail on
some paths, followed by checks on the loop's results. Each program is compiled once, as symq
would compile it (test/e2e/bitcode.py), and the three runs load that bitcode. Prints one line
per program and a final `N passed, N failed`; exit status 1 on any failure."""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

import outdir

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "e2e"))
import bitcode  # noqa: E402  (a program compiled once, as symq compiles it)

HEADER = """#include <klee/klee.h>
#include <stdlib.h>

int main(void) {
  size_t n;
  klee_make_symbolic(&n, sizeof n, "n");
  klee_assume(n <= %(cap)d);
  char *s = malloc(n + 1);
  klee_make_symbolic(s, n + 1, "s");
  s[n] = 0;
  int acc = %(init)d, hits = 0;
  size_t i = 0;
  for (; i < n; i++) {
"""


def body_statement(rng):
    c = rng.choice("abcz0")
    k = rng.randint(1, 5)
    kind = rng.randrange(6)
    if kind == 0:
        return f"    if (s[i] == '{c}') acc += {k};"
    if kind == 1:
        return f"    if (s[i] != '{c}') hits++;"
    if kind == 2:
        return f"    if (s[i] == '{c}') break;"
    if kind == 3:
        return f"    acc ^= (s[i] > '{c}') ? {k} : 0;"
    if kind == 4:
        return f"    klee_assert(acc < {rng.randint(3, 12)});"
    return f"    if (hits > {rng.randint(1, 3)}) break;"


def after_statement(rng):
    kind = rng.randrange(3)
    if kind == 0:
        return f"  if (acc == {rng.randint(0, 6)}) klee_assert(i != {rng.randint(0, 3)});"
    if kind == 1:
        return f"  klee_assert(hits <= {rng.randint(1, 3)} || acc != {rng.randint(0, 5)});"
    return "  if (i > 0 && s[i - 1] == 'z') hits += 2;"


def generate(rng):
    lines = [HEADER % {"cap": 3, "init": rng.randint(0, 2)}]
    lines += [body_statement(rng) for _ in range(rng.randint(2, 4))]
    lines.append("  }")
    lines += [after_statement(rng) for _ in range(rng.randint(1, 2))]
    lines.append("  return acc + hits;\n}\n")
    return "\n".join(lines)


def run(symq, source, mode, tmp):
    out = os.path.join(tmp, mode)
    args = [symq, "run", "--no-progress", "--solver-timeout=120s", f"--merge={mode}",
            f"--output-dir={out}", source]
    if mode != "none":
        args[3:3] = outdir.validation(mode)
    p = subprocess.run(args, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise RuntimeError(f"{mode}: exit status {p.returncode}: "
                           f"{(p.stderr.strip().splitlines() or [''])[-1]}")
    with open(os.path.join(out, "stats.json")) as f:
        stats = json.load(f)
    return stats, outdir.errors(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--programs", type=int, default=12)
    ap.add_argument("--seed", type=int, default=20261122)
    ap.add_argument("--keep", help="write the generated programs to this directory")
    opts = ap.parse_args()
    rng = random.Random(opts.seed)
    passed = failed = merged_any = 0
    for k in range(opts.programs):
        source_text = generate(rng)
        with tempfile.TemporaryDirectory(prefix="symq-diff-") as tmp:
            source = os.path.join(tmp, f"loop{k:02d}.c")
            with open(source, "w") as f:
                f.write(source_text)
            if opts.keep:
                os.makedirs(opts.keep, exist_ok=True)
                with open(os.path.join(opts.keep, f"loop{k:02d}.c"), "w") as f:
                    f.write(source_text)
            try:
                source = bitcode.compile_driver(opts.symq, source, source[:-2] + ".bc")
                base, base_errors = run(opts.symq, source, "none", tmp)
                problems, results = [], {}
                for mode in ("cfg", "pat"):
                    merged, merged_errors = run(opts.symq, source, mode, tmp)
                    if base_errors != merged_errors:
                        problems.append(f"errors differ: none {sorted(base_errors)} "
                                        f"{mode} {sorted(merged_errors)}")
                    if base["covered_lines"] != merged["covered_lines"]:
                        problems.append(f"covered lines differ: none {base['covered_lines']} "
                                        f"{mode} {merged['covered_lines']}")
                    if merged["merge"]["validation_failures"]:
                        problems.append(f"a {mode} merged state failed validation")
                    problems += [f"{mode}: {p}" for p in outdir.quantified_problems(merged)]
                    if not (base["exhausted"] and merged["exhausted"]):
                        problems.append(f"a run was not exhaustive ({mode})")
                    merged_any += merged["merge"]["merges"] > 0
                    results[mode] = merged
            except (RuntimeError, subprocess.TimeoutExpired) as e:
                problems = [str(e)]
        if problems:
            failed += 1
            print(f"FAIL loop{k:02d}: " + "; ".join(problems), flush=True)
        else:
            passed += 1
            print(f"PASS loop{k:02d}: {len(base_errors)} errors, "
                  f"{base['completed_paths']} paths forked; " +
                  ", ".join(f"{m}: {r['merge']['merges']} merges, {r['completed_paths']} paths"
                            for m, r in results.items()), flush=True)
    if passed and not merged_any:
        failed += 1
        print("FAIL: no program merged anything: the test would not notice a broken merge")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
