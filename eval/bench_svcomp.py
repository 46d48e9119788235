#!/usr/bin/env python3
"""SV-COMP reachability tasks (issue 22): `symq run --svcomp` plainly (forking) and with
`--interpolate` (deletion, and =wp), on a local directory of tasks laid out as sv-benchmarks
is; per task the expected verdict, symq's SV-COMP result per mode, forks, subsumed states,
states covered by an ancestor,
completed paths and CPU time, and every --interpolate run checked once more with
--validate-interpolation. As SV-COMP tools do, a run stops at the first call of reach_error
(--exit-on-error-type=reach_error).

    eval/bench_svcomp.py SYMQ TASKS_DIR [--folders locks,loops,psyco,ntdrivers-simplified]
                         [--tasks GLOB,...] [--modes plain,deletion,wp] [--max-time 60]
                         [--validate-time 30] [--no-validate]

TASKS_DIR holds sv-benchmarks' `c/` tree (or is it): TASKS_DIR/c/<folder>/<task>.yml, each
naming its input file (`input_files`, the .c or .i beside it; when that file is absent the
.c or .i with the task's own name is used) and, among its properties, unreach-call.prp with
an `expected_verdict`. Tasks without the unreach-call property are skipped. The property
file is TASKS_DIR/c/properties/unreach-call.prp when present, otherwise a copy of SV-COMP's
unreach-call text written here. The benchmarks themselves are never part of this repository.

A result is WRONG when symq says `true` of a task whose expected verdict is false, or
`false(unreach-call)` of one whose expected verdict is true; each is printed to stderr as it
happens and the run exits 1. A validation run that finds an unsound subsumption (`unsound
subsumption` on stderr, or `validation_failures` in stats.json) also makes the run exit 1. `unknown` is never wrong.
A run that wrote no stats.json (symq refused the program: a parse error, an unsupported
feature) is reported with the first line of its error as a finding, not hidden.
The machine this runs on may be loaded: tasks run one at a time; CPU is user + sys of symq
and its children (clang included)."""
import argparse
import fnmatch
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_interp import run_symq  # noqa: E402

UNREACH_CALL = "CHECK( init(main()), LTL(G ! call(reach_error())) )\n"
MODES = {"plain": [], "deletion": ["--interpolate"], "wp": ["--interpolate=wp"]}


def read_task(yml):
    """(input file, expected verdict 'true'|'false') of the task, or None without
    unreach-call. A small reader of the task-definition format: the fields it needs only."""
    with open(yml, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"^input_files:\s*(?:\[\s*)?'?\"?([^'\"\]\n]+)", text, re.M)
    expected = None
    prop = None
    for line in text.splitlines():
        s = line.strip().lstrip("- ").strip()
        if s.startswith("property_file:"):
            prop = s.split(":", 1)[1].strip()
        elif s.startswith("expected_verdict:") and prop and prop.endswith("unreach-call.prp"):
            expected = s.split(":", 1)[1].strip()
            prop = None
    if expected is None:
        return None
    folder = os.path.dirname(yml)
    stem = os.path.basename(yml)[: -len(".yml")]
    candidates = [os.path.join(folder, m.group(1).strip())] if m else []
    candidates += [os.path.join(folder, stem + ext) for ext in (".c", ".i")]
    for c in candidates:
        if os.path.exists(c):
            return c, expected
    return "", expected


def run(symq, source, prp, options, max_time):
    """(exit code, CPU, stats or None, SV-COMP result or None, first error line)."""
    proc, cpu, stats = run_symq(symq, [f"--svcomp={prp}", "--exit-on-error-type=reach_error",
                                       *options, source], max_time)
    result = None
    for line in proc.stdout.splitlines():
        if line.startswith("SV-COMP result: "):
            result = line[len("SV-COMP result: "):].strip()
    errors = [l for l in proc.stderr.splitlines() if "unsound subsumption" in l]
    errors += [l for l in proc.stderr.splitlines() if "error" in l]
    first_error = (errors or proc.stderr.strip().splitlines() or [""])[0][:160]
    return proc.returncode, cpu, stats, result, first_error


def wrong(expected, result):
    return (expected == "false" and result == "true") or \
        (expected == "true" and result is not None and result.startswith("false"))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("tasks_dir")
    ap.add_argument("--folders", default="locks,loops,psyco,ntdrivers-simplified")
    ap.add_argument("--tasks", default="*",
                    help="globs on the task name (the .yml's stem), comma-separated")
    ap.add_argument("--modes", default="plain,deletion,wp")
    ap.add_argument("--max-time", type=float, default=60)
    ap.add_argument("--validate-time", type=float, default=30)
    ap.add_argument("--no-validate", action="store_true")
    args = ap.parse_args()
    modes = args.modes.split(",")
    for m in modes:
        if m not in MODES:
            sys.exit(f"bench_svcomp: unknown mode {m} (plain, deletion, wp)")
    root = args.tasks_dir
    if os.path.isdir(os.path.join(root, "c")):
        root = os.path.join(root, "c")
    scratch = tempfile.TemporaryDirectory()
    prp = os.path.join(root, "properties", "unreach-call.prp")
    if not os.path.exists(prp):
        prp = os.path.join(scratch.name, "unreach-call.prp")
        with open(prp, "w", encoding="utf-8") as f:
            f.write(UNREACH_CALL)

    print("| task | expected | mode | result | forks | subsumed | covered | paths | CPU (s) "
          "| validation |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    proved = {m: 0 for m in modes}
    found = {m: 0 for m in modes}
    failed_tasks = {m: 0 for m in modes}
    wrongs, invalid, tasks = [], [], 0
    for folder in args.folders.split(","):
        d = os.path.join(root, folder)
        if not os.path.isdir(d):
            print(f"bench_svcomp: no folder {d}", file=sys.stderr)
            continue
        for yml in sorted(os.listdir(d)):
            if not yml.endswith(".yml") or not any(
                    fnmatch.fnmatch(yml[:-4], g) for g in args.tasks.split(",")):
                continue
            task = read_task(os.path.join(d, yml))
            if task is None:
                continue
            source, expected = task
            name = f"{folder}/{yml[:-4]}"
            tasks += 1
            if not source:
                print(f"| {name} | {expected} | - | no input file | | | | | |", flush=True)
                continue
            for mode in modes:
                rc, cpu, s, result, err = run(args.symq, source, prp, MODES[mode],
                                              args.max_time)
                if s is None:
                    failed_tasks[mode] += 1
                    print(f"| {name} | {expected} | {mode} | symq failed (exit {rc}: {err}) "
                          f"| | | | {cpu:.1f} | |", flush=True)
                    continue
                validation = "-"
                if mode != "plain" and not args.no_validate:
                    vrc, _, v, vresult, verr = run(args.symq, source, prp,
                                                   MODES[mode] + ["--validate-interpolation"],
                                                   args.validate_time)
                    failures = v["interpolation"]["validation_failures"] if v else None
                    if failures or "unsound subsumption" in verr:
                        validation = f"FAILED (exit {vrc}, {failures} failures: {verr})"
                        invalid.append(f"{name} {mode}: {validation}")
                        print(f"bench_svcomp: UNSOUND SUBSUMPTION on {name} {mode}: {verr}",
                              file=sys.stderr, flush=True)
                    elif v is None:
                        validation = f"no stats (exit {vrc}: {verr})"
                    else:
                        validation = "ok" if v["exhausted"] else \
                            "ok, not exhausted"
                    if wrong(expected, vresult):
                        wrongs.append(f"{name} {mode} validated: {vresult}, expected {expected}")
                        print(f"bench_svcomp: WRONG VERDICT on {name} {mode} (validated run): "
                              f"{vresult}, expected {expected}", file=sys.stderr, flush=True)
                mark = ""
                if wrong(expected, result):
                    wrongs.append(f"{name} {mode}: {result}, expected {expected}")
                    mark = " **WRONG**"
                    print(f"bench_svcomp: WRONG VERDICT on {name} {mode}: {result}, expected "
                          f"{expected}", file=sys.stderr, flush=True)
                if result == "true" and expected == "true":
                    proved[mode] += 1
                if result and result.startswith("false") and expected == "false":
                    found[mode] += 1
                limited = "> " if not s["exhausted"] else ""
                subsumed = s.get("subsumed", 0) if mode != "plain" else "-"
                covered = s["interpolation"].get("covered", 0) if mode != "plain" else "-"
                print(f"| {name} | {expected} | {mode} | {result}{mark} | {s['forks']} | "
                      f"{subsumed} | {covered} | {s['completed_paths']} | {limited}{cpu:.1f} | "
                      f"{validation} |", flush=True)
    print()
    print(f"{tasks} tasks; max-time {args.max_time:g} s, validation at "
          f"{args.validate_time:g} s")
    print("| mode | true proved | false found | symq failed | wrong |")
    print("|---|---|---|---|---|")
    for m in modes:
        w = len({x.split(" ")[0] for x in wrongs if x.split(" ")[1].rstrip(":") == m})
        print(f"| {m} | {proved[m]} | {found[m]} | {failed_tasks[m]} | {w} |")
    for x in wrongs:
        print(f"WRONG: {x}")
    for x in invalid:
        print(f"UNSOUND: {x}")
    return 1 if wrongs or invalid else 0


if __name__ == "__main__":
    sys.exit(main())
