#!/usr/bin/env python3
"""judge_sv.py — symq's own small verification tasks (test/sv/*.c), judged like SV-COMP's
unreach-call property: a wrong verdict fails, and so does a claim of complete exploration
made while some path ended early.

    judge_sv.py SYMQ_BINARY [--filter NAME] [--keep]

Each task states its verdict on a line `// VERDICT: V`:
  true          no reach_error is reported, and the run is exhaustive
  false [KIND]  an error of kind KIND (default reach_error) is reported
  unknown       symq cannot decide (a path it cannot finish): no reach_error is reported
                and the run is not exhaustive
On every run, stats.json must not say `exhausted: true` with an early path or a dropped
alternative, and the verdict line (the last on stdout) must agree with it. Prints
`PASS name` or `FAIL name: reason` per task, then `N passed, N failed`; exit status 1 on
any failure.
"""
import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VERDICT_RE = re.compile(r"^//\s*VERDICT:\s*(true|false|unknown)(?:\s+([a-z_]+))?\s*$", re.M)


class Bad(Exception):
    pass


def judge(symq, task, keep):
    with open(task, encoding="utf-8") as f:
        m = VERDICT_RE.search(f.read())
    if not m:
        raise Bad("no // VERDICT: line")
    verdict, kind = m.group(1), m.group(2) or "reach_error"
    tmp = tempfile.mkdtemp(prefix="symq-sv-")
    try:
        out = os.path.join(tmp, "out")
        # a machine's load must not turn a decidable query into an early path
        p = subprocess.run([symq, "run", f"--output-dir={out}", "--solver-timeout=120s", task],
                           cwd=tmp, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                           timeout=600)
        if p.returncode != 0:
            tail = p.stderr.strip().split("\n")[-1] if p.stderr.strip() else ""
            raise Bad(f"symq exited with {p.returncode}: {tail}")
        with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
            stats = json.load(f)
        early, dropped = stats["early_paths"], stats.get("dropped_reasons", {})
        exhausted = stats["exhausted"]
        if exhausted and (early or dropped):
            raise Bad(f"exhausted claimed with {early} early path(s), dropped {dropped}")
        last = p.stdout.strip().split("\n")[-1] if p.stdout.strip() else ""
        if (last == "symq: done: exploration complete") != exhausted:
            raise Bad(f"verdict line '{last}' but exhausted={exhausted}")
        kinds = [n.split(".")[1] for n in os.listdir(out) if n.endswith(".err")]
        reached = "reach_error" in kinds
        if verdict == "true":
            if reached:
                raise Bad("wrong verdict: reach_error reported in a true task")
            if not exhausted:
                raise Bad(f"unknown instead of true: {last}")
        elif verdict == "false":
            if kind not in kinds:
                raise Bad(f"wrong verdict: no {kind} error reported (errors: {kinds or 'none'}; "
                          f"{last})")
        else:
            if reached:
                raise Bad("wrong verdict: reach_error reported where symq cannot know")
            if exhausted:
                raise Bad("exhausted claimed where a path cannot be finished")
    finally:
        if keep:
            print(f"  kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description="judge symq on test/sv tasks")
    ap.add_argument("symq")
    ap.add_argument("--filter")
    ap.add_argument("--keep", action="store_true")
    o = ap.parse_args()
    tasks = sorted(n[:-2] for n in os.listdir(HERE) if n.endswith(".c"))
    if o.filter:
        tasks = [t for t in tasks if fnmatch.fnmatchcase(t, o.filter)]
    passed = failed = 0
    if not tasks:
        print(f"FAIL: no task matches '{o.filter}'")
        failed = 1
    for t in tasks:
        try:
            judge(os.path.abspath(o.symq), os.path.join(HERE, t + ".c"), o.keep)
            print(f"PASS {t}", flush=True)
            passed += 1
        except (Bad, OSError, ValueError, KeyError, subprocess.TimeoutExpired) as e:
            print(f"FAIL {t}: {e}", flush=True)
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
