#!/usr/bin/env python3
"""run_e2e.py — symq's end-to-end suite: runs every test/e2e/*.c driver through `symq run`
and checks the outcome written in the driver itself.

    run_e2e.py SYMQ_BINARY [--filter NAME] [--keep] [--verbose] [-j N] [--timeout SECONDS]
               [--valgrind] [--no-search-invariant]

--filter NAME selects drivers by name (the file name without .c; shell wildcards allowed).
Each symq run gets a fresh temporary directory as its cwd and `--output-dir=<tmp>/out`
(removed afterwards unless --keep). One line per driver, `PASS name` or `FAIL name: reason`,
then exactly `N passed, N failed` (CI parses it). Exit status 1 if anything failed (or no
driver matched), 0 otherwise.

Directives — comment lines in the driver, `// NAME: value` (or `// NAME` alone). Any line
whose text after `//` starts with an upper-case word (letters, digits, '-') followed by ':'
or the end of the line is a directive, and an unknown one is an error, so ordinary comments
must not start that way. Every driver needs exactly one EXPECT or EXPECT-REJECT line.

  // EXPECT: completed=N errors=N tests=N [early=N] [exhausted=true|false] [exit=N]
        The run must succeed (exit status `exit`, default 0) and stats.json must have
        completed_paths = completed, error_paths = errors (every path that ended in an
        error, reported or deduplicated), tests = tests, early_paths = early (default 0).
        A count written N+ means at least N (for runs whose counts depend on time).
        exhausted defaults to true unless ARGS contains a limit (--max-time,
        --max-instructions, --max-forks, --max-memory, --max-pointer-objects, --solver-timeout,
        or SIGNAL); then it is checked only if given.
        completed, errors and tests are required.
  // EXPECT-ERROR: KIND line=N|@MARK [count=N] [msg="SUBSTRING"]
        `count` (default 1) reported errors of kind KIND at that source line: files
        testNNNNNN.KIND.err whose first line is `Error: MESSAGE` (containing SUBSTRING when
        given), with a `File:` line naming this driver and a `Line:` line equal to N.
        `line=@MARK` is the line of this driver (not a directive line) that contains the token
        @MARK, which must occur exactly once. The reported errors must be exactly the ones
        listed: a driver without EXPECT-ERROR must produce no .err file. At most one
        EXPECT-ERROR per (KIND, line); use count= for repeats.
  // EXPECT-EARLY: REASON [line=N|@MARK]
        Some path ended early, or some alternative was dropped, with REASON: the text occurs
        (as a substring) in a string key or value somewhere in stats.json. Repeatable. Counting is done by EXPECT's early=.
        With line=, some testNNNNNN.early file whose first line contains REASON names this
        driver in `File:` and N in `Line:` (the same as for EXPECT-ERROR's line=), and a
        verdict with a single early path ends its list with ` at DRIVER:N`.
  // EXPECT-OBJECTS: NAME[:SIZE] ... | (none)
        Every .ktest holds exactly these symbolic objects, in this order (with these sizes
        in bytes when given). Required with EXPECT.
  // EXPECT-TIME-AT-MOST: SECONDS
        stats.json's exploration_time_s (from the start of exploration to the last state's
        end; what --max-time bounds) is at most SECONDS. With SIGNAL it bounds the halt
        instead: the time after the signal (from the elapsed time the progress line that
        triggered it reported) is at most the halt's budget for that time (5%, at least 1 s)
        plus SECONDS. Only an upper bound on a limited run (limit + halt budget + generous
        slack), never a claim about speed.
  // EXPECT-REJECT: [SUBSTRING]
        symq must refuse the input: exit status 2, exactly one line on stderr (containing
        SUBSTRING when given), no `symq: done:` line. Excludes every other directive but ARGS.
  // ARGS: OPTION ...
        Extra symq options (shell words) put before the driver. --output-dir is the script's.
        A driver whose EXPECT counts forking's paths says --merge=none: symq run merges by
        pattern unless told not to.
  // SIGNAL: INT|TERM [STATES]
        Send SIGINT or SIGTERM to symq once it says it is exploring with at least STATES
        (default 1) live states: symq runs with --progress and the signal goes when a
        progress line on stderr reports that many, never after a delay, so a loaded machine
        changes nothing. The run must then stop cleanly: every state left ends early with a
        test, stats.json is written. Implies a limited run: exhausted is checked only if
        EXPECT gives it.
  // SEARCH-INVARIANT
        Also run once per --search strategy (dfs bfs random-state random-path nurs:covnew):
        every run must meet the expectations and give the same counts and the same multiset
        of reported (kind, line); and a second dfs run must write byte-identical .ktest files.
        (Without ARGS, the default run is the dfs one.) The searches but dfs load the driver
        compiled once, as symq compiles it (bitcode.py). Skipped with --valgrind or
        --no-search-invariant: CI runs the drivers sanitized once each (e2e/NAME) and the
        search runs in the optimized build (e2e-search/NAME, test/e2e/CMakeLists.txt).

Checks made on every successful run, besides the directives: the stdout line before the
last is `symq: done: completed paths = N, error paths = E, generated tests = T` and agrees
with stats.json; the last is the verdict, `symq: done: exploration complete` exactly when
stats.json says exhausted (which it must not with an early path or a dropped alternative),
else `symq: done: exploration incomplete: N path(s) ended early…` with N = early_paths; stats.json has every required key; the .ktest files are numbered
test000001.ktest upwards without gaps, their number is `tests`, and each parses as KTEST
version 3 with nothing after the last object; every .err file belongs to a .ktest of the same
number.
"""

import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading

import bitcode

HERE = os.path.dirname(os.path.abspath(__file__))

SEARCHES = ["dfs", "bfs", "random-state", "random-path", "nurs:covnew"]
DEFAULT_SEARCH = "dfs"  # symq run's, when no --search is given
LIMIT_OPTIONS = ("--max-time", "--max-instructions", "--max-forks", "--max-memory",
                 "--max-pointer-objects", "--solver-timeout")
REQUIRED_STATS = ["mode", "completed_paths", "error_paths", "early_paths", "dropped_reasons",
                  "quiet_paths", "tests",
                  "instructions", "forks", "queries", "queries_by_stage", "solver_time_s",
                  "wall_time_s", "peak_memory_mb", "exhausted", "covered_lines",
                  "total_lines"]
INT_STATS = ["completed_paths", "error_paths", "early_paths", "tests", "instructions",
             "forks", "queries"]
QUANTIFIED_STEPS = ["slice", "strip", "duplicate", "repair", "fallback_expand", "fallback_z3"]


def check_quantified(label, stats):
    """stats.json's "quantified" object has exactly the names scripts rely on, and no
    quantified answer disagreed with Z3 on the expanded query (when validated)."""
    q = stats.get("quantified")
    if not isinstance(q, dict):
        raise Bad(f"{label}: stats.json lacks the quantified object")
    for k in ("queries", "answered", "seconds", "effort", "disagreements"):
        if k not in q:
            raise Bad(f"{label}: stats.json quantified lacks {k}")
    for k in ("answered", "seconds", "effort"):
        if sorted(q[k]) != sorted(QUANTIFIED_STEPS):
            raise Bad(f"{label}: stats.json quantified.{k} has {sorted(q[k])}")
    if sum(q["answered"].values()) > q["queries"]:
        raise Bad(f"{label}: stats.json quantified answers more than its queries")
    if q["disagreements"]:
        raise Bad(f"{label}: {q['disagreements']} quantified answers disagreed with Z3")


DONE_RE = re.compile(r"^symq: done: completed paths = (\d+), error paths = (\d+), "
                     r"generated tests = (\d+)$")
VERDICT_RE = re.compile(r"^symq: done: exploration (complete|incomplete: (\d+) paths? ended early"
                        r"( \(.*\))?(?:(?:, the first)? at (?P<file>\S+):(?P<line>\d+))?"
                        r"(; alternatives not explored \(.*\))?)$")
PROGRESS_RE = re.compile(r"symq: ([0-9.]+)s states (\d+) ")
DIRECTIVE_RE = re.compile(r"^\s*//\s*([A-Z][A-Z0-9-]+)\s*(?::(.*))?$")
KNOWN = {"EXPECT", "EXPECT-ERROR", "EXPECT-EARLY", "EXPECT-OBJECTS", "EXPECT-REJECT", "ARGS",
         "SEARCH-INVARIANT", "SIGNAL", "EXPECT-TIME-AT-MOST"}
SIGNALS = {"INT": signal.SIGINT, "TERM": signal.SIGTERM}
EXPECT_KEYS = {"completed", "errors", "tests", "early", "exhausted", "exit"}
RUN_TIMEOUT = 120
# --valgrind: symq runs under memcheck; any error (or a definite leak) makes its exit status
# VALGRIND_STATUS, which fails the driver's exit-status check.
VALGRIND_STATUS = 99
WRAPPER = []


class AtLeast:
    """An EXPECT count written N+."""

    def __init__(self, n):
        self.n = n

    def __str__(self):
        return f"{self.n}+"


class Bad(Exception):
    """A failed check (or a malformed driver): the message is the one-line reason."""


# ---- driver parsing ----------------------------------------------------------------------

def parse_int(text, what):
    if not re.fullmatch(r"\d+", text):
        raise Bad(f"{what}: '{text}' is not a non-negative integer")
    return int(text)


def parse_driver(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    spec = {"expect": None, "reject": None, "errors": {}, "early": [], "early_at": [],
            "objects": None, "args": [], "invariant": False, "signal": None, "time_at_most": None}
    seen = set()
    directive_lines = set()
    raw_errors = []
    raw_early_at = []
    for num, line in enumerate(lines, 1):
        m = DIRECTIVE_RE.match(line)
        if not m:
            continue
        name, value = m.group(1), m.group(2)
        where = f"line {num}"
        if name not in KNOWN:
            raise Bad(f"{where}: unknown directive {name}")
        directive_lines.add(num)
        value = (value or "").strip()
        once = {"EXPECT", "EXPECT-REJECT", "EXPECT-OBJECTS", "ARGS", "SEARCH-INVARIANT",
                "SIGNAL", "EXPECT-TIME-AT-MOST"}
        if name in once and name in seen:
            raise Bad(f"{where}: {name} given twice")
        seen.add(name)
        if name == "EXPECT":
            exp = {}
            for word in value.split():
                if "=" not in word:
                    raise Bad(f"{where}: EXPECT item '{word}' is not key=value")
                k, v = word.split("=", 1)
                if k not in EXPECT_KEYS:
                    raise Bad(f"{where}: unknown EXPECT key '{k}'")
                if k in exp:
                    raise Bad(f"{where}: EXPECT key '{k}' given twice")
                if k == "exhausted":
                    if v not in ("true", "false"):
                        raise Bad(f"{where}: exhausted must be true or false")
                    exp[k] = v == "true"
                elif k in ("completed", "errors", "tests", "early") and v.endswith("+"):
                    exp[k] = AtLeast(parse_int(v[:-1], f"{where}: {k}"))
                else:
                    exp[k] = parse_int(v, f"{where}: {k}")
            for k in ("completed", "errors", "tests"):
                if k not in exp:
                    raise Bad(f"{where}: EXPECT lacks {k}=")
            spec["expect"] = exp
        elif name == "EXPECT-REJECT":
            spec["reject"] = value
        elif name == "EXPECT-ERROR":
            try:
                words = shlex.split(value)
            except ValueError as e:
                raise Bad(f"{where}: {e}")
            if not words or "=" in words[0]:
                raise Bad(f"{where}: EXPECT-ERROR needs a kind first")
            kind = words[0]
            if not re.fullmatch(r"[A-Za-z0-9_.-]+", kind):
                raise Bad(f"{where}: bad error kind '{kind}'")
            item = {"kind": kind, "line": None, "count": 1, "msg": None, "where": where}
            for word in words[1:]:
                if "=" not in word:
                    raise Bad(f"{where}: EXPECT-ERROR item '{word}' is not key=value")
                k, v = word.split("=", 1)
                if k == "line":
                    item["line"] = v
                elif k == "count":
                    item["count"] = parse_int(v, f"{where}: count")
                    if item["count"] == 0:
                        raise Bad(f"{where}: count=0 (omit the line instead)")
                elif k == "msg":
                    item["msg"] = v
                else:
                    raise Bad(f"{where}: unknown EXPECT-ERROR key '{k}'")
            if item["line"] is None:
                raise Bad(f"{where}: EXPECT-ERROR lacks line=")
            raw_errors.append(item)
        elif name == "EXPECT-EARLY":
            if not value:
                raise Bad(f"{where}: EXPECT-EARLY needs a reason")
            at = re.fullmatch(r"(.*?)\s+line=(\S+)", value)
            if at:
                value = at.group(1)
                raw_early_at.append({"reason": value, "line": at.group(2), "where": where})
            spec["early"].append(value)
        elif name == "EXPECT-OBJECTS":
            if not value:
                raise Bad(f"{where}: EXPECT-OBJECTS needs names or (none)")
            objs = []
            if value != "(none)":
                for word in value.split():
                    nm, _, size = word.partition(":")
                    objs.append((nm, parse_int(size, f"{where}: size") if size else None))
            spec["objects"] = objs
        elif name == "ARGS":
            try:
                spec["args"] = shlex.split(value)
            except ValueError as e:
                raise Bad(f"{where}: {e}")
            for a in spec["args"]:
                if a.startswith("--output-dir"):
                    raise Bad(f"{where}: ARGS must not set --output-dir")
        elif name == "SIGNAL":
            words = value.split()
            if len(words) not in (1, 2) or words[0] not in SIGNALS:
                raise Bad(f"{where}: SIGNAL takes INT or TERM and a number of states")
            states = parse_int(words[1], f"{where}: SIGNAL states") if len(words) == 2 else 1
            spec["signal"] = (SIGNALS[words[0]], max(1, states))
        elif name == "EXPECT-TIME-AT-MOST":
            try:
                spec["time_at_most"] = float(value)
            except ValueError:
                raise Bad(f"{where}: EXPECT-TIME-AT-MOST takes a number of seconds")
        elif name == "SEARCH-INVARIANT":
            if value:
                raise Bad(f"{where}: SEARCH-INVARIANT takes no value")
            spec["invariant"] = True

    if spec["reject"] is not None:
        extra = seen - {"EXPECT-REJECT", "ARGS"}
        if extra:
            raise Bad(f"EXPECT-REJECT excludes {', '.join(sorted(extra))}")
        return spec
    if spec["expect"] is None:
        raise Bad("no EXPECT line")
    if spec["objects"] is None:
        raise Bad("no EXPECT-OBJECTS line")

    def driver_line(item):
        spec_line = item["line"]
        if not spec_line.startswith("@"):
            return parse_int(spec_line, f"{item['where']}: line")
        mark = spec_line[1:]
        if not re.fullmatch(r"[A-Za-z0-9_]+", mark):
            raise Bad(f"{item['where']}: bad marker '{spec_line}'")
        token = re.compile(r"@" + re.escape(mark) + r"\b")
        hits = [n for n, text in enumerate(lines, 1)
                if n not in directive_lines and token.search(text)]
        if len(hits) != 1:
            raise Bad(f"{item['where']}: marker {spec_line} found on {len(hits)} lines")
        return hits[0]

    spec["early_at"] = [(item["reason"], driver_line(item)) for item in raw_early_at]
    for item in raw_errors:
        line = driver_line(item)
        key = (item["kind"], line)
        if key in spec["errors"]:
            raise Bad(f"{item['where']}: second EXPECT-ERROR for {key[0]} line {key[1]}")
        spec["errors"][key] = item
    return spec


# ---- output parsing ----------------------------------------------------------------------

def parse_ktest(path):
    """Returns [(name, bytes)] or raises Bad."""
    with open(path, "rb") as f:
        data = f.read()
    pos = 0

    def take(n, what):
        nonlocal pos
        if pos + n > len(data):
            raise Bad(f"{os.path.basename(path)}: truncated in {what} at byte {pos}")
        chunk = data[pos:pos + n]
        pos += n
        return chunk

    def u32(what):
        return struct.unpack(">I", take(4, what))[0]

    magic = take(5, "magic")
    if magic not in (b"KTEST", b"BOUT\n"):
        raise Bad(f"{os.path.basename(path)}: bad magic {magic!r}")
    version = u32("version")
    if version != 3:
        raise Bad(f"{os.path.basename(path)}: version {version}, not 3")
    for _ in range(u32("numArgs")):
        take(u32("arg length"), "arg")
    u32("symArgvs")
    u32("symArgvLen")
    objects = []
    for _ in range(u32("numObjects")):
        name = take(u32("name length"), "name").decode("utf-8", "replace")
        objects.append((name, take(u32("object size"), "object bytes")))
    if pos != len(data):
        raise Bad(f"{os.path.basename(path)}: {len(data) - pos} bytes after the last object")
    return objects


def parse_err(path):
    """Returns (message, file, line) of a .err file or raises Bad."""
    base = os.path.basename(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if not lines or not lines[0].startswith("Error: "):
        raise Bad(f"{base}: first line is not 'Error: MESSAGE'")
    file = line = None
    for text in lines[1:]:
        if text.startswith("File: ") and file is None:
            file = text[len("File: "):].strip()
        elif text.startswith("Line: ") and line is None:
            try:
                line = int(text[len("Line: "):].strip())
            except ValueError:
                raise Bad(f"{base}: bad Line: '{text}'")
    if file is None or line is None:
        raise Bad(f"{base}: no File: or Line: line")
    return lines[0][len("Error: "):], file, line


def parse_early(path):
    """Returns (reason, file, line) of a .early file, file and line None when it says the
    path had no current instruction; raises Bad when it is not a reason line followed by the
    location and a stack whose innermost frame is at that location."""
    base = os.path.basename(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    if len(lines) < 2 or not lines[0]:
        raise Bad(f"{base}: no reason on the first line")
    if lines[1] == "Location: none (the path had no current instruction)":
        return lines[0], None, None
    fields = dict(t.split(": ", 1) for t in lines[1:5] if ": " in t)
    if "File" not in fields or not fields.get("Line", "").isdigit():
        raise Bad(f"{base}: no File: and Line: after the reason")
    file, line = fields["File"], int(fields["Line"])
    if "Stack: " not in lines:
        raise Bad(f"{base}: no 'Stack: ' line")
    frames = lines[lines.index("Stack: ") + 1:]
    if not frames or not frames[0].startswith("\t#0"):
        raise Bad(f"{base}: an empty stack")
    if not frames[0].endswith(f" at {file}:{line}"):
        raise Bad(f"{base}: innermost frame '{frames[0].strip()}' is not at {file}:{line}")
    return lines[0], file, line


def strings_in(value):
    """Every string key and string value in a JSON tree."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from strings_in(v)


# ---- running -----------------------------------------------------------------------------

def communicate_watching(p, watch):
    """Like p.communicate(timeout=RUN_TIMEOUT), but first calls watch(line) on every line
    of p's stderr (split at \\r and \\n, as progress lines end in \\r) as it comes, until
    watch returns True. Raises subprocess.TimeoutExpired after killing p."""
    chunks = {"out": [], "err": []}

    def drain_stdout():
        chunks["out"].append(p.stdout.read())

    def watch_stderr():
        pending = b""
        done = False
        while True:
            data = p.stderr.read1(65536)
            if not data:
                break
            chunks["err"].append(data)
            if done:
                continue
            pending += data
            *lines, pending = re.split(rb"[\r\n]", pending)
            for line in lines:
                if watch(line.decode("utf-8", "replace")):
                    done = True
                    break

    threads = [threading.Thread(target=drain_stdout), threading.Thread(target=watch_stderr)]
    for t in threads:
        t.start()
    try:
        p.wait(timeout=RUN_TIMEOUT)
    finally:
        if p.poll() is None:
            p.kill()
        for t in threads:
            t.join()
    return b"".join(chunks["out"]), b"".join(chunks["err"])


def communicate_signalling(p, signum, states, signalled_at):
    """Sends signum once a --progress line reports at least `states` live states (symq has
    installed its handlers before any such line); appends that line's elapsed seconds to
    signalled_at (the signal went no earlier)."""
    def watch(line):
        m = PROGRESS_RE.search(line)
        if m and int(m.group(2)) >= states:
            p.send_signal(signum)
            signalled_at.append(float(m.group(1)))
            return True
        return False
    return communicate_watching(p, watch)


class Run:
    """One `symq run` and what it left behind."""

    def __init__(self, symq, driver, options, keep, verbose, send_signal=None, program=None):
        self.tmp = tempfile.mkdtemp(prefix="symq-e2e-")
        self.out = os.path.join(self.tmp, "out")
        self.keep = keep
        extra = []
        if not any(o.startswith(("--solver-timeout", "--max-solver-time")) for o in options):
            # an outcome must not depend on how loaded the machine is: the default timeout
            # (10 s) could turn a slow but decidable query into an early path
            extra = ["--solver-timeout=600s" if WRAPPER else "--solver-timeout=120s"]
        if send_signal:
            extra.append("--progress")
        self.cmd = [*WRAPPER, symq, "run", f"--output-dir={self.out}", *extra, *options,
                    program or driver]
        if verbose:
            print("  $ " + " ".join(shlex.quote(c) for c in self.cmd), flush=True)
        p = subprocess.Popen(self.cmd, cwd=self.tmp, stdin=subprocess.DEVNULL,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        signalled_at = []
        try:
            if send_signal:
                # a run that ends before the signal fails the driver's checks later
                out, err = communicate_signalling(p, *send_signal, signalled_at)
            else:
                out, err = p.communicate(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            self.cleanup()
            what = " ".join(options) or "default options"
            raise Bad(f"symq did not finish in {RUN_TIMEOUT}s ({what})")
        self.status = p.returncode
        self.signalled_at = signalled_at[0] if signalled_at else 0.0
        self.stdout = out.decode("utf-8", "replace")
        self.stderr = err.decode("utf-8", "replace")

    def cleanup(self):
        if self.keep:
            print(f"  kept {self.tmp}", flush=True)
        else:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def describe(self):
        tail = self.stderr.strip().split("\n")[-1] if self.stderr.strip() else ""
        return f"exit status {self.status}" + (f", stderr: {tail}" if tail else "")


def check_reject(run, spec):
    if run.status != 2:
        raise Bad(f"expected exit status 2 (rejected input), got {run.describe()}")
    lines = [l for l in run.stderr.split("\n") if l.strip()]
    if len(lines) != 1:
        raise Bad(f"expected one line on stderr, got {len(lines)}")
    if spec["reject"] and spec["reject"] not in lines[0]:
        raise Bad(f"stderr '{lines[0]}' lacks '{spec['reject']}'")
    if "symq: done:" in run.stdout:
        raise Bad("a rejected input printed a 'symq: done:' line")


def collect(run, driver, spec, label):
    """Checks one successful run against the spec; returns its summary for comparisons."""
    exp = spec["expect"]
    want_exit = exp.get("exit", 0)
    if run.status != want_exit:
        raise Bad(f"{label}: expected exit status {want_exit}, got {run.describe()}")
    out = run.out
    if not os.path.isdir(out):
        raise Bad(f"{label}: no output directory")
    stats_path = os.path.join(out, "stats.json")
    try:
        with open(stats_path, encoding="utf-8") as f:
            stats = json.load(f)
    except (OSError, ValueError) as e:
        raise Bad(f"{label}: stats.json: {e}")
    if not isinstance(stats, dict):
        raise Bad(f"{label}: stats.json is not an object")
    missing = [k for k in REQUIRED_STATS if k not in stats]
    if missing:
        raise Bad(f"{label}: stats.json lacks {', '.join(missing)}")
    for k in INT_STATS:
        if not isinstance(stats[k], int) or isinstance(stats[k], bool):
            raise Bad(f"{label}: stats.json {k} is not an integer")
    check_quantified(label, stats)
    if not os.path.isfile(os.path.join(out, "info")):
        raise Bad(f"{label}: no info file")

    # The last two stdout lines agree with stats.json.
    lines = [l for l in run.stdout.split("\n") if l.strip()]
    m = DONE_RE.match(lines[-2]) if len(lines) >= 2 else None
    if not m:
        raise Bad(f"{label}: the stdout line before the last is not 'symq: done: completed "
                  f"paths …': '{lines[-2] if len(lines) >= 2 else ''}'")
    verdict = VERDICT_RE.match(lines[-1])
    if not verdict:
        raise Bad(f"{label}: last stdout line is not the verdict: '{lines[-1]}'")
    if stats["exhausted"] and (stats["early_paths"] or stats.get("dropped_reasons")):
        raise Bad(f"{label}: exhausted is claimed with {stats['early_paths']} early path(s) "
                  f"and dropped alternatives {stats.get('dropped_reasons')}")
    if (verdict.group(1) == "complete") != (stats["exhausted"] is True):
        raise Bad(f"{label}: verdict '{lines[-1]}' but exhausted={stats['exhausted']!r}")
    if verdict.group(2) is not None and int(verdict.group(2)) != stats["early_paths"]:
        raise Bad(f"{label}: verdict '{lines[-1]}' but early_paths={stats['early_paths']}")
    done = tuple(int(x) for x in m.groups())
    in_stats = (stats["completed_paths"], stats["error_paths"], stats["tests"])
    if done != in_stats:
        raise Bad(f"{label}: stdout says (completed, errors, tests) = {done}, "
                  f"stats.json {in_stats}")

    # Expected counts.
    actual = {"completed": stats["completed_paths"], "errors": stats["error_paths"],
              "tests": stats["tests"], "early": stats["early_paths"]}
    for k in ("completed", "errors", "tests", "early"):
        want = exp.get(k, 0)
        if not (actual[k] >= want.n if isinstance(want, AtLeast) else actual[k] == want):
            raise Bad(f"{label}: expected {k}={want}, got {k}={actual[k]} "
                      f"(completed={actual['completed']} errors={actual['errors']} "
                      f"tests={actual['tests']} early={actual['early']})")
    limited = spec["signal"] is not None or any(a.startswith(LIMIT_OPTIONS)
                                                for a in spec["args"])
    if "exhausted" in exp or not limited:
        want = exp.get("exhausted", True)
        if stats["exhausted"] is not want:
            raise Bad(f"{label}: expected exhausted={str(want).lower()}, "
                      f"got {stats['exhausted']!r}")

    # Test files: numbered from 1 without gaps; every .err beside its .ktest.
    names = sorted(os.listdir(out))
    ktests = [n for n in names if n.endswith(".ktest")]
    for n in ktests:
        if not re.fullmatch(r"test\d{6}\.ktest", n):
            raise Bad(f"{label}: unexpected file name {n}")
    if ktests != [f"test{i:06d}.ktest" for i in range(1, len(ktests) + 1)]:
        raise Bad(f"{label}: .ktest files are not numbered 1..{len(ktests)}")
    if len(ktests) != stats["tests"]:
        raise Bad(f"{label}: {len(ktests)} .ktest files but stats.json tests={stats['tests']}")
    for n in ktests:
        try:
            objs = parse_ktest(os.path.join(out, n))
        except Bad as e:
            raise Bad(f"{label}: {e}")
        want = spec["objects"]
        got_names = [o[0] for o in objs]
        if got_names != [w[0] for w in want]:
            raise Bad(f"{label}: {n} holds objects {got_names}, "
                      f"expected {[w[0] for w in want]}")
        for (nm, size), (_, data) in zip(want, objs):
            if size is not None and len(data) != size:
                raise Bad(f"{label}: {n} object {nm} has {len(data)} bytes, expected {size}")

    # States the halt's budget left without a test: a line each in lost.early, counted.
    lost = 0
    if os.path.exists(os.path.join(out, "lost.early")):
        with open(os.path.join(out, "lost.early"), encoding="utf-8") as f:
            lost = len(f.read().splitlines())
    if lost > stats.get("tests_lost", 0):
        raise Bad(f"{label}: lost.early lists {lost} states but tests_lost="
                  f"{stats.get('tests_lost')}")

    # Where early paths ended: every .early file belongs to a test and gives the location.
    driver_base = os.path.basename(driver)
    earlies = []
    for n in names:
        if not re.fullmatch(r"test\d{6}\.early", n):
            continue
        if n[:-len(".early")] + ".ktest" not in ktests:
            raise Bad(f"{label}: {n} has no .ktest")
        try:
            earlies.append(parse_early(os.path.join(out, n)) + (n,))
        except Bad as e:
            raise Bad(f"{label}: {e}")
    for reason, line in spec["early_at"]:
        at = [(f, l) for r, f, l, _ in earlies if reason in r]
        if not any(f and os.path.basename(f) == driver_base and l == line for f, l in at):
            raise Bad(f"{label}: no .early file for '{reason}' at {driver_base}:{line} "
                      f"(found: {at})")
        if stats["early_paths"] == 1 and not (
                verdict.group("file") and os.path.basename(verdict.group("file")) == driver_base
                and int(verdict.group("line")) == line):
            raise Bad(f"{label}: verdict '{lines[-1]}' does not end its early list with "
                      f"' at {driver_base}:{line}'")

    # Reported errors.
    reported = []
    for n in names:
        m = re.fullmatch(r"(test\d{6})\.([A-Za-z0-9_.-]+)\.err", n)
        if not n.endswith(".err"):
            continue
        if not m:
            raise Bad(f"{label}: unexpected file name {n}")
        if m.group(1) + ".ktest" not in ktests:
            raise Bad(f"{label}: {n} has no {m.group(1)}.ktest")
        try:
            msg, file, line = parse_err(os.path.join(out, n))
        except Bad as e:
            raise Bad(f"{label}: {e}")
        if os.path.basename(file) != driver_base:
            raise Bad(f"{label}: {n} names File: {file}, not the driver")
        reported.append((m.group(2), line, msg, n))
    by_key = {}
    for kind, line, msg, n in reported:
        by_key.setdefault((kind, line), []).append((msg, n))
    for key, items in sorted(by_key.items()):
        if key not in spec["errors"]:
            raise Bad(f"{label}: unexpected error {key[0]} at line {key[1]} "
                      f"({items[0][1]}: {items[0][0]})")
    for key, item in sorted(spec["errors"].items()):
        got = by_key.get(key, [])
        if len(got) != item["count"]:
            others = ", ".join(f"{k}@{l}" for k, l in sorted(by_key)) or "none"
            raise Bad(f"{label}: expected {item['count']} {key[0]} error(s) at line {key[1]}, "
                      f"got {len(got)} (reported: {others})")
        if item["msg"] is not None:
            for msg, n in got:
                if item["msg"] not in msg:
                    raise Bad(f"{label}: {n}: message '{msg}' lacks '{item['msg']}'")

    bound = spec["time_at_most"]
    start = 0.0
    if bound is not None and spec["signal"]:  # the halt's budget, as engine/exec/interp.c gives it
        start = run.signalled_at
        bound += max(1.0, 0.05 * start)
    if bound is not None and not (isinstance(stats.get("exploration_time_s"), (int, float))
                                  and stats["exploration_time_s"] - start <= bound):
        since = f" ({start} s at the signal)" if spec["signal"] else ""
        raise Bad(f"{label}: exploration_time_s = {stats.get('exploration_time_s')!r}{since}, "
                  f"expected at most {bound:.2f} s{' after it' if since else ''}")

    # Early paths' reasons.
    texts = list(strings_in(stats))
    for reason in spec["early"]:
        if not any(reason in t for t in texts):
            raise Bad(f"{label}: no early reason '{reason}' in stats.json")

    ktest_bytes = {}
    for n in ktests:
        with open(os.path.join(out, n), "rb") as f:
            ktest_bytes[n] = f.read()
    return {"counts": (actual["completed"], actual["errors"], actual["tests"], actual["early"]),
            "errors": sorted((k, l) for k, l, _, _ in reported),
            "ktests": ktest_bytes}


def run_checked(symq, driver, spec, options, label, keep, verbose, program=None):
    """A run of driver (or of program, its bitcode) checked against spec."""
    run = Run(symq, driver, options, keep, verbose, spec["signal"], program)
    try:
        return collect(run, driver, spec, label)
    except Bad:
        if verbose and run.stdout.strip():
            print("  stdout tail: " + run.stdout.strip().split("\n")[-1], flush=True)
        raise
    finally:
        run.cleanup()


def check_driver(symq, driver, keep, verbose, search_invariant=True):
    spec = parse_driver(driver)
    if spec["reject"] is not None:
        run = Run(symq, driver, spec["args"], keep, verbose)
        try:
            check_reject(run, spec)
        finally:
            run.cleanup()
        return
    base = run_checked(symq, driver, spec, spec["args"], "default", keep, verbose)
    if not spec["invariant"] or WRAPPER or not search_invariant:
        return  # under valgrind (or --no-search-invariant), the default run is the check
    args = [a for a in spec["args"] if not a.startswith("--search")]
    first_dfs = None
    # The other searches load the driver compiled once (as symq compiles it: clang once, not
    # four times); both dfs runs take the .c, so that their .ktest files, which name the
    # input, compare byte for byte.
    bc_dir = tempfile.mkdtemp(prefix="symq-e2e-bc-")
    try:
        try:
            bc = bitcode.compile_driver(symq, driver, os.path.join(bc_dir, "driver.bc"))
        except RuntimeError as e:
            raise Bad(str(e))
        for s in SEARCHES:
            if s == DEFAULT_SEARCH and args == spec["args"]:
                r = base  # the default run was this search, with the same options
            else:
                r = run_checked(symq, driver, spec, args + [f"--search={s}"], s, keep, verbose,
                                None if s == "dfs" else bc)
            if r["counts"] != base["counts"]:
                raise Bad(f"{s}: (completed, errors, tests, early) = {r['counts']}, "
                          f"default search gave {base['counts']}")
            if r["errors"] != base["errors"]:
                raise Bad(f"{s}: reported errors {r['errors']}, "
                          f"default search gave {base['errors']}")
            if s == "dfs":
                first_dfs = r
    finally:
        shutil.rmtree(bc_dir, ignore_errors=True)
    again = run_checked(symq, driver, spec, args + ["--search=dfs"], "dfs again", keep, verbose)
    if again["ktests"] != first_dfs["ktests"]:
        diff = sorted(n for n in set(again["ktests"]) | set(first_dfs["ktests"])
                      if again["ktests"].get(n) != first_dfs["ktests"].get(n))
        raise Bad("determinism: two dfs runs wrote different .ktest files "
                  f"({', '.join(diff[:5])})")


def main():
    global RUN_TIMEOUT
    ap = argparse.ArgumentParser(description="symq end-to-end tests (see the module docstring)")
    ap.add_argument("symq", help="the symq binary")
    ap.add_argument("--filter", help="driver name (file name without .c); wildcards allowed")
    ap.add_argument("--keep", action="store_true", help="keep the output directories")
    ap.add_argument("--verbose", "-v", action="store_true", help="print each symq command")
    ap.add_argument("-j", type=int, default=1, help="drivers run in parallel (default 1)")
    ap.add_argument("--timeout", type=int, default=RUN_TIMEOUT,
                    help=f"seconds allowed per symq run (default {RUN_TIMEOUT})")
    ap.add_argument("--valgrind", action="store_true",
                    help="run symq under valgrind's memcheck: a memory error or a definite "
                         "leak fails the driver; SEARCH-INVARIANT's extra runs are skipped")
    ap.add_argument("--no-search-invariant", action="store_true",
                    help="skip SEARCH-INVARIANT's extra runs (CI makes them in another build)")
    opts = ap.parse_args()
    RUN_TIMEOUT = opts.timeout
    if opts.valgrind:
        global WRAPPER
        WRAPPER = ["valgrind", "-q", f"--error-exitcode={VALGRIND_STATUS}", "--leak-check=full",
                   "--errors-for-leak-kinds=definite,indirect", "--show-leak-kinds=definite"]

    symq = os.path.abspath(opts.symq)
    drivers = sorted(n[:-2] for n in os.listdir(HERE) if n.endswith(".c"))
    if opts.filter:
        drivers = [d for d in drivers if fnmatch.fnmatchcase(d, opts.filter)]
    if not drivers:
        print(f"FAIL: no driver matches '{opts.filter}'")
        print("0 passed, 1 failed")
        return 1
    if not (os.path.isfile(symq) and os.access(symq, os.X_OK)):
        for d in drivers:
            print(f"FAIL {d}: {symq} is not an executable file")
        print(f"0 passed, {len(drivers)} failed")
        return 1

    def one(name):
        try:
            check_driver(symq, os.path.join(HERE, name + ".c"), opts.keep, opts.verbose,
                         not opts.no_search_invariant)
            return name, None
        except Bad as e:
            return name, str(e)
        except Exception as e:  # a bug in this script or an unreadable file: still one line
            return name, f"internal error: {type(e).__name__}: {e}"

    passed = failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.j)) as pool:
        for name, reason in pool.map(one, drivers):
            if reason is None:
                passed += 1
                print(f"PASS {name}", flush=True)
            else:
                failed += 1
                print(f"FAIL {name}: {reason}", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
