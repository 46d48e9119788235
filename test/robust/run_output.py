#!/usr/bin/env python3
"""run_output.py — `symq run`'s output under control: write failures, closed pipes, and the
options that bound what is written.

    run_output.py SYMQ_BINARY --scenario NAME [--keep] [--verbose]

Each scenario is one CTest test (test/robust/CMakeLists.txt). It prints one line per check,
`PASS what`, `FAIL what: reason` or `SKIP what: why`, then exactly `N passed, N failed`;
exit status 1 if a check failed or none passed.

Scenarios
  disk-full    many_tests.c -DBIG_TESTS under a 4 KB file size limit (RLIMIT_FSIZE set before exec,
               SIGXFSZ ignored, so the write fails with EFBIG: works for any user), and
               many_tests.c on a 1 MB tmpfs (mounted in a new user and mount namespace,
               `unshare -rm`; skipped where that is not allowed): the run must print one
               `symq: error: OUTDIR: testN.ktest: write failed: …` line, exit 4 within 1 s
               of CPU time of it (never a wall-clock bound), write no verdict, leave `info` saying `Status: failed (…)`, and every
               .ktest present must be whole, numbered 1..N-1 below the failed one. `symq
               replay` of that directory warns that the run did not finish. A directory
               that cannot take even its first `info` (a 100-byte limit) stops the run
               before it starts, exit 4; one that cannot take stats.json at the end
               exits 4 with info failed and no verdict.
  sigpipe      SIGPIPE is handled like SIGTERM: sent during a run it halts it cleanly (the
               states left end early with a test, info finished) with exit 4; a closed
               stdout at the end, and `symq run --progress … 2>&1 | head -c 1`, exit 4 too.
  max-tests    --max-tests=N on many_tests.c: exactly N tests, not exhaustive, and the
               verdict says why (halted: max-tests); with N = its 1024 paths, complete.
  exit-on-error  out_errors.c: --exit-on-error stops at the first error (one .err, exit 1,
               the states left ended early); --exit-on-error-type=Div stops at the division
               (exactly one div error, exit 1); a kind that never occurs changes nothing
               (both errors, exit 0, exhaustive); an unknown kind is a usage error.
  covering-new out_branches.c with --only-output-states-covering-new: at most as many tests
               as branch sides (16), fewer than without the option (256), the others counted
               in tests_not_written, the same covered lines (stats.json), and the tests together still take every side of every
               branch (read from their bytes).
"""

import json
import os
import resource
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import bitcode  # noqa: E402  (a driver compiled as symq compiles it)
import run_e2e  # noqa: E402  (its .ktest parser and Bad)
from run_robust import PROGRESS_RE, run_scenarios  # noqa: E402

Bad = run_e2e.Bad
TIMEOUT = 600
STOP_BOUND_S = 1.0  # the bound from the failed write to the exit, in CPU time


def symq_cmd(symq, out, driver, *args):
    return [symq, "run", f"--output-dir={out}", "--solver-timeout=600s", *args, driver]


def run(cmd, cwd, **kw):
    p = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                       timeout=TIMEOUT, **kw)
    return p.returncode, p.stdout, p.stderr


def stats_of(out):
    with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
        return json.load(f)


def info_of(out):
    with open(os.path.join(out, "info"), encoding="utf-8") as f:
        return f.read()


def whole_tests(out, below=None):
    """The .ktest files: numbered 1..N without gaps (N = below - 1 when given), each whole;
    returns them as {name: [(object, bytes)]}."""
    names = sorted(n for n in os.listdir(out) if n.endswith(".ktest"))
    n = len(names) if below is None else below - 1
    if names != [f"test{i:06d}.ktest" for i in range(1, n + 1)]:
        raise Bad(f"expected test000001..{n:06d}.ktest, got {len(names)} files: {names[-3:]}")
    tests = {name: run_e2e.parse_ktest(os.path.join(out, name)) for name in names}
    leftovers = [n for n in os.listdir(out) if n.startswith(".")]
    if leftovers:
        raise Bad(f"temporary files left: {leftovers[:3]}")
    return tests


def cpu_seconds_of(pid):
    """The CPU time (user + system) process pid has used so far, from /proc, or None."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_run(cmd, cwd, preexec_fn=None):
    """Runs cmd; returns (rc, stdout, stderr lines, the CPU seconds symq used from its first
    `symq: error:` line on stderr (printed when the write fails) to its exit, or None). CPU
    time, as --max-load-time: a loaded machine makes the wall time longer, not this."""
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn)
    lines, cpu_at_error = [], None
    deadline = time.monotonic() + TIMEOUT
    for line in p.stderr:
        lines.append(line.rstrip("\n"))
        if cpu_at_error is None and line.startswith("symq: error:"):
            cpu_at_error = cpu_seconds_of(p.pid)  # still there: it is reaped below
        if time.monotonic() > deadline:
            p.kill()
            raise Bad("symq did not end")
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    if cpu_at_error is None:
        return p.returncode, out, lines, None
    return p.returncode, out, lines, usage.ru_utime + usage.ru_stime - cpu_at_error


def check_failed_run(rc, stdout, errs, stop_s, out, why):
    """What a run stopped by a write failure (`why` in the message) must leave."""
    if rc != 4:
        raise Bad(f"exit status {rc}, expected 4; stderr: {errs[-3:]}")
    errors = [e for e in errs if e.startswith("symq: error:")]
    if len(errors) != 1:
        raise Bad(f"expected one error line, got {len(errors)}: {errors[:3]}")
    prefix = f"symq: error: {out}: test"
    if not errors[0].startswith(prefix) or "write failed" not in errors[0] or why not in errors[0]:
        raise Bad(f"the error line is {errors[0]!r}")
    if "exploration complete" in stdout or "symq: done" in stdout:
        raise Bad(f"a verdict after a lost test: {stdout!r}")
    if stop_s is None or stop_s > STOP_BOUND_S:
        raise Bad(f"the run used {stop_s} s of CPU after the failed write "
                  f"(bound {STOP_BOUND_S} s)")
    failed_id = int(errors[0][len(prefix):].split(".")[0])
    whole_tests(out, below=failed_id)
    status = [line for line in info_of(out).splitlines() if line.startswith("Status:")]
    if status != [f"Status: failed ({errors[0][len('symq: error: '):]})"]:
        raise Bad(f"info says {status}")
    return failed_id


def scenario_disk_full(symq, tmp, checks, verbose):
    def fsize_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)

    out = os.path.join(tmp, "fsize")

    def fsize():
        cmd = symq_cmd(symq, out, os.path.join(HERE, "many_tests.c"), "-DBIG_TESTS")
        rc, stdout, errs, stop_s = timed_run(cmd, tmp, preexec_fn=fsize_limit)
        failed = check_failed_run(rc, stdout, errs, stop_s, out, "File too large")
        if failed < 2:
            raise Bad("no test was written before the failure: the scenario tests nothing")
    checks.check("a file over RLIMIT_FSIZE stops the run; what was written stays whole", fsize)

    def replay_warns():
        rc, _, err = run([symq, "replay", out], tmp)
        if "symq: warning:" not in err or "did not finish" not in err:
            raise Bad(f"no warning; exit {rc}, stderr: {err.strip()[:300]}")
    checks.check("symq replay warns about the failed run", replay_warns)

    # loaded from bitcode below: clang itself fails under so small a limit
    bc = bitcode.compile_driver(symq, os.path.join(HERE, "many_tests.c"),
                                os.path.join(tmp, "many_tests.bc"))

    def no_info():
        iout = os.path.join(tmp, "noinfo")

        def tiny_limit():
            resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        rc, stdout, errs, _ = timed_run(symq_cmd(symq, iout, bc), tmp, preexec_fn=tiny_limit)
        if rc != 4 or errs != [f"symq: error: {iout}: info: write failed: File too large"]:
            raise Bad(f"exit status {rc}, stderr {errs}")
        if os.listdir(iout) or stdout:
            raise Bad(f"the run went on: {os.listdir(iout)[:3]} {stdout!r}")
    checks.check("an output directory that cannot take its info stops the run before it starts",
                 no_info)

    def no_stats():
        sout = os.path.join(tmp, "nostats")

        def limit():  # tests (89 bytes) and info fit, stats.json (over 3 KB) does not
            resource.setrlimit(resource.RLIMIT_FSIZE, (2048, 2048))
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        rc, stdout, errs, _ = timed_run(symq_cmd(symq, sout, bc), tmp, preexec_fn=limit)
        want = f"symq: error: {sout}: stats.json: write failed: File too large"
        if rc != 4 or want not in errs or stdout:
            raise Bad(f"exit status {rc}, stdout {stdout!r}, stderr {errs[-2:]}")
        if len(whole_tests(sout)) != 1024 or \
                f"Status: failed ({want[len('symq: error: '):]})" not in info_of(sout):
            raise Bad("the tests or info are not as they should be")
    checks.check("a stats.json that cannot be written: exit 4, info failed, no verdict",
                 no_stats)

    mnt = os.path.join(tmp, "mnt")
    os.makedirs(mnt)
    probe = subprocess.run(["unshare", "-rm", "sh", "-c", f"mount -t tmpfs -o size=1m none {mnt}"],
                           capture_output=True, text=True)
    if probe.returncode != 0:
        print(f"SKIP a full 1 MB tmpfs: cannot mount one here ({probe.stderr.strip()[:100]})")
        return

    def tmpfs():
        tout = os.path.join(mnt, "out")
        inner = " ".join(symq_cmd(symq, tout, os.path.join(HERE, "many_tests.c")))
        # the checks read the tmpfs from inside the namespace: it vanishes with it
        script = (f"mount -t tmpfs -o size=1m none {mnt} && "
                  f"{sys.executable} {os.path.abspath(__file__)} --inner-tmpfs '{tout}' {inner}")
        p = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True,
                           text=True, timeout=TIMEOUT)
        if p.returncode != 0 or "INNER OK" not in p.stdout:
            raise Bad(f"{p.stdout.strip()[-300:]} {p.stderr.strip()[-300:]}")
    checks.check("a full 1 MB tmpfs stops the run; what was written stays whole", tmpfs)


def inner_tmpfs(out, cmd):
    """Inside the namespace with the tmpfs: runs symq and checks what it leaves."""
    try:
        rc, stdout, errs, stop_s = timed_run(cmd, os.path.dirname(out))
        failed = check_failed_run(rc, stdout, errs, stop_s, out, "No space left on device")
        if failed < 2:
            raise Bad("no test was written before the failure")
    except Bad as e:
        print(f"INNER FAIL {e}")
        return 1
    print(f"INNER OK ({failed - 1} tests whole)")
    return 0


def scenario_sigpipe(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "many_tests.c")

    def during():
        out = os.path.join(tmp, "during")
        # 2^40 paths: the run cannot finish before the signal, on any machine
        p = subprocess.Popen(symq_cmd(symq, out, driver, "--progress", "-DINPUTS=40"), cwd=tmp,
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)

        def watch(line):
            m = PROGRESS_RE.search(line)
            if m and int(m.group(1)) >= 2:
                p.send_signal(signal.SIGPIPE)
                return True
            return False
        stdout, err = run_e2e.communicate_watching(p, watch)
        if p.returncode != 4:
            raise Bad(f"exit status {p.returncode}, expected 4: {err.decode()[-300:]}")
        s = stats_of(out)
        tests = whole_tests(out)
        if s["exhausted"] or "halted: interrupted" not in s["early_reasons"] \
                or s["tests"] != len(tests) or s["completed_paths"] + s["early_paths"] != len(tests):
            raise Bad(f"not halted cleanly with a test per path: {s['early_reasons']}, "
                      f"{s['tests']} tests, {len(tests)} files")
        if "Status: finished" not in info_of(out):
            raise Bad("info does not say finished")
    checks.check("SIGPIPE during the run halts it as SIGTERM does, exit 4", during)

    def closed_stdout():
        out = os.path.join(tmp, "closed")
        r, w = os.pipe()
        os.close(r)
        p = subprocess.run(symq_cmd(symq, out, driver), cwd=tmp, stdin=subprocess.DEVNULL,
                           stdout=w, stderr=subprocess.PIPE, text=True, timeout=TIMEOUT)
        os.close(w)
        if p.returncode != 4 or "symq: error: standard output" not in p.stderr:
            raise Bad(f"exit status {p.returncode}, stderr {p.stderr.strip()[-300:]!r}")
        if len(whole_tests(out)) != 1024 or "Status: finished" not in info_of(out):
            raise Bad("the output directory is not complete")
    checks.check("a closed stdout is an output failure, exit 4", closed_stdout)

    def head():
        out = os.path.join(tmp, "head")
        # 2^40 paths: only the closed pipe can end the run, however late head exits
        cmd = " ".join(symq_cmd(symq, out, driver, "--progress", "-DINPUTS=40"))
        p = subprocess.run(["bash", "-c", f"{cmd} 2>&1 | head -c 1; exit ${{PIPESTATUS[0]}}"],
                           cwd=tmp, capture_output=True, text=True, timeout=TIMEOUT)
        if p.returncode != 4:
            raise Bad(f"exit status {p.returncode}, expected 4")
        s = stats_of(out)
        if s["tests"] != len(whole_tests(out)) or "Status: finished" not in info_of(out):
            raise Bad("the output directory is not whole")
    checks.check("symq run --progress … 2>&1 | head -c 1: exit 4, output whole", head)


def scenario_max_tests(symq, tmp, checks, verbose):
    def one():
        out = os.path.join(tmp, "max")
        rc, stdout, err = run(symq_cmd(symq, out, os.path.join(HERE, "many_tests.c"),
                                       "--max-tests=7"), tmp)
        if rc != 0:
            raise Bad(f"exit status {rc}: {err.strip()[-300:]}")
        s = stats_of(out)
        if len(whole_tests(out)) != 7 or s["tests"] != 7 or s["exhausted"]:
            raise Bad(f"{s['tests']} tests, exhausted {s['exhausted']}")
        verdict = stdout.strip().splitlines()[-1]
        if "exploration incomplete" not in verdict or "halted: max-tests" not in verdict:
            raise Bad(f"the verdict is {verdict!r}")
    checks.check("--max-tests=7: 7 tests, the run says it is incomplete and why", one)

    def all_paths():
        out = os.path.join(tmp, "all")
        rc, stdout, err = run(symq_cmd(symq, out, os.path.join(HERE, "many_tests.c"),
                                       "--max-tests=1024"), tmp)
        s = stats_of(out)
        if rc != 0 or s["tests"] != 1024 or not s["exhausted"] \
                or not stdout.rstrip().endswith("symq: done: exploration complete"):
            raise Bad(f"exit {rc}, {s['tests']} tests, exhausted {s['exhausted']}")
    checks.check("--max-tests=N reached by the last of N paths: still complete", all_paths)


def errs_of(out):
    return sorted(n.split(".", 1)[1] for n in os.listdir(out) if n.endswith(".err"))


def scenario_exit_on_error(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "out_errors.c")

    def first():
        out = os.path.join(tmp, "first")
        rc, stdout, err = run(symq_cmd(symq, out, driver, "--exit-on-error"), tmp)
        s = stats_of(out)
        if rc != 1 or len(errs_of(out)) != 1 or s["exhausted"]:
            raise Bad(f"exit {rc}, errors {errs_of(out)}, exhausted {s['exhausted']}")
        if "halted: exit-on-error" not in s["early_reasons"] or "incomplete" not in stdout:
            raise Bad(f"the states left did not end early: {s['early_reasons']}")
        if s["tests"] != len(whole_tests(out)):
            raise Bad("tests and files disagree")
    checks.check("--exit-on-error: one error, exit 1, the states left end early", first)

    def of_kind():
        out = os.path.join(tmp, "div")
        rc, _, err = run(symq_cmd(symq, out, driver, "--exit-on-error-type=Div"), tmp)
        e = errs_of(out)
        if rc != 1 or e.count("div.err") != 1 or len(e) > 2:
            raise Bad(f"exit {rc}, errors {e}: {err.strip()[-200:]}")
    checks.check("--exit-on-error-type=Div stops at the division, exit 1", of_kind)

    def other_kind():
        out = os.path.join(tmp, "ptr")
        rc, stdout, err = run(symq_cmd(symq, out, driver, "--exit-on-error-type=ptr",
                                       "--exit-on-error-type=read_only"), tmp)
        e = errs_of(out)
        if rc != 0 or e != ["assert.err", "div.err"] or not stats_of(out)["exhausted"]:
            raise Bad(f"exit {rc}, errors {e}")
    checks.check("--exit-on-error-type of kinds that do not occur changes nothing", other_kind)

    def unknown():
        rc, _, err = run(symq_cmd(symq, os.path.join(tmp, "bad"), driver,
                                  "--exit-on-error-type=segfault"), tmp)
        if rc != 2 or "unknown error kind 'segfault'" not in err:
            raise Bad(f"exit {rc}, stderr {err.strip()!r}")
    checks.check("an unknown --exit-on-error-type is a usage error", unknown)


def scenario_covering_new(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "out_branches.c")
    sides = {(i, b) for i in range(8) for b in (False, True)}

    def one():
        runs = {}
        for name, args in (("all", ()), ("new", ("--only-output-states-covering-new",))):
            out = os.path.join(tmp, name)
            rc, _, err = run(symq_cmd(symq, out, driver, *args), tmp)
            if rc != 0:
                raise Bad(f"{name}: exit status {rc}: {err.strip()[-200:]}")
            tests = whole_tests(out)
            taken = set()
            for objects in tests.values():
                data = dict(objects)["in"]
                taken |= {(i, data[i] > 100) for i in range(8)}
            runs[name] = (stats_of(out), len(tests), taken)
        (s_all, n_all, t_all), (s_new, n_new, t_new) = runs["all"], runs["new"]
        if n_all != 256 or t_all != sides:
            raise Bad(f"without the option: {n_all} tests taking {len(t_all)} sides")
        if n_new > len(sides) or n_new >= n_all:
            raise Bad(f"with the option: {n_new} tests for {len(sides)} branch sides")
        if s_new["tests"] + s_new["tests_not_written"] != s_new["completed_paths"]:
            raise Bad(f"tests {s_new['tests']} + not written {s_new['tests_not_written']} != "
                      f"paths {s_new['completed_paths']}")
        if t_new != sides:
            raise Bad(f"the tests take only {len(t_new)} of the {len(sides)} branch sides")
        if s_new["covered_lines"] != s_all["covered_lines"] or not s_new["exhausted"]:
            raise Bad(f"covered lines {s_new['covered_lines']} != {s_all['covered_lines']}")
    checks.check("--only-output-states-covering-new: few tests, the same coverage", one)


SCENARIOS = {"disk-full": scenario_disk_full, "sigpipe": scenario_sigpipe,
             "max-tests": scenario_max_tests, "exit-on-error": scenario_exit_on_error,
             "covering-new": scenario_covering_new}


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--inner-tmpfs":
        return inner_tmpfs(sys.argv[2], sys.argv[3:])
    return run_scenarios(SCENARIOS, "symq's output under control (see the docstring)",
                         "symq-output")


if __name__ == "__main__":
    sys.exit(main())
