#!/usr/bin/env python3
"""run_replay.py — tests of native replay (`symq replay`), the replay library
(runtime/replay/replay.c) and GCov coverage (`symq cov`).

    run_replay.py SYMQ_BINARY --scenario NAME [--keep] [--verbose]
    run_replay.py SYMQ_BINARY --list

Each scenario is one CTest test (test/replay/CMakeLists.txt). It prints one line per check,
`PASS what` or `FAIL what: reason`, then exactly `N passed, N failed`; exit status 1 if any
check failed. Work happens in a fresh temporary directory (kept with --keep).

Scenarios
  e2e            every test/e2e driver that symq runs to the end (all but EXPECT-REJECT
                 and SIGNAL ones, and NOT_REPLAYED): one `symq run`, then its tests
                 replayed twice, natively and with --sanitize. Native, `symq replay`: each
                 error test reproduces (ptr/free/overshift/overflow ones, run in the sanitized build
                 replay makes for them, through an ASan/UBSan report at the line); a test ended
                 early is reported "not checked" (with what it did natively); every other
                 test exits normally (or
                 repeats an error another test reports: symq reports each error once).
                 A driver calling a function defined nowhere (UNLINKABLE) must fail to
                 link with a one-line error naming the function.
                 With `symq replay --sanitize`: every error reproduces, and a
                 ptr/free/div/exec error through an ASan/UBSan report at the .err's line.
  mismatch       symq's tests of names.c replay cleanly; with an object renamed, resized or
                 missing in the ktest (and with a corrupt ktest) each test is a mismatch.
  library        api_all.c built by hand with replay.c: every input function returns the
                 ktest's bytes in call order, and each way to stop has its status and line.
  svcomp         a driver using __VERIFIER_nondet_*, __VERIFIER_assume and reach_error,
                 replayed from ktests and .err files written here (sizes are checked, names
                 are not), then from symq's own tests of it.
  sanitize-line  an out-of-bounds heap read in a helper: --sanitize reproduces it with an
                 ASan report at the .err's line; a .err moved to another line is a mismatch;
                 without --sanitize it reproduces too (memory-error tests run sanitized).
  cov-memspn     `symq cov` on drivers/memspn.c: the HTML report, the summary line, the
                 "gcov" key in stats.json (the rest unchanged), and the same line and branch
                 counts as gcc --coverage + gcov run by hand on the same tests.
  cov-crash      `symq cov` counts the lines that only a crashing test runs (the library
                 writes gcov's counters on SIGABRT), equal to gcov by hand.
  cov-list       the replay library's KTEST_LIST (many tests in one run, as eval/real/run
                 replays a campaign's tests): the same gcov line and branch counts as one
                 run per test, on memspn and on a test that crashes.
  errors         clear one-line errors and status 2 for a missing/invalid OUTDIR, bad
                 options, a driver that does not compile, a missing compiler; a timeout; a
                 test that fails natively without a recorded error; an early test, and one
                 that ends in an error natively (pointed out).
"""

import argparse
import concurrent.futures
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
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
E2E = os.path.join(ROOT, "test", "e2e")
INCLUDE = os.path.join(ROOT, "runtime", "include")
LIBRARY = os.path.join(ROOT, "runtime", "replay", "replay.c")
LIBRARY_H = os.path.join(ROOT, "runtime", "replay", "replay.h")

SUMMARY_RE = re.compile(r"^replayed (\d+) tests: (\d+) errors reproduced, (\d+) mismatches$")
TEST_LINE_RE = re.compile(r"^(test\d{6}): (exit \d+|signal \d+ \(\w+\)|timeout after [\d.]+ s|"
                          r"not run): (.*)$")
COV_RE = re.compile(r"^lines: (\d+\.\d)% \((\d+)/(\d+)\), branches: (\d+\.\d)% \((\d+)/(\d+)\)$")

# Without a sanitizer a ptr error shows natively only if it crashes: an out-of-bounds access
# or a use after free that lands in memory the process owns does not. So replay runs the
# tests of these kinds in a sanitized build by default: each must reproduce through an
# ASan/UBSan report at the .err's line. Every other kind must reproduce natively.
AUTO_SANITIZED = {"ptr", "free", "overshift", "overflow"}
# Drivers that call a function defined nowhere (symq ends that path early): they cannot be
# linked natively, which replay must say in one line. {driver: the function}
UNLINKABLE = {"early_external_call": "mystery_external", "external_not_found": "mystery_external_fn"}
# Drivers e2e leaves out: their runs prove nothing about replay that another driver's do not.
# limit_max_time_bound explores for 10 s (whatever the machine) to halt with thousands of
# states waiting; limit_max_time replays a run halted by --max-time, in 1 s.
NOT_REPLAYED = {"limit_max_time_bound"}
# With --sanitize these kinds must show as an ASan/UBSan report at the .err's line.
SANITIZER_KINDS = {"ptr", "free", "div", "exec", "overshift"}

SYMQ = None
VERBOSE = False
RESULTS = []


def check(ok, what, reason=""):
    RESULTS.append(bool(ok))
    if ok:
        print(f"PASS {what}", flush=True)
    else:
        print(f"FAIL {what}: {reason}", flush=True)
    return ok


def run(argv, cwd=None, env=None, timeout=300):
    p = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True, errors="replace", timeout=timeout)
    if VERBOSE:
        print(f"$ {shlex.join(argv)}  [exit {p.returncode}]\n{p.stdout}{p.stderr}", flush=True)
    return p


def replay_statuses():
    """The library's exit statuses, from replay.h (the one place they are defined)."""
    text = open(LIBRARY_H, encoding="utf-8").read()
    return {m.group(1): int(m.group(2))
            for m in re.finditer(r"#define SYMQ_REPLAY_EXIT_(\w+) (\d+)", text)}


def marker_line(path, mark):
    lines = [n for n, line in enumerate(open(path, encoding="utf-8"), 1) if mark in line]
    if len(lines) != 1:
        raise RuntimeError(f"{path}: marker {mark} occurs {len(lines)} times")
    return lines[0]


# ---- ktest files -------------------------------------------------------------------------

def ktest_encode(objects, args=("prog",), magic=b"KTEST", version=3):
    out = bytearray(magic + struct.pack(">I", version))
    out += struct.pack(">I", len(args))
    for a in args:
        b = a.encode()
        out += struct.pack(">I", len(b)) + b
    if version >= 2:
        out += struct.pack(">II", 0, 0)
    out += struct.pack(">I", len(objects))
    for name, data in objects:
        n = name.encode()
        out += struct.pack(">I", len(n)) + n + struct.pack(">I", len(data)) + bytes(data)
    return bytes(out)


def ktest_decode(data):
    pos = 5
    version, = struct.unpack_from(">I", data, pos)
    pos += 4
    nargs, = struct.unpack_from(">I", data, pos)
    pos += 4
    args = []
    for _ in range(nargs):
        n, = struct.unpack_from(">I", data, pos)
        args.append(data[pos + 4:pos + 4 + n].decode())
        pos += 4 + n
    if version >= 2:
        pos += 8
    count, = struct.unpack_from(">I", data, pos)
    pos += 4
    objects = []
    for _ in range(count):
        n, = struct.unpack_from(">I", data, pos)
        name = data[pos + 4:pos + 4 + n].decode()
        pos += 4 + n
        size, = struct.unpack_from(">I", data, pos)
        objects.append((name, data[pos + 4:pos + 4 + size]))
        pos += 4 + size
    return args, objects


def read_ktest(path):
    with open(path, "rb") as f:
        return ktest_decode(f.read())


def write_ktest(path, objects, args=("prog",), **kw):
    with open(path, "wb") as f:
        f.write(ktest_encode(objects, args, **kw))


def i32(v):
    return struct.pack("<i", v)


def make_outdir(path, driver, tests):
    """A symq output directory written by hand: info, and per test (objects, err, early)
    with err = (kind, line) or None and early = reason or None."""
    os.makedirs(path)
    with open(os.path.join(path, "info"), "w") as f:
        f.write(f"symq run --output-dir={path} {driver}\nsymq version: test\nStatus: finished\n"
                f"input: {driver}\ncwd: {os.path.dirname(driver)}\ncflags: \nruntime: symq\n"
                "mode: none\n")
    for n, (objects, err, early) in enumerate(tests, 1):
        write_ktest(os.path.join(path, f"test{n:06d}.ktest"), objects, (driver,))
        if err:
            kind, line = err
            with open(os.path.join(path, f"test{n:06d}.{kind}.err"), "w") as f:
                f.write(f"Error: written by run_replay.py\nFile: {driver}\nLine: {line}\n")
        if early:
            with open(os.path.join(path, f"test{n:06d}.early"), "w") as f:
                f.write(early + "\n")


def symq_run(driver, outdir, args=(), cwd=None):
    # a generous solver timeout first (args may override it): outcomes must not depend on load
    p = run([SYMQ, "run", "--solver-timeout=120s", *args, f"--output-dir={outdir}", driver],
            cwd=cwd)
    if p.returncode != 0:
        raise RuntimeError(f"symq run {driver} failed ({p.returncode}): {p.stderr.strip()}")
    return p


def parse_replay(stdout):
    """(per-test {name: (status, text)}, summary (N, E, M) or None, stray lines)."""
    tests, summary, stray = {}, None, []
    lines = stdout.rstrip("\n").split("\n") if stdout.strip() else []
    for line in lines:
        m = TEST_LINE_RE.match(line)
        if m:
            tests[m.group(1)] = (m.group(2), m.group(3))
        elif not SUMMARY_RE.match(line):
            stray.append(line)
    if lines and SUMMARY_RE.match(lines[-1]):
        summary = tuple(int(x) for x in SUMMARY_RE.match(lines[-1]).groups())
    return tests, summary, stray


def outdir_tests(outdir):
    """{testNNNNNN: (kind, line) or None} for every .ktest in outdir."""
    names = sorted(f[:-6] for f in os.listdir(outdir) if re.fullmatch(r"test\d{6}\.ktest", f))
    result = {n: None for n in names}
    for f in os.listdir(outdir):
        m = re.fullmatch(r"(test\d{6})\.(.+)\.err", f)
        if m:
            text = open(os.path.join(outdir, f), encoding="utf-8").read()
            line = re.search(r"^Line: (\d+)$", text, re.M)
            result[m.group(1)] = (m.group(2), int(line.group(1)) if line else 0)
    return result


# ---- scenarios ---------------------------------------------------------------------------

def e2e_drivers():
    """(name, ARGS, has EXPECT-ERROR) for every test/e2e driver symq runs to the end: not
    the ones it must reject, nor those stopped by a signal."""
    drivers = []
    for f in sorted(os.listdir(E2E)):
        if not f.endswith(".c"):
            continue
        text = open(os.path.join(E2E, f), encoding="utf-8").read()
        if f[:-2] in NOT_REPLAYED or re.search(r"^\s*//\s*(EXPECT-REJECT|SIGNAL)\b", text, re.M):
            continue
        m = re.search(r"^\s*//\s*ARGS:(.*)$", text, re.M)
        errors = re.search(r"^\s*//\s*EXPECT-ERROR:", text, re.M) is not None
        drivers.append((f[:-2], shlex.split(m.group(1)) if m else [], errors))
    return drivers


def e2e_one(tmp, name, args, has_errors):
    """One `symq run` of a driver, then its tests replayed natively and with --sanitize;
    returns a list of (ok, what, reason)."""
    outdir = os.path.join(tmp, name)
    try:
        symq_run(os.path.join(E2E, name + ".c"), outdir, args, cwd=tmp)
    except RuntimeError as e:
        return [(False, f"{name}: symq run", str(e))]
    return [(ok, f"{mode}: {what}", reason)
            for sanitize, mode in ((False, "native"), (True, "sanitize"))
            for ok, what, reason in e2e_replay(outdir, name, has_errors, sanitize)]


def e2e_replay(outdir, name, has_errors, sanitize):
    """Checks of one replay of a driver's tests; returns a list of (ok, what, reason)."""
    out = []
    expected = outdir_tests(outdir)
    cmd = [SYMQ, "replay", outdir] + (["--sanitize"] if sanitize else [])
    p = run(cmd)
    if name in UNLINKABLE:
        return [(p.returncode == 2 and re.fullmatch(
            rf"symq: error: cannot link .*{name}\.c natively \(gcc\): .*undefined reference to "
            rf"`{UNLINKABLE[name]}'\n", p.stderr), f"{name}: cannot be linked natively, said in "
            "one line", f"exit {p.returncode}: {p.stderr!r}")]
    tests, summary, _ = parse_replay(p.stdout)
    errors = {t: e for t, e in expected.items() if e}
    if has_errors and not errors:
        return [(False, f"{name}: symq run", "wrote no .err file")]
    early = {t for t in expected
             if os.path.exists(os.path.join(outdir, t + ".early"))}
    reproduced = 0
    for t, err in expected.items():
        what = f"{name}: {t}" + (f" ({err[0]} at line {err[1]})" if err else "")
        if t not in tests:
            out.append((False, what, f"no line for it in the output:\n{p.stdout}{p.stderr}"))
            continue
        status, text = tests[t]
        if err is None and t in early:
            out.append((text.startswith("not checked: the path ended early under symq"),
                        what + " (early) is not checked", f"got '{status}: {text}'"))
            continue
        if err is None:
            # "ok", or a repeat of an error another test reports (symq reports each once)
            m = re.match(r"^ok: the error of (test\d{6}) ", text)
            out.append((text == "ok" or (m and m.group(1) in errors),
                        what + " exits normally", f"got '{status}: {text}'"))
            continue
        kind, line = err
        if text.startswith(f"{kind} error reproduced: "):
            reproduced += 1
            ok, reason = True, ""
            if (sanitize and kind in SANITIZER_KINDS) or (not sanitize and kind in AUTO_SANITIZED):
                base = os.path.basename(name) + ".c"
                ok = (re.search(r": (ASan|UBSan): ", text) is not None
                      and text.endswith(f" at {base}:{line}"))
                reason = f"expected an ASan/UBSan report at {base}:{line}, got '{text}'"
            out.append((ok, what + " reproduces", reason))
        else:
            out.append((False, what + " reproduces", f"got '{status}: {text}'"))
    want = (len(expected), reproduced, 0)
    out.append((summary == want and reproduced == len(errors),
                f"{name}: summary line", f"expected {want}, got {summary} from:\n{p.stdout}"))
    out.append((p.returncode == 0, f"{name}: exit status 0",
                f"got {p.returncode}: {p.stderr.strip()}"))
    return out


def scenario_e2e(tmp):
    drivers = e2e_drivers()
    check(sum(e for _, _, e in drivers) >= 10, "the e2e suite has error drivers",
          f"found {drivers}")
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        futures = [pool.submit(e2e_one, tmp, n, a, e) for n, a, e in drivers]
        for f in futures:
            for ok, what, reason in f.result():
                check(ok, what, reason)


def scenario_mismatch(tmp):
    driver = os.path.join(HERE, "names.c")
    base = os.path.join(tmp, "names")
    symq_run(driver, base, cwd=tmp)
    ktests = sorted(f for f in os.listdir(base) if f.endswith(".ktest"))
    check(len(ktests) == 2, "symq wrote 2 tests for names.c", f"got {ktests}")
    p = run([SYMQ, "replay", base])
    _, summary, _ = parse_replay(p.stdout)
    check(p.returncode == 0 and summary == (2, 0, 0), "unchanged tests replay cleanly",
          f"exit {p.returncode}, summary {summary}:\n{p.stdout}{p.stderr}")

    def mutated(label, change, expect):
        d = os.path.join(tmp, "names-" + label)
        shutil.copytree(base, d)
        for k in ktests:
            path = os.path.join(d, k)
            args, objects = read_ktest(path)
            data = change(objects)
            if isinstance(data, bytes):
                with open(path, "wb") as f:
                    f.write(data)
            else:
                write_ktest(path, data, args)
        p = run([SYMQ, "replay", d])
        tests, summary, _ = parse_replay(p.stdout)
        lines = [f"{s}: {t}" for s, t in tests.values()]
        check(p.returncode == 1, f"{label}: exit status 1", f"got {p.returncode}")
        check(summary == (2, 0, 2), f"{label}: both tests are mismatches",
              f"summary {summary}:\n{p.stdout}")
        check(len(lines) == 2 and all(re.search(expect, line) for line in lines),
              f"{label}: the message says what is wrong", f"expected /{expect}/ in:\n{p.stdout}")

    mutated("renamed", lambda o: [("z", o[0][1])] + o[1:],
            r'^exit 90: MISMATCH: no error was recorded, but replay failed: ktest mismatch: '
            r'klee_make_symbolic\("a", 4 bytes\) is input 1, but object 1 of .* is named "z"$')
    mutated("resized", lambda o: o[:1] + [("b", o[1][1] + b"\0")],
            r'ktest mismatch: klee_make_symbolic\("b", 2 bytes\) is input 2, but object 2 '
            r'\("b"\) of .* has 3 bytes$')
    mutated("missing", lambda o: o[:1],
            r'ktest mismatch: klee_make_symbolic\("b", 2 bytes\) is input 2, but .* has only '
            r'1 objects$')
    mutated("corrupt", lambda o: b"KTEST\0\0\0\3\0\0",
            r"^not run: MISMATCH: .*invalid ktest")


def build_by_hand(tmp, driver, name, extra=()):
    exe = os.path.join(tmp, name)
    p = run(["gcc", "-g", "-O0", *extra, "-I", INCLUDE, driver, LIBRARY, "-o", exe])
    if p.returncode != 0:
        raise RuntimeError(f"gcc failed: {p.stderr}")
    return exe


def scenario_library(tmp):
    st = replay_statuses()
    check(sorted(st) == ["ASSUME", "KTEST", "REACH", "REPORT"] and len(set(st.values())) == 4,
          "replay.h defines four distinct statuses", f"got {st}")
    exe = build_by_hand(tmp, os.path.join(HERE, "api_all.c"), "api_all", ["-Wall", "-Werror"])
    base = [("buf", bytes([1, 2, 250])), ("h", struct.pack("<H", 60000)), ("r", i32(17)),
            ("k", i32(-42)), ("s", i32(-5)), ("t", i32(123456))]
    first = "buf=1,2,250 h=60000 r=17 k=-42 s=-5 t=123456"
    tail = "is_symbolic=0 is_replay=1,1 get_value=-42,-5,q"

    def go(label, objects, mode="ok", env_extra=None, magic=b"KTEST", version=3, ktest=True):
        path = os.path.join(tmp, label + ".ktest")
        write_ktest(path, objects, magic=magic, version=version)
        env = dict(os.environ)
        env.pop("KTEST_FILE", None)
        if ktest:
            env["KTEST_FILE"] = path
        env.update(env_extra or {})
        return run([exe, mode], env=env), path

    p, _ = go("ok", base)
    check(p.returncode == 0 and p.stdout == f"{first}\n{tail}\n",
          "inputs come back in call order; is_symbolic, is_replay, get_value",
          f"exit {p.returncode}, stdout {p.stdout!r}, stderr {p.stderr!r}")
    check(p.stderr == "", "a clean run prints nothing on stderr", repr(p.stderr))

    p, _ = go("legacy", base, magic=b"BOUT\n", version=1)
    check(p.returncode == 0 and p.stdout.startswith(first),
          "legacy BOUT version-1 files are read", f"exit {p.returncode}: {p.stderr}")

    nondet = [("char", "<b", -7), ("uchar", "<B", 200), ("short", "<h", -300),
              ("ushort", "<H", 65000), ("int", "<i", -100000), ("uint", "<I", 4000000000),
              ("unsigned", "<I", 7), ("long", "<q", -(1 << 40)), ("ulong", "<Q", 1 << 63),
              ("longlong", "<q", -3), ("ulonglong", "<Q", 18446744073709551615),
              ("int128", None, None), ("uint128", None, None), ("float", "<f", 1.5),
              ("double", "<d", -2.25), ("size_t", "<Q", 99), ("loff_t", "<q", -9),
              ("sector_t", "<Q", 11), ("pthread_t", "<Q", 12), ("u8", "<B", 255),
              ("u16", "<H", 65535), ("u32", "<I", 4294967295), ("u64", "<Q", 5),
              ("pointer", "<Q", 4096), ("pchar", "<Q", 8192), ("bool", "<B", 1)]
    objects, expect = list(base), []
    for name, fmt, value in nondet:
        if name == "int128":
            data, shown = struct.pack("<Qq", 5, -2), "-2:5"
        elif name == "uint128":
            data, shown = struct.pack("<QQ", 6, 3), "3:6"
        else:
            data = struct.pack(fmt, value)
            shown = "%g" % value if name in ("float", "double") else str(value)
        objects.append(("nondet_" + name if name != "int" else "anything", data))
        expect.append(f"{name}={shown}")
    objects.append(("nondet_memory", bytes([9, 8, 7, 6, 5])))
    expect.append("memory=9,8,7,6,5")
    p, _ = go("nondet", objects, "nondet")
    got = p.stdout.split("\n")[1:-2]
    check(p.returncode == 0 and got == expect,
          "every __VERIFIER_nondet_* reads the next object of sizeof(type) bytes, any name",
          f"exit {p.returncode}: {p.stderr}\nexpected {expect}\ngot {got}")
    bad_bool = [o if o[0] != "nondet_bool" else ("nondet_bool", b"\2") for o in objects]
    p, _ = go("nondet-bool", bad_bool, "nondet")
    check(p.returncode == st["KTEST"] and "__VERIFIER_nondet_bool got 2 (not 0 or 1)" in p.stderr,
          "a nondet_bool that is neither 0 nor 1 is a ktest mismatch", p.stderr)
    p, _ = go("nondet-memory", objects[:-1] + [("nondet_memory", b"\1\2")], "nondet")
    check(p.returncode == st["KTEST"] and re.search(
        r"__VERIFIER_nondet_memory\(\"nondet_memory\", 5 bytes\) is input \d+, but .* has 2 "
        r"bytes", p.stderr), "nondet_memory takes an object of the block's size", p.stderr)
    wrong = objects[:6] + [("nondet_char", b"\1\2")] + objects[7:]
    p, _ = go("nondet-size", wrong, "nondet")
    check(p.returncode == st["KTEST"] and re.search(
        r'^symq-replay: ktest mismatch: __VERIFIER_nondet_char\("nondet_char", 1 bytes\) is '
        r'input 7, but object 7 \("nondet_char"\) of .* has 2 bytes$', p.stderr, re.M),
        "a nondet object of the wrong size is a ktest mismatch", f"{p.returncode}: {p.stderr}")

    def stops(mode, status, pattern, objects=base):
        p, _ = go("stop-" + mode, objects, mode)
        ok = p.returncode == status and re.search(pattern, p.stderr, re.M)
        check(ok, f"{mode}: status {status} and its message",
              f"exit {p.returncode}, stderr {p.stderr!r}")

    stops("klee_assume", st["ASSUME"],
          r"^symq-replay: assumption violated: klee_assume called with a false condition$")
    stops("symq_assume", st["ASSUME"], r"^symq-replay: assumption violated: symq_assume")
    stops("verifier_assume", st["ASSUME"], r"^symq-replay: assumption violated: __VERIFIER_assume")
    stops("klee_report", st["REPORT"], r"^symq-replay: error \(custom\): .*api_all\.c:77: boom$")
    stops("symq_report", st["REPORT"], r"^symq-replay: error \(mine\): .*api_all\.c:78: bang$")
    stops("reach", st["REACH"], r"^symq-replay: reach_error: reach_error\(\) called$")
    stops("verifier_error", st["REACH"], r"^symq-replay: reach_error: __VERIFIER_error\(\) called$")
    stops("abort", -6, r"^$")
    stops("silent", 7, r"^$")
    stops("range_empty", st["REPORT"],
          r"^symq-replay: error \(user\): klee_range\(5, 5\): invalid klee_range call \(empty "
          r"range\)$", base + [("e", i32(5))])
    stops("extra", st["KTEST"], r'^symq-replay: ktest mismatch: klee_int\("extra", 4 bytes\) is '
          r'input 7, but .* has only 6 objects$')

    sized = base + [("sb.size", struct.pack("<Q", 3)), ("sb", bytes([7, 8, 9]))]
    p, _ = go("buffer", sized, "buffer")
    check(p.returncode == 0 and p.stdout.split("\n")[1] == "sb=3:7,8,9,",
          "symq_symbolic_buffer: the objects NAME.size, then NAME of that size",
          f"{p.returncode}: {p.stdout}{p.stderr}")
    too_big = base + [("sb.size", struct.pack("<Q", 5)), ("sb", bytes(5))]
    p, _ = go("buffer-big", too_big, "buffer")
    check(p.returncode == st["KTEST"] and
          'symq_symbolic_buffer(4, "sb") got size 5' in p.stderr,
          "symq_symbolic_buffer: a size above the capacity is a ktest mismatch", p.stderr)
    out_of_range = base[:2] + [("r", i32(25))] + base[3:]
    p, _ = go("range", out_of_range)
    check(p.returncode == st["KTEST"] and
          re.search(r'ktest mismatch: klee_range\(10, 20, "r"\) got 25', p.stderr),
          "a klee_range value outside the range is a ktest mismatch", p.stderr)
    renamed = base[:3] + [("kk", i32(1))] + base[4:]
    p, _ = go("int-name", renamed)
    check(p.returncode == st["KTEST"] and
          re.search(r'klee_int\("k", 4 bytes\) is input 4, but object 4 of .* is named "kk"',
                    p.stderr), "klee_int checks the object's name", p.stderr)
    p, _ = go("unused", base + [("spare", b"\0")])
    check(p.returncode == 0 and re.search(
        r"^symq-replay: warning: the program used 6 of the 7 objects in ", p.stderr, re.M),
        "unused objects: a warning at exit", f"{p.returncode}: {p.stderr}")
    p, _ = go("unset", base, ktest=False)
    check(p.returncode == st["KTEST"] and "KTEST_FILE is not set" in p.stderr,
          "KTEST_FILE unset: a ktest error", p.stderr)
    p, path = go("badmagic", base)
    with open(path, "wb") as f:
        f.write(b"NOTAKTEST")
    env = dict(os.environ, KTEST_FILE=path)
    p = run([exe], env=env)
    check(p.returncode == st["KTEST"] and "not a ktest file (bad magic)" in p.stderr,
          "a file that is no ktest: a ktest error", p.stderr)
    env = dict(os.environ, KTEST_FILE=os.path.join(tmp, "absent.ktest"))
    p = run([exe], env=env)
    check(p.returncode == st["KTEST"] and "cannot open" in p.stderr,
          "a missing ktest file: a ktest error", p.stderr)


def scenario_svcomp(tmp):
    driver = os.path.join(HERE, "svcomp.c")
    reach = marker_line(driver, "@reach")
    outdir = os.path.join(tmp, "svcomp")
    make_outdir(outdir, driver, [
        ([("nondet_int", i32(5)), ("nondet_uchar", b"\7")], None, None),
        ([("nondet_int", i32(200)), ("nondet_uchar", b"\7")], ("reach_error", reach), None),
        ([("nondet_int", i32(-1)), ("nondet_uchar", b"\0")], None, None),
        ([("nondet_int", struct.pack("<q", 200)), ("nondet_uchar", b"\7")], None, None),
    ])
    p = run([SYMQ, "replay", outdir])
    tests, summary, _ = parse_replay(p.stdout)
    check(tests.get("test000001") == ("exit 0", "ok"), "a passing nondet test exits normally",
          p.stdout)
    check(tests.get("test000002", ("", ""))[1].startswith("reach_error error reproduced"),
          "reach_error() reproduces", p.stdout)
    # symq ends a path whose __VERIFIER_assume cannot hold without a test; a test that
    # violates one natively does not follow its path
    check(tests.get("test000003") == ("exit 91", "MISMATCH: no error was recorded, but "
                                      "assumption violated: __VERIFIER_assume called with a "
                                      "false condition"),
          "a test whose __VERIFIER_assume is false natively is a mismatch", p.stdout)
    check(re.search(r"ktest mismatch: __VERIFIER_nondet_int\(.*4 bytes\).* has 8 bytes$",
                    tests.get("test000004", ("", ""))[1]),
          "a nondet object of the wrong size is a mismatch", p.stdout)
    check(summary == (4, 1, 2) and p.returncode == 1, "summary and exit status",
          f"{summary}, exit {p.returncode}")

    # the round trip: symq's own tests of the same driver (runtime/lib/svcomp.c makes one
    # object per nondet call) replay natively
    real = os.path.join(tmp, "svcomp-symq")
    symq_run(driver, real, cwd=tmp)
    expected = outdir_tests(real)
    p = run([SYMQ, "replay", real])
    tests, summary, _ = parse_replay(p.stdout)
    n_err = sum(1 for e in expected.values() if e)
    check(list(e for e in expected.values() if e) == [("reach_error", reach)] and
          summary == (len(expected), 1, 0) and p.returncode == 0 and
          all(text == "ok" or text.startswith("reach_error error reproduced")
              for _, text in tests.values()),
          "symq's own tests of the driver replay: reach_error reproduces, the rest exit",
          f"{expected}, {n_err} errors:\n{p.stdout}{p.stderr}")


def scenario_sanitize_line(tmp):
    driver = os.path.join(HERE, "oob_helper.c")
    line = marker_line(driver, "@oob")
    outdir = os.path.join(tmp, "oob")
    symq_run(driver, outdir, cwd=tmp)
    tests = outdir_tests(outdir)
    errs = {t: e for t, e in tests.items() if e}
    check(list(errs.values()) == [("ptr", line)], f"symq reports a ptr error at line {line}",
          f"got {tests}")
    if not errs:
        return
    name = next(iter(errs))
    p = run([SYMQ, "replay", "--sanitize", outdir])
    got = parse_replay(p.stdout)[0].get(name, ("", ""))[1]
    check(p.returncode == 0 and
          got == f"ptr error reproduced: ASan: heap-buffer-overflow at oob_helper.c:{line}",
          "--sanitize: an ASan heap-buffer-overflow report at the same line",
          f"exit {p.returncode}: {got!r}\n{p.stdout}{p.stderr}")
    p = run([SYMQ, "replay", outdir])
    got = parse_replay(p.stdout)[0].get(name, ("", ""))[1]
    check(p.returncode == 0 and
          got == f"ptr error reproduced: ASan: heap-buffer-overflow at oob_helper.c:{line}",
          "without --sanitize: memory-error tests run sanitized by default, and reproduce",
          f"{p.returncode}: {got}")
    moved = os.path.join(tmp, "oob-moved")
    shutil.copytree(outdir, moved)
    err = os.path.join(moved, f"{name}.ptr.err")
    text = open(err, encoding="utf-8").read()
    with open(err, "w", encoding="utf-8") as f:
        f.write(re.sub(r"^Line: \d+$", f"Line: {line + 1}", text, flags=re.M))
    p = run([SYMQ, "replay", "--sanitize", moved])
    got = parse_replay(p.stdout)[0].get(name, ("", ""))[1]
    check(p.returncode == 1 and got == f"MISMATCH: ptr error at line {line + 1} not reproduced: "
          f"ASan: heap-buffer-overflow at oob_helper.c:{line}",
          "a report at another line than the .err's is a mismatch", f"{p.returncode}: {got}")


def gcov_by_hand(tmp, driver, outdir, name, listed=None):
    """Builds driver + replay.c with gcc --coverage, runs every test of outdir, runs gcov:
    (executable lines, covered lines, branches, taken branches, {line: count}). With
    `listed` (a list of paths), one run replays those through KTEST_LIST instead."""
    d = os.path.join(tmp, name)
    os.makedirs(d)
    steps = [["gcc", "-c", "-g", "-O0", "--coverage", "-I", INCLUDE, driver, "-o", "drv.o"],
             ["gcc", "-c", "-g", "-O0", "-DSYMQ_REPLAY_GCOV", "-I", INCLUDE, LIBRARY, "-o",
              "lib.o"],
             ["gcc", "--coverage", "drv.o", "lib.o", "-o", "drv"]]
    for s in steps:
        p = run(s, cwd=d)
        if p.returncode:
            raise RuntimeError(f"{shlex.join(s)}: {p.stderr}")
    if listed is not None:
        with open(os.path.join(d, "list.txt"), "w") as f:
            f.writelines(t + "\n" for t in listed)
        p = run([os.path.join(d, "drv")], cwd=d,
                env=dict(os.environ, KTEST_LIST=os.path.join(d, "list.txt")))
        check(p.returncode == 0,
              f"{name}: the KTEST_LIST run ends with status 0", f"{p.returncode}: {p.stderr}")
    else:
        for k in sorted(f for f in os.listdir(outdir) if f.endswith(".ktest")):
            run([os.path.join(d, "drv")], cwd=d,
                env=dict(os.environ, KTEST_FILE=os.path.join(outdir, k)))
    p = run(["gcov", "-b", "-c", "drv.o"], cwd=d)
    gcov_file = os.path.join(d, os.path.basename(driver) + ".gcov")
    if p.returncode or not os.path.exists(gcov_file):
        raise RuntimeError(f"gcov failed: {p.stdout}{p.stderr}")
    lines = covered = branches = taken = 0
    counts = {}
    for text in open(gcov_file, encoding="utf-8", errors="replace"):
        m = re.match(r"^\s*([^:]+):\s*(\d+):", text)
        if m:
            c, n = m.group(1).strip(), int(m.group(2))
            if c in ("#####", "====="):
                lines += 1
                counts[n] = 0
            elif re.fullmatch(r"\d+\*?", c):
                lines += 1
                counts[n] = int(c.rstrip("*"))
                covered += counts[n] > 0
            continue
        m = re.match(r"^branch\s+\d+ (taken (\d+)|never executed)", text)
        if m:
            branches += 1
            taken += m.group(2) is not None and int(m.group(2)) > 0
    return lines, covered, branches, taken, counts


def cov_summary(stdout):
    for line in stdout.split("\n"):
        m = COV_RE.match(line)
        if m:
            return [float(m.group(1)), int(m.group(2)), int(m.group(3)), float(m.group(4)),
                    int(m.group(5)), int(m.group(6))]
    return None


def scenario_cov_memspn(tmp):
    driver = os.path.join(ROOT, "drivers", "memspn.c")
    outdir = os.path.join(tmp, "memspn")
    symq_run(driver, outdir, cwd=tmp)
    stats_path = os.path.join(outdir, "stats.json")
    before_text = open(stats_path, encoding="utf-8").read()
    before = json.loads(before_text)
    p = run([SYMQ, "cov", outdir])
    check(p.returncode == 0, "symq cov exits 0", f"{p.returncode}: {p.stderr}")
    s = cov_summary(p.stdout)
    check(s is not None and p.stdout.strip().split("\n")[-1] == p.stdout.strip()
          and s[2] > 0, "one summary line 'lines: X% (c/t), branches: Y% (c/t)'", repr(p.stdout))
    if s is None:
        return
    index = os.path.join(outdir, "coverage", "index.html")
    html = open(index, encoding="utf-8").read() if os.path.exists(index) else ""
    check("memspn.c" in html and "<html" in html.lower(),
          "coverage/index.html is gcovr's report naming memspn.c", index)
    details = [f for f in os.listdir(os.path.join(outdir, "coverage")) if "memspn.c" in f] \
        if os.path.isdir(os.path.join(outdir, "coverage")) else []
    check(details, "--html-details wrote a page for memspn.c", "none")

    lines, covered, branches, taken, _ = gcov_by_hand(tmp, driver, outdir, "by-hand")
    check((s[1], s[2]) == (covered, lines), "line counts equal gcc --coverage + gcov by hand",
          f"symq cov {s[1]}/{s[2]}, gcov {covered}/{lines}")
    check((s[4], s[5]) == (taken, branches), "branch counts equal gcov -b by hand",
          f"symq cov {s[4]}/{s[5]}, gcov {taken}/{branches}")
    check(abs(s[0] - int(1000 * covered / lines) / 10) < 1e-9, "the line percentage",
          f"{s[0]} for {covered}/{lines}")

    text = open(stats_path, encoding="utf-8").read()
    after = json.loads(text)
    gcov = after.get("gcov", {})
    check({k: v for k, v in after.items() if k != "gcov"} == before,
          "stats.json: every other key unchanged", "differs")
    head = before_text.rstrip()
    prefix = head[:-1].rstrip() + ",\n  \"gcov\": {\n"
    member = text[len(prefix):].split("\n")
    check(head.endswith("}") and text.startswith(prefix) and member[-3:] == ["  }", "}", ""]
          and all(line.startswith("    ") for line in member[:-3]),
          "stats.json: the old text kept byte for byte, gcov appended, indented as the writer "
          "does", text[-600:])
    check(gcov.get("lines_covered") == covered and gcov.get("lines_total") == lines and
          gcov.get("branches_covered") == taken and gcov.get("branches_total") == branches and
          gcov.get("lines_percent") == s[0] and gcov.get("branches_percent") == s[3] and
          gcov.get("tests") == len([f for f in os.listdir(outdir) if f.endswith(".ktest")]),
          "stats.json: gcov holds the same numbers", json.dumps(gcov))
    p = run([SYMQ, "cov", outdir])
    again = open(stats_path, encoding="utf-8").read()
    check(p.returncode == 0 and again == text and again.count('"gcov"') == 1,
          "a second symq cov rewrites stats.json identically", again[-300:])


def scenario_cov_crash(tmp):
    driver = os.path.join(HERE, "crash_cov.c")
    line = marker_line(driver, "@only_on_crash")
    outdir = os.path.join(tmp, "crash")
    symq_run(driver, outdir, cwd=tmp)
    p = run([SYMQ, "cov", outdir])
    s = cov_summary(p.stdout)
    check(p.returncode == 0 and s is not None, "symq cov exits 0 with a summary",
          f"{p.returncode}: {p.stdout}{p.stderr}")
    lines, covered, _, _, counts = gcov_by_hand(tmp, driver, outdir, "by-hand")
    check(counts.get(line) == 1, f"by hand, line {line} ran once (in the aborting test)",
          f"counts {counts}")
    check(s is not None and (s[1], s[2]) == (covered, lines) and covered == lines,
          "symq cov counts the crashing test's lines, as gcov by hand", f"{s} vs {covered}/{lines}")


def scenario_cov_list(tmp):
    """KTEST_LIST (one run, a child forked per test before main: eval/real/run's replay) counts
    what one run per test counts, line by line and branch by branch — a crashing test and a
    path that cannot be opened among them."""
    for driver in (os.path.join(ROOT, "drivers", "memspn.c"), os.path.join(HERE, "crash_cov.c")):
        base = os.path.splitext(os.path.basename(driver))[0]
        outdir = os.path.join(tmp, base)
        symq_run(driver, outdir, cwd=tmp)
        tests = sorted(os.path.join(outdir, f) for f in os.listdir(outdir) if f.endswith(".ktest"))
        apart = gcov_by_hand(tmp, driver, outdir, base + "-apart")
        listed = tests[:1] + [os.path.join(tmp, "no-such.ktest")] + tests[1:]
        together = gcov_by_hand(tmp, driver, outdir, base + "-listed", listed)
        check(len(tests) >= 2 and apart[1] > 0 and together == apart,
              f"{base}: {len(tests)} tests replayed in one run count as one run each",
              f"apart {apart[:4]} {apart[4]}, listed {together[:4]} {together[4]}")


def process_state(pid):
    """(parent pid, command name, state letter) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            stat = f.read()
    except OSError:
        return None
    comm = stat[stat.index("(") + 1:stat.rindex(")")]
    fields = stat[stat.rindex(")") + 2:].split()
    return int(fields[1]), comm, fields[0]


def wait_for(predicate, limit_s):
    """Polls predicate until it returns something true, or limit_s passes (a generous bound
    against a hang, never a speed expectation)."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        v = predicate()
        if v:
            return v
        time.sleep(0.1)
    return None


def replay_killed_leaves_nothing(outdir):
    """SIGKILLs `symq replay` while one of its tests spins natively: the test must die too."""
    p = subprocess.Popen([SYMQ, "replay", "--timeout", "3600", outdir],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    def spinning_child():
        for name in os.listdir("/proc"):
            st = process_state(name) if name.isdigit() else None
            if st and st[0] == p.pid and st[1] == "driver":
                return int(name)
        return None
    child = wait_for(spinning_child, 600)
    p.kill()
    p.wait()
    if child is None:
        raise RuntimeError("symq replay never started the spinning test")
    def gone():
        st = process_state(child)
        return st is None or st[2] == "Z"
    if wait_for(gone, 120):
        return True
    os.kill(child, signal.SIGKILL)  # do not leave it spinning on the machine
    return False


def scenario_errors(tmp):
    def one_line_error(p, rc, pattern, what):
        lines = p.stderr.strip().split("\n")
        check(p.returncode == rc and len(lines) == 1 and re.search(pattern, lines[0]) and
              lines[0].startswith("symq: error: ") and "replayed" not in p.stdout,
              what, f"exit {p.returncode}, stderr {p.stderr!r}, stdout {p.stdout!r}")

    missing = os.path.join(tmp, "nowhere")
    one_line_error(run([SYMQ, "replay", missing]), 2, r"nowhere: No such file or directory",
                   "replay: a missing OUTDIR")
    one_line_error(run([SYMQ, "cov", missing]), 2, r"nowhere: No such file or directory",
                   "cov: a missing OUTDIR")
    empty = os.path.join(tmp, "empty")
    os.makedirs(empty)
    one_line_error(run([SYMQ, "replay", empty]), 2, r"not a symq output directory",
                   "an OUTDIR without info")
    with open(os.path.join(empty, "info"), "w") as f:
        f.write("symq run x.c\n")
    one_line_error(run([SYMQ, "replay", empty]), 2, r"names no driver", "an info without input")
    one_line_error(run([SYMQ, "replay"]), 2, r"no OUTDIR", "no OUTDIR")
    one_line_error(run([SYMQ, "replay", empty, "--bogus"]), 2, r"unknown option '--bogus'",
                   "an unknown option")
    one_line_error(run([SYMQ, "replay", empty, "--timeout", "-1"]), 2, r"bad --timeout",
                   "a bad timeout")

    broken = os.path.join(tmp, "broken.c")
    with open(broken, "w") as f:
        f.write("#include <klee/klee.h>\nint main(void) { return }\n")
    outdir = os.path.join(tmp, "broken")
    make_outdir(outdir, broken, [([("x", i32(1))], None, None)])
    one_line_error(run([SYMQ, "replay", outdir]), 2,
                   r"cannot compile .*broken\.c natively \(gcc\): .*broken\.c:2:\d+: error: ",
                   "a driver that does not compile: the compiler's first error")
    one_line_error(run([SYMQ, "cov", outdir]), 2, r"cannot compile .*broken\.c",
                   "cov: a driver that does not compile")
    one_line_error(run([SYMQ, "replay", "--cc", "no-such-cc-xyz", outdir]), 2,
                   r"cannot run no-such-cc-xyz: No such file or directory$",
                   "a compiler that does not exist")
    bare = dict(os.environ, PATH=os.path.join(tmp, "bin"))
    os.makedirs(os.path.join(tmp, "bin"))
    for tool in ("gcc", "as", "ld"):
        if shutil.which(tool):
            os.symlink(shutil.which(tool), os.path.join(tmp, "bin", tool))
    good = os.path.join(tmp, "good")
    make_outdir(good, os.path.join(HERE, "names.c"), [([("a", i32(1)), ("b", b"\0\0")], None,
                                                       None)])
    one_line_error(run([SYMQ, "cov", good], env=bare), 2,
                   r"cannot run gcovr: No such file or directory \(Debian: apt-get install gcovr\)",
                   "cov without gcovr")

    loop = os.path.join(HERE, "loop.c")
    outdir = os.path.join(tmp, "loop")
    make_outdir(outdir, loop, [([("x", i32(5))], None, None), ([("x", i32(1))], None, None)])
    p = run([SYMQ, "replay", "--timeout", "1", outdir])
    tests, summary, _ = parse_replay(p.stdout)
    check(tests.get("test000001") == ("timeout after 1 s", "MISMATCH: no error was recorded, "
                                      "but the program timed out")
          and tests.get("test000002") == ("exit 0", "ok") and summary == (2, 0, 1)
          and p.returncode == 1, "a test that runs past --timeout is killed: a mismatch",
          p.stdout)
    check(replay_killed_leaves_nothing(outdir), "a killed replay leaves no test running",
          "the spinning test outlived symq replay")
    early = os.path.join(tmp, "loop-early")
    make_outdir(early, loop, [([("x", i32(5))], None, "max-instructions reached"),
                              ([("x", i32(1))], None, None)])
    p = run([SYMQ, "replay", "--timeout", "1", early])
    tests, summary, _ = parse_replay(p.stdout)
    check(tests.get("test000001", ("", ""))[1] == "not checked: the path ended early under "
          "symq (max-instructions reached); natively the program timed out"
          and summary == (2, 0, 0) and p.returncode == 0,
          "an early test is run and reported, not checked", p.stdout)
    # an early path (e.g. after a solver timeout) may be a real bug: replay says so
    early = os.path.join(tmp, "abort-early")
    make_outdir(early, os.path.join(E2E, "err_abort.c"),
                [([("x", i32(3))], None, "solver: timeout"), ([("x", i32(1))], None, None)])
    p = run([SYMQ, "replay", early])
    tests, summary, _ = parse_replay(p.stdout)
    check(tests.get("test000001", ("", ""))[1] == "not checked: the path ended early under "
          "symq (solver: timeout); natively killed by SIGABRT: POSSIBLE ERROR symq did not "
          "report" and summary == (2, 0, 0) and p.returncode == 0 and
          "1 test of paths that ended early under symq end in an error natively" in p.stderr,
          "an early test that ends in an error natively is pointed out", p.stdout + p.stderr)

    # a test that crashes natively although symq recorded no error for it
    outdir = os.path.join(tmp, "no-err")
    symq_run(os.path.join(E2E, "err_abort.c"), outdir, cwd=tmp)
    for f in os.listdir(outdir):
        if f.endswith(".err"):
            os.unlink(os.path.join(outdir, f))
    p = run([SYMQ, "replay", outdir])
    tests, summary, _ = parse_replay(p.stdout)
    check(p.returncode == 1 and summary == (2, 0, 1) and any(
        t == "MISMATCH: no error was recorded, but killed by SIGABRT" for _, t in tests.values()),
        "a crash where no error was recorded is a mismatch", p.stdout)


SCENARIOS = {
    "e2e": scenario_e2e,
    "mismatch": scenario_mismatch,
    "library": scenario_library,
    "svcomp": scenario_svcomp,
    "sanitize-line": scenario_sanitize_line,
    "cov-memspn": scenario_cov_memspn,
    "cov-crash": scenario_cov_crash,
    "cov-list": scenario_cov_list,
    "errors": scenario_errors,
}


def main():
    global SYMQ, VERBOSE
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("symq")
    ap.add_argument("--scenario", choices=sorted(SCENARIOS))
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    if a.list:
        print("\n".join(SCENARIOS))
        return 0
    if not a.scenario:
        ap.error("--scenario is required")
    SYMQ = os.path.abspath(a.symq)
    VERBOSE = a.verbose
    tmp = tempfile.mkdtemp(prefix=f"symq-replay-{a.scenario}-")
    try:
        SCENARIOS[a.scenario](tmp)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
        check(False, a.scenario, f"{type(e).__name__}: {e}")
    finally:
        if a.keep:
            print(f"kept {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    passed, failed = RESULTS.count(True), RESULTS.count(False)
    if passed + failed == 0:
        check(False, a.scenario, "ran no check")
        failed = 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
