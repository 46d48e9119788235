#!/usr/bin/env python3
"""One exploration in parts (issue 24): `symq run --jobs 2` against the single run, and the
load the split's parts would put on 64 workers.

    eval/bench_dist.py SYMQ [--size N] [--repeat R] [--workers W] [--parts-per-worker K]
                            [--skip-time] [--skip-sim] [--table FILE] [--force]
                            [--input c|bc]

The driver (generated here, like bench_interp.py's) walks N symbolic bytes taking one or two
steps at each, so the tree of paths is uneven — a subtree at depth d holds Fib(N - d)-ish
paths — and exhaustive: N = 21 gives 28,657 paths, each with its test.

time  the single run and `--jobs 2`, R times each (default 3), alternating; the median wall
      times and their ratio jobs/single, and the median CPU times (user + sys of the run and
      every process it started and waited for: getrusage RUSAGE_CHILDREN), which a loaded
      machine moves less, and their sys part (the file system's: on this driver most of
      both runs' CPU is creating the tests' files, eval/README.md). Wall time measured here, around the process. The input is the C
      file as users give it (--input c, the default: --jobs compiles it once for its
      processes) or the bitcode `symq compile` wrote from it (--input bc). The
      issue asks for <= 0.6 on a 2-core machine: only meaningful on a quiet machine, so the
      load average is printed with the result, and without --force a load average over 0.5
      skips the measurement (the table then says so).
sim   `--split=W*K` (default 64 * 8, as --jobs splits), then every part run alone, one after the other; each
      part's work is its `instructions` (stats.json: the same on any machine and load) and
      also its exploration time; the parts are replayed as work over W workers in part
      order, each to the worker that frees first (what --jobs does), and max/mean load is
      printed, with the splitter's own instructions beside. The issue asks for <= 1.3.

--table FILE appends a Markdown row per measurement, with the date, the commit and the
command (eval/README.md keeps the table)."""
import argparse
import glob
import heapq
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

DRIVER = r"""/* An uneven exhaustive tree: at each position one step or two, by a symbolic byte. */
#include <klee/klee.h>
int main(void) {
  unsigned char b[N];
  klee_make_symbolic(b, sizeof b, "b");
  int i = 0, score = 0;
  while (i < N) {
    if (b[i] > 100) {
      score += b[i] & 1;
      i += 1;
    } else {
      i += 2;
    }
  }
  return score;
}
"""


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def stats(d):
    with open(os.path.join(d, "stats.json")) as f:
        return json.load(f)


def cpu_children():
    """(user, sys) seconds of the processes waited for so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime, r.ru_stime


def timed(cmd):
    """(wall, cpu, sys) seconds of cmd: cpu is user + sys of it and the processes it waited
    for, sys the system part of it (creating the tests' files: most of it on this driver)."""
    u0, s0 = cpu_children()
    t0 = time.monotonic()
    p = sh(cmd)
    wall = time.monotonic() - t0
    u1, s1 = cpu_children()
    cpu, sys_s = u1 - u0 + s1 - s0, s1 - s0
    if p.returncode != 0:
        sys.exit(f"bench_dist: {' '.join(cmd)}: exit {p.returncode}\n{p.stderr[-2000:]}")
    return wall, cpu, sys_s


def commit():
    p = sh(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"])
    dirty = sh(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"]).stdout
    return p.stdout.strip() + ("+" if dirty.strip() else "")


def measure_time(symq, bc, scratch, repeat):
    singles, jobs = [], []
    for r in range(repeat):
        singles.append(timed([symq, "run", "--merge=none", f"--output-dir={scratch}/single{r}", bc]))
        jobs.append(timed([symq, "run", "--merge=none", "--jobs", "2", f"--output-dir={scratch}/jobs{r}", bc]))
    s = stats(f"{scratch}/single0")
    j = stats(f"{scratch}/jobs0")
    assert s["completed_paths"] == j["completed_paths"] and s["exhausted"] and j["exhausted"], \
        "the runs disagree: not a measurement"
    med = statistics.median
    return {"single": med(w for w, _, _ in singles), "jobs": med(w for w, _, _ in jobs),
            "single_cpu": med(c for _, c, _ in singles), "jobs_cpu": med(c for _, c, _ in jobs),
            "single_sys": med(t for _, _, t in singles), "jobs_sys": med(t for _, _, t in jobs),
            "paths": s["completed_paths"]}


def simulate(symq, bc, scratch, workers, per_worker):
    split = f"{scratch}/split"
    p = sh([symq, "run", "--merge=none", f"--split={workers * per_worker}", f"--output-dir={split}", bc])
    if p.returncode:
        sys.exit(f"bench_dist: the split: exit {p.returncode}\n{p.stderr[-2000:]}")
    parts = sorted(glob.glob(f"{split}/part-*.part"))
    work, secs, paths = [], [], 0
    for k, part in enumerate(parts):
        d = f"{scratch}/part{k:04d}"
        p = sh([symq, "run", "--merge=none", f"--part={part}", f"--output-dir={d}", bc])
        if p.returncode:
            sys.exit(f"bench_dist: {part}: exit {p.returncode}\n{p.stderr[-2000:]}")
        s = stats(d)
        work.append(s["instructions"])
        secs.append(s["exploration_time_s"])
        paths += s["completed_paths"]
    split_stats = stats(split)
    paths += split_stats["completed_paths"]

    def balance(sizes):
        loads = [(0.0, w) for w in range(workers)]
        heapq.heapify(loads)
        for size in sizes:  # in part order, as --jobs starts them, to the first free worker
            load, w = heapq.heappop(loads)
            heapq.heappush(loads, (load + size, w))
        final = [l for l, _ in loads]
        mean = sum(final) / workers
        return max(final) / mean if mean else float("nan")

    return {"parts": len(parts), "paths": paths, "split_instructions": split_stats["instructions"],
            "part_instructions": sum(work), "largest_part_share": max(work) / sum(work),
            "max_mean_instructions": balance(work), "max_mean_seconds": balance(secs)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("symq")
    ap.add_argument("--size", type=int, default=21)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workers", type=int, default=64)
    ap.add_argument("--parts-per-worker", type=int, default=8)
    ap.add_argument("--skip-time", action="store_true")
    ap.add_argument("--skip-sim", action="store_true")
    ap.add_argument("--table")
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--input", choices=("c", "bc"), default="c")
    a = ap.parse_args()
    symq = os.path.abspath(a.symq)
    command = "python3 eval/bench_dist.py " + " ".join(shlex.quote(x) for x in sys.argv[1:])
    rows = []
    with tempfile.TemporaryDirectory(prefix="symq-bench-dist-") as scratch:
        src = f"{scratch}/uneven_tree.c"
        with open(src, "w") as f:
            f.write(DRIVER.replace("[N]", f"[{a.size}]").replace("< N", f"< {a.size}"))
        bc = f"{scratch}/uneven_tree.bc"
        p = sh([symq, "compile", "-o", bc, src])
        if p.returncode:
            sys.exit(f"bench_dist: compile: {p.stderr}")
        date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        if not a.skip_time:
            load = os.getloadavg()[0]
            if load > 0.5 and not a.force:
                print(f"time: skipped, load average {load:.2f} (> 0.5; --force measures anyway)")
                rows.append(f"| {date} | {commit()} | time | skipped: load average {load:.2f} |"
                            f" `{command}` |")
            else:
                m = measure_time(symq, src if a.input == "c" else bc, scratch, a.repeat)
                after = os.getloadavg()[0]
                wall, cpu = m["jobs"] / m["single"], m["jobs_cpu"] / m["single_cpu"]
                print(f"time: {m['paths']} paths, the .{a.input} input; single {m['single']:.2f}s"
                      f" wall {m['single_cpu']:.2f}s cpu ({m['single_sys']:.2f}s sys), --jobs 2 "
                      f"{m['jobs']:.2f}s wall {m['jobs_cpu']:.2f}s cpu ({m['jobs_sys']:.2f}s sys) "
                      f"(medians of {a.repeat}); jobs/single {wall:.2f} "
                      f"wall, {cpu:.2f} cpu; load average {load:.2f} before, {after:.2f} after")
                rows.append(f"| {date} | {commit()} | time | {m['paths']} paths, .{a.input}: "
                            f"single {m['single']:.2f} s ({m['single_cpu']:.2f} s cpu, "
                            f"{m['single_sys']:.2f} sys), --jobs 2 {m['jobs']:.2f} s "
                            f"({m['jobs_cpu']:.2f} s cpu, {m['jobs_sys']:.2f} sys), ratio "
                            f"**{wall:.2f}** wall, {cpu:.2f} cpu (load {load:.2f} to "
                            f"{after:.2f}) | `{command}` |")
        if not a.skip_sim:
            r = simulate(symq, bc, scratch, a.workers, a.parts_per_worker)
            print(f"sim: {r['parts']} parts, {r['paths']} paths; the splitter "
                  f"{r['split_instructions']} instructions, the parts {r['part_instructions']}; "
                  f"largest part {100 * r['largest_part_share']:.1f}%; over {a.workers} workers "
                  f"max/mean {r['max_mean_instructions']:.2f} (instructions), "
                  f"{r['max_mean_seconds']:.2f} (exploration seconds)")
            rows.append(f"| {date} | {commit()} | sim | {r['parts']} parts over {a.workers} "
                        f"workers: max/mean **{r['max_mean_instructions']:.2f}** by instructions, "
                        f"{r['max_mean_seconds']:.2f} by seconds; largest part "
                        f"{100 * r['largest_part_share']:.1f}% | `{command}` |")
    if a.table:
        with open(a.table, "a") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
