#!/usr/bin/env python3
"""run_symenv.py — the symbolic environment (KLEE's --sym-args, --sym-stdin, --sym-files):
programs that read argv, stdin and files, explored without a driver, their planted bug found
and replayed natively.

    run_symenv.py SYMQ_BINARY --scenario NAME [--keep] [--verbose]

Each scenario is one CTest test (test/symenv/CMakeLists.txt). It prints one line per check,
`PASS what` or `FAIL what: reason`, then exactly `N passed, N failed`; exit status 1 if any
check failed. A program's planted bug is the line holding the comment `BUG` or `the planted
bug`; the run must report exactly one error, there, and be complete.

Scenarios
  wc-stdin     wc_lines.c (a wc reading stdin with getchar) with --sym-stdin 5: every test
               holds stdin-stat, stdin, model_version (1); stdin's size is stdin-stat's
               st_size and at most 5; the error's stdin has five newlines; `symq replay`
               reproduces it (stdin piped) with no mismatch.
  scanf-stdin  divide_scanf.c (A / B, read with scanf("%d %d")) with --sym-stdin 3: the
               division by zero is found (a stdin such as "1+0") and replayed.
  argv-parser  argparse.c (an option parser) with KLEE's spelling after --
               (`-- --sym-args 0 2 2`): every test holds n_args (0 to 2), that many argNN of
               3 bytes, model_version; the error's last argument is "-o"; replayed natively
               (argv rebuilt). symq's own spelling (--sym-args 0,2,2) makes the same tests,
               and they replay the same (its arguments are not among the ktest's).
  files-stdin  files_stdin.c with --sym-files 1,3 --sym-stdin 3: file A read by fopen/fread,
               open/read, stat/fstat (the program asserts they agree), stdin by read and
               fgets; the abort of A = "ok…" is found and replayed (A created natively).
  usage        malformed values and --libc=none are refused (exit 2, one `symq: error:`
               line), and so is KLEE's spelling with MIN > MAX (no test written);
               KLEE's --sym-stdout, not modelled, ends the path early.
"""

import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
sys.path.insert(0, os.path.join(HERE, "..", "robust"))
import run_e2e  # noqa: E402  (its .ktest and .err parsers, and Bad)
from run_robust import Checks  # noqa: E402  (PASS/FAIL lines and their counts)

Bad = run_e2e.Bad
TIMEOUT = 300
ST_SIZE = 48  # offset of st_size in x86-64's struct stat (144 bytes)


def run(cmd, verbose):
    if verbose:
        print("  $ " + " ".join(cmd), flush=True)
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise Bad(f"{cmd[1]} did not end in {TIMEOUT}s")
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def bug_line(program):
    with open(program, encoding="utf-8") as f:
        for number, text in enumerate(f, 1):
            if "BUG" in text or "the planted bug" in text:
                return number
    raise Bad(f"{program} marks no bug")


def explore(symq, program, out, options, verbose):
    """Runs symq; returns {test name: [(object, bytes)]} and the one error's (kind, test)."""
    rc, stdout, stderr = run([symq, "run", f"--output-dir={out}", program] + options, verbose)
    if rc != 0:
        raise Bad(f"symq run exited {rc}: {stderr.strip()[-300:]}")
    if "symq: done: exploration complete" not in stdout:
        raise Bad("the exploration is not complete: " + stdout.strip().split("\n")[-1])
    names = sorted(os.listdir(out))
    tests = {n[:-6]: run_e2e.parse_ktest(os.path.join(out, n)) for n in names
             if n.endswith(".ktest")}
    errs = [n for n in names if n.endswith(".err")]
    if len(errs) != 1:
        raise Bad(f"expected one error, found {errs}")
    message, file, line = run_e2e.parse_err(os.path.join(out, errs[0]))
    if os.path.basename(file) != os.path.basename(program) or line != bug_line(program):
        raise Bad(f"the error is at {file}:{line} ({message}), not at the planted bug, line "
                  f"{bug_line(program)}")
    test, kind = errs[0].split(".")[:2]
    return tests, kind, test


def replay(symq, out, verbose):
    rc, stdout, stderr = run([symq, "replay", out], verbose)
    last = (stdout.strip().split("\n") or [""])[-1]
    if rc != 0 or not re.fullmatch(r"replayed \d+ tests: 1 errors reproduced, 0 mismatches", last):
        raise Bad(f"symq replay exited {rc}: {last} {stderr.strip()[-300:]}")


def check_replay(checks, what, symq, out, found, verbose):
    """symq replay of out, when the run that writes it passed (found is then non-empty)."""
    def replayed():
        if not found:
            raise Bad("no run to replay")
        replay(symq, out, verbose)
    checks.check(what, replayed)


def check_sized(objects, stat, data, limit):
    """The -stat object's st_size is the data object's size, at most limit."""
    got = dict(objects)
    size = struct.unpack("<q", got[stat][ST_SIZE:ST_SIZE + 8])[0]
    if len(got[stat]) != 144 or size != len(got[data]) or size > limit:
        raise Bad(f"{stat} says {size} bytes, {data} has {len(got[data])} (limit {limit})")


def check_version(objects):
    name, data = objects[-1]
    if name != "model_version" or data != struct.pack("<i", 1):
        raise Bad(f"the last object is {name} = {data!r}, not model_version = 1")


def scenario_wc_stdin(symq, tmp, checks, verbose):
    program, out = os.path.join(HERE, "wc_lines.c"), os.path.join(tmp, "wc")
    found = {}

    def explored():
        tests, kind, test = explore(symq, program, out, ["--sym-stdin", "5"], verbose)
        for name, objects in tests.items():
            if [n for n, _ in objects] != ["stdin-stat", "stdin", "model_version"]:
                raise Bad(f"{name} holds {[n for n, _ in objects]}")
            check_sized(objects, "stdin-stat", "stdin", 5)
            check_version(objects)
        stdin = dict(tests[test])["stdin"]
        if kind != "ptr" or stdin.count(b"\n") != 5:
            raise Bad(f"the error is {kind} with stdin {stdin!r}")
        found["tests"] = len(tests)
    checks.check("wc --sym-stdin 5: the overflow at the fifth line, KLEE's objects", explored)
    check_replay(checks, "wc: symq replay reproduces it, stdin piped",
                 symq, out, found, verbose)


def scenario_scanf_stdin(symq, tmp, checks, verbose):
    program, out = os.path.join(HERE, "divide_scanf.c"), os.path.join(tmp, "scanf")
    found = {}

    def explored():
        tests, kind, test = explore(symq, program, out, ["--sym-stdin", "3"], verbose)
        for name, objects in tests.items():
            check_sized(objects, "stdin-stat", "stdin", 3)
        stdin = dict(tests[test])["stdin"]
        m = re.match(rb"\s*[+-]?\d+\s*([+-]?\d+)", stdin)  # what scanf reads
        if kind != "div" or not m or int(m.group(1)) != 0:
            raise Bad(f"the error is {kind} with stdin {stdin!r}")
        found["ok"] = True
    checks.check("scanf(\"%d %d\") over --sym-stdin 3: the division by zero", explored)
    check_replay(checks, "scanf: symq replay reproduces it, stdin piped",
                 symq, out, found, verbose)


def scenario_argv_parser(symq, tmp, checks, verbose):
    program = os.path.join(HERE, "argparse.c")
    klee_out, symq_out = os.path.join(tmp, "klee-spelling"), os.path.join(tmp, "symq-spelling")
    found = {}

    def explored():
        tests, kind, test = explore(symq, program, klee_out, ["--", "--sym-args", "0", "2", "2"],
                                    verbose)
        for name, objects in tests.items():
            n_args = struct.unpack("<i", dict(objects)["n_args"])[0]
            want = ["n_args"] + [f"arg{k:02d}" for k in range(n_args)] + ["model_version"]
            if not 0 <= n_args <= 2 or [n for n, _ in objects] != want:
                raise Bad(f"{name}: n_args {n_args}, objects {[n for n, _ in objects]}")
            if any(len(data) != 3 for n, data in objects if n.startswith("arg")):
                raise Bad(f"{name}: an argument object is not 3 bytes")
            check_version(objects)
        last = [data for n, data in tests[test] if n.startswith("arg")][-1]
        if kind != "ptr" or last.split(b"\0")[0] != b"-o":
            raise Bad(f"the error is {kind} with last argument {last!r}")
        found["tests"] = tests
    checks.check("argv parser -- --sym-args 0 2 2: -o as the last argument", explored)
    check_replay(checks, "argv parser: symq replay reproduces it, argv rebuilt",
                 symq, klee_out, found, verbose)

    def same_tests():
        tests, _, _ = explore(symq, program, symq_out, ["--sym-args", "0,2,2"], verbose)
        if tests != found.get("tests"):
            raise Bad("--sym-args 0,2,2 made other tests than -- --sym-args 0 2 2")
    checks.check("--sym-args 0,2,2 (symq's option) makes the same tests", same_tests)
    checks.check("--sym-args 0,2,2: symq replay reproduces it (arguments from the objects)",
                 lambda: replay(symq, symq_out, verbose))

    def words_as_option():
        # KLEE's words as symq's own option, before the program's -- (engine/cli/options.h's
        # `words`): the same value as --sym-args 0,2,2, so the same tests.
        tests, _, _ = explore(symq, program, os.path.join(tmp, "option-words"),
                              ["--sym-args", "0", "2", "2"], verbose)
        if tests != found.get("tests"):
            raise Bad("--sym-args 0 2 2 made other tests than -- --sym-args 0 2 2")
    checks.check("--sym-args 0 2 2 (KLEE's words, as symq's option) makes the same tests",
                 words_as_option)


def scenario_files_stdin(symq, tmp, checks, verbose):
    program, out = os.path.join(HERE, "files_stdin.c"), os.path.join(tmp, "files")
    found = {}

    def explored():
        tests, kind, test = explore(symq, program, out,
                                    ["--sym-files", "1,3", "--sym-stdin", "3"], verbose)
        want = ["A-data-stat", "A-data", "stdin-stat", "stdin", "model_version"]
        for name, objects in tests.items():
            if [n for n, _ in objects] != want:
                raise Bad(f"{name} holds {[n for n, _ in objects]}")
            check_sized(objects, "A-data-stat", "A-data", 3)
            check_sized(objects, "stdin-stat", "stdin", 3)
        if kind != "abort" or not dict(tests[test])["A-data"].startswith(b"ok"):
            raise Bad(f"the error is {kind} with A = {dict(tests[test])['A-data']!r}")
        found["ok"] = True
    checks.check("files and stdin: every way of reading agrees, the abort found", explored)
    check_replay(checks, "files: symq replay reproduces it, file A created",
                 symq, out, found, verbose)


def scenario_usage(symq, tmp, checks, verbose):
    program = os.path.join(HERE, "argparse.c")
    # a malformed value is a usage error before anything is written; --libc=none is found
    # once the program is loaded (as a main with four parameters), after the directory
    for k, (options, what) in enumerate([(["--sym-args", "1,2"], "two numbers for --sym-args"),
                                         (["--sym-stdin", "x"], "--sym-stdin x"),
                                         (["--sym-files", "1"], "--sym-files 1"),
                                         (["--libc=none", "--sym-stdin", "3"], "--libc=none")]):
        def refused(options=options, out=f"{tmp}/u{k}", before=k < 3):
            rc, _, stderr = run([symq, "run", f"--output-dir={out}", program] + options,
                                verbose)
            lines = stderr.strip().split("\n")
            if rc != 2 or not lines[-1].startswith("symq: error: ") or len(lines) > 2:
                raise Bad(f"exit {rc}, stderr {stderr.strip()!r}")
            if before and os.path.exists(out):
                raise Bad("an output directory was written")
        checks.check(f"refused: {what}", refused)

    def min_over_max():
        out = os.path.join(tmp, "minmax")
        rc, _, stderr = run([symq, "run", f"--output-dir={out}", program, "--", "--sym-args",
                             "2", "1", "3"], verbose)
        last = stderr.strip().split("\n")[-1]
        if rc != 2 or not last.startswith("symq: error: ") or "MIN is larger than MAX" not in last:
            raise Bad(f"exit {rc}, stderr {stderr.strip()!r}")
        if any(n.endswith(".ktest") for n in os.listdir(out)):
            raise Bad("a test was written")
    checks.check("-- --sym-args 2 1 3 (KLEE's spelling, MIN > MAX): refused", min_over_max)

    def sym_stdout():
        out = os.path.join(tmp, "stdout")
        rc, stdout, _ = run([symq, "run", f"--output-dir={out}", program, "--", "--sym-stdout"],
                            verbose)
        last = stdout.strip().split("\n")[-1]
        if rc != 0 or "exploration incomplete" not in last or "sym_stdout" not in last:
            raise Bad(f"exit {rc}: {last}")
    checks.check("-- --sym-stdout (not modelled): the path ends early, incomplete", sym_stdout)


SCENARIOS = {"wc-stdin": scenario_wc_stdin, "scanf-stdin": scenario_scanf_stdin,
             "argv-parser": scenario_argv_parser, "files-stdin": scenario_files_stdin,
             "usage": scenario_usage}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("symq")
    ap.add_argument("--scenario", required=True, choices=sorted(SCENARIOS))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    symq = os.path.abspath(args.symq)
    tmp = tempfile.mkdtemp(prefix=f"symenv-{args.scenario}-")
    checks = Checks()
    try:
        SCENARIOS[args.scenario](symq, tmp, checks, args.verbose)
    finally:
        if args.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed else 0


if __name__ == "__main__":
    sys.exit(main())
