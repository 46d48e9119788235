#!/usr/bin/env python3
"""eval/bench_svcomp.py on a small task directory laid out as sv-benchmarks is (made here
from this folder's drivers; no sv-benchmarks file is used):

  c/demo/safe.yml        nondet_noise.c, unreach-call expected true
  c/demo/old_name.yml    names `old_name.i`, absent: the script takes old_name.c (the same
                         program), expected true
  c/demo/bug.yml         nondet_bug.c, expected false
  c/demo/mislabeled.yml  nondet_noise.c again, expected false: symq's `true` is WRONG
  c/demo/memsafety.yml   valid-memsafety only: skipped

1. All five: the safe tasks proved true by every mode with validation ok, the bug found,
   no state covered (no loop), the mislabeled task flagged WRONG (on stderr and in the
   table), the memsafety task not
   counted, the summary's counts, exit 1.
2. Without the mislabeled task: exit 0.

    bench_svcomp.py SYMQ_BINARY

Prints one line per check and a final `N passed, N failed`."""
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "eval", "bench_svcomp.py")
PASSED, FAILED = [], []


def check(name, ok, detail=""):
    (PASSED if ok else FAILED).append(name)
    print(f"{'ok  ' if ok else 'FAIL'} {name}" + ("" if ok else f": {detail}"))


def task(d, name, input_file, prop, expected):
    with open(os.path.join(d, name + ".yml"), "w", encoding="utf-8") as f:
        f.write(f"format_version: '2.0'\ninput_files: '{input_file}'\n\nproperties:\n"
                f"  - property_file: ../properties/{prop}\n    expected_verdict: {expected}\n")


def rows(stdout, name):
    return [[c.strip() for c in line.strip("|").split("|")] for line in stdout.splitlines()
            if line.startswith(f"| demo/{name} |")]


def main():
    symq = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "c", "demo")
        os.makedirs(d)
        shutil.copy(os.path.join(HERE, "nondet.h"), d)
        shutil.copy(os.path.join(HERE, "nondet_noise.c"), os.path.join(d, "safe.c"))
        shutil.copy(os.path.join(HERE, "nondet_noise.c"), os.path.join(d, "old_name.c"))
        shutil.copy(os.path.join(HERE, "nondet_bug.c"), os.path.join(d, "bug.c"))
        task(d, "safe", "safe.c", "unreach-call.prp", "true")
        task(d, "old_name", "old_name.i", "unreach-call.prp", "true")
        task(d, "bug", "bug.c", "unreach-call.prp", "false")
        task(d, "mislabeled", "safe.c", "unreach-call.prp", "false")
        task(d, "memsafety", "safe.c", "valid-memsafety.prp", "true")
        cmd = [sys.executable, SCRIPT, symq, tmp, "--folders", "demo", "--max-time", "30",
               "--validate-time", "30"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        out = p.stdout
        for name in ("safe", "old_name"):
            r = rows(out, name)
            check(f"{name}: true in every mode, interpolated runs validated",
                  [x[2] for x in r] == ["plain", "deletion", "wp"]
                  and all(x[3] == "true" for x in r)
                  and [x[9] for x in r] == ["-", "ok", "ok"] and r[1][5] != "0"
                  and [x[6] for x in r] == ["-", "0", "0"], r)
        r = rows(out, "bug")
        check("bug: false(unreach-call) in every mode",
              len(r) == 3 and all(x[3] == "false(unreach-call)" for x in r), r)
        r = rows(out, "mislabeled")
        check("mislabeled: every mode's true flagged WRONG, on stderr too",
              len(r) == 3 and all(x[3] == "true **WRONG**" for x in r)
              and p.stderr.count("WRONG VERDICT on demo/mislabeled") == 5, (r, p.stderr))
        check("memsafety-only task skipped", not rows(out, "memsafety") and
              "4 tasks;" in out, out)
        check("summary: 2 proved, 1 found, 1 wrong per mode; exit 1",
              all(f"| {m} | 2 | 1 | 0 | 1 |" in out for m in ("plain", "deletion", "wp"))
              and p.returncode == 1, (out, p.returncode))
        p = subprocess.run(cmd + ["--tasks", "safe,bug", "--modes", "plain,deletion"],
                           capture_output=True, text=True)
        check("without the mislabeled task: exit 0, nothing wrong",
              p.returncode == 0 and "WRONG" not in p.stdout + p.stderr
              and "| deletion | 1 | 1 | 0 | 0 |" in p.stdout, (p.stdout, p.stderr))
    print(f"{len(PASSED)} passed, {len(FAILED)} failed")
    return 1 if FAILED else 0


if __name__ == "__main__":
    sys.exit(main())
