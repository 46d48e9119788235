#!/usr/bin/env python3
"""run_robust.py — symq's robustness tests: what a run leaves when it is killed, whether two
runs agree byte for byte, and whether --max-memory holds.

    run_robust.py SYMQ_BINARY --scenario NAME [--keep] [--verbose]

Each scenario is one CTest test (test/robust/CMakeLists.txt). It prints one line per check,
`PASS what` or `FAIL what: reason`, then exactly `N passed, N failed`; exit status 1 if any
check failed. Nothing here waits a fixed time: runs are stopped when symq's own output
(its --progress line on stderr) says they have got far enough.

Scenarios
  bad-input    every file in bad_inputs/ (inputs the fuzzers of eval/fuzz found crashing
               symq) is refused: exit status 2, one `symq: error: ` line naming the file.
               Those named *_loop_* make LLVM loop for ever while loading: they run with
               --max-load-time=1 (CPU time: a loaded machine only makes the wall time
               longer) and the line must say the step "did not finish"; no other may.
               Those named *_bigmem_* make LLVM fill tens of GB: they run with
               --max-load-memory=1024 and the line must speak of memory.
  kill9        `symq run` on many_tests.c (1024 paths, a test each) is killed with SIGKILL
               at several points chosen by its progress line (before the first test, then
               once at least 1, 10, 50, 200 tests are reported): every .ktest present must
               be complete and readable (KTEST version 3, nothing after the last object,
               the driver's objects), numbered 1..N without gaps, every .err beside its
               .ktest, and `info` must say `Status: running (not finished)`.
  determinism  every --search strategy (with --seed=7), and dfs and random-path with
               --merge=cfg, run twice on determinism.c in separate directories: the output
               directories must be equal byte for byte, except the times, PID and cwd in `info` and the
               times and memory in stats.json.
  max-memory   memory_hog.c would grow past 512 MB (each of 1024 breadth-first states
               gets its own copy of a 512 KB array); with --max-memory=LIMIT (this build's peak on
               an empty driver + 100 MB) the run must end cleanly (exit 0, stats.json), not
               exhaustive, with a test per .ktest, and stats.json's peak_memory_mb at most
               LIMIT + 25% (the check is made between instructions, and the halt writes
               tests).
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "e2e"))
import run_e2e  # noqa: E402  (its .ktest parser and Bad)

SEARCHES = ["dfs", "bfs", "random-state", "random-path", "nurs:covnew"]
PROGRESS_RE = re.compile(r"symq: [0-9.]+s states (\d+) paths (\d+) errors (\d+) tests (\d+) ")
RUN_TIMEOUT = 600
run_e2e.RUN_TIMEOUT = RUN_TIMEOUT


class Checks:
    def __init__(self):
        self.passed = self.failed = 0

    def check(self, what, fn):
        try:
            fn()
            self.passed += 1
            print(f"PASS {what}", flush=True)
        except run_e2e.Bad as e:
            self.failed += 1
            print(f"FAIL {what}: {e}", flush=True)


def run_until(cmd, cwd, stop):
    """Runs cmd and kills it (SIGKILL) when stop(tests) says True: asked at symq's first line
    on stderr with tests=-1, then at every progress line with the tests it reports.
    Returns (returncode, stdout, stderr)."""
    p = subprocess.Popen(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)

    def watch(line):
        m = PROGRESS_RE.search(line)
        if stop(int(m.group(4)) if m else -1):
            p.kill()
            return True
        return False
    try:
        out, err = run_e2e.communicate_watching(p, watch)
    except subprocess.TimeoutExpired:
        raise run_e2e.Bad(f"symq did not end in {run_e2e.RUN_TIMEOUT}s")
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def check_partial_output(out, objects):
    """What a killed run left must be whole: returns the number of tests."""
    if not os.path.isdir(out):
        raise run_e2e.Bad("no output directory")
    names = sorted(os.listdir(out))
    ktests = [n for n in names if n.endswith(".ktest")]
    if ktests != [f"test{i:06d}.ktest" for i in range(1, len(ktests) + 1)]:
        raise run_e2e.Bad(f".ktest files are not numbered 1..{len(ktests)}: {ktests[:5]}…")
    for n in ktests:
        got = [name for name, _ in run_e2e.parse_ktest(os.path.join(out, n))]
        if got != objects:
            raise run_e2e.Bad(f"{n} holds {got}, expected {objects}")
    for n in names:
        if n.endswith(".err") and n.split(".")[0] + ".ktest" not in ktests:
            raise run_e2e.Bad(f"{n} has no .ktest")
    with open(os.path.join(out, "info"), encoding="utf-8") as f:
        info = f.read()
    if "Status: running (not finished)" not in info or "Finished:" in info:
        raise run_e2e.Bad("info does not say the run did not finish")
    return len(ktests)


def scenario_kill9(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "many_tests.c")
    for point in [None, 1, 10, 50, 200]:
        what = f"kill -9 {'before the first test' if point is None else f'after >= {point} tests'}"
        work = tempfile.mkdtemp(prefix="kill9-", dir=tmp)
        out = os.path.join(work, "out")
        cmd = [symq, "run", f"--output-dir={out}", "--progress", "--solver-timeout=600s", driver]
        if verbose:
            print("  $ " + " ".join(cmd), flush=True)
        if point is None:
            stop = lambda tests: tests == -1  # noqa: E731  (symq's first line on stderr)
        else:
            stop = lambda tests, p=point: tests >= p  # noqa: E731

        def one():
            rc, _, err = run_until(cmd, work, stop)
            if rc != -signal.SIGKILL:
                raise run_e2e.Bad(f"symq was not killed (exit status {rc}): the run ended "
                                  f"before the kill point; stderr: {err.strip()[-200:]}")
            n = check_partial_output(out, ["in"])
            if point is not None and n < point:
                raise run_e2e.Bad(f"progress reported >= {point} tests, {n} .ktest files")
        checks.check(what, one)


# figures that measure time or memory (queries over 1 s counts them by time), not the run
TIME_KEYS = {"wall_time_s", "exploration_time_s", "solver_time_s", "seconds", "peak_memory_mb",
             "slowest_s", "slowest_query_s", "over_1s", "queries_over_1s"}
INFO_VARIABLE = ("PID:", "Started:", "Finished:", "Elapsed:", "cwd:")


def normalized(path):
    name = os.path.basename(path)
    with open(path, "rb") as f:
        data = f.read()
    if name == "info":
        lines = data.decode("utf-8").split("\n")
        return "\n".join(l for l in lines if not l.startswith(INFO_VARIABLE)).encode()
    if name == "stats.json":
        def strip(v):
            if isinstance(v, dict):
                return {k: ("<time>" if k in TIME_KEYS else strip(x)) for k, x in v.items()}
            if isinstance(v, list):
                return [strip(x) for x in v]
            return v
        return json.dumps(strip(json.loads(data)), indent=1).encode()
    return data


def compare_dirs(a, b):
    na, nb = sorted(os.listdir(a)), sorted(os.listdir(b))
    if na != nb:
        only = sorted(set(na) ^ set(nb))
        raise run_e2e.Bad(f"different files: {only[:5]}")
    for n in na:
        if normalized(os.path.join(a, n)) != normalized(os.path.join(b, n)):
            raise run_e2e.Bad(f"{n} differs")
    return len(na)


def scenario_determinism(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "determinism.c")
    # every search plainly; with merging, one deterministic and one random search
    for merge, searches in [("none", SEARCHES), ("cfg", ["dfs", "random-path"])]:
        for search in searches:
            what = f"determinism --search={search} --merge={merge}"

            def one():
                dirs = []
                for k in range(2):
                    work = os.path.join(tmp, f"det-{search.replace(':', '_')}-{merge}-{k}")
                    os.mkdir(work)
                    cmd = [symq, "run", "--output-dir=out", f"--search={search}", "--seed=7",
                           f"--merge={merge}", "--solver-timeout=600s", driver]
                    if verbose:
                        print("  $ " + " ".join(cmd), flush=True)
                    r = subprocess.run(cmd, cwd=work, stdin=subprocess.DEVNULL,
                                       capture_output=True, timeout=RUN_TIMEOUT)
                    if r.returncode != 0:
                        raise run_e2e.Bad(f"exit status {r.returncode}: "
                                          f"{r.stderr.decode(errors='replace').strip()[-200:]}")
                    dirs.append(os.path.join(work, "out"))
                with open(os.path.join(dirs[0], "stats.json")) as f:
                    stats = json.load(f)
                if stats["tests"] < 10 or stats["error_paths"] < 1:
                    raise run_e2e.Bad(f"too small a run to compare: {stats['tests']} tests, "
                                      f"{stats['error_paths']} errors")
                compare_dirs(*dirs)
            checks.check(what, one)


def resident_mb_of_empty_run(symq, tmp):
    """symq's own peak (LLVM, Z3, the runtime) on a trivial driver in this build."""
    work = tempfile.mkdtemp(prefix="mem0-", dir=tmp)
    src = os.path.join(work, "empty.c")
    with open(src, "w") as f:
        f.write("int main(void) { return 0; }\n")
    r = subprocess.run([symq, "run", "--output-dir=out", src], cwd=work, capture_output=True,
                       timeout=RUN_TIMEOUT)
    if r.returncode != 0:
        raise run_e2e.Bad(f"empty run failed: {r.stderr.decode(errors='replace')[-200:]}")
    with open(os.path.join(work, "out", "stats.json")) as f:
        return json.load(f)["peak_memory_mb"]


def scenario_max_memory(symq, tmp, checks, verbose):
    driver = os.path.join(HERE, "memory_hog.c")

    def one():
        base = resident_mb_of_empty_run(symq, tmp)
        limit = base + 100
        work = tempfile.mkdtemp(prefix="mem-", dir=tmp)
        cmd = [symq, "run", "--output-dir=out", f"--max-memory={limit}", "--search=bfs",
               "--solver-timeout=600s", driver]
        if verbose:
            print("  $ " + " ".join(cmd), flush=True)
        r = subprocess.run(cmd, cwd=work, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=RUN_TIMEOUT)
        if r.returncode != 0:
            raise run_e2e.Bad(f"exit status {r.returncode}: "
                              f"{r.stderr.decode(errors='replace').strip()[-200:]}")
        with open(os.path.join(work, "out", "stats.json")) as f:
            stats = json.load(f)
        if stats["exhausted"] is not False:
            raise run_e2e.Bad("a run stopped by --max-memory says it was exhaustive")
        if stats["peak_memory_mb"] > limit * 1.25:
            raise run_e2e.Bad(f"peak_memory_mb = {stats['peak_memory_mb']} with "
                              f"--max-memory={limit} (empty run: {base} MB)")
        ktests = [n for n in os.listdir(os.path.join(work, "out")) if n.endswith(".ktest")]
        if len(ktests) != stats["tests"] or stats["tests"] == 0:
            raise run_e2e.Bad(f"{len(ktests)} .ktest files, stats.json tests={stats['tests']}")
    checks.check("max-memory holds on a driver that would exceed it", one)


def scenario_bad_input(symq, tmp, checks, verbose):
    """Inputs the fuzzers found crashing symq: each must now be refused cleanly."""
    bad = os.path.join(HERE, "bad_inputs")
    for name in sorted(os.listdir(bad)):
        def one(name=name):
            work = tempfile.mkdtemp(prefix="bad-", dir=tmp)
            loops, bigmem = "_loop_" in name, "_bigmem_" in name
            cmd = [symq, "run", "--output-dir=out"] + (["--max-load-time=1"] if loops else []) \
                + (["--max-load-memory=1024"] if bigmem else []) + [os.path.join(bad, name)]
            if verbose:
                print("  $ " + " ".join(cmd), flush=True)
            # In the sanitizer build, a failed huge allocation returns NULL, as glibc's does
            # (LLVM then aborts, which symq reports), and LLVM's own reads past its buffers,
            # which ASan's interceptors see in the uninstrumented LLVM, are LLVM's bugs
            # (eval/fuzz/llvm.supp): symq is judged on what it does with them.
            supp = os.path.join(HERE, "..", "..", "eval", "fuzz", "llvm.supp")
            env = dict(os.environ, ASAN_OPTIONS=":".join(
                o for o in (os.environ.get("ASAN_OPTIONS"), "allocator_may_return_null=1",
                            f"suppressions={supp}") if o))
            r = subprocess.run(cmd, cwd=work, stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=RUN_TIMEOUT, env=env)
            lines = [l for l in r.stderr.decode(errors="replace").split("\n") if l.strip()]
            if r.returncode != 2 or len(lines) != 1 or not lines[0].startswith("symq: error: "):
                raise run_e2e.Bad(f"exit status {r.returncode}, stderr {lines[:3]}: expected "
                                  "status 2 and one 'symq: error: ' line")
            if name not in lines[0]:
                raise run_e2e.Bad(f"the error does not name the file: {lines[0]}")
            if loops != ("did not finish within" in lines[0]):
                raise run_e2e.Bad(f"the error {'does not say' if loops else 'says'} that a "
                                  f"step did not finish: {lines[0]}")
            if bigmem and "memory" not in lines[0]:
                raise run_e2e.Bad(f"the error does not speak of memory: {lines[0]}")
        checks.check(f"bad input {name} is refused with one line", one)


SCENARIOS = {"kill9": scenario_kill9, "bad-input": scenario_bad_input, "determinism": scenario_determinism,
             "max-memory": scenario_max_memory}


def run_scenarios(scenarios, description, prefix):
    """The command line of a scenario script: SYMQ_BINARY --scenario NAME [--keep]
    [--verbose]; runs scenarios[NAME](symq, tmp, checks, verbose) in a fresh temporary
    directory and returns the exit status."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("symq")
    ap.add_argument("--scenario", required=True, choices=sorted(scenarios))
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--verbose", "-v", action="store_true")
    opts = ap.parse_args()
    symq = os.path.abspath(opts.symq)
    tmp = tempfile.mkdtemp(prefix=f"{prefix}-{opts.scenario}-")
    checks = Checks()
    try:
        scenarios[opts.scenario](symq, tmp, checks, opts.verbose)
    finally:
        if opts.keep:
            print(f"  kept {tmp}", flush=True)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print(f"{checks.passed} passed, {checks.failed} failed")
    return 1 if checks.failed or not checks.passed else 0


def main():
    return run_scenarios(SCENARIOS, "symq robustness tests (see the docstring)", "symq-robust")


if __name__ == "__main__":
    sys.exit(main())
