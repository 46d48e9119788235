#!/usr/bin/env python3
"""Pruning by interpolation (issue 22, item 7): paths, subsumed states, forks, instructions,
CPU time and verdict of `symq run` with and without `--interpolate`, on programs where
interpolation should win and where it cannot, with the ratios plain / interpolated.

    eval/bench_interp.py SYMQ [--programs noise,nondet,guard,counter,locks,memspn,
                                          mnoise,noisem]
                              [--merge none|cfg|pat] [--max-time S]
                              [--no-validate]

Programs (each at a few sizes):
  noise   test/prune/noise_unread.c: N choices change a value no check reads, then a check
          on another input — should win (forks linear in N instead of 2^(N+1) - 1);
  nondet  test/prune/nondet_noise.c: the noise chain in SV-COMP style, each choice a
          __VERIFIER_nondet_int call of its own (a fresh input in a private slot) — should
          win (subsumed up to a renaming of those inputs);
  guard   test/prune/wp_guard.c: N choices each assume a bound on y stronger than any
          before, then a check needs only y != 3 — where wp interpolants beat deletion's
          (the check pushed back over a bound is true; deletion keeps the bounds);
  counter test/prune/counter.c: N choices add 0 or 1 to a counter the assertion reads —
          should win, quadratically under deletion interpolants;
  locks   generated here: SV-COMP's test_locks shape without its loop (lk_i set when p_i,
          then checked under the same p_i): the safety needs p_i = 0 ∨ lk_i = 1, a
          disjunction conjunctive interpolants cannot hold — cannot save a fork (every
          fork is made while the locks are set; states agree in memory only once the
          checks have released the locks);
  memspn  drivers/memspn.c at CAPACITY N: a malloc'd buffer (an allocation below a node
          leaves it without an interpolant) and no branches that differ uselessly — cannot
          win;
  mnoise  test/prune/merged_then_noise.c: a loop over a buffer of symbolic size, then the
          noise chain — with --merge=pat|cfg the loop is one merged state whose subtree
          interpolation prunes (should win);
  noisem  test/prune/noise_then_merged.c: the noise chain, then that loop — the merged
          state's subtree gives the node above the loop its interpolant (should win).
--merge=cfg|pat runs every row (plain ones too) with that merging: the ratios are then
interpolation's on top of merging (docs/interpolation.md, "With merging").
Both interpolation algorithms are measured (--interpolate=deletion and =wp). Each
--interpolate run is also repeated with
--validate-interpolation (every pruned subtree explored anyway; `validation` says whether it
found an unsound subsumption) unless --no-validate. CPU is user + sys of the symq process
and its children (clang's compile included); a run stopped by --max-time (default 60 s) is
marked `>` and its verdict is unknown. Ratios compare only runs of one invocation."""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

LOCKS = r"""/* test_locks without its loop: N locks taken under p_i, released under p_i. */
#include <assert.h>
#include <klee/klee.h>
int main(void) {
  int p[N], lk[N];
  klee_make_symbolic(p, sizeof p, "p");
  for (int i = 0; i < N; i++) lk[i] = 0;
  for (int i = 0; i < N; i++)
    if (p[i] != 0) lk[i] = 1;
  for (int i = 0; i < N; i++)
    if (p[i] != 0) {
      assert(lk[i] == 1);
      lk[i] = 0;
    }
  return 0;
}
"""

PROGRAMS = {  # name: (source, the size macro, sizes, whether interpolation should win)
    "noise": (os.path.join(ROOT, "test", "prune", "noise_unread.c"), "N", (4, 8, 12), True),
    "nondet": (os.path.join(ROOT, "test", "prune", "nondet_noise.c"), "N", (4, 8, 12), True),
    "guard": (os.path.join(ROOT, "test", "prune", "wp_guard.c"), "N", (4, 8, 12), True),
    "counter": (os.path.join(ROOT, "test", "prune", "counter.c"), "N", (4, 8, 12), True),
    "locks": (None, "N", (4, 8, 10), False),
    "memspn": (os.path.join(ROOT, "drivers", "memspn.c"), "CAPACITY", (10, 20, 40), False),
    "mnoise": (os.path.join(ROOT, "test", "prune", "merged_then_noise.c"), "N", (4, 8, 12), True),
    "noisem": (os.path.join(ROOT, "test", "prune", "noise_then_merged.c"), "N", (4, 8, 12), True),
}


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_symq(symq, args, max_time):
    """`symq run --no-progress --max-time --output-dir=<scratch> ARGS`: (the finished process,
    its CPU, its stats.json or None). Shared with bench_svcomp.py."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        before = cpu_of_children()
        proc = subprocess.run([symq, "run", "--no-progress", f"--max-time={max_time}",
                               f"--output-dir={out}", *args],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        cpu = cpu_of_children() - before
        stats = None
        if os.path.exists(os.path.join(out, "stats.json")):
            with open(os.path.join(out, "stats.json"), encoding="utf-8") as f:
                stats = json.load(f)
    return proc, cpu, stats


def run(symq, source, define, options, max_time):
    proc, cpu, stats = run_symq(symq, [define, *options, source], max_time)
    if stats is None:
        sys.exit(f"bench_interp: {symq} {define} {' '.join(options)} wrote no stats "
                 f"(exit {proc.returncode}):\n{proc.stderr}")
    return proc.returncode, cpu, stats


def ratio(a, b):
    return f"{a / b:.1f}" if b else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("symq")
    ap.add_argument("--programs", default=",".join(PROGRAMS))
    ap.add_argument("--max-time", type=float, default=60)
    ap.add_argument("--no-validate", action="store_true")
    ap.add_argument("--merge", choices=("none", "cfg", "pat"), default="none")
    args = ap.parse_args()
    merge = [f"--merge={args.merge}"]
    with tempfile.TemporaryDirectory() as gen:
        locks = os.path.join(gen, "locks.c")
        with open(locks, "w", encoding="utf-8") as f:
            f.write(LOCKS)
        print("| program | size | mode | paths | subsumed | compared | forks | instructions "
              "| CPU (s) | verdict | validation |")
        print("|---|---|---|---|---|---|---|---|---|---|---|")
        ratios = []
        for name in args.programs.split(","):
            source, macro, sizes, _ = PROGRAMS[name]
            source = source or locks
            for n in sizes:
                define = f"-D{macro}={n}"
                row = {}
                for mode, options in (("plain", []), ("deletion", ["--interpolate"]),
                                      ("wp", ["--interpolate=wp"])):
                    options = merge + options
                    rc, cpu, s = run(args.symq, source, define, options, args.max_time)
                    limited = "> " if not s["exhausted"] else ""
                    validation = ""
                    if mode != "plain" and not args.no_validate:
                        vrc, _, v = run(args.symq, source, define,
                                        options + ["--validate-interpolation"], args.max_time)
                        failures = v["interpolation"]["validation_failures"]
                        validation = ("ok" if vrc == 0 and not failures and v["exhausted"]
                                      else f"FAILED (exit {vrc}, {failures} failures)"
                                      if failures or vrc else "incomplete")
                    verdict = s["verdict"].split(" ")[0]
                    print(f"| {name} | {n} | {mode} | {s['completed_paths']} | "
                          f"{s['subsumed'] if mode != 'plain' else '-'} | "
                          f"{s['interpolation'].get('compared', '-') if mode != 'plain' else '-'} | "
                          f"{s['forks']} | "
                          f"{s['instructions']} | {limited}{cpu:.2f} | {verdict} | "
                          f"{validation or '-'} |", flush=True)
                    row[mode] = (s["forks"], s["instructions"], cpu)
                ratios.append((name, n, *(ratio(row["plain"][k], row[m][k])
                                          for m in ("deletion", "wp") for k in range(3))))
        print()
        print("| program | size | forks plain / deletion | instructions | CPU "
              "| forks plain / wp | instructions | CPU |")
        print("|---|---|---|---|---|---|---|---|")
        for r in ratios:
            print("| " + " | ".join(str(x) for x in r) + " |")


if __name__ == "__main__":
    main()
