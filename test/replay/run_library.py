#!/usr/bin/env python3
"""run_library.py — a program made of several inputs (a driver and a library's files):
`symq run` on them, `symq compile`, native replay and coverage of the library, and the exit
statuses `symq run --help` documents.

    run_library.py SYMQ_BINARY --scenario NAME [--keep] [--verbose]
    run_library.py SYMQ_BINARY --list

Each scenario is one CTest test (test/replay/CMakeLists.txt), run by run_replay.py's harness:
one line per check, `PASS what` or `FAIL what: reason`, then exactly `N passed, N failed`;
exit status 1 if any check failed. Work happens in a fresh temporary directory (kept with
--keep), into which
test/replay/library/ is copied: driver.c, the library's kind.c and area.c (a division by
zero at area.c's @div), include/shape.h. area.c compiles only with -DSHAPE_SCALE, given
with --cflags, so a native rebuild without the recorded flags fails.

Scenarios
  library      `symq run -Iinclude --cflags=… driver.c kind.c area.c` (relative paths, run
               in the library's directory): the error at area.c's line; info records every
               input and the flags; `symq replay` rebuilds all three files natively and
               reproduces the library's error; `symq cov` prints a line per file (area.c's
               and kind.c's line and branch coverage) then the total, equal to the sums, and
               stats.json's "gcov" lists each file.
  bitcode      the library compiled to lib.bc by `symq compile`, then `symq run driver.c
               lib.bc`: the same paths and error; replay and cov refuse it in one line (LLVM
               IR has no native build) and say --source; with --source kind.c --source area.c
               they rebuild it and the error reproduces; --source for a run with C inputs
               only is refused.
  compile      `symq compile -o prog.bc` of the three files, then `symq run prog.bc`: the
               same counts, the same tests (objects, bytes) and the same error as `symq run`
               on the three files; compile's errors: a name defined twice, no -o, an output
               that cannot be written (one line each, statuses 2, 2, 4); --help.
  exit-status  the scheme `symq run --help` lists (run.h's RUN_EXIT_*): 0 for a run that
               finds a bug, and for an incomplete one; 1 when --exit-on-error stops at the
               bug; 2 for bad usage, an input that does not exist, and an output directory
               that cannot be created (one line each), in compare too, where a mode
               --exit-on-error stopped is read (outcome halted: exit-on-error); `symq ktest
               --help` prints its usage and exits 0, `symq ktest` of a missing file exits 2.
"""

import json
import os
import re
import shutil
import sys

import run_replay  # the harness: check, run, main, the ktest reader, the output's formats
from run_replay import COV_RE, SUMMARY_RE, check, marker_line, read_ktest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIBRARY = os.path.join(HERE, "library")
RUN_H = os.path.join(ROOT, "engine", "cli", "run.h")
XALLOC_H = os.path.join(ROOT, "engine", "core", "xalloc.h")
FLAGS = ["-Iinclude", "--cflags=-DSHAPE_SCALE=3 -std=c99"]
FILE_COV_RE = re.compile(r"^(\S+): lines: (\d+\.\d)% \((\d+)/(\d+)\), "
                         r"branches: (?:(\d+\.\d)% \((\d+)/(\d+)\)|n/a \(0/0\))$")


def symq(*args, cwd=None):
    return run_replay.run([run_replay.SYMQ, *args], cwd=cwd)


def one_line_error(p, status, pattern, what):
    lines = p.stderr.strip().split("\n")
    return check(p.returncode == status and len(lines) == 1 and lines[0].startswith("symq: error: ")
                 and re.search(pattern, lines[0]) and "symq: done:" not in p.stdout,
                 what, f"exit {p.returncode}, stderr {p.stderr.strip()[-400:]!r}")


def stats(outdir):
    with open(os.path.join(outdir, "stats.json"), encoding="utf-8") as f:
        return json.load(f)


def errors_of(outdir):
    """[(kind, basename of File:, Line:)] of the .err files, in test order."""
    found = []
    for name in sorted(os.listdir(outdir)):
        if name.endswith(".err"):
            text = open(os.path.join(outdir, name), encoding="utf-8").read()
            file = re.search(r"^File: (.*)$", text, re.M)
            line = re.search(r"^Line: (\d+)$", text, re.M)
            found.append((name.split(".")[1], os.path.basename(file.group(1)) if file else None,
                          int(line.group(1)) if line else None))
    return found


def tests_of(outdir):
    """Every test's objects [(name, bytes)], in order."""
    return [read_ktest(os.path.join(outdir, n))[1] for n in sorted(os.listdir(outdir))
            if n.endswith(".ktest")]


def library_copy(tmp):
    work = os.path.join(tmp, "library")
    shutil.copytree(LIBRARY, work)
    return work


def check_run(p, outdir, what):
    """A run of the shape program: 3 completed paths, 1 error (div at area.c's @div)."""
    div = marker_line(os.path.join(LIBRARY, "area.c"), "@div")
    if not check(p.returncode == 0, f"{what}: exit 0", f"{p.returncode}: {p.stderr[-400:]}"):
        return False
    s = stats(outdir)
    return check((s["completed_paths"], s["error_paths"], s["exhausted"]) == (3, 1, True)
                 and errors_of(outdir) == [("div", "area.c", div)],
                 f"{what}: 3 paths, the division by zero at area.c:{div}",
                 f"{s['completed_paths']} {s['error_paths']} {errors_of(outdir)}")


def check_replay(p, what):
    """symq replay of the shape program: 4 tests, the div error reproduced."""
    lines = p.stdout.strip().split("\n")
    m = SUMMARY_RE.match(lines[-1]) if lines else None
    return check(p.returncode == 0 and m and m.groups() == ("4", "1", "0") and any(
        re.match(r"^test\d{6}: signal 8 \(SIGFPE\): div error reproduced", line) for line in lines),
                 f"{what}: the library's division by zero reproduces natively",
                 f"exit {p.returncode}: {p.stdout[-600:]} {p.stderr[-400:]}")


def file_coverage(stdout):
    """({file: (lines covered, total, branches covered, total)}, the total line's numbers)."""
    files, total = {}, None
    for line in stdout.strip().split("\n"):
        m = FILE_COV_RE.match(line)
        if m:
            files[m.group(1)] = (int(m.group(3)), int(m.group(4)), int(m.group(6) or 0),
                                 int(m.group(7) or 0))
        m = COV_RE.match(line)
        if m:
            total = (int(m.group(2)), int(m.group(3)), int(m.group(5)), int(m.group(6)))
    return files, total


def check_cov(p, outdir, what):
    files, total = file_coverage(p.stdout)
    last = p.stdout.strip().split("\n")[-1]
    check(p.returncode == 0 and COV_RE.match(last) and set(files) == {"driver.c", "kind.c", "area.c"},
          f"{what}: a line per file (driver.c, kind.c, area.c), then the total",
          f"exit {p.returncode}: {p.stdout!r} {p.stderr[-400:]}")
    if set(files) != {"driver.c", "kind.c", "area.c"} or not total:
        return
    # the four tests run every line of the library: area.c's three (the crash too: the
    # replay library writes the counters on SIGFPE) and both sides of its branch
    check(files["area.c"] == (3, 3, 2, 2), "area.c: 3/3 lines, 2/2 branches covered",
          f"{files['area.c']}")
    check(files["kind.c"][0] == files["kind.c"][1] > 0 and files["kind.c"][3] > 0,
          "kind.c: every line covered, its branches counted", f"{files['kind.c']}")
    check(tuple(map(sum, zip(*files.values()))) == total, "the total is the sum of the files",
          f"{files} {total}")
    gcov = stats(outdir).get("gcov", {})
    check(sorted(f["file"] for f in gcov.get("files", [])) == ["area.c", "driver.c", "kind.c"],
          "stats.json: gcov lists each file", json.dumps(gcov)[:400])


def scenario_library(tmp):
    work = library_copy(tmp)
    out = os.path.join(tmp, "out")
    p = symq("run", *FLAGS, f"--output-dir={out}", "driver.c", "kind.c", "area.c", cwd=work)
    if not check_run(p, out, "symq run driver.c kind.c area.c"):
        return
    info = open(os.path.join(out, "info"), encoding="utf-8").read()
    inputs = re.findall(r"^input: (.*)$", info, re.M)
    check(inputs == [os.path.join(work, n) for n in ("driver.c", "kind.c", "area.c")],
          "info: an input line per file, absolute, in order", f"{inputs}")
    check(re.search(r"^cflags: -Iinclude -DSHAPE_SCALE=3 -std=c99$", info, re.M),
          "info: the -I and --cflags flags, as given", info)
    # replayed from elsewhere: the recorded cwd resolves the relative -Iinclude
    check_replay(symq("replay", out, cwd=tmp), "symq replay")
    check_cov(symq("cov", out, cwd=tmp), out, "symq cov")


def scenario_bitcode(tmp):
    work = library_copy(tmp)
    p = symq("compile", *FLAGS, "-o", "lib.bc", "kind.c", "area.c", cwd=work)
    check(p.returncode == 0 and os.path.exists(os.path.join(work, "lib.bc")),
          "symq compile -o lib.bc kind.c area.c (a library: no main)", p.stderr)
    out = os.path.join(tmp, "out")
    p = symq("run", *FLAGS, f"--output-dir={out}", "driver.c", "lib.bc", cwd=work)
    if not check_run(p, out, "symq run driver.c lib.bc"):
        return
    for command in ("replay", "cov"):
        one_line_error(symq(command, out), 2, r"lib\.bc is LLVM IR.*--source",
                       f"symq {command} of a run with a .bc input: one line naming it and --source")
    sources = ["--source", os.path.join(work, "kind.c"), "--source", os.path.join(work, "area.c")]
    check_replay(symq("replay", out, *sources), "symq replay --source kind.c --source area.c")
    check_cov(symq("cov", out, *sources), out, "symq cov --source kind.c --source area.c")
    plain = os.path.join(tmp, "plain")
    symq("run", f"--output-dir={plain}", os.path.join(ROOT, "test", "e2e", "err_div.c"))
    one_line_error(symq("replay", plain, "--source", os.path.join(work, "kind.c")), 2,
                   r"--source replaces the run's \.bc/\.ll inputs",
                   "--source for a run whose inputs are all C: refused in one line")


def scenario_compile(tmp):
    work = library_copy(tmp)
    p = symq("compile", *FLAGS, "-o", "prog.bc", "driver.c", "kind.c", "area.c", cwd=work)
    check(p.returncode == 0 and not p.stdout and not p.stderr, "symq compile -o prog.bc: silent",
          f"{p.returncode} {p.stderr}")
    direct, compiled = os.path.join(tmp, "direct"), os.path.join(tmp, "compiled")
    p1 = symq("run", *FLAGS, f"--output-dir={direct}", "driver.c", "kind.c", "area.c", cwd=work)
    p2 = symq("run", f"--output-dir={compiled}", "prog.bc", cwd=work)
    if check_run(p1, direct, "run on the sources") and check_run(p2, compiled, "run on prog.bc"):
        s1, s2 = stats(direct), stats(compiled)
        keys = ("completed_paths", "error_paths", "tests", "instructions", "forks", "queries")
        t1, t2 = tests_of(direct), tests_of(compiled)
        check(all(s1[k] == s2[k] for k in keys) and len(t1) == 4 and t1 == t2,
              "symq run prog.bc: the counts and every test's objects of symq run on the sources",
              f"{[(k, s1[k], s2[k]) for k in keys]} {t1} {t2}")
        check(p1.stdout.split("\n")[-2:] == p2.stdout.split("\n")[-2:], "the same verdict",
              f"{p1.stdout!r} {p2.stdout!r}")
    one_line_error(symq("compile", *FLAGS, "-o", "twice.bc", "kind.c", "kind.c", cwd=work), 2,
                   r"kind\.c: cannot link: .*shape_kind", "a name defined twice: one line, 2")
    one_line_error(symq("compile", "driver.c", cwd=work), 2, r"no output file",
                   "no -o: one line, 2")
    one_line_error(symq("compile", *FLAGS, "-o", os.path.join(tmp, "none", "p.bc"), "kind.c",
                        cwd=work), 4, r"p\.bc: cannot write", "an unwritable -o: one line, 4")
    p = symq("compile", "--help")
    check(p.returncode == 0 and p.stdout.startswith("usage: symq compile") and "-o" in p.stdout,
          "symq compile --help", f"{p.returncode} {p.stdout[:200]}")


def documented_statuses():
    """run.h's RUN_EXIT_* values (RUN_EXIT_OUT_OF_MEMORY is xalloc.h's XALLOC_OOM_STATUS)."""
    oom = int(re.search(r"#define XALLOC_OOM_STATUS (\d+)", open(XALLOC_H).read()).group(1))
    values = {}
    for name, value in re.findall(r"(RUN_EXIT_\w+) = (\w+)", open(RUN_H).read()):
        values[name] = oom if value == "XALLOC_OOM_STATUS" else int(value)
    return values


def scenario_exit_status(tmp):
    codes = documented_statuses()
    check(sorted(codes.values()) == [0, 1, 2, 3, 4], "run.h names the statuses 0 to 4", f"{codes}")
    p = symq("run", "--help")
    listed = [int(n) for n in re.findall(r"^  (\d)  ", p.stdout, re.M)]
    check(p.returncode == 0 and "Exit status:" in p.stdout and listed == [0, 1, 2, 3, 4]
          and "stdout" in p.stdout and "stderr" in p.stdout,
          "symq run --help lists the streams and each exit status", p.stdout[-1200:])
    div = os.path.join(ROOT, "test", "e2e", "err_div.c")
    p = symq("run", f"--output-dir={tmp}/bug", div)
    check(p.returncode == codes["RUN_EXIT_DONE"] and stats(f"{tmp}/bug")["error_paths"] > 0,
          "a run that finds a bug (without --exit-on-error) exits 0", f"{p.returncode}")
    p = symq("run", f"--output-dir={tmp}/cut", "--max-instructions=5", div)
    check(p.returncode == codes["RUN_EXIT_DONE"] and "exploration incomplete" in p.stdout,
          "an incomplete run exits 0 (its verdict says incomplete)", f"{p.returncode} {p.stdout}")
    p = symq("run", f"--output-dir={tmp}/stop", "--exit-on-error", div)
    check(p.returncode == codes["RUN_EXIT_ERROR_FOUND"], "--exit-on-error stops at the bug: 1",
          f"{p.returncode}")
    bad = codes["RUN_EXIT_BAD_INPUT"]
    one_line_error(symq("run", "--no-such-option", div), bad, r"unknown option", "bad usage: 2")
    one_line_error(symq("run", f"--output-dir={tmp}/x", f"{tmp}/missing.c"), bad,
                   r"missing\.c: cannot open", "a missing input: 2")
    blocker = os.path.join(tmp, "a-file")
    open(blocker, "w").close()
    p = symq("run", f"--output-dir={blocker}/out", div)
    one_line_error(p, bad, re.escape(blocker), "an output directory that cannot be created: 2")
    p = symq("compare", div, "--modes=none", "--no-coverage", f"--output-dir={tmp}/cmp", "--",
             "--exit-on-error")
    csv = open(f"{tmp}/cmp/compare.csv").read() if os.path.exists(f"{tmp}/cmp/compare.csv") else ""
    check(p.returncode == 0 and ",halted: exit-on-error,1," in csv,
          "compare: a mode --exit-on-error stopped (status 1) is read, its outcome so",
          f"{p.returncode} {csv!r}")
    one_line_error(symq("compare", div, f"--output-dir={blocker}/cmp"), bad, r"output directory",
                   "compare: an output directory that cannot be created: 2")
    p = symq("ktest", "--help")
    check(p.returncode == 0 and p.stdout.startswith("usage: symq ktest") and not p.stderr,
          "symq ktest --help: usage on stdout, 0", f"{p.returncode} {p.stdout!r} {p.stderr!r}")
    one_line_error(symq("ktest", f"{tmp}/none.ktest"), 2, r"none\.ktest", "ktest of a missing file: 2")


SCENARIOS = {
    "library": scenario_library,
    "bitcode": scenario_bitcode,
    "compile": scenario_compile,
    "exit-status": scenario_exit_status,
}


if __name__ == "__main__":
    run_replay.SCENARIOS = SCENARIOS  # run_replay.py's command line, with these scenarios
    sys.exit(run_replay.main())
