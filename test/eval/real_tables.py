#!/usr/bin/env python3
"""eval/real/run --tables-only on hand-made results whose statistics are known: the paper's
speed-up over the pairs where one mode finished, the coverage increase over those where one
timed out, and which tables exist for which modes (Table 7 is pat-inc against pat; without
none there is no Table 5); over several Z3 seeds (--z3-seeds), the median per mode, the ratio
of the medians over the seeds both modes ran, and a time-out at any seed a time-out; short
runs measured --short-repeats times, one after another or interleaved over a driver's modes
(ABBA). Usage: real_tables.py <symq> (the symq is not run)."""
import csv
import importlib.machinery
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RUN = os.path.join(REPO, "eval", "real", "run")


def result(lib, driver, mode, status, time_s, covered, capacity=50):
    return {"lib": lib, "driver": driver, "mode": mode, "capacity": capacity,
            "status": status, "time_s": time_s, "covered_lines": covered,
            "total_lines": 1000, "completed": 1, "errors": 0, "early": 0, "tests": 1}


RESULTS = [
    # a: both finish, pat 3x faster than cfg
    result("apr", "a", "pat", "finished", 2.0, 40), result("apr", "a", "cfg", "finished", 6.0, 40),
    # b: cfg finishes, pat times out with more lines: in both statistics
    result("apr", "b", "pat", "timeout", 6.0, 60), result("apr", "b", "cfg", "finished", 4.0, 50),
    # c: both time out: coverage only
    result("apr", "c", "pat", "timeout", 6.0, 30), result("apr", "c", "cfg", "timeout", 6.0, 40),
    # a failed run is not a subject
    result("apr", "d", "pat", "failed", 1.0, 0), result("apr", "d", "cfg", "finished", 1.0, 9),
    # Table 7's pair
    result("apr", "a", "pat-inc", "finished", 1.0, 40),
]


def timed(lib, driver, mode, status, time_s, cpu_s, errors=(), validation=None):
    r = result(lib, driver, mode, status, time_s, 10)
    r.update(cpu_s=cpu_s, solver_effort=int(cpu_s * 1000), max_time="40",
             error_sites=list(errors))
    if validation is not None:
        r["validation"] = validation
    return r


def validation(merges, failures=0, unknown=0):
    return {"merges": merges, "incremental_merges": 0, "merge_validation_failures": failures,
            "messages_merge_unproved": 0, "qsolver_rechecked": 7,
            "qsolver_rechecked_from_cache": 2, "qsolver_recheck_unknown": unknown,
            "qsolver_disagreements": 0, "qsolver_models_unconfirmed": 0}


# CPU time recorded: the ratios use it, and a time-out counts as the limit (40 s), not as
# the CPU time it got; the wall times (time_s) would give other ratios.
CPU_RESULTS = [
    # e: both finish; by CPU none/pat = 2.0 (by wall 10/30)
    timed("json-c", "e", "none", "finished", 10.0, 2.0),
    timed("json-c", "e", "pat", "finished", 30.0, 1.0),
    # f: none finishes, pat times out at 40 s with 5 s of CPU: 3/40
    timed("json-c", "f", "none", "finished", 4.0, 3.0),
    timed("json-c", "f", "pat", "timeout", 41.0, 5.0),
    # the validated mode, beside none: one driver with the same errors, one without
    timed("json-c", "e", "pat-val", "finished", 31.0, 1.5, validation=validation(3)),
    timed("json-c", "f", "pat-val", "timeout", 42.0, 6.0, ["ptr x.c:3"],
          validation(0, failures=1, unknown=2)),
]


def seeded(driver, mode, seed, effort, cpu_s, status="finished", covered=10):
    r = timed("busybox", driver, mode, status, cpu_s + 1, cpu_s)
    r.update(z3_seed=seed, solver_effort=effort, covered_lines=covered)
    return r


# Five Z3 seeds. g: none's efforts 10 12 11 30 9 (median 11), pat's 12 11 13 10 14 (median
# 12): 12/11 = 1.09 by the medians, 0.33 (seed 3) to 1.56 (seed 4) seed by seed. h: pat
# times out at seed 2 alone: a time-out with 4/5 seeds finished. i: none crashed at seed 4,
# so both modes are taken over seeds 0-3 (pat's 1 2 3 40: median 2.5, not 3).
SEEDED = ([seeded("g", "none", s, e, c) for s, e, c in
           zip(range(5), (10, 12, 11, 30, 9), (1.0, 2.0, 3.0, 4.0, 5.0))]
          + [seeded("g", "pat", s, e, c) for s, e, c in
             zip(range(5), (12, 11, 13, 10, 14), (2.0, 2.0, 2.0, 2.0, 9.0))]
          + [seeded("h", "none", s, 5, 1.0) for s in range(5)]
          + [seeded("h", "pat", s, 5, 1.0, "timeout" if s == 2 else "finished")
             for s in range(5)]
          + [seeded("i", "none", s, 1, 1.0, "crashed" if s == 4 else "finished")
             for s in range(5)]
          + [seeded("i", "pat", s, e, 1.0) for s, e in zip(range(5), (1, 2, 3, 40, 4))])


def judged(driver, mode, status, cpu_s, covered, errors=()):
    r = timed("wget", driver, mode, status, cpu_s + 1, cpu_s, errors)
    r["covered_lines"] = covered
    return r


# Issue 26's done-when, pat against none (time-outs at the limit, 40 s): j both finish, pat
# 1.2x none's CPU (time fails); k none times out, pat finishes in 15 s (0.375: a win by time);
# l both time out, pat 11 lines against 10 (a win by lines); m both finish with pat 9 lines
# against 10 and another error (lines and errors fail); n none finishes, pat times out
# (finishes fails, and 40/4 is no time criterion: not both finished); o pat exactly half
# none's time (a win).
CRITERIA = [judged("j", "none", "finished", 5.0, 10), judged("j", "pat", "finished", 6.0, 10),
            judged("k", "none", "timeout", 41.0, 10), judged("k", "pat", "finished", 15.0, 10),
            judged("l", "none", "timeout", 41.0, 10), judged("l", "pat", "timeout", 41.0, 11),
            judged("m", "none", "finished", 2.0, 10, ["ptr m.c:1"]),
            judged("m", "pat", "finished", 2.0, 9, ["ptr m.c:1", "div m.c:2"]),
            judged("n", "none", "finished", 4.0, 10), judged("n", "pat", "timeout", 41.0, 10),
            judged("o", "none", "finished", 8.0, 10), judged("o", "pat", "finished", 4.0, 10)]


def tables_only(out, results):
    """`run --tables-only` on these results, written one file per run as run writes them."""
    os.makedirs(os.path.join(out, "results"))
    for i, r in enumerate(results):
        with open(os.path.join(out, "results", f"{i}.json"), "w") as f:
            json.dump(r, f)
    return subprocess.run([sys.executable, RUN, "--tables-only", "--out", out],
                          capture_output=True, text=True)


def rows(path):
    with open(path) as f:
        return {r["lib"]: r for r in csv.DictReader(f)}


def main():
    failures = []

    def check(what, got, want):
        if got != want:
            failures.append(f"{what}: got {got!r}, want {want!r}")

    with tempfile.TemporaryDirectory() as out:
        p = tables_only(out, RESULTS)
        check("exit", p.returncode, 0)
        tables = os.path.join(out, "tables")
        check("tables written", sorted(os.listdir(tables)),
              ["effort.csv", "effort.md", "runs.csv", "runs.md", "table3.csv", "table3.md",
               "table7.csv", "table7.md"])
        t3 = rows(os.path.join(tables, "table3.csv"))["apr"]
        # speed-ups cfg/pat over a and b: 3.0 and 4/6
        for key, want in [("time_n", "2/3"), ("speedup_avg", "1.83"), ("speedup_med", "1.83"),
                          ("speedup_min", "0.67"), ("speedup_max", "3.00"),
                          ("time_diff_s", "2.00"),
                          # coverage over b (+20%) and c (-25%)
                          ("cov_n", "2/3"), ("cov_avg", "-2.50"), ("cov_min", "-25.00"),
                          ("cov_max", "20.00"), ("cov_diff_lines", "0")]:
            check(f"table3 {key}", t3[key], want)
        t7 = rows(os.path.join(tables, "table7.csv"))["apr"]
        check("table7 time_n", t7["time_n"], "1/1")
        check("table7 speedup_avg", t7["speedup_avg"], "2.00")
        with open(os.path.join(tables, "table7.md")) as f:
            title = f.readline()
        check("table7 title", "incremental merging" in title and "against PAT" in title, True)
        with open(os.path.join(tables, "table3.md")) as f:
            check("one header row", f.read().count("| subject set |"), 1)
    with tempfile.TemporaryDirectory() as out:
        p = tables_only(out, CPU_RESULTS)
        check("cpu exit", p.returncode, 0)
        tables = os.path.join(out, "tables")
        t5 = rows(os.path.join(tables, "table5.csv"))["json-c"]
        for key, want in [("time_n", "2/2"), ("speedup_avg", "1.04"), ("speedup_min", "0.07"),
                          ("speedup_max", "2.00"), ("time_diff_s", "-36.00")]:
            check(f"table5 by cpu {key}", t5[key], want)
        with open(os.path.join(tables, "table5.md")) as f:
            check("table5 title says CPU time", "by CPU time" in f.readline(), True)
        with open(os.path.join(tables, "runs.csv")) as f:
            times = {(r["driver"], r["mode"]): (r["time_s"], r["cpu_s"], r["solver_effort"])
                     for r in csv.DictReader(f)}
            check("runs.csv keeps wall, cpu and Z3 effort", times[("f", "pat")],
                  ("41.0", "5.0", "5000"))
        with open(os.path.join(tables, "validation.md")) as f:
            v = [l.split(" | ") for l in f.read().splitlines()[2:]]
        check("validation rows", [(l[1], l[5], l[6], l[8], l[9], l[10]) for l in v],
              [("e", "3+0 inc", "0", "0", "7 (2)", "0"), ("f", "0+0 inc", "1", "0", "7 (2)", "2")])
        check("validation errors", [l[13] for l in v],
              ["0 / 0 same |", "0 / 1 differ: none only ; pat-val only ptr x.c:3 "
               "(not both finished) |"])
    with tempfile.TemporaryDirectory() as out:
        p = tables_only(out, SEEDED)
        check("seeded exit", p.returncode, 0)
        tables = os.path.join(out, "tables")
        with open(os.path.join(tables, "effort.csv")) as f:
            e = {r["driver"]: r for r in csv.DictReader(f)}
        for drv, key, want in [
                ("g", "seeds", "0,1,2,3,4"), ("g", "none effort med", "11"),
                ("g", "pat effort med", "12"), ("g", "none effort max", "30"),
                ("g", "pat/none effort (ratio of medians)", "1.09"),
                ("g", "pat/none per seed min", "0.33"), ("g", "pat/none per seed max", "1.56"),
                ("g", "none cpu s med", "3.00"), ("g", "pat cpu s med", "2.00"),
                ("h", "pat finished", "4/5"), ("h", "pat effort med", "-"),
                ("h", "pat/none effort (ratio of medians)", "-"),
                ("i", "seeds", "0,1,2,3"), ("i", "pat effort med", "2.5"),
                ("i", "pat/none effort (ratio of medians)", "2.50")]:
            check(f"effort.csv {drv} {key}", e[drv][key], want)
        with open(os.path.join(tables, "effort.md")) as f:
            md = f.read()
        check("effort.md says the time-out", "time-out (4/5 seeds finished)" in md, True)
        check("effort.md says the seed left out", "0,1,2,3 (4 left out" in md, True)
        check("effort.md counts over 1.1x by the medians",
              "over the 2 drivers both finish at every seed: ≤ 0.5× on 0 (—); over 1.1× on 1 "
              "(i 2.50)" in md, True)
        # Table 5 over the medians: g by CPU 3.0/2.0; h pat a time-out (the limit, 40 s)
        # against none's 1.0; i 1.0/1.0
        t5 = rows(os.path.join(tables, "table5.csv"))["busybox"]
        for key, want in [("time_n", "3/3"), ("speedup_min", "0.03"), ("speedup_max", "1.50")]:
            check(f"seeded table5 {key}", t5[key], want)
        with open(os.path.join(tables, "table5.md")) as f:
            check("table5 title says the seeds", "median over Z3 seeds 0,1,2,3,4" in f.readline(),
                  True)
        with open(os.path.join(tables, "runs.csv")) as f:
            check("runs.csv keeps every seed", len(list(csv.DictReader(f))), len(SEEDED) - 1)
    with tempfile.TemporaryDirectory() as out:
        p = tables_only(out, CRITERIA)
        check("criteria exit", p.returncode, 0)
        with open(os.path.join(out, "tables", "criteria.md")) as f:
            md = [l.split(" | ") for l in f.read().splitlines() if l.startswith("| ")]
        got = {l[1]: (l[5], l[9], l[10].rstrip(" |")) for l in md if l[0] == "| wget" and len(l) == 11}
        check("criteria rows", got, {
            "j": ("1.20", "**time**", "-"), "k": ("0.38", "-", "time"),
            "l": ("-", "-", "lines"), "m": ("1.00", "**lines**, **errors**", "-"),
            "n": ("10.00", "**finishes**", "-"), "o": ("0.50", "-", "time")})
        total = [l for l in md if l[0] == "| **all**"]
        check("criteria summary", total and total[0][1:], [
            "6", "3", "2", "n", "j", "m", "m |"])
    loader = importlib.machinery.SourceFileLoader("real_run", RUN)
    run = importlib.util.module_from_spec(importlib.util.spec_from_loader("real_run", loader))
    loader.exec_module(run)
    job = {"lib": "apr", "driver": "d", "mode": "pat", "capacity": 5}
    check("run name without a seed", run.run_id(job), "apr__d__pat__cap5")
    check("run name with a seed", run.run_id(dict(job, z3_seed=0)), "apr__d__pat__cap5__seed0")
    # Short runs are repeated (--short-repeats) and counted once each; a slow or killed one is
    # not repeated. The command appends a line per run to a file.
    with tempfile.TemporaryDirectory() as d:
        ran, resets = os.path.join(d, "ran"), []
        cmd = ["sh", "-c", f"echo x >> {ran}"]
        count = lambda: sum(1 for _ in open(ran))
        code, _, cpus, _, killed = run.measure_repeated(cmd, 30, 5, lambda: resets.append(1))
        check("a short run, repeated", (code, len(cpus), count(), len(resets), killed),
              (0, 5, 5, 4, None))
        check("once without repeats", len(run.measure_repeated(cmd, 30, 1, None)[2]), 1)
        short, run.SHORT_CPU_S = run.SHORT_CPU_S, 0.0
        check("a long run, once", len(run.measure_repeated(cmd, 30, 5, None)[2]), 1)
        run.SHORT_CPU_S = short
        killed = run.measure_repeated(["sleep", "20"], 0.2, 5, None)
        check("a killed run, once", (len(killed[2]), killed[4]), (1, "SIGTERM"))
    # Short runs of one driver are repeated interleaved, ABBA over its short modes, by one
    # fake symq that logs the mode of each run; the CPU times are scripted per mode, so a
    # median taken over the wrong runs shows.
    with tempfile.TemporaryDirectory() as d:
        fake, ran = os.path.join(d, "symq"), os.path.join(d, "ran")
        with open(fake, "w") as f:
            f.write("#!/bin/sh\nfor a; do case $a in --merge=*|--incremental-merge=*) "
                    f"m=\"$m$a\";; --output-dir=*) o=${{a#*=}};; esac; done\n"
                    f"echo \"$m\" >> {ran}; mkdir -p \"$o\"\n")
        os.chmod(fake, 0o755)
        cpu = {"--merge=none": iter([0.9, 0.5, 0.7]),
               "--merge=pat--incremental-merge=off": iter([3, 1, 2]),
               "--merge=pat": iter([0.2, 0.6, 0.4])}
        real_measured, real_build = run.run_measured, run.build_driver
        def measured(cmd, timeout):
            code, err, _, killed = real_measured(cmd, timeout)
            with open(ran) as f:
                return code, err, next(cpu[f.read().splitlines()[-1]]), killed
        run.run_measured = measured
        run.build_driver = lambda job, work: (os.path.join(work, "program.bc"), None, None)
        job = {"lib": "libpng", "driver": "d", "capacity": 40, "max_time": "60",
               "passes": "mem2reg", "status": "finished", "exit": 0}
        recs = [dict(job, mode="none", cpu_s=0.8), dict(job, mode="pat", cpu_s=0.3),
                dict(job, mode="pat-plain", cpu_s=2.5), dict(job, mode="cfg", cpu_s=7.0),
                dict(job, driver="e", mode="none", status="timeout", cpu_s=60)]
        first = os.path.join(d, "runs", "libpng__d__pat__cap40")
        os.makedirs(first)
        open(os.path.join(first, "stats.json"), "w").close()
        groups = run.interleave_groups(recs, 3)
        check("one driver's short modes interleaved",
              [[r["mode"] for r in g] for g in groups], [["none", "pat", "pat-plain"]])
        run.repeat_interleaved(groups[0], fake, d, 3)
        run.run_measured, run.build_driver = real_measured, real_build
        with open(ran) as f:
            check("ABBA order", f.read().split(),
                  ["--merge=none", "--merge=pat", "--merge=pat--incremental-merge=off",
                   "--merge=pat--incremental-merge=off", "--merge=pat", "--merge=none",
                   "--merge=none", "--merge=pat", "--merge=pat--incremental-merge=off"])
        check("medians of the repeats, the first run kept apart",
              [(r["cpu_s"], r["cpu_runs_s"], r["cpu_first_s"]) for r in groups[0]],
              [(0.7, [0.9, 0.5, 0.7], 0.8), (0.4, [0.2, 0.6, 0.4], 0.3),
               (2, [3, 1, 2], 2.5)])
        check("the first run's output kept", os.listdir(first), ["stats.json"])
        check("the order recorded", groups[0][0]["cpu_order"],
              "interleaved ABBA: none,pat,pat-plain")
        with open(os.path.join(d, "results", "libpng__d__pat__cap40.json")) as f:
            check("the record saved", json.load(f)["cpu_runs_s"], [0.2, 0.6, 0.4])
        check("--resume keeps what is interleaved", run.interleave_groups(recs, 3), [])
        check("another count is repeated again", len(run.interleave_groups(recs, 5)), 1)
    for msg in failures:
        print("real_tables: " + msg)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
